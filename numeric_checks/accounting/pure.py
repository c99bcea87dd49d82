"""Upper bounds for compositions of pure DP mechanisms that rest on theorems the catalog
cites but does not prove.

* The optimal composition of k eps0-DP mechanisms (Kairouz, Oh & Viswanath 2015, "The
  composition theorem for differential privacy", Theorem 3.3, delta = 0): the k-fold
  composition is (eps, delta_k(eps))-DP with delta_k(eps) = sum_l max(0, C(k, l)
  (p^(k-l) q^l - e^eps p^l q^(k-l))), p = e^eps0/(1 + e^eps0), q = 1 - p; it is attained by
  randomized response.
* Amplification by Poisson subsampling (Li, Qardaji & Su 2012, Theorem 1; Balle, Barthe &
  Gaboardi 2018, Theorem 8): an eps0-DP mechanism run on a Poisson sample of rate q is
  log(1 + q (e^eps0 - 1))-DP for adding or removing a record.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from flint import arb


def amplified(eps0: arb, q: arb) -> arb:
    """log(1 + q (e^eps0 - 1)) (Balle, Barthe & Gaboardi 2018, Theorem 8)."""
    return (1 + q * (eps0.exp() - 1)).log()


def kov_delta(k: int, eps0: arb, eps: arb) -> arb:
    """delta_k(eps) of the optimal composition (Kairouz, Oh & Viswanath 2015, Thm. 3.3) as a
    ball.  The l-th term is positive exactly when (k - 2 l) eps0 > eps, so the sum runs over
    l from 0 while that holds (shown on balls; a term whose sign the balls cannot decide
    enters as max(0, term)), each term from the last by the binomial ratio."""
    e = eps0.exp()
    p, q = e / (1 + e), 1 / (1 + e)
    w = eps.exp()
    a, b = p**k, q**k  # C(k, l) p^(k-l) q^l and C(k, l) p^l q^(k-l) at l = 0
    up, down = q / p, p / q
    total = arb(0)
    for ell in range(k + 1):
        sign = (k - 2 * ell) * eps0 - eps
        if sign < 0:
            break  # this term and every later one is negative
        term = a - w * b
        total += term if sign > 0 else term.max(arb(0))
        ratio = arb(k - ell) / (ell + 1)
        a, b = a * ratio * up, b * ratio * down
    return total


@functools.lru_cache(maxsize=4)
def _log_binomials(k: int) -> np.ndarray:
    lg = np.array([math.lgamma(i + 1) for i in range(k + 1)])
    return lg[k] - lg - lg[::-1]  # type: ignore[no-any-return]


def kov_delta_float(k: int, eps0: float, eps: float) -> float:
    """The same sum in floating point (log space), to search where to evaluate the balls."""
    ell = np.arange(k + 1, dtype=float)
    p = -math.log1p(math.exp(-eps0))  # log p
    q = -math.log1p(math.exp(eps0))  # log q
    log_c = _log_binomials(k)
    first = np.exp(log_c + (k - ell) * p + ell * q)
    second = np.exp(np.minimum(eps + log_c + ell * p + (k - ell) * q, 700.0))
    return float(np.sum(np.clip(first - second, 0.0, None)))
