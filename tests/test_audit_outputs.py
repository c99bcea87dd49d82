"""The audit's outputs: `dpderive audit` and `dpderive errata` (text and stable JSON), the
generated docs kept fresh, bad input refused with the known names."""

from __future__ import annotations

import io
import json

import pytest

from derivations.app.cli import main
from derivations.audit import entries, errata, seed_names
from derivations.audit.docs import DOCS, render
from derivations.catalog import catalog
from symbolic.audit import AuditVerdict


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


def test_every_seed_is_audited_and_every_entry_well_formed() -> None:
    assert set(seed_names()) == {"000", "001", "002", "003", "004"}
    ids = [e.id for e in entries()]
    assert len(ids) == len(set(ids))
    known = set(catalog())
    for e in entries():
        assert e.id.startswith(f"seed-{e.seed}-")
        assert set(e.derivations) <= known, e.id
        assert (
            e.check is not None
            or e.check_spec
            or e.derivations
            or e.verdict is AuditVerdict.NOT_CHECKABLE
        )
    for _, x in errata():
        assert x.check_correction is not None, x.id
        assert {x.as_written, x.corrected} - {None} <= known, x.id


def test_audit_json_is_stable_and_counts_add_up() -> None:
    code, text = run("audit", "--json")
    assert code == 0
    data = json.loads(text)
    assert set(data) == {"counts", "seeds"}
    assert data["counts"]["total"] == len(entries())
    for seed in data["seeds"]:
        assert set(seed) == {"seed", "file", "counts", "entries"}
        assert sum(v for k, v in seed["counts"].items() if k != "total") == seed["counts"]["total"]
        assert set(seed["entries"][0]) == {
            "id",
            "section",
            "quote",
            "claim",
            "method",
            "verdict",
            "detail",
            "readings",
            "derivations",
            "erratum",
            "severity",
            "check",
            "scope",
            "basis",
            "notes",
            "not_erratum",
            "not_checkable",
            "edge",
        }


def test_audit_of_one_seed_by_number_or_file_name() -> None:
    code, text = run("audit", "002")
    assert code == 0 and text.startswith("audit of 1 seed file(s)")
    name = seed_names()["002"]
    assert run("audit", name)[1] == text


def test_errata_json_fields() -> None:
    code, text = run("errata", "--json")
    rows = json.loads(text)
    assert code == 0 and len(rows) == len(errata()) >= 15
    assert set(rows[0]) == {
        "id",
        "entry",
        "seed",
        "section",
        "quote",
        "kind",
        "claim",
        "wrong",
        "counterexample",
        "correction",
        "as_written",
        "corrected",
        "severity",
        "aliases",
        "check",
        "scope",
        "basis",
        "role",
        "edge",
        "edge_note",
    }
    assert all(isinstance(r["edge"], bool) for r in rows)
    assert all(r["role"] in ("statement", "slip", "step", "aside") for r in rows)
    severities = [r["severity"] for r in rows]
    order = ["false", "typo", "gap", "wording"]
    assert severities == sorted(severities, key=order.index), "errata are listed by severity"
    one = rows[0]["id"]
    assert json.loads(run("errata", one, "--json")[1])[0]["id"] == one
    merged = next(r for r in rows if r["aliases"])
    alias = merged["aliases"][0]
    assert [r["id"] for r in json.loads(run("errata", alias, "--json")[1])] == [merged["id"]]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("audit", "999"), "unknown seed '999'; audited seeds: 000"),
        (("errata", "seed-000-nope"), "known ids: seed-"),
    ],
)
def test_unknown_seed_or_erratum_exits_2_with_the_known_names(
    argv: tuple[str, ...],
    message: str,
    capsys: pytest.CaptureFixture,  # type: ignore[type-arg]
) -> None:
    assert run(*argv)[0] == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("name", ["audit.md", "errata.md"])
def test_generated_docs_are_fresh(name: str) -> None:
    committed = (DOCS / name).read_text(encoding="utf-8")
    assert committed == render()[name], (
        f"docs/{name} is stale: run `python3 -m derivations.audit.docs` and commit"
    )
