"""Exact binomial confidence bounds (Clopper & Pearson 1934) for Monte Carlo estimates.

>>> lo, hi = clopper_pearson(0, 1000, 0.99)  # upper = 1 - 0.005**(1/1000)
>>> print(lo, round(float(hi), 5))
0.0 0.00528
"""

from __future__ import annotations

from typing import Any

import mpmath

from symbolic.errors import InvalidInput


def _beta_quantile(q: Any, a: Any, b: Any) -> Any:
    """x with I_x(a, b) = q, by bisection on the regularized incomplete beta function."""
    lo, hi = mpmath.mpf(0), mpmath.mpf(1)
    for _ in range(64):  # 2**-64 ~ 5e-20: far below any Monte Carlo resolution
        mid = (lo + hi) / 2
        if mpmath.betainc(a, b, 0, mid, regularized=True) < q:
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
    if not 0 < confidence < 1:
        raise InvalidInput(f"confidence must be in (0, 1), got confidence={confidence}")
    alpha = (1 - mpmath.mpf(confidence)) / 2
    with mpmath.workdps(30):
        lo = (
            mpmath.mpf(0)
            if successes == 0
            else _beta_quantile(alpha, successes, trials - successes + 1)
        )
        hi = (
            mpmath.mpf(1)
            if successes == trials
            else _beta_quantile(1 - alpha, successes + 1, trials - successes)
        )
    return lo, hi
