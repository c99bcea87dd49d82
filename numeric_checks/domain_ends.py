"""A domain's ends at the working precision, and exact membership of sampled values.

Sampled values are binary numbers; a domain's ends are exact (``1/3``, ``log(3)``,
:mod:`symbolic.domains`).  Membership is decided without rounding (:func:`compare_exact`,
against the checked enclosure of each end), and an end is rounded to its inner side where a
binary value must stand for it (:func:`end_value`), so that no sampled point lies outside
its domain by a rounding (issue 38).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

import mpmath
import sympy as sp
from mpmath.libmp import from_rational, round_ceiling, round_floor

from symbolic.binary_rationals import binary_parts
from symbolic.domains import Domain
from symbolic.exact_numbers import compare, rational_enclosure

__all__ = ["DomainBounds", "compare_exact", "end_value"]


@dataclass(frozen=True)
class DomainBounds:
    """A domain's ends for exact membership tests: each finite end as the rationals of its
    checked enclosure (``lo == hi`` for a rational end, see
    :func:`~symbolic.exact_numbers.rational_enclosure`).  A value is inside only where that
    is certain: one within an irrational end's enclosure counts as outside, so that no point
    a claim is refuted at lies outside its domain by a rounding (issue 38).  A coordinate
    that stands for an exact number (:class:`~numeric_checks.exact_points.ExactMpf`: a
    closed end ``1/3`` or a boundary ``x = sqrt(2)`` sampled on it) is compared with the
    ends by that number, exactly."""

    integer: bool
    lower: tuple[sp.Rational, sp.Rational] | None
    upper: tuple[sp.Rational, sp.Rational] | None
    lower_open: bool
    upper_open: bool
    ends: tuple[sp.Expr, sp.Expr] = (sp.S.NegativeInfinity, sp.S.Infinity)

    @classmethod
    def of(cls, d: Domain) -> DomainBounds:
        def convert(x: sp.Expr) -> tuple[sp.Rational, sp.Rational] | None:
            return rational_enclosure(x) if x.is_finite else None

        return cls(
            d.kind == "integer",
            convert(d.lower),
            convert(d.upper),
            d.lower_open,
            d.upper_open,
            (d.lower, d.upper),
        )

    def contains(self, v: Any) -> bool:
        exact = getattr(v, "exact", None)
        if isinstance(exact, sp.Expr) and self._near_an_end(v):
            return self._contains_exact(exact)
        if exact is not None and self.integer:
            return exact.is_integer is True and self._contains_exact(exact)
        if self.integer and not _integral(v):
            return False
        if self.lower is not None and not _beyond(v, self.lower, self.lower_open, 1):
            return False
        return self.upper is None or _beyond(v, self.upper, self.upper_open, -1)

    def _near_an_end(self, v: Any) -> bool:
        """``v`` within a relative ``1e-25`` of a finite end: only there may its value
        (the exact number to ``dps + 10`` digits) and the number itself lie on different
        sides of the end, so only there is the exact comparison needed (it is costly, and
        ``exp(-10**9)`` against 0 would build a rational of a billion bits)."""
        for end in (self.lower, self.upper):
            if end is None:
                continue
            with mpmath.workdps(30):
                e = mpmath.mpf(int(end[0].p)) / int(end[0].q)
                if abs(v - e) <= mpmath.mpf(10) ** -25 * max(abs(v), abs(e)):
                    return True
        return False

    def _contains_exact(self, exact: sp.Expr) -> bool:
        if self.integer and exact.is_integer is not True:
            return False
        lower, upper = self.ends
        if lower.is_finite and not _exact_beyond(exact, lower, self.lower_open, 1):
            return False
        return not upper.is_finite or _exact_beyond(exact, upper, self.upper_open, -1)


@functools.lru_cache(maxsize=1024)
def _exact_beyond(exact: sp.Expr, end: sp.Expr, open_end: bool, side: int) -> bool:
    """``exact`` is certainly on the ``side`` of the end ``end``, or on it where it is
    closed, as the exact comparison decides (undecided counts as outside)."""
    sign = compare(exact, end)
    return sign == side or (sign == 0 and not open_end)


def _integral(v: Any) -> bool:
    """``v`` is an integer, exactly: ``floor`` at the context's precision would round
    10**26 + 5 and call it no integer."""
    try:
        man, exp = binary_parts(v)
    except (TypeError, ValueError):
        return False
    return man == 0 or exp >= 0 or man % (1 << -exp) == 0


def _beyond(v: Any, end: tuple[sp.Rational, sp.Rational], open_end: bool, side: int) -> bool:
    """``v`` is certainly on the ``side`` (1: above, -1: below) of a domain end given by its
    enclosure, or on a closed rational end itself."""
    lo, hi = end
    sign = compare_exact(v, hi if side == 1 else lo)
    if sign is None:
        return False  # NaN
    return sign == side or (sign == 0 and lo == hi and not open_end)


def compare_exact(v: Any, r: sp.Rational) -> int | None:
    """The sign of ``v - r`` for an mpmath number ``v`` and a rational ``r``, computed in
    integers (no rounding); infinities compare as themselves, NaN gives None.

    >>> compare_exact(mpmath.mpf(-1000), sp.Integer(-100))
    -1
    >>> compare_exact(mpmath.mpf(0.5), sp.Rational(1, 2)), compare_exact(mpmath.inf, sp.Integer(7))
    (0, 1)
    """
    if isinstance(v, int | float) and math.isfinite(v):
        n, d = v.as_integer_ratio()
        diff = n * int(r.q) - int(r.p) * d
        return (diff > 0) - (diff < 0)
    # v's own digits: mpf(v) would round it to the working precision first.
    sign, man, exp, _ = v._mpf_ if isinstance(v, mpmath.mpf) else mpmath.mpf(v)._mpf_
    if man == 0:
        if exp != 0:  # an infinity or NaN
            if v == mpmath.inf:
                return 1
            return -1 if v == mpmath.ninf else None
        return (int(r.p) < 0) - (int(r.p) > 0)
    p, q = int(r.p), int(r.q)
    v_sign = -1 if sign else 1
    r_sign = (p > 0) - (p < 0)
    if v_sign != r_sign:
        return (v_sign > r_sign) - (v_sign < r_sign)
    # Same sign: compare magnitudes, first by binary size (no shift of billions of bits
    # for 1e-1000000000 against 1/3), then exactly.
    v_size = man.bit_length() + exp
    r_size = abs(p).bit_length() - q.bit_length()
    if abs(v_size - r_size) > 2:
        return v_sign if v_size > r_size else -v_sign
    left, right = man * q, abs(p)
    if exp >= 0:
        left <<= exp
    else:
        right <<= -exp
    return v_sign * ((left > right) - (left < right))


def end_value(x: sp.Expr, lower: bool) -> Any:
    """A finite domain end at the working precision, rounded to its inner side: the end
    itself where it is a binary number at that precision, else the nearest one inside the
    domain (a closed end such as ``log(3)`` or ``1/3`` is sampled as near as the precision
    allows, never just outside).  Every draw converts its domain's ends, and the value
    depends only on the end, the side and the precision: memoised."""
    return _num_at(x, lower, mpmath.mp.prec)


@functools.lru_cache(maxsize=256)
def _num_at(x: sp.Expr, lower: bool, prec: int) -> Any:
    if x.is_Integer:  # exactly, whatever its size (the working precision may be less)
        with mpmath.workprec(max(prec, int(x).bit_length())):
            return mpmath.mpf(int(x))
    lo, hi = rational_enclosure(x)
    r = hi if lower else lo
    rounding = round_ceiling if lower else round_floor
    return mpmath.mpf(from_rational(int(r.p), int(r.q), prec, rounding))
