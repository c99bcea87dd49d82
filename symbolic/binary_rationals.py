"""The one conversion from a computed number to an exact rational (issue 38, class 3).

A binary float -- a Python ``float``, an mpmath ``mpf``, SymPy's ``Float``, the end or the
midpoint of an Arb ball (python-flint ``arb``/``arf``) -- *is* a rational number,
``sign * man * 2**exp``.  Every referee that re-decides a sampled point exactly, every ball
built around a point and every bound taken from a float goes through :func:`binary_parts`
(and :func:`exact_rational`, :func:`ratio` built on it), so the sign, a zero, a tiny or a huge
exponent are handled once and tested once.  An earlier copy read mpmath's ``man_exp``, which is
the *unsigned* mantissa: a violation at ``x = -1000`` was re-checked at ``x = +1000`` and
dismissed.

Infinities and NaN are no rational: they raise :class:`NotExact`, as does an Arb ball with a
nonzero radius (its value is not one number) and an exponent beyond :data:`MAX_EXPONENT`
(the rational would be a number of millions of digits; no referee can use it).

>>> exact_rational(-1000.0), exact_rational(0.5), ratio(-0.75)
(-1000, 1/2, (-3, 4))
>>> import mpmath
>>> exact_rational(mpmath.mpf(-1000)), exact_rational(mpmath.mpf("-0.375"))
(-1000, -3/8)
>>> exact_rational(float("inf"))
Traceback (most recent call last):
...
symbolic.binary_rationals.NotExact: inf is not a finite number, so it is no exact rational
"""

from __future__ import annotations

import math
from fractions import Fraction
from numbers import Integral
from typing import Any

import mpmath
import sympy as sp

__all__ = ["MAX_EXPONENT", "NotExact", "binary_parts", "exact_rational", "ratio"]

MAX_EXPONENT = 1 << 20
"""Binary exponents beyond this in absolute value are refused: ``2**(2**20)`` already has
315,653 digits, far past any point a check samples (its edges reach ``10**+-30``)."""


class NotExact(ValueError):
    """The number has no exact rational value that a referee can use (infinite, NaN, a ball
    of nonzero radius, or an exponent beyond :data:`MAX_EXPONENT`)."""


def binary_parts(v: Any) -> tuple[int, int]:
    """``(man, exp)`` with ``v == man * 2**exp`` exactly, ``man`` *signed* (0 for zero,
    with ``exp`` 0), for a binary number: ``int``, ``float``, ``mpmath.mpf``, SymPy
    ``Integer``/``Float``, python-flint ``fmpz``, ``arf`` and exact ``arb``, whatever its
    exponent (an Arb ball takes any).  Raises :class:`NotExact` for an infinity, a NaN, a
    ball with a radius, and :class:`TypeError` for a non-binary rational (``1/3``).

    >>> binary_parts(-0.375), binary_parts(0.0), binary_parts(-0.0), binary_parts(3)
    ((-3, -3), (0, 0), (0, 0), (3, 0))
    """
    kind = type(v)
    if kind is _MPF:  # the common case first: this runs for every mpmath <-> Arb conversion
        return _from_mpf(v._mpf_)
    if kind.__name__ in ("arb", "arf"):
        return _from_flint(v)
    if isinstance(v, bool):
        raise TypeError("a bool is not a number to convert")
    if isinstance(v, int | Integral) or type(v).__name__ in ("mpz", "fmpz"):
        return _normal(int(v), 0)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise NotExact(f"{v} is not a finite number, so it is no exact rational")
        num, den = v.as_integer_ratio()  # exact, signed; den a power of two
        return _normal(num, -(den.bit_length() - 1))
    if isinstance(v, sp.Integer):
        return _normal(int(v.p), 0)
    if isinstance(v, sp.Float):  # its raw tuple: mpf(...) would round it to the context
        return _from_mpf(v._mpf_)
    if callable(getattr(v, "man_exp", None)):  # python-flint arf / arb (signed mantissa)
        # first: an arb also has an ``_mpf_`` (its midpoint), which would drop its radius
        return _from_flint(v)
    mpf = getattr(v, "_mpf_", None)
    if mpf is not None:  # an mpmath.mpf of a subclass
        return _from_mpf(mpf)
    raise TypeError(f"no exact binary value for {v!r} ({type(v).__name__})")


_MPF = mpmath.mpf


def _from_mpf(mpf: tuple[int, Any, Any, Any]) -> tuple[int, int]:
    """mpmath's raw tuple: (sign, *unsigned* mantissa, exponent, bit count)."""
    sign, man, exp, _ = mpf
    if not man:
        if exp:  # mpmath's inf, -inf and nan are a zero mantissa with a nonzero exp
            shown = mpmath.mpf(mpf)
            raise NotExact(f"{shown} is not a finite number, so it is no exact rational")
        return 0, 0
    return _normal(-int(man) if sign else int(man), int(exp))


def _from_flint(v: Any) -> tuple[int, int]:
    """python-flint's ``arf``/``arb``: ``man_exp`` gives a *signed* mantissa, and only for
    an exact finite value (a ball with a radius is no one number)."""
    if not v.is_finite():
        raise NotExact(f"{v} is not a finite number, so it is no exact rational")
    try:
        man, exp = v.man_exp()
    except ValueError as exc:  # "man_exp requires an exact, finite value"
        raise NotExact(f"{v} is a ball, not one number ({exc})") from exc
    return _normal(int(man), int(exp))


def _normal(man: int, exp: int) -> tuple[int, int]:
    return (0, 0) if man == 0 else (man, exp)


def ratio(v: Any) -> tuple[int, int]:
    """``(p, q)`` with ``v == p/q`` exactly, ``q > 0``, in lowest terms: a binary number (see
    :func:`binary_parts`; :class:`NotExact` past :data:`MAX_EXPONENT`), a SymPy ``Rational``
    or a ``Fraction``.

    >>> ratio(-1000.0), ratio(2.0**-3), ratio(Fraction(-6, 4)), ratio(sp.Rational(1, 3))
    ((-1000, 1), (1, 8), (-3, 2), (1, 3))
    """
    if isinstance(v, sp.Rational):
        return int(v.p), int(v.q)
    if isinstance(v, Fraction):
        return v.numerator, v.denominator
    if type(v).__name__ == "fmpq":
        return int(v.p), int(v.q)
    man, exp = binary_parts(v)
    if abs(exp) > MAX_EXPONENT:  # the mantissa and exponent stay cheap; 2**exp would not
        raise NotExact(
            f"a number 2**{exp} in size is too large to handle exactly (|exponent| above "
            f"2**{MAX_EXPONENT.bit_length() - 1})"
        )
    if exp >= 0:
        return man << exp, 1
    shift = min(-exp, (man & -man).bit_length() - 1)  # the mantissa's trailing zeros
    return man >> shift, 1 << (-exp - shift)


def exact_rational(v: Any) -> sp.Rational:
    """``v`` as a SymPy rational, exactly (see :func:`ratio`); an integer stays an
    ``Integer``.

    >>> exact_rational(2.0**-1074) == sp.Rational(1, 2**1074)
    True
    """
    p, q = ratio(v)
    return sp.Rational(p, q)
