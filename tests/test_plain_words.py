"""Issue 29, items 2-4: reports in plain words, the author's own text given back, and the
Python kit as the README documents it (its example run as written)."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
import sympy as sp

from derivations.app import cli
from derivations.app.cli import main
from derivations.printing.summary import step_summary
from derivations.printing.wording import nearest_to_failing
from numeric_checks import CheckOptions, check_derivation
from numeric_checks.conclusion import EngineInconsistency, follows_from_chain
from symbolic import InvalidInput, Source, Variable, Verdict, parse_domain
from symbolic.derivation import Derivation
from symbolic.evidence import Obstacle, ObstacleKind, Sampled, Step, words
from symbolic.kit import by, chain
from symbolic.report import NumericEvidence, StepResult

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"
FAST = ["--points", "40", "--search", "40"]


def _step(verdict: Verdict, evidence: str, **kw: object) -> StepResult:
    return StepResult(1, "a", "<=", "b", "", verdict, evidence, **kw)  # type: ignore[arg-type]


# -- item 1: the verdict's words ------------------------------------------------------------


def test_a_conclusion_raised_by_its_chain_never_says_why_not_proved() -> None:
    sampled = Sampled(NumericEvidence(9, 50))
    blocked = Obstacle(ObstacleKind.NOT_CERTIFIED)
    own = _step(Verdict.CHECKED, Step(sampled, blocked), obstacle=blocked, decision=sampled)  # type: ignore[arg-type]
    assert own.evidence == (
        "numeric only, no counterexample: 9 points at 50 digits; why not proved: no rule "
        "proved it and it was not certified"
    )
    assert own.why_not_proved == "no rule proved it and it was not certified"
    raised = follows_from_chain(own, Verdict.PROVED)
    assert raised.verdict is Verdict.PROVED
    assert raised.evidence.startswith("follows from the chain: every step is proved")
    assert "why not proved" not in raised.evidence and "9 points" in raised.evidence
    assert raised.evidence.endswith(
        "also sampled on its own, no counterexample: 9 points at 50 digits"
    )
    assert raised.why_not_proved == "" and raised.decided == own.decided
    certified = follows_from_chain(own, Verdict.CERTIFIED)
    assert "every step is proved or certified" in certified.evidence
    # A chain no stronger than the conclusion's own check, or a refuted conclusion: kept;
    # but a chain that shows the claim and a refuted conclusion cannot both be right
    # (issue 38: an engine inconsistency, never a silent pick).
    assert follows_from_chain(own, Verdict.CHECKED) is own
    refuted = _step(Verdict.REFUTED, "counterexample at x = 1")
    assert follows_from_chain(refuted, Verdict.CHECKED) is refuted
    with pytest.raises(EngineInconsistency, match="counterexample at x = 1"):
        follows_from_chain(refuted, Verdict.PROVED)


@pytest.mark.parametrize(
    ("margin", "relation", "words"),
    [
        (-0.0858, "<=", "lhs is 8.58% below rhs"),
        (-0.0858, "<", "lhs is 8.58% below rhs"),
        (-0.25, ">=", "lhs is 25% above rhs"),
        (0.05, "<=", "lhs is 5% above rhs (the relation fails)"),
        (0.05, ">", "lhs is 5% below rhs (the relation fails)"),
        (0.0, "<=", "the sides are equal to 25 digits"),
        (-1e-40, ">=", "the sides are equal to 25 digits"),
        (0.0, "=", "agree at every point to all 50 digits"),
        (3e-45, "=", "3e-43% of the larger side"),
    ],
)
def test_nearest_to_failing_in_words(margin: float, relation: str, words: str) -> None:
    assert words in nearest_to_failing(margin, relation, 50)


def test_the_sign_decides_above_or_below() -> None:
    # Mutant guard: the same size of gap on the other side must read the other way.
    assert "below" in nearest_to_failing(-0.1, "<=", 50)
    assert "above" in nearest_to_failing(0.1, "<=", 50)
    assert "above" in nearest_to_failing(-0.1, ">=", 50)


def test_numeric_evidence_says_nearest_not_relative_gap() -> None:
    ev = NumericEvidence(9, 50, margin="-0.0858", relation="<=", worst_margin_value=-0.0858)
    assert ev.worst_margin == "relative gap -0.0858"
    assert words(ev) == "9 points at 50 digits; nearest to failing: lhs is 8.58% below rhs"


def test_a_long_rule_trace_is_summarised_by_its_names() -> None:
    trace = (
        "sum rules: linearity, sum hypothesis Sum p[i] = 1 (the constant c written as c times "
        "that sum), termwise (log(q[i]/p[i])*q[i] + p[i] - q[i] >= 0 for every i in 1..n: log "
        "tangent bounds 1 - 1/u <= log(u) <= u - 1 on every log term)"
    )
    s = _step(Verdict.PROVED, trace + "; spot-checked", symbolic=trace)
    short = step_summary(s)
    assert short == "by sum rules: linearity, sum hypothesis, termwise"
    assert len(short) < len(trace) / 3


def test_a_refuted_summary_keeps_its_counterexample() -> None:
    from symbolic.report import Counterexample

    cex = Counterexample({"x": "1"}, "2.0", "1.0", 50)
    s = _step(
        Verdict.REFUTED, "counterexample at x = 1: ...; confirmed exactly", counterexample=cex
    )
    assert step_summary(s) == "counterexample at x = 1: lhs = 2.0, rhs = 1.0"


def test_report_text_is_short_and_verbose_is_whole(tmp_path: Path) -> None:
    short, whole = io.StringIO(), io.StringIO()
    proof = str(EXAMPLES / "advanced_composition_tail.tex")
    assert main(["verify", proof, *FAST], out=short) == 0
    assert main(["verify", proof, "--verbose", *FAST], out=whole) == 0
    for text in (short.getvalue(), whole.getvalue()):
        assert "why not proved" not in text and "relative gap" not in text
        assert "closest approach" not in text
    assert "conclusion: proved: follows from the chain: every step is proved\n" in short.getvalue()
    assert "nearest to failing" in whole.getvalue()
    assert len(short.getvalue()) < len(whole.getvalue())


def test_json_keeps_evidence_and_adds_summary() -> None:
    out = io.StringIO()
    assert main(["verify", str(EXAMPLES / "laplace_ratio.toml"), "--json", *FAST], out=out) == 0
    report = json.loads(out.getvalue())
    for step in [*report["steps"], report["conclusion"]]:
        assert step["evidence"] and step["summary"]
        assert len(step["summary"]) <= len(step["evidence"])
        assert "numeric" in step and "source" in step and "line" in step


# -- item 2: the author's own text ----------------------------------------------------------


def test_tex_steps_keep_their_source_and_the_relations_line() -> None:
    out = io.StringIO()
    assert main(["verify", str(EXAMPLES / "advanced_composition_tail.tex"), *FAST], out=out) == 0
    text = out.getvalue()
    lines = (EXAMPLES / "advanced_composition_tail.tex").read_text().splitlines()
    found = re.findall(r"step (\d) \(line (\d+)\), as written: (.*)", text)
    assert [(i, n) for i, n, _ in found] == [("1", "14"), ("2", "15")]
    for _, n, written in found:
        # The line named is the one where the author wrote the step's relation and right side.
        rel, _, rhs = written.partition(" ")
        assert rel in lines[int(n) - 1] and rhs in lines[int(n) - 1]
    # The reordering step reads "X = X" once simplified: the author's line says what it was.
    assert r"\sqrt{2k\ln(1/\delta')}\,\varepsilon + k\varepsilon(e^{\varepsilon}-1)" in text


def test_explain_gives_the_authors_lines_back() -> None:
    out = io.StringIO()
    code = main(["explain", str(EXAMPLES / "laplace_ratio_student.toml"), *[]], out=out)
    text = out.getvalue()
    assert code == 0
    assert r"Step 2.  As you wrote it (line 22):  \le e^{|f_x - f_y|/(2b)}" in text
    assert "Checked as:  exp((-Abs(fx - z) + Abs(fy - z))/b)" in text


# -- item 3: the Python kit -----------------------------------------------------------------


def _readme_python_blocks() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


def test_readme_python_example_runs_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    blocks = _readme_python_blocks()
    assert blocks, "the README has no python example"
    namespace: dict[str, object] = {"__name__": "readme"}
    for block in blocks:
        exec(compile(block, "README.md", "exec"), namespace)  # our own README, not user text
    printed = capsys.readouterr().out
    assert printed.startswith("my-laplace: PROVED")
    assert "step 4 [=] proved" in printed and "DerivationReport(" not in printed


def _x() -> Variable:
    return Variable("x", parse_domain("(0, oo)"))


def test_str_of_a_report_is_the_text_report() -> None:
    x = _x()
    d = (
        chain(sp.exp(x.symbol))
        .ge(1 + x.symbol, by.rule("exp tangent"))
        .derive(id="t", title="exp tangent", variables=[x])
    )
    report = check_derivation(d, CheckOptions(points=30, search_budget=30))
    assert str(report).startswith("t: PROVED  exp tangent\n")
    assert str(report.steps[0]).startswith("step 1 [>=] proved: ")
    assert repr(report).startswith("DerivationReport(")


@pytest.mark.parametrize(
    ("build", "words"),
    [
        (
            lambda x: chain(x.symbol).le(1, "r").derive(id="t", title="t", variables=[x.symbol]),
            "variables are Variable(name, domain)",
        ),
        (lambda x: chain("x + 1"), "not the text"),
        (lambda x: chain(x.symbol).le("2", "r"), "not the text"),
        (lambda x: chain(x.symbol).le(x.symbol + 1, 3), "reason is a string"),  # type: ignore[arg-type]
        (
            lambda x: (
                chain(x.symbol)
                .le(x.symbol + 1, "r")
                .derive(id="t", title="t", variables=[x], hypothesis=[x.symbol > 0])
            ),
            "does not know",
        ),
        (lambda x: chain(x.symbol).derive(id="t", title="t", variables=[x]), "no steps"),
        (
            lambda x: (
                chain(x.symbol)
                .le(x.symbol + 1, "r")
                .derive(id="t", title="t", variables=[x], source=3)  # type: ignore[arg-type]
            ),
            "source is",
        ),
        (
            lambda x: check_derivation(chain(x.symbol).le(x.symbol + 1, "r")),  # type: ignore[arg-type]
            "call .derive(",
        ),
        (lambda x: by.rule("trinagle inequality"), "did you mean 'triangle inequality'"),
    ],
)
def test_natural_mistakes_raise_our_error_with_a_message(build: object, words: str) -> None:
    with pytest.raises(InvalidInput, match=re.escape(words)):
        build(_x())  # type: ignore[operator]


def test_derive_takes_a_source_as_text_or_defaults_it() -> None:
    x = _x()
    c = chain(sp.exp(x.symbol)).ge(1 + x.symbol, "tangent")
    assert str(c.derive(id="t", title="t", variables=[x]).source) == "your own proof"
    assert str(c.derive(id="t", title="t", variables=[x], source="my notes").source) == "my notes"
    src = Source("Dwork & Roth 2014", "Lemma 3.18")
    assert c.derive(id="t", title="t", variables=[x], source=src).source is src


def test_every_public_kit_function_has_a_doctest() -> None:
    import inspect

    import symbolic
    import symbolic.kit as kit

    missing = []
    for module in (symbolic, kit):
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isfunction(obj) and ">>>" not in (obj.__doc__ or ""):
                missing.append(f"{module.__name__}.{name}")
    for cls in (kit.By, kit.Chain, symbolic.Variable, symbolic.Source):
        if ">>>" not in (cls.__doc__ or ""):
            missing.append(cls.__name__)
    assert not missing, missing


def _latex_of(path: Path) -> str:
    out = io.StringIO()
    main(["latex", str(path), "--with-verdicts", *FAST], out=out)
    return out.getvalue()


def test_latex_typesets_the_authors_symbols_and_reasons() -> None:
    tex = _latex_of(EXAMPLES / "laplace_ratio_student.toml")
    formally = tex[tex.index("Formally") : tex.index("Proof.")]
    # \varepsilon and f_x as the student wrote them, not italic eps and fx.
    assert r"$\varepsilon \in (0, \infty)$" in formally and r"$f_{x} \in \mathbb{R}$" in formally
    assert not re.search(r"(?<!var)eps|fx", formally)
    assert r"\path{proof}" not in tex  # a user's proof has no catalog id to end a line with
    tail = _latex_of(EXAMPLES / "advanced_composition_tail.tex")
    assert r"(2)~$e^\varepsilon \ge 1$" in tail  # the reason's maths, not \backslash garbage
    assert r"\backslash" not in tail and r"\textbackslash" not in tail
    assert r"\ln{\left(\frac{1}{\delta'} \right)}" in tail  # \ln and \delta' as written


def test_a_reason_with_unknown_commands_is_escaped_not_run(tmp_path: Path) -> None:
    f = tmp_path / "p.toml"
    f.write_text(
        'title = "t"\n[variables]\nx = "(0, oo)"\n[proof]\nlatex = \'\'\'\n'
        "\\begin{align*}\nx &\\le x + 1 && \\text{$\\mymacro{/etc/passwd}$}\n\\end{align*}\n'''\n"
    )
    tex = _latex_of(f)
    assert "\\mymacro{" not in tex and r"\textbackslash{}mymacro" in tex
    # TeX's own file primitives are not even read (issue 41): exit 2, naming the line.
    f.write_text(f.read_text().replace("mymacro", "input"))
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["latex", str(f)], out=io.StringIO()) == 2
    assert "input at line 7 is refused" in err.getvalue()


def test_claim_prints_a_short_line_and_the_rest_under_verbose(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Both commands check the same claim at the same options; what is asserted is how each
    # prints the result, so the claim is checked once and the second command prints that.
    checked: list[tuple[Derivation, Any]] = []
    check_claim = cli.check_claim

    def check_once(d: Derivation, options: CheckOptions) -> Any:
        if not checked:
            checked.append((d, check_claim(d, options)))
        assert d == checked[0][0]  # both read the same claim from the file
        return checked[0][1]

    monkeypatch.setattr(cli, "check_claim", check_once)
    claim = str(Path(__file__).parent / "claims" / "phi_true.toml")
    short, full = io.StringIO(), io.StringIO()
    assert main(["claim", claim, "--points", "40"], out=short) == 0
    assert main(["claim", claim, "--points", "40", "--verbose"], out=full) == 0
    line = short.getvalue().splitlines()[-1]
    assert re.fullmatch(
        r"evidence: by derivative rule in x on \(0, oo\); spot-checked on \d+ points", line
    ), line
    assert "decided by nonlinear real arithmetic (z3 nlsat)" in full.getvalue()
