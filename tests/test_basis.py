"""The basis of a verdict (issue 25): outright, from foundations or from cited results,
computed from the transitive lemma closure and the run's verdicts; shown in the reports; a
cycle of lemma uses and an unknown foundation are bad input."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from derivations.app import cli
from derivations.app.cli import main
from derivations.app.parallel import check_many
from derivations.catalog import catalog
from derivations.lemma_verdicts import lemma_targets
from derivations.printing.text import format_report, summary
from numeric_checks import CheckOptions
from symbolic.basis import (
    FROM_CITED,
    FROM_FOUNDATIONS,
    NONE,
    NOT_CHECKED_HERE,
    OUTRIGHT,
    basis_of,
    basis_phrase,
    lemma_closure,
    used_by,
)
from symbolic.derivation import Derivation, Justification, Source
from symbolic.domains import Variable, parse_domain
from symbolic.errors import InvalidInput
from symbolic.kit import By, by, chain
from symbolic.report import DerivationReport, Reliance
from symbolic.verdicts import Verdict

from .conftest import on_the_catalog_worker

HEADLINE_BASIS = {
    "laplace-ratio": (OUTRIGHT, []),
    "kl-bound": (OUTRIGHT, ["gibbs-inequality"]),
    # The chain rests on catalog lemmas down to foundations, and so does its bridge to
    # (eps', k delta + delta')-DP: approx-composition-cost, the mixture form of an (eps,
    # delta)-DP round that Dwork & Roth's proof takes from Lemma 3.17.
    "advanced-composition": (
        FROM_FOUNDATIONS,
        [
            "azuma-inequality",
            "kl-bound",
            "approx-composition-cost",
            "hoeffding-lemma",
            "gibbs-inequality",
            "approx-dp-good-part-mass",
            "approx-dp-good-part-ratio",
            "approx-dp-good-part-below",
            "hoeffding-chord",
            "approx-max-divergence-definition",
            "markov-inequality",
            "tower-property",
            "total-probability",
            "union-bound",
            "linearity-of-expectation",
        ],
    ),
    "numeric-sparse-accuracy-pure": (
        FROM_FOUNDATIONS,
        [
            "numeric-sparse-accuracy-bound-pure",
            "laplace-tail",
            "sparse-accuracy-pure",
            "above-threshold-accuracy",
            "union-bound",
        ],
    ),
    "numeric-sparse-accuracy-approx": (
        FROM_FOUNDATIONS,
        [
            "numeric-sparse-accuracy-bound-approx",
            "laplace-tail",
            "sparse-accuracy-approx",
            "above-threshold-accuracy",
            "union-bound",
        ],
    ),
    "gdp-to-dp": (OUTRIGHT, []),
}
"""The headline theorems' basis on this branch, and the start of each thing they rest on
(the one place to update when a cited result becomes a catalog lemma)."""

X = Variable("x", parse_domain("(0, oo)"))


def _d(ident: str, *whys: Justification) -> Derivation:
    """``x <= x + 1 <= ... `` with one step per justification given (each step adds 1)."""
    c = chain(X.symbol)
    for k, why in enumerate(whys or (by.algebra(),), start=1):
        c = c.le(X.symbol + k, why)
    return c.derive(id=ident, title=ident, variables=(X,), source=Source("test", "none"))


def _table(*ds: Derivation) -> dict[str, Derivation]:
    return {d.id: d for d in ds}


# -- the pure logic --------------------------------------------------------------------------


def test_outright_foundations_and_cited_are_computed_from_the_closure() -> None:
    base = _d("base")
    found = _d("found", by.foundation("union-bound"))
    cited = _d("cited", by.cite("Someone 1999, Theorem 1"))
    top = _d("top", by.lemma("mid"), by.lemma("base"))
    mid = _d("mid", by.lemma("found"))
    table = _table(base, found, cited, top, mid)
    proved = {k: Verdict.PROVED for k in table}
    look = table.get

    assert basis_of(base, Verdict.PROVED, look, proved.get).basis == OUTRIGHT
    b = basis_of(top, Verdict.PROVED, look, proved.get)
    assert b.basis == FROM_FOUNDATIONS
    # Nearest first: the lemmas top cites, then what they rest on.
    assert [(r.kind, r.ref) for r in b.rests_on] == [
        ("lemma", "mid"),
        ("lemma", "base"),
        ("lemma", "found"),
        ("foundation", "union-bound"),
    ]
    assert basis_phrase(b.basis, b.rests_on) == "from foundations: union-bound"
    assert basis_of(cited, Verdict.PROVED, look, proved.get).basis == FROM_CITED
    # A certified verdict is a proof too.
    assert basis_of(base, Verdict.CERTIFIED, look, proved.get).basis == OUTRIGHT


def test_a_weak_or_unchecked_lemma_makes_the_basis_cited() -> None:
    base, top = _d("base"), _d("top", by.lemma("base"))
    look = _table(base, top).get
    for verdict in (Verdict.CHECKED, Verdict.UNDECIDED, Verdict.REFUTED):
        b = basis_of(top, Verdict.PROVED, look, {"base": verdict}.get)
        assert b.basis == FROM_CITED
        assert b.rests_on == (Reliance("lemma", "base", verdict.value),)
    b = basis_of(top, Verdict.PROVED, look, lambda _: None)
    assert (b.basis, b.rests_on[0].verdict) == (FROM_CITED, NOT_CHECKED_HERE)
    assert "base (not checked in this run)" in basis_phrase(b.basis, b.rests_on)
    # A proved lemma resting on a cited result passes it on.
    low = _d("low", by.cite("Azuma 1967"))
    mid = _d("mid", by.lemma("low"))
    b = basis_of(mid, Verdict.PROVED, _table(low, mid).get, lambda _: Verdict.PROVED)
    assert basis_phrase(b.basis, b.rests_on) == "from cited results: Azuma 1967 (unchecked)"


def test_a_verdict_that_is_not_a_proof_has_basis_none_and_still_lists_what_it_rests_on() -> None:
    d = _d("d", by.cite("Azuma 1967"))
    for verdict in (Verdict.CHECKED, Verdict.UNDECIDED, Verdict.REFUTED):
        b = basis_of(d, verdict, lambda _: None, lambda _: None)
        assert b.basis == NONE
        assert b.rests_on == (Reliance("cite", "Azuma 1967", "unchecked"),)
        assert basis_phrase(b.basis, b.rests_on) == ""


def test_a_cycle_of_lemma_uses_is_bad_input_naming_it() -> None:
    a, b, c = _d("a", by.lemma("b")), _d("b", by.lemma("c")), _d("c", by.lemma("a"))
    with pytest.raises(InvalidInput, match=r"a cycle of lemma uses: a -> b -> c -> a"):
        lemma_closure(a, _table(a, b, c).get)
    selfish = _d("s", by.lemma("s"))
    with pytest.raises(InvalidInput, match=r"s -> s"):
        lemma_closure(selfish, _table(selfish).get)
    # A diamond is no cycle.
    top, left, right, bottom = (
        _d("top", by.lemma("left"), by.lemma("right")),
        _d("left", by.lemma("bottom")),
        _d("right", by.lemma("bottom")),
        _d("bottom"),
    )
    table = _table(top, left, right, bottom)
    assert lemma_closure(top, table.get) == ["left", "right", "bottom"]
    assert used_by(table.values(), table.get)["bottom"] == ["top", "left", "right"]


def test_the_bridge_counts_like_a_step() -> None:
    d = _d("d").replace(bridge=(by.cite("Azuma 1967"),))
    assert basis_of(d, Verdict.PROVED, lambda _: None, lambda _: None).basis == FROM_CITED


def test_an_unknown_foundation_is_bad_input_naming_the_list() -> None:
    with pytest.raises(InvalidInput, match="union-bound, total-probability"):
        By().foundation("axiom of choice")


# -- the catalog -----------------------------------------------------------------------------


def test_the_catalog_has_no_cycle_and_its_lemmas_resolve() -> None:
    table = catalog()
    for d in table.values():
        for ident in lemma_closure(d, table.get):
            assert ident in table


@on_the_catalog_worker
@pytest.mark.parametrize("did", sorted(HEADLINE_BASIS))
def test_headline_basis_pinned(did: str, catalog_reports: dict[str, DerivationReport]) -> None:
    basis, starts = HEADLINE_BASIS[did]
    r = catalog_reports[did]
    assert r.basis == basis, (did, r.basis, r.rests_on)
    refs = [x.ref for x in r.rests_on]
    assert len(refs) == len(starts), refs
    assert all(ref.startswith(s) for ref, s in zip(refs, starts, strict=True)), refs


@on_the_catalog_worker
def test_every_catalog_report_has_a_basis_and_summary_counts_them(
    catalog_reports: dict[str, DerivationReport],
) -> None:
    reports = list(catalog_reports.values())
    for r in reports:
        proof = r.verdict in (Verdict.PROVED, Verdict.CERTIFIED)
        assert (r.basis != NONE) == proof, (r.id, r.verdict, r.basis)
    line = summary(reports)
    proved = [r for r in reports if r.verdict is Verdict.PROVED]
    outright = sum(1 for r in proved if r.basis == OUTRIGHT)
    assert f"{outright} outright" in line, line
    text = format_report(catalog_reports["laplace-ratio"])
    assert text.startswith("laplace-ratio: PROVED outright  ")
    text = format_report(catalog_reports["advanced-composition"])
    assert text.startswith(
        "advanced-composition: PROVED from foundations: approx-max-divergence-definition"
    ), text


# -- runs: check ID brings the lemmas below it into the run ------------------------------------


def test_lemma_targets_adds_the_closure_once() -> None:
    table = catalog()
    run = lemma_targets([table["advanced-composition"]])
    closure = ["azuma-inequality", "kl-bound", "approx-composition-cost", "hoeffding-lemma"]
    good_parts = [f"approx-dp-good-part-{x}" for x in ("mass", "ratio", "below")]
    assert [d.id for d in run] == [
        "advanced-composition",
        *closure,
        "gibbs-inequality",
        *good_parts,
        "hoeffding-chord",
    ]
    both = lemma_targets([table["kl-bound"], table["advanced-composition"]])
    ids = [d.id for d in both]
    assert ids[:2] == ["kl-bound", "advanced-composition"] and len(ids) == len(set(ids)) == 10


def test_a_run_without_the_lemma_says_not_checked_and_cited() -> None:
    base = _d("basis-base")
    top = _d("basis-top", by.lemma("basis-base"))
    options = CheckOptions(points=8, search_budget=20, oracle=False, certify=False)
    alone = check_many([top], options)[0]
    assert alone.basis == FROM_CITED
    assert alone.rests_on == (Reliance("lemma", "basis-base", NOT_CHECKED_HERE),)
    together = check_many([top, base], options)
    assert [r.basis for r in together] == [OUTRIGHT, OUTRIGHT]
    assert together[0].rests_on == (Reliance("lemma", "basis-base", "proved"),)


def test_a_cycle_through_the_cli_is_exit_2_naming_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = _d("cyc-a", by.lemma("cyc-b")), _d("cyc-b", by.lemma("cyc-a"))
    table = _table(a, b)
    monkeypatch.setattr(cli, "catalog_entry", table.__getitem__)
    monkeypatch.setattr("derivations.lemma_verdicts.lookup", table.get)
    assert main(["check", "cyc-a"], io.StringIO()) == 2
    assert "a cycle of lemma uses: cyc-a -> cyc-b -> cyc-a" in capsys.readouterr().err


# -- user proofs -----------------------------------------------------------------------------

PROOF = """
title = "a proof resting on {what}"
[variables]
x = "(0, oo)"
[[steps]]
lhs = "x"
relation = "<="
rhs = "x + 1"
by = "{by}"
"""


def _verify(tmp_path: Path, spec: str) -> tuple[int, dict[str, object], str]:
    f = tmp_path / "p.toml"
    f.write_text(PROOF.format(what=spec, by=spec), encoding="utf-8")
    out = io.StringIO()
    code = main(["verify", str(f), "--json", "--points", "20"], out)
    return code, (json.loads(out.getvalue()) if out.getvalue() else {}), str(f)


def test_a_user_proof_citing_a_foundation_is_from_foundations(tmp_path: Path) -> None:
    code, data, _ = _verify(tmp_path, "foundation:Markov inequality")
    assert code == 0
    assert data["basis"] == FROM_FOUNDATIONS
    assert data["rests_on"] == [
        {"kind": "foundation", "ref": "markov-inequality", "verdict": "foundation"}
    ]


def test_a_user_proof_citing_a_lemma_folds_in_its_basis(tmp_path: Path) -> None:
    # advanced-composition rests on catalog lemmas down to foundations, its bridge included
    # (approx-composition-cost): so does a proof citing it, with the lemmas' verdicts of this
    # run.
    code, data, _ = _verify(tmp_path, "lemma:advanced-composition")
    assert code == 0
    assert data["basis"] == FROM_FOUNDATIONS
    kinds = [(r["kind"], r["ref"], r["verdict"]) for r in data["rests_on"]]  # type: ignore[attr-defined]
    assert kinds[:4] == [
        ("lemma", "advanced-composition", "proved"),
        ("lemma", "azuma-inequality", "proved"),
        ("lemma", "kl-bound", "proved"),
        ("lemma", "approx-composition-cost", "proved"),
    ]
    assert not [ref for kind, ref, _ in kinds if kind == "cite"]


def test_a_user_proof_citing_a_lemma_from_cited_results_is_from_cited_results(
    tmp_path: Path,
) -> None:
    # gdp-gaussian-mechanism cites the invariance of trade-off functions under bijections.
    code, data, _ = _verify(tmp_path, "lemma:gdp-gaussian-mechanism")
    assert code == 0
    assert data["basis"] == FROM_CITED
    kinds = [(r["kind"], r["ref"], r["verdict"]) for r in data["rests_on"]]  # type: ignore[attr-defined]
    assert kinds[0] == ("lemma", "gdp-gaussian-mechanism", "proved")
    cites = [ref for kind, ref, _ in kinds if kind == "cite"]
    assert len(cites) == 1 and "invariant under bijections" in cites[0]


def test_an_unknown_foundation_in_a_proof_file_is_exit_2_with_the_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, _ = _verify(tmp_path, "foundation:law of large numbers")
    assert code == 2
    err = capsys.readouterr().err
    assert "'law of large numbers' is not a named foundation" in err
    assert "neyman-pearson" in err and "union-bound" in err


def test_claim_json_has_a_basis() -> None:
    claims = Path(__file__).parent / "claims"
    out = io.StringIO()
    code = main(["claim", str(claims / "family_kl_true.toml"), "--json"], out)
    data = json.loads(out.getvalue())
    assert code == 0 and data["verdict"] in ("proved", "certified", "checked")
    expected = OUTRIGHT if data["verdict"] in ("proved", "certified") else NONE
    assert (data["basis"], data["rests_on"]) == (expected, [])
