"""A relation decided exactly at a closed domain end that no binary number reaches.

The sampler's points are binary numbers, so a closed end such as ``log(3)``, ``pi/2``,
``sqrt(2)`` or ``1/3`` is sampled just inside, never on: ``x < pi`` on ``[-1, pi]``, false
only at ``x = pi``, would pass every sampled point (issue 38).  Here the link is evaluated
with SymPy at the exact end (the other variables at the values of a sampled edge point of
that end, exact binary rationals) and decided by checked enclosures
(:func:`~symbolic.exact_numbers.exact_sign`): a violation found so is a counterexample
confirmed exactly, the point satisfying every domain and hypothesis exactly.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import mpmath
import sympy as sp

from numeric_checks.points import fmt
from numeric_checks.search import SpotOutcome
from symbolic.errors import Unsupported
from symbolic.exact_numbers import NotEnclosable, exact_sign, rational_enclosure
from symbolic.functions import NumericFunction
from symbolic.relations import Relation
from symbolic.report import Counterexample, RefereeKind, RefereeRecord
from symbolic.rules import fact_from_relation
from symbolic.verdicts import Verdict

if TYPE_CHECKING:
    from numeric_checks.plan import CheckPlan
    from numeric_checks.stages import Link
    from symbolic.domains import Variable

__all__ = ["MAX_OPS", "at_exact_end", "decided_at", "evaluable_link", "exact_end_violation"]

MAX_OPS = 200
"""Links larger than this are not evaluated exactly (SymPy's evalf on a large tree)."""
NEAR_DIGITS = 20
"""A confirmed counterexample within this many digits (relative) of an inexact end is shown
at the end, where the link is decided exactly."""
PER_END = 3
"""Edge points tried per inexact end."""

_FAILS = {
    Relation.LE: (1,),
    Relation.LT: (0, 1),
    Relation.GE: (-1,),
    Relation.GT: (-1, 0),
    Relation.EQ: (-1, 1),
}
"""The signs of ``lhs - rhs`` at which each relation fails."""


def exact_end_violation(
    plan: CheckPlan, link: Link, spot: SpotOutcome
) -> tuple[SpotOutcome, RefereeRecord] | None:
    """A violation of ``link`` at an inexact closed end, decided exactly, as the spot
    outcome and referee ruling that show it; None when there is none (or none decidable)."""
    if not evaluable_link(link.lhs, link.rhs):
        return None
    for values, shown, at in _end_points(plan):
        decided = decided_at(plan, link, spot, values, shown, _at_ends(shown, at))
        if decided is not None:
            return decided
    return None


def at_exact_end(
    plan: CheckPlan, link: Link, spot: SpotOutcome
) -> tuple[SpotOutcome, RefereeRecord] | None:
    """A confirmed counterexample whose point lies at an inexact closed end to within the
    working precision (``eps = 0.0000199...98`` for the end ``1/50000``), moved onto the end
    itself where the link fails there too, decided exactly: the point then is the end as
    written, not the binary number just inside it.  None when there is no such end."""
    if spot.point is None or not evaluable_link(link.lhs, link.rhs):
        return None
    at: list[str] = []
    values: dict[sp.Symbol, sp.Expr] = {}
    shown: dict[str, str] = {}
    with mpmath.workdps(plan.options.dps + 10):
        for v, x in zip(plan.space.free, spot.point, strict=True):
            end = _end_near(v, x)
            if end is not None:
                at.append(v.name)
            values[v.symbol] = _rational(x) if end is None else end
            shown[v.name] = fmt(x) if end is None else str(end)
    if not at:
        return None
    return decided_at(plan, link, spot, values, shown, _at_ends(shown, at))


def _at_ends(shown: dict[str, str], at: Sequence[str]) -> str:
    where = ", ".join(f"{k} = {shown[k]}" for k in at)
    return f"at the closed end {where}, exactly"


def _end_near(v: Variable, x: Any) -> sp.Expr | None:
    """The inexact closed end of ``v``'s domain within rounding of ``x``, if any."""
    if v.domain.kind != "real":
        return None
    for end, is_open in (
        (v.domain.lower, v.domain.lower_open),
        (v.domain.upper, v.domain.upper_open),
    ):
        if is_open or not _inexact(end):
            continue
        lo, _ = rational_enclosure(end)
        target = mpmath.mpf(int(lo.p)) / int(lo.q)
        # Any point this close stands for the end (it is then decided exactly there, so the
        # tolerance chooses what is shown, never what is true).
        if abs(x - target) <= mpmath.mpf(10) ** (-NEAR_DIGITS) * abs(target):
            return end
    return None


def decided_at(
    plan: CheckPlan,
    link: Link,
    spot: SpotOutcome,
    values: dict[sp.Symbol, sp.Expr],
    shown: dict[str, str],
    note: str,
    place: str = "at the exact end",
) -> tuple[SpotOutcome, RefereeRecord] | None:
    """The outcome and exact ruling of a violation at the exact point ``values`` (shown to
    the user as ``shown``, with ``note`` saying where it lies), or None when the link holds
    there, or a hypothesis fails, or either cannot be decided."""
    residual = link.lhs - link.rhs
    sign = _exact_sign_at(residual, values)
    if sign is None or sign not in _FAILS[link.relation] or not _satisfies(plan, values):
        return None
    lhs, rhs = (_shown(side.xreplace(values)) for side in (link.lhs, link.rhs))
    cex = Counterexample(shown, lhs, rhs, plan.options.dps, note=note)
    # Shown as the referees show it: the gap the relation needs nonnegative (rhs - lhs for
    # <= and <), negative here.
    gap = -residual if link.relation in (Relation.LE, Relation.LT) else residual
    detail = f"residual {_shown(gap.xreplace(values))} {place}"
    ruling = RefereeRecord(RefereeKind.EXACT, True, detail, method="exactly")
    return SpotOutcome(Verdict.REFUTED, spot.evidence, cex, point=None), ruling


def evaluable_link(*sides: sp.Expr) -> bool:
    """Elementary and small: no sum, product or integral (evaluated elsewhere, with tails)
    and no function computed only numerically."""
    for side in sides:
        if side.has(sp.Sum, sp.Product, sp.Integral) or side.atoms(NumericFunction):
            return False
        if sp.count_ops(side) > MAX_OPS:
            return False
    return True


def _inexact(end: sp.Expr) -> bool:
    """A finite end no binary number equals: irrational, or a rational whose denominator
    is not a power of two."""
    if not end.is_finite:
        return False
    if isinstance(end, sp.Rational):
        q = int(end.q)
        return q & (q - 1) != 0
    return True


def _end_points(
    plan: CheckPlan,
) -> Iterator[tuple[dict[sp.Symbol, sp.Expr], dict[str, str], list[str]]]:
    """Exact points at each inexact closed end: a sampled point next to that end (an edge or
    corner point) with the end put in exactly, the other values as their exact rationals."""
    free = plan.space.free
    for i, v in enumerate(free):
        if v.domain.kind != "real":
            continue
        for end, is_open in (
            (v.domain.lower, v.domain.lower_open),
            (v.domain.upper, v.domain.upper_open),
        ):
            if is_open or not _inexact(end):
                continue
            found = 0
            with mpmath.workdps(plan.options.dps + 10):
                lo, _ = rational_enclosure(end)
                target = mpmath.mpf(int(lo.p)) / int(lo.q)
                near = mpmath.mpf(10) ** (5 - plan.options.dps) * (1 + abs(target))
                for point in plan.points:
                    if found >= PER_END or abs(point.values[i] - target) > near:
                        continue
                    found += 1
                    values: dict[sp.Symbol, sp.Expr] = {}
                    shown: dict[str, str] = {}
                    for j, (w, x) in enumerate(zip(free, point.values, strict=True)):
                        exact = end if j == i else _rational(x)
                        values[w.symbol] = exact
                        shown[w.name] = str(end) if j == i else fmt(x)
                    yield values, shown, [v.name]


def _rational(x: Any) -> sp.Rational:
    sign, man, exp, _ = mpmath.mpf(x)._mpf_ if not isinstance(x, mpmath.mpf) else x._mpf_
    n = -int(man) if sign else int(man)
    return sp.Rational(n * 2**exp) if exp >= 0 else sp.Rational(n, 2**-exp)


def _exact_sign_at(e: sp.Expr, values: dict[sp.Symbol, sp.Expr]) -> int | None:
    try:
        at = e.xreplace(values)
        if at.has(sp.nan, sp.zoo, sp.oo, -sp.oo, sp.I):
            return None
        return exact_sign(at)
    except (NotEnclosable, TypeError, ValueError, ArithmeticError, RecursionError):
        return None


def _satisfies(plan: CheckPlan, values: dict[sp.Symbol, sp.Expr]) -> bool:
    """Every inequality hypothesis holds at the exact point, decided exactly (the domains
    hold: the end is the domain's own, the other values were sampled inside)."""
    for h in plan.space.inequalities:
        for fact in fact_from_relation(h, ""):
            sign = _exact_sign_at(fact.expr, values)
            if sign is None or sign < 0 or (fact.strict and sign == 0):
                return False
    return True


def _shown(value: sp.Expr) -> str:
    """An exact value as its Arb enclosure, every digit shown certain (issue 39: a number
    shown is an enclosure); SymPy's 20 digits where Arb has none, the expression itself where
    SymPy has no number either (``Phi`` has no evalf of its own)."""
    from numeric_checks.arb import compile_arb, precision
    from numeric_checks.rigorous.shown import SHOWN_DIGITS, ball_text

    try:
        with precision(256):
            ball = compile_arb([], [value], extended=True)()[0]
        if ball.is_finite():
            return ball_text(ball, SHOWN_DIGITS)
    except (Unsupported, TypeError, ValueError, ArithmeticError):
        pass
    try:
        return str(sp.N(value, 20))
    except (TypeError, ValueError, ArithmeticError):
        return str(value)
