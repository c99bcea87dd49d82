"""Rigorous calculus (issue 39, numeric_checks/rigorous): sums over the integers and
integrals over the line enclose their true values, narrowly, at the scales the issue names
(the discrete Gaussian at sigma = 10^6, a Poisson law peaking at 10^6), and no enclosure is
claimed where no bound is proved (divergent or slowly decaying series)."""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp
from flint import arb

from numeric_checks.arb import ball, precision
from numeric_checks.rigorous.calculus import box_function
from numeric_checks.rigorous.envelopes import tail_bound
from numeric_checks.rigorous.kinks import numeric_kinks
from numeric_checks.rigorous.ratios import ratio_test
from numeric_checks.rigorous.series import sum_ball
from numeric_checks.rigorous.shown import ball_text, shown_sides
from numeric_checks.rigorous.signs import resolve, sign_on_ray
from numeric_checks.rigorous.taylor import NotSmooth, compile_taylor
from symbolic.errors import Unsupported

k = sp.Symbol("k", integer=True)
s, lam, a, b = sp.symbols("s lam a b", positive=True)
y = sp.Symbol("y", real=True)
GAUSS = sp.exp(-(k**2) / (2 * s**2))


def enclosure(node: sp.Sum, point: dict[sp.Symbol, str], bits: int = 128) -> object:
    symbols = list(point)
    with precision(bits):
        value, _ = sum_ball(node, symbols, [arb(point[v]) for v in symbols])
    return value


def holds(value: object, truth: mpmath.mpf) -> bool:
    with precision(300):
        return bool(value.contains(arb(mpmath.nstr(truth, 60))))  # type: ignore[attr-defined]


def test_discrete_gaussian_normaliser_at_sigma_a_million() -> None:
    # Poisson summation: sum_k e^{-k^2/2s^2} = sqrt(2 pi) s (1 + 2 e^{-2 pi^2 s^2} + ...),
    # so at s = 10^6 the sum is sqrt(2 pi) s to every digit; 1 + sqrt(2 pi) s is excluded.
    value = enclosure(sp.Sum(GAUSS, (k, -sp.oo, sp.oo)), {s: "1000000"})
    with mpmath.workdps(60):
        truth = mpmath.sqrt(2 * mpmath.pi) * 10**6
        assert holds(value, truth)
        assert not holds(value, truth + 1)
    assert value.rad() < 1e-12  # type: ignore[attr-defined]


def test_discrete_gaussian_second_moment_at_sigma_a_million() -> None:
    value = enclosure(sp.Sum(k**2 * GAUSS, (k, -sp.oo, sp.oo)), {s: "1000000"})
    with mpmath.workdps(60):
        assert holds(value, mpmath.sqrt(2 * mpmath.pi) * mpmath.mpf(10) ** 18)


@pytest.mark.parametrize("where", ["3", "1000000"])
def test_poisson_mean_whose_terms_peak_far_out(where: str) -> None:
    term = k * sp.exp(-lam) * lam**k / sp.factorial(k)
    value = enclosure(sp.Sum(term, (k, 0, sp.oo)), {lam: where})
    assert holds(value, mpmath.mpf(where))
    assert not holds(value, mpmath.mpf(where) * (1 + mpmath.mpf("1e-15")))


def test_two_sided_sums_with_abs_are_split_at_their_kink() -> None:
    # The discrete Laplace normaliser: both tails, not one.
    value = enclosure(sp.Sum(sp.exp(-sp.Abs(k) / b), (k, -sp.oo, sp.oo)), {b: "1"})
    with mpmath.workdps(60):
        e = mpmath.exp(-1)
        assert holds(value, (1 + e) / (1 - e))
        assert not holds(value, 1 + e / (1 - e))
    variance = sp.Sum(k**2 * (1 - a) / (1 + a) * a ** sp.Abs(k), (k, -sp.oo, sp.oo))
    assert holds(enclosure(variance, {a: "0.5"}), mpmath.mpf(4))  # 2a/(1 - a)^2
    positive = sp.Sum(sp.Max(k, 0) * (1 - a) / (1 + a) * a ** sp.Abs(k), (k, -sp.oo, sp.oo))
    with mpmath.workdps(60):
        assert holds(enclosure(positive, {a: "0.5"}), mpmath.mpf(2) / 3)  # a/(1 - a^2)


def test_a_long_finite_sum_by_euler_maclaurin() -> None:
    value = enclosure(sp.Sum(1 / k**2, (k, 1, 10**6)), {})
    with mpmath.workdps(50):
        truth = mpmath.zeta(2) - mpmath.psi(1, 10**6 + 1)
        assert holds(value, truth)
    assert value.rad() < 1e-15  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "term",
    [sp.Integer(1), 2**k, 1 / k, sp.exp(k / 1000)],
    ids=["constant", "growing", "harmonic", "slow-growth"],
)
def test_no_enclosure_is_claimed_for_a_series_with_no_proved_tail(term: sp.Expr) -> None:
    with pytest.raises(Unsupported):
        enclosure(sp.Sum(term, (k, 1, sp.oo)), {})


def test_a_kink_is_resolved_on_a_ray_only_where_its_sign_is_shown() -> None:
    f = sp.exp(-sp.Abs(y - 1) / b)
    with precision(64):
        assert sp.simplify(resolve(f, y, 1, [b], [arb(1)], arb(2)) - sp.exp(-(y - 1) / b)) == 0
        with pytest.raises(Unsupported):
            resolve(f, y, 1, [b], [arb(1)], arb(0))
        # A hockey-stick difference: e^{-y/b} - e^eps e^{-(y-1)/b} < 0 on y >= 2.
        h = sp.exp(-y / b) - sp.exp(sp.Rational(1, 2)) * sp.exp(-(y - 1) / b)
        assert sign_on_ray(h, y, 1, [b], [arb(1)], arb(2)) == -1


def test_tail_envelopes_with_abs_in_the_exponent_and_their_refusals() -> None:
    alpha = sp.Symbol("alpha", positive=True)
    g = sp.exp(-alpha * y / b + (alpha - 1) * sp.Abs(y - 1) / b)  # Laplace Renyi, y >= T
    with precision(64):
        bound = tail_bound(g, y, [alpha, b]).bound([arb(2), arb(1)], arb(8))
        assert bound is not None
        with mpmath.workdps(40):
            exact = arb(mpmath.nstr(mpmath.exp(-9), 35))  # int_8^oo e^{-t - 1} dt
        assert not bound < exact  # the envelope is exact here: e^{-y - 1} for y >= 1
        # No decay: no bound, at any cut.
        assert tail_bound(sp.exp(y / 10), y, []).bound([], arb(8)) is None


def test_the_ratio_test_holds_only_past_the_peak() -> None:
    term = sp.exp(-lam) * lam**k / sp.factorial(k)
    test = ratio_test(term, k, 1, [lam])
    assert test is not None
    with precision(64):
        assert test.bound([arb(100)], arb(200)) is not None
        assert test.bound([arb(100)], arb(50)) is None


def test_taylor_coefficients_on_a_ball_and_refused_across_a_kink() -> None:
    x = sp.Symbol("x", real=True)
    taylor = compile_taylor(x, [], sp.exp(-(x**2)))
    with precision(64):
        c = taylor(ball(0.5, 0.6), 2)
        # f''/2 = (2x^2 - 1) e^{-x^2} on [0.5, 0.6]
        for t in (0.5, 0.55, 0.6):
            assert c[2].contains(arb((2 * t * t - 1) * mpmath.exp(-t * t)))
        with pytest.raises(NotSmooth):
            compile_taylor(x, [], sp.Abs(x))(ball(-0.1, 0.1), 2)


def test_a_kink_inside_a_kink_is_found_numerically() -> None:
    eps = sp.Rational(1, 2)
    f = sp.Abs(sp.exp(-sp.Abs(y)) - sp.exp(eps) * sp.exp(-sp.Abs(y - 1)))
    with precision(64):
        roots = numeric_kinks(f, y, (), [], -20.0, 20.0, [0.0, 1.0])
    assert any(abs(r - 0.25) < 1e-12 for r in roots)  # y = (1 - eps b)/2 at b = 1


def test_a_calculus_residual_is_enclosed_on_a_box() -> None:
    kl = sp.Integral(
        sp.exp(-sp.Abs(y) / b) * (sp.Abs(y - 1) - sp.Abs(y)) / (2 * b**2), (y, -sp.oo, sp.oo)
    )
    fn, calculus = box_function([b], [1 / (2 * b**2) - kl])
    assert calculus
    with precision(64):
        (g,) = fn(ball(1.0, 1.01))
        assert g > 0  # KL(Lap(0, 1) || Lap(1, 1)) = e^-1 <= 1/2 on the whole box
        (wrong,) = box_function([b], [1 / (4 * b**2) - kl])[0](ball(1.0, 1.01))
        assert wrong < 0


def test_shown_values_keep_only_certain_digits() -> None:
    with precision(128):
        assert ball_text(arb("1.23456789") + arb(0, 0.001), 20) == "1.23"
        assert ball_text(arb(1), 20) == "1.0"
        assert ball_text(arb(0, "1e-30"), 20).startswith("0 +- ")
    z = sp.Symbol("z", integer=True)
    lhs = sp.Sum(sp.exp(-sp.Abs(z) / b), (z, -sp.oo, sp.oo))
    shown = shown_sides(lhs, 1 + sp.exp(-1 / b), [b], [mpmath.mpf(1)], 20)
    assert shown is not None
    assert shown[0].startswith("2.16395341373865284")


def test_a_side_arb_cannot_take_is_shown_by_its_exact_value() -> None:
    """``sqrt(2 log(5/(4 delta)))`` at ``delta = 5/4`` is 0, but Arb's square root of the
    ball ``[0 +- 1e-38]`` of its argument is NaN: it was shown "not finite".  A side that
    is undefined there (the root of a negative number) still is."""
    delta = sp.Symbol("delta", positive=True)
    side = sp.sqrt(2 * sp.log(sp.Rational(5, 4) / delta))
    shown = shown_sides(side, sp.Integer(0), [delta], [mpmath.mpf("1.25")], 20)
    assert shown == ("0", "0")
    shown = shown_sides(side, sp.Integer(0), [delta], [mpmath.mpf("1.0")], 20)
    assert shown is not None and shown[0].startswith("0.668047230836577")
    undefined = sp.sqrt(sp.log(sp.Rational(5, 4) / delta) - 1)
    shown = shown_sides(undefined, sp.Integer(0), [delta], [mpmath.mpf("1.25")], 20)
    assert shown is not None and shown[0] == "not finite"


def test_a_piecewise_is_enclosed_by_its_branch_at_the_point() -> None:
    """Each condition decided by Arb balls (the guard of a side typed ``x/x``, or a user's
    Piecewise): the first branch certainly on, after those certainly off; a condition the
    ball straddles, or a point where no branch applies, has no enclosure."""
    from numeric_checks.enclose import enclose

    x = sp.Symbol("x", real=True)
    folded = sp.Piecewise((x, x > 0), (-2 * x, True))
    guarded = sp.Piecewise((x + 1, x**2 > 0))
    with precision(128):
        half = [arb("0.5")]
        assert enclose(folded, [x], half, {x: sp.Rational(1, 2)}) == arb("0.5")
        minus = [arb("-0.5")]
        assert enclose(folded, [x], minus, {x: sp.Rational(-1, 2)}) == arb(1)
        assert enclose(guarded, [x], half, {x: sp.Rational(1, 2)}) == arb("1.5")
        with pytest.raises(Unsupported):
            enclose(folded, [x], [arb(0, "1e-30")], {x: sp.Integer(0)})
        with pytest.raises(Unsupported):
            enclose(guarded, [x], [arb(0)], {x: sp.Integer(0)})
