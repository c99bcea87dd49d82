"""laplace-ratio: every step proved, the oracle agreeing, and mutants refuted.

Dwork & Roth 2014, Theorem 3.6, chain of seed 003.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
import sympy as sp

from derivations.catalog import get
from numeric_checks import CheckOptions, check_derivation
from symbolic.derivation import Derivation
from symbolic.errors import IllFormedDerivation
from symbolic.functions import LaplacePDF
from symbolic.relations import Relation
from symbolic.verdicts import Verdict

FAST = CheckOptions(points=80, search_budget=200)
D = get("laplace-ratio")
S = D.symbols
eps, delta, z, fx, fy, b = (S[k] for k in ("eps", "Delta", "z", "fx", "fy", "b"))


@pytest.fixture(scope="module")
def report():  # type: ignore[no-untyped-def]
    return check_derivation(D)


def test_every_step_proved_and_oracle_agrees(report) -> None:  # type: ignore[no-untyped-def]
    assert report.verdict is Verdict.PROVED
    assert [s.verdict for s in report.steps] == [Verdict.PROVED] * 6
    assert all(s.numeric is not None and s.numeric.points >= 200 for s in report.steps)
    assert "triangle inequality" in report.steps[3].evidence
    assert "Abs(fx - fy) <= Delta" in report.steps[4].evidence
    assert report.oracle is not None and report.oracle.agrees is True
    assert report.oracle.points >= 10


def test_source_and_structure() -> None:
    assert "Theorem 3.6" in str(D.source) and D.source.seed == "003"
    assert [s.relation.value for s in D.steps] == ["=", "=", "=", "<=", "<=", "="]


MUTANTS: dict[str, Callable[[], Derivation]] = {
    "step 3: 2b in the exponent": lambda: D.with_step(
        2, expr=sp.exp((sp.Abs(z - fy) - sp.Abs(z - fx)) / (2 * b))
    ),
    "step 3: sign flipped": lambda: D.with_step(
        2, expr=sp.exp((sp.Abs(z - fx) - sp.Abs(z - fy)) / b)
    ),
    "step 4: absolute value dropped": lambda: D.with_step(3, expr=sp.exp((fy - fx) / b)),
    "step 4: strict inequality": lambda: D.with_step(3, relation=Relation.LT),
    "step 4: bound halved": lambda: D.with_step(3, expr=sp.exp(sp.Abs(fx - fy) / (2 * b))),
    "hypothesis weakened to 2 Delta": lambda: D.replace(hypotheses=(sp.Abs(fx - fy) <= 2 * delta,)),
    "hypothesis dropped": lambda: D.replace(hypotheses=()),
    "scale b = Delta/(2 eps)": lambda: D.replace(defs=((b, delta / (2 * eps)),)),
    "scale b = eps/Delta": lambda: D.replace(defs=((b, eps / delta),)),
    "conclusion exp(eps/2)": lambda: D.with_step(5, expr=sp.exp(eps / 2)),
    "step 2: constant 1/b for 1/(2b)": lambda: D.with_step(
        1, expr=(sp.exp(-sp.Abs(z - fx) / b) / b) / (sp.exp(-sp.Abs(z - fy) / b) / (2 * b))
    ),
    "step 1: x and y swapped": lambda: D.with_step(
        0, expr=LaplacePDF(z - fy, b) / LaplacePDF(z - fx, b)
    ),
}


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_mutant_is_refuted_with_a_counterexample(name: str) -> None:
    r = check_derivation(MUTANTS[name](), FAST)
    assert r.verdict is Verdict.REFUTED
    refuted = [s for s in (*r.steps, r.conclusion) if s.verdict is Verdict.REFUTED]
    assert refuted, "refuted without a refuted step"
    cex = refuted[0].counterexample
    assert cex is not None and set(cex.point) >= {"eps", "Delta", "z", "fx", "fy"}
    assert cex.lhs != cex.rhs or "exactly equal" in cex.note


@pytest.mark.parametrize(
    "name",
    [
        "scale b = Delta/(2 eps)",
        "hypothesis dropped",
        "hypothesis weakened to 2 Delta",
        "scale b = eps/Delta",
    ],
)
def test_oracle_alone_catches_a_wrong_mechanism(name: str) -> None:
    r = check_derivation(MUTANTS[name](), FAST)
    assert r.oracle is not None and r.oracle.agrees is False and r.oracle.counterexample


def test_true_but_weaker_variant_is_not_refuted() -> None:
    weaker = D.with_step(5, expr=sp.exp(2 * eps)).with_step(5, relation=Relation.LE)
    r = check_derivation(weaker, FAST)
    assert r.verdict is not Verdict.REFUTED
    assert r.steps[-1].verdict is Verdict.PROVED  # exp(eps) <= exp(2 eps) by monotonicity


def test_mixing_directions_is_ill_formed_not_refuted() -> None:
    with pytest.raises(IllFormedDerivation, match="mixes"):
        D.with_step(3, relation=Relation.GE)
