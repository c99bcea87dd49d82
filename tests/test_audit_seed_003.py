"""The audit of seed 003 re-runs: every check gives the recorded verdict, every erratum's
correction holds, and every section of the seed text has entries (issue 15)."""

from __future__ import annotations

from pathlib import Path

import pytest

from derivations import seed_003_errata
from derivations.audit import entries, seed_names
from derivations.audit.seed_003 import ENTRIES, SEED
from derivations.catalog import catalog
from numeric_checks import CheckOptions, check_derivation
from symbolic.audit import AuditVerdict, Entry, Method
from symbolic.verdicts import Verdict

SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"
HOLDS = {AuditVerdict.PROVED, AuditVerdict.CERTIFIED, AuditVerdict.CHECKED}
WITH_CHECK = [e for e in ENTRIES if e.check is not None]
WITH_ERRATUM = [e for e in ENTRIES if e.erratum is not None]


@pytest.mark.parametrize("entry", WITH_CHECK, ids=[e.id for e in WITH_CHECK])
def test_check_gives_the_recorded_verdict(entry: Entry) -> None:
    assert entry.check is not None
    outcome = entry.check()
    if entry.verdict in HOLDS:
        assert outcome.holds is True, f"{entry.id} recorded {entry.verdict.value}: {outcome}"
    else:
        assert entry.verdict is AuditVerdict.REFUTED, entry.id
        assert outcome.holds is False, f"{entry.id} recorded refuted: {outcome}"


@pytest.mark.parametrize("entry", WITH_ERRATUM, ids=[e.id for e in WITH_ERRATUM])
def test_each_correction_holds(entry: Entry) -> None:
    assert entry.erratum is not None and entry.erratum.check_correction is not None
    outcome = entry.erratum.check_correction()
    assert outcome.holds is True, f"{entry.erratum.id}: {outcome}"


def headings(text: str) -> list[str]:
    """The title (first line) and every line ending in the permalink mark."""
    lines = [line.rstrip() for line in text.splitlines()]
    marked = [line.removesuffix("¶").strip() for line in lines if line.endswith("¶")]
    return [lines[0].strip(), *marked]


def test_every_section_of_the_seed_has_entries() -> None:
    path = SEEDS / SEED
    if not path.exists():
        pytest.skip(f"seed file {path} is not in this checkout")
    heads = headings(path.read_text(encoding="utf-8"))
    assert len(heads) == 15
    sections = {e.section for e in ENTRIES}
    assert [h for h in heads if h not in sections] == []
    assert sorted(sections - set(heads)) == []  # no section name that is not a heading


def test_entries_are_well_formed() -> None:
    ids = [e.id for e in ENTRIES]
    assert len(ids) == len(set(ids))
    assert all(
        i.startswith("seed-003-") and e.seed == "003" for i, e in zip(ids, ENTRIES, strict=True)
    )
    # the catalog, and the errata module of this seed (until the lead registers it)
    known = set(catalog()) | {build().id for build in seed_003_errata.DERIVATIONS}
    for e in ENTRIES:
        assert e.quote and e.claim and e.detail, e.id
        if e.verdict is AuditVerdict.NOT_CHECKABLE:
            assert e.method is Method.NONE and e.check is None, e.id
        elif e.check is None:  # resting on the catalog
            assert e.method is Method.DERIVATION and e.derivations, e.id
        assert set(e.derivations) <= known, e.id
        if e.erratum is not None:
            assert {e.erratum.as_written, e.erratum.corrected} - {None} <= known, e.id
    errata = [e.erratum.id for e in WITH_ERRATUM if e.erratum is not None]
    assert len(errata) == len(set(errata))


def test_the_registry_lists_seed_003() -> None:
    assert seed_names()["003"] == SEED
    assert entries("003") == ENTRIES


def test_the_errata_derivations_of_seed_003_are_refuted() -> None:
    for build in seed_003_errata.DERIVATIONS:
        d = build()
        report = check_derivation(d, CheckOptions(points=40, search_budget=100))
        assert d.erratum and report.verdict is Verdict.REFUTED, report.conclusion.evidence
