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
from symbolic.families import Family, ForAll, bound_free_symbols, index_symbol
from symbolic.latex_input.constructs import LatexParser
from symbolic.latex_input.cursor import q, short
from symbolic.latex_input.names import expand_indexed, family_ranges
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
    families: Mapping[str, Family] | None = None,
) -> LatexParser:
    """A parser over ``toks`` (positions in ``text``), not yet run."""
    return LatexParser(text, trim_tokens(toks), symbols, line_offset=line_offset, families=families)


def finish(
    parser: LatexParser, value: sp.Expr, bound: frozenset[sp.Symbol] = frozenset()
) -> sp.Expr:
    """Write out sums over indexed names and check that only declared symbols remain
    (and ``bound``: the index of a 'for all' around ``value``)."""
    value = expand_indexed(value, parser.placeholders, parser.symbols)
    allowed: set[sp.Basic] = set(bound)
    for v in parser.symbols.values():
        allowed |= sp.sympify(v).free_symbols
    # A family element p[i] under a sum is not free: its index is bound, its label declared.
    stray = sorted(str(s) for s in bound_free_symbols(value) if s not in allowed)
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
    text: str,
    symbols: Mapping[str, sp.Expr],
    names: Mapping[str, str] | None = None,
    *,
    families: Mapping[str, Family] | None = None,
) -> sp.Expr:
    """One LaTeX expression as SymPy.  ``symbols`` maps declared names to SymPy objects;
    ``names`` maps LaTeX fragments to declared names (``{"f(x)": "fx"}``), longest first;
    ``families`` the declared families by name (``p_i`` is then ``p[i]``).

    >>> eps = sp.Symbol("eps", positive=True)
    >>> parse_latex_expr(r"\\varepsilon\\left(e^{\\varepsilon} - 1\\right)", {"eps": eps})
    eps*(exp(eps) - 1)
    """

    def run() -> sp.Expr:
        parser = parse_tokens(text, tokenize(text, names), symbols, families=families)
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
    text: str,
    symbols: Mapping[str, sp.Expr],
    names: Mapping[str, str] | None = None,
    *,
    families: Mapping[str, Family] | None = None,
) -> list[sp.Basic]:
    """A hypothesis as SymPy relations: ``0 < \\delta < 1`` is two; several may be separated
    by commas; ``\\delta \\in (0, 1]`` is an interval.  Relations are left unevaluated.
    With ``families``, a hypothesis quantified ``\\forall i`` (before or after it) or
    ``\\text{for all } i`` (after it) is a :class:`~symbolic.families.ForAll` per relation,
    over the range where every element it indexes by i exists.

    >>> d = sp.Symbol("delta", positive=True)
    >>> parse_latex_relation(r"0 < \\delta \\le 1", {"delta": d})
    [0 < delta, delta <= 1]
    """

    def run() -> list[sp.Basic]:
        parser = parse_tokens(text, tokenize(text, names), symbols, families=families)
        quantified = _quantifier(parser) if families else None
        if quantified is None:
            return _relations(parser)
        name, tok = quantified
        var = index_symbol(name)
        mark = len(parser.elements)
        with parser.binding(name, var, index=True):
            rels = _relations(parser, frozenset({var}))
        lo, hi = _forall_range(parser, var, parser.elements[mark:], tok)
        return [ForAll(r, (var, lo, hi)) for r in rels]

    return guarded(text, run)


_FOR_ALL_WORDS = frozenset({"for all", "for every", "for each", "for any"})


def _quantifier(parser: LatexParser) -> tuple[str, Tok] | None:
    """Take ``\\forall i`` off the front (with a ``:``, ``,`` or ``\\colon`` after it) or
    ``\\forall i`` / ``\\text{for all} i`` off the end of the parser's tokens: the index's
    name and the quantifier's token."""
    toks = parser.toks
    if len(toks) >= 3 and parser.is_cs(toks[0], "\\forall"):
        name = parser._index_name(toks[1])
        if not name:
            raise parser.fail("\\forall needs an index", toks[0], "write \\forall i")
        skip = 2
        if parser.is_char(toks[2], ":,") or parser.is_cs(toks[2], "\\colon"):
            skip = 3
        parser.i = skip
        return _index_for_all(parser, name, toks[0]), toks[0]
    if len(toks) >= 3:
        word, last = toks[-2], toks[-1]
        text = " ".join(word.arg.lower().split()) if word.kind == "text" else ""
        if parser.is_cs(word, "\\forall") or text in _FOR_ALL_WORDS:
            name = parser._index_name(last)
            if not name:
                raise parser.fail("'for all' needs an index", word, "write \\forall i")
            parser.stop = len(toks) - 2
            if parser.stop > 0 and parser.is_char(toks[parser.stop - 1], ","):
                parser.stop -= 1
            return _index_for_all(parser, name, word), word
    return None


def _index_for_all(parser: LatexParser, name: str, tok: Tok) -> str:
    """``name`` if it may be quantified: not a declared variable (an index is bound by the
    'for all', a variable is fixed by the statement)."""
    if name in parser.symbols:
        raise parser.fail(
            f"'for all {name}': {name} is a declared variable, not an index",
            tok,
            "quantify over a family's index: p_i \\le e^{\\varepsilon} q_i \\quad \\forall i",
        )
    return name


def _forall_range(
    parser: LatexParser, var: sp.Symbol, read: list[tuple[sp.Indexed, Family, Tok]], tok: Tok
) -> tuple[sp.Expr, sp.Expr]:
    """Where ``for all i`` runs: the values of i at which every element indexed by i exists
    (``p_{i+1} \\le p_i`` for all i: 1..n - 1 in a family over 1..n)."""
    lows: list[sp.Expr] = []
    highs: list[sp.Expr] = []
    for element, family, at in read:
        for index, (flo, fhi) in zip(element.indices, family_ranges(family), strict=False):
            if var not in index.free_symbols:
                continue
            shift = sp.expand(index - var)
            if var in shift.free_symbols:
                raise parser.fail(
                    f"the index {index} under 'for all {var}' is not {var} plus a constant",
                    at,
                    f"write the elements as p_{{{var}}} or p_{{{var}+1}}",
                )
            lows.append(flo - shift)
            highs.append(fhi - shift)
    if not lows:
        raise parser.fail(
            f"'for all {var}' but no family element is indexed by {var}",
            tok,
            f"quantify over the index of a family: p_{var} \\le 1 \\quad \\forall {var}",
        )
    lo, hi = sp.Max(*lows), sp.Min(*highs)
    if isinstance(lo, sp.Max) or isinstance(hi, sp.Min):
        raise parser.fail(
            f"cannot tell the range of {var}: its families' ranges do not compare",
            tok,
            "index families of one range under one 'for all'",
        )
    return lo, hi


def _relations(parser: LatexParser, bound: frozenset[sp.Symbol] = frozenset()) -> list[sp.Basic]:
    """The relations of a hypothesis, read to the parser's end."""
    rels: list[sp.Basic] = []
    while True:
        start = parser.peek()
        exprs, found = parser.relation_chain()
        if parser.is_cs(parser.peek(), "\\in") and len(exprs) == 1:
            rels += _interval(parser, exprs[0], bound)
        elif not found:
            raise parser.fail(
                "a hypothesis must be a relation", start, "write one of = \\le < \\ge >"
            )
        for (rel, _), a, b in zip(found, exprs, exprs[1:], strict=False):
            rels.append(_rel(rel, finish(parser, a, bound), finish(parser, b, bound)))
        if parser.is_char(parser.peek(), ",;"):
            parser.next()
            continue
        parser.reject_rest()
        return rels


def _rel(rel: Relation, a: sp.Expr, b: sp.Expr) -> sp.Rel:
    made = rel.make(a, b)
    assert isinstance(made, sp.Rel)  # Relation.make builds it unevaluated
    return made


def _interval(
    parser: LatexParser, x: sp.Expr, bound: frozenset[sp.Symbol] = frozenset()
) -> list[sp.Rel]:
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
    x = finish(parser, x, bound)
    out: list[sp.Rel] = []
    lo, hi = finish(parser, lo, bound), finish(parser, hi, bound)
    if lo is not sp.S.NegativeInfinity:
        rel = Relation.LT if opener.value == "(" else Relation.LE
        out.append(_rel(rel, lo, x))
    if hi is not sp.S.Infinity:
        rel = Relation.LT if closer.value == ")" else Relation.LE
        out.append(_rel(rel, x, hi))
    return out
