"""Sampling: points satisfy the hypotheses exactly, equalities are solved, emptiness is an error."""

from __future__ import annotations

from typing import Any

import mpmath
import pytest
import sympy as sp

from numeric_checks.exact_points import ExactMpf
from numeric_checks.sampling import Sampler
from symbolic.domains import POSITIVE, REAL, Variable, parse_domain
from symbolic.errors import EmptyDomain, InvalidInput
from symbolic.hypotheses import build_space

EPS, DELTA = Variable("eps", POSITIVE), Variable("Delta", POSITIVE)
FX, FY = Variable("fx", REAL), Variable("fy", REAL)
eps, delta, fx, fy = (v.symbol for v in (EPS, DELTA, FX, FY))


def test_points_satisfy_hypotheses_exactly() -> None:
    space = build_space([EPS, DELTA, FX, FY], [sp.Abs(fx - fy) <= delta])
    sampler = Sampler(space, seed=5)
    points = sampler.random_points(100) + sampler.edge_points() + sampler.boundary_points()
    assert len(points) > 150
    with mpmath.workdps(120):
        for p in points:
            # A coordinate on the boundary stands for its exact value (issue 38): at 120
            # digits it is that value, not the 60-digit float it carries.
            e, d, a, b = (_at(v) for v in p.values)
            assert e > 0 and d > 0 and abs(a - b) <= d


def _at(v: Any) -> Any:
    return v.at(mpmath.mp.prec) if isinstance(v, ExactMpf) else v


def test_boundary_points_sit_on_the_boundary() -> None:
    space = build_space([DELTA, FX, FY], [sp.Abs(fx - fy) <= delta])
    points = Sampler(space, seed=2).boundary_points()
    assert points
    with mpmath.workdps(50):
        assert any(
            abs(abs(a - b) - d) <= mpmath.mpf(10) ** -40 * d
            for d, a, b in (p.values for p in points)
        )


def test_edges_reach_tiny_and_huge_magnitudes() -> None:
    points = Sampler(build_space([EPS], []), seed=0).edge_points()
    values = [p.values[0] for p in points]
    assert min(values) <= mpmath.mpf("1e-29") and max(values) >= mpmath.mpf("1e29")


def test_same_seed_same_points() -> None:
    space = build_space([EPS, FX], [])
    a = Sampler(space, seed=11).random_points(20)
    b = Sampler(space, seed=11).random_points(20)
    assert [p.values for p in a] == [p.values for p in b]


def test_integer_domains_give_integers() -> None:
    k = Variable("k", parse_domain("Z in [1, 1000]"))
    points = Sampler(build_space([k], []), seed=1).random_points(50)
    assert all(p.values[0] == int(p.values[0]) and 1 <= p.values[0] <= 1000 for p in points)


def test_contradictory_hypotheses_are_an_error() -> None:
    x = Variable("x", REAL)
    space = build_space([x], [x.symbol > 2, x.symbol < 1])
    with pytest.raises(EmptyDomain, match="no point"):
        Sampler(space, seed=0).random_points(10, max_tries_factor=5)


def test_equalities_are_solved_not_rejected() -> None:
    b = Variable("b", POSITIVE)
    space = build_space([EPS, DELTA, b], [sp.Eq(b.symbol, delta / eps)])
    assert [v.name for v, _ in space.solved] == ["b"]
    assert [v.name for v in space.free] == ["eps", "Delta"]


def test_unsolvable_equality_is_a_clear_error() -> None:
    with pytest.raises(InvalidInput, match="cannot solve"):
        build_space([EPS], [sp.Eq(sp.exp(eps) + eps**7 * sp.sin(eps), 3)])


def test_eliminated_variable_keeps_its_domain() -> None:
    # Regression: p3 > 0 on a positive symbol evaluated to True on construction, so after
    # eliminating p3 = 1 - p1 - p2 the constraint 1 - p1 - p2 > 0 was silently lost.
    unit = parse_domain("(0, 1)")
    ps = [Variable(f"p{i}", unit) for i in (1, 2, 3)]
    p1, p2, p3 = (v.symbol for v in ps)
    space = build_space(ps, [sp.Eq(p1 + p2 + p3, 1)])
    assert [v.name for v, _ in space.solved] == ["p3"]
    sampler = Sampler(space, seed=0)
    with mpmath.workdps(50):
        assert not sampler.satisfies((mpmath.mpf("0.7"), mpmath.mpf("0.6")))
        assert sampler.satisfies((mpmath.mpf("0.3"), mpmath.mpf("0.6")))
