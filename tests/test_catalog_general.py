"""The catalog's theorems stated for every n, proved for every n (issue 24, item 4): each
rewritten derivation is proved with scope ``general``, and its mutants (a wrong constant; a
"for all" hypothesis dropped for one index) are refuted in general mode, by instances the
engine's own family sampler draws."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from derivations.catalog import get
from numeric_checks import CheckOptions, check_derivation
from symbolic.derivation import Derivation
from symbolic.families import ForAll, instantiate
from symbolic.rules.sums import prove_sums
from symbolic.scope import GENERAL
from symbolic.verdicts import Verdict

FAST = CheckOptions(search_budget=120)
# A mutant is refuted by sampling (each has a counterexample at a small length); the rules'
# failing search and the certifier only add evidence to a verdict they do not decide.
MUTANT_CHECK = dataclasses.replace(
    FAST, points=80, search_budget=60, symbolic=False, certify=False, oracle=False
)

REWRITTEN = ("exponential-mechanism", "parallel-composition", "tradeoff-zero-eps-composition")


def link_trace(d: Derivation, k: int) -> str | None:
    """The sum rules' proof of link ``k`` (0-based), as the symbolic stage asks it."""
    left, rel, right, _ = d.links()[k]
    hyps = [d.expand_defs(h) for h in d.hypotheses]
    return prove_sums(
        d.expand_defs(left), rel, d.expand_defs(right), hypotheses=hyps, variables=d.variables
    )


@pytest.mark.parametrize("ident", REWRITTEN)
def test_proved_in_general(ident: str) -> None:
    d = get(ident)
    assert not d.instance
    r = check_derivation(d, FAST)
    assert r.verdict is Verdict.PROVED, [(s.index, s.verdict.value) for s in r.steps]
    assert r.scope == GENERAL and r.scope_note.startswith(("for all n >= 1", "for all k >= 1"))
    assert all("proved for every length" in s.evidence for s in r.steps)


# -- mutants --------------------------------------------------------------------------------


def _last(d: Derivation, expr: sp.Expr) -> Derivation:
    return d.with_step(len(d.steps) - 1, expr=expr)


def _forall_from(
    d: Derivation, match: Callable[[ForAll], bool], lower: int, points: Callable | None = None
) -> Derivation:
    """``d`` with the matching "for all" hypothesis stated from index ``lower`` on only (one
    index dropped), sampled by ``points`` (points of the weaker hypotheses that break the
    dropped index) or else by the engine's own family sampler."""
    hyps = tuple(
        ForAll(h.relation, (h.index, lower, h.upper)) if isinstance(h, ForAll) and match(h) else h
        for h in d.hypotheses
    )
    return d.replace(hypotheses=hyps, instance_points=points)


def _em() -> Derivation:
    return get("exponential-mechanism")


def _pc() -> Derivation:
    return get("parallel-composition")


def _sym(d: Derivation, name: str) -> sp.Symbol:
    return d.symbols[name]


def _normaliser_up(moved: sp.Expr) -> sp.Expr:
    """Step 4 of the exponential mechanism with every score of x moved by ``moved`` Delta u."""
    from derivations.exponential_mechanism import IX, UX, N

    d = _em()
    e, du = _sym(d, "eps"), _sym(d, "Du")
    ux = UX.base[IX]
    zx = sp.Sum(sp.exp(e * ux / (2 * du)), (IX, 1, N.symbol))
    up = sp.Sum(sp.exp(e * (ux + moved * du) / (2 * du)), (IX, 1, N.symbol))
    return sp.exp(e / 2) * up / zx


def _first_score_moved(rng: Any, dps: int, lengths: Mapping[str, int]) -> list[dict[str, Any]]:
    """The catalog's score tables with u(y, r_1) moved by up to 3 Delta u: what the
    hypothesis dropped at i = 1 no longer forbids."""
    from derivations.exponential_mechanism import instance_points

    points = instance_points(rng, dps, lengths)
    for point in points:
        point["uy_1"] = point["ux_1"] + 3 * point["Du"] * mpmath.mpf(rng.random())
    return points


def _second_part_differs(rng: Any, dps: int, lengths: Mapping[str, int]) -> list[dict[str, Any]]:
    """The catalog's parts with part 2's probabilities as the ratio bound allows, not equal."""
    from derivations.composition_families import part_points, ratio_bounded_points

    points = part_points(rng, dps, lengths)
    k = int(lengths["k"])
    for point, free in zip(points, ratio_bounded_points(rng, k), strict=True):
        if k >= 2:
            point["a_2"], point["b_2"] = free["a_2"], free["b_2"]
            point["eps_2"] = free["eps_2"]
            point["epsmax"] = max(point["epsmax"], free["eps_2"])
    return points


MUTANTS: dict[str, tuple[Callable[[], Derivation], int]] = {
    "exponential-mechanism: e^(eps/2) at the end": (
        lambda: _last(_em(), sp.exp(_sym(_em(), "eps") / 2)),
        5,
    ),
    "exponential-mechanism: the normaliser's terms moved by e^(eps/4)": (
        lambda: _em().with_step(3, expr=_normaliser_up(sp.Rational(1, 2))),
        3,
    ),
    "exponential-mechanism: sensitivity bound dropped for r_1": (
        lambda: _forall_from(_em(), lambda h: True, 2, _first_score_moved),
        3,
    ),
    "parallel-composition: e^(eps_max/2)": (
        lambda: _last(_pc(), sp.exp(_sym(_pc(), "epsmax") / 2)),
        4,
    ),
    "parallel-composition: part 2's inputs may differ": (
        lambda: _forall_from(
            _pc(), lambda h: isinstance(h.relation, sp.Equality), 3, _second_part_differs
        ),
        2,
    ),
    "parallel-composition: eps_1 above eps_max": (
        lambda: _forall_from(
            _pc(),
            lambda h: (
                h.relation.lhs == h.relation.lhs.base[h.index] and "eps" in str(h.relation.lhs)
            ),
            2,
        ),
        4,
    ),
}


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_mutant_link_not_proved_by_the_sum_rules(name: str) -> None:
    build, k = MUTANTS[name]
    assert link_trace(build(), k) is None


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_mutant_refuted(name: str) -> None:
    build, k = MUTANTS[name]
    r = check_derivation(build(), MUTANT_CHECK)
    assert r.verdict is Verdict.REFUTED, [(s.index, s.verdict.value) for s in r.steps]
    assert r.steps[k].verdict is Verdict.REFUTED


def test_group_privacy_for_every_group_size() -> None:
    k = next(v for v in get("gdp-group-privacy").variables if v.name == "k")
    assert k.domain.lower == 2 and k.domain.upper.is_infinite


def test_an_element_at_a_fixed_index_prints_its_index_in_place() -> None:
    from derivations.printing.latex import DerivationPrinter

    d = get("parallel-composition")
    text = DerivationPrinter().for_derivation(d).doprint(d.steps[2].expr)
    assert r"\Pr[\mathcal{M}_{1}(x) = r_{1}]" in text and "]_{1}" not in text
    em = get("exponential-mechanism")
    text = DerivationPrinter().for_derivation(em).doprint(em.claim.lhs)
    assert "u(x, r_{i})" in text and "u(y, r_{i})" in text


# -- tradeoff-zero-eps-composition: the lumping rule of ZeroEpsTensorN.doit ------------------


@settings(max_examples=20, deadline=None, derandomize=True)
@given(
    st.lists(st.floats(1e-4, 0.999), min_size=1, max_size=5),
    st.floats(1e-6, 1 - 1e-6),
)
def test_lumped_curve_matches_the_explicit_product(deltas: list[float], alpha: float) -> None:
    """The symbolic curve for every n, written out at n = len(deltas), against the
    Neyman-Pearson curve of the explicit product pair (numeric_checks.dp.tradeoff)."""
    from derivations.gdp_algebra.zero_eps import DELTA_I, N, ZeroEpsTensorN

    a = sp.Symbol("alpha", positive=True)
    general = ZeroEpsTensorN(DELTA_I.base, N.symbol, a).doit()
    assert not general.has(ZeroEpsTensorN)
    at = instantiate(general, {N.symbol: len(deltas)})
    values = {sp.Symbol(f"delta_{k + 1}", positive=True): d for k, d in enumerate(deltas)}
    exact = float(sp.N(at.xreplace({a: alpha, **values}).doit(), 30))
    with mpmath.workdps(30):
        numeric = float(ZeroEpsTensorN.impl(*[mpmath.mpf(d) for d in (*deltas, alpha)]))
    assert abs(exact - numeric) <= 1e-12


def test_lumping_refuses_a_ratio_other_than_0_1_oo() -> None:
    from derivations.gdp_algebra.np_symbolic import Undecided, eps_delta_atoms
    from derivations.gdp_algebra.zero_eps import common_mass

    d, e = sp.Symbol("d", positive=True), sp.Symbol("e", positive=True)
    assert sp.simplify(common_mass(eps_delta_atoms(0, d)) - (1 - d)) == 0
    with pytest.raises(Undecided):
        common_mass(eps_delta_atoms(e, d))  # ratios e^eps and e^-eps: not lumped so
    with pytest.raises(Undecided):
        common_mass([(d, sp.S.Zero), (1 - d, 1 - d)])  # Q totals 1 - d


def _zero_eps_total(total: sp.Expr) -> Derivation:
    d = get("tradeoff-zero-eps-composition")
    return d.replace(defs=((d.defs[0][0], total),))


def _keep(lower: int, factor: sp.Expr = sp.S.One) -> sp.Expr:
    from derivations.gdp_algebra.zero_eps import DELTA_I, IX, N

    return sp.Product(1 - factor * DELTA_I.base[IX], (IX, lower, N.symbol))


ZERO_EPS_MUTANTS: dict[str, Callable[[], Derivation]] = {
    "half of every delta_i": lambda: _zero_eps_total(1 - _keep(1, sp.S.Half)),
    "delta_1 left out of the product": lambda: _zero_eps_total(1 - _keep(2)),
}


@pytest.mark.parametrize("name", sorted(ZERO_EPS_MUTANTS))
def test_zero_eps_mutant_refuted(name: str) -> None:
    r = check_derivation(ZERO_EPS_MUTANTS[name](), MUTANT_CHECK)
    assert r.verdict is Verdict.REFUTED and r.steps[0].verdict is Verdict.REFUTED
