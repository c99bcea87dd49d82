"""The stages of checking one link ``lhs REL rhs`` of a chain, each returning a typed record.

* :func:`spot_stage` samples the plan's points, searches and shrinks (a :class:`SpotOutcome`);
* :func:`prove` runs the tactics and rules (a :class:`SymbolicProof`);
* :func:`~numeric_checks.referees.evalf_referee` and
  :func:`~numeric_checks.referees.arb_referee` re-decide a numeric counterexample
  (:class:`~symbolic.report.RefereeRecord`);
* :func:`certify_step` encloses an inequality on the plan's box (a
  :class:`~symbolic.report.CertificateRecord`), and proves the regions of an unbounded
  domain outside it (:mod:`numeric_checks.tails`).

No stage decides a verdict: :func:`numeric_checks.decide.decide` does, from the records.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import sympy as sp

from numeric_checks.as_written import prove_as_written
from numeric_checks.certify import certify_residual
from numeric_checks.plan import CheckPlan
from numeric_checks.points import RelationCheck
from numeric_checks.referees import arb_referee
from numeric_checks.search import SpotOutcome, spot_check
from numeric_checks.sum_stage import hypothesis_as_written, prove_by_sum_rules
from numeric_checks.tails import prove_tails
from numeric_checks.typed_sides import guarded, lost_conditions
from symbolic.derivation import Justification, JustificationKind
from symbolic.errors import Unsupported
from symbolic.evidence import Said, Spotted, Unconfirmed, dismissed, words
from symbolic.induction import apply_hypothesis, at
from symbolic.proof_tree import ProofNode, ProofTree, printed
from symbolic.relations import Relation
from symbolic.report import (
    CertificateRecord,
    CertificateStatus,
)
from symbolic.rules import fact_from_relation, prove_relation
from symbolic.rules.facts import MAX_GOALS
from symbolic.rules.prover import prove_traced
from symbolic.rules.registry import attempt, close, frame
from symbolic.rules.sums import has_family_sums
from symbolic.side_conditions import (
    SideCondition,
    defined_on,
    discharge,
    undischarged,
    where_text,
)
from symbolic.verdicts import Verdict

__all__ = [
    "INDUCTION_TAG",
    "BaseCase",
    "Link",
    "SymbolicProof",
    "base_case",
    "certify_step",
    "induction_notes",
    "prove",
    "spot_stage",
]

IDENTICAL = "tactic identical"


@dataclass(frozen=True)
class Link:
    """One relation to check, as written (``left``, ``right``) and prepared for the engine
    (``lhs``, ``rhs``: definitions unfolded, solved equalities substituted)."""

    index: int
    left: sp.Expr
    relation: Relation
    right: sp.Expr
    lhs: sp.Expr
    rhs: sp.Expr
    justification: str
    cited: tuple[str, ...] = ()
    """The rules the justification names (tried first by the prover)."""
    read: tuple[sp.Expr, sp.Expr] | None = None
    """The prepared sides as read, when ``lhs`` and ``rhs`` are guarded: undefined where
    the sides as typed are (:func:`~numeric_checks.typed_sides.guarded`), for every
    evaluation."""

    def unguarded(self) -> Link:
        """The link with its prepared sides as read, for the rules (which must discharge the
        guard's conditions as side conditions, not reason inside a Piecewise)."""
        if self.read is None:
            return self
        return replace(self, lhs=self.read[0], rhs=self.read[1], read=None)

    @classmethod
    def of(
        cls,
        plan: CheckPlan,
        index: int,
        left: sp.Expr,
        rel: Relation,
        right: sp.Expr,
        why: str,
        cited: tuple[str, ...] = (),
    ) -> Link:
        link = cls(index, left, rel, right, plan.prepare(left), plan.prepare(right), why, cited)
        return guarded(plan, link)


@dataclass(frozen=True)
class SymbolicProof:
    """What the tactics and rules did: ``trace`` names the tactic or the chain of rules that
    reduced the link (None: no proof).  ``unfolded``: the two sides became identical only
    once definitions were unfolded and equalities substituted.  ``conditions``: the side
    conditions the proof needs (the sides defined: denominators nonzero, log arguments
    positive; the equalities solved by a nonzero coefficient), each with how it was
    discharged; where one is not, the proof holds only where it does, so ``trace`` is None,
    ``conditional`` keeps the trace of what was shown ("tactic cancel") and ``unmet`` the
    conditions not shown ("x - 1 != 0")."""

    trace: str | None
    unfolded: bool = False
    ran: bool = True
    """False when symbolic checking was switched off."""
    conditions: tuple[SideCondition, ...] = ()
    conditional: str | None = None
    unmet: str = ""
    stopped: bool = False
    """The stage was stopped by its share of the budget (see ``pipeline.PROOF_SHARE``)."""
    rules: tuple[str, ...] = ()
    """The ids of the rule families the proof is made of (:mod:`symbolic.rules.registry`)."""
    tree: tuple[ProofNode, ...] = ()
    """The rule applications at the top of the proof (:mod:`symbolic.proof_tree`): the
    ids of their nodes are ``rules``."""
    goal: str = ""
    """The link as the search proved it (definitions unfolded, equalities substituted)."""

    @property
    def proved(self) -> bool:
        return self.trace is not None

    def proof_tree(self, why: Justification) -> ProofTree | None:
        """The proof as a tree (None when there is none), with the catalog lemma or named
        foundation the step's justification ``why`` rests on."""
        if self.trace is None:
            return None
        lemma = (why.lemma,) if why.kind is JustificationKind.LEMMA and why.lemma else ()
        found = why.foundation
        foundation = (found,) if why.kind is JustificationKind.FOUNDATION and found else ()
        return ProofTree(self.goal, self.tree, lemma, foundation)

    def describe(self) -> str | None:
        if self.trace == IDENTICAL and self.unfolded:
            return "identical once definitions are unfolded and substituted"
        return self.trace


def spot_stage(
    plan: CheckPlan,
    link: Link,
    search_budget: Callable[[], int] | None = None,
    settled: Callable[[], bool] | None = None,
    early_search: int = 0,
) -> SpotOutcome:
    """Sample, search and shrink: the numeric stage.  ``search_budget``, when given, is
    asked for the local search's budget once no point violates (default: the plan's);
    ``settled``, asked after it, whether a proof settles the link (its ties are then not
    re-decided with more digits, see :func:`~numeric_checks.search.spot_check`).

    A relation already spot-checked under this plan (the same prepared sides and relation,
    as the conclusion of a one-link chain is its link) is not checked again: the same
    points would give the same values and decisions, and only the local search's seed would
    differ (the outcome shown is the first one, with its seed)."""
    key = (link.lhs, link.relation, link.rhs)
    known = plan.spot_outcomes.get(key)
    if known is not None and known.ties_left:
        # Its ties were left to a proof: reused only by a link a proof settles too.
        if search_budget is not None:
            search_budget()
        if settled is not None and settled():
            return known
    elif known is not None:
        return known
    check = RelationCheck(link.lhs, link.relation, link.rhs, plan.sampler, plan.side_values)
    outcome = spot_check(
        check,
        plan.points,
        search_budget=plan.search_budget if search_budget is None else search_budget,
        seed=plan.options.seed + link.index,
        display=plan.display,
        settled=settled,
        early_search=early_search,
    )
    plan.spot_outcomes[key] = outcome
    return outcome


CHEAP_GOALS = 8
"""Subgoal budget of the rule search on a link whose violation is confirmed (``cheap``), in
place of the full :data:`~symbolic.rules.facts.MAX_GOALS`.  No rule can prove such a link;
the search runs only to catch an unsound rule that claims it (an engine inconsistency), and
a rule misapplied does so near the root.  Exhausting the full budget on a false inequality
was most of the time a refutation took (optimal_composition_false: ~2 s of 3; the
NumericSparse erratum's two refuted links: 4.5 s)."""


def prove(plan: CheckPlan, link: Link, *, cheap: bool) -> SymbolicProof:
    """Tactics and rules under the plan's facts.  With ``cheap`` (a step already refuted)
    only the cheap rungs run: they cannot prove it, but an unsound rule claiming a proof of
    it is still caught and reported."""
    if not plan.options.symbolic:
        return SymbolicProof(None, ran=False)
    link = link.unguarded()
    # Each attempt in a frame of its own, so that the rules credited are those of the proof
    # found, not of the attempts before it that failed (see symbolic.rules.registry).
    with frame() as used:
        try:
            trace = attempt(None, _prove_by_induction, plan, link, cheap)
            if trace is None and has_family_sums(link.lhs, link.rhs):
                trace = attempt(None, hypothesis_as_written, plan, link)
            if trace is None:
                goals = CHEAP_GOALS if cheap else None
                trace = attempt(None, prove_by_sum_rules, plan, link, goals)
            if trace is None and not cheap and link.relation is not Relation.EQ:
                # Cheap when it works (gdp-clt-berry-esseen's conclusion: 0.1 s in gamma_n
                # against 8 s over its unfolded value); tried once, before the unfolded
                # search.
                trace = attempt(None, prove_as_written, plan, link)
            if trace is None:
                found = prove_traced(
                    link.lhs,
                    link.relation,
                    link.rhs,
                    plan.context,
                    cheap=cheap,
                    cited=link.cited,
                    max_goals=CHEAP_GOALS if cheap else MAX_GOALS,
                )
                trace = None if found is None else found.text
            if trace is None and not cheap and link.relation is Relation.EQ:
                trace = attempt(None, prove_as_written, plan, link)
        except (TypeError, ValueError, RecursionError, NotImplementedError, AttributeError):
            trace = None  # a crash in a rule proves nothing; the numeric layers decide
    unfolded = trace == IDENTICAL and (link.left, link.right) != (link.lhs, link.rhs)
    if trace is None:
        return SymbolicProof(None, unfolded)
    proof = SymbolicProof(
        trace,
        unfolded,
        rules=tuple(sorted(used.ids())),
        tree=printed(close(used).top()),
        goal=f"{link.lhs} {link.relation.value} {link.rhs}",
    )
    return _with_side_conditions(plan, link, proof)


def _with_side_conditions(plan: CheckPlan, link: Link, proof: SymbolicProof) -> SymbolicProof:
    """``proof`` kept only if both sides are defined on the whole domain (issue 38): a
    tactic that cancels ``(x**2 - 1)/(x - 1)`` to ``x + 1``, or a rule that reasons where a
    denominator is nonzero, shows the link only where the sides have a value.  Each
    condition of :func:`~symbolic.side_conditions.definedness` is discharged under the
    plan's facts; the eliminations of equality hypotheses carry theirs (discharged when the
    space was built)."""
    shown = (
        *plan.space.conditions,
        *defined_on(plan.context.facts, link.lhs, link.rhs),
        *discharge(lost_conditions(plan, link), plan.context.facts),
    )
    missing = undischarged(shown)
    if not missing:
        return replace(proof, conditions=shown)
    return SymbolicProof(
        None,
        proof.unfolded,
        conditions=shown,
        conditional=proof.describe(),
        unmet=where_text(missing),
    )


def certify_step(plan: CheckPlan, link: Link) -> CertificateRecord:
    """Enclose an inequality's residual on the plan's box by Arb branch-and-bound, with the
    exact rewrites of :func:`~numeric_checks.certify.certify_residual` (Max/Min conjuncts,
    signs of factors) and a budget counted in boxes, so the verdict does not depend on the
    machine's load."""
    (step,) = fact_from_relation(link.relation.make(link.lhs, link.rhs), "step")
    whole = plan.box_is_whole_domain
    lost = undischarged(discharge(lost_conditions(plan, link), plan.context.facts))
    if lost:
        # The sides as typed have no value where these fail, which the read sides (the
        # residual enclosed) do not show: x/x >= 1 is 1 >= 1 on every box.
        return CertificateRecord(
            CertificateStatus.NOT_CERTIFIABLE,
            whole_domain=whole,
            detail=f"the sides as typed need {where_text(lost)}, not shown"[:80],
        )
    try:
        cert = certify_residual(step.expr, step.strict, plan.symbols, plan.box, plan.hypotheses)
    except (Unsupported, TypeError, ValueError, ZeroDivisionError) as exc:
        return CertificateRecord(
            CertificateStatus.NOT_CERTIFIABLE, whole_domain=whole, detail=str(exc)[:80]
        )
    done = cert.status is CertificateStatus.CERTIFIED and whole
    if done or cert.status is CertificateStatus.REFUTED or not plan.options.symbolic:
        return cert.record(whole_domain=whole)
    # The box leaves part of the domain out, or the certifier is stuck at a tangency on
    # its edge: prove the rest, region by region.
    try:
        extended = prove_tails(
            link.lhs,
            link.relation,
            link.rhs,
            variables=plan.space.free,
            symbols=plan.symbols,
            context=plan.context,
            box=plan.box,
            cert=cert,
            residual=step.expr,
            strict=step.strict,
            hypotheses=plan.hypotheses,
        )
    except (Unsupported, TypeError, ValueError, ZeroDivisionError):
        extended = None  # the widened box could not be enclosed: the first certificate stands
    return cert.record(whole_domain=whole) if extended is None else extended


# -- induction (see symbolic.induction) ------------------------------------------------------

INDUCTION_TAG = "induction hypothesis"
"""What the trace of a link proved with the induction hypothesis starts with."""


@dataclass(frozen=True)
class BaseCase:
    """The claim at the base of an induction, as checked: ``verdict`` and what showed it."""

    where: str
    verdict: Verdict
    evidence: str


_BASE_CASES: dict[int, tuple[CheckPlan, BaseCase]] = {}
"""Base cases already checked, per plan (keyed by ``id``; the plan is kept alive with its
entry, so the key is not reused while the entry stands).  A few plans at a time."""


def base_case(plan: CheckPlan) -> BaseCase | None:
    """The derivation's base case (its claim at ``k = base``), proved by the rules and
    tactics where possible, else spot-checked on the plan's points; None without induction."""
    induction = plan.derivation.induction
    if induction is None:
        return None
    cached = _BASE_CASES.get(id(plan))
    if cached is not None and cached[0] is plan:
        return cached[1]
    claim = plan.derivation.claim
    k = plan.derivation.symbols[induction.variable]
    base = sp.Integer(induction.base)
    lhs, rhs = (at(plan.prepare(side), k, base) for side in (claim.lhs, claim.rhs))
    where = f"{induction.variable} = {base}: {lhs} {claim.relation.value} {rhs}"
    trace = None
    if plan.options.symbolic:
        try:
            trace = prove_relation(lhs, claim.relation, rhs, plan.context)
        except (TypeError, ValueError, RecursionError, NotImplementedError, AttributeError):
            trace = None  # a crash in a rule proves nothing
    missing = undischarged(defined_on(plan.context.facts, lhs, rhs)) if trace else []
    if missing:
        trace = None  # shown only where the sides are defined: sampled like any claim
    if trace is not None:
        result = BaseCase(where, Verdict.PROVED, trace)
    else:
        # Not proved: sampled like a step, so a false base case is shown false.
        link = Link(-1, lhs, claim.relation, rhs, lhs, rhs, "base case")
        spot = spot_stage(plan, link)
        seen = spot.counterexample or spot.evidence
        said: Said = Spotted(seen)
        verdict = spot.verdict
        if verdict is Verdict.REFUTED and spot.point is not None:
            # Confirmation before refutation, as for a step: the sampled violation counts
            # only once the rigorous referee shows it.
            ruling = arb_referee(plan, link, spot.point)
            if ruling.confirmed is True and not ruling.conflict:
                said = Spotted(seen, ruling)
            else:
                # Dismissed rigorously, the point passed; otherwise a violation seen and not
                # confirmed leaves the base case undecided, never checked.
                verdict = Verdict.CHECKED if dismissed(ruling) else Verdict.UNDECIDED
                said = Unconfirmed(seen, ruling)
        result = BaseCase(where, verdict, words(said))
    if len(_BASE_CASES) >= 8:
        _BASE_CASES.pop(next(iter(_BASE_CASES)))
    _BASE_CASES[id(plan)] = (plan, result)
    return result


def _cites_hypothesis(plan: CheckPlan, link: Link) -> bool:
    """Whether ``link`` is the derivation's own chain link at its index, justified by a
    hypothesis (not the conclusion checked on its own, nor a claim checked as typed)."""
    links = plan.derivation.links()
    if not 1 <= link.index <= len(links):
        return False
    left, rel, right, why = links[link.index - 1]
    written = (link.left, link.relation, link.right, link.justification)
    same = (left, rel, right, why.text) == written
    return same and why.kind is JustificationKind.HYPOTHESIS


def _prove_by_induction(plan: CheckPlan, link: Link, cheap: bool) -> str | None:
    """A link justified by the hypothesis in an induction's step, proved with the induction
    hypothesis L(k - 1) = R(k - 1) substituted on both sides (equals for equals), only when
    the claim is an equality and the base case is proved.  None when it does not apply or
    the rewritten link is not proved (the caller then tries the link as it stands)."""
    d = plan.derivation
    if d.induction is None or d.claim.relation is not Relation.EQ:
        return None
    if not _cites_hypothesis(plan, link):
        return None
    base = base_case(plan)
    if base is None or base.verdict is not Verdict.PROVED:
        return None
    k = d.symbols[d.induction.variable]
    ih_lhs, ih_rhs = (at(plan.prepare(side), k, k - 1) for side in (d.claim.lhs, d.claim.rhs))
    rewritten = [apply_hypothesis(side, ih_lhs, ih_rhs) for side in (link.lhs, link.rhs)]
    if all(r is None for r in rewritten):
        return None
    lhs, rhs = (
        side if r is None else r[0] for side, r in zip((link.lhs, link.rhs), rewritten, strict=True)
    )
    unfolded = sorted({name for r in rewritten if r is not None for name in r[1]})
    trace = prove_relation(lhs, link.relation, rhs, plan.context, cheap=cheap)
    if trace is None:
        return None
    how = f" (after unfolding {', '.join(unfolded)} by its definition)" if unfolded else ""
    return (
        f"{INDUCTION_TAG} {ih_lhs} = {ih_rhs} substituted{how}, then {trace}; "
        f"base case {base.where} proved ({base.evidence})"
    )


def induction_notes(plan: CheckPlan, verdicts: Sequence[tuple[str | None, Verdict]]) -> list[str]:
    """What the report says of a declared induction, given each step's symbolic trace and
    verdict: the base case's verdict, which steps used the hypothesis, and whether the
    induction concludes (base case proved, every step proved)."""
    d = plan.derivation
    if d.induction is None:
        return []
    base = base_case(plan)
    assert base is not None  # an induction is declared
    var, head = d.induction.variable, f"{d.induction.describe()}: base case {base.where}"
    head += f" {base.verdict.value} ({base.evidence})"
    if d.claim.relation is not Relation.EQ:
        return [f"{head}; the claim is not an equality, so the hypothesis is not used"]
    if base.verdict is not Verdict.PROVED:
        return [f"{head}; the base case is not proved, so the induction hypothesis is not used"]
    used = [str(i) for i, (trace, _) in enumerate(verdicts, 1) if trace and INDUCTION_TAG in trace]
    uses = f"step(s) {', '.join(used)} use the induction hypothesis" if used else "no step uses it"
    if all(v is Verdict.PROVED for _, v in verdicts):
        (dom,) = [v.domain for v in d.variables if v.name == var]
        return [
            f"{head}; {uses}; every step is proved, so by induction the claim holds at "
            f"{var} = {d.induction.base} and at every {var} of its domain ({dom})"
        ]
    return [f"{head}; {uses}; not every step is proved, so the induction does not conclude"]
