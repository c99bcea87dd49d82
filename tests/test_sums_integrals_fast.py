"""The fast paths of issue 17: long finite sums over the window carrying their mass,
integrands analysed before CSE, ``exp`` guarded at quadrature nodes far out, a quadrature
probe that finds a tail's mass far out, and integrals shared by compiled expressions."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from numeric_checks import integrals
from numeric_checks.bounded_exp import EXP_BITS, guarded_exp
from numeric_checks.bridge import compile_exprs, evaluate
from numeric_checks.integrals import integrate
from numeric_checks.sums import SCAN, WINDOW_TERMS, binomial_walk, sum_finite, sum_infinite


@settings(max_examples=4, deadline=None)
@given(
    k=st.integers(min_value=WINDOW_TERMS + 1, max_value=WINDOW_TERMS + 1500),
    p=st.sampled_from(["0.03", "0.3", "0.5", "0.9"]),
)
def test_windowed_binomial_sum_agrees_with_every_term(k: int, p: str) -> None:
    # Binomial probabilities times l: the mean k p (a single bump, mass far from the ends).
    with mpmath.workdps(40):
        q = mpmath.mpf(p)
        n = mpmath.mpf(k)

        def term(j: mpmath.mpf) -> mpmath.mpf:
            return j * mpmath.binomial(n, j) * q**j * (1 - q) ** (n - j)

        windowed = sum_finite(term, 0, k)
        every = mpmath.fsum(term(mpmath.mpf(j)) for j in range(k + 1))
        assert abs(windowed - every) <= mpmath.mpf(10) ** -38 * abs(every)
        assert abs(every / (n * q) - 1) < mpmath.mpf(10) ** -35


def test_a_second_bump_falls_back_to_every_term() -> None:
    # Two narrow bumps far apart: the window around one must not drop the other.
    k = WINDOW_TERMS + 1000
    assert (k // SCAN) < 20  # the scan sees each bump
    with mpmath.workdps(30):

        def term(j: mpmath.mpf) -> mpmath.mpf:
            return mpmath.exp(-(((j - 100) / 20) ** 2)) + mpmath.exp(-(((j - k + 100) / 20) ** 2))

        every = mpmath.fsum(term(mpmath.mpf(j)) for j in range(k + 1))
        assert abs(every / (2 * 20 * mpmath.sqrt(mpmath.pi)) - 1) < mpmath.mpf("1e-9")
        assert abs(sum_finite(term, 0, k) / every - 1) < mpmath.mpf(10) ** -25


def test_an_infinite_sum_of_tiny_total_is_not_cut_short() -> None:
    # A relative stopping rule: with an absolute floor every term of 1e-300 "was negligible".
    with mpmath.workdps(30):
        tiny = mpmath.mpf(10) ** -300
        v = sum_infinite(lambda k: tiny * mpmath.exp(-((k / 10) ** 2)), -mpmath.inf, mpmath.inf)
        assert abs(v / (tiny * 10 * mpmath.sqrt(mpmath.pi)) - 1) < mpmath.mpf(10) ** -25


def test_guarded_exp_is_exp_below_the_guard_and_never_hangs_above() -> None:
    with mpmath.workdps(30):
        for z in ("-1e300", "-1", "0", "700", "1e1000"):
            assert guarded_exp(mpmath.mpf(z)) == mpmath.exp(mpmath.mpf(z))
        assert guarded_exp(-(mpmath.mpf(2) ** (EXP_BITS + 1))) == 0


def test_gumbel_max_integral_matches_the_softmax() -> None:
    # The double exponential exp(-exp(-x)) at the far nodes ran for hours before the guard.
    x, u1, u2 = sp.Symbol("x", real=True), sp.Symbol("u1", real=True), sp.Symbol("u2", real=True)
    density = sp.exp(-(x - u1) - sp.exp(-(x - u1))) * sp.exp(-sp.exp(-(x - u2)))
    fn = compile_exprs([u1, u2], [sp.Integral(density, (x, -sp.oo, sp.oo))])
    (value,) = evaluate(fn, [mpmath.mpf(-3), mpmath.mpf(2)], 30)
    with mpmath.workdps(30):
        exact = mpmath.exp(-3) / (mpmath.exp(-3) + mpmath.exp(2))
        assert abs(value / exact - 1) < mpmath.mpf(10) ** -22


def test_hockey_stick_kink_survives_cse() -> None:
    # CSE hoists exp(eps) and 1/(2 s^2) out of the integrand; the kink must still be found
    # (on the original integrand), or the quadrature fails at most points.
    x = sp.Symbol("x", real=True)
    d, s = sp.Symbol("D", positive=True), sp.Symbol("s", positive=True)
    eps = sp.Symbol("eps", nonnegative=True)
    gauss = lambda m: sp.exp(-((x - m) ** 2) / (2 * s**2))  # noqa: E731
    f = sp.Max(0, gauss(d) - sp.exp(eps) * gauss(0)) / (sp.sqrt(2 * sp.pi) * s)
    fn = compile_exprs([d, s, eps], [sp.Integral(f, (x, -sp.oo, sp.oo))])
    for values in (("0.1123", "5.162", "0.01272"), ("4.818", "9.09", "1.409")):
        dv, sv, ev = (mpmath.mpf(v) for v in values)
        (value,) = evaluate(fn, [dv, sv, ev], 30)
        with mpmath.workdps(30):
            # Balle & Wang 2018, Theorem 8.
            exact = mpmath.ncdf(dv / (2 * sv) - ev * sv / dv) - mpmath.exp(ev) * mpmath.ncdf(
                -dv / (2 * sv) - ev * sv / dv
            )
            assert abs(value / exact - 1) < mpmath.mpf(10) ** -22


def test_a_finite_sum_longer_than_a_side_may_run_is_still_summed() -> None:
    # 1/k^2 never becomes negligible: the window would pass DIRECT_TERMS on one side, and
    # the sum falls back to every term instead of being undefined.
    with mpmath.workdps(20):
        n = 30_000
        v = sum_finite(lambda k: 1 / k**2, 1, n)
        assert abs(v - (mpmath.zeta(2) - mpmath.zeta(2, n + 1))) < mpmath.mpf(10) ** -17


@settings(max_examples=10, deadline=None)
@given(
    n=st.sampled_from(["10000", "37", "5", "-3.5", "12.25"]),
    start=st.integers(min_value=-3, max_value=60),
    moves=st.lists(st.sampled_from([-1, 1, 1, 0, 7]), min_size=1, max_size=80),
)
def test_binomial_walk_agrees_with_mpmath_at_40_digits(n: str, start: int, moves: list) -> None:  # type: ignore[type-arg]
    # The recurrence along a walk of steps +-1 (and jumps, which evaluate directly), past
    # the zeros of binomial(5, k) at k > 5 and k < 0.
    with mpmath.workdps(40):
        nn, k = mpmath.mpf(n), start
        for move in moves:
            k += move
            got, want = binomial_walk(nn, mpmath.mpf(k)), mpmath.binomial(nn, k)
            assert abs(got - want) <= mpmath.mpf(10) ** -38 * abs(want), (n, k)


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the quadratures ``integrals.integrate`` runs (one entry per ``mpmath.quad``)."""
    calls: list[int] = []
    quad = integrals._quad

    def counted(f: Callable[[Any], Any], points: Sequence[Any]) -> tuple[Any, Any]:
        calls.append(len(points))
        return quad(f, points)

    monkeypatch.setattr(integrals, "_quad", counted)
    return calls


@pytest.mark.parametrize("start", ["0.3", "40", "2000.0005", "50000.0005"])
def test_a_gaussian_tail_far_out_is_one_accurate_pass(
    start: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # int_c^oo phi = Phi(-c): from c = 5e4 (gdp-to-dp's x* at mu = 1e-3, eps = 50) the
    # integrand decays on 1/c = 2e-5, and a probe one width (sqrt 2) out is 1e-30000 of the
    # integral; the probe must find the mass so that the first pass is the only one.
    calls = _counted(monkeypatch)
    with mpmath.workdps(30):
        c = mpmath.mpf(start)
        value = integrate(
            lambda x: guarded_exp(-(x**2) / 2) / mpmath.sqrt(2 * mpmath.pi),
            c,
            mpmath.inf,
            [0],
            mpmath.sqrt(2),
            mpmath.sqrt(2),
            abs,
        )
        assert abs(value / mpmath.ncdf(-c) - 1) < mpmath.mpf(10) ** -24
    assert len(calls) == 1  # one pass over the pieces: the probe was within its range


def test_an_integral_shared_by_two_compiled_functions_is_computed_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = _counted(monkeypatch)
    x, a = sp.Symbol("x", real=True), sp.Symbol("a", positive=True)
    tail = sp.Integral(sp.exp(-a * x**2), (x, 1, sp.oo))
    first = compile_exprs([a], [tail, 2 * tail])
    second = compile_exprs([a], [tail + 1, sp.sqrt(a)])
    one = evaluate(first, [mpmath.mpf(3)], 30)
    assert len(calls) == 1  # both sides of the first function: one quadrature
    two = evaluate(second, [mpmath.mpf(3)], 30)
    assert len(calls) == 1
    with mpmath.workdps(30):
        assert two[0] == one[0] + 1 and one[1] == 2 * one[0]
        exact = mpmath.sqrt(mpmath.pi / 3) * mpmath.erfc(mpmath.sqrt(3)) / 2
        assert abs(one[0] / exact - 1) < mpmath.mpf(10) ** -24
    # another point, another precision, another integrand: each a quadrature of its own
    evaluate(second, [mpmath.mpf(2)], 30)
    evaluate(second, [mpmath.mpf(3)], 60)
    other = compile_exprs([a], [sp.Integral(sp.exp(-a * x**2), (x, 2, sp.oo))])
    evaluate(other, [mpmath.mpf(3)], 30)
    assert len(calls) == 4
