"""Seed 003, part a (definitions, divergences, the Laplace and exponential mechanisms) as data:
every check runs and gives a verdict that agrees with the entry (an erratum is refuted inside
the seed's conventions, with its counterexample recomputed here and its correction holding;
every other check holds), the quotes are the seed's, and the experiments of
:mod:`derivations.audit.experiments.mechanisms` have teeth (planted mutants are refuted with
a witness that rechecks)."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import sympy as sp

from derivations.app.claims import load_claim
from derivations.audit.experiments import recheck, run
from derivations.audit.run import Record, outside_conventions, run_seed
from derivations.audit.spec import DATA, EntrySpec, load_seed
from derivations.catalog import catalog
from symbolic.errors import InvalidInput

PART = DATA / "part_003a.toml"
SPEC = load_seed(PART)
SEED = Path(__file__).resolve().parents[1].parent / "shared" / "seeds" / SPEC.file
HOLDS = {"proved", "certified", "checked"}
CHECKED = [e for e in SPEC.entries if e.check is not None]
ERRATA = [e for e in SPEC.entries if e.erratum is not None]


@pytest.fixture(scope="module")
def results() -> dict[str, Record]:
    return run_seed(SPEC)


def _ids(entries: list[EntrySpec]) -> list[str]:
    return [e.id for e in entries]


def test_quotes_are_literal_and_sections_are_headings_of_the_seed() -> None:
    if not SEED.exists():
        pytest.skip(f"the seed file {SEED} is not on this machine")
    text = SEED.read_text(encoding="utf-8")
    lines = [line.strip() for line in text.splitlines()]
    headings = {lines[0], *(line.removesuffix("¶") for line in lines if line.endswith("¶"))}
    for e in SPEC.entries:
        assert e.quote in text, f"{e.id}: quote not in the seed: {e.quote!r}"
        assert e.section in headings, e.id


def test_entries_are_well_formed() -> None:
    ids = [e.id for e in SPEC.entries]
    assert len(ids) == len(set(ids)) and all(i.startswith("seed-003-") for i in ids)
    known = set(catalog())
    for e in SPEC.entries:
        assert e.check is None or e.check.kind != "catalog" or set(e.check.target) <= known
        if e.check is not None and e.check.kind in ("claim", "proof"):
            assert (SPEC.directory / e.check.target[0]).exists(), e.id
    errata = {x.id for e in ERRATA if (x := e.erratum) is not None}
    assert len(errata) == len(ERRATA)
    for e in ERRATA:
        assert e.erratum is not None
        assert e.erratum.same_as is None or e.erratum.same_as in errata, e.id
        assert {e.erratum.as_written, e.erratum.corrected} - {None} <= known, e.id


@pytest.mark.parametrize("entry", CHECKED, ids=_ids(CHECKED))
def test_every_check_agrees_with_its_entry(entry: EntrySpec, results: dict[str, Record]) -> None:
    record = results[entry.id]
    assert record["scope"], f"{entry.id}: every check states its scope"
    if entry.erratum is None:
        assert record["verdict"] in HOLDS, f"{entry.id}: {record['evidence']}"
        return
    assert record["verdict"] == "refuted", f"{entry.id}: {record['evidence']}"
    assert not outside_conventions(SPEC, record["point"]), entry.id
    for value in record["point"].values():
        assert value in record["evidence"], f"{entry.id}: the printed point lacks {value}"
    corrections = record["corrections"]
    assert corrections and all(c["verdict"] in HOLDS for c in corrections), corrections


def _false_at(path: Path, point: dict[str, str]) -> bool:
    """Is the claim file's equation false at the printed point (exactly, then to 50 digits)?"""
    d = load_claim(path)
    lhs, rhs = d.claim.lhs, d.claim.rhs
    for name, value in reversed(d.defs):
        lhs, rhs = lhs.subs(name, value), rhs.subs(name, value)
    at = {s: sp.Rational(point[s.name]) for s in (lhs - rhs).free_symbols}
    gap = (lhs - rhs).subs(at).doit()
    return d.claim.relation.value == "=" and abs(sp.N(gap, 50)) > sp.Rational(1, 10**30)


@pytest.mark.parametrize("entry", ERRATA, ids=_ids(ERRATA))
def test_printed_counterexample_is_recomputed(entry: EntrySpec, results: dict[str, Record]) -> None:
    record, check = results[entry.id], entry.check
    assert check is not None
    if check.kind == "claim":
        assert _false_at(SPEC.directory / check.target[0], record["point"]), entry.id
    else:
        assert check.kind == "experiment"
        point = {k: Fraction(v) for k, v in record["point"].items()}
        witness = [[Fraction(x) for x in d] for d in record["witness"]]
        assert recheck(check.target[0], check.params, witness, point) is False


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
    result = run(name, params)
    assert result.verdict.value == "refuted", result.evidence
    assert result.point and recheck(name, params, result.witness, result.point) is False
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
