"""The scope of every verdict (issue 24, item 5): ``general`` or ``instance``, with a note,
computed from the derivation (its declared instance, its variables, the lemmas it rests on)
and from the evidence (a certificate on a box that does not cover the domain); shown in
every output."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
import sympy as sp

from derivations.app.cli import main
from derivations.app.html.site import build_site
from derivations.catalog import catalog, get
from derivations.lemma_verdicts import with_lemma_verdicts
from derivations.printing.explain import explain
from derivations.printing.latex import derivation_latex, summary_table
from derivations.printing.text import format_report, summary
from numeric_checks import CheckOptions, check_derivation
from symbolic.derivation import Claim, Derivation, Justification, Source, Step
from symbolic.domains import Variable, parse_domain
from symbolic.families import Family, index_symbol
from symbolic.relations import Relation
from symbolic.report import CertificateRecord, CertificateStatus, DerivationReport, StepResult
from symbolic.scope import GENERAL, INSTANCE, Scope, general_note, length_symbols, scope_of
from symbolic.verdicts import Verdict

from .conftest import CLAIMS, on_the_catalog_worker

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"

INSTANCES = {
    "azuma-binomial": "on the two-point martingale C_i in {beta - w, beta + w} only",
}
"""The catalog derivations whose chain fixes the number the source leaves free."""

INSTANCE_ID = "azuma-binomial"
INSTANCE_NOTE = INSTANCES[INSTANCE_ID]
INSTANCE_WORDS = "at the instance " + INSTANCE_NOTE.removeprefix("for ")
"""How the outputs word that scope (issue 43: "for an instance" read as "at one point")."""
INSTANCE_VERDICT = "CHECKED"
"""A catalog derivation shown for an instance only: the example of the outputs' scope."""

GENERAL_N = (
    "kl-bound",
    "kl-bound-tight",
    "basic-composition-k",
    "naive-adaptive-composition",
    "exponential-mechanism",
    "parallel-composition",
    "tradeoff-zero-eps-composition",
    "gdp-composition",
)
"""Written on families of symbolic length since issue 24: no instance declared."""

CERTIFIED_ON_A_BOX = ("classical-gaussian-mechanism",)
"""A step certified on the derivation's box, which is not its domain: checked (issue 38)."""


def run(*argv: str) -> tuple[int, str]:
    out = StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


# -- the computation ------------------------------------------------------------------------

EPS = Variable("eps", parse_domain("(0, oo)"))
DELTA = Variable("delta", parse_domain("(0, 1)"))
N = Variable("n", parse_domain("Z>=1"))


def _derivation(
    variables: tuple[Variable, ...], lhs: sp.Expr, rhs: sp.Expr, **fields
) -> Derivation:
    step = Step(Relation.LE, rhs, Justification("given"))
    return Derivation(
        id="toy",
        title="toy",
        source=Source("nowhere", "1"),
        variables=variables,
        claim=Claim(lhs, Relation.LE, rhs),
        steps=(step,),
        **fields,
    )


def _step(verdict: Verdict, certificate: CertificateRecord | None = None) -> StepResult:
    return StepResult(1, "a", "<=", "b", "", verdict, "", certificate=certificate)


def _box(whole: bool) -> CertificateRecord:
    return CertificateRecord(
        CertificateStatus.CERTIFIED,
        box={"eps": (1e-6, 5.0), "delta": (1e-6, 0.999999)},
        whole_domain=whole,
    )


def test_general_note_groups_variables_by_domain() -> None:
    d = _derivation((EPS, DELTA), EPS.symbol * DELTA.symbol, EPS.symbol)
    assert scope_of(d) == Scope(GENERAL, "for all eps > 0; delta in (0, 1)")
    assert general_note([Variable("x", parse_domain("R")), Variable("y", parse_domain("R"))]) == (
        "for all x, y real"
    )


def test_a_sums_upper_limit_is_a_length() -> None:
    i = sp.Symbol("i", integer=True, positive=True)
    total = sp.Sum(EPS.symbol / 2**i, (i, 1, N.symbol))
    d = _derivation((EPS, N), total, EPS.symbol)
    assert length_symbols(d) == {N.symbol}
    assert scope_of(d).note == "for all n >= 1; eps > 0"
    # The same integer, not a length: said as an integer variable, in declaration order.
    plain = _derivation((EPS, N), EPS.symbol / N.symbol, EPS.symbol)
    assert length_symbols(plain) == set()
    assert scope_of(plain).note == "for all eps > 0; integers n >= 1"


def test_a_familys_range_makes_its_length_a_length() -> None:
    p = Variable("p", parse_domain("(0, 1)"), family=Family("i", sp.Integer(1), N.symbol))
    q = Variable("q", parse_domain("(0, 1)"), family=Family("i", sp.Integer(1), N.symbol))
    i = index_symbol("i")
    total = sp.Sum(p.base[i] * q.base[i], (i, 1, N.symbol))
    d = _derivation((EPS, p, q, N), EPS.symbol * total, EPS.symbol)
    assert length_symbols(d) == {N.symbol}
    assert scope_of(d).note == "for all n >= 1; eps > 0; p[i], q[i] in (0, 1)"


def test_a_declared_instance_is_an_instance_whatever_the_verdict() -> None:
    d = _derivation((EPS,), EPS.symbol, EPS.symbol + 1, instance="for n = 3 only")
    for verdict in Verdict:
        assert scope_of(d, (_step(verdict),)) == Scope(INSTANCE, "for n = 3 only")
    # The same derivation without the note is general: nothing else makes it an instance.
    assert scope_of(d.replace(instance=""), (_step(Verdict.PROVED),)).scope == GENERAL


def test_a_certificate_on_a_box_scopes_a_certified_verdict_only() -> None:
    d = _derivation((EPS, DELTA), EPS.symbol * DELTA.symbol, EPS.symbol)
    on_box = (_step(Verdict.PROVED), _step(Verdict.CERTIFIED, _box(whole=False)))
    assert scope_of(d, on_box) == Scope(
        INSTANCE, "on the box eps in [1e-6, 5], delta in [1e-6, 0.999999]"
    )
    # A certificate covering the whole domain, or one the verdict does not rest on (a
    # weaker step decides), leaves the scope general.
    whole = (_step(Verdict.CERTIFIED, _box(whole=True)),)
    assert scope_of(d, whole).scope == GENERAL
    weaker = (*on_box, _step(Verdict.CHECKED))
    assert scope_of(d, weaker).scope == GENERAL


def test_a_lemma_shown_for_an_instance_carries_over() -> None:
    d = get("advanced-composition")
    lemma = Scope(INSTANCE, "for n = 3 outcomes only")
    scoped = scope_of(d, verdict=Verdict.PROVED, lemma_scope={"kl-bound": lemma}.get)
    assert scoped == Scope(INSTANCE, "rests on kl-bound, for n = 3 outcomes only")
    general = scope_of(d, verdict=Verdict.PROVED, lemma_scope=lambda _: Scope(GENERAL, "x"))
    assert general.scope == GENERAL


def test_every_instance_declares_its_note() -> None:
    for ident, note in INSTANCES.items():
        assert get(ident).instance == note, ident
    assert not get("laplace-ratio").instance and not get("basic-composition").instance
    assert not any(get(ident).instance for ident in GENERAL_N)


# -- the catalog's reports ------------------------------------------------------------------


@on_the_catalog_worker
def test_catalog_scopes(catalog_reports: dict[str, DerivationReport]) -> None:
    for ident, note in INSTANCES.items():
        r = catalog_reports[ident]
        assert (r.scope, r.scope_note) == (INSTANCE, note), ident
    assert catalog_reports["laplace-ratio"].scope == GENERAL
    assert catalog_reports["laplace-ratio"].scope_note == "for all eps, Delta > 0; z, fx, fy real"
    for ident in CERTIFIED_ON_A_BOX:
        # A box short of the domain certifies no verdict: the step is checked, its scope
        # general (sampled over the whole domain), the box in its evidence.
        r = catalog_reports[ident]
        assert r.verdict is Verdict.CHECKED
        assert r.scope == GENERAL and r.scope_note.startswith("for all eps in (0, 1]"), ident
        boxed = [s for s in r.steps if s.certificate is not None]
        assert boxed and all(not s.certificate.whole_domain for s in boxed)  # type: ignore[union-attr]
        assert all("which is not the whole domain" in s.evidence for s in boxed)
    for ident in GENERAL_N:
        r = catalog_reports[ident]
        assert r.verdict is Verdict.PROVED and r.scope == GENERAL, ident
        assert r.scope_note.startswith(("for all n >= 1", "for all k >= 1")), r.scope_note
    # advanced-composition rests on kl-bound, now proved for every n.
    assert catalog_reports["advanced-composition"].scope == GENERAL
    assert all(r.scope in (GENERAL, INSTANCE) and r.scope_note for r in catalog_reports.values())


@on_the_catalog_worker
def test_summary_splits_proved_by_scope(catalog_reports: dict[str, DerivationReport]) -> None:
    reports = list(catalog_reports.values())
    proved = [r for r in reports if r.verdict is Verdict.PROVED]
    general = sum(1 for r in proved if r.scope == GENERAL)
    line = summary(reports)
    split = [f"{general} in general"] + (
        [f"{len(proved) - general} at an instance or on a box"] if len(proved) > general else []
    )
    # The bases follow the scopes after a semicolon (symbolic.basis).
    expected = f"{len(proved)} proved ({', '.join(split)}; "
    assert expected in line, line
    # The catalog's one box certificate is not its domain: nothing is certified (issue 38).
    assert " certified" not in line, line


@on_the_catalog_worker
def test_text_explain_latex_and_html_show_the_scope(
    catalog_reports: dict[str, DerivationReport], tmp_path: Path
) -> None:
    em, laplace = catalog_reports[INSTANCE_ID], catalog_reports["laplace-ratio"]
    text = format_report(em)
    assert text.startswith(f"{INSTANCE_ID}: {INSTANCE_VERDICT} ({INSTANCE_NOTE})")
    assert f"scope: {INSTANCE_WORDS}" in text
    assert "scope: in general: for all eps, Delta > 0" in format_report(laplace)
    assert "scope: in general: for all n >= 1" in format_report(catalog_reports["kl-bound"])

    lesson = explain(get(INSTANCE_ID), em)
    assert f"Scope: {INSTANCE_WORDS}." in lesson
    assert "Scope: in general:" in explain(get("laplace-ratio"), laplace)

    latex = derivation_latex(get(INSTANCE_ID), em)
    # The report's line escapes the note as LaTeX text (the braces of {beta - w, ...}).
    assert r"\textbf{Scope.}" in latex and "at the instance on the two-point" in latex
    ids = (INSTANCE_ID, "laplace-ratio")
    table = summary_table([get(i) for i in ids], catalog_reports)
    assert f"{INSTANCE_VERDICT.lower()} (instance)" in table and table.count("(instance)") == 1

    build_site(tmp_path, [get(i) for i in ids], {i: catalog_reports[i] for i in ids}, plots=False)
    page = (tmp_path / "theorems" / f"{INSTANCE_ID}.html").read_text(encoding="utf-8")
    assert 'class="scope scope-instance"' in page and INSTANCE_NOTE in page
    other = (tmp_path / "theorems" / "laplace-ratio.html").read_text(encoding="utf-8")
    assert 'class="scope scope-general"' in other
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert index.count('class="tag instance"') == 1


@on_the_catalog_worker
def test_lemma_scopes_are_filled_in_from_the_run(
    catalog_reports: dict[str, DerivationReport],
) -> None:
    # Checked without kl-bound in the run, advanced-composition takes the scope kl-bound
    # declares: none (it is general since issue 24); a kl-bound declared an instance (a
    # mutant with a note) makes it an instance.
    advanced = catalog_reports["advanced-composition"]
    derivations = {d.id: d for d in catalog().values()}
    (alone,) = with_lemma_verdicts([advanced], derivations)
    assert alone.scope == GENERAL
    note = "for n = 3 outcomes only"
    narrow = derivations | {"kl-bound": derivations["kl-bound"].replace(instance=note)}
    (rebased,) = with_lemma_verdicts([advanced], narrow)
    assert rebased.scope == INSTANCE and "kl-bound" in rebased.scope_note


# -- the command line -----------------------------------------------------------------------


def test_check_json_has_scope() -> None:
    code, text = run("check", "laplace-ratio", INSTANCE_ID, "--json", "--points", "40")
    assert code == 0
    laplace, parts = json.loads(text)
    assert laplace["scope"] == GENERAL and laplace["scope_note"].startswith("for all eps")
    assert parts["scope"] == INSTANCE
    assert parts["scope_note"] == INSTANCE_NOTE


def test_check_text_headline_and_summary() -> None:
    code, text = run("check", INSTANCE_ID, "--points", "40")
    assert code == 0
    assert f"{INSTANCE_ID}: {INSTANCE_VERDICT} ({INSTANCE_NOTE})" in text
    assert "1 derivation(s): 1 checked" in text  # checked: no scope split
    code, text = run("check", "laplace-ratio", "--points", "40")
    assert "1 derivation(s): 1 proved (1 in general; 1 outright)" in text


def test_summary_counts_a_proved_instance() -> None:
    report = check_derivation(
        get("basic-composition").replace(instance="for 2 mechanisms only"),
        CheckOptions(points=40, search_budget=20),
    )
    assert report.verdict is Verdict.PROVED and report.scope == INSTANCE
    assert "1 derivation(s): 1 proved (1 at an instance or on a box" in summary([report])


def test_verify_json_and_text_have_scope() -> None:
    example = str(EXAMPLES / "laplace_ratio.toml")
    code, text = run("verify", example, "--json", "--points", "40")
    data = json.loads(text)
    assert code == 0 and data["verdict"] == "proved"
    assert data["scope"] == GENERAL and data["scope_note"].startswith("for all ")
    code, text = run("verify", example, "--points", "40")
    assert "  scope: in general: for all " in text


def test_claim_json_scope_general_and_on_a_box(tmp_path: Path) -> None:
    code, text = run("claim", str(CLAIMS / "laplace_true.toml"), "--json", "--points", "40")
    data = json.loads(text)
    assert code == 0 and data["scope"] == GENERAL and data["scope_note"].startswith("for all ")
    # Phi(x) >= 1 - exp(-x^2/2)/2 on (0, 4): no rule proves it, Arb certifies it on the box
    # cut 1e-6 inside the open end, which is not the domain: checked (issue 38), in general
    # (sampled over the whole domain), the box in the evidence.
    claim = tmp_path / "phi.toml"
    claim.write_text(
        '[claim]\nlhs = "Phi(x)"\nrelation = ">="\nrhs = "1 - exp(-x**2/2)/2"\n'
        '[variables]\nx = "(0, 4)"\n',
        encoding="utf-8",
    )
    code, text = run("claim", str(claim), "--json", "--points", "40")
    data = json.loads(text)
    assert data["verdict"] == "checked"
    assert data["scope"] == GENERAL and data["scope_note"] == "for all x in (0, 4)"
    assert "certified on x in [1e-06, 4]" in data["evidence"]
    assert "which is not the whole domain" in data["evidence"]
    code, text = run("claim", str(claim), "--points", "40")
    assert "scope: in general: for all x in (0, 4)" in text


def test_a_sum_claim_is_general_for_every_length(tmp_path: Path) -> None:
    claim = tmp_path / "sum.toml"
    claim.write_text(
        '[claim]\nlhs = "Sum(1/2**k, (k, 1, n))"\nrelation = "<"\nrhs = "1"\n'
        '[variables]\nn = "Z>=1"\n',
        encoding="utf-8",
    )
    _, text = run("claim", str(claim), "--json", "--points", "20")
    data = json.loads(text)
    assert (data["scope"], data["scope_note"]) == (GENERAL, "for all n >= 1")


@pytest.mark.parametrize("ident", [INSTANCE_ID, "laplace-ratio"])
def test_explain_without_a_check_says_a_declared_instance(ident: str) -> None:
    code, text = run("explain", ident, "--no-check")
    assert code == 0
    assert ("Scope: the chain proves an instance" in text) == (ident == INSTANCE_ID)
