"""The referees of a sampled violation of one link: SymPy's ``evalf`` and the rigorous
route (exact evaluation, else Arb), each returning a :class:`~symbolic.report.RefereeRecord`
(a stage of :mod:`numeric_checks.stages`; :func:`numeric_checks.decide.decide` rules on it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import sympy as sp

from numeric_checks.points import confirm_with_evalf
from symbolic.report import RefereeKind, RefereeRecord

if TYPE_CHECKING:
    from numeric_checks.plan import CheckPlan
    from numeric_checks.stages import Link

__all__ = ["arb_referee", "evalf_referee"]


def evalf_referee(plan: CheckPlan, link: Link, point: Sequence[Any]) -> RefereeRecord:
    """SymPy's adaptive-precision evalf at the exact point: consulted when the rules proved a
    link that sampling refuted, to decide which to believe."""
    confirmed = confirm_with_evalf(link.lhs, link.relation, link.rhs, plan.symbols, point)
    return RefereeRecord(RefereeKind.EVALF, confirmed)


def arb_referee(plan: CheckPlan, link: Link, point: Sequence[Any]) -> RefereeRecord:
    """The rigorous referee of a sampled violation (:mod:`numeric_checks.confirm`): exact
    evaluation, else Arb balls of the whole residual (definitions unfolded, sums enclosed
    with a proved tail) at a precision raised until the ball decides.  Its ruling is what
    lets a violation refute (see :func:`numeric_checks.decide.decide`).  The point is first
    checked to lie in every domain and hypothesis, rigorously where it can be: the sampler
    tested them at twice the digits, which is no proof."""
    from numeric_checks.confirm import confirm_violation  # python-flint: only when needed

    return confirm_violation(
        link.lhs, link.relation, link.rhs, plan.symbols, point, _constraints(plan)
    )


def _constraints(plan: CheckPlan) -> tuple[tuple[sp.Expr, bool], ...]:
    """Every hypothesis and every finite domain end as ``(g, strict)``: ``g >= 0`` (``> 0``)."""
    ends: list[tuple[sp.Expr, bool]] = []
    for v in plan.space.free:
        dom = v.domain
        if dom.lower.is_finite:
            ends.append((v.symbol - dom.lower, dom.lower_open))
        if dom.upper.is_finite:
            ends.append((dom.upper - v.symbol, dom.upper_open))
    return (*ends, *plan.hypotheses)
