"""Rigorous Arb enclosures of the catalog's numeric functions, by class name.

A :class:`~symbolic.functions.NumericFunction` is computed by its own mpmath routine, which
carries no error bound; the confirmation of a counterexample (:mod:`numeric_checks.confirm`)
needs one.  The functions here recompute the same finite sums on Arb balls, so that a
violation involving them can be confirmed rigorously.  They are keyed by the class name
(``numeric_checks`` never imports ``derivations``, where the classes live).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flint import arb

__all__ = ["ARB_FUNCTIONS"]


def _exact_int(x: Any, what: str) -> int:
    x = arb(x)
    if x.rad() != 0 or not x.is_integer():
        raise ValueError(f"{what} is not an exact integer")
    return int(x.mid().unique_fmpz())


def optimal_delta(k: Any, eps: Any, delta: Any, eps_prime: Any) -> Any:
    """Kairouz, Oh & Viswanath 2015, Theorem 3.3: ``1 - (1-delta)^k + (1-delta)^k
    sum_l max(0, C(k,l) (p^(k-l) q^l - e^eps' p^l q^(k-l)))`` with ``p = e^eps/(1+e^eps)``.
    The classes with a negative term are the ones the mpmath routine leaves out, so the
    sum of positive parts is the same quantity."""
    n = _exact_int(k, "k")
    eps, delta, eps_prime = arb(eps), arb(delta), arb(eps_prime)
    e = eps.exp()
    p, q = e / (1 + e), 1 / (1 + e)
    w = eps_prime.exp()
    total, c = arb(0), 1
    for ell in range(n + 1):
        part = c * (p ** (n - ell) * q**ell - w * p**ell * q ** (n - ell))
        total += part.max(arb(0))
        c = c * (n - ell) // (ell + 1)
    stay = (1 - delta) ** n
    return 1 - stay + stay * total


def binomial_tail(k: Any, alpha: Any, beta: Any, z: Any) -> Any:
    """``Pr[B > (k + z sqrt(k) alpha/w)/2]`` for ``B ~ Binomial(k, 1/2)``, ``w = alpha -
    |beta|`` (the two-point martingale of :func:`numeric_checks.dp.azuma.binomial_tail`);
    where the threshold's ball holds an integer, the union of both possible tails."""
    n = _exact_int(k, "k")
    alpha, beta, z = arb(alpha), arb(beta), arb(z)
    w = alpha - abs(beta)
    threshold = (n + z * arb(n).sqrt() * alpha / w) / 2
    if not threshold.is_finite():
        raise ValueError("the threshold is not finite")
    lows = {
        int(threshold.lower().floor().unique_fmpz()),
        int(threshold.upper().floor().unique_fmpz()),
    }
    if len(lows) == 2 and max(lows) - min(lows) > 1:
        raise ValueError("the threshold's ball is too wide")

    def tail(first: int) -> Any:
        if first > n:
            return arb(0)
        count, c = 0, 1
        for b in range(n + 1):
            if b >= first:
                count += c
            c = c * (n - b) // (b + 1)
        return arb(count) / arb(2) ** n

    values = [tail(low + 1) for low in sorted(lows)]
    out = values[0]
    for v in values[1:]:
        out = out.union(v)
    return out


ARB_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "OptimalDelta": optimal_delta,
    "BinomialTail": binomial_tail,
}
