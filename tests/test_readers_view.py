"""The reader's side of a checked proof (issue 43): the claim and the proof told apart, how
far off a wrong step is, a teaching view that never explains why a refuted step holds, and
exit codes of ``latex`` and ``html`` that follow the verdicts."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from derivations.app.cli import main
from derivations.printing.diagnosis import claim_phrase, proof_diagnosis, side_value, sides_apart
from derivations.printing.wording import scope_text
from symbolic.report import Counterexample, DerivationReport, StepResult
from symbolic.verdicts import Verdict

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
TRUE_CLAIM = EXAMPLES / "laplace_ratio_true_claim_wrong_step.toml"
FALSE_CLAIM = EXAMPLES / "laplace_ratio_student.toml"
GOOD = EXAMPLES / "laplace_ratio.toml"
FAST = ["--points", "40", "--search", "60"]


def _run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


@pytest.mark.parametrize(
    ("lhs", "rhs", "words"),
    [
        ("2", "1", "the left side, 2, is twice the right, 1 (a difference of 1)"),
        ("1", "2", "the left side, 1, is half the right, 2 (a difference of -1)"),
        ("-3", "-1", "the left side, -3, is three times the right, -1"),
        ("2.5", "1", "the left side, 2.5, is 2.5 times the right, 1"),
        ("1/3", "1", "is a third of the right"),
        ("1", "0", "the left side is 1 and the right 0 (a difference of 1)"),
        ("-1", "1", "the left side is -1 and the right 1 (a difference of -2)"),
    ],
)
def test_how_far_apart_the_sides_are(lhs: str, rhs: str, words: str) -> None:
    assert words in sides_apart(Counterexample({"k": "1"}, lhs, rhs, 50), "<=")


def test_sides_that_are_no_plain_numbers_give_no_ratio() -> None:
    assert side_value("oo") is None and side_value("[1 +- 0.1]") is None
    assert sides_apart(Counterexample({}, "oo", "1", 50), "<=") == ""
    # A ratio near 2 but not 2 is not called "twice": the words must be able to be wrong.
    assert "twice" not in sides_apart(Counterexample({}, "2.001", "1", 50), "<=")


def _report(conclusion: Verdict, steps: tuple[Verdict, ...]) -> DerivationReport:
    def step(i: int, v: Verdict) -> StepResult:
        cex = Counterexample({"k": "1"}, "2", "1", 50) if v is Verdict.REFUTED else None
        return StepResult(i, "a", "<=", "b", "", v, "", counterexample=cex)

    rows = tuple(step(i, v) for i, v in enumerate(steps, start=1))
    return DerivationReport(
        "p", "t", "s", min(steps, key=list(Verdict).index), rows, step(0, conclusion)
    )


@pytest.mark.parametrize("claim", list(Verdict))
def test_the_diagnosis_names_the_claims_own_verdict_and_the_first_wrong_step(
    claim: Verdict,
) -> None:
    r = _report(claim, (Verdict.PROVED, Verdict.REFUTED, Verdict.REFUTED))
    text = proof_diagnosis(r)
    assert text.startswith(claim_phrase(claim))
    assert "step 2 of your proof is wrong: at k = 1, the left side, 2, is twice the right" in text
    assert "step 3" not in text
    # No refuted step, nothing to join: the headline says it all.
    assert proof_diagnosis(_report(claim, (Verdict.PROVED, Verdict.CHECKED))) == ""


def test_verify_of_a_true_claim_with_a_wrong_step_says_both() -> None:
    code, text = _run("verify", str(TRUE_CLAIM), *FAST)
    assert code == 1
    assert "in short: your claim holds (proved on its own); step 2 of your proof is wrong" in text
    code, out = _run("verify", str(TRUE_CLAIM), "--json", *FAST)
    data = json.loads(out)
    assert data["first_failure"] == 2 and data["conclusion"]["verdict"] == "proved"
    assert (
        data["diagnosis"].startswith("your claim holds") and "times the right" in data["diagnosis"]
    )
    # A false claim is not called true: the same proof with the claim halved.
    _, out = _run("verify", str(FALSE_CLAIM), "--json", *FAST)
    assert json.loads(out)["diagnosis"].startswith("your claim is false")
    _, out = _run("verify", str(GOOD), "--json", *FAST)
    assert json.loads(out)["diagnosis"] == ""


def test_explain_marks_the_first_wrong_step_and_never_says_why_it_holds() -> None:
    _, text = _run("explain", str(TRUE_CLAIM))
    lessons = text.split("\nStep ")
    step2 = next(s for s in lessons if s.startswith("2."))
    assert ">>> Step 2 is the first wrong step of this proof. <<<" in text
    assert "Why it holds" not in step2 and "without changing its value" not in step2
    assert "but the step is wrong" in step2 and "Where it fails: at eps = " in step2
    assert "times the right" in step2
    # The steps that hold are still explained.
    step3 = next(s for s in lessons if s.startswith("3."))
    assert "Why it holds" in step3
    assert "In short: your claim holds" in text


@pytest.mark.parametrize(("proof", "code"), [(TRUE_CLAIM, 1), (FALSE_CLAIM, 1), (GOOD, 0)])
def test_latex_with_verdicts_exits_by_the_verdict(proof: Path, code: int, tmp_path: Path) -> None:
    got, text = _run("latex", str(proof), "--with-verdicts", "-o", str(tmp_path / "p.tex"), *FAST)
    assert got == code and (tmp_path / "p.tex").is_file() and "wrote" in text
    # Without verdicts nothing was checked: the document alone is a success.
    assert _run("latex", str(proof))[0] == 0


def test_html_exits_by_the_verdicts(tmp_path: Path) -> None:
    argv = ["html", "--no-plots", *FAST]
    assert _run(*argv, "-o", str(tmp_path / "a"), str(TRUE_CLAIM))[0] == 1
    assert (tmp_path / "a" / "index.html").is_file()  # written all the same
    assert _run(*argv, "-o", str(tmp_path / "b"), str(GOOD))[0] == 0
    assert _run(*argv, "-o", str(tmp_path / "c"), "--no-check", str(TRUE_CLAIM))[0] == 0


def test_help_documents_the_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    for verb in ("latex", "html"):
        _run(verb, "--help")
        text = capsys.readouterr().out
        assert "exit code follows the verdicts" in " ".join(text.split())
        assert "1  refuted" in text and "3  undecided" in text


def test_scope_words_say_box_or_instance() -> None:
    assert scope_text("instance", "on the box eps in [1e-06, 5]") == "on the box eps in [1e-06, 5]"
    assert (
        scope_text("instance", "for n = 3 outcomes only") == "at the instance n = 3 outcomes only"
    )
    assert "for an instance" not in scope_text("instance", "")


def test_a_site_without_matplotlib_says_how_to_get_its_plots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 43: the README's install gave a site without plots, silently.  matplotlib is
    a dependency now; where it is missing all the same, the command says so."""
    import importlib.util

    from derivations.app.html import site
    from derivations.catalog import get

    real = importlib.util.find_spec
    monkeypatch.setattr(
        site.importlib.util,
        "find_spec",
        lambda name, *a: None if name == "matplotlib" else real(name, *a),
    )
    owner = get("kl-bound")  # its page shows the kl-bounds plot
    summary = site.build_site(tmp_path, [owner], {})
    assert summary.missing == site.PLOTS_MISSING and "pip install matplotlib" in summary.missing
    assert summary.plots == []
    # Pages without plots need no matplotlib: nothing to say.
    assert site.build_site(tmp_path / "b", [get("laplace-tail")], {}).missing == ""


@pytest.mark.parametrize(
    ("latex", "fragment"),
    [
        (r"\frac{1}{2b}", "<mfrac><mn>1</mn><mrow><mn>2</mn><mi>b</mi></mrow></mfrac>"),
        (r"\ln(1/\delta')", "<mi>ln</mi>"),  # \ln stays ln (SymPy read it as log)
        (r"e^{-x}", "<msup><mi>e</mi><mrow><mo>−</mo><mi>x</mi></mrow></msup>"),
        (r"\sqrt[3]{x}", "<mroot><mi>x</mi><mn>3</mn></mroot>"),
        (r"\left| a \right|", '<mo lspace="0" rspace="0">|</mo><mi>a</mi>'),
        (r"\text{<b>x</b>}", "<mtext>&lt;b&gt;x&lt;/b&gt;</mtext>"),  # escaped, never markup
        # a function word's scripts sit on the word, not on the application mark after it
        (r"\max_{i} x_i", "<msub><mi>max</mi><mi>i</mi></msub><mo>\u2061</mo>"),
        (r"\Pr_{X}[X]", "<msub><mi>Pr</mi><mi>X</mi></msub><mo>\u2061</mo>"),
        (
            r"\begin{cases} x & \text{if } x > 0 \\ 0 & \text{otherwise} \end{cases}",
            "<mtr><mtd><mn>0</mn></mtd><mtd><mtext>otherwise</mtext></mtd></mtr></mtable>",
        ),
    ],
)
def test_the_authors_latex_is_typeset_as_written(latex: str, fragment: str) -> None:
    from derivations.printing.latex_mathml import latex_mathml

    assert fragment in latex_mathml(latex)


@pytest.mark.parametrize("latex", [r"\begin{matrix} a \end{matrix}", r"\foo{x}", "{x", "x}", "a^"])
def test_latex_outside_the_vocabulary_is_shown_as_checked_and_says_why(latex: str) -> None:
    from derivations.app.html.model import _typeset_written
    from derivations.printing.latex_mathml import Untypeset, latex_mathml

    with pytest.raises(Untypeset):
        latex_mathml(latex)
    written, note = _typeset_written(latex, "")
    assert written is None and note.startswith("your LaTeX is shown as checked")


def test_page_text_gets_unicode_signs_but_code_and_markup_do_not() -> None:
    from derivations.app.html.prose import page_typography, prose_html

    page = (
        '<p title="a <= b">x &lt;= 1, y &gt;= 2, z != 3, -0.5 +- 1e-06, a - b, eps-DP</p>'
        "<code>a &lt;= b - c</code><pre>x - 1</pre>"
        "<math><mo>-</mo><mi>&ExponentialE;</mi><mo>&dd;</mo></math>"
    )
    out = page_typography(page)
    assert "x ≤ 1, y ≥ 2, z ≠ 3, −0.5 ± 1e-06, a − b, eps-DP" in out
    assert '<p title="a <= b">' in out and "<code>a &lt;= b - c</code><pre>x - 1</pre>" in out
    assert "<mo>−</mo><mi>e</mi>" in out and "&dd;" not in out and "ExponentialE" not in out
    # prose: the book's runs of mathematics typeset, an author's $...$ too, code as code
    html = str(
        prose_html("sensitivity |f(x) - f(y)| <= Delta, since $k > 0$, see `dpderive claim`")
    )
    assert "&lt;=" not in html and "$" not in html and "<code>dpderive claim</code>" in html
    assert html.count("<math") >= 2


@pytest.mark.parametrize(
    "text",
    [
        "D_inf(Y||Z) <= eps (e^eps - 1)",  # the divergence's || is no pair of bars
        "E[C_i | C_1, ..., C_(i-1)] <= beta",  # a conditional bar, alone
        "Pr[M_i(x) in S] for every i",  # a run may stop inside a bracket
        "alpha_L = 2 sqrt(2) ln(2c/beta) (sqrt(512)+1)/eps",
    ],
)
def test_prose_is_typeset_never_shown_as_tex(text: str) -> None:
    """Issue 43: the statement of kl-bound showed D_{\\infty}(Y\\|Z) \\le \\varepsilon as
    TeX source where the reader of the site's prose refused it."""
    from derivations.app.html.prose import prose_html

    html = str(prose_html(text))
    assert "<math" in html and "\\" not in html and "&lt;=" not in html
