"""What a step's verdict rests on, as records: the decision and the records it was made from.

The engine decides and records; it never words (issue 42, "words at the edge").  Each
record here is one kind of decision, holding the stage records it rests on (the sample's
:class:`~symbolic.report.NumericEvidence`, a :class:`~symbolic.report.Counterexample`, a
referee's :class:`~symbolic.report.RefereeRecord`, a
:class:`~symbolic.report.CertificateRecord`, a proof trace); a decision reached from another
(a certificate after sampling, the cases of a split, a conclusion raised by its chain, the
instances of a family) holds that other record, never its words.  The printing layer writes
the sentence and the short head of every kind (``derivations.printing.evidence``), reached
through :func:`words`, so that the engine never imports it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from symbolic.notebook import render
from symbolic.report import (
    EVIDENCE,
    HEAD,
    CertificateRecord,
    Counterexample,
    NumericEvidence,
    RefereeRecord,
)
from symbolic.verdicts import Verdict

__all__ = [
    "EVIDENCE",
    "HEAD",
    "ArbRefuted",
    "AtLengths",
    "BoxHoldsSuspect",
    "BoxOnly",
    "Certified",
    "Chain",
    "Confirmed",
    "Conflict",
    "EveryLength",
    "Family",
    "FewPoints",
    "Grounds",
    "GroundsKind",
    "Headline",
    "Identity",
    "InCases",
    "InstanceRefuted",
    "NoProof",
    "Obstacle",
    "ObstacleKind",
    "Outcome",
    "ProvedSpot",
    "Said",
    "Sampled",
    "Split",
    "Spotted",
    "Step",
    "Suspected",
    "Unconfirmed",
    "WithCertificate",
    "dismissed",
    "words",
]


class Said:
    """A record the printing layer words (every class of this module)."""


def words(record: object, mime: str = EVIDENCE) -> str:
    """``record`` worded by the printing layer (loaded by name the first time): a decision
    record of this module, or a stage record it rests on (a counterexample, the sample, a
    certificate, a referee's ruling, a reliance)."""
    return render(record, mime)


def dismissed(ruling: RefereeRecord | None) -> bool:
    """A rigorous referee showed the relation *holds* at the sampled point (an evaluator
    failure).  Not when its ruling rests on a numeric function valued by its own routine
    with no proved error bound (two unproved evaluations disagreeing settle nothing), nor
    when another route decided the point the other way (``conflict``)."""
    return (
        ruling is not None
        and ruling.confirmed is False
        and not ruling.conflict
        and not ruling.unbounded
    )


@dataclass(frozen=True)
class Unconfirmed(Said):
    """A sampled violation no rigorous referee confirmed, at ``at`` (the shown point, or
    the sample when no point is shown): dismissed (an evaluator failure: a rigorous referee
    shows the relation holds there) or a suspect point, with the referees' rulings."""

    at: Counterexample | NumericEvidence
    ruling: RefereeRecord | None
    evalf: RefereeRecord | None = None
    seen: bool = False
    """Said as "the sampled violation" (a certificate's box holds it) rather than as a
    suspect point."""

    @property
    def dismissed(self) -> bool:
        return dismissed(self.ruling)


@dataclass(frozen=True)
class Spotted(Said):
    """What a sample showed (a point, or the sample), and the referee that confirmed the
    violation there (an induction's base case)."""

    at: Counterexample | NumericEvidence
    confirmed_by: RefereeRecord | None = None


class GroundsKind(Enum):
    LEMMA = "lemma"
    CITE = "cite"
    FOUNDATION = "foundation"
    NOT_PROVED = "not proved"
    """The cited rules did not prove the step (nothing did, symbolically)."""
    CITED_RULES = "cited rules"
    """The step was proved by the rules its justification cites."""
    ANOTHER_WAY = "another way"
    """The step was proved, but not by (all of) the rules it cites."""


@dataclass(frozen=True)
class Grounds(Said):
    """What a step rests on beyond its own check (``StepResult.basis``): a catalog lemma and
    its verdict in this run (None: not checked here), an unchecked cited result, a named
    foundation (``ref``), or whether the rules its justification cites proved it
    (``rules``: the cited rules, or for ``ANOTHER_WAY`` those the proof did not use)."""

    kind: GroundsKind
    ref: str = ""
    verdict: Verdict | None = None
    rules: tuple[str, ...] = ()


# Decisions of one link (numeric_checks.decide): one record per kind.


@dataclass(frozen=True)
class Conflict(Said):
    """Two rigorous routes decided the point the opposite ways (an engine inconsistency)."""

    at: Counterexample
    referee: RefereeRecord


@dataclass(frozen=True)
class Confirmed(Said):
    """A counterexample a rigorous referee confirmed; ``claimed`` the rules' proof trace
    when they also claimed a proof (an engine inconsistency)."""

    at: Counterexample
    ruling: RefereeRecord
    claimed: str | None = None


@dataclass(frozen=True)
class ProvedSpot(Said):
    """Proved by the rules (``trace``), and spot-checked; ``note`` a sampled violation that
    was not confirmed (a suspect point, or an evaluator failure)."""

    trace: str
    numeric: NumericEvidence
    note: Unconfirmed | None = None


@dataclass(frozen=True)
class FewPoints(Said):
    """Fewer distinct defined points than a ``checked`` verdict needs."""

    points: int
    minimum: int


@dataclass(frozen=True)
class Sampled(Said):
    """Sampling's own verdict: no counterexample (``note`` None), or a violation dismissed
    as an evaluator failure (``note``); ``few`` when too few points were defined."""

    numeric: NumericEvidence
    note: Unconfirmed | None = None
    few: FewPoints | None = None


@dataclass(frozen=True)
class Suspected(Said):
    """A violation seen and not confirmed: the link is undecided."""

    note: Unconfirmed
    numeric: NumericEvidence
    at: Counterexample


@dataclass(frozen=True)
class NoProof(Said):
    """No proof and sampling decided nothing (or the budget was spent first)."""

    numeric: NumericEvidence
    budget_spent: bool = False
    ties: int = 0


@dataclass(frozen=True)
class BoxHoldsSuspect(Said):
    """Sampled, and a certificate's box holds the suspect point: an evaluator failure."""

    numeric: NumericEvidence
    note: Unconfirmed


@dataclass(frozen=True)
class Certified(Said):
    """Certified by Arb on the whole domain."""

    certificate: CertificateRecord


@dataclass(frozen=True)
class BoxOnly(Said):
    """Certified on a box short of the domain: beyond it only the sampling speaks."""

    before: Said
    certificate: CertificateRecord


@dataclass(frozen=True)
class ArbRefuted(Said):
    """Refuted by Arb on the certificate's box where sampling saw nothing."""

    before: Said
    certificate: CertificateRecord


@dataclass(frozen=True)
class WithCertificate(Said):
    """A decision and a certificate that changed nothing (gave up, not certifiable)."""

    before: Said
    certificate: CertificateRecord


# What stands between a step and a proof (numeric_checks.why_not_proved).


class ObstacleKind(Enum):
    CONDITIONAL = "conditional"
    """Proved only where a side condition holds that the hypotheses do not give."""
    OPAQUE = "opaque"
    """Functions computed numerically, with no symbolic form and no Arb enclosure."""
    EQUALITY = "equality"
    """An equality no tactic reduced (certification encloses inequalities only)."""
    NOT_CERTIFIED = "not certified"
    CERTIFICATE_SHORT = "certificate short"
    """Certified on a box short of the domain."""
    GENERAL = "general"
    """General mode: no rule proved the link for every length."""


@dataclass(frozen=True)
class Obstacle(Said):
    """Why a step is not proved: its kind, and what it names: the functions computed
    numerically; or the side conditions not shown (``names``) and the trace of the proof
    that needs them (``conditional``)."""

    kind: ObstacleKind
    names: tuple[str, ...] = ()
    conditional: str = ""


# A step's whole evidence, and the decisions composed from other steps'.


@dataclass(frozen=True)
class Identity(Said):
    """A hypothesis that holds identically once the definitions are substituted."""

    hypothesis: str


@dataclass(frozen=True)
class Headline(Said):
    """A decision said in its few words only (general mode's ``checked`` link, whose
    decision is its head, why it is not proved following)."""

    of: Said


@dataclass(frozen=True)
class Step(Said):
    """A step's evidence: its decision, why it is not proved, notes on the hypotheses
    (each the hypothesis that holds identically once definitions are substituted) and a
    counterexample family's table, in that order."""

    decision: Said
    obstacle: Obstacle | None = None
    identities: tuple[Identity, ...] = ()
    notes: tuple[str, ...] = ()
    """General mode's notes on the lengths (before the table, which ends the evidence)."""
    table: str = ""


@dataclass(frozen=True)
class Outcome:
    """One case or instance: its verdict and its evidence."""

    verdict: Verdict
    said: Said | str
    """A record, or a sentence given as is (a record a caller built by hand)."""


@dataclass(frozen=True)
class Split(Said):
    """A case split of an equality hypothesis (``x*y == 0``): the variable, how it is
    given in the cases, and the cases shown empty."""

    equality: str
    variable: str
    how: str
    empty: tuple[str, ...] = ()


@dataclass(frozen=True)
class InCases(Said):
    """A step checked by cases of an equality hypothesis (``by cases on x*y == 0``)."""

    split: Split
    cases: tuple[tuple[str, Outcome], ...]
    base: int = 0
    """The case whose record the step keeps (the first with the weakest verdict)."""


@dataclass(frozen=True)
class Chain(Said):
    """A conclusion raised to its chain's verdict; ``own`` its own check's decision."""

    chain: Verdict
    own: Said | str
    """The decision of the conclusion's own check."""
    was: Said | str = ""
    """The conclusion's own evidence (what its other fields were read from)."""


class Family(Enum):
    """General mode's verdict of a link when no instance refuted it."""

    PROVED = "proved"
    SUSPECT = "suspect"
    FEW = "few"
    CHECKED = "checked"
    NONE = "none"


@dataclass(frozen=True)
class InstanceRefuted(Said):
    """General mode: an instance (``lengths``) refuted the link."""

    lengths: Mapping[str, object]
    instance: Said | str
    """The refuting instance's whole evidence."""


@dataclass(frozen=True)
class AtLengths(Said):
    """An instance's record (a suspect point) at its lengths."""

    lengths: Mapping[str, object]
    inner: Said | str


@dataclass(frozen=True)
class EveryLength(Said):
    """General mode: what the proof for every length and the instances showed."""

    kind: Family
    covered: str
    """The lengths checked (``n = 1..8, 12``: see ``general.instances.covered``)."""
    per: int
    trace: str | None = None
    suspect: AtLengths | None = None
    """The first instance with a suspect point: its lengths and its suspect point."""
    undecided: tuple[Mapping[str, object], ...] = ()
    checked_points: int = 0
    minimum: int = 0
