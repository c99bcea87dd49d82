"""Divergences: exact values, agreement of two computations, and errors naming the value."""

from __future__ import annotations

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

from numeric_checks.dp.divergences import (
    _approx_max_divergence_bisection,
    _approx_max_divergence_subsets,
    approx_max_divergence,
    check_distribution,
    gaussian_kl,
    hockey_stick,
    kl,
    laplace_kl,
    max_divergence,
    statistical_distance,
)
from symbolic.errors import InvalidInput

D50 = mpmath.mpf(10) ** -45


def test_kl_of_known_pairs() -> None:
    with mpmath.workdps(50):
        p, q = [mpmath.mpf(1) / 2] * 2, [mpmath.mpf(1) / 4, mpmath.mpf(3) / 4]
        exact = (mpmath.log(2) + mpmath.log(mpmath.mpf(2) / 3)) / 2
        assert abs(kl(p, q) - exact) < D50
        assert kl(p, p) == 0
        assert kl([1, 0], [mpmath.mpf(1) / 2] * 2) == mpmath.log(2)  # 0 ln 0 = 0
        assert kl([mpmath.mpf(1) / 2] * 2, [1, 0]) == mpmath.inf  # zero denominator


def test_max_divergence_and_statistical_distance() -> None:
    with mpmath.workdps(50):
        p, q = [0.5, 0.3, 0.2], [0.25, 0.5, 0.25]
        assert abs(max_divergence(p, q) - mpmath.log(2)) < D50
        assert abs(statistical_distance(p, q) - mpmath.mpf("0.25")) < D50
        assert abs(hockey_stick(p, q, 1) - statistical_distance(p, q)) < D50
        assert max_divergence([0.5, 0.5], [1, 0]) == mpmath.inf


def test_continuous_pairs_by_quadrature_match_closed_forms() -> None:
    with mpmath.workdps(50):
        s, b = mpmath.mpf("0.8"), mpmath.mpf("1.5")
        # KL(Lap(s, b) || Lap(0, b)) = s/b + exp(-s/b) - 1
        assert abs(laplace_kl(s, b) - (s / b + mpmath.exp(-s / b) - 1)) < D50
        assert abs(gaussian_kl(mpmath.mpf(3)) - mpmath.mpf(9) / 2) < D50


_dist = st.lists(st.integers(min_value=0, max_value=20), min_size=2, max_size=7).filter(
    lambda w: sum(w) > 0
)


@given(_dist, _dist, st.integers(min_value=0, max_value=30))
def test_approx_max_divergence_two_ways(wp: list[int], wq: list[int], d100: int) -> None:
    n = min(len(wp), len(wq))
    wp, wq = wp[:n], wq[:n]
    if sum(wp) == 0 or sum(wq) == 0:
        return
    with mpmath.workdps(50):
        p = check_distribution([mpmath.mpf(w) / sum(wp) for w in wp])
        q = check_distribution([mpmath.mpf(w) / sum(wq) for w in wq])
        delta = mpmath.mpf(d100) / 100
        support = [i for i, a in enumerate(p) if a > 0]
        exact = _approx_max_divergence_subsets(p, q, delta, support)
        other = _approx_max_divergence_bisection(p, q, delta)
        if mpmath.isinf(exact):
            assert exact == other
        else:
            assert abs(exact - other) < mpmath.mpf(10) ** -40
        # delta = 0 is the max divergence (two computations: equal up to rounding)
        a, b = approx_max_divergence(p, q, 0), max_divergence(p, q)
        assert a == b or abs(a - b) < mpmath.mpf(10) ** -45


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: kl([0.5, -0.1, 0.6], [0.3, 0.3, 0.4]), "p[1] must be a probability >= 0"),
        (lambda: kl([0.5, 0.6], [0.5, 0.5]), "p must sum to 1"),
        (lambda: kl([0.5, 0.5], [0.2, 0.3, 0.5]), "same outcomes"),
        (lambda: max_divergence([0.5, 0.5], ["x", 1]), "q[0] is not a number"),
        (lambda: approx_max_divergence([0.5, 0.5], [0.5, 0.5], 2), "delta must be in [0, 1]"),
        (lambda: statistical_distance([], []), "p is empty"),
        (lambda: kl([float("nan"), 1], [0.5, 0.5]), "p[0] must be a probability"),
    ],
)
def test_bad_inputs_name_the_value(call, fragment: str) -> None:  # type: ignore[no-untyped-def]
    with mpmath.workdps(30), pytest.raises(InvalidInput) as info:
        call()
    assert fragment in str(info.value)


def test_float_probabilities_mean_their_decimals() -> None:
    with mpmath.workdps(50):
        assert sum(check_distribution([0.4, 0.4, 0.2])) == 1
