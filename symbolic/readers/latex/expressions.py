"""Parse one LaTeX expression or hypothesis into SymPy.

Nothing of the text is executed: it is cut into tokens and read by a recursive-descent parser
that builds SymPy objects from a fixed vocabulary, and every name must be declared.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple, TypeVar

import mpmath
import sympy as sp

from symbolic.errors import ExpressionError, LatexError
from symbolic.families import Family, ForAll, bound_free_symbols, index_symbol
from symbolic.readers.latex.constructs import LatexParser
from symbolic.readers.latex.cursor import q, short
from symbolic.readers.latex.echo import refuse_hazards
from symbolic.readers.latex.names import expand_indexed, family_ranges, outside
from symbolic.readers.latex.tokens import Tok, blank_comments, tokenize
from symbolic.readers.syntax import build_time_limit, vet
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
        refuse_hazards(blank_comments(text))
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
        refuse_hazards(blank_comments(text))
        parser = parse_tokens(text, tokenize(text, names), symbols, families=families)
        quantified = _quantifier(parser) if families else None
        if quantified is None:
            return _relations(parser)
        var = index_symbol(quantified.name)
        mark = len(parser.elements)
        with parser.binding(quantified.name, var, index=True):
            rels = _relations(parser, frozenset({var}))
        lo, hi = _forall_range(parser, var, parser.elements[mark:], quantified)
        return [ForAll(r, (var, lo, hi)) for r in rels]

    return guarded(text, run)


_FOR_ALL_WORDS = frozenset({"for all", "for every", "for each", "for any"})
_DOTS = ("\\dots", "\\ldots", "\\cdots")


class _Quantifier(NamedTuple):
    """``for all name`` (at ``tok``), over ``lo..hi`` when the text gives the range."""

    name: str
    tok: Tok
    lo: sp.Expr | None = None
    hi: sp.Expr | None = None


def _quantifier(parser: LatexParser) -> _Quantifier | None:
    """Take the quantifier off the parser's tokens: ``\\forall i`` (``\\in \\{1, \\dots, n\\}``
    or ``\\in [n]``) in front, with a ``:``, ``,`` or ``\\colon`` after it; or at the end
    ``\\forall i``, ``\\text{for all} i`` (with the same ranges) or ``\\text{for} i = 1,
    \\dots, n``."""
    toks = parser.toks
    if len(toks) >= 3 and parser.is_cs(toks[0], "\\forall"):
        name = _quantified_name(parser, toks[0], toks[1])
        end = 2
        if parser.is_cs(toks[2], "\\in"):
            end = _closing(parser, 3, toks[0])
        lo_hi = _range_clause(parser, 2, end, toks[0])
        if end < len(toks) and (
            parser.is_char(toks[end], ":,") or parser.is_cs(toks[end], "\\colon")
        ):
            end += 1
        if end >= len(toks):
            raise parser.fail(
                "a 'for all' with nothing to quantify", toks[0], "write \\forall i: p_i \\le 1"
            )
        parser.i = end
        return _Quantifier(name, toks[0], *lo_hi)
    for k in range(len(toks) - 2, 0, -1):
        word = toks[k]
        text = " ".join(word.arg.lower().split()) if word.kind == "text" else ""
        if parser.is_cs(word, "\\forall") or text in _FOR_ALL_WORDS or text == "for":
            name = _quantified_name(parser, word, toks[k + 1])
            lo_hi = _range_clause(parser, k + 2, len(toks), word)
            if text == "for" and lo_hi[0] is None:
                raise parser.fail("'for i' needs its range", word, "write \\text{for all } i")
            parser.stop = k - 1 if parser.is_char(toks[k - 1], ",") else k
            return _Quantifier(name, word, *lo_hi)
    return None


def _quantified_name(parser: LatexParser, word: Tok, tok: Tok) -> str:
    """The index after ``\\forall``; not a declared variable (an index is bound by the 'for
    all', a variable is fixed by the statement)."""
    name = parser._index_name(tok)
    if not name:
        raise parser.fail("'for all' needs an index", word, "write \\forall i")
    return _index_for_all(parser, name, word)


def _closing(parser: LatexParser, j: int, word: Tok) -> int:
    """The end of a set ``\\{1, \\dots, n\\}`` or ``[n]`` opening at token ``j``."""
    toks = parser.toks
    pairs = {"\\{": "\\}", "[": "]"}
    opener = toks[j].value if j < len(toks) else ""
    if opener not in pairs:
        raise parser.fail(
            "'for all i \\in' needs a set", word, "write \\in \\{1, \\dots, n\\} or \\in [n]"
        )
    depth = 0
    for k in range(j, len(toks)):
        depth += toks[k].value == opener
        depth -= toks[k].value == pairs[opener]
        if depth == 0:
            return k + 1
    raise parser.fail(
        f"unclosed {q(opener)} in a 'for all'", toks[j], f"close it with {pairs[opener]}"
    )


def _range_clause(
    parser: LatexParser, a: int, b: int, word: Tok
) -> tuple[sp.Expr, sp.Expr] | tuple[None, None]:
    """The range in ``toks[a:b]``: nothing, ``\\in \\{lo, \\dots, hi\\}``, ``\\in [hi]``
    (1..hi) or ``= lo, \\dots, hi``."""
    toks = parser.toks[a:b]
    if not toks:
        return None, None
    shown = "write \\forall i \\in \\{1, \\dots, n\\} or \\forall i \\in [n]"
    if parser.is_cs(toks[0], "\\in") and len(toks) >= 3 and toks[1].value == "[":
        if toks[-1].value != "]":
            raise parser.fail("unclosed '[' in a 'for all'", toks[1], shown)
        return sp.Integer(1), _span(parser, a + 2, b - 1)
    if parser.is_cs(toks[0], "\\in") and len(toks) >= 3 and toks[1].value == "\\{":
        inner = (a + 2, b - 1)
    elif parser.is_char(toks[0], "="):
        inner = (a + 1, b)
    else:
        raise parser.fail(f"{q(toks[0].value)} after the index of a 'for all'", toks[0], shown)
    commas = [k for k in range(*inner) if parser.is_char(parser.toks[k], ",")]
    if len(commas) != 2 or not parser.is_cs(parser.toks[commas[0] + 1], *_DOTS):
        raise parser.fail("a 'for all' range must read lo, \\dots, hi", word, shown)
    return _span(parser, inner[0], commas[0]), _span(parser, commas[1] + 1, inner[1])


def _span(parser: LatexParser, a: int, b: int) -> sp.Expr:
    """The expression of tokens ``a..b`` of the parser."""
    saved = parser.i
    parser.i = a
    with parser.limited(b), parser.nested():
        value = finish(parser, parser.expr())
        if not parser.at_end():
            raise parser.fail("unexpected token in a 'for all' range", parser.peek())
    parser.i = saved
    return value


def _index_for_all(parser: LatexParser, name: str, tok: Tok) -> str:
    """``name`` if it may be quantified: not a declared variable (an index is bound by the
    'for all', a variable is fixed by the statement)."""
    indices = {i.name for f in parser.families.values() for i in f.indices}
    # A claim file lists the families' indices among its names (for SymPy syntax).
    if name in parser.symbols and name not in indices:
        raise parser.fail(
            f"'for all {name}': {name} is a declared variable, not an index",
            tok,
            "quantify over a family's index: p_i \\le e^{\\varepsilon} q_i \\quad \\forall i",
        )
    return name


def _forall_range(
    parser: LatexParser,
    var: sp.Symbol,
    read: list[tuple[sp.Indexed, Family, Tok]],
    quantified: _Quantifier,
) -> tuple[sp.Expr, sp.Expr]:
    """Where ``for all i`` runs: the range written, where every element indexed by i must
    exist; else the values of i at which every element indexed by i exists (``p_{i+1} \\le
    p_i`` for all i: 1..n - 1 in a family over 1..n)."""
    tok = quantified.tok
    if quantified.lo is not None and quantified.hi is not None:
        lo, hi = quantified.lo, quantified.hi
        for element, family, at in read:
            for index, (flo, fhi) in zip(element.indices, family_ranges(family), strict=False):
                ends = (index.xreplace({var: lo}), index.xreplace({var: hi}))
                if var in index.free_symbols and any(outside(x, flo, fhi) for x in ends):
                    raise parser.fail(
                        f"the element {element} leaves the family's range {flo}..{fhi} for "
                        f"{var} in {lo}..{hi}",
                        at,
                        f"index the family by {flo}..{fhi} only",
                    )
        if not any(var in e.free_symbols for e, _, _ in read):
            raise parser.fail(
                f"'for all {var}' but no family element is indexed by {var}",
                tok,
                f"quantify over the index of a family: p_{var} \\le 1 \\quad \\forall {var}",
            )
        return lo, hi
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
