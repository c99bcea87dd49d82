"""Induction on a length from proof files (symbolic.induction, symbolic.rules.sums.peel):
``induction = "k"`` makes the chain the step k - 1 -> k, a step ``by = "induction"`` may use
the claim at k - 1, the last term of a sum or product over 1..k is peeled off to meet the
one over 1..k - 1, and a wrong step is refuted, not proved."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from derivations.app.cli import main
from numeric_checks import CheckOptions, check_derivation
from numeric_checks.stages import INDUCTION_TAG
from symbolic.errors import InvalidInput
from symbolic.induction import Induction, parse_spec
from symbolic.readers.proof_files import load_proof, parse_proof
from symbolic.rules.sums.peel import peel
from symbolic.verdicts import Verdict

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "induction_on_k.toml"
QUICK = CheckOptions(points=8, search_budget=4, oracle=False, certify=False)
STEP2 = "1 - Product(1 - p[j], (j, 1, k - 1)) + p[k]*Product(1 - p[j], (j, 1, k - 1))"
"""The example's step that uses the induction hypothesis."""


def _with_step2(rhs: str) -> str:
    text = EXAMPLE.read_text(encoding="utf-8")
    good = f'rhs = "{STEP2}"'
    assert good in text
    return text.replace(good, f'rhs = "{rhs}"')


def test_the_example_is_proved_by_induction() -> None:
    d = load_proof(EXAMPLE)
    assert d.induction == Induction("k", base=1)
    r = check_derivation(d, QUICK)
    assert r.verdict is Verdict.PROVED, [s.evidence for s in r.steps]
    assert (r.steps[1].symbolic or "").startswith(INDUCTION_TAG)
    assert "peel the last term" in (r.steps[0].symbolic or "")
    assert "peel the last term" in (r.steps[2].symbolic or "")
    assert "(1 - p[k])" in (r.steps[2].symbolic or "")
    (note,) = [n for n in r.notes if n.startswith("induction on k")]
    assert "step(s) 2 use the induction hypothesis" in note and "by induction" in note


def test_a_step_that_uses_the_claim_at_k_is_refuted() -> None:
    # The circular step: the claim at k itself, not at k - 1.
    wrong = _with_step2(STEP2.replace("(j, 1, k - 1))", "(j, 1, k))", 1))
    r = check_derivation(parse_proof(wrong), QUICK)
    assert r.verdict is Verdict.REFUTED
    assert r.steps[1].verdict is Verdict.REFUTED
    assert INDUCTION_TAG not in (r.steps[1].symbolic or "")


def test_a_step_with_a_wrong_constant_is_refuted() -> None:
    wrong = _with_step2(STEP2.replace("1 - Product", "1 - 2*Product", 1))
    r = check_derivation(parse_proof(wrong), QUICK)
    assert r.verdict is Verdict.REFUTED and r.steps[1].verdict is Verdict.REFUTED


def test_without_the_induction_field_the_step_is_not_proved() -> None:
    # Nothing else proves the step: the claim at k - 1 is what it needs.
    text = EXAMPLE.read_text(encoding="utf-8").replace('induction = "k"', "")
    r = check_derivation(parse_proof(text), QUICK)
    assert r.steps[1].verdict is Verdict.CHECKED and r.verdict is Verdict.CHECKED
    assert not any(n.startswith("induction on") for n in r.notes)


def test_a_sum_hypothesis_over_the_length_is_bad_input() -> None:
    # sum_i p_i <= 1 at k is another statement at k - 1: the hypothesis would not carry.
    text = EXAMPLE.read_text(encoding="utf-8").replace(
        'hypotheses = ["p[i] <= 1 for all i"]',
        'hypotheses = ["Sum(p[i], (i, 1, k)) <= 1"]',
    )
    with pytest.raises(InvalidInput, match="only 'for all' hypotheses"):
        parse_proof(text)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ('"k from one"', "base case must be a whole number"),
        ('"2k"', "write the integer variable"),
        ('"m"', "declare it an integer variable"),
        ('"m from 1"', "undeclared variable"),
        ('"k from 3"', "must start at"),
        ("3", "induction must be a string"),
    ],
)
def test_bad_induction_fields_exit_2(tmp_path: Path, spec: str, message: str) -> None:
    path = tmp_path / "p.toml"
    path.write_text(
        EXAMPLE.read_text(encoding="utf-8").replace('induction = "k"', f"induction = {spec}"),
        encoding="utf-8",
    )
    out = StringIO()
    assert main(["verify", str(path)], out=out) == 2
    with pytest.raises(InvalidInput, match=message):
        load_proof(path)


def test_parse_spec() -> None:
    assert parse_spec("n from 2") == Induction("n", base=2)
    assert parse_spec(" n ").variable == "n"


IX = sp.Symbol("i", integer=True)
N = sp.Symbol("n", integer=True)


@settings(max_examples=60, deadline=None)
@given(
    coeffs=st.lists(st.integers(-3, 3), min_size=1, max_size=3),
    lower=st.integers(-2, 2),
    n=st.integers(-4, 6),
    product=st.booleans(),
)
def test_peel_is_sound(coeffs: list[int], lower: int, n: int, product: bool) -> None:
    # At every integer n where its side conditions hold (reversed ranges included, Karr's
    # convention) the peeled form equals the original; a sum has none, a product needs its
    # range not reversed (n >= lower).
    body = sum(c * IX**j for j, c in enumerate(coeffs)) + (10 if product else 0)
    kind = sp.Product if product else sp.Sum
    longer, shorter = kind(body, (IX, lower, N)), kind(body, (IX, lower, N - 1))
    result = peel(longer, shorter)
    assert result is not None
    (peeled, same), _, conditions = result
    assert same == shorter
    assert len(conditions) == (1 if product else 0)
    at = {N: n}
    if all(c.expr.xreplace(at) >= 0 for c in conditions):
        assert sp.simplify(longer.xreplace(at).doit() - peeled.xreplace(at).doit()) == 0


def test_peeling_a_product_needs_its_range_not_reversed() -> None:
    # Product(3 i + 9, (i, 0, n)) at n = -3: the factor at i = -3 is 0, and the shorter
    # product over the reversed range 0..-4 is the reciprocal of a product through it: 1/0,
    # and the peeled form (read by SymPy as 0 times that product) is not the product's 1/18.
    body = 3 * IX + 9
    longer, shorter = sp.Product(body, (IX, 0, N)), sp.Product(body, (IX, 0, N - 1))
    result = peel(longer, shorter)
    assert result is not None
    (peeled, _), _, (condition,) = result
    assert condition.relation() == "n >= 0"
    assert condition.expr.xreplace({N: -3}) < 0
    at = {N: -3}
    assert longer.xreplace(at).doit() == sp.Rational(1, 18)
    assert peeled.xreplace(at).doit() != sp.Rational(1, 18)


def test_peel_leaves_unpaired_sums_alone() -> None:
    assert peel(sp.Sum(IX, (IX, 1, N)), sp.Sum(IX**2, (IX, 1, N - 1))) is None
    assert peel(sp.Sum(IX, (IX, 1, N)) + 1, N) is None
