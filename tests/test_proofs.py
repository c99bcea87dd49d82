"""Users' own proofs: proof files (TOML steps, a LaTeX block, a .tex file), `dpderive verify`,
the author's LaTeX given back annotated, and the authoring kit."""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path

import pytest
import sympy as sp

from derivations.app import cli
from derivations.app.cli import main
from derivations.catalog import catalog
from derivations.printing.latex import derivation_latex
from numeric_checks import CheckOptions, check_derivation
from symbolic.derivation import Derivation, JustificationKind, Source
from symbolic.domains import POSITIVE, Variable
from symbolic.errors import IllFormedDerivation, InvalidInput
from symbolic.kit import by, chain, justification_from_spec
from symbolic.readers.proof_files import load_proof, parse_proof
from symbolic.report import DerivationReport, StepResult
from symbolic.verdicts import Verdict

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
FAST = ["--points", "40", "--search", "60"]
OPTIONS = CheckOptions(points=40, search_budget=60)


_CHECKED: list[tuple[Derivation, CheckOptions, DerivationReport]] = []
"""The proofs that ``verify`` checked in this test process, for :func:`one_check_per_proof`."""


@pytest.fixture
def one_check_per_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    """``verify`` checks a proof file once per test process: a test that only prints a report
    already made for an equal proof at equal options (the budget aside, which ``verify``
    shortens by the time reading took) prints that one instead of checking it again.  Only
    for tests that change nothing of the engine."""
    check_one = cli._check_one

    def shared(d: Derivation, options: CheckOptions) -> DerivationReport:
        key = dataclasses.replace(options, budget=1.0)  # any: the budget is not compared
        for done, at, report in _CHECKED:
            if done == d and at == key:
                return report
        report = check_one(d, options)
        _CHECKED.append((d, key, report))
        return report

    monkeypatch.setattr(cli, "_check_one", shared)


KL_BOUND_PROOFS = pytest.mark.xdist_group("kl-bound-proofs")
"""The tests that verify the kl-bound proof files (~12 s a check on a quiet machine): on one
worker, so that :func:`one_check_per_proof` checks each file once for all of them."""


def _verify(*args: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    out = io.StringIO()
    code = main(["verify", *args, "--json", *FAST], out=out)
    return code, json.loads(out.getvalue()) if out.getvalue() else {}


@pytest.mark.parametrize(
    ("name", "verdicts", "first_failure", "code"),
    [
        ("laplace_ratio.toml", ["proved"] * 4, None, 0),
        ("laplace_ratio_student.toml", ["proved", "refuted", "proved", "proved"], 2, 1),
        # a true claim with one wrong step (issue 43): refuted, its conclusion proved
        (
            "laplace_ratio_true_claim_wrong_step.toml",
            ["proved", "refuted", "proved", "proved", "proved"],
            2,
            1,
        ),
        # step 3 (a square dropped, with log(1/delta) inside it): proved by z3 since issue 26
        ("gaussian_rdp_conversion.toml", ["proved"] * 4, None, 0),
        ("advanced_composition_tail.tex", ["proved", "proved"], None, 0),
        # Lemma 3.18 for every n (issue 24): proved in general; the student's e^(eps/2)
        # refuted at its fifth step with a counterexample family.
        pytest.param("kl_bound_every_n.toml", ["proved"] * 6, None, 0, marks=KL_BOUND_PROOFS),
        pytest.param(
            "kl_bound_every_n_student.toml",
            ["proved"] * 4 + ["refuted", "proved"],
            5,
            1,
            marks=KL_BOUND_PROOFS,
        ),
    ],
)
def test_examples_verdict_per_step(
    name: str,
    verdicts: list[str],
    first_failure: int | None,
    code: int,
    one_check_per_proof: None,
) -> None:
    got, report = _verify(str(EXAMPLES / name))
    assert got == code, report.get("verdict")
    assert [s["verdict"] for s in report["steps"]] == verdicts
    assert report["first_failure"] == first_failure
    if first_failure is not None:
        cex = report["steps"][first_failure - 1]["counterexample"]
        assert cex["point"] and cex["lhs"] and cex["rhs"]


def test_the_students_wrong_step_is_shown_with_both_sides(capsys: pytest.CaptureFixture) -> None:  # type: ignore[type-arg]
    out = io.StringIO()
    code = main(["verify", str(EXAMPLES / "laplace_ratio_student.toml"), *FAST], out=out)
    text = out.getvalue()
    assert code == 1
    # The step as the student wrote it, with the line of their file, beside what was checked.
    assert ">>step 2 (line 22), as written: \\le e^{|f_x - f_y|/(2b)}" in text
    assert "checked as: exp((-Abs(fx - z) + Abs(fy - z))/b)" in text
    assert "FIRST WRONG STEP" in text
    assert "left side  =" in text and "right side =" in text


def test_latex_gives_the_authors_own_lines_back_with_badges_and_a_footnote() -> None:
    d = load_proof(EXAMPLES / "laplace_ratio_student.toml")
    report = check_derivation(d, OPTIONS)
    tex = derivation_latex(d, report, standalone=True)
    assert r"\frac{\exp(-|z - f_x|/b)}{\exp(-|z - f_y|/b)}" in tex  # as the student wrote it
    assert r"&\le e^{|f_x - f_y|/(2b)}" in tex
    # issue 43: the badge has a colour and a symbol, and the one footnote is numbered 1
    assert r"\dpbadge{dprefuted}{$\times$}{refuted}\footnotemark[1]" in tex
    assert r"\footnotetext[1]{Step 2 fails at" in tex and r"\footnotetext[2]" not in tex


def test_explain_accepts_a_proof_file() -> None:
    out = io.StringIO()
    assert main(["explain", str(EXAMPLES / "laplace_ratio.toml"), "--no-check"], out=out) == 0
    assert "Step 4." in out.getvalue() and "triangle inequality" in out.getvalue()


HEADER = """
[variables]
x = "(0, oo)"
"""


def _proof(steps: str, extra: str = "") -> str:
    return extra + HEADER + steps


def test_toml_steps_without_claim_conclude_first_lhs_composed_last_rhs() -> None:
    d = parse_proof(
        _proof(
            '[[steps]]\nlhs = "exp(x)"\nrelation = ">="\nrhs = "1 + x"\nby = "cite:exp is convex"\n'
            '[[steps]]\nrelation = ">"\nrhs = "x"\n'
        )
    )
    x = d.symbols["x"]
    assert d.claim.lhs == sp.exp(x) and d.claim.rhs == x
    assert d.claim.relation.value == ">"
    assert d.steps[0].justification.kind is JustificationKind.CITE


def test_a_claim_whose_rhs_equals_the_chains_end_after_the_equality_check() -> None:
    d = parse_proof(
        _proof(
            '[[steps]]\nrelation = "="\nrhs = "x*(x + 1)"\n',
            '[claim]\nlhs = "x**2 + x"\nrelation = "="\nrhs = "x + x**2"\n',
        )
    )
    assert d.claim.rhs == d.steps[-1].expr


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (_proof("", '[claim]\nlhs = "x"\nrelation = "<="\nrhs = "x"\n'), "a proof needs steps"),
        (_proof('[[steps]]\nrelation = "<="\nrhs = "x"\n'), "the first step needs lhs"),
        (
            _proof('[[steps]]\nlhs = "x"\nrelation = "<="\nrhs = "x + 1"\nby = "lemma:no-such"\n'),
            "lemma:no-such is not a catalog id",
        ),
        (
            _proof('[[steps]]\nlhs = "x"\nrelation = "<="\nrhs = "x + 1"\nby = "magic"\n'),
            "is not a justification",
        ),
        (
            _proof(
                '[[steps]]\nlhs = "x"\nrelation = "<="\nrhs = "x + 1"\n'
                '[[steps]]\nrelation = ">="\nrhs = "x"\n'
            ),
            "do not compose",
        ),
        (
            _proof(
                '[[steps]]\nrelation = "<="\nrhs = "x + 1"\n',
                '[claim]\nlhs = "x"\nrelation = "<="\nrhs = "x + 2"\n',
            ),
            "the chain ends at x + 1, but the claim's rhs is x + 2",
        ),
        (
            _proof(
                "[proof]\nlatex = '''\n\\begin{align*}\nx &\\le \\frac{1}{\n\\end{align*}\n'''\n"
            ),
            "(line 7)",  # the line in the file, not in the LaTeX block
        ),
        (_proof("[proof]\nlatex = 'x &\\le \\foo{x}'\n"), "unknown control sequence \\foo"),
        (_proof("[proof]\nlatex = 'x &\\le y'\n"), "undeclared name 'y'"),
    ],
)
def test_bad_proof_files_are_refused_with_what_to_write(text: str, message: str) -> None:
    with pytest.raises(InvalidInput, match=None) as info:
        parse_proof(text, lemmas=catalog())  # the ids a step may cite, as the app gives them
    assert message in str(info.value)


def test_bad_proof_file_exits_2_without_traceback(
    tmp_path: Path,
    capsys: pytest.CaptureFixture,  # type: ignore[type-arg]
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(_proof("[proof]\nlatex = 'x &\\le \\foo{x}'\n"))
    assert main(["verify", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "unknown control sequence" in err and "Traceback" not in err


def test_lemma_steps_rest_on_the_catalog_verdict() -> None:
    d = parse_proof(
        '[variables]\neps = "(0, 2]"\n'
        '[[steps]]\nlhs = "eps*tanh(eps/2)"\nrelation = "<="\nrhs = "eps*(exp(eps) - 1)"\n'
        'by = "lemma:kl-tight-below-seed"\n'
    )
    report = check_derivation(d, OPTIONS, lemmas=lambda i: Verdict.PROVED)
    assert report.steps[0].basis == "rests on kl-tight-below-seed (proved)"


def test_cited_rules_are_matched_against_the_proof() -> None:
    x = sp.Symbol("x", positive=True)
    d = (
        chain(sp.exp(x))
        .ge(sp.exp(x / 2), by.rule("monotonicity of exp"))
        .ge(sp.exp(x / 4), by.rule("triangle inequality"))
        .derive(id="t", title="t", variables=(Variable("x", POSITIVE),), source=Source("t", "t"))
    )
    first, second = check_derivation(d, OPTIONS).steps
    assert first.basis == "proved by the cited rule(s): monotonicity of exp"
    assert second.basis == "proved another way than the cited rule(s) triangle inequality"


def test_a_cited_rule_is_checked_by_its_id_not_by_the_trace_words() -> None:
    """The chord rule's trace says "concave ... above its chord", not "convexity": a step
    citing convexity and proved by it is proved by the cited rule (issue 42); one proved by
    the log tangent bound instead is not, and a rule tried and abandoned is not counted."""

    def step(rule: str, lhs: str, rhs: str, domain: str) -> StepResult:
        d = parse_proof(
            f'[variables]\nx = "{domain}"\n[[steps]]\nlhs = "{lhs}"\nrelation = ">="\n'
            f'rhs = "{rhs}"\nby = "rule:{rule}"\n'
        )
        return check_derivation(d, OPTIONS).steps[0]

    chord = step("convexity", "log(1 + x)", "x*log(2)", "[0, 1]")
    assert chord.verdict is Verdict.PROVED and "concave" in (chord.symbolic or "")
    assert "convexity" in chord.rules and "convexity" not in (chord.symbolic or "")
    assert chord.basis == "proved by the cited rule(s): convexity"
    tangent = step("convexity", "x*log(x) - x + 1", "0", "(0, oo)")
    assert tangent.verdict is Verdict.PROVED and "log tangent bound" in tangent.rules
    assert tangent.basis == "proved another way than the cited rule(s) convexity"
    assert "convexity" not in tangent.rules


def test_the_kit_reads_like_a_chain_and_refuses_ill_formed_ones() -> None:
    x = sp.Symbol("x", positive=True)
    c = chain(x**2 + 2 * x + 1).eq((x + 1) ** 2, by.algebra()).gt(x**2, "expand")
    assert c.relation.value == ">" and c.rhs == x**2
    assert justification_from_spec("hypothesis").kind is JustificationKind.HYPOTHESIS
    with pytest.raises(InvalidInput):
        by.lemma("Not An Id")
    with pytest.raises(IllFormedDerivation):
        c.derive(
            id="t",
            title="t",
            variables=(Variable("x", POSITIVE),),
            source=Source("t", "t"),
            claim=c.conclusion.__class__(c.lhs, c.relation.__class__.LT, x),
        )


def test_a_hypothesis_true_once_defs_are_substituted_is_satisfied(tmp_path: Path) -> None:
    f = tmp_path / "c.toml"
    f.write_text(
        'hypotheses = ["log(p/q) <= eps"]\n[claim]\nlhs = "p"\nrelation = "<="\n'
        'rhs = "q*exp(eps)"\n[variables]\neps = "(0, 5]"\nq = "(0, 1)"\n[defs]\n'
        'p = "q*exp(eps)"\n'
    )
    out = io.StringIO()
    assert main(["claim", str(f), *FAST], out=out) == 0
    assert "holds identically once the definitions are substituted" in out.getvalue()


def test_a_hypothesis_false_once_defs_are_substituted_is_contradictory(
    tmp_path: Path,
    capsys: pytest.CaptureFixture,  # type: ignore[type-arg]
) -> None:
    f = tmp_path / "c.toml"
    f.write_text(
        'hypotheses = ["p < q"]\n[claim]\nlhs = "p"\nrelation = "<="\n'
        'rhs = "2*q"\n[variables]\nq = "(0, 1)"\n[defs]\np = "q"\n'
    )
    assert main(["claim", str(f)]) == 2
    assert "contradictory" in capsys.readouterr().err


@KL_BOUND_PROOFS
def test_the_students_counterexample_family_is_a_table(one_check_per_proof: None) -> None:
    out = io.StringIO()
    code = main(["verify", str(EXAMPLES / "kl_bound_every_n_student.toml"), *FAST], out=out)
    text = out.getvalue()
    assert code == 1
    assert ">>step 5 (line 28), as written: " in text
    assert "i | p_i | q_i" in text  # the counterexample family, one row per outcome
    _, report = _verify(str(EXAMPLES / "kl_bound_every_n.toml"))
    assert report["scope"] == "general" and "n >= 1" in report["scope_note"]
