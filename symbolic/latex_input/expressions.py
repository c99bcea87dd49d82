"""Parse one LaTeX expression or hypothesis into SymPy.

Nothing of the text is executed: it is cut into tokens and read by a recursive-descent parser
that builds SymPy objects from a fixed vocabulary, and every name must be declared.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

import mpmath
import sympy as sp

from symbolic.errors import ExpressionError, LatexError
from symbolic.latex_input.constructs import LatexParser
from symbolic.latex_input.cursor import q, short
from symbolic.latex_input.names import expand_indexed
from symbolic.latex_input.tokens import Tok, tokenize
from symbolic.parsing import build_time_limit, vet
from symbolic.relations import Relation

__all__ = [
    "MAX_CHARS",
    "finish",
    "guarded",
    "parse_latex_expr",
    "parse_latex_relation",
    "parse_tokens",
    "trim_tokens",
]

MAX_CHARS = 10_000
T = TypeVar("T")
_WRAPPERS = {("$", "$"), ("\\(", "\\)"), ("\\[", "\\]")}


def trim_tokens(toks: list[Tok]) -> list[Tok]:
    """Without ``$..$`` / ``\\(..\\)`` / ``\\[..\\]`` wrappers, spacing, and a final ``.``
    or ``,``."""
    toks = [t for t in toks if t.kind != "quad"]
    while len(toks) >= 2 and (toks[0].value, toks[-1].value) in _WRAPPERS:
        toks = toks[1:-1]
    while toks and toks[-1].kind == "char" and toks[-1].value in ".,;":
        toks = toks[:-1]
    return toks


def parse_tokens(
    text: str,
    toks: list[Tok],
    symbols: Mapping[str, sp.Expr],
    *,
    line_offset: int = 0,
) -> LatexParser:
    """A parser over ``toks`` (positions in ``text``), not yet run."""
    return LatexParser(text, trim_tokens(toks), symbols, line_offset=line_offset)


def finish(parser: LatexParser, value: sp.Expr) -> sp.Expr:
    """Write out sums over indexed names and check that only declared symbols remain."""
    value = expand_indexed(value, parser.placeholders, parser.symbols)
    allowed: set[sp.Basic] = set()
    for v in parser.symbols.values():
        allowed |= sp.sympify(v).free_symbols
    stray = sorted(str(s) for s in value.free_symbols if s not in allowed)
    if stray:
        raise parser.fail(f"undeclared name {q(stray[0])}", None, "declare it under [variables]")
    try:
        vet(value)
    except ExpressionError as exc:
        raise parser.fail(str(exc), None) from None
    return value


def guarded(text: str, run: Callable[[], T], limit: int = MAX_CHARS) -> T:
    """Run ``run()``, turning SymPy's own failures into :class:`LatexError`."""
    if not isinstance(text, str):
        raise LatexError(f"LaTeX input must be a string, got {type(text).__name__}")
    if len(text) > limit:
        raise LatexError(f"LaTeX input longer than {limit} characters")
    if not text.strip():
        raise LatexError("empty LaTeX input", 1, "")
    saved_prec = mpmath.mp.prec
    try:
        with build_time_limit(text):
            return run()
    except LatexError:
        raise
    except RecursionError:
        raise LatexError(f"LaTeX expression nests too deeply: {short(text)}") from None
    except (TypeError, ValueError, ArithmeticError, AttributeError, KeyError) as exc:
        # ArithmeticError: SymPy's own ZeroDivisionError and OverflowError on a literal.
        if isinstance(exc, ExpressionError):
            raise
        raise LatexError(f"cannot build {short(text)}: {exc}") from None
    finally:
        mpmath.mp.prec = saved_prec  # SymPy's evalf raises it and may not restore it


def parse_latex_expr(
    text: str, symbols: Mapping[str, sp.Expr], names: Mapping[str, str] | None = None
) -> sp.Expr:
    """One LaTeX expression as SymPy.  ``symbols`` maps declared names to SymPy objects;
    ``names`` maps LaTeX fragments to declared names (``{"f(x)": "fx"}``), longest first.

    >>> eps = sp.Symbol("eps", positive=True)
    >>> parse_latex_expr(r"\\varepsilon\\left(e^{\\varepsilon} - 1\\right)", {"eps": eps})
    eps*(exp(eps) - 1)
    """

    def run() -> sp.Expr:
        parser = parse_tokens(text, tokenize(text, names), symbols)
        if parser.at_end():
            raise parser.fail("empty LaTeX expression")
        value = parser.expr()
        if parser.relation_at() is not None:
            raise parser.fail(
                "a relation is not an expression", parser.peek(), "give one side only"
            )
        parser.reject_rest()
        return finish(parser, value)

    return guarded(text, run)


def parse_latex_relation(
    text: str, symbols: Mapping[str, sp.Expr], names: Mapping[str, str] | None = None
) -> list[sp.Rel]:
    """A hypothesis as SymPy relations: ``0 < \\delta < 1`` is two; several may be separated
    by commas; ``\\delta \\in (0, 1]`` is an interval.  Relations are left unevaluated.

    >>> d = sp.Symbol("delta", positive=True)
    >>> parse_latex_relation(r"0 < \\delta \\le 1", {"delta": d})
    [0 < delta, delta <= 1]
    """

    def run() -> list[sp.Rel]:
        parser = parse_tokens(text, tokenize(text, names), symbols)
        rels: list[sp.Rel] = []
        while True:
            start = parser.peek()
            exprs, found = parser.relation_chain()
            if parser.is_cs(parser.peek(), "\\in") and len(exprs) == 1:
                rels += _interval(parser, exprs[0])
            elif not found:
                raise parser.fail(
                    "a hypothesis must be a relation", start, "write one of = \\le < \\ge >"
                )
            for (rel, _), a, b in zip(found, exprs, exprs[1:], strict=False):
                rels.append(_rel(rel, finish(parser, a), finish(parser, b)))
            if parser.is_char(parser.peek(), ",;"):
                parser.next()
                continue
            parser.reject_rest()
            return rels

    return guarded(text, run)


def _rel(rel: Relation, a: sp.Expr, b: sp.Expr) -> sp.Rel:
    made = rel.make(a, b)
    assert isinstance(made, sp.Rel)  # Relation.make builds it unevaluated
    return made


def _interval(parser: LatexParser, x: sp.Expr) -> list[sp.Rel]:
    """``x \\in (a, b]``: the bounds as relations (an infinite bound gives none)."""
    member = parser.next()
    left = parser.next() if parser.is_cs(parser.peek(), "\\left") else None
    opener = parser.peek()
    if not parser.is_char(opener, "(["):
        raise parser.fail("\\in needs an interval", member, "write x \\in (a, b] or [a, b)")
    parser.next()
    lo = parser.expr()
    parser.expect(",", "',' between the bounds")
    hi = parser.expr()
    if left is not None:
        parser.expect("\\right", "\\right")
    closer = parser.peek()
    if not parser.is_char(closer, ")]"):
        raise parser.fail("unclosed interval", opener, "close it with ) or ]")
    parser.next()
    assert opener is not None and closer is not None  # by is_char
    x = finish(parser, x)
    out: list[sp.Rel] = []
    lo, hi = finish(parser, lo), finish(parser, hi)
    if lo is not sp.S.NegativeInfinity:
        rel = Relation.LT if opener.value == "(" else Relation.LE
        out.append(_rel(rel, lo, x))
    if hi is not sp.S.Infinity:
        rel = Relation.LT if closer.value == ")" else Relation.LE
        out.append(_rel(rel, x, hi))
    return out
