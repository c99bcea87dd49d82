"""The audit of seed 001 (NumericSparse, Dwork & Roth 2014 section 3.6.3): every entry's
check gives its recorded verdict, every erratum's correction holds, every heading of the
seed has entries, and the catalog ids the entries name exist with matching errata."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from derivations.audit.seed_001 import ENTRIES, SEED
from derivations.catalog import get
from symbolic.audit import AuditVerdict, Entry, Method

SEEDS_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"
HEADING = re.compile(r"^\d+(?:\.\d+)+\s+\S.*$")
"""A numbered heading line, e.g. '3.6.3 数值稀疏算法'."""
CHINESE = re.compile(r"[\u4e00-\u9fff][\u4e00-\u9fff,。:?()“”、]+")
"""A run of Chinese characters and punctuation (two characters or more)."""

EXPECTED = {
    AuditVerdict.PROVED: True,
    AuditVerdict.CERTIFIED: True,
    AuditVerdict.CHECKED: True,
    AuditVerdict.REFUTED: False,
}

CHECKED = [e for e in ENTRIES if e.check is not None]
ERRATA = [e for e in ENTRIES if e.erratum is not None]


@pytest.mark.parametrize("e", CHECKED, ids=[e.id for e in CHECKED])
def test_check_gives_the_recorded_verdict(e: Entry) -> None:
    assert e.check is not None
    outcome = e.check()
    assert outcome.holds is EXPECTED[e.verdict], f"{e.id}: {outcome.detail}"
    assert outcome.detail


@pytest.mark.parametrize("e", ERRATA, ids=[e.id for e in ERRATA])
def test_erratum_correction_holds(e: Entry) -> None:
    assert e.erratum is not None and e.erratum.check_correction is not None
    outcome = e.erratum.check_correction()
    assert outcome.holds is True, f"{e.erratum.id}: {outcome.detail}"


def test_every_heading_of_the_seed_has_entries() -> None:
    path = SEEDS_DIR / SEED
    if not path.exists():
        pytest.skip(f"seed file {path} is absent (the shared seeds are not mounted)")
    headings = [
        line.strip() for line in path.read_text("utf-8").splitlines() if HEADING.match(line)
    ]
    assert headings == ["3.6.3 数值稀疏算法"]
    sections = {e.section for e in ENTRIES}
    assert set(headings) <= sections
    assert sections <= set(headings), "an entry names a section the seed does not have"


def test_quotes_are_in_the_seed() -> None:
    path = SEEDS_DIR / SEED
    if not path.exists():
        pytest.skip(f"seed file {path} is absent (the shared seeds are not mounted)")
    text = re.sub(r"\s+", "", path.read_text("utf-8"))
    # Mathematics in a quote is transcribed from the seed's rendering; its Chinese is
    # verbatim: every run of Chinese text must occur in the seed (whitespace ignored).
    for e in ENTRIES:
        for run in CHINESE.findall(re.sub(r"\s+", "", e.quote)):
            assert run in text, f"{e.id}: {run!r} is not in the seed"


def test_entries_are_well_formed() -> None:
    ids = [e.id for e in ENTRIES]
    assert len(ids) == len(set(ids))
    for e in ENTRIES:
        assert e.seed == "001"
        if e.verdict is AuditVerdict.NOT_CHECKABLE:
            assert e.method is Method.NONE and e.check is None
        elif e.method is Method.DERIVATION:
            assert e.derivations and e.check is None
        else:
            assert e.check is not None, f"{e.id} has no check"


def test_named_derivations_exist_and_match_the_errata() -> None:
    for e in ENTRIES:
        for did in e.derivations:
            d = get(did)
            if e.method is Method.DERIVATION:
                # a catalog erratum derivation backs exactly the refuted entries
                assert (d.erratum is not None) == (e.verdict is AuditVerdict.REFUTED), e.id
        if e.erratum is not None:
            if e.erratum.as_written is not None:
                assert get(e.erratum.as_written).erratum is not None
            if e.erratum.corrected is not None:
                assert get(e.erratum.corrected).erratum is None
