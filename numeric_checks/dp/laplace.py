"""Oracle for the Laplace mechanism: privacy measured from the two output distributions.

Nothing of the proof chain is reused.  For the outputs ``P = f(x) + Lap(b)`` and
``Q = f(y) + Lap(b)`` it computes

* the hockey-stick divergence ``H = int max(0, p(z) - e^eps q(z)) dz``, integrated exactly
  on the pieces between the kinks ``f(x)``, ``f(y)`` and the crossing of ``p = e^eps q``;
  pure ``eps``-DP for this pair means ``H = 0``;
* the worst privacy loss ``sup_z ln(p(z)/q(z))``, read off the densities in their far tails
  (where the log-ratio is constant) and at the kinks, which must not exceed ``eps``;
* ``Pr[P in S] <= e^eps Pr[Q in S]`` (and the reverse) for a few intervals ``S``, with
  probabilities in a closed form that does not cancel in the tails.
"""

from __future__ import annotations

import itertools
from typing import Any

import mpmath


def laplace_density(z: Any, loc: Any, b: Any) -> Any:
    return mpmath.exp(-abs(z - loc) / b) / (2 * b)


def laplace_interval(lo: Any, hi: Any, loc: Any, b: Any) -> Any:
    """``Pr[lo <= loc + Lap(b) <= hi]`` without cancellation in the tails: each region uses
    the closed form in which no two nearly equal numbers are subtracted."""
    u, v = (lo - loc) / b, (hi - loc) / b
    if v <= 0:
        return (mpmath.exp(v) - mpmath.exp(u)) / 2
    if u >= 0:
        return (mpmath.exp(-u) - mpmath.exp(-v)) / 2
    return 1 - mpmath.exp(u) / 2 - mpmath.exp(-v) / 2


def hockey_stick(loc_p: Any, loc_q: Any, b: Any, eps: Any) -> Any:
    """``int max(0, p - e^eps q)`` for two Laplace densities of scale ``b``, integrated
    exactly piece by piece.

    Between the kinks ``loc_p``, ``loc_q`` and the crossing of ``p = e^eps q`` the log-ratio
    ``ln p - ln q`` is linear (constant beyond the kinks), so ``p - e^eps q`` has one sign on
    each piece; where it is positive its integral is ``P(piece) - e^eps Q(piece)``, two
    interval probabilities in the cancellation-free closed form of
    :func:`laplace_interval`.  (A quadrature of the same integral, the earlier method, agrees
    to the working precision and costs about a thousand times more.)
    """
    weight = mpmath.exp(eps)
    lo, hi = min(loc_p, loc_q), max(loc_p, loc_q)

    def excess(z: Any) -> Any:  # ln p(z) - ln q(z) - eps, piecewise linear in z
        return (abs(z - loc_q) - abs(z - loc_p)) / b - eps

    cuts = [lo, hi]
    if hi > lo:
        ha, hb = excess(lo), excess(hi)
        if ha * hb < 0:
            cuts.append(lo - ha * (hi - lo) / (hb - ha))
    cuts = sorted(set(cuts))
    edges = [-mpmath.inf, *cuts, mpmath.inf]
    total = mpmath.mpf(0)
    for left, right in itertools.pairwise(edges):
        if mpmath.isinf(left):
            probe = right - b
        elif mpmath.isinf(right):
            probe = left + b
        else:
            probe = (left + right) / 2
        if excess(probe) > 0:
            piece = laplace_interval(left, right, loc_p, b) - weight * laplace_interval(
                left, right, loc_q, b
            )
            total += max(mpmath.mpf(0), piece)
    return total


def worst_privacy_loss(loc_p: Any, loc_q: Any, b: Any) -> Any:
    """``sup_z ln(p/q)``: the log-ratio is piecewise linear with kinks at the locations and
    constant beyond them, so its sup is attained at a kink or in a tail."""
    # Any point beyond both locations is in a tail; a nearby one keeps |z - loc| small, so
    # no digits are lost to magnitude (a probe at 1e22 loses 38 of them).
    lo, hi = min(loc_p, loc_q), max(loc_p, loc_q)
    probes = [loc_p, loc_q, lo - b, hi + b]
    return max(
        mpmath.log(laplace_density(z, loc_p, b) / laplace_density(z, loc_q, b)) for z in probes
    )
