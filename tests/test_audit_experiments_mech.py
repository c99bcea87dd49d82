"""Seed 003's definitions and mechanisms: the experiments of
:mod:`derivations.audit.experiments.mechanisms` have teeth (planted mutants are refuted with
a witness that rechecks) and hold where the seed is right; a gloss that the next sentence
defines is no erratum; one problem is one erratum.  What every seed kept as data meets
(quotes, checks, counterexamples, corrections) is ``test_audit_contract``'s."""

from __future__ import annotations

import re
from typing import Any

import pytest

from derivations.audit.experiments import recheck, run
from derivations.audit.spec import data_seeds, load_seed
from symbolic.errors import InvalidInput

from .conftest import refuted_experiment

SPEC = load_seed(data_seeds()["003"])
ERRATA = [e for e in SPEC.entries if e.erratum is not None]


def test_the_gloss_defined_by_the_next_sentence_is_no_erratum() -> None:
    (entry,) = [e for e in SPEC.entries if e.id == "seed-003-values-within-eps"]
    assert entry.erratum is None and "如何度量相似性" in entry.not_erratum
    assert entry.check is not None and entry.check.target == ("pointwise-to-events",)


def test_the_discrete_noise_errata_are_one_problem() -> None:
    merged = {e.erratum.id: e.erratum.same_as for e in ERRATA if e.erratum is not None}
    assert merged["seed-003-expo-cannot-add-noise"] == "seed-003-expo-continuous-only"
    assert merged["seed-003-expo-continuous-only"] is None


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("edit-distance-one", {"letters": 2, "max_n": 3, "cost": 2}),
        ("release-records", {"max_n": 2, "factor": "1/2"}),
        ("count-sensitivity", {"max_n": 2, "bound": 0}),
    ],
)
def test_planted_mutants_are_refuted_with_a_witness_that_rechecks(
    name: str, params: dict[str, Any]
) -> None:
    result = refuted_experiment(name, params)
    assert result.point
    shown = ", ".join(f"{k} = {v}" for k, v in result.point.items())
    assert shown in result.evidence


@pytest.mark.parametrize(
    ("name", "params", "scope"),
    [
        ("edit-distance-one", {"letters": 2, "max_n": 3}, r"\|X\| = 2, n = 1\.\.3"),
        ("release-records", {"max_n": 2}, r"n = 1\.\.2"),
        ("count-sensitivity", {"max_n": 2}, r"n = 1\.\.2 people"),
    ],
)
def test_the_unmutated_statements_hold_on_the_scope_they_state(
    name: str, params: dict[str, Any], scope: str
) -> None:
    result = run(name, params)
    assert result.verdict.value == "checked" and re.search(scope, result.scope), result


@pytest.mark.parametrize("noise", ["laplace", "geometric"])
def test_noise_on_integers_is_dp_for_a_shift_of_two(noise: str) -> None:
    rate = {"eps": "1"} if noise == "laplace" else {"alpha": "1/3"}
    params = {"noise": noise, "fx": 0, "fy": 2, **rate}
    result = run("noise-on-integers", params)
    assert result.verdict.value == "refuted" and result.point["fy"] == 2
    assert recheck("noise-on-integers", params, (), result.point) is False


def test_noise_on_integers_rejects_bad_input() -> None:
    with pytest.raises(InvalidInput, match="different integers"):
        run("noise-on-integers", {"fx": "1/2", "fy": 1})
    with pytest.raises(InvalidInput, match="laplace"):
        run("noise-on-integers", {"noise": "gauss"})
