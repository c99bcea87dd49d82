"""Issue 38, the numeric side, exactness: one signed conversion from a float, an mpmath
number or an Arb ball's end to a rational (class 3), SymPy's exact evaluation at a point,
bounded before it builds anything (class 5), and sample points exactly on a closed domain
end or a constant hypothesis boundary (class 6d)."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from flint import arb
from hypothesis import example, given
from hypothesis import strategies as st

from numeric_checks.arb import exact_ball, precision
from numeric_checks.confirm import confirm_violation
from numeric_checks.exact_eval import MAX_BITS, exact_value
from numeric_checks.exact_points import ExactMpf, exact_mpf, exact_number
from numeric_checks.points import confirm_with_evalf
from numeric_checks.sampling import Point, Sampler
from numeric_checks.search import thinned
from symbolic.binary_rationals import MAX_EXPONENT, NotExact, binary_parts, exact_rational, ratio
from symbolic.domains import Domain, Variable, parse_domain
from symbolic.hypotheses import build_space
from symbolic.relations import Relation

x, y = sp.symbols("x y", real=True)
MANTISSAS = st.integers(min_value=-(2**200), max_value=2**200)
EXPONENTS = st.integers(min_value=-4000, max_value=4000)


def _fraction(man: int, exp: int) -> Fraction:
    return Fraction(man) * Fraction(2) ** exp


# -- class 3: one signed conversion ---------------------------------------------------------


@given(st.floats(allow_nan=False, allow_infinity=False))
@example(-1000.0)
@example(-0.0)
@example(5e-324)
@example(-1.7976931348623157e308)
def test_a_float_is_its_exact_rational_sign_included(v: float) -> None:
    p, q = ratio(v)
    assert Fraction(p, q) == Fraction(v)  # Fraction(float) is exact, independently
    assert q > 0 and (p < 0) == (v < 0)
    assert exact_rational(v) == sp.Rational(p, q)


@given(MANTISSAS, EXPONENTS)
@example(-1000, 0)
@example(-1, -1074)
@example(-3, 3000)
@example(0, 0)
def test_an_mpmath_number_is_its_exact_rational_sign_included(man: int, exp: int) -> None:
    with mpmath.workprec(256):  # enough bits for every mantissa drawn: no rounding
        v = mpmath.mpf((man, exp))
    p, q = ratio(v)
    assert Fraction(p, q) == _fraction(man, exp)
    assert (p < 0) == (man < 0) and q > 0
    assert exact_rational(v) == sp.Rational(p, q)
    # the same number through SymPy's Float and back
    assert exact_rational(sp.Float(v, 100)) == sp.Rational(p, q)


@given(MANTISSAS, EXPONENTS)
@example(-1000, 0)
@example(-7, -2000)
def test_an_exact_arb_ball_is_its_rational_and_its_ball_of_an_mpf_is_exact(
    man: int, exp: int
) -> None:
    ball = arb((man, exp))
    assert Fraction(*ratio(ball)) == _fraction(man, exp)
    assert Fraction(*ratio(ball.mid())) == _fraction(man, exp)
    with mpmath.workprec(256):
        v = mpmath.mpf((man, exp))
    with precision(512):
        b = exact_ball(v)
    assert b.rad() == 0 and Fraction(*ratio(b.mid())) == _fraction(man, exp)


@given(MANTISSAS.filter(lambda m: m % 3 != 0), EXPONENTS)
def test_the_ends_of_a_ball_bracket_its_value(man: int, exp: int) -> None:
    ball = arb((man, exp)) / 3  # not a binary number: a ball with a radius, no one number
    with pytest.raises(NotExact):
        ratio(ball)
    lo, hi = (Fraction(*ratio(e)) for e in (ball.lower(), ball.upper()))
    assert lo <= _fraction(man, exp) / 3 <= hi


@pytest.mark.parametrize(
    "value",
    [
        float("inf"),
        float("-inf"),
        float("nan"),
        mpmath.mpf("inf"),
        mpmath.mpf("-inf"),
        mpmath.mpf("nan"),
        arb("inf"),
        arb.nan(),
        mpmath.mpf((1, MAX_EXPONENT + 1)),
        mpmath.mpf((-3, -(MAX_EXPONENT + 5))),
    ],
    ids=str,
)
def test_infinities_nan_and_huge_exponents_are_refused(value: object) -> None:
    with pytest.raises(NotExact):
        exact_rational(value)


def test_exponents_up_to_the_limit_are_converted_and_any_exponent_goes_to_arb() -> None:
    assert binary_parts(mpmath.mpf((-5, MAX_EXPONENT))) == (-5, MAX_EXPONENT)
    assert ratio(mpmath.mpf((1, -MAX_EXPONENT)))[1] == 2**MAX_EXPONENT
    # mantissa and exponent, without forming 2**exp: a quadrature's far tail has such numbers
    tiny = mpmath.mpf((-3, -5689920635))
    assert binary_parts(tiny) == (-3, -5689920635)
    assert binary_parts(arb((-3, -5689920635))) == (-3, -5689920635)


@pytest.mark.parametrize("point", ["-1000", "-1e30", "-0.5", "-1e-30"])
def test_the_exact_referee_confirms_a_violation_at_a_negative_point(point: str) -> None:
    # x >= -100 (and x >= -1e-40) at a negative point: re-checked at the point itself, not
    # at its absolute value, which passes.
    v = mpmath.mpf(point)
    bound = sp.Integer(-100) if float(point) < -100 else sp.Rational(-1, 10**40)
    ruling = confirm_violation(x, Relation.GE, bound, [x], [v])
    assert ruling.confirmed is True and ruling.method == "exactly", ruling
    assert confirm_with_evalf(x, Relation.GE, bound, [x], [v]) is True


def test_the_exact_referee_dismisses_a_violation_that_is_none_at_a_negative_point() -> None:
    ruling = confirm_violation(x, Relation.GE, sp.Integer(-100), [x], [mpmath.mpf(-50)])
    assert ruling.confirmed is False and ruling.detail == "residual 50.000000"


# -- class 5: exact evaluation, bounded -----------------------------------------------------

n = sp.Symbol("n", integer=True)
k = sp.Symbol("k", integer=True)


@pytest.mark.parametrize(
    ("expr", "point", "value"),
    [
        (sp.ceiling(x) - sp.floor(x), {x: 5}, 0),
        (sp.ceiling(x) - sp.floor(x), {x: sp.Rational(-7, 2)}, 1),
        ((-1) ** n, {n: 7}, -1),
        (sp.sqrt(x) ** 2, {x: -4}, -4),
        (sp.Sum(k, (k, 1, n)), {n: 50}, 1275),
        (sp.Piecewise((x, x < 1), (2 * x, True)), {x: 3}, 6),
        (sp.Max(x, 1) - sp.Min(x, 1) - sp.Abs(x - 1), {x: sp.Rational(1, 3)}, 0),
        (x / (x**2 + 1), {x: sp.Rational(-1, 2)}, sp.Rational(-2, 5)),
        (sp.floor(x**2), {x: sp.sqrt(2)}, 2),
    ],
)
def test_sympy_evaluates_exactly_what_arb_cannot_enclose(
    expr: sp.Expr, point: dict[sp.Symbol, int], value: sp.Expr
) -> None:
    got = exact_value(expr, {s: sp.sympify(v) for s, v in point.items()})
    assert got.value == value, got


@pytest.mark.parametrize(
    ("expr", "point", "why"),
    [
        (x**100000, {x: "3/2"}, "would have about"),
        (2**n, {n: 10**9}, "would have about"),
        (sp.factorial(n), {n: 10**26}, "too large"),
        (sp.binomial(n, 3), {n: 10**9}, "too large"),
        (sp.Sum(1 / k, (k, 1, n)), {n: 10**9}, "more than"),
        (sp.Sum(1 / k**2, (k, 1, sp.oo)), {}, "infinite"),
        (sp.sqrt(x), {x: -2}, "not real"),
        (1 / x, {x: 0}, "undefined"),
    ],
)
def test_exact_evaluation_refuses_before_it_builds_too_much(
    expr: sp.Expr, point: dict[sp.Symbol, int | str], why: str
) -> None:
    got = exact_value(expr, {s: sp.sympify(v) for s, v in point.items()})
    assert got.value is None and why in got.why, got


@given(st.integers(min_value=2, max_value=10**6), st.integers(min_value=1, max_value=10**6))
def test_exact_evaluation_never_holds_a_rational_past_its_bound(base: int, power: int) -> None:
    got = exact_value(x**power - 1, {x: sp.Rational(base, 3)})
    if got.value is not None:
        assert isinstance(got.value, sp.Rational)
        assert max(int(got.value.p).bit_length(), int(got.value.q).bit_length()) <= MAX_BITS


# -- class 6d: exactly on ends and boundaries -----------------------------------------------


def _sampler(variables: list[Variable], hypotheses: list[sp.Rel] | None = None) -> Sampler:
    return Sampler(build_space(variables, hypotheses or []), seed=0)


def test_a_closed_end_is_sampled_exactly_and_kept_by_costly_links() -> None:
    s = _sampler([Variable("x", parse_domain("[1/3, 1]"))])
    ends = [p for p in s.edge_points() if p.origin == "end"]
    assert {exact_number(p.values[0]) for p in ends} == {sp.Rational(1, 3), sp.Integer(1)}
    third = next(p.values[0] for p in ends if isinstance(p.values[0], ExactMpf))
    assert third.exact == sp.Rational(1, 3)
    with mpmath.workdps(200):
        assert abs(third.at(mpmath.mp.prec) - mpmath.mpf(1) / 3) < mpmath.mpf(10) ** -195
    kept = thinned([Point((mpmath.mpf(i),), "edge") for i in range(40)] + ends)
    assert all(p in kept for p in ends)


def test_an_open_end_is_not_sampled_and_an_expression_end_is_sampled_on_itself() -> None:
    s = _sampler([Variable("x", parse_domain("(1/3, 1]"))])
    values = [exact_number(p.values[0]) for p in s.edge_points()]
    assert sp.Rational(1, 3) not in values and sp.Integer(1) in values
    root2 = Domain(lower=sp.sqrt(2), upper=sp.Integer(2), lower_open=False, upper_open=False)
    s = _sampler([Variable("x", root2)])
    values = [p.values[0] for p in s.edge_points() if p.origin == "end"]
    assert any(getattr(v, "exact", None) == sp.sqrt(2) for v in values)
    assert all(s.satisfies((v,)) for v in values)


def test_a_far_integer_end_is_sampled() -> None:
    s = _sampler([Variable("n", parse_domain("Z in [-10000000, 999999999999]"))])
    assert any(p.values[0] == 999999999999 for p in s.edge_points())


def test_a_constant_boundary_is_sampled_on_itself_only_when_it_belongs() -> None:
    free = [Variable("x", parse_domain("R")), Variable("y", parse_domain("[0, 1]"))]
    xs = free[0].symbol
    closed = _sampler(free, [sp.GreaterThan(xs, sp.sqrt(2))]).boundary_points()
    on = [p for p in closed if getattr(p.values[0], "exact", None) == sp.sqrt(2)]
    assert on, "no point on x = sqrt(2)"
    strict = _sampler(free, [sp.StrictGreaterThan(xs, sp.sqrt(2))]).boundary_points()
    assert not any(isinstance(p.values[0], ExactMpf) for p in strict)
    with mpmath.workdps(120):
        assert strict and all(p.values[0] > mpmath.sqrt(2) for p in strict)


def test_an_exact_coordinate_is_the_binary_float_when_it_is_one() -> None:
    assert type(exact_mpf(sp.Rational(-3, 8), 50)) is mpmath.mpf
    assert isinstance(exact_mpf(sp.Rational(-1, 3), 50), ExactMpf)
    ruling = confirm_violation(x**2, Relation.GT, sp.Integer(2), [x], [exact_mpf(sp.sqrt(2), 50)])
    assert ruling.confirmed is True, ruling  # x**2 > 2 fails exactly at x = sqrt(2)


def test_a_point_outside_a_hypothesis_exactly_is_no_counterexample() -> None:
    # The sampler tests the hypotheses at twice the digits, which is no proof: the referee
    # checks them at the exact point first (x >= 1/3 fails at the float just below 1/3).
    below = mpmath.mpf(1) / 3  # 53 bits: below 1/3
    third = (x - sp.Rational(1, 3), False)
    ruling = confirm_violation(x, Relation.GT, sp.Rational(1, 3), [x], [below], [third])
    assert ruling.confirmed is False and "is outside x - 1/3 >= 0" in ruling.detail
    # On the hypothesis's boundary, exactly, the point is inside and the violation stands.
    on = exact_mpf(sp.Rational(1, 3), 50)
    ruling = confirm_violation(x, Relation.GT, sp.Rational(1, 3), [x], [on], [third])
    assert ruling.confirmed is True, ruling
    strict = (sp.sqrt(2) - x, True)  # x < sqrt(2), shown false at x = 3/2 through Arb
    ruling = confirm_violation(x, Relation.LE, sp.Integer(1), [x], [mpmath.mpf(1.5)], [strict])
    assert ruling.confirmed is False and "outside" in ruling.detail
