"""Trade-off functions of location families (Dong, Roth & Su, arXiv:1905.02383v3, Sec. 2-3).

* :func:`shift_tradeoff`, :func:`laplace_tradeoff`, :func:`gaussian_tradeoff_by_shift`:
  T(F, F(. - mu)) for a location family with monotone likelihood ratio (Gaussian, Laplace):
  F(F^{-1}(1 - alpha) - mu).

G_mu1 (x) G_mu2 from the definition is in :mod:`.normal_product`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mpmath

from numeric_checks.mp import phi_inv
from numeric_checks.validate import check_alpha, check_mu


def shift_tradeoff(
    cdf: Callable[[Any], Any], quantile: Callable[[Any], Any], mu: Any, alpha: Any
) -> Any:
    """T(F, F(. - mu)) for a location family whose likelihood ratio increases in x (true for
    log-concave densities): the best tests reject x > F^{-1}(1 - alpha), so the value is
    F(F^{-1}(1 - alpha) - mu)."""
    m, a = check_mu(mu), check_alpha(alpha)
    if a == 0:
        return mpmath.mpf(1)
    if a == 1:
        return mpmath.mpf(0)
    return cdf(quantile(1 - a) - m)


def _laplace_cdf(x: Any) -> Any:
    return mpmath.exp(x) / 2 if x < 0 else 1 - mpmath.exp(-x) / 2


def _laplace_quantile(u: Any) -> Any:
    return mpmath.log(2 * u) if u < 0.5 else -mpmath.log(2 * (1 - u))


def laplace_tradeoff(mu: Any, alpha: Any) -> Any:
    """T(Lap(0, 1), Lap(mu, 1))(alpha) by the quantile formula."""
    return shift_tradeoff(_laplace_cdf, _laplace_quantile, mu, alpha)


def gaussian_tradeoff_by_shift(mu: Any, alpha: Any) -> Any:
    """T(N(0, 1), N(mu, 1)) by the quantile formula (the definition of G_mu)."""
    return shift_tradeoff(mpmath.ncdf, phi_inv, mu, alpha)
