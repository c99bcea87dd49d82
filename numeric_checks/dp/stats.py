"""Exact binomial confidence bounds (Clopper & Pearson 1934) for Monte Carlo estimates.

>>> lo, hi = clopper_pearson(0, 1000, 0.99)  # upper = 1 - 0.005**(1/1000)
>>> print(lo, round(float(hi), 5))
0.0 0.00528
"""

from __future__ import annotations

import math
from typing import Any

import mpmath

from numeric_checks.validate import check_probability
from symbolic.errors import EvaluationError, InvalidInput


def _beta_fraction(x: float, a: float, b: float) -> float:
    """The continued fraction of I_x(a, b) (Abramowitz & Stegun 26.5.8), evaluated by the
    modified Lentz method; it converges in O(sqrt(max(a, b))) terms left of the mean."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 100_000):
        m2 = 2 * m
        for num in (
            m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
            -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1)),
        ):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            return h
    raise EvaluationError(f"incomplete beta fraction did not converge at x={x}, a={a}, b={b}")


def _regularized_beta(x: float, a: float, b: float) -> float:
    """I_x(a, b) in double precision (enough for a confidence bound; mpmath's
    hypergeometric series fails to converge for a + b ~ 1e5 trials)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _beta_fraction(x, a, b) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(1.0 - x, b, a) / b


def _beta_quantile(q: Any, a: Any, b: Any) -> Any:
    """x with I_x(a, b) = q, by bisection on the regularized incomplete beta function."""
    lo, hi = 0.0, 1.0
    for _ in range(80):  # bisection to ~1e-24 absolute: far below any Monte Carlo resolution
        mid = (lo + hi) / 2
        if _regularized_beta(mid, float(a), float(b)) < q:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def clopper_pearson(successes: int, trials: int, confidence: float = 0.99) -> tuple[Any, Any]:
    """Two-sided exact confidence interval for a binomial proportion."""
    if trials < 1 or not 0 <= successes <= trials:
        raise InvalidInput(
            f"need 0 <= successes <= trials and trials >= 1, got "
            f"successes={successes}, trials={trials}"
        )
    # Checked only: the bounds are computed in doubles from the confidence as given.
    check_probability("confidence", confidence, open_ends="both")
    alpha = (1 - confidence) / 2
    lo = 0.0 if successes == 0 else _beta_quantile(alpha, successes, trials - successes + 1)
    hi = (
        1.0 if successes == trials else _beta_quantile(1 - alpha, successes + 1, trials - successes)
    )
    return mpmath.mpf(lo), mpmath.mpf(hi)
