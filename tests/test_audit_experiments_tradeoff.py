"""The trade-off experiments of the seed-004 audit (derivations/audit/experiments/tradeoff.py)
have teeth: each planted mutant is refuted with a witness that rechecks, the statement as the
seed makes it is not refuted on a few draws, and the false statement of the seed (KL orders
the (eps, delta) guarantee) is refuted with a witness that rechecks.  Also carried over from
the Python audit's tests: seed 004 keeps the ids of its entries and errata of this share."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from derivations.audit.experiments import run
from derivations.audit.experiments.tradeoff import STATEMENTS
from derivations.audit.spec import DATA, load_seed

from .conftest import refuted_experiment

SEED_FILE = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"
RANGES = {"eps": [0, 3], "delta": [0, 1]}
PARAMS: dict[str, dict[str, Any]] = {
    "events-vs-hockey": {"ranges": RANGES},
    "eps-delta-vs-tradeoff": {"ranges": RANGES},
    "fdp-symmetrization": {"outcomes": [2, 3]},
}
MUTATED = sorted(set(STATEMENTS) - {"kl-orders-delta"})


def _refuted_and_rechecked(name: str, params: dict[str, Any]) -> None:
    result = refuted_experiment(name, params)
    assert result.witness, name
    for law in result.witness:
        assert all(str(x) in result.evidence for x in law), f"{name}: {law} not printed"


@pytest.mark.parametrize("name", MUTATED)
def test_planted_mutants_are_refuted_with_a_witness_that_rechecks(name: str) -> None:
    _refuted_and_rechecked(name, {**PARAMS.get(name, {}), "draws": 100, "mutant": True})


@pytest.mark.parametrize("name", MUTATED)
def test_the_statements_as_made_are_not_refuted(name: str) -> None:
    result = run(name, {**PARAMS.get(name, {}), "draws": 40})
    assert result.verdict.value == "checked", result.evidence
    assert result.scope.startswith("instance: laws on"), result.scope


def test_kl_does_not_order_the_privacy_guarantee() -> None:
    _refuted_and_rechecked("kl-orders-delta", {"ranges": {"eps": [0, 3]}})


def _spec() -> Any:
    return load_seed(DATA / "seed_004.toml")


# The ids of this share's entries and errata in the Python audit: scripts use them.
KEPT = [
    "dp-definition",
    "dp-from-relative-entropy",
    "laplace-long-tail",
    "noise-suitability",
    "composition-only-bounds",
    "strong-composition-tools",
    "expectation-moments",
    "moments-accountant",
    "renyi-accountant",
    "methods-summary",
    "testing-history",
    "hypotheses",
    "error-formulas",
    "threshold-moves-right",
    "tv-bound",
    "tv-definition",
    "tradeoff-definition",
    "larger-is-harder",
    "tradeoff-characterization",
    "order-notation",
    "fdp-definition",
    "fdp-symmetric",
    "fdp-figure",
    "inverse-is-swap",
    "fs-above-f",
    "fs-self-inverse",
    "fdp-implies-fs",
    "fs-proof-omitted",
    "section-4-heading",
    "f-eps-delta-is-tradeoff",
    "eps-delta-tradeoff-equivalence",
    "post-processing",
    "table-tradeoff-idea",
    "table-kl-idea",
    "table-definitions",
    "table-conversion",
    "table-gmu-formula",
    "table-gmu-monotone",
    "table-gdp-noise",
    "table-classical-gaussian",
    "table-dp-to-gdp",
    "table-gdp-composition",
    "table-accountants",
]
ERRATA = {
    "seed-004-dp-from-relative-entropy",
    "seed-004-table-kl-divergence",
    "seed-004-table-classical-gaussian-eps",
}


def test_the_ids_of_this_share_are_kept_and_unique() -> None:
    spec = _spec()
    ids = [e.id for e in spec.entries]
    assert len(ids) == len(set(ids))
    assert {f"seed-004-{k}" for k in KEPT} <= set(ids)
    assert {e.erratum.id for e in spec.entries if e.erratum is not None} >= ERRATA
