"""Points where the terms of a family change regime (issue 40, item 2).

A claim about a family of mechanisms composed ``k`` times is often false only where ``k``
is large *and* the continuous parameters are small against it: the advanced composition
bound written with ``sqrt(k ln(1/delta'))`` instead of ``sqrt(2 k ln(1/delta'))`` fails
against the exact optimal composition (Kairouz, Oh & Viswanath 2015, Theorem 3.3) only when
``eps`` is of order ``1/sqrt(k)`` (the privacy loss of ``k`` randomized responses is then
close to Gaussian, Dwork, Rothblum & Vadhan 2010, Section III) and ``delta'`` is tiny: at
``k = 100, eps = 0.1, delta' = 1e-10`` its left side is 20 times its right.  Uniform draws
of ``eps`` over ``(0, 10]`` and of ``delta'`` over ``[1e-10, 1/2]`` never meet that corner.

:func:`regime_points` puts each wide integer variable on a logarithmic ladder (1, 2, 3, 5,
10, 30, ..., 10^6) and pairs every continuous variable with it at scale-aware values:

* a *scale* (a positive real reaching above 1: a privacy parameter, a noise scale) at
  ``n^-1/2``, ``10 n^-1/2``, ``n^-1/2/10`` (the Gaussian regime of ``n`` compositions and
  either side of it), ``1e-1``, ``1e-2``, ``1e-3`` and ``n^-1``, where ``n`` is the
  ladder's value;
* a *probability* (a positive real within ``[0, 1]`` reaching down to ``1e-3``: ``delta``,
  ``beta``) at ``1e-12``, ``1/2``, ``1e-6`` and ``1e-3``, clipped into its domain (its
  smallest value when the domain stops above ``1e-12``, its largest below ``1/2``).

The combinations are taken in order of promise (the sum of the values' ranks above, the
first of each list being where a Gaussian approximation of ``k`` compositions is tightest
and failure probabilities are smallest), at most :data:`COMBINATIONS` per rung.  A wrong
constant in the linear term of the advanced composition bound shows at
``eps ~ 10/sqrt(k)`` and ``delta' = 1/2``, a wrong constant under its square root at
``eps ~ 1/sqrt(k)`` and ``delta'`` tiny: both are among the first combinations.  Other
variables are drawn at random from a generator of their own, so the plan's other points
are the same with or without these.  The points carry the origin ``"regime"``; a link
whose evaluations are costly keeps :data:`EXPENSIVE_REGIME_POINTS` of them, evaluated
cheapest first (:mod:`numeric_checks.point_cost`).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import mpmath

from numeric_checks.domain_ends import end_value
from numeric_checks.sampling import Point, Sampler, _draw
from symbolic.domains import Domain, Variable

__all__ = ["COMBINATIONS", "EXPENSIVE_REGIME_POINTS", "REGIME_LADDER", "regime_points"]

REGIME_LADDER = (1, 2, 3, 5, 10, 30, 100, 300, 1000, 3000, 10**4, 3 * 10**4, 10**5, 10**6)
"""Values of a wide integer variable (issue 40: "1, 2, 3, 5, 10, 30, 100, ..., 10^6")."""

COMBINATIONS = 6
"""Combinations of the continuous variables' values per rung of the ladder."""

SHORT_RUNG = 1000
"""Rungs up to this value are listed first, with every combination (a sum of that many
terms costs a fraction of a second); the longer rungs follow with fewer."""

LONG_RUNG_COMBINATIONS = 2

EXPENSIVE_REGIME_POINTS = COMBINATIONS * sum(
    1 for n in REGIME_LADDER if n <= SHORT_RUNG
) + LONG_RUNG_COMBINATIONS * sum(1 for n in REGIME_LADDER if n > SHORT_RUNG)
"""Regime points kept for a link with long sums or quadratures (the first of the list:
every combination on the short rungs, the most promising on the long ones); a count, so
the choice never depends on the machine."""

PROBABILITIES = ("1e-12", "0.5", "1e-6", "1e-3")
SCALE_FIXED_EXPONENTS = (-1, -2, -3)


@dataclass(frozen=True)
class _Ends:
    """A domain's finite ends as binary numbers rounded inwards (None: infinite)."""

    lower: Any
    upper: Any
    lower_open: bool
    upper_open: bool

    @classmethod
    def of(cls, d: Domain) -> _Ends:
        lo = end_value(d.lower, True) if d.lower.is_finite else None
        hi = end_value(d.upper, False) if d.upper.is_finite else None
        return cls(lo, hi, d.lower_open, d.upper_open)


def _kind(var: Variable, bounds: _Ends) -> str:
    """ "scale", "probability" or "other" (drawn at random)."""
    lo, hi = bounds.lower, bounds.upper
    if var.domain.kind == "integer" or lo is None or lo < 0:
        return "other"
    if hi is not None and hi <= 1:
        return "probability" if lo <= mpmath.mpf("1e-3") else "other"
    return "scale"


def _clipped(v: Any, bounds: _Ends) -> Any | None:
    """``v`` moved into the domain: onto a closed end it passes, just inside an open one;
    None when the domain has no room (a point domain)."""
    lo, hi = bounds.lower, bounds.upper
    if lo is not None and (v < lo or (bounds.lower_open and v == lo)):
        if not bounds.lower_open:
            return lo
        v = lo * (1 + mpmath.mpf(2) ** -20) if lo > 0 else lo + mpmath.mpf(2) ** -40
    if hi is not None and (v > hi or (bounds.upper_open and v == hi)):
        if not bounds.upper_open:
            return hi
        v = hi * (1 - mpmath.mpf(2) ** -20)
    if lo is not None and v < lo:
        return None
    return v


def _values(kind: str, n: int) -> list[Any]:
    if kind == "probability":
        return [mpmath.mpf(p) for p in PROBABILITIES]
    root = mpmath.sqrt(mpmath.mpf(n))
    fixed = [mpmath.mpf(10) ** e for e in SCALE_FIXED_EXPONENTS]
    return [1 / root, 10 / root, 1 / (10 * root), *fixed, 1 / mpmath.mpf(n)]


def _combinations(sizes: Sequence[int]) -> list[tuple[int, ...]]:
    """Index tuples in order of the sum of their ranks (ties: lexicographic)."""
    every = itertools.product(*(range(s) for s in sizes))
    return sorted(every, key=lambda c: (sum(c), c))[:COMBINATIONS]


def regime_points(sampler: Sampler, seed: int = 0) -> list[Point]:
    """The regime points of ``sampler``'s space (see the module's docstring): the short
    rungs' (up to :data:`SHORT_RUNG`), every rung's first combination, then its second,
    and so on; then the long rungs' in the same order."""
    free = sampler.space.free
    with mpmath.workdps(sampler.dps):
        bounds = [_Ends.of(v.domain) for v in free]
    kinds = [_kind(v, b) for v, b in zip(free, bounds, strict=True)]
    paired = [i for i, k in enumerate(kinds) if k != "other"]
    rng = random.Random(seed + 40)
    short: list[list[Point]] = [[] for _ in range(COMBINATIONS)]
    long: list[list[Point]] = [[] for _ in range(COMBINATIONS)]
    seen: set[tuple[Any, ...]] = set()
    with mpmath.workdps(sampler.dps):
        for i, var in enumerate(free):
            if var.domain.kind != "integer":
                continue
            b = bounds[i]
            if b.upper is not None and b.lower is not None and b.upper - b.lower <= 3:
                continue  # a short range: its edges already cover it
            for n in REGIME_LADDER:
                lists = [_values(kinds[j], n) for j in paired]
                for rank, combo in enumerate(_combinations([len(x) for x in lists])):
                    values = [_draw(v.domain, rng) for v in free]
                    values[i] = mpmath.mpf(n)
                    ok = True
                    for j, lst, c in zip(paired, lists, combo, strict=True):
                        v = _clipped(lst[c], bounds[j])
                        if v is None:
                            ok = False
                            break
                        values[j] = v
                    key = tuple(values)
                    if ok and key not in seen and sampler.satisfies(values):
                        seen.add(key)
                        (short if n <= SHORT_RUNG else long)[rank].append(Point(key, "regime"))
    return [p for group in short + long for p in group]
