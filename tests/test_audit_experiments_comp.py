"""Seed 003's Gaussian and composition entries as data (part b): the experiments of
:mod:`derivations.audit.experiments.composition` have teeth (planted mutants are refuted with
a witness that rechecks), every refuting claim file's counterexample is recomputed from the
printed point, every correction holds, and what the old per-seed test checked of these
entries still holds (sections, quotes, known derivations, one erratum per problem)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import sympy as sp

from derivations.app.claims import load_claim
from derivations.audit.experiments import recheck, run
from derivations.audit.run import outside_conventions, run_check
from derivations.audit.spec import DATA, EntrySpec, load_seed
from derivations.catalog import catalog
from symbolic.functions import unfold

SPEC = load_seed(DATA / "part_003b.toml")
SEED_TEXT = Path(__file__).resolve().parents[1].parent / "shared" / "seeds" / SPEC.file
SECTIONS = {
    "Gaussian Mechanism",
    "Composition theorems 查询的组合",
    "基本组合: Sequential & Parallel",
    "Advanced Composition",
    "Navie Composition Throrem",
    "Strong Composition Throrem",
}
CLAIM_ERRATA = [e for e in SPEC.entries if e.erratum and e.check and e.check.kind == "claim"]
WITH_ERRATUM = [e for e in SPEC.entries if e.erratum is not None]
HOLDS = {"proved", "certified", "checked"}


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
    result = run(name, params)
    assert result.verdict.value == "refuted", result.evidence
    assert result.witness
    assert recheck(name, params, result.witness, result.point) is False


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


def _fails_at(path: Path, point: dict[str, str]) -> bool:
    """Does the claim in ``path`` fail at the printed ``point`` (values substituted exactly,
    the sides evaluated at 40 digits)?"""
    d = load_claim(path)
    lhs, rhs = unfold(d.claim.lhs), unfold(d.claim.rhs)
    for name, value in reversed(d.defs):
        lhs, rhs = lhs.subs(name, value), rhs.subs(name, value)
    at = {s: sp.Rational(point[s.name]) for s in lhs.free_symbols | rhs.free_symbols}
    gap = sp.N((lhs - rhs).subs(at).rewrite(sp.erf).doit(), 40)
    fails = {
        "=": abs(gap) > 1e-20,
        "<=": gap > 1e-30,
        "<": gap >= 0,
        ">=": gap < -1e-30,
        ">": gap <= 0,
    }
    return bool(fails[d.claim.relation.value])


@pytest.mark.parametrize("entry", CLAIM_ERRATA, ids=[e.id for e in CLAIM_ERRATA])
def test_a_refuting_claim_file_fails_at_its_printed_point(entry: EntrySpec) -> None:
    assert entry.check is not None
    record = run_check(entry.check, SPEC.directory)
    assert record["verdict"] == "refuted" and record["point"], record["evidence"]
    for name, value in record["point"].items():
        assert f"{name} = {value}" in record["evidence"]
    assert _fails_at(SPEC.directory / entry.check.target[0], record["point"])
    assert not outside_conventions(SPEC, record["point"]), entry.id


@pytest.mark.parametrize("entry", WITH_ERRATUM, ids=[e.id for e in WITH_ERRATUM])
def test_each_correction_holds(entry: EntrySpec) -> None:
    assert entry.erratum is not None
    for check in entry.erratum.correction_checks:
        record = run_check(check, SPEC.directory)
        assert record["verdict"] in HOLDS, f"{entry.id}: {record['evidence']}"


def test_the_part_is_well_formed() -> None:
    ids = [e.id for e in SPEC.entries]
    assert len(ids) == len(set(ids)) == 36
    assert {e.section for e in SPEC.entries} == SECTIONS
    known = set(catalog())
    for e in SPEC.entries:
        if e.check is not None and e.check.kind == "catalog":
            assert set(e.check.target) <= known, e.id
        if e.check is not None and e.check.kind in ("claim", "proof"):
            assert (SPEC.directory / e.check.target[0]).exists(), e.id
        if e.erratum is not None:
            assert {e.erratum.as_written, e.erratum.corrected} - {None} <= known, e.id
    errata = [e.erratum.id for e in WITH_ERRATUM if e.erratum is not None]
    assert len(errata) == len(set(errata))
    # one problem, one erratum: Theorem 4 repeats the parallel prose's
    merged = {e.erratum.id: e.erratum for e in WITH_ERRATUM if e.erratum is not None}
    assert merged["seed-003-theorem-4-parallel"].same_as == "seed-003-parallel-prose"
    assert merged["seed-003-parallel-prose"].same_as is None  # listed once, aliases derived


def test_quotes_are_literal_substrings_of_the_seed() -> None:
    if not SEED_TEXT.exists():
        pytest.skip(f"the seed file {SEED_TEXT} is not on this machine")
    text = SEED_TEXT.read_text(encoding="utf-8")
    assert [e.id for e in SPEC.entries if e.quote not in text] == []
    headings = {line.removesuffix("¶").strip() for line in text.splitlines() if "¶" in line}
    assert headings >= SECTIONS
