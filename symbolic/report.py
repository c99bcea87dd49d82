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
from typing import TYPE_CHECKING, ClassVar

from symbolic.notebook import render
from symbolic.proof_tree import ProofTree
from symbolic.verdicts import Verdict

if TYPE_CHECKING:
    from symbolic.evidence import Said

EVIDENCE = "text/x-evidence"
"""The private format of a record's evidence sentence (the printing layer registers it)."""
HEAD = "text/x-evidence-head"
"""The private format of a record's decision in a few words."""


@dataclass(frozen=True)
class Counterexample:
    """A point satisfying every hypothesis where a relation fails, with both sides' values."""

    point: Mapping[str, str]
    lhs: str
    rhs: str
    digits: int
    note: str = ""


@dataclass(frozen=True)
class NumericEvidence:
    """What the spot check saw: points tried and evaluated, digits, worst margin."""

    points: int
    digits: int
    undefined: int = 0
    margin: str = ""
    """The largest signed relative gap over the points to three digits, as mpmath prints it
    ("-0.0858"; empty when no point was defined); its meaning is in
    ``derivations.printing.wording.nearest_to_failing``."""
    seed: int = 0
    relation: str = ""
    """The relation sampled (``<=``...): what the sign of the margin is read against."""
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
    """The margin as a number (None when no point was defined): what combiners
    compare, never the words."""

    JSON: ClassVar[tuple[str, ...]] = (
        "points",
        "digits",
        "undefined",
        "worst_margin",
        "seed",
        "nearest",
        "tried",
        "untried",
        "cost",
        "seconds",
        "nearest_point",
        "stopped",
        "worst_margin_value",
    )
    """The fields of ``--json``, in their historical order (the words rendered)."""

    @property
    def worst_margin(self) -> str:
        """The margin in words ("relative gap -0.0858")."""
        return render(self, "text/x-worst-margin")

    @property
    def nearest(self) -> str:
        """The margin in words: "nearest to failing: lhs is 8.58% below rhs"."""
        return render(self, "text/x-nearest")


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
    """The checking record of one link of a chain (or of a claim on its own).

    Its words (``evidence``, ``head``, ``suspect``, ``why_not_proved``...) are read from its
    records (``said``, ``decision``, ``doubt``, ``obstacle``) by the printing layer, through
    :func:`symbolic.notebook.render`: the engine records, the printers word (issue 42)."""

    index: int
    lhs: str
    relation: str
    rhs: str
    justification: str
    verdict: Verdict
    said: Said | str
    """What the verdict rests on, as a record (:mod:`symbolic.evidence`): worded as
    ``evidence``.  A string is a sentence given as is (a record built by hand)."""
    symbolic: str | None = None
    numeric: NumericEvidence | None = None
    counterexample: Counterexample | None = None
    certificate: CertificateRecord | None = None
    referees: tuple[RefereeRecord, ...] = ()
    grounds: Said | None = None
    """What the step rests on beyond its own check (a catalog lemma and its verdict, an
    unchecked cited result, or whether the rules named in its justification proved it):
    worded as ``basis``."""
    source: str = ""
    """The step's right side as its author wrote it (LaTeX), empty for a step written in
    SymPy syntax; ``lhs``/``rhs`` are what was checked."""
    line: int = 0
    """The line of the author's file where the step's relation stands (0 when unknown)."""
    rules: tuple[str, ...] = ()
    """The ids of the rule families the symbolic proof is made of (empty when the step
    was not proved by rules): what a cited rule is checked against."""
    route: Route = Route.LINK
    table: str = ""
    """A counterexample family's table of instances (the lines ending ``evidence``)."""
    cases: tuple[CaseVerdict, ...] = ()
    """For a step checked by cases, each case's verdict."""
    side_conditions: tuple[ConditionRecord, ...] = ()
    """The side conditions the symbolic proof needed, each with how it was discharged."""
    decision: Said | str | None = None
    """The decision's own record: ``said`` without why it is not proved and the notes
    (what a conclusion raised by its chain says its own check found)."""
    doubt: Said | None = None
    """A sampled violation that no rigorous referee could confirm or dismiss (None when
    there is none): worded as ``suspect``."""
    obstacle: Said | None = None
    """What stands between the step and a proof (None when nothing, or proved): worded as
    ``why_not_proved`` and ``why_short``."""
    identities: tuple[Said, ...] = ()
    """The hypotheses that hold identically once definitions are substituted: worded as
    ``notes``."""
    proof_tree: ProofTree | None = None
    """The symbolic proof as a tree of rule applications (None when the step was not proved
    symbolically): its rule ids are ``rules`` (see :mod:`symbolic.proof_tree`)."""

    JSON: ClassVar[tuple[str, ...]] = (
        "index",
        "lhs",
        "relation",
        "rhs",
        "justification",
        "verdict",
        "evidence",
        "symbolic",
        "numeric",
        "counterexample",
        "certificate",
        "referees",
        "basis",
        "source",
        "line",
        "suspect",
        "rules",
        "route",
        "head",
        "why_not_proved",
        "why_short",
        "notes",
        "table",
        "cases",
        "case_split",
        "chain",
        "instances",
        "side_conditions",
        "proof_tree",
    )
    """A step's fields in ``--json``, in their historical order (the words are rendered from
    the records; the records themselves are not in the JSON)."""

    @property
    def evidence(self) -> str:
        """The evidence sentence: the decision, why it is not proved, the notes and a
        table, in that order."""
        return self.said if isinstance(self.said, str) else render(self.said, EVIDENCE)

    @property
    def head(self) -> str:
        """The decision in a few words: the first clause of ``evidence``."""
        return "" if isinstance(self.said, str) else render(self.said, HEAD)

    @property
    def basis(self) -> str:
        """What the step rests on beyond its own check, in words (empty when nothing)."""
        return "" if self.grounds is None else render(self.grounds, EVIDENCE)

    @property
    def decided(self) -> str:
        """The decision's own words: ``evidence`` without why it is not proved and the
        notes."""
        record = self.decision
        if record is None:
            return ""
        return record if isinstance(record, str) else render(record, EVIDENCE)

    @property
    def suspect(self) -> str:
        """A sampled violation that no rigorous referee could confirm or dismiss: the point
        and why (empty when there is none).  It makes an unproved step ``undecided``."""
        return "" if self.doubt is None else render(self.doubt, EVIDENCE)

    @property
    def why_not_proved(self) -> str:
        """For a step not proved, what stands between it and a proof (empty otherwise)."""
        return "" if self.obstacle is None else render(self.obstacle, EVIDENCE)

    @property
    def why_short(self) -> str:
        """The same in a few words."""
        return "" if self.obstacle is None else render(self.obstacle, HEAD)

    @property
    def notes(self) -> tuple[str, ...]:
        """Notes on the hypotheses (one that holds identically once definitions are
        substituted), also at the end of ``evidence``."""
        return tuple(render(i, EVIDENCE) for i in self.identities)

    @property
    def case_split(self) -> str:
        """For a step checked by cases, the split ("by cases on x*y == 0")."""
        return self._lens("text/x-case-split")

    @property
    def chain(self) -> str:
        """For a conclusion raised by its chain, how the chain shows it."""
        return self._lens("text/x-chain")

    @property
    def instances(self) -> str:
        """For a link proved for every length, what the instances' sampling saw."""
        return self._lens("text/x-instances")

    def _lens(self, mime: str) -> str:
        return "" if isinstance(self.said, str) else render(self.said, mime)

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
