"""A step typed in SymPy syntax that SymPy's evaluation changes on reading is given back as
its author typed it (``verify``, ``explain``, ``--json``), beside what was checked; a step
that reading only reorders is not."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from derivations.app import cli
from derivations.app.cli import main
from numeric_checks import CheckOptions
from symbolic.derivation import Derivation
from symbolic.readers.proof_files import parse_proof
from symbolic.report import DerivationReport

PROOF = """title = "Laplace mechanism, k coordinates"
[variables]
k = "Z>=1"
beta = "(0, 1)"
[[steps]]
lhs = "Sum(exp(-log(k/beta)), (i, 1, k))"
relation = "="
rhs = "k*exp(-log(k/beta))"
why = "k equal terms"
[[steps]]
relation = "="
rhs = "beta*k/k"
why = "exp(-log(k/beta)) = beta/k"
[[steps]]
relation = "<="
rhs = "beta*2"
why = "beta > 0"
"""


def _run(*argv: str) -> str:
    out = io.StringIO()
    main(list(argv), out)
    return out.getvalue()


def test_reshaped_steps_keep_their_typed_text() -> None:
    d = parse_proof(PROOF)
    assert d.lhs_written == "Sum(exp(-log(k/beta)), (i, 1, k))" and d.lhs_source == ""
    assert [s.written for s in d.steps] == ["k*exp(-log(k/beta))", "beta*k/k", ""]
    assert all(s.source == "" for s in d.steps)  # not LaTeX: documents typeset the parse


def test_every_text_output_gives_the_typed_step_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The three commands check the same proof; what is asserted is how each prints the
    # typed text beside its report, so the proof is checked once (by the first command)
    # and the other two print that report instead of checking it again (~2/3 of the time).
    checked: list[tuple[Derivation, DerivationReport]] = []
    check_one = cli._check_one

    def check_once(d: Derivation, options: CheckOptions) -> DerivationReport:
        if not checked:
            checked.append((d, check_one(d, options)))
        assert d == checked[0][0]  # each command read the same proof from the file
        return checked[0][1]

    monkeypatch.setattr(cli, "_check_one", check_once)
    path = tmp_path / "proof.toml"
    path.write_text(PROOF, encoding="utf-8")
    verify = _run("verify", str(path))
    assert "step 1, as written: = k*exp(-log(k/beta))" in verify
    assert "(its left side as written: Sum(exp(-log(k/beta)), (i, 1, k)))" in verify
    assert "step 3, as written" not in verify
    assert "As you wrote it:  = k*exp(-log(k/beta))" in _run("explain", str(path))
    steps = json.loads(_run("verify", str(path), "--json"))
    report = steps[0] if isinstance(steps, list) else steps
    assert [s["source"] for s in report["steps"]] == ["k*exp(-log(k/beta))", "beta*k/k", ""]
