"""Issue 38, the numeric side: proved means proved, and a violation seen is never a pass.

Claims whose truth is known (``tests/claims/soundness``, named ``c<class>_..._true`` or
``..._false``), run as a user runs them, for each class of the issue: the sign of a point
(class 3), a violation seen but not confirmed (class 5), weak evidence (class 6: a box is not
the claim, a minimum of points, ties re-decided with more digits, points exactly on ends and
boundaries); then the verdict policy on hand-made records, and the routes that must agree
(item 4)."""

from __future__ import annotations

import dataclasses
import json
from io import StringIO
from pathlib import Path

import mpmath
import pytest
import sympy as sp

import numeric_checks.confirm as confirm_module
import numeric_checks.pipeline as pipeline
from derivations.app.cli import main
from numeric_checks import CheckOptions, check_claim
from numeric_checks.conclusion import EngineInconsistency, follows_from_chain
from numeric_checks.confirm import confirm_violation
from numeric_checks.decide import MIN_CHECKED_POINTS, Records, decide, needs_certificate
from numeric_checks.search import SpotOutcome
from numeric_checks.stages import SymbolicProof
from symbolic.evidence import Unconfirmed
from symbolic.readers.claim_files import load_claim, parse_claim
from symbolic.relations import Relation
from symbolic.report import (
    CertificateRecord,
    CertificateStatus,
    Counterexample,
    NumericEvidence,
    RefereeKind,
    RefereeRecord,
    StepResult,
)
from symbolic.verdicts import Verdict

from .conftest import CLAIMS

SOUNDNESS = CLAIMS / "soundness"

# What each claim may come back as, and its exit code.  A false claim is refuted, or at
# worst undecided (exit 3) where no rigorous referee can confirm what sampling saw; never
# proved, certified or checked.  A true one is never refuted.
REFUTED = ({"refuted"}, 1)
NOT_REFUTED = ({"proved", "certified", "checked"}, 0)
EXPECTED: dict[str, tuple[set[str], int]] = {
    # class 3: the exact referee keeps the sign of the point
    "c3_above_minus_100_false": REFUTED,
    "c3_below_100_false": REFUTED,
    "c3_cube_false": REFUTED,
    "c3_tiny_negative_false": REFUTED,
    "c3_abs_false": REFUTED,
    "c3_abs_true": NOT_REFUTED,
    "c3_square_true": NOT_REFUTED,
    # class 5: confirmed exactly by SymPy where Arb has no ball, else undecided
    "c5_ceiling_floor_false": REFUTED,
    "c5_ceiling_floor_true": NOT_REFUTED,
    "c5_sign_power_false": REFUTED,
    "c5_sign_power_true": NOT_REFUTED,
    "c5_finite_sum_false": REFUTED,
    "c5_finite_sum_true": NOT_REFUTED,
    "c5_piecewise_false": REFUTED,
    "c5_piecewise_true": NOT_REFUTED,
    "c5_max_min_false": REFUTED,
    "c5_max_min_true": NOT_REFUTED,
    "c5_lambertw_unconfirmed_false": ({"undecided"}, 3),
    "c5_lambertw_true": NOT_REFUTED,
    "c5_beta_unconfirmed_false": ({"undecided"}, 3),
    # class 6a: a box is not the claim
    "c6a_box_only_false": ({"refuted", "checked"}, -1),
    "c6a_whole_domain_true": NOT_REFUTED,
    "c6a_closed_box_true": NOT_REFUTED,
    # class 6b: two points are no evidence (however often evaluated); huge integers are
    # sampled (the Stirling bound had one point: 10**26 + k was taken for no integer)
    "c6b_two_points": ({"undecided"}, 3),
    "c6b_two_points_false": REFUTED,
    "c6b_stirling_huge_integers_true": ({"checked"}, 0),
    "c6b_huge_integers_true": ({"checked"}, 0),
    "c6b_small_integer_domain_true": ({"checked"}, 0),
    "c6b_small_integer_domain_false": REFUTED,
    # class 6c: ties within the working digits are re-decided with more
    "c6c_tie_eq_false": REFUTED,
    "c6c_tie_eq_60_false": REFUTED,
    "c6c_tie_le_false": REFUTED,
    "c6c_tie_ge_true": NOT_REFUTED,
    "c6c_noise_true": NOT_REFUTED,
    # class 6d: on the boundary and the closed end, exactly
    "c6d_boundary_strict_false": REFUTED,
    "c6d_boundary_ceiling_false": REFUTED,
    "c6d_boundary_true": NOT_REFUTED,
    "c6d_open_boundary_ceiling_true": NOT_REFUTED,
    "c6d_end_third_false": REFUTED,
    "c6d_end_third_true": NOT_REFUTED,
    "c6d_integer_far_end_false": REFUTED,
    # class 7: a failure on a set of measure zero, which no draw meets: where the sides
    # meet or their difference is stationary (exactly), and the integers of a real interval
    "c7_abs_one_point_false": REFUTED,
    "c7_square_one_point_false": REFUTED,
    "c7_irrational_point_false": REFUTED,
    "c7_hair_at_minimum_false": REFUTED,
    "c7_diagonal_false": REFUTED,
    "c7_log_stationary_false": REFUTED,
    "c7_exp_stationary_false": REFUTED,
    "c7_floor_integers_false": REFUTED,
    "c7_square_true": NOT_REFUTED,
    "c7_tight_minimum_true": NOT_REFUTED,
    "c7_log_tight_true": NOT_REFUTED,
}


def run_claim(path: Path) -> tuple[int, dict]:  # type: ignore[type-arg]
    out = StringIO()
    code = main(["claim", str(path), "--json"], out=out)
    return code, json.loads(out.getvalue())


def test_every_soundness_claim_has_an_expectation() -> None:
    assert sorted(p.stem for p in SOUNDNESS.glob("*.toml")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_claim_of_known_truth_gets_an_honest_verdict(name: str) -> None:
    verdicts, code = EXPECTED[name]
    got, data = run_claim(SOUNDNESS / f"{name}.toml")
    assert data["verdict"] in verdicts, data["evidence"]
    if code >= 0:
        assert got == code, data["evidence"]
    if data["verdict"] == "refuted":
        assert data["counterexample"] is not None and "confirmed" in data["evidence"]
    if data["verdict"] == "checked":
        assert data["points"] >= 20, data["evidence"]
    if data["verdict"] == "undecided" and name.startswith("c6b"):
        assert "only 2 distinct defined point(s) were evaluated" in data["evidence"]
    if data["verdict"] == "undecided" and name.startswith("c5"):
        # the suspect point, and why it could not be confirmed
        assert data["suspect"].startswith("suspect point at x = "), data
        assert "could not be confirmed because" in data["suspect"]


def test_a_box_of_an_unbounded_domain_is_not_the_claim() -> None:
    # sqrt(x**2 + 1) >= x + 1e-40 is false beyond 5e39; Arb certifies it on [1e-6, 5].  With
    # no search beyond the sampled points nothing sees the failure: checked, not certified.
    d = load_claim(SOUNDNESS / "c6a_box_only_false.toml")
    result = check_claim(d, CheckOptions(search_budget=0))
    assert result.verdict is Verdict.CHECKED, result.evidence
    assert result.certificate is not None
    assert result.certificate.status is CertificateStatus.CERTIFIED
    assert not result.certificate.whole_domain
    assert "which is not the whole domain: beyond that box only the sampling" in result.evidence


def test_the_points_on_the_boundary_are_shown_exactly() -> None:
    _, data = run_claim(SOUNDNESS / "c6d_boundary_strict_false.toml")
    assert data["counterexample"] == {"x": "sqrt(2)"}
    _, data = run_claim(SOUNDNESS / "c6d_end_third_false.toml")
    assert data["counterexample"] == {"x": "1/3"}


# -- the verdict policy on records (classes 5, 6a, 6b; item 4) -------------------------------

EVIDENCE = NumericEvidence(points=250, digits=50)
CEX = Counterexample(point={"x": "5"}, lhs="0", rhs="1", digits=50)
NO_PROOF = SymbolicProof(None)
PROOF = SymbolicProof("a rule")
UNSURE = RefereeRecord(RefereeKind.ARB, None, "no rigorous enclosure for floor")


def refuted_spot(point: float = 5.0) -> SpotOutcome:
    return SpotOutcome(Verdict.REFUTED, EVIDENCE, CEX, 0, (mpmath.mpf(point),))


def certificate(lo: float, hi: float, *, whole: bool = False) -> CertificateRecord:
    return CertificateRecord(
        CertificateStatus.CERTIFIED, {"x": (lo, hi)}, boxes=3, bits=64, whole_domain=whole
    )


@pytest.mark.parametrize("relation", [Relation.EQ, Relation.LE, Relation.GT])
def test_a_suspect_point_leaves_an_unproved_step_undecided(relation: Relation) -> None:
    d = decide(Records(relation, refuted_spot(), NO_PROOF, (UNSURE,)))
    assert d.verdict is Verdict.UNDECIDED and d.counterexample is None
    assert d.suspect.startswith("suspect point at x = 5") and "floor" in d.suspect
    assert d.evidence.startswith("a violation was seen and not confirmed: suspect point")


def test_a_suspect_point_leaves_a_proof_standing_and_reported() -> None:
    d = decide(Records(Relation.LE, refuted_spot(), PROOF, (UNSURE,)))
    assert d.verdict is Verdict.PROVED and d.suspect and "suspect point" in d.evidence


def test_a_dismissal_without_a_proved_bound_is_no_dismissal() -> None:
    opaque = RefereeRecord(
        RefereeKind.ARB,
        False,
        "residual 1 +- 1e-30",
        method="Arb at 128 bits, with OptimalDelta evaluated by its own routine at 120 digits "
        "(no proved error bound for it)",
        unbounded=True,
    )
    d = decide(Records(Relation.LE, refuted_spot(), NO_PROOF, (opaque,)))
    assert d.verdict is Verdict.UNDECIDED and "no proved bound either" in d.suspect


def test_a_certificate_whose_box_holds_the_suspect_point_dismisses_it() -> None:
    r = Records(Relation.LE, refuted_spot(0.5), NO_PROOF, (UNSURE,))
    assert needs_certificate(r)
    inside = decide(dataclasses.replace(r, certificate=certificate(0.0, 1.0, whole=True)))
    assert inside.verdict is Verdict.CERTIFIED and not inside.suspect
    short = decide(dataclasses.replace(r, certificate=certificate(0.0, 1.0)))
    assert short.verdict is Verdict.CHECKED and "evaluator failure" in short.evidence
    outside = decide(dataclasses.replace(r, certificate=certificate(2.0, 3.0)))
    assert outside.verdict is Verdict.UNDECIDED and outside.suspect


def test_certified_only_on_the_whole_domain() -> None:
    checked = SpotOutcome(Verdict.CHECKED, EVIDENCE, None)
    r = Records(Relation.LE, checked, NO_PROOF, (), certificate(1e-6, 5.0))
    assert decide(r).verdict is Verdict.CHECKED
    r = Records(Relation.LE, checked, NO_PROOF, (), certificate(0.0, 5.0, whole=True))
    assert decide(r).verdict is Verdict.CERTIFIED


@pytest.mark.parametrize("points", [0, 1, MIN_CHECKED_POINTS - 1, MIN_CHECKED_POINTS])
def test_checked_needs_a_minimum_of_defined_points(points: int) -> None:
    spot = SpotOutcome(Verdict.CHECKED, NumericEvidence(points=points, digits=50), None)
    d = decide(Records(Relation.LE, spot, NO_PROOF))
    if points >= MIN_CHECKED_POINTS:
        assert d.verdict is Verdict.CHECKED
    else:
        assert d.verdict is Verdict.UNDECIDED
        assert f"fewer than the {MIN_CHECKED_POINTS} a checked verdict needs" in d.evidence
    assert decide(Records(Relation.LE, spot, PROOF)).verdict is Verdict.PROVED


def test_two_rigorous_referees_that_disagree_are_an_engine_inconsistency() -> None:
    exact = RefereeRecord(
        RefereeKind.EXACT,
        True,
        "residual -1",
        method="exactly",
        conflict="Arb at 128 bits says the relation holds there (residual 1 +- 1e-40)",
    )
    d = decide(Records(Relation.LE, refuted_spot(), NO_PROOF, (exact,)))
    assert d.inconsistent and "two routes disagree" in d.evidence
    assert "exactly the relation fails there (residual -1)" in d.evidence
    assert "Arb at 128 bits says the relation holds there" in d.evidence


def test_the_exact_route_is_cross_checked_by_arb(monkeypatch: pytest.MonkeyPatch) -> None:
    x = sp.Symbol("x", real=True)
    fine = confirm_violation(x, Relation.GE, sp.Integer(-100), [x], [mpmath.mpf(-1000)])
    assert fine.confirmed is True and not fine.conflict
    real = confirm_module._by_arb

    def lying(*args: object, **kwargs: object) -> object:
        ruling = real(*args, **kwargs)  # type: ignore[arg-type]
        return dataclasses.replace(ruling, confirmed=not ruling.confirmed)

    monkeypatch.setattr(confirm_module, "_by_arb", lying)
    ruling = confirm_violation(x, Relation.GE, sp.Integer(-100), [x], [mpmath.mpf(-1000)])
    assert ruling.confirmed is True and "says the relation holds there" in ruling.conflict
    d = parse_claim('[claim]\nlhs = "x"\nrelation = ">="\nrhs = "-100"\n[variables]\nx = "R"\n')
    with pytest.raises(EngineInconsistency, match="two routes disagree"):
        check_claim(d, CheckOptions(points=20, search_budget=10, certify=False))


def test_a_closed_form_that_dismisses_a_sampled_violation_is_a_conflict(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # SymPy's closed form (doit) of a sum is no proved enclosure: against a violation that
    # mpmath's own summation sees stably, neither is chosen.
    k, x = sp.Symbol("k", integer=True), sp.Symbol("x", positive=True)
    total = sp.Sum(x**k / sp.factorial(k), (k, 0, sp.oo))
    monkeypatch.setattr(confirm_module, "enclose", _closed_form_only)
    ruling = confirm_violation(total, Relation.LE, sp.exp(x) + 1, [x], [mpmath.mpf(1)])
    assert ruling.confirmed is False and "closed form" in ruling.method
    assert "finds the relation fails there" in ruling.conflict


def _closed_form_only(expr, symbols, balls, exact, notes=None):  # type: ignore[no-untyped-def]
    """enclose() as if the sum had no term-wise enclosure: through SymPy's closed form."""
    from numeric_checks.arb import compile_arb
    from numeric_checks.enclose import CLOSED_FORM
    from numeric_checks.rigorous.calculus import EnclosureNote

    closed = expr.replace(lambda e: isinstance(e, sp.Sum), lambda e: e.doit())
    if notes is not None:
        notes.append(EnclosureNote(f"{CLOSED_FORM}the sum", closed_form=True))
    return compile_arb(list(symbols), [closed.xreplace(exact)], extended=True)(*balls)[0]


def _step(verdict: Verdict, *, suspect: bool = False) -> StepResult:
    doubt = Unconfirmed(Counterexample({"x": "1"}, "2", "1", 50), None) if suspect else None
    return StepResult(0, "a", "<=", "b", "conclusion", verdict, "on its own", doubt=doubt)


def test_a_chain_that_shows_the_claim_and_a_refuted_conclusion_are_inconsistent() -> None:
    for chain in (Verdict.PROVED, Verdict.CERTIFIED):
        with pytest.raises(EngineInconsistency, match="the chain shows the claim"):
            follows_from_chain(_step(Verdict.REFUTED), chain)
    assert follows_from_chain(_step(Verdict.REFUTED), Verdict.CHECKED).verdict is Verdict.REFUTED


def test_a_suspect_conclusion_is_raised_only_by_a_proved_chain() -> None:
    suspect = _step(Verdict.UNDECIDED, suspect=True)
    assert follows_from_chain(suspect, Verdict.CHECKED).verdict is Verdict.UNDECIDED
    assert follows_from_chain(suspect, Verdict.CERTIFIED).verdict is Verdict.UNDECIDED
    assert follows_from_chain(suspect, Verdict.PROVED).verdict is Verdict.PROVED
    plain = _step(Verdict.UNDECIDED)
    assert follows_from_chain(plain, Verdict.CHECKED).verdict is Verdict.CHECKED


# -- the rule at every level ----------------------------------------------------------------


def test_a_suspect_point_at_one_length_leaves_a_family_claim_undecided(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pipeline, "arb_referee", lambda plan, link, point: UNSURE)
    d = load_claim(CLAIMS / "family_product_false.toml")
    result = check_claim(d, CheckOptions(points=40, search_budget=20))
    assert result.verdict is Verdict.UNDECIDED, result.evidence
    assert result.suspect.startswith("at n = "), result.suspect
    assert "a violation was seen and not confirmed" in result.evidence


def test_an_oracle_disagreement_neither_confirmed_nor_dissolved_is_undecided() -> None:
    from derivations.catalog import get
    from numeric_checks import check_derivation
    from symbolic.derivation import Oracle, OracleOutcome

    def flaky(values: object) -> OracleOutcome:
        if mpmath.mp.dps > 60:
            raise ValueError("cannot compute at this precision (test)")
        return OracleOutcome(False, f"fake oracle disagrees at {mpmath.mp.dps} digits")

    d = dataclasses.replace(get("laplace-ratio"), oracle=Oracle("fake", "a test oracle", flaky))
    report = check_derivation(d, CheckOptions(points=40, search_budget=20))
    assert report.oracle is not None and report.oracle.agrees is None
    assert "cannot compute at this precision" in report.oracle.suspect
    assert report.verdict is Verdict.UNDECIDED
