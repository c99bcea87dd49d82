"""Issue 29's command-line conventions, run through the command line: rule names checked with
suggestions, ``dpderive rules``, verbs suggested, help on every option and verb, ``list``
as a table, and the writing verbs saying what they wrote."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest

from derivations.app.cli import VERBS, build_parser, main
from symbolic.errors import InvalidInput
from symbolic.kit import by
from symbolic.rule_names import RULE_FAMILIES, check_rule_names, rule_names

ROOT = Path(__file__).resolve().parent.parent

PROOF = """\
[variables]
x = "(0, oo)"
[[steps]]
lhs = "exp(x)"
relation = ">="
rhs = "1 + x"
by = "rule:{rule}"
"""


def cli(*argv: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python -m derivations ARGV`` in a subprocess: exit code, stdout and stderr."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "derivations", *argv],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def run(*argv: str) -> tuple[int, str]:
    out = StringIO()
    return main(list(argv), out=out), out.getvalue()


# -- item 7: rule names ----------------------------------------------------------------------


def test_unknown_rule_in_a_proof_file_is_exit_2_with_suggestion(tmp_path: Path) -> None:
    proof = tmp_path / "typo.toml"
    proof.write_text(PROOF.format(rule="exp tangnet"), encoding="utf-8")
    done = cli("verify", str(proof), "--points", "20")
    assert done.returncode == 2, done.stderr
    assert "step 1: 'exp tangnet' is not a rule the prover knows" in done.stderr
    assert "did you mean 'exp tangent'" in done.stderr
    # ... and the whole list, so that the user can pick one.
    assert "triangle inequality" in done.stderr and "`dpderive rules`" in done.stderr
    assert "Traceback" not in done.stderr


def test_unknown_rule_without_a_near_name_still_lists_the_rules(tmp_path: Path) -> None:
    proof = tmp_path / "typo.toml"
    proof.write_text(PROOF.format(rule="no-such-rule"), encoding="utf-8")
    code, _ = run("verify", str(proof), "--points", "20")
    assert code == 2


def test_known_rule_in_a_proof_file_is_accepted(tmp_path: Path) -> None:
    proof = tmp_path / "ok.toml"
    proof.write_text(PROOF.format(rule="Exp  Tangent"), encoding="utf-8")  # case, spaces
    code, text = run("verify", str(proof), "--points", "20", "--search", "20")
    assert code == 0, text
    assert "proved" in text


def test_kit_by_rule_checks_names() -> None:
    assert by.rule("triangle inequality", "monotonicity of exp").rules == (
        "triangle inequality",
        "monotonicity of exp",
    )
    with pytest.raises(InvalidInput, match="did you mean 'triangle inequality'"):
        by.rule("triangle inequalty")
    with pytest.raises(InvalidInput, match="not a rule"):
        check_rule_names(["exp(t) >= 1 + t"])


def test_rule_names_stay_in_step_with_the_prover() -> None:
    """Every rule the prover tries first when cited is a name; every family name appears in
    the rules' source (a renamed trace must rename it here); the facts are the lemmas'."""
    from symbolic.rules.lemmas import LEMMAS
    from symbolic.rules.monotone import MONOTONE
    from symbolic.rules.prover import CITED_RULES

    names = {n.lower() for n in rule_names()}
    assert set(CITED_RULES) <= names
    assert {f"monotonicity of {f.__name__}".lower() for f in MONOTONE} <= names
    assert {lemma.name.lower() for lemma in LEMMAS} <= names
    source = " ".join(
        p.read_text(encoding="utf-8").lower() for p in (ROOT / "symbolic" / "rules").rglob("*.py")
    )
    words = {
        "assumptions": "assumption",
        "product of positive factors": "product of {sign} factors",
        "power of a positive base": "a power of a {sign} base",
        "product bound": "each bounded",
        "min bound": "min(a, b) <= a",
        "extremum cases": "extremum",
        "nonlinear real arithmetic": "nonlinear real arithmetic",
    }
    for name in RULE_FAMILIES:
        if name.startswith("monotonicity of "):
            continue
        assert words.get(name, name).lower() in source, name


def test_every_catalog_rule_is_a_rule_name() -> None:
    from derivations.catalog import catalog

    cited = {
        r
        for d in catalog().values()
        for s in d.steps
        if s.justification.kind.value == "rule"
        for r in s.justification.rules
    }
    assert cited and not [r for r in cited if r.lower() not in {n.lower() for n in rule_names()}]


def test_rules_verb_lists_one_line_each() -> None:
    code, text = run("rules")
    assert code == 0
    lines = text.splitlines()
    names = rule_names()
    assert len(lines) == len(names) + 1
    for name, line in zip(names, lines[1:], strict=True):
        assert line.split()[0] == name.split()[0] and names[name] in line
    code, text = run("rules", "--json")
    assert code == 0 and json.loads(text) == names


def test_unknown_verb_gets_did_you_mean() -> None:
    done = cli("chek", "kl-bound")
    assert done.returncode == 2
    assert "unknown verb 'chek'; did you mean check?" in done.stderr
    done = cli("frobnicate")
    assert done.returncode == 2
    assert "did you mean" not in done.stderr and "the verbs are: list, check" in done.stderr


def test_parser_knows_every_verb() -> None:
    assert {v.name for v in VERBS} >= {"rules", "check", "verify", "html"}
    assert build_parser().prog == "dpderive"


# -- item 8: help, list, what was written ----------------------------------------------------


def _verb_parsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    (sub,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


@pytest.mark.parametrize("verb", [v.name for v in VERBS])
def test_every_verb_help_has_description_options_examples_exit_codes(
    verb: str, capsys: pytest.CaptureFixture[str]
) -> None:
    parser = _verb_parsers()[verb]
    for action in parser._actions:
        # Every option and argument says what it does (--json had nothing); hidden ones
        # are hidden on purpose.
        assert action.help, f"{verb}: {action.option_strings or action.dest} has no help"
    code, _ = run(verb, "--help")
    text = capsys.readouterr().out  # argparse prints help on sys.stdout itself
    assert code == 0
    spec = next(v for v in VERBS if v.name == verb)
    assert spec.description and spec.description.split()[0] in text
    assert "examples:\n  dpderive " + verb in text
    assert "exit codes:\n  0  ok" in text
    for code_ in spec.exits:
        assert f"\n  {code_}  " in text
    assert "  2  bad input" in text and "  4  internal error" in text
    assert max(len(line) for line in text.splitlines()) <= 100


def test_examples_name_only_real_verbs_and_options() -> None:
    """An example in the help must parse (a renamed flag would leave a stale example)."""
    parser = build_parser()
    for verb in VERBS:
        for example in verb.examples:
            argv = example.split()[1:]
            assert parser.parse_args(argv).command == verb.name, example


def test_top_level_help_lists_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run("--help")
    text = capsys.readouterr().out
    assert code == 0
    assert "rules" in text and "3  undecided" in text and "1  refuted" in text


def test_list_is_a_table_within_100_columns() -> None:
    code, text = run("list")
    assert code == 0
    lines = text.splitlines()
    assert lines[0].split() == ["ID", "FAMILY", "SOURCE"]
    assert max(len(line) for line in lines) <= 100
    row = next(line for line in lines if line.startswith("laplace-ratio "))
    assert "Dwork & Roth 2014, Thm. 3.6" in row and "basic mechanisms" in row
    assert any(line.startswith("lemma-3-17-2-if-seed *") for line in lines)
    assert "verdicts need a check: `dpderive list --check`" in text


def test_list_check_adds_the_verdict_column(monkeypatch: pytest.MonkeyPatch) -> None:
    import sympy as sp

    import derivations.catalog as cat
    from derivations.catalog import get

    right = get("laplace-ratio").replace(id="right", oracle=None)
    wrong = right.with_step(5, expr=sp.exp(right.symbols["eps"] / 2)).replace(id="wrong")
    table = {d.id: d for d in (right, wrong)}
    monkeypatch.setattr(cat, "catalog", lambda: table)
    monkeypatch.setattr("derivations.app.cli.catalog", lambda: table)
    fast = ("--points", "30", "--search", "30", "--jobs", "1")
    code, text = run("list", "--check", *fast)
    assert code == 0
    lines = text.splitlines()
    assert lines[0].split() == ["ID", "VERDICT", "FAMILY", "SOURCE"]
    assert lines[1].split()[:2] == ["right", "proved"]
    assert lines[2].split()[:2] == ["wrong", "refuted"]
    code, text = run("list", "--check", "--json", *fast)
    rows = json.loads(text)
    assert [(r["id"], r["verdict"]) for r in rows] == [("right", "proved"), ("wrong", "refuted")]
    assert {"id", "title", "source", "family", "erratum"} <= set(rows[0])
    code, text = run("list", "--json")
    assert "verdict" not in json.loads(text)[0]  # no verdict without a check


def test_latex_o_says_what_it_wrote(tmp_path: Path) -> None:
    target = tmp_path / "out.tex"
    done = cli("latex", "laplace-ratio", "-o", str(target))
    assert done.returncode == 0
    assert done.stdout == f"wrote {target} (LaTeX, {target.stat().st_size} bytes)\n"


def test_claim_given_a_tex_file_points_to_verify(tmp_path: Path) -> None:
    tex = tmp_path / "proof.tex"
    tex.write_text("\\begin{align*} x &\\le 1 \\end{align*}\n", encoding="utf-8")
    code, _ = run("claim", str(tex))
    assert code == 2
