"""The exact lower bound for compositions of unsampled Gaussian mechanisms, by one event.

For the neighbouring inputs whose query values differ by Delta_i in round i, the outputs
are N(Delta_i, sigma_i^2) against N(0, sigma_i^2), independent.  The statistic
Z = sum_i (Delta_i/sigma_i^2) X_i / mu with mu^2 = sum_i (Delta_i/sigma_i)^2 is N(mu, 1)
under the first law and N(0, 1) under the second (a sum of independent normals), so the
event S = {Z > t} has P(S) = Phi(mu - t), Q(S) = Phi(-t), and delta(eps) >= Phi(mu - t)
- e^eps Phi(-t) for every t.  At t = eps/mu + mu/2 (the likelihood-ratio threshold) this is
the whole profile of mu-GDP (Dong, Roth & Su 2022, Corollary 2.13), found here without that
corollary: only the event's two probabilities are used.
"""

from __future__ import annotations

import math

from flint import arb


def _phi(x: arb) -> arb:
    return (-x / arb(2).sqrt()).erfc() / 2


def event_threshold(mu: float, eps: float) -> float:
    """The likelihood-ratio threshold in floating point (any threshold gives a valid bound;
    this one gives the best)."""
    return eps / mu + mu / 2


def gaussian_event_delta(mu: arb, eps: arb) -> tuple[arb, float]:
    """A ball whose lower end bounds delta(eps) from below, and the threshold t used."""
    t = event_threshold(float(mu.mid()), float(eps.mid()))
    tb = arb(t)
    return _phi(mu - tb) - eps.exp() * _phi(-tb), t


def gaussian_event_eps(mu: arb, delta: arb) -> arb:
    """A ball whose lower end bounds eps(delta) from below: for the event {Z > t},
    Phi(mu - t) - e^eps Phi(-t) > delta for every eps < log((Phi(mu - t) - delta)/Phi(-t));
    t is searched in floating point, the bound evaluated on balls."""
    m, d = float(mu.mid()), float(delta.mid())

    def value(t: float) -> float:
        p = 0.5 * math.erfc((t - m) / math.sqrt(2))
        q = 0.5 * math.erfc(t / math.sqrt(2))
        if p <= d or q <= 0:
            return -math.inf
        return math.log(p - d) - math.log(q)

    # Golden-section search on t in [mu/2 - 5, mu + 40]: the value is unimodal there.
    lo, hi = m / 2 - 5, m + 40
    g = (math.sqrt(5) - 1) / 2
    for _ in range(200):
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
        if value(a) >= value(b):
            hi = b
        else:
            lo = a
    tb = arb((lo + hi) / 2)
    gap = _phi(mu - tb) - delta
    if not gap > 0:
        return arb(0)
    return (gap / _phi(-tb)).log()
