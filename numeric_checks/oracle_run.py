"""A derivation's oracle run at the plan's points, a disagreement evaluated again at more
digits before it counts (see :data:`ORACLE_AGAIN`)."""

from __future__ import annotations

import mpmath

from numeric_checks.plan import CheckPlan
from numeric_checks.points import fmt
from numeric_checks.sampling import Point
from symbolic.derivation import OracleOutcome
from symbolic.errors import DpderiveError, EvaluationError
from symbolic.report import OracleResult

__all__ = ["ORACLE_AGAIN", "run_oracle"]


ORACLE_AGAIN = 2
"""A point where the oracle disagrees is evaluated again at this many times the digits (the
point's definitions included) before it counts: oracles are mpmath computations (quadrature,
series, simulations) with no proved error bound, so a disagreement that does not survive
more digits is the oracle's, not the theorem's."""


def _oracle_again(plan: CheckPlan, point: Point) -> tuple[OracleOutcome, bool]:
    """The oracle at ``point`` again at :data:`ORACLE_AGAIN` times the digits: ``ok`` False
    only if it disagrees again; the detail says how the disagreement was confirmed.  The
    flag: the disagreement dissolved (the oracle agrees at more digits), as opposed to left
    open (it could not compute there)."""
    oracle = plan.derivation.oracle
    assert oracle is not None
    dps = ORACLE_AGAIN * plan.options.dps
    try:
        with mpmath.workdps(dps):
            outcome = oracle.check(plan.full_point(point, dps))
    except (DpderiveError, ArithmeticError, ValueError) as exc:
        detail = f"a disagreement not confirmed: at {dps} digits the oracle failed ({exc})"
        return OracleOutcome(None, detail), False
    if outcome.ok is False:
        return OracleOutcome(
            False, f"confirmed by re-evaluation at {dps} digits (no rigorous error bound)"
        ), False
    detail = (
        f"a disagreement at {plan.options.dps} digits not confirmed at {dps} ({outcome.detail})"
    )
    return OracleOutcome(None, detail), outcome.ok is True


def run_oracle(plan: CheckPlan) -> OracleResult | None:
    """The derivation's oracle at half random, half hypothesis-boundary points (where a wrong
    constant shows).  A point where the oracle cannot compute decides nothing."""
    oracle = plan.derivation.oracle
    if oracle is None or not plan.options.oracle:
        return None
    random_pts = [p for p in plan.points if p.origin == "random"]
    boundary = [p for p in plan.points if p.origin == "boundary"]
    half = oracle.points // 2
    chosen = boundary[:half] + random_pts[: oracle.points - min(half, len(boundary))]
    agreed, undecided = 0, 0
    notes: list[str] = []
    closest: tuple[float, str] | None = None
    suspect = ""
    for p in chosen:
        try:
            values = plan.full_point(p)
        except EvaluationError:
            undecided += 1
            continue
        try:
            with mpmath.workdps(plan.options.dps):
                outcome = oracle.check(values)
        except (DpderiveError, ArithmeticError, ValueError) as exc:
            undecided += 1
            notes.append(f"{type(exc).__name__}: {exc}")
            continue
        if outcome.ok is False:
            again, dissolved = _oracle_again(plan, p)
            if again.ok is False:
                shown = {k: fmt(v) for k, v in values.items()}
                detail = f"{outcome.detail}; {again.detail}"
                return OracleResult(
                    oracle.name, oracle.description, False, agreed + 1, detail, shown
                )
            undecided += 1
            notes.append(again.detail)
            if not dissolved and not suspect:
                # Seen and not confirmed: the oracle decides nothing for the derivation.
                at = ", ".join(f"{k} = {fmt(v)}" for k, v in values.items())
                suspect = f"at {at}: {outcome.detail}; {again.detail}"
            continue
        if outcome.ok:
            agreed += 1
            if outcome.closeness is not None and (
                closest is None or outcome.closeness > closest[0]
            ):
                at = ", ".join(
                    f"{v.name}={fmt(x)}" for v, x in zip(plan.space.free, p.values, strict=True)
                )
                closest = (outcome.closeness, f"{outcome.detail} (at {at})")
        else:
            undecided += 1
    detail = f"agrees at {agreed} points"
    if undecided:
        detail += f"; could not decide at {undecided}"
        if notes:
            detail += f" (e.g. {notes[0][:120]})"
    if suspect:
        detail += f"; a disagreement was seen and not confirmed {suspect}"
    return OracleResult(
        oracle.name,
        oracle.description,
        True if agreed and not suspect else None,
        agreed + undecided,
        detail,
        closest=closest[1] if closest else None,
        suspect=suspect,
    )
