"""Trade-off functions of location families (Dong, Roth & Su, arXiv:1905.02383v3, Sec. 2-3).

* :func:`shift_tradeoff`, :func:`laplace_tradeoff`, :func:`gaussian_tradeoff_by_shift`:
  T(F, F(. - mu)) for a location family with monotone likelihood ratio (Gaussian, Laplace):
  F(F^{-1}(1 - alpha) - mu).
* :func:`gaussian_tensor`: G_mu1 (x) G_mu2 from the privacy-loss variable L1 + L2 by
  quadrature over one coordinate (no use of the closed form being checked).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import mpmath

from numeric_checks.dp.gaussian import quad_scaled
from numeric_checks.mp import phi_inv
from numeric_checks.validate import check_alpha, check_mu
from symbolic.errors import EvaluationError


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


def _loss_integral(mu1: Any, mu2: Any, t: Any, kind: str) -> Any:
    """For the Gaussian privacy losses L_i = mu_i X_i - mu_i^2/2 (X_i ~ N(0, 1) under P,
    N(mu_i, 1) under Q): P[L1 + L2 > t] (kind "p"), its density in t ("dp"), or
    Q[L1 + L2 <= t] ("q"), each an integral over X_1 of an exact expression in X_2."""
    half = (mu1**2 + mu2**2) / 2
    b = mu1 / mu2
    if kind == "q":
        # with y = x1 - mu1: X_2 - mu2 <= (t - mu1 x1 + half)/mu2 - mu2
        c = (t - mu1**2 + half) / mu2 - mu2

        def f(y: Any) -> Any:
            return mpmath.npdf(y) * mpmath.ncdf(c - b * y)

        peak = -b * c / (1 + b**2) if c < 0 else mpmath.mpf(0)
    else:
        c = (t + half) / mu2
        tail = mpmath.ncdf if kind == "p" else mpmath.npdf

        def f(y: Any) -> Any:
            return mpmath.npdf(y) * tail(b * y - c)

        peak = b * c / (1 + b**2) if (c > 0 or kind == "dp") else mpmath.mpf(0)
    value = quad_scaled(f, [-mpmath.inf, peak - 8, peak, peak + 8, mpmath.inf])
    return value / mu2 if kind == "dp" else value


def gaussian_tensor(mu1: Any, mu2: Any, alpha: Any) -> Any:
    """(G_mu1 (x) G_mu2)(alpha) = T(N(0, I), N((mu1, mu2), I))(alpha): the most powerful test
    rejects when the privacy loss L1 + L2 exceeds t, with t solved from P[L > t] = alpha by
    Newton's method on log P[L > t] (the density is a third integral)."""
    m1, m2, a = check_mu(mu1), check_mu(mu2), check_alpha(alpha)
    if a == 0:
        return mpmath.mpf(1)
    if a == 1:
        return mpmath.mpf(0)
    return +_gaussian_tensor(m1, m2, a, mpmath.mp.prec)


@functools.lru_cache(maxsize=1024)
def _gaussian_tensor(m1: Any, m2: Any, a: Any, prec: int) -> Any:
    """One Newton solve and three quadratures per (mu1, mu2, alpha, precision): a step and
    the conclusion that contain the tensor product are spot-checked at the same points."""
    with mpmath.workprec(prec), mpmath.extradps(10):
        # Start where a normal law with the losses' mean and variance would put t; only the
        # start: the iteration solves the exact equation.
        s = mpmath.sqrt(m1**2 + m2**2)
        t = -(s**2) / 2 - s * phi_inv(a)
        target = mpmath.log(a)
        eps = mpmath.mpf(2) ** (-mpmath.mp.prec + 20)
        for _ in range(60):
            tail = _loss_integral(m1, m2, t, "p")
            step = (mpmath.log(tail) - target) * tail / _loss_integral(m1, m2, t, "dp")
            t += step
            if abs(step) <= eps * (1 + abs(t)):
                break
        else:
            raise EvaluationError(f"no convergence for the loss threshold at alpha={a}")
        return +_loss_integral(m1, m2, t, "q")
