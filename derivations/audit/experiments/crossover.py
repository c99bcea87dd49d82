"""Comparisons checked where they can fail (issue 44): "the second term can be ignored",
"the calibration suffices", "A is below B" are statements ``small <= factor * large`` over a
parameter (the number of rounds k, the budget eps); such a statement is decided at its
crossover, the parameter value where the two sides meet, not on a box chosen away from it.

:func:`crossover` computes the crossover symbolically when SymPy solves
``small = factor * large`` for the parameter (with the other parameters at the seed's own
values), else it brackets it by bisection on rigorous Arb signs; then it evaluates both
sides with Arb at the first round number past the crossover and at one before it, and prints
both sides' magnitudes at each.  A side that is strictly above the other with certainty at a
point inside the seed's conventions refutes the comparison: the point is the counterexample,
confirmed by Arb (the tests recompute it exactly at 60 digits).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import sympy as sp

from derivations.audit.experiments.base import Result, register
from numeric_checks.arb import compile_arb, precision, show
from symbolic.errors import InvalidInput
from symbolic.readers.syntax import parse_expr, parse_number
from symbolic.verdicts import Verdict

__all__ = ["crossover", "crossover_of"]

_BITS = 256
_PARAMS = ("small", "large", "solve", "at", "factor", "range", "integer", "names", "fails")


def _symbols(params: Mapping[str, Any]) -> dict[str, sp.Symbol]:
    names = [params["solve"], *dict(params.get("at", {}))]
    return {n: sp.Symbol(n, positive=True) for n in names}


def _sides(params: Mapping[str, Any]) -> tuple[sp.Symbol, sp.Expr, sp.Expr, dict[str, Fraction]]:
    """The parameter, both sides with the other parameters substituted, and their values."""
    for key in ("small", "large", "solve"):
        if not isinstance(params.get(key), str):
            raise InvalidInput(f"experiment crossover: {key!r} must be a string")
    syms = _symbols(params)
    at = {n: Fraction(str(parse_number(str(v)))) for n, v in dict(params.get("at", {})).items()}
    subs = {syms[n]: sp.Rational(v.numerator, v.denominator) for n, v in at.items()}
    factor = sp.Rational(str(params.get("factor", "1")))
    small = parse_expr(params["small"], syms).subs(subs)
    large = factor * parse_expr(params["large"], syms).subs(subs)
    return syms[params["solve"]], small, large, at


def _gap(v: sp.Symbol, small: sp.Expr, large: sp.Expr, x: Fraction) -> Any:
    """The Arb ball of small - large at v = x."""
    fn = compile_arb([v], [small - large])
    from flint import arb

    with precision(_BITS):
        return fn(arb(x.numerator) / x.denominator)[0]


def _symbolic_root(v: sp.Symbol, small: sp.Expr, large: sp.Expr) -> sp.Expr | None:
    """The positive real solution of small = large for v, when SymPy finds exactly one."""
    try:
        found = sp.solve(sp.Eq(small, large), v)
    except (NotImplementedError, ValueError, TypeError):
        return None
    roots = [r for r in found if r.is_real and r.is_positive]
    return roots[0] if len(roots) == 1 else None


def _bracket(
    v: sp.Symbol, small: sp.Expr, large: sp.Expr, lo: Fraction, hi: Fraction
) -> tuple[Fraction, Fraction] | None:
    """An interval around a sign change of small - large inside [lo, hi], by bisection on
    Arb signs (each end's sign certified), to a relative width of 1e-9; None without one."""
    g_lo, g_hi = _gap(v, small, large, lo), _gap(v, small, large, hi)
    if not ((g_lo < 0 and g_hi > 0) or (g_lo > 0 and g_hi < 0)):
        return None
    rising = bool(g_lo < 0)
    for _ in range(200):
        if hi - lo <= abs(hi) * Fraction(1, 10**9):
            break
        mid = (lo + hi) / 2
        g = _gap(v, small, large, Fraction(mid.limit_denominator(10**12)))
        mid = Fraction(mid.limit_denominator(10**12))
        if not (g < 0 or g > 0):
            break  # the ball straddles zero: this is as close as Arb decides
        if bool(g < 0) == rising:
            lo = mid
        else:
            hi = mid
    return lo, hi


def _round(c: float, up: bool) -> Fraction:
    """c rounded to 3 significant digits, up or down (an exact rational)."""
    digits = 3 - math.floor(math.log10(abs(c))) - 1
    scale = Fraction(10) ** digits if digits >= 0 else Fraction(1, 10 ** (-digits))
    n = math.ceil(c * scale) if up else math.floor(c * scale)
    if up and Fraction(n) / scale <= Fraction(c):
        n += 1
    return Fraction(n) / scale


def _round_past(c: float, up: bool, integer: bool, above: bool = True) -> Fraction:
    """A round number past the crossover c on the failing side (3 significant digits, an
    integer where the parameter is one; ``up``), or a tenth (ten times, when the comparison
    fails ``above`` False: below the crossover) of it on the side where it should hold."""
    if not above:
        x = _round(c, False) if up else _round(10 * c, True)
        if integer:
            return Fraction(math.floor(x) if up else math.ceil(x))
        return x
    x = _round(c if up else c / 10, up)
    return Fraction(math.ceil(x) if up else max(1, math.floor(x))) if integer else x


def crossover_of(params: Mapping[str, Any]) -> tuple[str, float] | None:
    """The crossover as text (exact where SymPy solved it, else a certified bracket) and its
    value, or None when the sides do not meet inside the range."""
    v, small, large, _ = _sides(params)
    lo, hi = (Fraction(str(parse_number(str(x)))) for x in params["range"])
    root = _symbolic_root(v, small, large)
    if root is not None:
        value = float(sp.N(root, 30))
        if lo <= Fraction(value) <= hi:
            return f"{v} = {sp.sstr(sp.simplify(root))} = {value:.6g} (SymPy)", value
        return None
    found = _bracket(v, small, large, lo, hi)
    if found is None:
        return None
    a, b = found
    return (
        f"{v} in [{float(a):.10g}, {float(b):.10g}] (a sign change of both sides' difference "
        "certified by Arb at each end)",
        float((a + b) / 2),
    )


def _show_point(v: sp.Symbol, x: Fraction, small: sp.Expr, large: sp.Expr, names: Any) -> str:
    fn = compile_arb([v], [small, large])
    from flint import arb

    with precision(_BITS):
        a, b = fn(arb(x.numerator) / x.denominator)
    left, right = names
    return f"at {v} = {x}: {left} = {show(a)}, {right} = {show(b)}"


def _fails_at(params: Mapping[str, Any], point: Mapping[str, Fraction]) -> bool:
    """Whether small > factor * large at ``point`` (exact SymPy at 60 digits, for the tests)."""
    v, small, large, _ = _sides(params)
    x = point[str(v)]
    exact = (small - large).subs(v, sp.Rational(x.numerator, x.denominator))
    gap = sp.N(exact.rewrite(sp.erf).doit(), 60)
    return bool(gap > sp.Rational(1, 10**40))


@register(
    "crossover",
    "exact computation",
    _PARAMS,
    lambda params, _, point: not _fails_at(params, point),
)
def crossover(params: Mapping[str, Any]) -> Result:
    """``small <= factor * large`` for the parameter ``solve`` over ``range``, the other
    parameters fixed by ``at``: refuted at the first round value past the crossover on the
    side where it fails (``fails``: "above", the default, or "below" the crossover; both
    sides printed, by Arb), else checked at the two ends of the range (no crossover)."""
    v, small, large, at = _sides(params)
    integer = bool(params.get("integer", False))
    names: Sequence[str] = tuple(params.get("names", ("the small side", "the large side")))
    lo, hi = (Fraction(str(parse_number(str(x)))) for x in params["range"])
    fixed = ", ".join(f"{n} = {x}" for n, x in at.items())
    scope = f"instance: {fixed}, {v} in [{lo}, {hi}]"
    found = crossover_of(params)
    if found is None:
        ends = [_gap(v, small, large, x) for x in (lo, hi)]
        if all(g < 0 for g in ends):
            return Result(
                Verdict.CHECKED,
                scope,
                f"crossover: the sides do not meet for {v} in [{lo}, {hi}] (SymPy found no "
                f"root there, and Arb shows the comparison at both ends); "
                + "; ".join(_show_point(v, x, small, large, names) for x in (lo, hi)),
            )
        return Result(Verdict.UNDECIDED, scope, "crossover: neither a root nor a bracket found")
    text, c = found
    above = params.get("fails", "above") == "above"
    past = _round_past(c, True, integer, above)
    before = _round_past(c, False, integer, above)
    if not (lo <= past <= hi) or not _gap(v, small, large, past) > 0:
        return Result(
            Verdict.UNDECIDED, scope, f"crossover {text}; Arb could not confirm a failure past it"
        )
    before = min(max(before, lo), hi)
    held = bool(_gap(v, small, large, before) < 0)
    evidence = (
        f"at {fixed}: crossover {text}; {'above' if above else 'below'} it the comparison "
        "fails: "
        + _show_point(v, past, small, large, names)
        + f" ({names[0]} is the larger); "
        + (("below" if above else "above") + " it it holds: " if held else "there too it fails: ")
        + _show_point(v, before, small, large, names)
    )
    return Result(Verdict.REFUTED, scope, evidence, point={**at, str(v): past})
