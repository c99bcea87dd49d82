"""Group privacy of trade-off functions: 1 - (1 - f)^{o k} (Dong, Roth & Su,
arXiv:1905.02383v3, Sec. 2.5; seed 004, section 4.6)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mpmath

from numeric_checks.dp.gaussian import tradeoff_gaussian
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


def gaussian_group(mu: Any, k: int, alpha: Any) -> Any:
    """1 - (1 - G_mu)^{o k}(alpha), iterating G_mu(1 - y) = Phi(Phi^{-1}(y) - mu)."""
    m = check_mu(mu)

    def complement(y: Any) -> Any:
        if y == 0:
            return mpmath.mpf(0)
        return mpmath.ncdf(phi_inv(y) - m)

    return group_tradeoff(lambda x: tradeoff_gaussian(m, x), k, alpha, complement)
