"""Exact numbers where they cross into a solver: one checked enclosure of a real constant.

z3 sees only rationals and Arb only balls, so a constant such as ``pi/2``, ``log(3)`` or
``sqrt(2)`` reaches either as an interval ``[lo, hi]`` of rationals around it.  An interval
that misses its constant by one unit in the last place is enough for a false proof: with
``pi/2`` sent as the double ``1.5707963267948966`` (the interval of width zero it became when
its padding was computed after the precision block ended), ``x <= 1.5707963267948966`` on
``[0, pi/2]`` was "proved" (issue 38).  So every enclosure is *checked*, not trusted:
:func:`rational_enclosure` returns ``lo < value < hi`` (or ``lo == value == hi`` for a
rational) only once SymPy's exact comparison of each end with the constant says so, and
raises :class:`NotEnclosable` otherwise.  :func:`float_below` and :func:`float_above` round
an exact number to a binary float outward, for the certifier's boxes.

The comparisons are SymPy's sign decisions on ``value - lo`` and ``hi - value``: an
adaptive-precision evaluation that answers only when the sign is certain to the precision it
tracked (``Expr.is_positive`` on a number), never a comparison of two rounded values.
"""

from __future__ import annotations

import math

import sympy as sp
from sympy.core.evalf import PrecisionExhausted

from symbolic.binary_rationals import MAX_EXPONENT
from symbolic.errors import DpderiveError
from symbolic.functions import Phi, PhiInv, expm1, log1p

__all__ = [
    "DIGITS",
    "NotEnclosable",
    "evaluable",
    "float_above",
    "float_below",
    "is_exact_constant",
    "rational_enclosure",
]

DIGITS = 60
"""Relative width of an enclosure: about ``10**-DIGITS`` of the constant's magnitude."""


class NotEnclosable(DpderiveError, ValueError):
    """No checked rational interval around a number: it is not a real constant, or SymPy
    cannot evaluate it, or the evaluation could not be confirmed.  Whoever asked must then
    not hand the number to a solver (the step proves nothing that way)."""


def is_exact_constant(value: sp.Basic) -> bool:
    """A real number written exactly: a rational or a closed form such as ``log(3)``,
    ``pi/2``, ``sqrt(2)`` (no free symbol, no float, finite and real as SymPy decides)."""
    value = sp.sympify(value)
    return bool(
        value.is_number
        and not value.has(sp.Float)
        and value.is_extended_real is True
        and value.is_finite is True
    )


def rational_enclosure(value: sp.Basic, digits: int = DIGITS) -> tuple[sp.Rational, sp.Rational]:
    """Rationals ``lo < value < hi`` about ``10**-digits`` apart (relative), checked by
    exact comparison; ``(value, value)`` for a rational, and the exact binary value of a
    float twice (a float *is* that rational).

    >>> lo, hi = rational_enclosure(sp.pi / 2)
    >>> bool(lo < sp.pi / 2 < hi), float(hi - lo) < 1e-59
    (True, True)
    >>> rational_enclosure(sp.Rational(-1, 3))
    (-1/3, -1/3)
    """
    value = sp.sympify(value)
    if isinstance(value, sp.Rational):
        return value, value
    if isinstance(value, sp.Float):
        if not value.is_finite:
            raise NotEnclosable(f"{value} is not a finite number")
        exact = sp.Rational(value)
        return exact, exact
    if not value.is_number or value.is_extended_real is False or value.is_finite is False:
        raise NotEnclosable(f"{value} is not a finite real constant")
    value = evaluable(value)
    try:
        approx = sp.N(value, digits + 15)
    except (ValueError, TypeError, ArithmeticError, RecursionError) as exc:
        raise NotEnclosable(f"cannot evaluate {value}: {exc}") from None
    if not isinstance(approx, sp.Float) or not approx.is_finite:
        raise NotEnclosable(f"{value} does not evaluate to a real number ({approx})")
    if approx and abs(approx._mpf_[2]) > MAX_EXPONENT:  # exp(-10**9): 2**-(3e9) as a rational
        raise NotEnclosable(f"{value} is too large or too small to enclose by rationals")
    centre = sp.Rational(approx)  # the float's exact binary value
    scale = abs(centre) if centre != 0 else sp.Integer(1)
    pad = scale / sp.Integer(10) ** digits
    lo, hi = centre - pad, centre + pad
    if not (_certainly_below(lo, value) and _certainly_below(value, hi)):
        raise NotEnclosable(
            f"could not confirm {value} within [{sp.N(lo, 20)}, {sp.N(hi, 20)}] exactly"
        )
    return lo, hi


def evaluable(value: sp.Basic) -> sp.Basic:
    """``value`` with our functions written by their definitions in SymPy's own, which
    ``evalf`` evaluates: ``Phi(a) = erfc(-a/sqrt(2))/2``, ``PhiInv(p) = sqrt(2) erfinv(2p -
    1)``, ``expm1(a) = exp(a) - 1``, ``log1p(a) = log(1 + a)`` (identities, so an enclosure of
    one is an enclosure of the other).

    >>> evaluable(Phi(1))
    1 - erfc(sqrt(2)/2)/2
    """
    value = sp.sympify(value)
    if not value.has(Phi, PhiInv, expm1, log1p):
        return value
    return value.replace(
        lambda e: isinstance(e, Phi | PhiInv | expm1 | log1p),
        lambda e: _definition(e),
    )


def _definition(e: sp.Expr) -> sp.Expr:
    (a,) = e.args
    if isinstance(e, Phi):
        return sp.erfc(-a / sp.sqrt(2)) / 2
    if isinstance(e, PhiInv):
        return sp.sqrt(2) * sp.erfinv(2 * a - 1)
    if isinstance(e, expm1):
        return sp.exp(a) - 1
    return sp.log(1 + a)


def _certainly_below(a: sp.Expr, b: sp.Expr) -> bool:
    """``a < b`` as SymPy decides it exactly (unknown counts as no): its sign decision on
    ``b - a``, else an ``evalf`` with ``strict=True``, which raises rather than return fewer
    correct digits than asked (functions such as ``erfinv`` have no sign decision of their
    own)."""
    try:
        if (b - a).is_positive is True:
            return True
        diff = (b - a).evalf(30, strict=True)
    except (TypeError, ValueError, ArithmeticError, RecursionError, PrecisionExhausted):
        return False
    return bool(isinstance(diff, sp.Float) and diff > 0)


def exact_sign(value: sp.Basic) -> int | None:
    """The sign (-1, 0, 1) of a real constant (``oo`` and ``-oo`` included), from its
    checked enclosure, or SymPy's exact zero test where the enclosure reaches 0; None when
    neither decides (``cos(pi/5) - (1 + sqrt(5))/4`` is 0, which no enclosure shows).

    >>> exact_sign(sp.log(3) - 1), exact_sign(sp.Integer(0)), exact_sign(-sp.oo)
    (1, 0, -1)
    """
    value = sp.sympify(value)
    if value is sp.S.Infinity:
        return 1
    if value is sp.S.NegativeInfinity:
        return -1
    try:
        lo, hi = rational_enclosure(value)
    except NotEnclosable:
        # evalf gives noise for some exact zeros (3.6e-481 for (tanh(log(sqrt(3))) -
        # 1/2)**2), which no enclosure confirms.
        return 0 if _simplifies_to_zero(value) else None
    if lo > 0:
        return 1
    if hi < 0:
        return -1
    if lo == hi == 0:
        return 0
    return 0 if _simplifies_to_zero(value) else None


MAX_ZERO_OPS = 80
"""Constants larger than this are not simplified to decide that they are 0."""


def _simplifies_to_zero(value: sp.Basic) -> bool:
    """SymPy's exact zero test, then its rewriting in exponentials, then ``simplify``, shows
    ``value`` is 0: ``tanh(log(sqrt(3))) - 1/2`` is 0 only once ``tanh`` is written by
    ``exp``.  The same trust as an equality tactic (a residual simplified to 0 is a proof),
    asked only of a constant whose enclosure reaches 0 or could not be confirmed."""
    value = evaluable(value)
    if not value.is_number:
        return False
    if value.is_zero is not None:
        return bool(value.is_zero)
    if sp.count_ops(value) > MAX_ZERO_OPS:
        return False
    try:
        return sp.expand(value.rewrite(sp.exp)) == 0 or sp.simplify(value) == 0
    except (TypeError, ValueError, ArithmeticError, RecursionError, NotImplementedError):
        return False


def compare(a: sp.Basic, b: sp.Basic) -> int | None:
    """The sign of ``a - b`` for real constants or infinities (None: undecided).

    >>> compare(sp.pi / 2, sp.Rational(8, 5)), compare(sp.oo, sp.Integer(5))
    (-1, 1)
    """
    a, b = sp.sympify(a), sp.sympify(b)
    if a == b:
        return 0
    if a.is_infinite or b.is_infinite:
        if a is sp.S.Infinity or b is sp.S.NegativeInfinity:
            return 1
        return -1
    return exact_sign(a - b)


def float_below(value: sp.Basic) -> float:
    """The largest binary float ``<= value`` for a rational, or ``< lo`` of the constant's
    checked enclosure: a lower end rounded outward."""
    lo, _ = rational_enclosure(value)
    return _round(lo, down=True)


def float_above(value: sp.Basic) -> float:
    """The smallest binary float ``>= value`` (the upper counterpart of :func:`float_below`)."""
    _, hi = rational_enclosure(value)
    return _round(hi, down=False)


def _round(r: sp.Rational, down: bool) -> float:
    f = float(r)  # nearest; one step outward if that landed on the wrong side
    if down and sp.Rational(f) > r:
        f = math.nextafter(f, -math.inf)
    elif not down and sp.Rational(f) < r:
        f = math.nextafter(f, math.inf)
    return f
