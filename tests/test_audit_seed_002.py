"""The audit of seed 002 (issue 15): every entry's check gives its recorded verdict, every
erratum's correction holds, every heading of the seed has entries, and the referenced
catalog derivations exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from derivations.audit.seed_002 import ENTRIES, SECTIONS, SEED
from derivations.seed_002_errata import DERIVATIONS as ERRATA_DERIVATIONS
from symbolic.audit import AuditVerdict, Entry, Method

SEED_FILE = Path(__file__).resolve().parents[1].parent / "shared" / "seeds" / SEED
HEADING = re.compile(
    r"^(3\.5\.1 \S+|定义\s?3\.\d+\([^)]*\)|备注\s?3\.\d+|引理\s?3\.\d+(?:\([^)]*\))?)", re.M
)
HOLDS = {AuditVerdict.PROVED, AuditVerdict.CERTIFIED, AuditVerdict.CHECKED}
CHECKED = [e for e in ENTRIES if e.check is not None]
ERRATA = [e for e in ENTRIES if e.erratum is not None]


@pytest.mark.parametrize("entry", CHECKED, ids=[e.id for e in CHECKED])
def test_check_gives_the_recorded_verdict(entry: Entry) -> None:
    assert entry.check is not None
    outcome = entry.check()
    if entry.verdict in HOLDS:
        assert outcome.holds is True, outcome.detail
    elif entry.verdict is AuditVerdict.REFUTED:
        assert outcome.holds is False, outcome.detail
    else:
        pytest.fail(f"{entry.id}: a check for verdict {entry.verdict.value}")


@pytest.mark.parametrize("entry", ERRATA, ids=[e.id for e in ERRATA])
def test_erratum_correction_holds(entry: Entry) -> None:
    erratum = entry.erratum
    assert erratum is not None and erratum.check_correction is not None, entry.id
    outcome = erratum.check_correction()
    assert outcome.holds is True, outcome.detail
    assert erratum.counterexample and erratum.correction


def test_every_heading_has_entries() -> None:
    if not SEED_FILE.exists():
        pytest.skip(f"the seed file {SEED_FILE} is not on this machine")
    text = SEED_FILE.read_text(encoding="utf-8")
    headings = HEADING.findall(text)
    assert tuple(headings) == SECTIONS, headings
    covered = {e.section for e in ENTRIES}
    assert set(headings) <= covered, set(headings) - covered
    assert covered <= set(headings), covered - set(headings)


def test_entries_are_well_formed() -> None:
    ids = [e.id for e in ENTRIES]
    assert len(set(ids)) == len(ids)
    assert all(i.startswith("seed-002-") for i in ids)
    assert all(e.seed == "002" and e.quote and e.claim and e.detail for e in ENTRIES)
    for e in ENTRIES:
        if e.verdict is AuditVerdict.NOT_CHECKABLE:
            assert e.method is Method.NONE and e.check is None, e.id
        elif e.check is None:
            assert e.method is Method.DERIVATION and e.derivations, e.id
        if e.erratum is not None:
            assert e.erratum.id == e.id


def test_referenced_derivations_exist() -> None:
    from derivations.catalog import catalog

    known = set(catalog()) | {build().id for build in ERRATA_DERIVATIONS}
    referenced = {d for e in ENTRIES for d in e.derivations}
    referenced |= {
        d
        for e in ERRATA
        for d in (e.erratum.as_written, e.erratum.corrected)  # type: ignore[union-attr]
        if d
    }
    assert referenced <= known, referenced - known


def test_errata_derivations_as_written_refuted_corrected_proved() -> None:
    from numeric_checks import CheckOptions, check_derivation
    from symbolic.verdicts import Verdict

    verdicts = {
        d.id: check_derivation(d, CheckOptions(points=60, search_budget=60)).verdict
        for d in (build() for build in ERRATA_DERIVATIONS)
    }
    assert verdicts == {"lemma-3-17-2-if-seed": Verdict.REFUTED, "lemma-3-17-2-if": Verdict.PROVED}
