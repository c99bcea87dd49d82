"""The mixture form of an (eps, delta)-DP round (derivations/approx_decomposition.py): proved,
resting on the foundations and lemmas their steps name; advanced composition's bridge rests on
them instead of Dwork & Roth's Lemma 3.17 (1); mutants refuted, weaker variants not."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import sympy as sp

from derivations.catalog import get
from numeric_checks import CheckOptions, check_derivation
from symbolic.derivation import Derivation
from symbolic.relations import Relation
from symbolic.verdicts import Verdict

from .conftest import (
    assert_not_refuted,
    assert_refuted_with_a_counterexample,
    cited_uses,
    sym,
    weaker,
)

FAST = CheckOptions(points=80, search_budget=80)
IDS = (
    "approx-dp-good-part-ratio",
    "approx-dp-good-part-below",
    "approx-dp-good-part-mass",
    "approx-composition-cost",
)


def _last(d: Derivation, expr: sp.Expr) -> Derivation:
    return d.with_step(len(d.steps) - 1, expr=expr)


@pytest.mark.parametrize("did", IDS)
def test_proved_in_general(did: str) -> None:
    r = check_derivation(get(did), FAST)
    assert r.verdict is Verdict.PROVED, [(s.index, s.verdict.value, s.evidence) for s in r.steps]
    assert all(s.verdict is Verdict.PROVED for s in r.steps)


def test_what_each_rests_on() -> None:
    assert cited_uses("approx-dp-good-part-ratio") == []
    assert cited_uses("approx-dp-good-part-below") == []
    assert cited_uses("approx-dp-good-part-mass") == [
        ("foundation", "approx-max-divergence-definition")
    ]
    assert cited_uses("approx-composition-cost") == [
        ("foundation", "total-probability"),
        ("foundation", "union-bound"),
        ("lemma", "approx-dp-good-part-mass"),
        ("lemma", "approx-dp-good-part-ratio"),
        ("lemma", "approx-dp-good-part-below"),
    ]
    # The bridge from the loss tail to (eps', k delta + delta')-DP: no citation left.
    assert cited_uses("advanced-composition") == [
        ("lemma", "azuma-inequality"),
        ("lemma", "kl-bound"),
        ("foundation", "approx-max-divergence-definition"),
        ("lemma", "approx-composition-cost"),
    ]


def _ratio_parts() -> tuple[sp.Expr, sp.Expr, sp.Expr, sp.Expr, sp.Expr]:
    did = "approx-dp-good-part-ratio"
    eps, p, q, u = (sym(did, n) for n in ("eps", "p", "q", "u"))
    m, s = sp.Min(p, q), sp.Min(q, sp.exp(eps) * p)
    return eps, p, q, m, m + u * (s - m)


def _ratio(factor: Callable[[sp.Expr], sp.Expr]) -> Derivation:
    eps, _, _, _, good_z = _ratio_parts()
    return _last(get("approx-dp-good-part-ratio"), factor(eps) * good_z)


def _cost_bound(extra: Callable[[sp.Expr, sp.Expr], sp.Expr]) -> Derivation:
    did = "approx-composition-cost"
    k, delta, eps_p, delta_p, b = (sym(did, n) for n in ("k", "delta", "eps_p", "delta_p", "b"))
    return _last(get(did), sp.exp(eps_p) * b + delta_p + extra(k, delta))


def _mass_bound(rhs: Callable[[sp.Expr], sp.Expr]) -> Derivation:
    did = "approx-dp-good-part-mass"
    return _last(get(did), rhs(sym(did, "delta")))


MUTANTS: dict[str, Callable[[], Derivation]] = {
    # The good parts are eps-close, not equal: without e^eps, Y's part can exceed Z's.
    "approx-dp-good-part-ratio: without e^eps": lambda: _ratio(lambda eps: sp.S.One),
    "approx-dp-good-part-ratio: e^(eps/2)": lambda: _ratio(lambda eps: sp.exp(eps / 2)),
    # Y's good part is below Y's law, not below Z's.
    "approx-dp-good-part-below: below q": lambda: _last(
        get("approx-dp-good-part-below"), sym("approx-dp-good-part-below", "q")
    ),
    "approx-dp-good-part-mass: all the mass": lambda: _mass_bound(lambda delta: sp.S.One),
    "approx-composition-cost: rounds free": lambda: _cost_bound(lambda k, delta: sp.S.Zero),
    "approx-composition-cost: one delta for k rounds": lambda: _cost_bound(lambda k, delta: delta),
}

WEAKER: dict[str, Callable[[], Derivation]] = {
    "approx-dp-good-part-ratio: e^(2 eps)": lambda: weaker(
        get("approx-dp-good-part-ratio"),
        Relation.LE,
        sp.exp(2 * _ratio_parts()[0]) * _ratio_parts()[4],
    ),
    "approx-dp-good-part-below: below 1": lambda: weaker(
        get("approx-dp-good-part-below"), Relation.LE, sp.S.One
    ),
    "approx-dp-good-part-mass: 1 - 2 delta": lambda: weaker(
        get("approx-dp-good-part-mass"),
        Relation.GE,
        1 - 2 * sym("approx-dp-good-part-mass", "delta"),
    ),
    "approx-composition-cost: 2 k delta": lambda: weaker(
        get("approx-composition-cost"),
        Relation.LE,
        sp.exp(sym("approx-composition-cost", "eps_p")) * sym("approx-composition-cost", "b")
        + sym("approx-composition-cost", "delta_p")
        + 2 * sym("approx-composition-cost", "k") * sym("approx-composition-cost", "delta"),
    ),
}


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_mutant_is_refuted(name: str) -> None:
    assert_refuted_with_a_counterexample(MUTANTS[name]())


@pytest.mark.parametrize("name", sorted(WEAKER))
def test_true_but_weaker_is_not_refuted(name: str) -> None:
    assert_not_refuted(WEAKER[name]())
