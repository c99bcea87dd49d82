"""A counterexample shrunk to simple numbers, and the point *as shown* re-verified: the
numbers a user reads must themselves be a counterexample (:func:`shown_counterexample`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import mpmath

from numeric_checks.budget import BudgetSpent, remaining, spent, time_limit
from numeric_checks.points import PointResult, RelationCheck, Status, complexity, fmt

__all__ = ["Display", "shown_counterexample"]

Display = Callable[[Sequence[Any], int], dict[str, str]]
"""``(values, digits) -> {name: shown value}`` for a point of the free variables."""


def _simple_candidates(v: Any, kind: str, dps: int) -> list[Any]:
    with mpmath.workdps(dps):
        return _candidates(v, kind)


def _candidates(v: Any, kind: str) -> list[Any]:
    out = [mpmath.mpf(c) for c in (0, 1, -1, 2, "0.5", 10)]
    out.append(mpmath.nint(v))
    if v != 0 and not mpmath.isinf(v):
        mag = mpmath.floor(mpmath.log10(abs(v)))
        for sig in (1, 2, 3):
            unit = mpmath.mpf(10) ** (mag - sig + 1)
            out.append(mpmath.nint(v / unit) * unit)
        out.append(mpmath.sign(v) * mpmath.mpf(10) ** mag)
        out.append(mpmath.sign(v) * mpmath.mpf(10) ** (mag + 1))
        # Rounded down and up, last: next to a closed end or an integer where the claim
        # holds (Sum(1, (k, 1, x)) = x fails at 4.999...9, not at 5), the nearest short
        # number may not fail, the one just inside may (4.9).
        for sig in (1, 2, 3):
            unit = mpmath.mpf(10) ** (mag - sig + 1)
            out.append(mpmath.floor(v / unit) * unit)
            out.append(mpmath.ceil(v / unit) * unit)
    if kind == "integer":
        out = [mpmath.nint(c) for c in out]
    # exact decimal values: rebuild from their short strings
    cleaned = []
    for c in out:
        s = mpmath.nstr(c, 4)
        cleaned.append(mpmath.mpf(s))
    return cleaned


def _shrink(
    check: RelationCheck, values: Sequence[Any], result: PointResult, passes: int = 3
) -> tuple[list[Any], PointResult]:
    """Replace coordinates by simpler numbers while the violation persists."""
    current = list(values)
    free = check.sampler.space.free
    for _ in range(passes):
        changed = False
        for i in range(len(current)):
            if spent():
                return current, result
            here = _complexity_shown(current[i], check.dps)
            for c in _simple_candidates(current[i], free[i].domain.kind, check.dps):
                if c == current[i] or complexity(c) >= here:
                    continue
                cand = list(current)
                cand[i] = c
                if not check.satisfies(cand):
                    continue
                r = check.decide(cand)
                if r.status is Status.VIOLATED:
                    current, result, changed = cand, r, True
                    break
        if not changed:
            break
    return current, result


UNSHOWABLE = (10**9, 0)
"""The complexity of a coordinate its working digits cannot write."""


def _complexity_shown(v: Any, dps: int) -> tuple[int, int]:
    """:func:`complexity` of ``v``, or :data:`UNSHOWABLE` where ``v`` differs from its own
    ``dps``-digit form (``5 - 2**-100`` at 30 digits prints as ``5.0``, where ``Sum(1, (k,
    1, x)) = x`` holds): any candidate that still fails is then simpler, ``4.9`` included."""
    if _is_exact(v) or mpmath.isinf(v):
        return complexity(v)
    return complexity(v) if _parse(fmt(v, dps), dps) == v else UNSHOWABLE


def shown_counterexample(
    check: RelationCheck,
    values: Sequence[Any],
    result: PointResult,
    display: Display | None,
) -> tuple[list[Any], PointResult, dict[str, str], str]:
    """Shrink a counterexample and make sure the point *as shown* is one.

    The numbers a user reads are re-verified: parsed back from their shown digits, they must
    lie in every domain (open ends excluded), satisfy every hypothesis exactly, give finite
    sides, and violate the relation stably at higher precision.  A shrunk point that fails
    this (one that rounds onto an open end, say ``alpha = 1.0`` for ``alpha in (1, 50]``)
    gives way to the unshrunk point, shown with as many digits as it takes.  Returns the
    values, their decision, the shown point and a note (empty when all is well).
    """

    def show(vals: Sequence[Any], digits: int) -> dict[str, str]:
        if display is not None:
            return display(vals, digits)
        return {s.name: fmt(v, digits) for s, v in zip(check.symbols, vals, strict=True)}

    try:
        with time_limit(remaining()):
            shrunk, decided = _shrink(check, values, result, passes=1 if check.expensive else 3)
    except BudgetSpent:
        shrunk, decided = list(values), result
    candidates = [(shrunk, decided)]
    if list(shrunk) != list(values):
        candidates.append((list(values), result))
    for vals, res in candidates:
        for digits in (17, 30, check.dps):
            # A coordinate standing for an exact number (sqrt(2)) is shown as that number,
            # so it is re-verified as itself, not as its digits.
            shown = [v if _is_exact(v) else _parse(fmt(v, digits), check.dps) for v in vals]
            if _genuine(check, shown):
                return vals, res, show(vals, digits), ""
    vals, res = candidates[-1]
    return (
        vals,
        res,
        show(vals, check.dps),
        f"not re-verified as shown ({check.dps} digits): a side is infinite there, or the "
        "point rounds onto a domain's end",
    )


def _is_exact(v: Any) -> bool:
    return getattr(v, "exact", None) is not None


def _parse(text: str, dps: int) -> Any:
    with mpmath.workdps(dps):
        return mpmath.mpf(text)


def _genuine(check: RelationCheck, values: Sequence[Any]) -> bool:
    """A counterexample a reader can verify: in the domain, hypotheses hold, sides finite,
    the violation stable at higher precision."""
    if not check.satisfies(values):
        return False
    r = check.decide(values)
    return (
        r.status is Status.VIOLATED
        and r.lhs is not None
        and r.rhs is not None
        and bool(mpmath.isfinite(r.lhs))
        and bool(mpmath.isfinite(r.rhs))
    )
