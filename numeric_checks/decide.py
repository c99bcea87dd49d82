"""The verdict policy: one pure function from a link's stage records to its verdict.

This is the project's core contract (``shared/DESIGN.md``), in one place:

1. a sampled violation counts only once a rigorous referee (Arb balls at a raised
   precision, or exact evaluation) *confirms* it: then the link is ``refuted`` and the
   evidence says how it was confirmed; if the rules also claimed a proof, that is an engine
   inconsistency (``Decision.inconsistent``: the pipeline stops with exit 4);
2. an unconfirmed violation is a *suspect point*, reported with why it was not confirmed
   (or as an evaluator failure when the referee shows the relation holds there): the link
   is then ``proved`` if the rules proved it, ``checked`` when the referee showed the
   relation holds there, else ``undecided`` (issue 39: a violation seen where no enclosure
   decides it is never ``checked`` with exit 0), and never ``refuted``;
3. the rules proved it: ``proved`` (it was spot-checked too);
4. otherwise sampling's own verdict: ``checked`` (N points at D digits) or ``undecided``;
5. a ``checked`` inequality may then be ``certified`` on a box, or ``refuted`` by Arb.

:func:`needs_evalf` and :func:`needs_certificate` say which stages the pipeline runs next;
they too read records only.  Nothing here evaluates anything.
"""

from __future__ import annotations

from dataclasses import dataclass

from numeric_checks.search import SpotOutcome
from numeric_checks.stages import SymbolicProof
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

    def referee(self, kind: RefereeKind) -> RefereeRecord | None:
        return next((r for r in self.referees if r.kind is kind), None)


@dataclass(frozen=True)
class Decision:
    verdict: Verdict
    evidence: str
    counterexample: Counterexample | None
    inconsistent: bool = False
    """A rigorously confirmed violation of a link the rules proved: a bug of the engine."""


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


needs_arb = needs_confirmation  # the name before issue 23


def needs_certificate(r: Records, *, enabled: bool = True) -> bool:
    """Only a numerically ``checked`` inequality is worth enclosing on a box."""
    return (
        enabled
        and r.relation is not Relation.EQ
        and (_before_certificate(r).verdict is Verdict.CHECKED or _suspect(r))
    )


def _suspect(r: Records) -> bool:
    """A sampled violation that no referee decided (not confirmed, not shown to hold) and
    no rule proved: the link is ``undecided`` unless a certificate covers its whole
    domain."""
    ruling = rigorous(r)
    return (
        r.spot.verdict is Verdict.REFUTED
        and r.spot.counterexample is not None
        and not r.proof.describe()
        and (ruling is None or ruling.confirmed is None)
    )


def decide(r: Records) -> Decision:
    """The link's verdict, evidence and counterexample from its records (see module doc)."""
    before = _before_certificate(r)
    cert = r.certificate
    if cert is not None and _suspect(r):
        # A certificate outweighs an unconfirmed violation only where it covers the point,
        # i.e. the whole domain; on a box it is reported beside the suspect.
        if cert.status is CertificateStatus.CERTIFIED and cert.whole_domain:
            return Decision(Verdict.CERTIFIED, f"{cert.describe()}; {before.evidence}", None)
        if cert.status is not CertificateStatus.REFUTED:
            return Decision(before.verdict, f"{before.evidence}; {cert.describe()}", None)
    if cert is None or (before.verdict is not Verdict.CHECKED and not _suspect(r)):
        return before
    if cert.status is CertificateStatus.NOT_CERTIFIABLE:
        return Decision(before.verdict, f"{before.evidence}; {cert.describe()}", None)
    if cert.status is CertificateStatus.CERTIFIED:
        beyond = "" if cert.whole_domain else "; beyond that box " + before.evidence
        return Decision(Verdict.CERTIFIED, cert.describe() + beyond, None)
    if cert.status is CertificateStatus.REFUTED:
        # Rigorous, but the numeric search saw nothing: say so rather than hide it.
        point = dict(cert.point) if cert.point is not None else None
        evidence = (
            f"{cert.describe()} at {point} (confirmed by Arb: the residual's ball and every "
            f"hypothesis are decided rigorously on the box there); numeric: {before.evidence}"
        )
        return Decision(Verdict.REFUTED, evidence, None)
    return Decision(before.verdict, f"{before.evidence}; {cert.describe()}", None)


def _before_certificate(r: Records) -> Decision:
    spot, trace = r.spot, r.proof.describe()
    numeric = spot.evidence.describe()
    cex = spot.counterexample
    if spot.verdict is Verdict.REFUTED and cex is not None:
        ruling = rigorous(r)
        if ruling is not None and ruling.confirmed is True:
            evidence = f"counterexample {cex.describe()}; {ruling.confirmation()}"
            if trace:
                evidence += f" [engine inconsistency: rules claimed a proof: {trace}]"
            return Decision(Verdict.REFUTED, evidence, cex, inconsistent=bool(trace))
        note = suspect_note(cex.describe(), ruling, r.referee(RefereeKind.EVALF))
        if trace:
            return Decision(Verdict.PROVED, f"{trace}; spot-checked on {numeric}; {note}", None)
        if ruling is not None and ruling.confirmed is False:
            return Decision(Verdict.CHECKED, f"numeric only: {numeric}; {note}", None)
        return Decision(Verdict.UNDECIDED, f"numeric only: {numeric}; {note}", None)
    if trace:
        return Decision(Verdict.PROVED, f"{trace}; spot-checked on {numeric}", None)
    if spot.verdict is Verdict.CHECKED:
        return Decision(Verdict.CHECKED, f"numeric only, no counterexample: {numeric}", None)
    evidence = f"no symbolic proof; numeric: {numeric}"
    if spot.budget_spent:
        evidence = f"budget spent: no symbolic proof; numeric so far: {numeric}"
    if spot.ties:
        evidence += f"; {spot.ties} point(s) tie and exactness was not shown"
    return Decision(spot.verdict, evidence, None)


def suspect_note(
    where: str, ruling: RefereeRecord | None, evalf: RefereeRecord | None = None
) -> str:
    """What the evidence says of a sampled violation that was not confirmed."""
    if ruling is not None and ruling.confirmed is False:
        how = "exactly" if ruling.method == "exactly" else f"by {ruling.method}"
        return (
            f"evaluator failure: a sampled violation {where} is not one (the relation "
            f"holds there, shown {how}: {ruling.detail})"
        )
    why = ruling.detail if ruling is not None and ruling.detail else "no rigorous referee ran"
    text = f"suspect point {where}: could not be confirmed because {why}"
    if evalf is not None and evalf.confirmed is False:
        text += "; the violation dissolved under SymPy's adaptive-precision evalf"
    return text
