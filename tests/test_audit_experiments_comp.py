"""Seed 003's Gaussian and composition entries: the experiments of
:mod:`derivations.audit.experiments.composition` have teeth (planted mutants are refuted with
a witness that rechecks) and hold where the seed is right; one problem is one erratum.  What
every seed kept as data meets (quotes, checks, counterexamples, corrections) is
``test_audit_contract``'s."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from derivations.audit.experiments import recheck, run
from derivations.audit.spec import data_seeds, load_seed

from .conftest import refuted_experiment

SPEC = load_seed(data_seeds()["003"])


@pytest.mark.parametrize(
    ("name", "params"),
    [
        (
            "loss-bound",
            {
                "direction": "loss-bound-implies-dp",
                "factor": "1/2",
                "outcomes": [2, 3],
                "draws": 50,
                "ranges": {"eps": [0, 2]},
            },
        ),
        (
            "loss-bound",
            {
                "direction": "dp-implies-loss-bound",
                "outcomes": [2, 3],
                "draws": 50,
                "ranges": {"eps": [0, 2], "delta": [0, "1/2"]},
            },
        ),
        ("adaptive-game", {"given_coins": False}),
    ],
    ids=["loss-bound-halved", "loss-bound-converse", "game-without-coins"],
)
def test_planted_mutants_are_refuted_with_a_witness_that_rechecks(
    name: str, params: dict[str, Any]
) -> None:
    assert refuted_experiment(name, params).witness


def test_the_true_statements_pass_and_recheck() -> None:
    params = {"direction": "loss-bound-implies-dp", "outcomes": [2, 3], "draws": 50}
    params["ranges"] = {"eps": [0, 2]}
    assert run("loss-bound", params).verdict.value == "checked"
    witness = [[Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 4), Fraction(3, 4)]]
    assert recheck("loss-bound", params, witness, {"eps": Fraction(1, 2)}) is True
    game = run("adaptive-game", {"given_coins": True})
    assert game.verdict.value == "checked" and game.scope.startswith("instance")
    bad = run("adaptive-game", {"given_coins": False})
    assert recheck("adaptive-game", {"given_coins": True}, bad.witness, {}) is True
    monotone = run("gauss-profile-monotone", {})
    assert monotone.verdict.value == "proved" and monotone.scope.startswith("general")


def test_theorem_4_repeats_the_parallel_prose_erratum() -> None:
    merged = {e.erratum.id: e.erratum for e in SPEC.entries if e.erratum is not None}
    assert merged["seed-003-theorem-4-parallel"].same_as == "seed-003-parallel-prose"
    assert merged["seed-003-parallel-prose"].same_as is None  # listed once, aliases derived
