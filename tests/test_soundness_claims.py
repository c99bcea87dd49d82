"""Issue 38: adversarial claims whose truth is known, one directory per class of slip.

``tests/soundness/<class>/NAME_false.toml`` is false at a point of its domain: it must not be
``proved`` or ``certified`` (nor ``checked`` unless sampling saw the failure, see
:func:`assert_not_shown`).  ``NAME_true.toml`` is true: it must not be
``refuted``.  ``NAME_undefined.toml`` has a side undefined somewhere in its domain (a pole, a
log of 0, a root of a negative): nothing there is a proof, so it must be neither ``proved``
nor ``certified``, and its evidence must name the side condition that failed.

The classes: ``equalities`` (an equality hypothesis solved by dividing by what may vanish),
``domain_ends`` (an end opened, or replaced by a rational, where it is closed or exact),
``side_conditions`` (a denominator, log or root defined only on part of the domain; a sum
whose range may be reversed or whose end may lie between integers, where SymPy's reading
and the checker's part),
``interior_ties`` (a strict relation whose sides meet exactly inside the domain, on a set no
sampled point lands on).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from numeric_checks import CheckOptions, check_claim
from symbolic.readers.claim_files import load_claim
from symbolic.report import StepResult
from symbolic.verdicts import Verdict

HERE = Path(__file__).parent / "soundness"
OPTIONS = CheckOptions(points=40, search_budget=60)
FILES = sorted(HERE.glob("*/*.toml"))


def _id(p: Path) -> str:
    return f"{p.parent.name}/{p.stem}"


def test_every_class_has_five_true_and_five_false() -> None:
    for folder in ("equalities", "domain_ends", "side_conditions", "interior_ties"):
        names = [p.stem for p in (HERE / folder).glob("*.toml")]
        truths = sum(n.endswith("_true") for n in names)
        falsities = sum(n.endswith(("_false", "_undefined")) for n in names)
        assert truths >= 5 and falsities >= 5, (folder, names)


def assert_not_shown(result: StepResult) -> None:
    """Neither proved nor certified, and checked only where sampling saw the failure: a
    violation or a tie at a point it could not confirm.  (That such a point makes the step
    undecided rather than checked is issue 38's class 5, the numeric referee's: these claims
    hold the symbolic and certified verdicts to account, and the sampler to having seen.)"""
    assert result.verdict not in (Verdict.PROVED, Verdict.CERTIFIED), result.evidence
    if result.verdict is Verdict.CHECKED:
        seen = ("(the relation fails)", "suspect point", "evaluator failure", "equal to 25 digits")
        assert any(s in result.evidence for s in seen), result.evidence


@pytest.mark.parametrize("path", [p for p in FILES if p.stem.endswith("_false")], ids=_id)
def test_false_claims_are_not_shown(path: Path) -> None:
    result = check_claim(load_claim(path), OPTIONS)
    assert_not_shown(result)
    if path.parent.name in ("equalities", "domain_ends"):
        # Decided here: by the cases, or exactly at the domain's end.
        assert result.verdict is not Verdict.CHECKED, result.evidence
    if path.parent.name == "interior_ties":
        # Refuted where the sides meet (sampled there, or the point made exact).
        assert result.verdict is Verdict.REFUTED, result.evidence
        assert any(r.confirmed for r in result.referees), result.referees


def test_a_tie_no_binary_point_reaches_is_found_exactly() -> None:
    """Bun & Steinke's bound made strict: its sides meet at alpha = 1 + sqrt(L/rho), where
    no binary point lies (420 sampled points came within 1e-7 and called it checked)."""
    result = check_claim(load_claim(HERE / "interior_ties" / "zcdp_strict_false.toml"), OPTIONS)
    assert result.verdict is Verdict.REFUTED, result.evidence
    assert result.counterexample is not None
    assert "the sides meet there, exactly" in result.counterexample.note
    assert result.counterexample.lhs == result.counterexample.rhs
    (ruling,) = result.referees
    assert ruling.method == "exactly" and ruling.confirmed is True
    assert "residual 0 at the exact point" in ruling.detail


@pytest.mark.parametrize("path", [p for p in FILES if p.stem.endswith("_true")], ids=_id)
def test_true_claims_are_not_refuted(path: Path) -> None:
    result = check_claim(load_claim(path), OPTIONS)
    assert result.verdict is not Verdict.REFUTED, result.evidence


@pytest.mark.parametrize("path", [p for p in FILES if p.stem.endswith("_undefined")], ids=_id)
def test_undefined_somewhere_is_not_a_proof(path: Path) -> None:
    result = check_claim(load_claim(path), OPTIONS)
    assert result.verdict not in (Verdict.PROVED, Verdict.CERTIFIED), result.evidence


@pytest.mark.parametrize(
    ("name", "where"),
    [
        ("cancel_pole_undefined", "x - 1 != 0"),
        ("cancel_two_poles_undefined", "x - y != 0"),
        ("common_factor_at_zero_undefined", "x != 0"),
    ],
)
def test_a_conditional_proof_names_its_condition(name: str, where: str) -> None:
    """The tactic or rule found a proof, valid only where the sides are defined: the step
    says where, and stays unproved."""
    result = check_claim(load_claim(HERE / "side_conditions" / f"{name}.toml"), OPTIONS)
    assert result.verdict is not Verdict.PROVED
    assert f"proved only where {where}" in result.evidence, result.evidence


PROVED = [
    "equalities/product_zero_true",
    "equalities/square_times_y_true",
    "equalities/twice_x_true",
    "equalities/reciprocal_true",
    "equalities/sign_given_true",
    "domain_ends/exp_closed_zero_true",
    "domain_ends/exp_open_zero_true",
    "domain_ends/pi_closed_true",
    "side_conditions/cancel_pole_true",
    "side_conditions/log_at_zero_true",
    "side_conditions/cancel_two_poles_true",
    "side_conditions/reversed_range_count_true",
    "side_conditions/reversed_range_product_true",
    "side_conditions/real_end_floor_true",
    "side_conditions/integral_beside_pole_true",
    "side_conditions/beta_pole_true",
    "side_conditions/piecewise_no_default_true",
    "side_conditions/typed_cancel_true",
    "side_conditions/def_cancel_true",
    "side_conditions/integer_power_true",
]


@pytest.mark.parametrize("name", PROVED)
def test_sound_routes_still_prove(name: str) -> None:
    """The fixes refuse what is unsound, not what is sound: a split into cases, an exact
    end and a discharged side condition still give proofs."""
    result = check_claim(load_claim(HERE / f"{name}.toml"), OPTIONS)
    assert result.verdict is Verdict.PROVED, result.evidence
