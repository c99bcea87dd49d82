"""Issue 42: the records carry what readers need, as data, and the JSON gets them.

Numbers as numbers (the worst margin), the rule ids a proof is made of, the side conditions
it needed, how the verdict was reached, the cases of a split -- so that no stage and no
script has to read the evidence's words back."""

from __future__ import annotations

import json

import pytest

from derivations.printing.json import claim_json, step_json
from derivations.printing.summary import step_summary
from numeric_checks import CheckOptions, check_claim, check_derivation
from symbolic.readers.claim_files import parse_claim
from symbolic.readers.proof_files import parse_proof
from symbolic.report import CaseVerdict, Route
from symbolic.verdicts import Verdict

QUICK = CheckOptions(points=40, search_budget=40, seed=0)


def test_a_proved_claim_carries_its_rules_conditions_and_margin_as_data() -> None:
    d = parse_claim(
        '[claim]\nlhs = "log(1 + x)"\nrelation = ">="\nrhs = "x*log(2)"\n'
        '[variables]\nx = "[0, 1]"\n'
    )
    result = check_claim(d, QUICK)
    assert result.verdict is Verdict.PROVED and result.route is Route.LINK
    out = json.loads(json.dumps(claim_json("s", result)))
    assert "convexity" in out["rules"] and all(isinstance(r, str) for r in out["rules"])
    margin = out["sampling"]["worst_margin_value"]
    assert isinstance(margin, float) and margin <= 0  # the relation holds at every point
    # the words and the number say the same
    words = float(out["sampling"]["worst_margin"].split()[-1])  # the same, to 3 digits
    assert words == pytest.approx(margin, rel=1e-2, abs=1e-30)
    assert out["route"] == "link" and out["why_not_proved"] == "" and out["cases"] == []


def test_a_proof_needing_a_side_condition_records_it() -> None:
    d = parse_claim(
        '[claim]\nlhs = "(x**2 - 1)/(x - 1)"\nrelation = "="\nrhs = "x + 1"\n'
        '[variables]\nx = "(1, oo)"\n'
    )
    result = check_claim(d, QUICK)
    assert result.verdict is Verdict.PROVED
    shown = {c.relation: c for c in result.side_conditions}
    assert "x - 1 != 0" in shown and shown["x - 1 != 0"].discharged_by


def test_a_step_checked_by_cases_lists_its_cases_as_records() -> None:
    d = parse_claim(
        'hypotheses = ["x*y == 0"]\n[claim]\nlhs = "y**2"\nrelation = ">="\nrhs = "0"\n'
        '[variables]\nx = "R"\ny = "R"\n'
    )
    result = check_claim(d, QUICK)
    assert result.route is Route.CASES and result.case_split.startswith("by cases on")
    assert all(isinstance(c, CaseVerdict) for c in result.cases) and len(result.cases) >= 2
    # the short line is built from those records, not cut out of the evidence
    summary = step_summary(result)
    assert summary.startswith(result.case_split)
    assert all(f"{c.label} {c.verdict.value}" in summary for c in result.cases)


def test_a_refuted_step_and_a_checked_step_say_why_as_data() -> None:
    d = parse_proof(
        '[variables]\nx = "(0, 1)"\n[[steps]]\nlhs = "x"\nrelation = "<="\nrhs = "x**2"\n'
    )
    (step,) = check_derivation(d, QUICK).steps
    out = step_json(step)
    assert out["verdict"] == "refuted" and out["head"].startswith("counterexample at x = ")
    assert out["referees"] and out["referees"][0]["kind"] in {"exact", "arb"}
    assert "decided" not in out  # the decision's words are in ``evidence`` already
