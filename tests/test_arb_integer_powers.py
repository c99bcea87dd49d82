"""Integer powers of Arb balls that hold 0 (numeric_checks.arb._ipow): python-flint's
``arb ** int`` is NaN there, which printed a side equal to 0 as "not finite" and kept every
box crossing a zero of a base from being certified."""

from __future__ import annotations

import sympy as sp
from flint import arb
from hypothesis import given, settings
from hypothesis import strategies as st

from numeric_checks.arb import _ipow, compile_arb, precision


def test_a_square_of_a_ball_holding_zero_is_finite_and_nonnegative() -> None:
    z = arb(1) / 3 - arb(1) / 3
    assert not (z**2).is_finite()  # python-flint's own power: why _ipow exists
    sq = _ipow(z, 2)
    assert sq.is_finite() and sq.contains(0) and sq.lower() >= 0


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=-192, max_value=192),
    st.integers(min_value=0, max_value=128),
    st.integers(min_value=-4, max_value=7),
)
def test_the_ball_holds_every_power_of_its_points(mid: int, rad: int, n: int) -> None:
    """Containment: t**n lies in the power of the ball [mid +- rad]/64 (exact in Arb) for t
    at both ends and the middle, wherever t**n is defined.  t**n is compared exactly with
    the ball's ends: a negative power is no binary number, and a ball of it rounded at the
    working precision need not lie inside a ball that holds t**n itself (33/64 to the -2)."""
    ball = arb(arb(mid) / 64, arb(rad) / 64)
    result = _ipow(ball, n)
    for s in (-1, 0, 1):
        t = sp.Rational(mid + s * rad, 64)
        if n < 0 and t == 0:
            continue
        value = t**n
        if result.is_finite():
            assert _exact(result.lower()) <= value <= _exact(result.upper()), (ball, n, value)
    if not ball.contains(0) or n >= 0:
        assert result.is_finite(), (ball, n)


def _exact(end: arb) -> sp.Rational:
    """An end of a ball (a binary number) as a rational."""
    man, exp = end.man_exp()
    return sp.Rational(int(man)) * sp.Rational(2) ** int(exp)


def test_a_compiled_side_at_a_zero_of_its_base() -> None:
    x = sp.Symbol("x", real=True)
    with precision(128):
        (value,) = compile_arb([x], [(x - sp.Rational(1, 3)) ** 2 + (x - sp.Rational(1, 3)) ** 3])(
            arb(1) / 3
        )
    assert value.is_finite() and value.contains(0)
