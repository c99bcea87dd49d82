"""The audit of seed 000 (Dwork & Roth 2014, section 3.5) re-runs: every check gives its
recorded verdict, every correction holds, every section and paragraph of the seed has an
entry, and the finite searches behind "checked" entries do refute planted mutants."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from derivations.audit import entries
from derivations.audit.seed_000 import ENTRIES, SEED
from derivations.audit.seed_000_checks import EPS_RANGE, PAIRS
from derivations.catalog import catalog
from numeric_checks.dp.finite_search import (
    FiniteStatement,
    all_of,
    hockey,
    leq,
    max_div,
    search,
)
from symbolic.audit import AuditVerdict, Method

SEED_FILE = Path(__file__).resolve().parents[1].parent / "shared" / "seeds" / SEED
HOLDS = {AuditVerdict.PROVED, AuditVerdict.CERTIFIED, AuditVerdict.CHECKED}
CHECKED = [e for e in ENTRIES if e.check is not None]
ERRATA = [e for e in ENTRIES if e.erratum is not None]
BOILERPLATE = re.compile(r"results matching")


def _seed_text() -> str:
    if not SEED_FILE.exists():
        pytest.skip(f"the seed file {SEED_FILE} is not on this machine")
    return SEED_FILE.read_text(encoding="utf-8")


@pytest.mark.parametrize("entry", CHECKED, ids=[e.id for e in CHECKED])
def test_check_gives_the_recorded_verdict(entry: Any) -> None:
    outcome = entry.check()
    if entry.verdict in HOLDS:
        assert outcome.holds is True, outcome.detail
    else:
        assert entry.verdict is AuditVerdict.REFUTED
        assert outcome.holds is False, outcome.detail


@pytest.mark.parametrize("entry", ERRATA, ids=[e.id for e in ERRATA])
def test_erratum_correction_holds(entry: Any) -> None:
    erratum = entry.erratum
    assert erratum.check_correction is not None, f"{entry.id}: no check of the correction"
    outcome = erratum.check_correction()
    assert outcome.holds is True, outcome.detail


def test_entries_are_well_formed() -> None:
    ids = [e.id for e in ENTRIES]
    assert len(set(ids)) == len(ids)
    assert all(
        i.startswith("seed-000-") and e.seed == "000" for i, e in zip(ids, ENTRIES, strict=True)
    )
    assert entries("000") == ENTRIES
    known = catalog()
    for e in ENTRIES:
        assert all(d in known for d in e.derivations), e.id
        if e.method is Method.DERIVATION:
            assert e.derivations and e.check is None, e.id
        elif e.verdict is AuditVerdict.NOT_CHECKABLE:
            assert e.method is Method.NONE and e.check is None, e.id
        else:
            assert e.check is not None, e.id
        if e.erratum is not None:
            for d in (e.erratum.as_written, e.erratum.corrected):
                assert d is None or d in known, e.id


def test_catalog_errata_are_the_ones_cited() -> None:
    known = catalog()
    step_one = next(e for e in ENTRIES if e.id == "seed-000-proof-step-1")
    assert step_one.erratum is not None
    assert known[step_one.erratum.as_written or ""].erratum is not None
    assert known[step_one.erratum.corrected or ""].erratum is None


def test_every_heading_has_an_entry() -> None:
    text = _seed_text()
    headings = [line.strip() for line in text.splitlines() if re.match(r"^\d+(\.\d+)+\s+\S", line)]
    assert headings, "the seed has no heading"
    sections = {e.section for e in ENTRIES}
    assert set(headings) == sections


def test_quotes_are_from_the_seed_and_cover_every_paragraph() -> None:
    text = _seed_text()
    for e in ENTRIES:
        assert e.quote in text, f"{e.id}: quote not in the seed: {e.quote!r}"
    paragraphs = [p.strip() for p in text.splitlines() if p.strip()]
    headings = {e.section for e in ENTRIES}
    for p in paragraphs:
        if p in headings or BOILERPLATE.search(p):
            continue
        assert any(e.quote in p for e in ENTRIES), f"no entry quotes the paragraph {p[:60]!r}"


def _product(p: Sequence[Any], q: Sequence[Any]) -> list[Any]:
    return [a * b for a in p for b in q]


def _pure_max(d: Sequence[Sequence[Any]], _: Mapping[str, Any]) -> bool | None:
    """Mutant of Theorem 3.14: max(eps_1, eps_2) instead of the sum."""
    p1, q1, p2, q2 = d
    bound = max_div(p1, q1).max(max_div(p2, q2))
    return leq(max_div(_product(p1, p2), _product(q1, q2)), bound)


def _approx_max(d: Sequence[Sequence[Any]], p: Mapping[str, Any]) -> bool | None:
    """Mutant of Theorem 3.16: max(delta_1, delta_2) instead of the sum."""
    p1, q1, p2, q2 = d
    e1, e2 = p["eps1"], p["eps2"]
    d1 = hockey(p1, q1, e1).max(hockey(q1, p1, e1))
    d2 = hockey(p2, q2, e2).max(hockey(q2, p2, e2))
    x, y = _product(p1, p2), _product(q1, q2)
    return all_of(leq(hockey(x, y, e1 + e2), d1.max(d2)), leq(hockey(y, x, e1 + e2), d1.max(d2)))


@pytest.mark.parametrize(
    "statement",
    [
        FiniteStatement("eps_1, eps_2 compose to max", 4, _pure_max, outcomes=PAIRS),
        FiniteStatement("delta_1, delta_2 compose to max", 4, _approx_max, EPS_RANGE, PAIRS),
    ],
    ids=lambda s: s.name,
)
def test_the_searches_refute_mutants(statement: FiniteStatement) -> None:
    found = search(statement, max_examples=50)
    assert found is not None
    assert all(sum(d) == 1 and all(x >= 0 for x in d) for d in found.dists)
    assert all(isinstance(v, Fraction) for v in found.params.values())
