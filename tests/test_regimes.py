"""Points in order of promise and a search that follows the margin (issue 40, items 2-3).

* Regime points: a wide integer variable on the ladder 1, 2, 3, 5, 10, ..., 10^6, the
  continuous variables at scale-aware values paired with it (``eps ~ n^-1/2``, ``1e-1`` ..
  ``1e-3``, probabilities at ``1e-12`` .. ``1e-3`` clipped into their domains).  The
  advanced composition bound with ``sqrt(k ln(1/dp))`` for ``sqrt(2 k ln(1/dp))``, over
  ``eps in (0, 10]``, is false only at such points (Kairouz, Oh & Viswanath 2015 against
  Dwork, Rothblum & Vadhan 2010); the true bound holds at every one of them.
* The local search steps in logit coordinates for probabilities and log coordinates for
  positive reals, and a step that leaves the hypotheses is moved back onto the one it
  crossed, affine or not.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import mpmath
import pytest
import sympy as sp

from numeric_checks.local_search import Projector, local_search, perturb
from numeric_checks.plan import CheckOptions, make_plan
from numeric_checks.point_cost import CostModel
from numeric_checks.points import RelationCheck, SideValues, Status
from numeric_checks.regimes import COMBINATIONS, REGIME_LADDER, regime_points
from numeric_checks.sampling import Point, Sampler
from symbolic.binary_rationals import exact_rational
from symbolic.domains import Domain, Variable, parse_domain
from symbolic.hypotheses import build_space
from symbolic.readers.claim_files import load_claim
from symbolic.relations import Relation

CLAIMS = Path(__file__).parent / "claims" / "budget"


@pytest.fixture(autouse=True)
def _big_ints() -> None:
    sys.set_int_max_str_digits(0)


def _check(name: str) -> tuple[RelationCheck, list[Point]]:
    d = load_claim(CLAIMS / name)
    plan = make_plan(d, CheckOptions(seed=0))
    lhs = plan.space.substitute(d.expand_defs(d.claim.lhs))
    rhs = plan.space.substitute(d.expand_defs(d.claim.rhs))
    check = RelationCheck(lhs, d.claim.relation, rhs, plan.sampler, plan.side_values)
    return check, [p for p in plan.points if p.origin == "regime"]


def test_regime_points_pair_the_ladder_with_scale_aware_values() -> None:
    check, points = _check("advanced_no_two_eps_to_10_false.toml")
    names = [s.name for s in check.symbols]
    ks = sorted({int(p.values[names.index("k")]) for p in points})
    assert ks == list(REGIME_LADDER)
    assert len(points) <= COMBINATIONS * len(REGIME_LADDER)
    at = {(int(p.values[0]), p.values[1], p.values[2]) for p in points}
    # The most promising combination at each rung: eps = n^-1/2 and dp at its smallest
    # value (1e-12 clipped onto the closed end 1e-10, exactly that end).
    lowest = mpmath.mpf("1e-10")
    for n in REGIME_LADDER:
        assert any(k == n and abs(e - 1 / mpmath.sqrt(n)) < 1e-12 for k, e, _ in at)
    assert all(check.satisfies(p.values) for p in points)
    # The closed end 1e-10 is no binary number: the nearest one inside it, exactly.
    smallest = exact_rational(min(p.values[2] for p in points))
    assert (
        sp.Rational(1, 10**10) <= smallest < sp.Rational(1, 10**10) * (1 + sp.Rational(1, 10**25))
    )
    assert abs(min(p.values[2] for p in points) - lowest) < 1e-25
    # Seeded: the same points twice.
    assert [p.values for p in _check("advanced_no_two_eps_to_10_false.toml")[1]] == [
        p.values for p in points
    ]


@pytest.mark.parametrize(
    ("false", "true"),
    [
        ("advanced_no_two_eps_to_10_false.toml", "advanced_true_eps_to_10.toml"),
        ("advanced_no_two_eps_unbounded_false.toml", "advanced_true_eps_unbounded.toml"),
    ],
)
def test_the_false_bound_fails_at_regime_points_where_the_true_one_holds(
    false: str, true: str
) -> None:
    # Only rungs up to k = 300 (a few hundred terms a point): a count, not a time.
    bad, points = _check(false)
    good, same = _check(true)
    assert [p.values for p in points] == [p.values for p in same]
    cheap = [p for p in points if p.values[0] <= 300]
    violated = [p for p in cheap if bad.decide(p.values, quick=True).status is Status.VIOLATED]
    assert violated, "the false bound holds at every regime point"
    for p in cheap:
        r = good.decide(p.values, quick=True)
        assert r.status is not Status.VIOLATED, (p.values, r)


def test_regime_points_are_evaluated_only_where_their_cost_is_known() -> None:
    n = sp.Symbol("n", integer=True, positive=True)
    x = sp.Symbol("x", positive=True)
    assert CostModel((n, x), (sp.Sum(x**n, (n, 1, 10)) + sp.binomial(n, 2) + sp.exp(x),)).estimable
    assert not CostModel((n, x), (sp.Function("Costly")(n, x),)).estimable
    assert not CostModel((x,), (sp.Integral(sp.exp(-x * n), (n, 0, 1)),)).estimable


def test_regime_points_need_a_wide_integer_variable() -> None:
    x = Variable("x", parse_domain("(0, 10]"))
    n = Variable("n", parse_domain("Z in [1, 3]"))
    assert regime_points(Sampler(build_space([x, n], []), seed=0)) == []


def test_steps_are_taken_in_logit_and_log_coordinates() -> None:
    rng = random.Random(0)
    prob = Domain("real", 0, 1, True, True)
    pos = Domain("real", 0, sp.oo, True, True)
    steps = [perturb(mpmath.mpf("0.3"), prob, 2.0, rng) for _ in range(300)]
    inside = [w for w in steps if 0 < w < 1]
    # Logit steps (half of them) never leave (0, 1), log steps rarely; and they cross
    # decades: from 0.3 to below 1e-6 in one step.
    assert len(inside) >= 0.6 * len(steps)
    assert min(inside) < mpmath.mpf("1e-6")
    steps = [perturb(mpmath.mpf(5), pos, 1.0, rng) for _ in range(300)]
    assert sum(1 for w in steps if w > 0) >= 0.85 * len(steps)  # no sign flips


def _disk_check() -> RelationCheck:
    # x + y <= 1.9999 under x^2 + y^2 <= 2: false only in a sliver at (1, 1) on the
    # circle, a non-affine hypothesis.
    free = [Variable(name, parse_domain("(0, 2]")) for name in ("x", "y")]
    x, y = (v.symbol for v in free)
    space = build_space(free, [sp.Le(x**2 + y**2, 2)])
    sampler = Sampler(space, seed=0, dps=30)
    return RelationCheck(x + y, Relation.LE, sp.Rational(19999, 10000), sampler, SideValues())


def test_a_step_outside_a_non_affine_hypothesis_is_moved_onto_it() -> None:
    check = _disk_check()
    moved = Projector(check, random.Random(0)).onto([mpmath.mpf("1.3"), mpmath.mpf("1.2")], 0)
    assert moved is not None and check.satisfies(moved)
    assert abs(moved[0] ** 2 + moved[1] ** 2 - 2) < 1e-20
    # Along the other variable first: the search slides along the circle.
    assert moved[0] == mpmath.mpf("1.3")


def test_the_search_descends_the_margin_along_a_non_affine_hypothesis(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    check = _disk_check()
    starts = [(mpmath.mpf("0.5"), mpmath.mpf("0.4")), (mpmath.mpf("0.2"), mpmath.mpf("0.9"))]
    results = [(Point(v, "random"), check.decide(v)) for v in starts]
    found, _, _ = local_search(check, results, 200, seed=0)
    assert found is not None and found[1].status is Status.VIOLATED
    assert check.satisfies(found[0].values)
    # Without the projection, the same steps stay off the sliver.
    monkeypatch.setattr(Projector, "onto", lambda self, cand, moved: None)
    assert local_search(check, results, 200, seed=0)[0] is None
