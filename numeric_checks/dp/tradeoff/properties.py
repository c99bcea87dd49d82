"""The defining properties of trade-off functions, sampled (Dong, Roth & Su,
arXiv:1905.02383v3, Proposition 2.2; seed 004, section 2): convex, continuous,
non-increasing, f <= 1 - alpha."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import mpmath


@dataclass(frozen=True)
class Violation:
    """A failed property of a would-be trade-off function at a sampled alpha."""

    kind: str  # "range", "above-identity", "increasing", "convexity", "continuity"
    alpha: Any
    detail: str


def tradeoff_violations(
    f: Callable[[Any], Any], samples: int = 200, tol: Any = None
) -> list[Violation]:
    """Sample the four defining properties of a trade-off function (Dong, Roth & Su,
    Proposition 2.2; seed 004, section 2): convex, continuous, non-increasing, f <= 1 - alpha.
    A sampled check: an empty list means no violation was found on the grid, not a proof.
    The grid is uniform plus points clustered at both ends, where convex functions may
    jump; continuity is probed at 0 and 1 by a sequence tending to the end."""
    tol = mpmath.mpf(10) ** (-(mpmath.mp.dps - 8)) if tol is None else mpmath.mpf(tol)
    grid = sorted(
        {mpmath.mpf(i) / samples for i in range(samples + 1)}
        | {mpmath.mpf(10) ** -k for k in range(2, 12)}
        | {1 - mpmath.mpf(10) ** -k for k in range(2, 12)}
    )
    values = [f(a) for a in grid]
    out: list[Violation] = []
    for a, v in zip(grid, values, strict=True):
        if not (-tol <= v <= 1 + tol):
            out.append(Violation("range", a, f"f({mpmath.nstr(a, 8)}) = {mpmath.nstr(v, 8)}"))
        if v > 1 - a + tol:
            out.append(Violation("above-identity", a, f"f = {mpmath.nstr(v, 8)} > 1 - alpha"))
    points = list(zip(grid, values, strict=True))
    for (a0, v0), (a1, v1) in pairwise(points):
        if v1 > v0 + tol:
            out.append(
                Violation(
                    "increasing",
                    a1,
                    f"f({mpmath.nstr(a0, 8)}) = {mpmath.nstr(v0, 8)} < "
                    f"f({mpmath.nstr(a1, 8)}) = {mpmath.nstr(v1, 8)}",
                )
            )
    slopes = [(v1 - v0) / (a1 - a0) for (a0, v0), (a1, v1) in pairwise(points)]
    widths = [a1 - a0 for a0, a1 in pairwise(grid)]
    for j in range(1, len(slopes)):
        # A convex function's chord slopes increase; allow the rounding of a difference
        # quotient over a short interval.
        slack = tol * (1 / widths[j - 1] + 1 / widths[j])
        if slopes[j] < slopes[j - 1] - slack:
            out.append(
                Violation(
                    "convexity",
                    grid[j],
                    f"chord slopes {mpmath.nstr(slopes[j - 1], 8)} then "
                    f"{mpmath.nstr(slopes[j], 8)}",
                )
            )
    for end, inward in ((mpmath.mpf(0), 1), (mpmath.mpf(1), -1)):
        near = [f(end + inward * mpmath.mpf(10) ** -k) for k in (20, 30, 40)]
        gap = abs(f(end) - near[-1])
        if gap > mpmath.mpf(10) ** -6 and abs(near[-1] - near[0]) < gap / 100:
            out.append(
                Violation(
                    "continuity",
                    end,
                    f"f({mpmath.nstr(end, 3)}) = {mpmath.nstr(f(end), 8)} but the limit is "
                    f"{mpmath.nstr(near[-1], 8)}",
                )
            )
    return out
