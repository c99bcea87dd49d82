"""The dpderive command line: outputs, JSON fields and exit codes (public interfaces)."""

from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO

import pytest

from derivations.app.cli import main
from derivations.catalog import catalog
from derivations.printing.text import format_report, summary
from symbolic.report import DerivationReport

from .conftest import BAD_CLAIMS, CLAIMS, on_the_catalog_worker


def run(*argv: str) -> tuple[int, str]:
    out = StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def test_list() -> None:
    code, text = run("list")
    assert code == 0 and "laplace-ratio" in text
    code, text = run("list", "--json")
    rows = json.loads(text)
    assert {"id", "title", "source", "erratum"} <= set(rows[0])


def test_check_json_fields() -> None:
    code, text = run("check", "laplace-ratio", "--json", "--points", "60")
    assert code == 0
    (r,) = json.loads(text)
    assert r["id"] == "laplace-ratio" and r["verdict"] == "proved"
    assert "Theorem 3.6" in r["source"]
    assert len(r["steps"]) == 6
    assert all({"verdict", "evidence"} <= set(s) for s in r["steps"])
    assert r["oracle"]["agrees"] is True


@on_the_catalog_worker
def test_check_all_text(catalog_reports: dict[str, DerivationReport]) -> None:
    """The whole catalog as ``check --all`` prints it: every derivation as expected (errata
    refuted, the rest not).  The CLI's own ``--all`` path is tested on small catalogs
    below; the reports are the session's one check of the catalog."""
    reports = list(catalog_reports.values())
    text = "".join(format_report(r) for r in reports) + summary(reports)
    assert [r.id for r in reports] == list(catalog())
    assert all(r.as_expected for r in reports), [r.id for r in reports if not r.as_expected]
    assert "laplace-ratio: PROVED" in text and "step 4 [<=] proved" in text


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["check"], "give derivation ids"),
        (["check", "no-such-id"], "unknown derivation id"),
        (["check", "laplace-ratio", "--all"], "not both"),
        (["check", "laplace-ratio", "--points", "0"], "must be >= 1"),
        (["check", "laplace-ratio", "--digits", "5"], "at least 15 digits"),
        (["frobnicate"], "invalid choice"),
        (["latex", "nope"], "unknown derivation id"),
    ],
)
def test_bad_arguments_exit_2(
    argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = run(*argv)
    err = capsys.readouterr().err
    assert code == 2 and fragment in err and "Traceback" not in err


def test_claim_exit_codes_and_json() -> None:
    code, text = run("claim", str(CLAIMS / "integer_false.toml"), "--json")
    data = json.loads(text)
    assert code == 1
    assert {"verdict", "counterexample", "points", "digits"} <= set(data)
    assert data["counterexample"] == {"n": "3"} or data["counterexample"] == {"n": "2"}
    code, text = run("claim", str(CLAIMS / "integer_false.toml"))
    assert code == 1 and "verdict: refuted" in text and "counterexample" in text


def test_latex_and_explain() -> None:
    code, text = run("latex", "laplace-ratio", "--standalone")
    assert code == 0 and text.startswith("\\documentclass") and "\\begin{align*}" in text
    assert text.rstrip().endswith("\\end{document}")
    code, text = run("explain", "laplace-ratio")
    assert code == 0 and "Step 4." in text and "How it was checked: proved" in text


def test_latex_to_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "laplace.tex"
    code, text = run("latex", "laplace-ratio", "-o", str(target))
    assert code == 0 and "align*" in target.read_text()
    # The one line on stdout says what was written (it was silent: issue 29).
    assert text == f"wrote {target} (LaTeX, {target.stat().st_size} bytes)\n"


def test_console_entry_point_has_no_traceback() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "derivations", "claim", str(BAD_CLAIMS / "malformed.toml")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert "malformed TOML" in proc.stderr and "Traceback" not in proc.stderr


def _catalog_with(monkeypatch: pytest.MonkeyPatch, *extra) -> None:  # type: ignore[no-untyped-def]
    import derivations.catalog as cat

    table = {d.id: d for d in extra}
    monkeypatch.setattr(cat, "catalog", lambda: table)
    monkeypatch.setattr("derivations.app.cli.catalog", lambda: table)


def _laplace_variant(new_id: str, wrong: bool, erratum: str | None):  # type: ignore[no-untyped-def]
    import sympy as sp

    from derivations.catalog import get

    d = get("laplace-ratio")
    if wrong:
        d = d.with_step(5, expr=sp.exp(d.symbols["eps"] / 2))
    return d.replace(id=new_id, erratum=erratum, oracle=None)


def test_erratum_refuted_as_expected_does_not_fail_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    _catalog_with(monkeypatch, _laplace_variant("seed-as-written", True, "halves eps"))
    code, text = run("check", "--all", "--points", "30", "--search", "30")
    assert code == 0 and "refuted as expected" in text


def test_erratum_that_is_not_refuted_fails_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    _catalog_with(monkeypatch, _laplace_variant("not-really-wrong", False, "claimed wrong"))
    code, text = run("check", "--all", "--points", "30", "--search", "30")
    assert code == 1 and "NOT refuted (unexpected)" in text


def test_refuted_derivation_fails_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    _catalog_with(monkeypatch, _laplace_variant("wrong", True, None))
    code, text = run("check", "--all", "--json", "--points", "30", "--search", "30")
    (r,) = json.loads(text)
    assert code == 1 and r["verdict"] == "refuted" and r["expected_refuted"] is False
