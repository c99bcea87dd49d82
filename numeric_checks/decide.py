"""The verdict policy: one pure function from a link's stage records to its verdict.

This is the project's core contract (``shared/DESIGN.md``), in one place:

1. a sampled violation counts only once a rigorous referee (exact evaluation, or Arb balls
   at a raised precision) *confirms* it: then the link is ``refuted`` and the evidence says
   how it was confirmed; if the rules also claimed a proof, that is an engine inconsistency
   (``Decision.inconsistent``: the pipeline stops with exit 4), and so is a disagreement of
   two rigorous routes on the same point (a referee's ``conflict``), or a certificate on a
   box that contains a confirmed counterexample;
2. a violation a rigorous referee shows is none (the relation holds at the point) is an
   *evaluator failure*: reported, and the link goes on as if the point had passed;
3. a violation neither confirmed nor dismissed is a *suspect point*: the link is
   ``undecided`` (exit 3), the evidence giving the point and why it could not be confirmed,
   never ``checked``; if the rules proved the link it stays ``proved`` and the suspect point
   is reported; a certificate whose box holds the point dismisses it (Arb shows the relation
   on the whole box);
4. the rules proved it: ``proved`` (it was spot-checked too);
5. otherwise sampling's own verdict: ``checked`` (at least :data:`MIN_CHECKED_POINTS`
   defined points at D digits) or ``undecided``;
6. a ``checked`` inequality may then be ``certified`` -- only where the certificate covers
   the whole domain (a box, with every region outside it proved); certified on a box short of
   the domain it stays ``checked``, the evidence saying what the box showed -- or ``refuted``
   by Arb.

:func:`needs_evalf` and :func:`needs_certificate` say which stages the pipeline runs next;
they too read records only.  Nothing here evaluates anything.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from numeric_checks.search import MIN_CHECKED_POINTS, SpotOutcome
from numeric_checks.stages import SymbolicProof
from symbolic.evidence import (
    HEAD,
    ArbRefuted,
    BoxHoldsSuspect,
    BoxOnly,
    Certified,
    Confirmed,
    Conflict,
    FewPoints,
    NoProof,
    ProvedSpot,
    Said,
    Sampled,
    Suspected,
    Unconfirmed,
    WithCertificate,
    words,
)
from symbolic.relations import Relation
from symbolic.report import (
    CertificateRecord,
    CertificateStatus,
    Counterexample,
    RefereeKind,
    RefereeRecord,
)
from symbolic.verdicts import Verdict

__all__ = [
    "MIN_CHECKED_POINTS",
    "Decision",
    "Records",
    "confirmed",
    "decide",
    "needs_certificate",
    "needs_confirmation",
    "needs_evalf",
    "rigorous",
]


@dataclass(frozen=True)
class Records:
    """Everything the stages found about one link."""

    relation: Relation
    spot: SpotOutcome
    proof: SymbolicProof
    referees: tuple[RefereeRecord, ...] = ()
    certificate: CertificateRecord | None = None
    min_points: int = MIN_CHECKED_POINTS
    """Defined points a ``checked`` verdict needs (see :data:`MIN_CHECKED_POINTS`)."""

    def referee(self, kind: RefereeKind) -> RefereeRecord | None:
        return next((r for r in self.referees if r.kind is kind), None)


@dataclass(frozen=True)
class Decision:
    verdict: Verdict
    said: Said
    """The decision's record (:mod:`symbolic.evidence`): the printing layer words it."""
    counterexample: Counterexample | None
    inconsistent: bool = False
    """Two routes decided the link the opposite ways (a rigorously confirmed violation of a
    link the rules proved, two rigorous referees, a certificate and a confirmed violation):
    a bug of the engine."""
    doubt: Unconfirmed | None = None
    """A sampled violation neither confirmed nor dismissed (None when there is none)."""

    @property
    def evidence(self) -> str:
        return words(self.said)

    @property
    def head(self) -> str:
        """The decision in a few words (the first clause of ``evidence``), for the short
        line of a report."""
        return words(self.said, HEAD)

    @property
    def suspect(self) -> str:
        """The suspect point and why, in words (empty when there is none)."""
        return "" if self.doubt is None else words(self.doubt)


RIGOROUS = (RefereeKind.EXACT, RefereeKind.ARB)
"""The referees whose ruling on a violation carries an error bound."""


def rigorous(r: Records) -> RefereeRecord | None:
    """The rigorous referee's ruling on the sampled violation, if one ran."""
    return next((x for x in r.referees if x.kind in RIGOROUS), None)


def confirmed(r: Records) -> bool:
    """The sampled violation is a counterexample: a rigorous referee confirmed it."""
    ruling = rigorous(r)
    return ruling is not None and ruling.confirmed is True


def needs_evalf(r: Records) -> bool:
    """Proved by rules but refuted by sampling, and no rigorous referee could decide the
    point: ask SymPy's evalf (reported only: it carries no error bound, so it decides
    nothing)."""
    ruling = rigorous(r)
    return (
        r.spot.verdict is Verdict.REFUTED
        and r.proof.proved
        and r.spot.point is not None
        and (ruling is None or ruling.confirmed is None)
    )


def dissolved(r: Records) -> bool:
    """The numeric violation vanished under evalf: the proof stands."""
    referee = r.referee(RefereeKind.EVALF)
    return referee is not None and referee.confirmed is False


def needs_confirmation(r: Records) -> bool:
    """A sampled violation must be confirmed by a rigorous referee before it refutes."""
    return r.spot.verdict is Verdict.REFUTED and r.spot.point is not None and rigorous(r) is None


def needs_certificate(r: Records, *, enabled: bool = True) -> bool:
    """Only a numerically ``checked`` inequality is worth enclosing on a box, or one whose
    only doubt is a suspect point (a certificate over a box holding it settles it)."""
    if not enabled or r.relation is Relation.EQ:
        return False
    before = _before_certificate(r)
    return before.verdict is Verdict.CHECKED or (
        before.verdict is Verdict.UNDECIDED and before.doubt is not None and not before.inconsistent
    )


def decide(r: Records) -> Decision:
    """The link's verdict, evidence and counterexample from its records (see module doc)."""
    before = _before_certificate(r)
    cert = r.certificate
    if before.doubt is not None and before.verdict is Verdict.UNDECIDED:
        return _suspect_and_certificate(r, before)
    if cert is None or before.verdict is not Verdict.CHECKED:
        return before
    return _with_certificate(before, cert)


def _with_certificate(before: Decision, cert: CertificateRecord) -> Decision:
    """A ``checked`` link and its certificate."""
    if cert.status is CertificateStatus.CERTIFIED:
        if cert.whole_domain:
            return Decision(Verdict.CERTIFIED, Certified(cert), None)
        # The box is not the claim: outside it there is only sampling (issue 38).
        return Decision(Verdict.CHECKED, BoxOnly(before.said, cert), None)
    if cert.status is CertificateStatus.REFUTED:
        # Rigorous, but the numeric search saw nothing: say so rather than hide it.
        return Decision(Verdict.REFUTED, ArbRefuted(before.said, cert), None)
    return Decision(before.verdict, WithCertificate(before.said, cert), None)


def _suspect_and_certificate(r: Records, before: Decision) -> Decision:
    """A suspect point, and the certificate (if one ran): a certified box that holds the
    point shows the relation there rigorously (the violation was the evaluator's)."""
    cert = r.certificate
    if cert is None:
        return before
    if cert.status is CertificateStatus.CERTIFIED and _inside(r.spot.point, cert):
        assert before.doubt is not None
        seen = dataclasses.replace(before.doubt, seen=True)
        checked = Decision(Verdict.CHECKED, BoxHoldsSuspect(r.spot.evidence, seen), None)
        return _with_certificate(checked, cert)
    if cert.status is CertificateStatus.REFUTED:
        return _with_certificate(before, cert)
    return dataclasses.replace(before, said=WithCertificate(before.said, cert))


def _inside(point: tuple[Any, ...] | None, cert: CertificateRecord) -> bool:
    """The point lies in the certificate's box (its sides in the free variables' order)."""
    if point is None:
        return False
    if cert.whole_domain:
        return True
    sides = list(cert.box.values())
    if len(sides) != len(point):
        return False
    return all(lo <= v <= hi for v, (lo, hi) in zip(point, sides, strict=True))


def _before_certificate(r: Records) -> Decision:
    spot, trace = r.spot, r.proof.describe()
    numeric = spot.evidence
    cex = spot.counterexample
    if spot.verdict is Verdict.REFUTED and cex is not None:
        conflict = next((x for x in r.referees if x.conflict), None)
        if conflict is not None:
            return Decision(Verdict.UNDECIDED, Conflict(cex, conflict), None, inconsistent=True)
        ruling = rigorous(r)
        if ruling is not None and ruling.confirmed is True:
            said = Confirmed(cex, ruling, trace or None)
            return Decision(Verdict.REFUTED, said, cex, inconsistent=bool(trace))
        note = Unconfirmed(cex, ruling, r.referee(RefereeKind.EVALF))
        doubt = None if note.dismissed else note
        if trace:
            return Decision(Verdict.PROVED, ProvedSpot(trace, numeric, note), None, doubt=doubt)
        if doubt is None:
            return _sampled(spot, note, r.min_points)
        return Decision(Verdict.UNDECIDED, Suspected(note, numeric, cex), None, doubt=doubt)
    if trace:
        return Decision(Verdict.PROVED, ProvedSpot(trace, numeric), None)
    if spot.verdict is Verdict.CHECKED:
        return _sampled(spot, None, r.min_points)
    return Decision(spot.verdict, NoProof(numeric, spot.budget_spent, spot.ties), None)


def _sampled(spot: SpotOutcome, note: Unconfirmed | None, minimum: int) -> Decision:
    """Sampling's verdict: ``checked`` only on at least ``minimum`` defined points
    (:data:`MIN_CHECKED_POINTS`: one point agreeing is no evidence for a claim over a
    domain)."""
    points = spot.evidence.points if spot.distinct is None else spot.distinct
    if points < minimum:
        said = Sampled(spot.evidence, note, FewPoints(points, minimum))
        return Decision(Verdict.UNDECIDED, said, None)
    return Decision(Verdict.CHECKED, Sampled(spot.evidence, note), None)
