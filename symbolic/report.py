"""Verdicts and report records: what was decided about each step, and on what evidence.

The verdict vocabulary is fixed (``shared/DESIGN.md``); its meanings never blur:

* ``proved``: SymPy reduced the step, or checked rules did, under the declared assumptions;
* ``certified``: rigorous interval arithmetic showed the step on a stated bounded box;
* ``checked``: numeric sampling only (N points at D digits), no counterexample;
* ``refuted``: a point satisfying every hypothesis where the step is false;
* ``undecided``: nothing above could decide.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from symbolic.notebook import render
from symbolic.proof_tree import ProofTree
from symbolic.verdicts import Verdict


def _percent(share: float) -> str:
    """A share as a percentage with three significant digits (``8.58%``, ``1.6e-109%``)."""
    value = abs(share) * 100
    return f"{value:.3g}%"


def nearest_to_failing(margin: float, relation: str, digits: int) -> str:
    """The sampled point nearest to failing, in words.  ``margin`` is the signed gap the
    sampler keeps per point: ``lhs - rhs`` for ``<=``/``<``, ``rhs - lhs`` for ``>=``/``>``
    and ``|lhs - rhs|`` for ``=``, each divided by the larger side, ``max(|lhs|, |rhs|)``
    (positive: the relation fails there); this is its largest value over the points.
    A gap within half the working digits reads as the sides meeting (a tie, or rounding).

    >>> nearest_to_failing(-0.0858, "<=", 50)
    'nearest to failing: lhs is 8.58% below rhs'
    >>> nearest_to_failing(-0.25, ">=", 50)
    'nearest to failing: lhs is 25% above rhs'
    >>> nearest_to_failing(1.6e-111, "<=", 50)
    'nearest to failing: the sides are equal to 25 digits at some point'
    >>> nearest_to_failing(7.2e-43, "=", 50)
    'largest difference between the sides: 7.2e-41% of the larger side'
    >>> nearest_to_failing(0.0, "=", 50)
    'the sides agree at every point to all 50 digits'
    >>> nearest_to_failing(0.5, "<", 50)
    'worst point: lhs is 50% above rhs (the relation fails)'
    """
    if relation == "=":
        if margin == 0:
            return f"the sides agree at every point to all {digits} digits"
        return f"largest difference between the sides: {_percent(margin)} of the larger side"
    if abs(margin) <= 10.0 ** -(digits // 2):
        return f"nearest to failing: the sides are equal to {digits // 2} digits at some point"
    upper = relation in ("<=", "<")
    if margin < 0:
        where = "below" if upper else "above"
        return f"nearest to failing: lhs is {_percent(margin)} {where} rhs"
    where = "above" if upper else "below"
    return f"worst point: lhs is {_percent(margin)} {where} rhs (the relation fails)"


@dataclass(frozen=True)
class Counterexample:
    """A point satisfying every hypothesis where a relation fails, with both sides' values."""

    point: Mapping[str, str]
    lhs: str
    rhs: str
    digits: int
    note: str = ""

    def head(self) -> str:
        """The point and both sides' values, without the note."""
        where = ", ".join(f"{k} = {v}" for k, v in self.point.items())
        at = f"at {where}" if where else "(the claim has no variables)"
        return f"{at}: lhs = {self.lhs}, rhs = {self.rhs} ({self.digits} digits)"

    def describe(self) -> str:
        return self.head() + (f"; {self.note}" if self.note else "")


@dataclass(frozen=True)
class NumericEvidence:
    """What the spot check saw: points tried and evaluated, digits, worst margin."""

    points: int
    digits: int
    undefined: int = 0
    worst_margin: str = ""
    """The largest signed relative gap over the points, as a number ("relative gap
    -0.0858"; see :func:`nearest_to_failing` for its meaning)."""
    seed: int = 0
    nearest: str = ""
    """The same in words: "nearest to failing: lhs is 8.58% below rhs"."""
    tried: int = 0
    """Points tried: sampled points reached (defined or not) and search steps evaluated."""
    untried: int = 0
    """Sampled points the run never reached (the budget stopped it first)."""
    cost: str = ""
    """The estimated work of the points tried, in terms of the link's sums and
    quadratures ("about 3.1e+04 terms"; see :mod:`numeric_checks.point_cost`)."""
    seconds: float = 0.0
    """Wall time of the numeric stage (sampling, search, shrinking)."""
    nearest_point: Mapping[str, str] | None = None
    """The defined point with the largest signed gap, i.e. nearest to failing."""
    stopped: str = ""
    """Why sampling stopped before it was done ("" when it was not stopped): the budget, or
    no point could be evaluated, with what the cheapest would have cost (issue 40)."""
    worst_margin_value: float | None = None
    """``worst_margin`` as a number (None when no point was defined): what combiners
    compare, never the words."""

    def head(self) -> str:
        """Points and digits (and the points skipped), without what they showed."""
        text = f"{self.points} points at {self.digits} digits"
        if self.undefined:
            text += f" ({self.undefined} points where a side is undefined were skipped)"
        return text

    def describe(self) -> str:
        text = self.head()
        if self.nearest:
            text += f"; {self.nearest}"
        elif self.worst_margin:
            text += f"; closest approach {self.worst_margin}"
        if self.stopped:
            text += f"; {self.stopped}: {self.tried} point(s) tried"
            if self.untried:
                text += f", {self.untried} not reached"
            if self.cost:
                text += f", {self.cost}"
            text += f", {self.seconds:.1f} s"
            if self.nearest_point:
                where = ", ".join(f"{k} = {v}" for k, v in self.nearest_point.items())
                text += f"; the point nearest to failing: {where}"
        return text


class CertificateStatus(Enum):
    """How a certification attempt ended."""

    CERTIFIED = "certified"
    REFUTED = "refuted"
    GAVE_UP = "gave up"
    NOT_CERTIFIABLE = "not certifiable"


@dataclass(frozen=True)
class TailProof:
    """A region of the domain outside a certificate's box (``x >= 10``: the variable's
    tail, or the sliver an open end cuts off the box) and the proof of the step there,
    with the region as an added hypothesis."""

    region: str
    proof: str

    def describe(self) -> str:
        return f"{self.region} proved by {self.proof}"


@dataclass(frozen=True)
class CertificateRecord:
    """What the Arb certifier did for a step: its status, the box (variable -> [low, high])
    it worked on, how many boxes it enclosed, in how many seconds, at how many bits; for a
    refutation the point (every hypothesis holds there, rigorously)."""

    status: CertificateStatus
    box: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    boxes: int = 0
    seconds: float = 0.0
    bits: int = 0
    whole_domain: bool = False
    """Whether the box covers every variable's whole domain (else the step is certified on
    the box only, and ``checked`` beyond it)."""
    detail: str = ""
    point: Mapping[str, float] | None = None
    certified_fraction: float | None = None
    """The share of the box's volume (log measure on sides spanning decades) shown to hold
    when the search stopped: 1 when certified, how far it got when it gave up."""
    tails: tuple[TailProof, ...] = ()
    """For a box that does not cover the domain: the regions outside it, each proved with
    the region as a hypothesis, so that box and tails together cover the whole domain
    (``whole_domain`` is then True)."""

    def _sliver(self) -> bool:
        # A share that rounds to 100.0% is not the whole box: a reader took "gave up ...
        # 100.0% certified" for a contradiction, so what is left is said as what it is.
        fraction = self.certified_fraction
        return (
            self.status is CertificateStatus.GAVE_UP and fraction is not None and fraction > 0.999
        )

    def head(self) -> str:
        """The status and the box, in one clause."""
        if self.status is CertificateStatus.NOT_CERTIFIABLE:
            return f"not certifiable ({self.detail})"
        head = {
            CertificateStatus.CERTIFIED: "certified on",
            CertificateStatus.REFUTED: "refuted by Arb on",
            CertificateStatus.GAVE_UP: "certification gave up on",
        }[self.status]
        if self._sliver():
            head = "certification stopped just short of"
        where = ", ".join(f"{n} in [{lo:.6g}, {hi:.6g}]" for n, (lo, hi) in self.box.items())
        if self.status is CertificateStatus.CERTIFIED and self.tails:
            return (
                f"certified on the whole domain: box {where} certified by Arb ({self.boxes} "
                f"boxes, {self.seconds:.2f} s, {self.bits} bits)"
            )
        return f"{head} {where} ({self.boxes} boxes, {self.seconds:.2f} s, Arb at {self.bits} bits)"

    def describe(self) -> str:
        text = self.head()
        if self.status is CertificateStatus.NOT_CERTIFIABLE:
            return text
        fraction = self.certified_fraction
        sliver = self._sliver()
        if self.status is CertificateStatus.CERTIFIED and self.tails:
            # Box and tails cover the domain: the step holds on all of it, and says by what.
            text += "; " + "; ".join(t.describe() for t in self.tails)
        if sliver and fraction is not None and 1 - fraction < 1e-12:
            # Boxes too thin to split (a tangency): no volume to speak of, but not shown.
            text += (
                "; all of the box certified except boxes too thin to split further (the "
                "step is not certified there)"
            )
        elif sliver and fraction is not None:
            text += (
                f"; all of the box's volume but {1 - fraction:.1e} certified (the step is "
                "not certified on the rest)"
            )
        elif self.status is CertificateStatus.GAVE_UP and fraction is not None:
            text += f"; {fraction:.1%} of the box's volume certified"
        return text + (f"; {self.detail}" if self.detail else "")


class RefereeKind(Enum):
    """Who re-decided a numeric counterexample."""

    EVALF = "evalf"
    """SymPy's adaptive-precision evalf at the exact rational point (when rules had proved
    the step and sampling disagreed)."""
    ARB = "arb"
    """A rigorous Arb ball of the residual at the point, at a precision raised until the
    ball lies on one side of zero (sums enclosed with a proved tail bound)."""
    EXACT = "exact"
    """The residual evaluated exactly at the (rational) point."""


@dataclass(frozen=True)
class RefereeRecord:
    """A referee's ruling on a counterexample: ``confirmed`` is True (the violation stands),
    False (it dissolved: for the rigorous referees, the relation is shown to hold there) or
    None (could not decide).  ``method`` names how a rigorous referee decided ("Arb at 256
    bits", "exactly")."""

    kind: RefereeKind
    confirmed: bool | None
    detail: str = ""
    method: str = ""
    conflict: str = ""
    """Another rigorous route that decided the same point the other way (an Arb ball
    against an exact evaluation): empty when none disagrees.  A conflict is an engine
    inconsistency (exit 4), both rulings shown."""

    unbounded: bool = False
    """The ruling rests on a numeric function valued by its own routine, with no proved
    error bound: it settles nothing against another unproved evaluation."""
    bits: int = 0
    """Arb's working precision when a ball decided (0 for an exact ruling or none)."""

    def confirmation(self) -> str:
        """How a violation was confirmed, as the evidence says it."""
        return f"confirmed {self.how()}: {self.detail}"

    def how(self) -> str:
        """``exactly ...`` or ``by Arb at 128 bits``: how the ruling was reached."""
        return self.method if self.kind is RefereeKind.EXACT else f"by {self.method}"


@dataclass(frozen=True)
class ConditionRecord:
    """A side condition a step's proof needed (a denominator nonzero, a log's argument
    positive), as a relation a reader can check, what asked for it, and how it was shown
    (None: it was not, so the proof holds only where it does)."""

    relation: str
    need: str
    discharged_by: str | None


class Route(Enum):
    """How a step's verdict was reached, for readers of the record (the evidence says it in
    words): one link checked, cases of an equality hypothesis, a conclusion shown by its
    chain, a general proof for every length, or the instances of a family checked."""

    LINK = "link"
    CASES = "cases"
    CHAIN = "chain"
    EVERY_LENGTH = "every length"
    INSTANCES = "instances"


@dataclass(frozen=True)
class CaseVerdict:
    """One case of a step checked by cases, and its verdict."""

    label: str
    verdict: Verdict


@dataclass(frozen=True)
class StepResult:
    """The checking record of one link of a chain (or of a claim on its own)."""

    index: int
    lhs: str
    relation: str
    rhs: str
    justification: str
    verdict: Verdict
    evidence: str
    symbolic: str | None = None
    numeric: NumericEvidence | None = None
    counterexample: Counterexample | None = None
    certificate: CertificateRecord | None = None
    referees: tuple[RefereeRecord, ...] = ()
    basis: str = ""
    """What the step rests on beyond its own check: a catalog lemma and its verdict, an
    unchecked cited result, or whether the rules named in its justification proved it."""
    source: str = ""
    """The step's right side as its author wrote it (LaTeX), empty for a step written in
    SymPy syntax; ``lhs``/``rhs`` are what was checked."""
    line: int = 0
    """The line of the author's file where the step's relation stands (0 when unknown)."""
    suspect: str = ""
    """A sampled violation that no rigorous referee could confirm or dismiss: the point and
    why (empty when there is none).  It makes an unproved step ``undecided``."""
    rules: tuple[str, ...] = ()
    """The ids of the rule families the symbolic proof is made of (empty when the step
    was not proved by rules): what a cited rule is checked against."""
    route: Route = Route.LINK
    head: str = ""
    """The decision in a few words: the first clause of ``evidence`` (the whole of it is
    the decision, why it is not proved, the notes and a table, in that order)."""
    why_not_proved: str = ""
    """For a step not proved, what stands between it and a proof (empty otherwise)."""
    why_short: str = ""
    """The same in a few words."""
    notes: tuple[str, ...] = ()
    """Notes on the hypotheses (one that holds identically once definitions are
    substituted), also at the end of ``evidence``."""
    table: str = ""
    """A counterexample family's table of instances (the lines ending ``evidence``)."""
    cases: tuple[CaseVerdict, ...] = ()
    """For a step checked by cases, each case's verdict."""
    case_split: str = ""
    """For a step checked by cases, the split ("by cases on x*y == 0")."""
    chain: str = ""
    """For a conclusion raised by its chain, how the chain shows it."""
    instances: str = ""
    """For a link proved for every length, what the instances' sampling saw."""
    side_conditions: tuple[ConditionRecord, ...] = ()
    """The side conditions the symbolic proof needed, each with how it was discharged."""
    decided: str = field(default="", metadata={"json": False})
    """The decision's own words: ``evidence`` without why it is not proved and the notes
    (what a conclusion raised by its chain says its own check found).  Not in the JSON,
    which has ``evidence``."""
    proof_tree: ProofTree | None = None
    """The symbolic proof as a tree of rule applications (None when the step was not proved
    symbolically): its rule ids are ``rules`` (see :mod:`symbolic.proof_tree`)."""

    def __str__(self) -> str:
        """One line: the step's index, relation, verdict and the evidence's short line."""
        return render(self, "text/plain")


@dataclass(frozen=True)
class OracleResult:
    name: str
    description: str
    agrees: bool | None
    points: int
    detail: str
    counterexample: Mapping[str, str] | None = None
    closest: str | None = None
    """Detail of the agreeing point nearest to failing, when the oracle rates closeness."""
    suspect: str = ""
    """A disagreement seen and neither confirmed nor dissolved (the oracle failed at more
    digits): where and why; it leaves the derivation ``undecided`` at best."""


@dataclass(frozen=True)
class Reliance:
    """One thing a proof rests on: ``kind`` is ``lemma``, ``foundation`` or ``cite``; ``ref``
    the lemma's id, the foundation's name or the citation; ``verdict`` the lemma's verdict in
    this run, ``foundation`` or ``unchecked``."""

    kind: str
    ref: str
    verdict: str

    def describe(self) -> str:
        """``Azuma 1967 (unchecked)``, ``kl-bound (proved)``."""
        return f"{self.ref} ({self.verdict})"


@dataclass(frozen=True)
class DerivationReport:
    """Everything decided about one derivation."""

    id: str
    title: str
    source: str
    verdict: Verdict
    steps: tuple[StepResult, ...]
    conclusion: StepResult
    oracle: OracleResult | None = None
    erratum: str | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)
    scope: str = ""
    """``general`` or ``instance``: what the verdict covers (see :mod:`symbolic.scope`)."""
    scope_note: str = ""
    """Over what, in a few words: "for all eps > 0", "for n = 3 outcomes only"."""
    basis: str = ""
    """What the verdict rests on, transitively: ``outright``, ``from foundations``, ``from
    cited results`` or ``none`` (not a proof); empty when not computed (see
    :mod:`symbolic.basis`)."""
    rests_on: tuple[Reliance, ...] = ()
    """The lemmas, foundations and external results below the verdict."""

    @property
    def expected_refuted(self) -> bool:
        return self.erratum is not None

    def _repr_markdown_(self) -> str:
        return render(self, "text/markdown")

    def __str__(self) -> str:
        """The text report of ``dpderive check`` (``repr`` keeps the fields)."""
        return render(self, "text/plain")

    @property
    def first_failure(self) -> int | None:
        """The 1-based index of the first refuted step, or None."""
        return next((s.index for s in self.steps if s.verdict is Verdict.REFUTED), None)

    @property
    def as_expected(self) -> bool:
        """An erratum must be refuted; anything else must not be."""
        if self.expected_refuted:
            return self.verdict is Verdict.REFUTED
        return self.verdict is not Verdict.REFUTED
