"""Seed 002, the checks of Lemma 3.17: approximate max divergence through exact max
divergence and statistical distance.  Distributions are exact rationals or Arb balls built
from them."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from derivations.audit.seed_002_tools import (
    Balls,
    Dist,
    Params,
    approx_max_div_le,
    events,
    hockey,
    mass,
    max_ratio_events,
    pairs,
    searched,
    show,
    support,
    tv,
)
from derivations.seed_002_errata import lemma_3_17_2_if
from numeric_checks import CheckOptions, check_derivation
from numeric_checks.dp.finite_search import all_of, leq, max_div
from numeric_checks.dp.finite_search import tv as tv_arb
from symbolic.audit import Outcome
from symbolic.verdicts import Verdict

__all__ = [
    "check_317_1_if",
    "check_317_1_only_if_as_written",
    "check_317_1_only_if_corrected",
    "check_317_2_if_as_written",
    "check_317_2_if_corrected",
    "check_317_2_only_if",
]

EPS_DELTA = {"eps": (Fraction(0), Fraction(3)), "delta": (Fraction(0), Fraction(1))}
R_VALUES = (Fraction(1), Fraction(3, 2), Fraction(2), Fraction(4))


def _close_arb(y: Sequence[Any], z: Sequence[Any], eps: Any, delta: Any) -> bool | None:
    """``D_inf^delta(Y||Z) <= eps`` (events with Pr[Y in S] > delta) on balls: for every event
    S inside Supp(Y), Pr[Y in S] - delta <= e^eps Pr[Z in S] (for the others it is trivial)."""
    inside = [i for i, a in enumerate(y) if a != 0]
    factor = eps.exp()
    return all_of(
        *(
            leq(sum((y[i] for i in s), 0 * delta) - delta, factor * sum(z[i] for i in s))
            for k in range(1, len(inside) + 1)
            for s in itertools.combinations(inside, k)
        )
    )


def check_317_1_if() -> Outcome:
    """Lemma 3.17 (1), "if": Delta(Y, Y') <= delta and D_inf(Y'||Z) <= eps give
    D_inf^delta(Y||Z) <= eps (distributions Y, Y', Z)."""

    def premise(d: Balls, p: Params) -> bool | None:
        return all_of(leq(tv_arb(d[0], d[1]), p["delta"]), leq(max_div(d[1], d[2]), p["eps"]))

    def conclusion(d: Balls, p: Params) -> bool | None:
        return _close_arb(d[0], d[2], p["eps"], p["delta"])

    return searched(
        "Lemma 3.17 (1), if", 3, conclusion, premise=premise, params=EPS_DELTA, outcomes=(2, 4)
    )


def check_317_1_only_if_as_written() -> Outcome:
    """Lemma 3.17 (1), "only if", for every real eps: Y = Z = (1/2, 1/2), delta = 1/2,
    eps = ln(1/2).  The left side holds; no Y' has D_inf(Y'||Z) < 0, since the ratios
    Pr[Y'=y]/Pr[Z=y] average to 1 under Z."""
    y = z = (Fraction(1, 2), Fraction(1, 2))
    delta, r = Fraction(1, 2), Fraction(1, 2)
    left = approx_max_div_le(y, z, delta, r, strict=True, literal_convention=False)
    top = max((mass(y, s) - delta) / mass(z, s) for s in events(support(y)) if mass(y, s) > delta)
    # For any Y' with Supp(Y') in Supp(Z): sum_y Z(y) (Y'(y)/Z(y)) = 1, so max ratio >= 1 > r.
    right_possible = r >= 1
    return Outcome(
        not (left and not right_possible),
        f"Y = Z = {show(y)}, delta = {delta}, eps = ln {r}: D_inf^delta(Y||Z) = ln {top} <= eps "
        f"is {left}; every Y' has e^(D_inf(Y'||Z)) >= 1 > {r} (its ratios to Z average to 1 "
        "under Z), so no Y' exists",
    )


def _repair(y: Dist, z: Dist, r: Fraction) -> Dist:
    """Y' = min(Y, r Z) plus the removed mass spread over the slack r Z - min(Y, r Z)."""
    base = [min(a, r * b) for a, b in zip(y, z, strict=True)]
    removed = 1 - sum(base)
    slack = [r * b - c for b, c in zip(z, base, strict=True)]
    room = sum(slack)
    if removed == 0:
        return tuple(base)
    return tuple(c + removed * s / room for c, s in zip(base, slack, strict=True))


def check_317_1_only_if_corrected() -> Outcome:
    """Lemma 3.17 (1), "only if", for eps >= 0: given D_inf^delta(Y||Z) <= eps at the least
    such delta (sup_S Pr[Y in S] - e^eps Pr[Z in S]), the repaired Y' has Delta(Y, Y') <= delta
    and D_inf(Y'||Z) <= eps (Definition 3.6 over events), exactly."""
    checked = 0
    for y, z in pairs(11, 150):
        for r in R_VALUES:
            delta = hockey(y, z, r)
            if not approx_max_div_le(y, z, delta, r, strict=True, literal_convention=False):
                return Outcome(False, f"Y = {show(y)}, Z = {show(z)}: delta = {delta} not enough")
            y1 = _repair(y, z, r)
            ratio = max_ratio_events(y1, z)
            checked += 1
            if sum(y1) != 1 or min(y1) < 0 or tv(y, y1) > delta or ratio is None or ratio > r:
                return Outcome(False, f"Y = {show(y)}, Z = {show(z)}, r = {r}: Y' = {show(y1)}")
    return Outcome(True, f"{checked} exact cases (pairs on 2..5 outcomes x eps = ln r, r >= 1)")


def check_317_2_if_as_written() -> Outcome:
    """Lemma 3.17 (2), "if", as written (only D_inf(Y'||Z') <= eps): delta = 0, Y = Y' =
    (1, 0), Z = Z' = (1/2, 1/2), eps = ln 2."""
    y = y1 = (Fraction(1), Fraction(0))
    z = z1 = (Fraction(1, 2), Fraction(1, 2))
    r, delta = Fraction(2), Fraction(0)
    right = tv(y, y1) <= delta / (r + 1) and tv(z, z1) <= delta / (r + 1)
    ratio = max_ratio_events(y1, z1)
    right = right and ratio is not None and ratio <= r
    forward = approx_max_div_le(y, z, delta, r, strict=True, literal_convention=False)
    backward = approx_max_div_le(z, y, delta, r, strict=True, literal_convention=False)
    return Outcome(
        not (right and not (forward and backward)),
        f"right side holds: {right} (e^(D_inf(Y'||Z')) = {ratio} <= {r}); D_inf^0(Y||Z) <= "
        f"ln 2: {forward}; D_inf^0(Z||Y) <= ln 2: {backward} (Pr[Z = y2] = 1/2 while "
        "Pr[Y = y2] = 0, so D_inf(Z||Y) = +oo)",
    )


def check_317_2_if_corrected() -> Outcome:
    """The corrected "if" direction, event by event: the catalog's ``lemma-3-17-2-if``."""
    report = check_derivation(lemma_3_17_2_if(), CheckOptions(points=60, search_budget=60))
    return Outcome(
        report.verdict is Verdict.PROVED, f"lemma-3-17-2-if: {report.verdict.value} by the engine"
    )


def _two_sided_repair(y: Dist, z: Dist, r: Fraction) -> tuple[Dist, Dist]:
    """Y', Z' with both ratios <= r: at outcomes with y > r z (or z > r y) move the excess
    split in r : 1 between the two laws so the ratio becomes exactly r; then restore the sums
    (when sup_S Y(S) - r Z(S) >= sup_S Z(S) - r Y(S), Y' lacks the mass Z' has in excess)
    by raising Y' and lowering Z' in proportion to the room r Z' - Y' left elsewhere."""
    if hockey(y, z, r) < hockey(z, y, r):
        swapped = _two_sided_repair(z, y, r)
        return swapped[1], swapped[0]
    y1: list[Fraction] = list(y)
    z1: list[Fraction] = list(z)
    for i, (a, b) in enumerate(zip(y, z, strict=True)):
        move = (a - r * b) / (r + 1) if a > r * b else -(b - r * a) / (r + 1) if b > r * a else 0
        y1[i] -= move
        z1[i] += move
    deficit = 1 - sum(y1)
    room = [r * b - a for a, b in zip(y1, z1, strict=True)]
    if deficit:
        total = sum(room)
        for i, rho in enumerate(room):
            y1[i] += deficit * rho / total
            z1[i] -= deficit * rho / total
    return tuple(y1), tuple(z1)


def check_317_2_only_if() -> Outcome:
    """Lemma 3.17 (2), "only if", with the stronger (corrected) right side: for eps >= 0 and
    delta = max of both sup_S Pr[.. in S] - e^eps Pr[.. in S] (the least delta with both
    D_inf^delta <= eps), the repaired Y', Z' lie within delta/(e^eps + 1) of Y, Z and are
    eps-close both ways (Definition 3.6 over events), exactly."""
    checked = 0
    for y, z in pairs(12, 150):
        for r in R_VALUES:
            delta = max(hockey(y, z, r), hockey(z, y, r))
            y1, z1 = _two_sided_repair(y, z, r)
            share = delta / (r + 1)
            ratios = (max_ratio_events(y1, z1), max_ratio_events(z1, y1))
            checked += 1
            valid = sum(y1) == sum(z1) == 1 and min(y1) >= 0 and min(z1) >= 0
            if not (
                valid
                and tv(y, y1) <= share
                and tv(z, z1) <= share
                and all(x is not None and x <= r for x in ratios)
            ):
                return Outcome(
                    False,
                    f"Y = {show(y)}, Z = {show(z)}, r = {r}: Y' = {show(y1)}, Z' = {show(z1)}",
                )
    return Outcome(
        True, f"{checked} exact cases (pairs on 2..5 outcomes x eps = ln r, r in {{1, 3/2, 2, 4}})"
    )
