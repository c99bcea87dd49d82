"""Divergences between distributions, exact at the working mpmath precision.

Dwork & Roth 2014, section 3.5.1 (seed 002): Definition 3.5 (KL divergence), Definition 3.6
(max divergence and its delta-approximate version) and the statistical distance.  Finite
distributions are sequences of probabilities over the same outcomes; the seed's convention
holds: a ratio with a zero denominator (and positive numerator) is +infinity.

>>> import mpmath
>>> with mpmath.workdps(30):
...     print(mpmath.nstr(kl([0.5, 0.5], [0.25, 0.75]), 12))
0.143841036226
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import mpmath

from numeric_checks.mp import quad_relative
from numeric_checks.validate import check_probability
from symbolic.errors import InvalidInput

EXACT_SUBSETS_UP_TO = 14  # D_inf^delta by enumerating subsets below this support size


def as_number(v: Any) -> Any:
    """An mpmath number; a float means the decimal it prints as (0.4, not
    0.40000000000000002220...), so that [0.4, 0.4, 0.2] sums to 1 at 50 digits."""
    return mpmath.mpf(repr(v)) if isinstance(v, float) else mpmath.mpf(v)


def check_distribution(p: Sequence[Any], name: str = "p") -> list[Any]:
    """The probabilities as mpmath numbers, or :class:`InvalidInput` naming the bad value."""
    if len(p) == 0:
        raise InvalidInput(f"{name} is empty")
    out = []
    for i, v in enumerate(p):
        try:
            x = as_number(v)
        except (TypeError, ValueError):
            raise InvalidInput(f"{name}[{i}] is not a number: {v!r}") from None
        if not mpmath.isfinite(x) or x < 0:
            raise InvalidInput(f"{name}[{i}] must be a probability >= 0, got {name}[{i}]={v}")
        out.append(x)
    total = mpmath.fsum(out)
    if abs(total - 1) > mpmath.mpf(10) ** (-(mpmath.mp.dps - 5)):
        raise InvalidInput(f"{name} must sum to 1, got sum({name})={mpmath.nstr(total, 15)}")
    return out


def _pair(p: Sequence[Any], q: Sequence[Any]) -> tuple[list[Any], list[Any]]:
    if len(p) != len(q):
        raise InvalidInput(
            f"p and q must be over the same outcomes, got len(p)={len(p)} and len(q)={len(q)}"
        )
    return check_distribution(p, "p"), check_distribution(q, "q")


def kl(p: Sequence[Any], q: Sequence[Any]) -> Any:
    """KL divergence ``D(P||Q) = sum p ln(p/q)`` (``0 ln 0 = 0``; ``p > 0 = q`` gives oo)."""
    p, q = _pair(p, q)
    terms = []
    for a, b in zip(p, q, strict=True):
        if a == 0:
            continue
        if b == 0:
            return mpmath.inf
        terms.append(a * mpmath.log(a / b))
    return mpmath.fsum(terms)


def max_divergence(p: Sequence[Any], q: Sequence[Any]) -> Any:
    """``D_inf(P||Q) = max over outcomes y in Supp(P) of ln(p(y)/q(y))`` (Definition 3.6; for
    finite distributions the max over sets is attained at a single outcome)."""
    p, q = _pair(p, q)
    best = -mpmath.inf
    for a, b in zip(p, q, strict=True):
        if a == 0:
            continue
        if b == 0:
            return mpmath.inf
        best = max(best, mpmath.log(a / b))
    return best


def hockey_stick(p: Sequence[Any], q: Sequence[Any], gamma: Any) -> Any:
    """``H_gamma(P||Q) = sup_S P(S) - gamma Q(S) = sum max(0, p - gamma q)``."""
    p, q = _pair(p, q)
    return mpmath.fsum(max(mpmath.mpf(0), a - gamma * b) for a, b in zip(p, q, strict=True))


def statistical_distance(p: Sequence[Any], q: Sequence[Any]) -> Any:
    """``Delta(P, Q) = max_S |P(S) - Q(S)| = (1/2) sum |p - q|``."""
    p, q = _pair(p, q)
    return mpmath.fsum(abs(a - b) for a, b in zip(p, q, strict=True)) / 2


def approx_max_divergence(p: Sequence[Any], q: Sequence[Any], delta: Any) -> Any:
    """``D_inf^delta(P||Q) = max over S in Supp(P) with P(S) >= delta of
    ln((P(S) - delta)/Q(S))`` (Definition 3.6); ``-oo`` when no set has P(S) > delta.

    Exact by enumerating subsets of the support when it is small, otherwise by bisection on
    eps of the equivalent ``H_{e^eps}(P||Q) <= delta`` (both are tested to agree).
    """
    p, q = _pair(p, q)
    check_probability("delta", delta)
    d = as_number(delta)  # a float in [0, 1] is a decimal in [0, 1]: checked as given
    support = [i for i, a in enumerate(p) if a > 0]
    if len(support) <= EXACT_SUBSETS_UP_TO:
        return _approx_max_divergence_subsets(p, q, d, support)
    return _approx_max_divergence_bisection(p, q, d)


def _approx_max_divergence_subsets(p: list[Any], q: list[Any], d: Any, support: list[int]) -> Any:
    best = -mpmath.inf
    for size in range(1, len(support) + 1):
        for subset in itertools.combinations(support, size):
            ps = mpmath.fsum(p[i] for i in subset)
            qs = mpmath.fsum(q[i] for i in subset)
            if ps <= d:
                continue
            if qs == 0:
                return mpmath.inf
            best = max(best, mpmath.log((ps - d) / qs))
    return best


def _approx_max_divergence_bisection(p: list[Any], q: list[Any], d: Any) -> Any:
    if any(a > 0 and b == 0 for a, b in zip(p, q, strict=True)):
        mass = mpmath.fsum(a for a, b in zip(p, q, strict=True) if b == 0)
        if mass > d:
            return mpmath.inf

    def excess(eps: Any) -> Any:
        return hockey_stick(p, q, mpmath.exp(eps)) - d

    if hockey_stick(p, q, 0) <= d:
        return -mpmath.inf
    hi = mpmath.mpf(1)
    while excess(hi) > 0:
        hi *= 2
    lo = -hi
    while excess(lo) <= 0:
        lo *= 2
    for _ in range(mpmath.mp.prec + 10):
        mid = (lo + hi) / 2
        if excess(mid) > 0:
            lo = mid
        else:
            hi = mid
    return hi


def kl_by_quadrature(
    log_p: Callable[[Any], Any], log_q: Callable[[Any], Any], breakpoints: Sequence[Any]
) -> Any:
    """``int p ln(p/q)`` for densities given by their logarithms, split at ``breakpoints``
    (kinks and modes: quadrature across a kink keeps only a few digits)."""
    pts = [-mpmath.inf, *sorted(breakpoints), mpmath.inf]
    return quad_relative(lambda x: mpmath.exp(log_p(x)) * (log_p(x) - log_q(x)), pts)


def laplace_kl(shift: Any, b: Any) -> Any:
    """KL of Lap(shift, b) from Lap(0, b), by quadrature (closed form used only in tests)."""

    def log_p(x: Any) -> Any:
        return -abs(x - shift) / b - mpmath.log(2 * b)

    def log_q(x: Any) -> Any:
        return -abs(x) / b - mpmath.log(2 * b)

    return kl_by_quadrature(log_p, log_q, [mpmath.mpf(0), shift])


def gaussian_kl(mu: Any, sigma: Any = 1) -> Any:
    """KL of N(mu, sigma^2) from N(0, sigma^2), by quadrature."""

    def log_p(x: Any) -> Any:
        return -((x - mu) ** 2) / (2 * sigma**2) - mpmath.log(sigma * mpmath.sqrt(2 * mpmath.pi))

    def log_q(x: Any) -> Any:
        return -(x**2) / (2 * sigma**2) - mpmath.log(sigma * mpmath.sqrt(2 * mpmath.pi))

    return kl_by_quadrature(log_p, log_q, [mpmath.mpf(0), mpmath.mpf(mu)])
