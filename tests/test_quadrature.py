"""Arb quadrature with proved tails (numeric_checks/quadrature.py): the enclosures contain
the true values, are narrow enough to decide, and are refused where no bound is proved."""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp
from flint import arb

from numeric_checks.arb import precision
from numeric_checks.confirm import confirm_violation
from numeric_checks.quadrature import integral_ball
from symbolic.errors import Unsupported
from symbolic.functions import Phi
from symbolic.relations import Relation

x = sp.Symbol("x", real=True)
D, s, eps, t, b, u1, u2 = sp.symbols("D s eps t b u1 u2", real=True)


def ball_of(node: sp.Integral, point: dict[sp.Symbol, sp.Rational], bits: int = 128) -> object:
    symbols = sorted(point, key=lambda v: v.name)
    with precision(bits):
        balls = [arb(int(point[v].p)) / int(point[v].q) for v in symbols]
        value, how = integral_ball(node, symbols, balls, point)
    assert "acb.integral" in how
    return value


def contains(value: object, truth: str) -> bool:
    """``truth`` (a decimal string of 50 digits) lies in the ball ``value``."""
    with precision(200):
        return bool(value.contains(arb(truth)))  # type: ignore[attr-defined]


HOCKEY = sp.Integral(
    sp.Max(0, sp.exp(-((x - D) ** 2) / (2 * s**2)) - sp.exp(eps) * sp.exp(-(x**2) / (2 * s**2)))
    / (sp.sqrt(2 * sp.pi) * s),
    (x, -sp.oo, sp.oo),
)
LAPLACE_MGF = sp.Integral(sp.exp(t * x) * sp.exp(-sp.Abs(x) / b) / (2 * b), (x, -sp.oo, sp.oo))
GUMBEL = sp.Integral(
    sp.exp(-(x - u1) - sp.exp(-(x - u1))) * sp.exp(-sp.exp(-(x - u2))), (x, -sp.oo, sp.oo)
)
HALF = sp.Rational(1, 2)


def phi(z: sp.Expr) -> sp.Expr:
    """The standard normal CDF in a form SymPy evaluates (the reference values)."""
    return sp.erfc(-z / sp.sqrt(2)) / 2


@pytest.mark.parametrize(
    ("node", "point", "truth"),
    [
        (
            HOCKEY,
            {D: sp.Integer(1), s: sp.Integer(1), eps: HALF},
            phi(0) - sp.exp(HALF) * phi(-1),  # Balle & Wang 2018, Theorem 8
        ),
        (
            HOCKEY,
            {D: sp.Rational(3, 10), s: sp.Integer(7), eps: sp.Rational(1, 10)},
            phi(sp.Rational(3, 140) - sp.Rational(7, 3))
            - sp.exp(sp.Rational(1, 10)) * phi(-sp.Rational(3, 140) - sp.Rational(7, 3)),
        ),
        (LAPLACE_MGF, {t: HALF, b: sp.Integer(1)}, sp.Rational(4, 3)),
        (LAPLACE_MGF, {t: -sp.Rational(9, 10), b: sp.Integer(1)}, 1 / (1 - sp.Rational(81, 100))),
        (GUMBEL, {u1: sp.Integer(-5), u2: sp.Integer(3)}, sp.exp(-5) / (sp.exp(-5) + sp.exp(3))),
        (sp.Integral(sp.Abs(x), (x, -1, 2)), {}, sp.Rational(5, 2)),
        (sp.Integral(sp.sqrt(x), (x, 1, 4)), {}, sp.Rational(14, 3)),
        (sp.Integral(sp.exp(-x) * x**3, (x, 0, sp.oo)), {}, sp.Integer(6)),
        # Kinks of every kind the integrand may have (issue 39): a jump, a floor, a choice.
        (sp.Integral(sp.exp(-x) * sp.Heaviside(x), (x, -1, 1)), {}, 1 - sp.exp(-1)),
        (sp.Integral(sp.floor(x), (x, 0, sp.Rational(5, 2))), {}, sp.Integer(2)),
        (
            sp.Integral(sp.Piecewise((x, x < 1), (2 - x, True)), (x, 0, 2)),
            {},
            sp.Integer(1),
        ),
        # The tail "exp(-10*Abs(_y - 1))": Abs resolved on the ray past its kink.
        (
            sp.Integral(sp.exp(-10 * sp.Abs(x - 1)), (x, -sp.oo, sp.oo)),
            {},
            sp.Rational(1, 5),
        ),
    ],
)
def test_the_enclosure_contains_the_value_and_is_narrow(node, point, truth) -> None:  # type: ignore[no-untyped-def]
    value = ball_of(node, point)
    exact = str(sp.N(truth, 50))
    assert contains(value, exact), (value, exact)
    assert value.rad() < 1e-15  # type: ignore[attr-defined]  # the goal at 128 bits: 2^-64


def test_a_branch_cut_function_is_not_integrated_across_its_cut_by_mistake() -> None:
    # Ignoring the analytic flag, sqrt on [1, 4] comes out as 4.6694... (python-flint's own
    # warning); forwarded, 14/3.
    value = ball_of(sp.Integral(sp.sqrt(x), (x, 1, 4)), {})
    assert not contains(value, "4.669414894781006338774348")


@pytest.mark.parametrize(
    "node",
    [
        sp.Integral(1 / x**2, (x, 1, sp.oo)),  # decays, but not exponentially: no envelope
        sp.Integral(sp.exp(x / 10), (x, 0, sp.oo)),  # diverges
        sp.Integral(sp.sin(x), (x, 0, sp.oo)),  # no decay at all
        sp.Integral(sp.exp(-x) * sp.besselj(0, x), (x, -1, 1)),  # outside the integrand set
    ],
)
def test_no_enclosure_is_claimed_without_a_proved_bound(node: sp.Integral) -> None:
    with pytest.raises(Unsupported):
        ball_of(node, {})


def test_a_wrong_closed_form_is_refuted_by_quadrature_and_a_right_one_never() -> None:
    point = [mpmath.mpf(1), mpmath.mpf(1), mpmath.mpf("0.5")]
    right = Phi(D / (2 * s) - eps * s / D) - sp.exp(eps) * Phi(-D / (2 * s) - eps * s / D)
    wrong = Phi(D / (2 * s) - eps * s / (2 * D)) - sp.exp(eps) * Phi(-D / (2 * s) - eps * s / D)
    bad = confirm_violation(HOCKEY, Relation.EQ, wrong, [D, s, eps], point)
    assert bad.confirmed is True
    assert bad.method.startswith("Arb quadrature (acb.integral) at 128 bits"), bad.method
    assert "proved tail bound" in bad.detail
    good = confirm_violation(HOCKEY, Relation.EQ, right, [D, s, eps], point)
    assert good.confirmed is not True, good.detail
