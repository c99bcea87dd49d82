"""Infinite sums whose terms decay only polynomially (``1/k^2``, ``k^-1.5``): terms near the
start summed directly, the tails by Euler-Maclaurin with mpmath's error estimate, before
``mpmath.nsum``'s extrapolation is trusted (:func:`numeric_checks.sums.sum_infinite`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mpmath

from symbolic.errors import EvaluationError

__all__ = ["EM_DIRECT", "euler_maclaurin"]

EM_DIRECT = (48, 96)
"""Terms summed directly on each side of the start before Euler-Maclaurin takes the tails;
two splits, whose results must agree, catch terms that are not smooth between integers."""


def euler_maclaurin(term: Callable[[Any], Any], lo: Any, hi: Any, start: int) -> Any:
    """``sum term(k)`` over ``[lo, hi]`` as terms near ``start`` plus Euler-Maclaurin tails
    (``mpmath.sumem``, Abramowitz & Stegun 1964, 23.1.30), for terms that decay only
    polynomially: 1/(k^2 + sqrt(k)) in 0.05 s, where ``mpmath.nsum``'s Richardson/Shanks
    took 5 s at 40 digits and was wrong in the fourth digit.  A numeric value with an
    error estimate, not a bound: raises ``NoConvergence`` where the estimate is above the
    working precision, a term is complex between the integers ((-1)^k), or the two splits
    of :data:`EM_DIRECT` disagree (a floor in the term)."""
    prec = mpmath.mp.prec
    values = []
    with mpmath.extradps(10):
        for n in EM_DIRECT:
            a, b = max(lo, start - n), min(hi, start + n)
            total = mpmath.fsum(term(mpmath.mpf(k)) for k in range(int(a), int(b) + 1))
            for tail in ([b + 1, hi], [lo, a - 1]):
                if tail[0] > tail[1]:
                    continue
                part, err = mpmath.sumem(term, tail, error=True)
                if isinstance(part, mpmath.mpc) or not mpmath.isfinite(part):
                    raise EvaluationError("a complex or infinite Euler-Maclaurin tail")
                if err > abs(part) * mpmath.mpf(2) ** (-(prec - 28)):
                    raise mpmath.libmp.NoConvergence("the Euler-Maclaurin error is too large")
                total += part
            values.append(total)
        first, second = values
        if abs(first - second) > abs(second) * mpmath.mpf(2) ** (-(prec - 28)):
            raise mpmath.libmp.NoConvergence("two Euler-Maclaurin splits disagree")
    return +second
