"""The audit of seed 004 (Gaussian differential privacy notes): every entry's check gives the
recorded verdict, every erratum's correction holds, and every section heading of the seed
file has at least one entry."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from derivations.audit.seed_004 import ENTRIES, SEED
from derivations.catalog import catalog
from symbolic.audit import AuditVerdict, Entry, Method, Outcome

SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"
HOLDS = {AuditVerdict.PROVED, AuditVerdict.CERTIFIED, AuditVerdict.CHECKED}

_outcomes: dict[Callable[[], Outcome], Outcome] = {}


def _run(check: Callable[[], Outcome]) -> Outcome:
    """Several entries (the summary table repeats earlier statements) share one check: run
    each check once per session."""
    if check not in _outcomes:
        _outcomes[check] = check()
    return _outcomes[check]


def _id(entry: Entry) -> str:
    return entry.id


WITH_CHECK = [e for e in ENTRIES if e.check is not None]
WITH_ERRATUM = [e for e in ENTRIES if e.erratum is not None]


@pytest.mark.parametrize("entry", WITH_CHECK, ids=_id)
def test_check_gives_the_recorded_verdict(entry: Entry) -> None:
    assert entry.check is not None
    outcome = _run(entry.check)
    if entry.verdict in HOLDS:
        assert outcome.holds is True, f"{entry.id} is recorded {entry.verdict.value}: {outcome}"
    elif entry.verdict is AuditVerdict.REFUTED:
        assert outcome.holds is False, f"{entry.id} is recorded refuted: {outcome}"
    else:
        pytest.fail(f"{entry.id}: a {entry.verdict.value} entry should carry no check")


@pytest.mark.parametrize("entry", WITH_ERRATUM, ids=_id)
def test_erratum_correction_holds(entry: Entry) -> None:
    assert entry.erratum is not None
    assert entry.erratum.check_correction is not None, f"{entry.id}: no correction check"
    outcome = _run(entry.erratum.check_correction)
    assert outcome.holds is True, f"{entry.erratum.id}: {outcome}"


def _headings() -> list[str]:
    path = SEEDS / SEED
    if not path.exists():
        pytest.skip(f"the seed file {path} is absent")
    text = path.read_text(encoding="utf-8")
    return [line[:-1] for line in text.splitlines() if line.endswith("#")]


def test_every_section_of_the_seed_has_an_entry() -> None:
    headings = _headings()
    assert len(headings) == 15, headings
    sections = {e.section for e in ENTRIES}
    assert [h for h in headings if h not in sections] == []
    assert sections <= set(headings), sorted(sections - set(headings))


def test_ids_are_unique_and_name_the_seed() -> None:
    ids = [e.id for e in ENTRIES]
    assert len(ids) == len(set(ids))
    assert all(
        i.startswith("seed-004-") and e.seed == "004" for i, e in zip(ids, ENTRIES, strict=True)
    )
    errata = [e.erratum.id for e in WITH_ERRATUM if e.erratum is not None]
    assert len(errata) == len(set(errata))


def test_entries_without_a_check_say_why() -> None:
    for e in ENTRIES:
        if e.check is not None:
            continue
        if e.verdict is AuditVerdict.NOT_CHECKABLE:
            assert e.method is Method.NONE and e.detail, e.id
        else:
            assert e.method is Method.DERIVATION and e.derivations, e.id


def test_catalog_references_exist_and_agree() -> None:
    known = catalog()
    for e in ENTRIES:
        for did in e.derivations:
            assert did in known, f"{e.id} cites unknown derivation {did}"
        if e.erratum is not None:
            for cited in (e.erratum.as_written, e.erratum.corrected):
                assert cited is None or cited in known, f"{e.erratum.id} cites {cited}"
            if e.erratum.as_written is not None:
                assert known[e.erratum.as_written].erratum, e.erratum.as_written
