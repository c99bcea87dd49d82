"""The verdict policy: one pure function from a link's stage records to its verdict.

This is the project's core contract (``shared/DESIGN.md``), in one place:

1. sampling refuted the link and the rules claimed a proof: the evalf referee decides; if
   the violation dissolves under SymPy's adaptive precision the link is ``proved``,
   otherwise it is ``refuted`` and the evidence reports an engine inconsistency;
2. sampling refuted it: ``refuted``, with the counterexample and the Arb referee's ruling;
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

__all__ = ["Decision", "Records", "decide", "needs_certificate", "needs_evalf"]


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


def needs_evalf(r: Records) -> bool:
    """Proved by rules but refuted by sampling: ask SymPy's evalf which to believe."""
    return r.spot.verdict is Verdict.REFUTED and r.proof.proved and r.spot.point is not None


def dissolved(r: Records) -> bool:
    """The numeric violation vanished under evalf: the proof stands."""
    referee = r.referee(RefereeKind.EVALF)
    return referee is not None and referee.confirmed is False


def needs_arb(r: Records) -> bool:
    """A counterexample that stands is re-decided by a rigorous ball (reported, not used to
    overturn: the numeric decision already required stability across precisions)."""
    return r.spot.verdict is Verdict.REFUTED and r.spot.point is not None and not dissolved(r)


def needs_certificate(r: Records, *, enabled: bool = True) -> bool:
    """Only a numerically ``checked`` inequality is worth enclosing on a box."""
    return (
        enabled
        and r.relation is not Relation.EQ
        and _before_certificate(r).verdict is Verdict.CHECKED
    )


def decide(r: Records) -> Decision:
    """The link's verdict, evidence and counterexample from its records (see module doc)."""
    before = _before_certificate(r)
    cert = r.certificate
    if cert is None or before.verdict is not Verdict.CHECKED:
        return before
    if cert.status is CertificateStatus.NOT_CERTIFIABLE:
        return Decision(before.verdict, f"{before.evidence}; {cert.describe()}", None)
    if cert.status is CertificateStatus.CERTIFIED:
        beyond = "" if cert.whole_domain else "; beyond that box " + before.evidence
        return Decision(Verdict.CERTIFIED, cert.describe() + beyond, None)
    if cert.status is CertificateStatus.REFUTED:
        # Rigorous, but the numeric search saw nothing: say so rather than hide it.
        point = dict(cert.point) if cert.point is not None else None
        evidence = f"{cert.describe()} at {point}; numeric: {before.evidence}"
        return Decision(Verdict.REFUTED, evidence, None)
    return Decision(before.verdict, f"{before.evidence}; {cert.describe()}", None)


def _before_certificate(r: Records) -> Decision:
    spot, trace = r.spot, r.proof.describe()
    numeric = spot.evidence.describe()
    cex = spot.counterexample
    if dissolved(r) and cex is not None:
        evidence = (
            f"{trace}; spot-checked on {numeric}; a numeric violation at {cex.describe()} "
            "dissolved under SymPy's adaptive-precision evalf"
        )
        return Decision(Verdict.PROVED, evidence, None)
    if spot.verdict is Verdict.REFUTED and cex is not None:
        evidence = f"counterexample {cex.describe()}" + _arb_note(r.referee(RefereeKind.ARB))
        if trace:
            evidence += f" [engine inconsistency: rules claimed a proof: {trace}]"
        return Decision(Verdict.REFUTED, evidence, cex)
    if trace:
        return Decision(Verdict.PROVED, f"{trace}; spot-checked on {numeric}", None)
    if spot.verdict is Verdict.CHECKED:
        return Decision(Verdict.CHECKED, f"numeric only: {numeric}, no counterexample", None)
    evidence = f"no symbolic proof; numeric: {numeric}"
    if spot.budget_spent:
        evidence = f"budget spent: no symbolic proof; numeric so far: {numeric}"
    if spot.ties:
        evidence += f"; {spot.ties} point(s) tie and exactness was not shown"
    return Decision(spot.verdict, evidence, None)


def _arb_note(referee: RefereeRecord | None) -> str:
    if referee is None:
        return ""
    if referee.confirmed:
        return f"; confirmed by Arb: the residual's ball there is {referee.detail}"
    return f"; Arb could not confirm it (residual ball {referee.detail})"
