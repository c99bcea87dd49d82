"""Sums evaluated in one pass over a compiled term: finite ranges by ``mpmath.fsum``,
infinite ranges by direct summation outward from the terms' centre with a tail bound.

``mpmath.nsum`` extrapolates, which is fast for smooth slowly-decaying terms but wrong
for the discrete Gaussian's normaliser: at sigma = 100 it returns ``sum exp(-k^2/2s^2)``
to 12 digits instead of 30, at sigma = 1e4 it is off by a factor of 35.  Terms that decay
at least geometrically are better summed directly: starting at the centre (the stationary
point of the exponent, see :func:`numeric_checks.integrals.analyse`), each side is summed
until its terms fall below ``2**-(prec + 10)`` of the partial sum and the last ratio
``r = |t_{n+1}/t_n| < 1`` bounds the rest by ``|t_{n+1}| r/(1 - r)`` (a geometric tail,
Knopp 1990, Theory and Application of Infinite Series, section 13; valid when the ratios
keep decreasing, as they do for log-concave terms such as Gaussians and exponentials).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import mpmath

from symbolic.errors import EvaluationError

__all__ = ["MAX_TERMS", "sum_finite", "sum_infinite", "sum_range"]

MAX_TERMS = 200_000
"""Cap on terms per evaluation (a work count): a longer sum is undefined at that point."""
DIRECT_TERMS = 20_000
"""Terms an infinite sum is summed directly before falling back to ``mpmath.nsum``."""
_SETTLE = 8
"""Consecutive negligible terms required before the tail bound is trusted."""


def sum_range(a: Any, b: Any) -> Iterator[Any]:
    """The integers a..b as mpmath numbers, refusing sums too long to evaluate."""
    lo, hi = int(mpmath.ceil(a)), int(mpmath.floor(b))
    if hi - lo + 1 > MAX_TERMS:
        raise EvaluationError(f"a Sum of {hi - lo + 1} terms is too long to evaluate directly")
    return (mpmath.mpf(i) for i in range(lo, hi + 1))


def sum_finite(term: Callable[[Any], Any], a: Any, b: Any) -> Any:
    """``sum term(k) for k = a..b`` with one rounding (``fsum``), under :data:`MAX_TERMS`."""
    return mpmath.fsum(term(k) for k in sum_range(a, b))


def _side(
    term: Callable[[Any], Any], start: int, step: int, stop: Any, scale: Any
) -> tuple[Any, int]:
    """Sum ``term`` from ``start`` in direction ``step`` until the tail is negligible
    relative to ``scale`` (updated with the partial sums) or ``stop`` is passed."""
    total, prev, quiet, n = mpmath.mpf(0), None, 0, 0
    eps = mpmath.mpf(2) ** (-mpmath.mp.prec - 10)
    k = start
    while (step > 0 and k <= stop) or (step < 0 and k >= stop):
        t = term(mpmath.mpf(k))
        total += t
        n += 1
        size = abs(t)
        ref = max(abs(scale + total), eps)
        if prev is not None and prev != 0 and size <= eps * ref:
            r = size / prev
            quiet = quiet + 1 if r < 1 else 0
            if quiet >= _SETTLE and size * r / (1 - r) <= eps * ref:
                return total, n
        else:
            quiet = 0
        if n > DIRECT_TERMS:
            raise mpmath.libmp.NoConvergence(
                f"an infinite Sum needs more than {DIRECT_TERMS} terms here"
            )
        prev = size
        k += step
    return total, n


def sum_infinite(term: Callable[[Any], Any], a: Any, b: Any, centre: Any = 0) -> Any:
    """``sum term(k)`` over the integers in ``[a, b]`` (either end may be infinite), summed
    outward from ``centre`` (see the module docstring for the tail bound).

    >>> with mpmath.workdps(30):
    ...     s = mpmath.mpf(100)
    ...     v = sum_infinite(lambda k: mpmath.exp(-k**2 / (2 * s**2)), -mpmath.inf, mpmath.inf)
    ...     print(mpmath.nstr(v / (s * mpmath.sqrt(2 * mpmath.pi)), 25))
    1.0
    """
    lo = -mpmath.inf if mpmath.isinf(a) else mpmath.ceil(a)
    hi = mpmath.inf if mpmath.isinf(b) else mpmath.floor(b)
    if lo > hi:
        return mpmath.mpf(0)
    try:
        c = mpmath.nint(mpmath.mpf(centre))
    except (TypeError, ValueError):
        c = mpmath.mpf(0)
    if not mpmath.isfinite(c):
        c = mpmath.mpf(0)
    c = min(max(c, lo), hi)
    start = int(c)
    # Extra digits: the sides are accumulated one term at a time.
    with mpmath.extradps(10):
        try:
            right, _ = _side(term, start, 1, hi, mpmath.mpf(0))
            left, _ = (
                _side(term, start - 1, -1, lo, right) if start - 1 >= lo else (mpmath.mpf(0), 0)
            )
            return +(left + right)
        except mpmath.libmp.NoConvergence:
            # Terms that decay only polynomially (1/k^2): mpmath's extrapolation is the
            # right tool there (Richardson/Levin, mpmath.nsum).
            return +mpmath.nsum(term, [lo, hi])
