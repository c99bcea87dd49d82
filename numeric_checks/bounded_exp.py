"""``exp`` in the numeric printer's output, bounded before mpmath sees its argument: a
quadrature node far out in a tail, or a sampled point at eps = 1e12, would otherwise ask
mpmath (and GMP) for numbers of astronomically many bits."""

from __future__ import annotations

from typing import Any

import mpmath

__all__ = ["EXP_BITS", "HUGE_EXP_BITS", "bounded_exp", "guarded_exp"]

EXP_BITS = 4096
"""``guarded_exp`` of an argument of magnitude >= 2**EXP_BITS does not call mpmath."""
_MPF = mpmath.mpf


def guarded_exp(z: Any) -> Any:
    """``exp(z)`` inside an integrand, where a quadrature node far out in a tail meets a
    double exponential: at ``x = -1e40`` the Gumbel density's ``exp(-exp(-x))`` asks mpmath
    for ``exp`` of a number with a 1e40-bit exponent, which reduces the argument modulo
    ``log 2`` to that many bits and runs for hours.  Past ``2**EXP_BITS`` the value is 0 (a
    negative argument: the true value ``exp(-2**4096)`` is below any scale the integral can
    have, since the integrand is divided by a probe of its size first) or an overflow (a
    positive one: the point is undefined, never a wrong number)."""
    if type(z) is _MPF:
        sign, man, exp, bc = z._mpf_
        if man and exp + bc > EXP_BITS:
            if sign:
                return _MPF(0)
            raise OverflowError(f"exp of a number above 2**{EXP_BITS} in an integrand")
    return mpmath.exp(z)


HUGE_EXP_BITS = 1 << 20
"""``bounded_exp`` of an argument of magnitude >= 2**HUGE_EXP_BITS is not evaluated."""


def bounded_exp(z: Any) -> Any:
    """``exp(z)`` outside integrands: mpmath's, except for an argument of magnitude at least
    ``2**HUGE_EXP_BITS``, whose reduction modulo ``log 2`` needs that many bits: at
    ``eps = 10^12`` the composition claim's ``exp(k*eps*(exp(eps) - 1))`` asked GMP for a
    number of 10^12 bits and aborted the process (issue 40).  Such a point is undefined (an
    :class:`OverflowError`), never a wrong number; every smaller argument is mpmath's."""
    if type(z) is _MPF:
        _, man, exp, bc = z._mpf_
        if man and exp + bc > HUGE_EXP_BITS:
            raise OverflowError(f"exp of a number above 2**{HUGE_EXP_BITS}")
    return mpmath.exp(z)
