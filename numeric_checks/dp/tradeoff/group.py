"""Group privacy of trade-off functions: 1 - (1 - f)^{o k} (Dong, Roth & Su,
arXiv:1905.02383v3, Sec. 2.5; seed 004, section 4.6)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import mpmath
import numpy as np

from numeric_checks.dp.gaussian import tradeoff_gaussian
from numeric_checks.dp.tradeoff.finite import Curve
from numeric_checks.mp import phi_inv
from numeric_checks.validate import check_alpha, check_mu, check_whole


def group_tradeoff(
    f: Callable[[Any], Any],
    k: int,
    alpha: Any,
    f_of_complement: Callable[[Any], Any] | None = None,
) -> Any:
    """1 - (1 - f)^{o k}(alpha): the trade-off for groups of k of an f-DP mechanism
    (Dong, Roth & Su, Sec. 2.5; seed 004, section 4.6).

    With x_0 = alpha and x_j = 1 - f(x_{j-1}), the value is y_k = 1 - x_k, and
    y_j = f(1 - y_{j-1}).  Iterating on y keeps tiny values (G_38(1/2) ~ 1e-316) that
    1 - (1 - y) would round to 0; ``f_of_complement(y)`` = f(1 - y), when given, evaluates
    f without forming 1 - y at all."""
    k = check_whole("k", k, what="group size k")
    fc = f_of_complement if f_of_complement is not None else (lambda y: f(1 - y))
    y = f(check_alpha(alpha))
    for _ in range(k - 1):
        y = fc(y)
    return y


def group_tradeoff_grid(curve: Curve, k: int, alphas: Sequence[Any]) -> list[float]:
    """1 - (1 - f)^{o k} at every alpha of a grid at once, in double precision, for f the
    piecewise-linear curve of a finite pair: the iteration y_j = f(1 - y_{j-1}) of
    :func:`group_tradeoff` over the whole grid per step, f evaluated by linear
    interpolation between the curve's vertices (which is the curve: its segments join
    consecutive vertices, and it is flat at its last beta beyond its last alpha).

    For tables (a 401-point grid iterated 400 times is 160,000 evaluations): each step
    adds a rounding error of ~1e-16 times at most the steepest slope, so a gap of 1e-7
    printed to three digits is exact."""
    k = check_whole("k", k, what="group size k")
    xs = np.array([float(a) for a in curve.alphas])
    ys = np.array([float(b) for b in curve.betas])
    y = np.interp(np.array([float(check_alpha(a)) for a in alphas]), xs, ys)
    for _ in range(k - 1):
        y = np.interp(1.0 - y, xs, ys)
    return [float(v) for v in y]


def gaussian_group(mu: Any, k: int, alpha: Any) -> Any:
    """1 - (1 - G_mu)^{o k}(alpha), iterating G_mu(1 - y) = Phi(Phi^{-1}(y) - mu)."""
    m = check_mu(mu)

    def complement(y: Any) -> Any:
        if y == 0:
            return mpmath.mpf(0)
        return mpmath.ncdf(phi_inv(y) - m)

    return group_tradeoff(lambda x: tradeoff_gaussian(m, x), k, alpha, complement)
