"""mpmath <-> Arb conversions used by the oracles' integrands (numeric_checks.mp_arb)."""

from __future__ import annotations

import mpmath
import pytest
from flint import arb, ctx

from numeric_checks.mp_arb import arb_precision, from_mpf, to_mpf


@pytest.mark.parametrize("text", ["0", "1", "-2.5", "1e-300", "-7.25e200", "0.1"])
def test_round_trip_is_exact(text: str) -> None:
    with mpmath.workdps(40):
        x = mpmath.mpf(text)
        with arb_precision(200):
            ball = from_mpf(x)
            assert ball.rad() == 0
            assert to_mpf(ball) == x


def test_infinities_become_nan_and_do_not_come_back() -> None:
    assert not from_mpf(mpmath.inf).is_finite()
    with pytest.raises(ArithmeticError):
        to_mpf(arb.nan())


def test_precision_is_restored_even_on_error() -> None:
    saved = ctx.prec
    with pytest.raises(ZeroDivisionError), arb_precision(saved + 77):
        assert ctx.prec == saved + 77
        raise ZeroDivisionError
    assert ctx.prec == saved


def test_arb_exp_matches_mpmath_to_the_working_precision() -> None:
    with mpmath.workdps(50):
        x = mpmath.mpf("-3.75")
        with arb_precision(mpmath.mp.prec + 10):
            got = to_mpf(from_mpf(x).exp())
        assert abs(got - mpmath.exp(x)) <= mpmath.exp(x) * mpmath.mpf(10) ** -49
