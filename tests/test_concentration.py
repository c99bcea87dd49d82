"""Hoeffding's lemma and Azuma's inequality (derivations/concentration.py): proved, resting
on the foundations and lemmas their steps name; mutants refuted, weaker variants not."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import sympy as sp

from derivations.catalog import get
from derivations.concentration import LAM, MU
from numeric_checks import CheckOptions, check_derivation
from symbolic.derivation import Derivation
from symbolic.relations import Relation
from symbolic.verdicts import Verdict

from .conftest import assert_not_refuted, assert_refuted_with_a_counterexample, cited_uses

FAST = CheckOptions(points=80, search_budget=80)


def _last(d: Derivation, expr: sp.Expr, relation: Relation | None = None) -> Derivation:
    return d.with_step(len(d.steps) - 1, expr=expr, relation=relation)


@pytest.mark.parametrize("did", ["hoeffding-chord", "hoeffding-lemma", "azuma-inequality"])
def test_proved_in_general(did: str) -> None:
    r = check_derivation(get(did), FAST)
    assert r.verdict is Verdict.PROVED, [(s.index, s.verdict.value, s.evidence) for s in r.steps]
    assert all(s.verdict is Verdict.PROVED for s in r.steps)


def test_what_each_rests_on() -> None:
    assert cited_uses("hoeffding-chord", bridge=False) == []
    assert cited_uses("hoeffding-lemma", bridge=False) == [
        ("lemma", "hoeffding-chord"),
        ("foundation", "linearity-of-expectation"),
    ]
    assert cited_uses("azuma-inequality", bridge=False) == [
        ("foundation", "markov-inequality"),
        ("foundation", "tower-property"),
        ("lemma", "hoeffding-lemma"),
    ]
    # The headline theorem and the exact-tail instance rest on the catalog's Azuma, not a cite.
    assert cited_uses("advanced-composition", bridge=False) == [
        ("lemma", "azuma-inequality"),
        ("lemma", "kl-bound"),
    ]
    assert cited_uses("azuma-binomial", bridge=False) == [("lemma", "azuma-inequality")]


def _hoeffding_bound(divisor: int) -> Derivation:
    """Hoeffding's lemma with lam^2 alpha^2/divisor for lam^2 alpha^2/2."""
    d = get("hoeffding-lemma")
    alpha = d.symbols["alpha"]
    return _last(d, LAM * MU + LAM**2 * alpha**2 / divisor)


def _azuma_bound(expr: Callable[[sp.Symbol], sp.Expr], relation: Relation) -> Derivation:
    d = get("azuma-inequality")
    return _last(d, expr(d.symbols["z"]), relation)


def _chord_swapped(d: Derivation) -> sp.Expr:
    s, y = d.symbols["s"], d.symbols["y"]
    return (1 + y) / 2 * sp.exp(-s) + (1 - y) / 2 * sp.exp(s)


MUTANTS: dict[str, Callable[[], Derivation]] = {
    # (b - a)^2/8 with b - a = 2 alpha is alpha^2/2: alpha^2/8 is the width mistaken for alpha.
    "hoeffding-lemma: lam^2 alpha^2/8": lambda: _hoeffding_bound(8),
    "hoeffding-lemma: no variance term": lambda: _last(get("hoeffding-lemma"), LAM * MU),
    "hoeffding-chord: the weights swapped": lambda: _last(
        get("hoeffding-chord"), _chord_swapped(get("hoeffding-chord"))
    ),
    "azuma-inequality: exp(-z^2)": lambda: _azuma_bound(lambda z: sp.exp(-(z**2)), Relation.EQ),
    "azuma-inequality: exp(-z^2) as a bound": lambda: _azuma_bound(
        lambda z: sp.exp(-(z**2)), Relation.LE
    ),
}

WEAKER: dict[str, Callable[[], Derivation]] = {
    "hoeffding-lemma: lam^2 alpha^2": lambda: _hoeffding_bound(1),
    "hoeffding-chord: e^|s|": lambda: _last(
        get("hoeffding-chord"), sp.exp(sp.Abs(get("hoeffding-chord").symbols["s"])), Relation.LE
    ),
    "azuma-inequality: exp(-z^2/4)": lambda: _azuma_bound(
        lambda z: sp.exp(-(z**2) / 4), Relation.LE
    ),
}


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_mutant_is_refuted(name: str) -> None:
    assert_refuted_with_a_counterexample(MUTANTS[name]())


@pytest.mark.parametrize("name", sorted(WEAKER))
def test_true_but_weaker_is_not_refuted(name: str) -> None:
    assert_not_refuted(WEAKER[name]())
