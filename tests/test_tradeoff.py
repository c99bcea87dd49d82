"""Trade-off functions as numeric objects: Neyman-Pearson curves of finite pairs, tensor
products, the trade-off-function checks, group privacy iterates, Gaussian tensor products
(Dong, Roth & Su, arXiv:1905.02383v3, Sec. 2-3)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numeric_checks.dp.gaussian import tradeoff_eps_delta, tradeoff_gaussian
from numeric_checks.dp.tradeoff import (
    FinitePair,
    clt_parameters,
    convex_minorant,
    dominates,
    eps_delta_pair,
    eps_power_pair,
    functionals,
    gaussian_group,
    gaussian_tensor,
    gaussian_tradeoff_by_shift,
    group_tradeoff,
    group_tradeoff_grid,
    identity_pair,
    inverse,
    laplace_tradeoff,
    normal_mix,
    tensor,
    tradeoff_curve,
    tradeoff_violations,
)
from numeric_checks.mp import quad_relative
from symbolic.errors import InvalidInput

GRID = [mpmath.mpf(i) / 97 for i in range(98)]


@pytest.fixture(autouse=True)
def _fifty_digits() -> object:
    with mpmath.workdps(50):
        yield


def _sup_gap(f: Callable[[Any], Any], g: Callable[[Any], Any]) -> Any:
    return max(abs(f(a) - g(a)) for a in GRID)


@st.composite
def finite_pairs(draw: st.DrawFn) -> FinitePair:
    n = draw(st.integers(2, 6))
    weights = st.lists(st.one_of(st.just(0), st.integers(1, 1000)), min_size=n, max_size=n).filter(
        lambda w: sum(w) > 0
    )
    p, q = draw(weights), draw(weights)
    return FinitePair.make([mpmath.mpf(x) / sum(p) for x in p], [mpmath.mpf(x) / sum(q) for x in q])


@pytest.mark.parametrize(("eps", "delta"), [("0", "0"), ("1", "0"), ("1", "0.1"), ("3", "1e-9")])
def test_eps_delta_pair_gives_f_eps_delta(eps: str, delta: str) -> None:
    curve = tradeoff_curve(eps_delta_pair(eps, delta))
    assert _sup_gap(curve, lambda a: tradeoff_eps_delta(eps, delta, a)) < mpmath.mpf(10) ** -40


@settings(max_examples=60, deadline=None)
@given(finite_pairs())
def test_neyman_pearson_curves_are_tradeoff_functions(pair: FinitePair) -> None:
    with mpmath.workdps(30):
        f = tradeoff_curve(pair)
        assert tradeoff_violations(f, samples=60) == []
        # alpha + beta >= 1 - TV(P, Q) (seed 004, section 2)
        tv = sum(abs(p - q) for p, q in zip(pair.p, pair.q, strict=True)) / 2
        assert all(a + f(a) >= 1 - tv - mpmath.mpf(10) ** -25 for a in GRID)
        # T(Q, P) = T(P, Q)^{-1}: g(f(alpha)) <= alpha
        g = tradeoff_curve(pair.swap())
        assert all(g(f(a)) <= a + mpmath.mpf(10) ** -25 for a in GRID)


@settings(max_examples=30, deadline=None)
@given(finite_pairs(), finite_pairs())
def test_tensor_is_commutative_and_id_is_neutral(a: FinitePair, b: FinitePair) -> None:
    with mpmath.workdps(30):
        ab, ba = tradeoff_curve(tensor(a, b)), tradeoff_curve(tensor(b, a))
        assert _sup_gap(ab, ba) < mpmath.mpf(10) ** -25
        assert _sup_gap(tradeoff_curve(tensor(a, identity_pair())), tradeoff_curve(a)) < (
            mpmath.mpf(10) ** -25
        )
        assert tradeoff_violations(ab, samples=60) == []
        # a product is harder to tell apart by at most the weaker factor: f (x) g <= f
        assert all(ab(x) <= tradeoff_curve(a)(x) + mpmath.mpf(10) ** -25 for x in GRID)


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_binomial_power_equals_the_explicit_product(n: int) -> None:
    explicit = tradeoff_curve(tensor(*[eps_delta_pair("0.7", 0)] * n))
    direct = tradeoff_curve(eps_power_pair("0.7", n))
    assert _sup_gap(explicit, direct) < mpmath.mpf(10) ** -40
    if n > 1:  # equal ratios merged, empty atoms dropped
        assert len(tensor(*[eps_delta_pair("0.7", 0)] * n).p) == n + 1


@pytest.mark.parametrize(
    ("name", "f", "kind"),
    [
        ("concave", lambda a: 1 - a**2, "above-identity"),
        ("concave below Id", lambda a: (1 - a) * (2 + a) / 3, "convexity"),
        ("increasing", lambda a: a / 2, "increasing"),
        ("jump at 0", lambda a: mpmath.mpf(1) if a == 0 else (1 - a) / 2, "continuity"),
        ("above 1", lambda a: 2 - 2 * a, "range"),
    ],
)
def test_violations_are_found(name: str, f: Callable[[object], object], kind: str) -> None:
    found = {v.kind for v in tradeoff_violations(f)}
    assert kind in found, (name, found)


@pytest.mark.parametrize(
    "f",
    [
        lambda a: 1 - a,
        lambda a: tradeoff_gaussian(1, a),
        lambda a: tradeoff_eps_delta(1, "0.2", a),
        lambda a: laplace_tradeoff(2, a),
    ],
)
def test_true_tradeoff_functions_pass(f: Callable[[object], object]) -> None:
    assert tradeoff_violations(f) == []


def test_laplace_tradeoff_matches_the_closed_form() -> None:
    """T(Lap(0,1), Lap(mu,1)): 1 - e^mu a below e^-mu/2, e^-mu/(4a) up to 1/2, e^-mu (1-a)."""
    mu = mpmath.mpf("1.3")

    def closed(a: Any) -> Any:
        a = mpmath.mpf(a)
        if a < mpmath.exp(-mu) / 2:
            return 1 - mpmath.exp(mu) * a
        if a <= 0.5:
            return mpmath.exp(-mu) / (4 * a)
        return mpmath.exp(-mu) * (1 - a)

    assert _sup_gap(lambda a: laplace_tradeoff(mu, a), closed) < mpmath.mpf(10) ** -40


def test_shift_formula_is_g_mu() -> None:
    assert _sup_gap(
        lambda a: gaussian_tradeoff_by_shift(2, a), lambda a: tradeoff_gaussian(2, a)
    ) < (mpmath.mpf(10) ** -40)


def test_gaussian_tensor_is_g_of_the_root_sum_of_squares() -> None:
    with mpmath.workdps(30):
        for m1, m2, a in [("1", "2", "0.05"), ("0.1", "3", "1e-8")]:
            got = gaussian_tensor(m1, m2, a)
            want = tradeoff_gaussian(mpmath.sqrt(mpmath.mpf(m1) ** 2 + mpmath.mpf(m2) ** 2), a)
            assert abs(got - want) <= abs(want) * mpmath.mpf(10) ** -25
        # and G_1 (x) G_1 is not G_2: the check can fail
        assert abs(gaussian_tensor(1, 1, "0.1") - tradeoff_gaussian(2, "0.1")) > 0.01


@pytest.mark.parametrize(("m1", "m2"), [("0.02", "6"), ("6", "0.02")])
def test_gaussian_tensor_near_alpha_one_with_a_lopsided_pair(m1: str, m2: str) -> None:
    """alpha = 0.999, mu2/mu1 = 300: the former quadrature over the coordinate of the larger
    mean missed the step of width 1/300 and Newton did not converge; the order of the
    coordinates must not matter."""
    with mpmath.workdps(30):
        got = gaussian_tensor(m1, m2, "0.999")
    with mpmath.workdps(60):
        want = tradeoff_gaussian(mpmath.sqrt(mpmath.mpf(m1) ** 2 + mpmath.mpf(m2) ** 2), "0.999")
        assert abs(got - want) <= abs(want) * mpmath.mpf(10) ** -27


@settings(max_examples=20, deadline=None)
@given(
    st.floats(-2, 0.8),
    st.floats(-2, 0.8),
    st.floats(-12, -0.3),
    st.booleans(),
)
def test_gaussian_tensor_matches_the_rotated_pair(
    l1: float, l2: float, la: float, complement: bool
) -> None:
    """The definition (one coordinate integrated) against G_sqrt(mu1^2 + mu2^2) over the
    catalog's ranges, alpha in both tails, to 25 of 30 digits relative."""
    with mpmath.workdps(30):
        m1, m2 = mpmath.mpf(10) ** l1, mpmath.mpf(10) ** l2
        a = mpmath.mpf(10) ** la
        a = 1 - a if complement else a
        got = gaussian_tensor(m1, m2, a)
    with mpmath.workdps(60):  # the closed form loses digits to 1 - alpha and the root
        want = tradeoff_gaussian(mpmath.sqrt(m1**2 + m2**2), a)
        assert abs(got - want) <= abs(want) * mpmath.mpf(10) ** -25


@pytest.mark.parametrize(("u", "b"), [("0.3", "1"), ("-30", "0.5"), ("4", "0.01"), ("-3", "0")])
def test_normal_mix_against_tanh_sinh(u: str, b: str) -> None:
    """The trapezoidal sums against mpmath's tanh-sinh quadrature of the same integrals,
    deep tails included (I(-30) ~ 1e-160), to 35 of 40 digits relative."""
    with mpmath.workdps(40):
        uu, bb = mpmath.mpf(u), mpmath.mpf(b)
        value, density = normal_mix(uu, bb)
        peak = -bb * uu / (1 + bb**2) if uu < 0 else mpmath.mpf(0)
        pts = [-mpmath.inf, *(peak + d for d in (-8, -2, -1, 0, 1, 2, 8)), mpmath.inf]
        want_value = quad_relative(lambda y: mpmath.npdf(y) * mpmath.ncdf(uu + bb * y), pts)
        want_density = quad_relative(lambda y: mpmath.npdf(y) * mpmath.npdf(uu + bb * y), pts)
        assert abs(value - want_value) <= abs(want_value) * mpmath.mpf(10) ** -35
        assert abs(density - want_density) <= abs(want_density) * mpmath.mpf(10) ** -35


def test_group_tradeoff_grid_is_the_iterate() -> None:
    """The double-precision grid iteration (tables) against the exact iterate."""
    f = tradeoff_curve(eps_delta_pair("0.05", 0))
    alphas = [mpmath.mpf(i) / 20 for i in range(21)]
    got = group_tradeoff_grid(f, 20, alphas)
    for a, x in zip(alphas, got, strict=True):
        assert abs(x - float(group_tradeoff(f, 20, a))) <= 1e-13


def test_group_privacy_keeps_tiny_values() -> None:
    """1 - (1 - G_2)^{o 19}(1/2) = G_38(1/2) ~ 2.9e-316: the iterate must not round it to 0."""
    got = gaussian_group(2, 19, "0.5")
    want = tradeoff_gaussian(38, "0.5")
    assert want < mpmath.mpf(10) ** -300
    assert abs(got - want) <= want * mpmath.mpf(10) ** -40


def test_group_of_eps_dp_on_a_finite_curve() -> None:
    """Group privacy of f_{eps,0}: for k = 2 the iterate is f_{2 eps, 0} on small alpha."""
    f = tradeoff_curve(eps_delta_pair(1, 0))
    a = mpmath.mpf("0.01")
    assert abs(group_tradeoff(f, 2, a) - (1 - mpmath.exp(2) * a)) < mpmath.mpf(10) ** -40


def test_functionals_of_f_eps_0() -> None:
    e = mpmath.mpf("0.8")
    fs = functionals(tradeoff_curve(eps_delta_pair(e, 0)))
    assert abs(fs.kl - e * mpmath.tanh(e / 2)) < mpmath.mpf(10) ** -40
    assert abs(fs.kappa2 - e**2) < mpmath.mpf(10) ** -40
    assert abs(fs.kappa3 - e**3) < mpmath.mpf(10) ** -40
    # a flat piece (delta > 0) makes the functionals infinite
    assert functionals(tradeoff_curve(eps_delta_pair(e, "0.1"))).kl == mpmath.inf
    mu, gamma = clt_parameters([fs] * 100)
    assert abs(mu - 2 * 100 * fs.kl / mpmath.sqrt(100 * (e**2 - fs.kl**2))) < 1e-30
    assert 0 < gamma < 0.5


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: tradeoff_gaussian(0, "0.1"), "mu must be > 0"),
        (lambda: tradeoff_gaussian(-1, "0.1"), "mu must be > 0"),
        (lambda: tradeoff_gaussian(1, "1.5"), "alpha must be in [0, 1]"),
        (lambda: laplace_tradeoff(1, "-0.1"), "alpha must be in [0, 1]"),
        (lambda: gaussian_tensor(1, 0, "0.1"), "mu must be > 0"),
        (lambda: FinitePair.make([0.5, 0.5], [1.0]), "same outcomes"),
        (lambda: FinitePair.make([0.5, 0.6], [0.5, 0.5]), "must sum to 1"),
        (lambda: FinitePair.make([1.5, -0.5], [0.5, 0.5]), ">= 0"),
        (lambda: eps_delta_pair(1, 2), "delta must be in [0, 1]"),
        (lambda: eps_power_pair(1, 0), "whole number >= 1"),
        (lambda: group_tradeoff(lambda a: 1 - a, 0, "0.1"), "whole number >= 1"),
    ],
)
def test_bad_parameters(call: Callable[[], object], fragment: str) -> None:
    with pytest.raises(InvalidInput, match=None) as err:
        call()
    assert fragment in str(err.value)


def test_dominates_decides_at_the_vertices() -> None:
    tight, loose = (tradeoff_curve(eps_delta_pair(e, 0)) for e in (1, 2))
    assert dominates(tight, loose) and not dominates(loose, tight) and dominates(tight, tight)


@settings(max_examples=60, deadline=None)
@given(st.lists(finite_pairs(), min_size=1, max_size=4))
def test_convex_minorant_is_a_tradeoff_function_below_each_curve(pairs: list[FinitePair]) -> None:
    curves = [tradeoff_curve(p) for p in pairs]
    f = convex_minorant(*curves)
    tol = mpmath.mpf(10) ** -40
    assert all(dominates(c, f, tol) for c in curves)
    assert not tradeoff_violations(f, 100, tol)


def test_convex_minorant_of_crossing_curves_lies_below_their_minimum() -> None:
    a, b = tradeoff_curve(eps_delta_pair(1, "0.1")), tradeoff_curve(eps_delta_pair(2, 0))
    tol = mpmath.mpf(10) ** -40
    assert all(abs(convex_minorant(a)(x) - a(x)) < tol for x in GRID)
    f = convex_minorant(a, b)
    assert all(f(x) <= min(a(x), b(x)) + tol for x in GRID)
    # f_{1, 0.1} and f_{2, 0} cross, so their minimum is not convex: the hull is lower there.
    assert any(f(x) < min(a(x), b(x)) - mpmath.mpf(10) ** -6 for x in GRID)


@settings(max_examples=60, deadline=None)
@given(finite_pairs())
def test_the_inverse_of_t_p_q_is_t_q_p(pair: FinitePair) -> None:
    f, swapped = inverse(tradeoff_curve(pair)), tradeoff_curve(pair.swap())
    assert max(abs(f(a) - swapped(a)) for a in GRID) < mpmath.mpf(10) ** -40


def test_f_eps_delta_is_its_own_inverse() -> None:
    f = tradeoff_curve(eps_delta_pair(1, "0.1"))
    assert max(abs(inverse(f)(a) - f(a)) for a in GRID) < mpmath.mpf(10) ** -40
