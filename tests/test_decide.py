"""The verdict policy on hand-made stage records: every path of decide(), no evaluation."""

from __future__ import annotations

import dataclasses

import pytest

from numeric_checks.decide import (
    Records,
    decide,
    needs_certificate,
    needs_confirmation,
    needs_evalf,
)
from numeric_checks.search import SpotOutcome
from numeric_checks.stages import SymbolicProof
from symbolic.evidence import words
from symbolic.relations import Relation
from symbolic.report import (
    CertificateRecord,
    CertificateStatus,
    Counterexample,
    NumericEvidence,
    RefereeKind,
    RefereeRecord,
)
from symbolic.verdicts import Verdict

EVIDENCE = NumericEvidence(points=250, digits=50)
CEX = Counterexample(point={"eps": "0.5"}, lhs="2", rhs="1", digits=50)
NO_PROOF = SymbolicProof(None)
PROOF = SymbolicProof("monotonicity of exp -> hypothesis")
BOX = {"eps": (1e-6, 1.0)}


def spot(verdict: Verdict, *, ties: int = 0) -> SpotOutcome:
    if verdict is Verdict.REFUTED:
        return SpotOutcome(verdict, EVIDENCE, CEX, ties, (0.5,))
    return SpotOutcome(verdict, EVIDENCE, None, ties)


def cert(status: CertificateStatus, *, whole: bool = False, **kw: object) -> CertificateRecord:
    return CertificateRecord(
        status,
        BOX,
        boxes=57,
        seconds=0.01,
        bits=64,
        whole_domain=whole,
        **kw,  # type: ignore[arg-type]
    )


def test_proved_and_spot_agrees() -> None:
    d = decide(Records(Relation.LE, spot(Verdict.CHECKED), PROOF))
    assert d.verdict is Verdict.PROVED
    assert d.evidence == f"{PROOF.trace}; spot-checked on {words(EVIDENCE)}"
    assert d.counterexample is None


ARB_YES = RefereeRecord(RefereeKind.ARB, True, "-1 +- 1e-60", method="Arb at 128 bits")
ARB_HOLDS = RefereeRecord(RefereeKind.ARB, False, "1 +- 1e-60", method="Arb at 256 bits")
ARB_UNSURE = RefereeRecord(RefereeKind.ARB, None, "the ball at 4096 bits straddles 0")


def test_proved_but_spot_disagrees_asks_evalf_only_when_no_rigorous_ruling() -> None:
    r = Records(Relation.EQ, spot(Verdict.REFUTED), PROOF)
    assert needs_evalf(r)
    assert needs_evalf(Records(Relation.EQ, spot(Verdict.REFUTED), PROOF, (ARB_UNSURE,)))
    assert not needs_evalf(Records(Relation.EQ, spot(Verdict.REFUTED), PROOF, (ARB_YES,)))
    assert not needs_evalf(Records(Relation.EQ, spot(Verdict.REFUTED), NO_PROOF))
    assert not needs_evalf(Records(Relation.EQ, spot(Verdict.CHECKED), PROOF))


def test_a_violation_that_dissolves_under_evalf_leaves_the_proof_standing() -> None:
    referee = RefereeRecord(RefereeKind.EVALF, confirmed=False)
    d = decide(Records(Relation.EQ, spot(Verdict.REFUTED), PROOF, (referee,)))
    assert d.verdict is Verdict.PROVED
    assert "dissolved under SymPy's adaptive-precision evalf" in d.evidence
    assert d.counterexample is None


@pytest.mark.parametrize("evalf", [True, None])
def test_evalf_alone_never_refutes_a_proved_step(evalf: bool | None) -> None:
    referee = RefereeRecord(RefereeKind.EVALF, confirmed=evalf)
    d = decide(Records(Relation.EQ, spot(Verdict.REFUTED), PROOF, (referee,)))
    assert d.verdict is Verdict.PROVED and not d.inconsistent
    assert f"suspect point {words(CEX)}: could not be confirmed because" in d.evidence


def test_a_confirmed_violation_of_a_proved_step_is_an_inconsistency() -> None:
    d = decide(Records(Relation.EQ, spot(Verdict.REFUTED), PROOF, (ARB_YES,)))
    assert d.inconsistent and d.verdict is Verdict.REFUTED
    assert "engine inconsistency: rules claimed a proof" in d.evidence
    assert "confirmed by Arb at 128 bits: -1 +- 1e-60" in d.evidence


def test_checked_numeric_only() -> None:
    d = decide(Records(Relation.EQ, spot(Verdict.CHECKED), NO_PROOF))
    assert d.verdict is Verdict.CHECKED
    assert d.evidence == f"numeric only, no counterexample: {words(EVIDENCE)}"


def test_only_checked_inequalities_are_certified() -> None:
    assert needs_certificate(Records(Relation.LE, spot(Verdict.CHECKED), NO_PROOF))
    assert not needs_certificate(Records(Relation.EQ, spot(Verdict.CHECKED), NO_PROOF))
    assert not needs_certificate(Records(Relation.LE, spot(Verdict.CHECKED), PROOF))
    confirmed = Records(Relation.LE, spot(Verdict.REFUTED), NO_PROOF, (ARB_YES,))
    assert not needs_certificate(confirmed)
    # an unconfirmed (suspect) point leaves the inequality checked: worth enclosing
    assert needs_certificate(Records(Relation.LE, spot(Verdict.REFUTED), NO_PROOF))
    off = Records(Relation.LE, spot(Verdict.CHECKED), NO_PROOF)
    assert not needs_certificate(off, enabled=False)


def test_certified_on_a_box_short_of_the_domain_is_only_checked() -> None:
    # Issue 38: a box is not the claim; outside it only the sampling speaks.
    c = cert(CertificateStatus.CERTIFIED)
    d = decide(Records(Relation.LE, spot(Verdict.CHECKED), NO_PROOF, (), c))
    assert d.verdict is Verdict.CHECKED
    assert d.evidence.startswith("numeric only, no counterexample: ")
    assert "; certified on eps in [1e-06, 1] (57 boxes" in d.evidence
    assert "which is not the whole domain: beyond that box only the sampling" in d.evidence


def test_certified_on_the_whole_domain_needs_no_caveat() -> None:
    c = cert(CertificateStatus.CERTIFIED, whole=True)
    d = decide(Records(Relation.LE, spot(Verdict.CHECKED), NO_PROOF, (), c))
    assert d.verdict is Verdict.CERTIFIED and "beyond that box" not in d.evidence


def test_gave_up_stays_checked_and_says_where() -> None:
    c = cert(CertificateStatus.GAVE_UP, detail="box budget spent; stopped at eps in [0.5, 0.6]")
    d = decide(Records(Relation.LE, spot(Verdict.CHECKED), NO_PROOF, (), c))
    assert d.verdict is Verdict.CHECKED
    assert d.evidence.endswith(
        "; certification gave up on eps in [1e-06, 1] (57 boxes, "
        "0.01 s, Arb at 64 bits); box budget spent; stopped at eps in "
        "[0.5, 0.6]"
    )


def test_not_certifiable_stays_checked() -> None:
    c = CertificateRecord(CertificateStatus.NOT_CERTIFIABLE, detail="no rigorous enclosure")
    d = decide(Records(Relation.LE, spot(Verdict.CHECKED), NO_PROOF, (), c))
    assert d.verdict is Verdict.CHECKED
    assert d.evidence.endswith("; not certifiable (no rigorous enclosure)")


def test_arb_refutation_on_the_box_refutes_even_without_a_sampled_counterexample() -> None:
    c = cert(CertificateStatus.REFUTED, point={"eps": 0.25})
    d = decide(Records(Relation.LE, spot(Verdict.CHECKED), NO_PROOF, (), c))
    assert d.verdict is Verdict.REFUTED
    assert "refuted by Arb on eps in [1e-06, 1]" in d.evidence
    assert "at {'eps': 0.25} (confirmed by Arb" in d.evidence
    assert "; numeric: numeric only" in d.evidence


def test_refuted_only_with_a_rigorous_confirmation_saying_how() -> None:
    d = decide(Records(Relation.LE, spot(Verdict.REFUTED), NO_PROOF, (ARB_YES,)))
    assert d.verdict is Verdict.REFUTED
    assert d.evidence == (f"counterexample {words(CEX)}; confirmed by Arb at 128 bits: -1 +- 1e-60")
    assert d.counterexample == CEX
    exact = RefereeRecord(RefereeKind.EXACT, True, "residual -1/2", method="exactly")
    d = decide(Records(Relation.EQ, spot(Verdict.REFUTED), NO_PROOF, (exact,)))
    assert d.verdict is Verdict.REFUTED and d.evidence.endswith(
        "; confirmed exactly: residual -1/2"
    )


@pytest.mark.parametrize("referees", [(), (ARB_UNSURE,)])
def test_an_unconfirmed_violation_is_a_suspect_point_never_a_refutation(
    referees: tuple[RefereeRecord, ...],
) -> None:
    # Issues 38 and 39: a violation seen that no referee decides is undecided, never
    # `checked` with exit 0.
    records = Records(Relation.LE, spot(Verdict.REFUTED), NO_PROOF, referees)
    d = decide(records)
    assert d.verdict is Verdict.UNDECIDED and d.counterexample is None
    assert f"suspect point {words(CEX)}: could not be confirmed because" in d.evidence
    assert d.suspect.startswith(f"suspect point {words(CEX)}")
    assert needs_confirmation(Records(Relation.LE, spot(Verdict.REFUTED), NO_PROOF))
    # A certificate may still decide it, but only one whose box holds the point: on the
    # whole domain the step is certified; on a box holding the point the violation was the
    # evaluator's and the step is checked (the box is not the claim); on a box that misses
    # the point the suspect stands.
    assert needs_certificate(records)
    whole = dataclasses.replace(records, certificate=cert(CertificateStatus.CERTIFIED, whole=True))
    assert decide(whole).verdict is Verdict.CERTIFIED
    boxed = dataclasses.replace(records, certificate=cert(CertificateStatus.CERTIFIED))
    assert decide(boxed).verdict is Verdict.CHECKED
    assert "evaluator failure: the certificate's box holds the sampled violation" in (
        decide(boxed).evidence
    )
    assert "which is not the whole domain" in decide(boxed).evidence
    elsewhere = CertificateRecord(
        CertificateStatus.CERTIFIED, {"eps": (0.75, 1.0)}, boxes=3, seconds=0.01, bits=64
    )
    missed = decide(dataclasses.replace(records, certificate=elsewhere))
    assert missed.verdict is Verdict.UNDECIDED and "suspect point" in missed.evidence
    gave_up = dataclasses.replace(records, certificate=cert(CertificateStatus.GAVE_UP))
    assert decide(gave_up).verdict is Verdict.UNDECIDED


def test_a_violation_the_referee_shows_false_is_an_evaluator_failure() -> None:
    d = decide(Records(Relation.LE, spot(Verdict.REFUTED), NO_PROOF, (ARB_HOLDS,)))
    assert d.verdict is Verdict.CHECKED
    assert "evaluator failure" in d.evidence and "shown by Arb at 256 bits" in d.evidence
    d = decide(Records(Relation.LE, spot(Verdict.REFUTED), PROOF, (ARB_HOLDS,)))
    assert d.verdict is Verdict.PROVED and "evaluator failure" in d.evidence


def test_undecided_when_points_tie_and_exactness_was_not_shown() -> None:
    d = decide(Records(Relation.LT, spot(Verdict.UNDECIDED, ties=3), NO_PROOF))
    assert d.verdict is Verdict.UNDECIDED
    assert d.evidence.endswith("; 3 point(s) tie and exactness was not shown")
    assert not needs_certificate(Records(Relation.LT, spot(Verdict.UNDECIDED), NO_PROOF))


def test_a_proof_found_only_after_unfolding_says_so() -> None:
    proof = SymbolicProof("tactic identical", unfolded=True)
    d = decide(Records(Relation.EQ, spot(Verdict.CHECKED), proof))
    assert d.evidence.startswith("identical once definitions are unfolded and substituted;")
