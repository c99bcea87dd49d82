"""Every catalog derivation not covered by its own test module: a mutated version is refuted,
a true-but-weaker version is not."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import sympy as sp

from derivations.catalog import get
from derivations.composition import EPS_I, MECHANISM, K
from symbolic.derivation import Claim, Derivation, Step
from symbolic.families import ForAll
from symbolic.relations import Relation

from .conftest import assert_not_refuted, assert_refuted_with_a_counterexample, sym


def _last(d: Derivation, expr: sp.Expr, relation: Relation | None = None) -> Derivation:
    return d.with_step(len(d.steps) - 1, expr=expr, relation=relation)


# A derivation's own instance points satisfy its hypotheses as stated; with other hypotheses
# the engine's family sampler draws them, as it would a user's.
OWN_POINTS = (
    {"instance_points": None} if "instance_points" in Derivation.__dataclass_fields__ else {}
)


def _without(did: str, keep: Callable[[sp.Basic], bool]) -> Derivation:
    d = get(did)
    fields = OWN_POINTS if any(v.family for v in d.variables) else {}
    return d.replace(hypotheses=tuple(h for h in d.hypotheses if keep(h)), **fields)


def _eps_sum(did: str, n: int) -> sp.Expr:
    return sp.Add(*[sym(did, f"eps{i}") for i in range(1, n + 1)])


def _azuma_bound(factor: int) -> Derivation:
    d = get("azuma-binomial")
    z = d.symbols["z"]
    bound = sp.exp(-(z**2) / factor)
    return d.replace(
        claim=Claim(d.claim.lhs, Relation.LE, bound),
        steps=(Step(Relation.LE, bound, d.steps[0].justification),),
    )


def _approx_bound(share: sp.Expr) -> Derivation:
    """approx-basic-composition with ``share`` times the deltas' sum in its bound."""
    d = get("approx-basic-composition")
    last = d.steps[-1].expr
    total = next(t for t in last.args if isinstance(t, sp.Sum))
    return _last(d, last - total + share * total)


def _approx_first_unbounded() -> Derivation:
    """approx-basic-composition with f_i <= delta_i for i >= 2 only: M_1 may draw from its
    delta part more often than delta_1 allows (a hypothesis dropped for one i)."""
    d = get("approx-basic-composition")
    i, k = MECHANISM, K.symbol
    hyps = tuple(
        ForAll(h.relation, (i, 2, k)) if isinstance(h, ForAll) else h for h in d.hypotheses
    )
    return d.replace(hypotheses=hyps, **OWN_POINTS)


MUTANTS: dict[str, Callable[[], Derivation]] = {
    "kl-tight-below-seed: a quarter of the seed's bound": lambda: _last(
        get("kl-tight-below-seed"),
        sym("kl-tight-below-seed", "eps") * (sp.exp(sym("kl-tight-below-seed", "eps")) - 1) / 4,
    ),
    "basic-composition: exp of half the sum": lambda: _last(
        get("basic-composition"), sp.exp(_eps_sum("basic-composition", 2) / 2)
    ),
    "basic-composition: M_1 only 2 eps_1-DP": lambda: get("basic-composition").replace(
        hypotheses=tuple(
            sp.LessThan(
                h.lhs,
                h.rhs.subs(sym("basic-composition", "eps1"), 2 * sym("basic-composition", "eps1")),
            )
            for h in get("basic-composition").hypotheses
        )
    ),
    "basic-composition-k: eps_i/2 in the product": lambda: get("basic-composition-k").with_step(
        1, expr=sp.Product(sp.exp(EPS_I.base[MECHANISM] / 2), (MECHANISM, 1, K.symbol))
    ),
    # parallel-composition's mutants: tests/test_catalog_general.py.
    "naive-adaptive-composition: exp((k - 1) eps)": lambda: _last(
        get("naive-adaptive-composition"),
        sp.exp((K.symbol - 1) * sym("naive-adaptive-composition", "eps")),
        Relation.LE,
    ),
    "naive-adaptive-composition: the adversary's coins depend on the data": lambda: _without(
        "naive-adaptive-composition", lambda h: not isinstance(h, sp.Equality)
    ),
    "approx-basic-composition-optimal: k delta/2": lambda: _last(
        get("approx-basic-composition-optimal"),
        sym("approx-basic-composition-optimal", "k")
        * sym("approx-basic-composition-optimal", "delta")
        / 2,
    ),
    "approx-basic-composition: half the deltas": lambda: _approx_bound(sp.Rational(1, 2)),
    "approx-basic-composition: M_1's delta part not bounded": _approx_first_unbounded,
    "azuma-binomial: exp(-z^2)": lambda: _azuma_bound(1),
    "lemma-3-17-2-if: without D_inf(Z'||Y') <= eps (the seed's statement)": lambda: _without(
        "lemma-3-17-2-if",
        lambda h: (
            not (
                isinstance(h, sp.LessThan)
                and h.lhs.has(sym("lemma-3-17-2-if", "b1"))
                and h.rhs.has(sp.exp(sym("lemma-3-17-2-if", "eps")))
                and not h.lhs.has(sym("lemma-3-17-2-if", "b"))
            )
        ),
    ),
}

WEAKER: dict[str, Callable[[], Derivation]] = {
    "lemma-3-17-2-if: + 2 delta": lambda: _last(
        get("lemma-3-17-2-if"),
        sym("lemma-3-17-2-if", "a") * sp.exp(sym("lemma-3-17-2-if", "eps"))
        + 2 * sym("lemma-3-17-2-if", "delta"),
        Relation.LE,
    ),
    "parallel-composition-substitution-seed: exp(eps1 + eps2), the corrected bound": lambda: _last(
        get("parallel-composition-substitution-seed").replace(erratum=None),
        sp.exp(
            sym("parallel-composition-substitution-seed", "eps1")
            + sym("parallel-composition-substitution-seed", "eps2")
        ),
    ),
    "kl-tight-below-seed: e^(2 eps)": lambda: _last(
        get("kl-tight-below-seed"),
        sym("kl-tight-below-seed", "eps") * (sp.exp(2 * sym("kl-tight-below-seed", "eps")) - 1),
    ),
    "basic-composition: exp(2 sum)": lambda: _last(
        get("basic-composition"), sp.exp(2 * _eps_sum("basic-composition", 2)), Relation.LE
    ),
    "basic-composition-k: exp(2 sum)": lambda: _last(
        get("basic-composition-k"),
        sp.exp(2 * sp.Sum(EPS_I.base[MECHANISM], (MECHANISM, 1, K.symbol))),
        Relation.LE,
    ),
    "parallel-composition: exp(k eps_max)": lambda: _last(
        get("parallel-composition"),
        sp.exp(K.symbol * sym("parallel-composition", "epsmax")),
    ),
    "naive-adaptive-composition: exp((k + 1) eps)": lambda: _last(
        get("naive-adaptive-composition"),
        sp.exp((K.symbol + 1) * sym("naive-adaptive-composition", "eps")),
        Relation.LE,
    ),
    "approx-basic-composition-optimal: 2 k delta": lambda: _last(
        get("approx-basic-composition-optimal"),
        2
        * sym("approx-basic-composition-optimal", "k")
        * sym("approx-basic-composition-optimal", "delta"),
    ),
    "approx-basic-composition: twice the deltas": lambda: _approx_bound(sp.Integer(2)),
    "azuma-binomial: exp(-z^2/4)": lambda: _azuma_bound(4),
}


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_mutant_is_refuted(name: str) -> None:
    assert_refuted_with_a_counterexample(MUTANTS[name]())


@pytest.mark.parametrize("name", sorted(WEAKER))
def test_true_but_weaker_is_not_refuted(name: str) -> None:
    assert_not_refuted(WEAKER[name]())
