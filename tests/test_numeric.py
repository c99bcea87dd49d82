"""The mpmath bridge, point decisions at escalating precision, and counterexample search."""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from numeric_checks.bridge import compile_exprs, evaluate
from numeric_checks.mp import phi_inv
from numeric_checks.points import RelationCheck, Status, complexity, fmt, fmt_pair
from numeric_checks.sampling import Sampler
from numeric_checks.search import spot_check
from symbolic.domains import POSITIVE, Domain, Variable
from symbolic.errors import EvaluationError
from symbolic.functions import Phi, PhiInv
from symbolic.hypotheses import build_space
from symbolic.relations import Relation
from symbolic.verdicts import Verdict

X = Variable("x", POSITIVE)
x = X.symbol


def test_sum_is_summed_in_mpmath_not_floats() -> None:
    k = sp.Symbol("k", integer=True)
    n = sp.Symbol("n", integer=True, positive=True)
    fn = compile_exprs([n], [sp.Sum(1 / k**2, (k, 1, n))])
    (value,) = evaluate(fn, [mpmath.mpf(100)], 50)
    with mpmath.workdps(50):
        exact = mpmath.fsum(mpmath.mpf(1) / j**2 for j in range(1, 101))
        assert abs(value - exact) < mpmath.mpf(10) ** -45


def test_infinite_sum_and_integral() -> None:
    k = sp.Symbol("k", integer=True)
    t = sp.Symbol("t", real=True)
    fn = compile_exprs(
        [x], [sp.Sum(x / k**2, (k, 1, sp.oo)), sp.Integral(sp.exp(-(t**2)), (t, -sp.oo, sp.oo))]
    )
    s, i = evaluate(fn, [mpmath.mpf(1)], 40)
    with mpmath.workdps(40):
        assert abs(s - mpmath.pi**2 / 6) < mpmath.mpf(10) ** -35
        assert abs(i - mpmath.sqrt(mpmath.pi)) < mpmath.mpf(10) ** -35


def test_too_long_product_is_undefined_not_slow() -> None:
    k = sp.Symbol("k", integer=True)
    fn = compile_exprs([x], [sp.Product(1 + 1 / k**2, (k, 1, x))])
    with pytest.raises(EvaluationError, match="too long"):
        evaluate(fn, [mpmath.mpf(10) ** 9], 30)


def test_a_sum_too_long_to_add_takes_its_value_from_its_enclosure() -> None:
    # Issue 39: 10^9 terms are not added one by one; the sum's Arb enclosure
    # (Euler-Maclaurin with a proved remainder) gives the value, every digit used certain.
    k = sp.Symbol("k", integer=True)
    fn = compile_exprs([x], [sp.Sum(1 / k, (k, 1, x))])
    (value,) = evaluate(fn, [mpmath.mpf(10) ** 9], 30)
    with mpmath.workdps(40):
        assert abs(value - mpmath.harmonic(10**9)) < mpmath.mpf(10) ** -25


def test_complex_values_are_undefined() -> None:
    fn = compile_exprs([sp.Symbol("y", real=True)], [sp.log(sp.Symbol("y", real=True))])
    with pytest.raises(EvaluationError, match="complex"):
        evaluate(fn, [mpmath.mpf(-1)], 30)


@given(st.floats(min_value=-30, max_value=30))
def test_phi_inv_inverts_phi(v: float) -> None:
    # Backward error: near p = 1 the inverse is ill-conditioned in the input itself.
    with mpmath.workdps(50):
        p = mpmath.ncdf(mpmath.mpf(v))
        back = phi_inv(p)
        assert abs(mpmath.ncdf(back) - p) <= mpmath.mpf(10) ** -45 * p


def test_phi_inv_in_the_far_tail() -> None:
    with mpmath.workdps(50):
        p = mpmath.mpf("1e-300")
        assert abs(mpmath.ncdf(phi_inv(p)) / p - 1) < mpmath.mpf(10) ** -40


def test_phi_and_phiinv_compile() -> None:
    fn = compile_exprs([x], [Phi(x), PhiInv(x / (1 + x))])
    a, b = evaluate(fn, [mpmath.mpf(1)], 30)
    with mpmath.workdps(30):
        assert abs(a - mpmath.ncdf(1)) < mpmath.mpf(10) ** -28
        assert abs(b) < mpmath.mpf(10) ** -28


def _check(lhs: sp.Expr, rel: Relation, rhs: sp.Expr, var: Variable = X) -> RelationCheck:
    sampler = Sampler(build_space([var], []), seed=3, dps=50)
    return RelationCheck(lhs, rel, rhs, sampler)


def test_hair_true_is_not_refuted_and_hair_false_is() -> None:
    one = mpmath.mpf(1)
    hair = sp.Rational(1, 10**40)
    assert _check(x, Relation.LT, x * (1 + hair)).decide([one]).status is Status.OK
    assert _check(x * (1 + hair), Relation.LE, x).decide([one]).status is Status.VIOLATED


def test_cancellation_noise_is_not_a_counterexample() -> None:
    # exp(x) - 1 >= x + x^2/2 is true; at x = 1e-30 the 50-digit value of exp(x) - 1 is
    # all noise beyond 1e-50 and must be re-decided with more digits.
    check = _check(sp.exp(x) - 1, Relation.GE, x + x**2 / 2)
    with mpmath.workdps(50):
        tiny = mpmath.mpf("1e-30")
    assert check.decide([tiny]).status is Status.OK


def test_noise_does_not_hide_a_violation() -> None:
    # false for x < ~2.4e-15 only; at 50 digits the noise is larger than the violation
    check = _check((sp.exp(x) - 1) / x, Relation.GE, 1 + x / 2 + sp.Rational(1, 10**30))
    with mpmath.workdps(50):
        tiny = mpmath.mpf("1e-30")
    assert check.decide([tiny]).status is Status.VIOLATED


def test_identically_zero_with_cancellation_is_a_tie_not_a_violation() -> None:
    check = _check((x + 1) ** 2 - x**2 - 2 * x, Relation.EQ, sp.S(1))
    with mpmath.workdps(50):
        big = mpmath.mpf(10) ** 40 + mpmath.mpf("0.3")
    assert check.decide([big]).status is Status.OK


def test_strict_tie_is_refuted_only_when_exact() -> None:
    y = Variable("y", Domain())
    check = _check(sp.Abs(y.symbol), Relation.LT, sp.Abs(-y.symbol), y)
    result = check.decide([mpmath.mpf(2)])
    assert result.status is Status.VIOLATED and "exactly equal" in result.note


def test_spot_check_finds_and_shrinks_a_counterexample() -> None:
    check = _check(x**2, Relation.LE, 10 * x)  # false for x > 10
    sampler = check.sampler
    points = sampler.random_points(50)
    outcome = spot_check(check, points, search_budget=200)
    assert outcome.verdict is Verdict.REFUTED
    assert outcome.counterexample is not None
    value = float(outcome.counterexample.point["x"])
    assert value > 10 and complexity(mpmath.mpf(value))[0] <= 2


def test_search_finds_a_narrow_violation() -> None:
    # Violated only on x in (3, 3.001): random draws rarely land there; the edge and
    # local search must.
    g = (x - 3) * (x - sp.Rational(3001, 1000))
    check = _check(sp.S(0), Relation.LE, g)
    outcome = spot_check(check, check.sampler.random_points(200), search_budget=400)
    assert outcome.verdict is Verdict.REFUTED


def test_fmt_never_rounds_to_a_double() -> None:
    with mpmath.workdps(50):
        v = mpmath.mpf(1) / 3
    assert fmt(v, 30).startswith("0.333333333333333333333333333")
    with mpmath.workdps(60):
        near = mpmath.mpf(1) + mpmath.mpf(10) ** -40
    a, b = fmt_pair(near, mpmath.mpf(1), 100)
    assert a != b and a.startswith("1.000000000000000000000000000000000000000")


def test_issue_quadrature_is_relative_not_absolute() -> None:
    # Regression: mpmath.quad stops on an absolute error target, so a tail integral of size
    # 1e-89 came back with 7 correct digits.  quad_relative and compiled Integrals normalise.
    from numeric_checks.mp import quad_relative

    with mpmath.workdps(50):
        mu, eps = mpmath.mpf("0.5"), mpmath.mpf(10)
        x_star, w = eps / mu + mu / 2, mpmath.exp(eps)
        exact = mpmath.ncdf(-eps / mu + mu / 2) - w * mpmath.ncdf(-eps / mu - mu / 2)
        pts = [x_star + k / x_star for k in (0, 1, 4, 16, 64)] + [mpmath.inf]
        value = quad_relative(lambda t: mpmath.npdf(t, mu, 1) - w * mpmath.npdf(t), pts)
        assert abs(value / exact - 1) < mpmath.mpf(10) ** -40
        t = sp.Symbol("t", real=True)
        fn = compile_exprs([x], [sp.Integral(sp.exp(-t) * sp.Rational(1, 10**80), (t, 0, x))])
        (v,) = evaluate(fn, [mpmath.mpf(1)], 50)
        assert abs(v * mpmath.mpf(10) ** 80 - (1 - mpmath.exp(-1))) < mpmath.mpf(10) ** -45


def test_unevaluated_sums_with_repeated_terms_compile_to_their_value() -> None:
    # Regression: SymPy's cse treated Add(a, h, h, evaluate=False) as a + h, so a true step
    # "a + h + small <= a + h + h" of numeric-sparse-privacy-approx was refuted.
    x, y = sp.symbols("x y", positive=True)
    h = x / 7
    display = sp.Add(y, h, h, evaluate=False)
    other = sp.Add(y, h, sp.Rational(1, 1000) * x, evaluate=False)
    fn = compile_exprs([x, y], [other, display])
    small, big = evaluate(fn, [mpmath.mpf(1), mpmath.mpf(2)], 30)
    assert big == pytest.approx(2 + 2 / 7.0, rel=1e-25)
    assert small < big
