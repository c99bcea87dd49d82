"""Exact conversions between mpmath numbers and Arb balls (python-flint), for integrands
that mpmath's quadrature calls thousands of times: the quadrature (nodes, weights, error
estimate) stays mpmath's, the integrand's elementary functions run in Arb, which computes
exp, erfc and friends in C about ten times faster than mpmath's pure-Python routines.  The
value handed back is the ball's midpoint, a number of the working precision like the one
mpmath would have returned (Arb's radius bounds its error, so nothing is lost)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import mpmath
from flint import arb, ctx

from symbolic.binary_rationals import NotExact, binary_parts

__all__ = ["arb_precision", "from_mpf", "to_mpf"]


def from_mpf(x: Any) -> Any:
    """An mpmath number (or anything ``mpmath.mpf`` reads) as an exact Arb ball; an
    infinity or nan as Arb's nan (an integrand that meets one has no value there)."""
    try:
        return arb(binary_parts(x if type(x) is mpmath.mpf else mpmath.mpf(x)))
    except NotExact:
        return arb.nan()


def to_mpf(x: Any) -> Any:
    """The midpoint of an Arb ball as an mpmath number (exact: both are binary floats)."""
    if not x.is_finite():
        raise ArithmeticError(f"an Arb ball is not finite: {x}")
    return mpmath.mpf(binary_parts(x.mid()))


@contextmanager
def arb_precision(bits: int) -> Iterator[None]:
    """Arb's working precision set to ``bits`` (restored after)."""
    saved = ctx.prec
    ctx.prec = bits
    try:
        yield
    finally:
        ctx.prec = saved
