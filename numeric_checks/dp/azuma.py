"""Azuma's inequality (Dwork & Roth 2014, Lemma 3.19): exact and simulated tails.

For real C_1..C_k with |C_i| <= alpha and E[C_i | C_1..C_{i-1}] <= beta,
Pr[sum C_i > k beta + z sqrt(k) alpha] <= exp(-z^2/2).

* :func:`binomial_tail` is the exact tail for the i.i.d. two-point family
  C_i in {beta - w, beta + w} with w = alpha - |beta| (so |C_i| <= alpha, E C_i = beta).
* :func:`simulate_adaptive` runs an adaptive martingale, whose conditional mean and spread
  depend on the running sum, and gives a Clopper-Pearson bound on its tail.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np

from numeric_checks.dp.stats import clopper_pearson
from numeric_checks.validate import check_positive, check_real, check_whole
from symbolic.errors import InvalidInput


def _hypotheses(k: Any, alpha: Any, beta: Any, z: Any) -> tuple[int, Any, Any, Any]:
    """The setting of Lemma 3.19 on the two-point family: k >= 1 steps, |beta| < alpha (so
    that the spread w = alpha - |beta| is positive), z > 0."""
    k = check_whole("k", k)
    alpha, beta = check_real("alpha", alpha), check_real("beta", beta)
    if not abs(beta) < alpha:
        raise InvalidInput(f"need |beta| < alpha, got alpha={alpha}, beta={beta}")
    return k, alpha, beta, check_positive("z", z)


def binomial_tail(k: Any, alpha: Any, beta: Any, z: Any) -> Any:
    """Exact Pr[sum C_i > k beta + z sqrt(k) alpha] for the two-point i.i.d. family."""
    k, alpha, beta, z = _hypotheses(k, alpha, beta, z)
    w = alpha - abs(beta)
    # sum C_i = k beta + w (2B - k) with B ~ Binomial(k, 1/2): need 2B - k > z sqrt(k) alpha/w
    threshold = (k + z * mpmath.sqrt(k) * alpha / w) / 2
    first = int(mpmath.floor(threshold)) + 1
    if first > k:
        return mpmath.mpf(0)
    term = mpmath.binomial(k, first) / mpmath.mpf(2) ** k
    total = mpmath.mpf(0)
    for b in range(first, k + 1):
        total += term
        term = term * (k - b) / (b + 1)
    return total


@dataclass(frozen=True)
class SimulatedTail:
    runs: int
    exceed: int
    lower: Any
    upper: Any
    bound: Any
    confidence: float


def simulate_adaptive(
    k: int,
    alpha: float,
    beta: float,
    z: float,
    runs: int = 20000,
    seed: int = 0,
    confidence: float = 0.999,
) -> SimulatedTail:
    """An adaptive martingale: while the running sum is below its expectation the next step
    has mean beta and full spread; above it, mean beta/2 and half the spread (so the
    conditional mean stays <= beta and |C_i| <= alpha)."""
    k, a, b, zz = _hypotheses(k, alpha, beta, z)
    alpha_f, beta_f = float(a), float(b)
    rng = np.random.default_rng(seed)
    total = np.zeros(runs)
    for i in range(k):
        ahead = total > beta_f * i
        mean = np.where(ahead, beta_f / 2, beta_f)
        spread = alpha_f - np.abs(mean)
        spread = np.where(ahead, spread / 2, spread)
        sign = rng.integers(0, 2, size=runs) * 2 - 1
        total += mean + spread * sign
    cut = k * beta_f + float(zz) * np.sqrt(k) * alpha_f
    exceed = int(np.count_nonzero(total > cut))
    lo, hi = clopper_pearson(exceed, runs, confidence)
    return SimulatedTail(runs, exceed, lo, hi, mpmath.exp(-(zz**2) / 2), confidence)
