"""The parser's position in a token list, its scopes and its error messages.

Every error names the offending fragment, the line it is on and what to write instead; it is
a :class:`~symbolic.errors.LatexError` carrying ``line`` and ``fragment``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

import sympy as sp

from symbolic.errors import LatexError
from symbolic.families import Family
from symbolic.readers.latex.tokens import Tok, line_of

__all__ = ["Cursor", "Indexed", "q", "short"]


def q(text: str) -> str:
    """LaTeX quoted as written (``repr`` would double its backslashes)."""
    return "'" + text + "'"


def short(text: str, limit: int = 80) -> str:
    """``text`` quoted, its spacing collapsed, cut to ``limit`` characters."""
    text = " ".join(text.split())
    return q(text if len(text) <= limit else text[: limit - 3] + "...")


@dataclass(frozen=True)
class Indexed:
    """A name subscripted by a summation index (``p_i`` in ``\\sum_{i=1}^{3} p_i``): the
    candidate base names, and where it was written."""

    bases: tuple[str, ...]
    fragment: str
    line: int


class Cursor:
    """Token access with a movable end (``limited``), bound variables (``binding``) and the
    error factory :meth:`fail`."""

    def __init__(
        self,
        text: str,
        toks: list[Tok],
        symbols: Mapping[str, sp.Expr],
        *,
        line_offset: int = 0,
        families: Mapping[str, Family] | None = None,
    ) -> None:
        self.text = text
        self.toks = toks
        self.symbols = symbols
        self.families: Mapping[str, Family] = families or {}
        """Declared families by name: ``p_i`` is the element ``p[i]`` of a family ``p``."""
        self.elements: list[tuple[sp.Indexed, Family, Tok]] = []
        """Every family element read, in order, with where it was written: a sum or a
        'for all' checks (or infers) its index's range from the elements read inside it."""
        self.line_offset = line_offset
        self.i = 0
        self.stop = len(toks)
        self.bound: dict[str, sp.Symbol] = {}
        self.sum_bound: set[str] = set()
        self.placeholders: dict[object, Indexed] = {}
        self.bar_depth = 0  # open bare |...| (a bar then closes instead of opening)
        self.noparen = False  # reading the argument of \ln x: stop before another function

    # -- grammar entry points, defined by the subclasses ------------------------------------
    def expr(self) -> sp.Expr:
        raise NotImplementedError

    def atom(self) -> sp.Expr:
        raise NotImplementedError

    # -- tokens ------------------------------------------------------------------------------
    @property
    def source(self) -> str:
        if not self.toks:
            return self.text
        return self.text[self.toks[0].pos : self.toks[-1].end]

    def peek(self, k: int = 0) -> Tok | None:
        j = self.i + k
        return self.toks[j] if j < self.stop else None

    def at_end(self) -> bool:
        return self.i >= self.stop

    def next(self) -> Tok:
        tok = self.peek()
        if tok is None:
            raise self.fail("the expression ends too early")
        self.i += 1
        return tok

    def is_char(self, tok: Tok | None, chars: str) -> bool:
        return tok is not None and tok.kind == "char" and tok.value in chars

    def is_kind(self, tok: Tok | None, kind: str) -> bool:
        return tok is not None and tok.kind == kind

    def is_cs(self, tok: Tok | None, *names: str) -> bool:
        return tok is not None and tok.kind == "cs" and tok.value in names

    def fragment(self, first: Tok, last: Tok | None = None) -> str:
        """The source text from ``first`` to ``last`` (default: the last token read)."""
        if last is None:
            last = self.toks[self.i - 1] if self.i > 0 else first
        return self.text[first.pos : max(first.end, last.end)]

    def line(self, pos: int) -> int:
        return line_of(self.text, pos) + self.line_offset

    def fail(self, problem: str, tok: Tok | None = None, remedy: str = "") -> LatexError:
        """A :class:`LatexError` about ``tok`` (default: the last token read)."""
        if tok is None and self.toks:
            tok = self.toks[min(max(self.i - 1, 0), len(self.toks) - 1)]
        pos = tok.pos if tok is not None else 0
        fragment = self.text[tok.pos : tok.end] if tok is not None else ""
        line = self.line(pos)
        message = f"{problem} in {short(self.source)} (line {line})"
        return LatexError(message + (f"; {remedy}" if remedy else ""), line, fragment)

    def expect(self, chars: str, what: str, opener: Tok | None = None) -> Tok:
        """The next token, which must be the character ``chars`` (or the command)."""
        tok = self.peek()
        ok = tok is not None and tok.kind in ("char", "cs") and tok.value == chars
        if not ok or tok is None:
            if opener is not None:
                raise self.fail(
                    f"unclosed {q(opener.value)}: expected {q(chars)}",
                    opener,
                    f"close it with {what}",
                )
            raise self.fail(f"expected {what}", tok)
        self.i += 1
        return tok

    # -- scopes ------------------------------------------------------------------------------
    @contextmanager
    def limited(self, stop: int) -> Iterator[None]:
        """Parse as if the tokens ended at index ``stop``."""
        saved = self.stop
        self.stop = stop
        try:
            yield
        finally:
            self.stop = saved

    @contextmanager
    def binding(self, name: str, symbol: sp.Symbol, *, index: bool = False) -> Iterator[None]:
        """Bind ``name`` to ``symbol`` (a Sum's or Integral's variable) while parsing."""
        saved = self.bound.get(name)
        was_index = name in self.sum_bound
        self.bound[name] = symbol
        if index:
            self.sum_bound.add(name)
        else:
            self.sum_bound.discard(name)
        try:
            yield
        finally:
            if saved is None:
                del self.bound[name]
            else:
                self.bound[name] = saved
            if was_index:
                self.sum_bound.add(name)
            else:
                self.sum_bound.discard(name)

    @contextmanager
    def nested(self, *, bar: bool = False) -> Iterator[None]:
        """Inside brackets: bars open again (or close, for a bare ``|``), functions take any
        argument."""
        saved = (self.bar_depth, self.noparen)
        self.bar_depth, self.noparen = (1 if bar else 0), False
        try:
            yield
        finally:
            self.bar_depth, self.noparen = saved
