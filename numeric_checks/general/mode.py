"""General mode: checking a derivation over indexed families, for every length at once.

A derivation over ``p[1], ..., p[n]`` states its claim for every ``n`` of the length
variable's domain.  Each link is

* **proved** on the *general* link only: the tactics and rules
  (:func:`numeric_checks.stages.prove`) run on the link as written, with sums of symbolic
  length, under a light plan whose facts are the index ranges ``lo <= i <= n``, the element
  domains, the hypotheses free of "for all", and each "for all" hypothesis's relation at
  the family's own index (true of every ``i`` in the range);
* **checked numerically** on *instances*: lengths from the length variable's domain, small
  ones first (1..8), then a few larger (12, 20, 40), each instance an ordinary derivation
  over ``p_1 .. p_n`` (:func:`symbolic.instances.instantiate_derivation`) sampled by
  :mod:`numeric_checks.general.sampling` and put through the usual stages (spot check,
  confirmation by Arb; a violation refutes only once confirmed).

Verdicts: a confirmed violation at any length refutes (the counterexample names the length
and the family); a general proof with no confirmed violation proves; otherwise the link is
at most ``checked`` -- never proved or certified from an instance, since a proof or a
certificate at ``n = 3`` is not the theorem.  A general proof contradicted by a confirmed
violation is an :class:`~numeric_checks.conclusion.EngineInconsistency`.

A derivation whose families all have numeric lengths (``p = "(0, 1) for i in 1..3"``) has
one instance, which *is* the statement: it is checked as an ordinary derivation.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping, Sequence

import sympy as sp

from numeric_checks.conclusion import follows_from_chain
from numeric_checks.general.combine import combine
from numeric_checks.general.instances import (
    Instance,
    covered,
    instance_lengths,
    instance_options,
    instance_plan,
    merged_oracle,
    where,
)
from numeric_checks.general.plan import general_plan
from numeric_checks.oracle_run import run_oracle
from numeric_checks.pipeline import (
    LemmaVerdicts,
    bounded_prove,
    check_link,
    check_plain_claim,
    check_plain_derivation,
)
from numeric_checks.plan import CheckOptions, CheckPlan
from numeric_checks.stages import Link, SymbolicProof, induction_notes
from symbolic.derivation import Derivation, Justification
from symbolic.errors import EmptyDomain
from symbolic.evidence import Step
from symbolic.instances import (
    OutsideHypotheses,
    instantiate_derivation,
    length_variables,
)
from symbolic.relations import Relation
from symbolic.report import DerivationReport, StepResult
from symbolic.verdicts import Verdict, weakest

__all__ = [
    "check_general_claim",
    "check_general_derivation",
    "general_plan",
    "has_families",
]

ORACLE_INSTANCES = 4
"""The oracle runs on the first few instances only (its computation grows with n)."""


def has_families(d: Derivation) -> bool:
    return any(v.family is not None for v in d.variables)


def prove_general(
    plan: CheckPlan,
    index: int,
    left: sp.Expr,
    rel: Relation,
    right: sp.Expr,
    why: Justification,
    *,
    cheap: bool = False,
) -> SymbolicProof:
    """The tactics and rules on the general link (sums of symbolic length kept); only the
    cheap rungs for a link already refuted at some length (as :func:`check_link` does: they
    cannot prove it, but a rule claiming a proof of it is still caught)."""
    link = Link.of(plan, index, left, rel, right, why.text, why.rules)
    return bounded_prove(plan, link, cheap=cheap)


def _refuted(results: Sequence[StepResult]) -> bool:
    return any(r.verdict is Verdict.REFUTED for r in results)


# -- instances ------------------------------------------------------------------------------


Settles = Callable[[int], bool]
"""Link index -> whether its general proof (for every length) proves it; computed on first
use.  An instance of a link so proved is a cross-check: its ties are not re-decided."""


def _check_instance(
    d: Derivation,
    lengths: Mapping[str, int],
    options: CheckOptions,
    lemmas: LemmaVerdicts | None,
    claim_only: bool,
    oracle: bool,
    settles: Settles | None = None,
) -> Instance:
    plan = instance_plan(d, lengths, options)
    inst = plan.derivation

    def by(index: int) -> Callable[[], bool] | None:
        return None if settles is None else (lambda: settles(index))

    steps: tuple[StepResult, ...] = ()
    if not claim_only:
        steps = tuple(
            check_link(plan, i + 1, left, rel, right, j, lemmas, settled_by=by(i + 1))
            for i, (left, rel, right, j) in enumerate(inst.links())
        )
    why = "the claim as typed" if claim_only else "the theorem's conclusion, checked on its own"
    index = 1 if claim_only else 0
    conclusion = check_link(
        plan,
        index,
        inst.claim.lhs,
        inst.claim.relation,
        inst.claim.rhs,
        why,
        settled_by=by(index),
    )
    ran = run_oracle(plan) if oracle else None
    return Instance(lengths, steps, conclusion, len(plan.points), ran)


FIRST_WAVE = 4
"""Lengths checked before the proofs run (the smallest of the ladder, where most false
statements already fail).  When every general link is then proved, the instances are the
engine's sanity check, not the evidence: one larger length (:data:`PROVED_WAVE`) is added
instead of the whole ladder, as a proved link searches less in :mod:`numeric_checks.pipeline`."""

PROVED_WAVE = 1
"""Larger lengths checked after the first wave when every link is proved."""


def _second_wave(rest: list[dict[str, int]], proved: bool) -> list[dict[str, int]]:
    if not proved or len(rest) <= PROVED_WAVE:
        return rest
    # The middle of the rest of the ladder (n = 8 from 1): long enough to differ from the
    # small cases, short enough to write out cheaply.
    return rest[len(rest) // 2 : len(rest) // 2 + PROVED_WAVE]


def _instances(
    d: Derivation,
    lemmas: LemmaVerdicts | None,
    claim_only: bool,
    all_lengths: Sequence[Mapping[str, int]],
    per: CheckOptions,
    oracles_done: int = 0,
    settles: Settles | None = None,
) -> tuple[list[Instance], list[str], list[str]]:
    """The instances at ``all_lengths`` checked with the per-instance options ``per``, and
    the lengths skipped (outside the hypotheses; no point found)."""
    done: list[Instance] = []
    outside: list[str] = []
    empty: list[str] = []
    for lengths in all_lengths:
        try:
            done.append(
                _check_instance(
                    d,
                    lengths,
                    per,
                    lemmas,
                    claim_only,
                    oracle=per.oracle and oracles_done + len(done) < ORACLE_INSTANCES,
                    settles=settles,
                )
            )
            if claim_only and done[-1].conclusion.verdict is Verdict.REFUTED:
                break  # a confirmed counterexample decides a claim: no need for more lengths
        except OutsideHypotheses:
            outside.append(where(lengths))
        except EmptyDomain:
            empty.append(where(lengths))
    return done, outside, empty


def _staged(
    d: Derivation,
    options: CheckOptions,
    lemmas: LemmaVerdicts | None,
    claim_only: bool,
    prove_all: Callable[[list[Instance]], bool],
    settles: Settles | None = None,
) -> tuple[list[Instance], list[str]]:
    """The instances in two waves around the proofs (see :data:`FIRST_WAVE`):
    ``prove_all(first)`` runs the proofs, told what the first wave found, and says whether
    every link is proved.  Returns the instances and notes on the lengths skipped."""
    ladder = instance_lengths(d)
    # The points are split across the whole ladder, whichever lengths run.
    per = instance_options(options, len(ladder))
    first, rest = ladder[:FIRST_WAVE], ladder[FIRST_WAVE:]
    done, outside, empty = _instances(d, lemmas, claim_only, first, per, 0, settles)
    stop = claim_only and any(i.conclusion.verdict is Verdict.REFUTED for i in done)
    proved = prove_all(done)
    if not stop:
        more, out2, empty2 = _instances(
            d,
            lemmas,
            claim_only,
            _second_wave(rest, proved and bool(done)),
            per,
            oracles_done=len(done),
            settles=settles,
        )
        done, outside, empty = done + more, outside + out2, empty + empty2
    notes = []
    if outside:
        notes.append(f"lengths outside the hypotheses, skipped: {'; '.join(outside)}")
    if empty:
        notes.append(f"no point satisfies the hypotheses at {'; '.join(empty)} (skipped)")
    if not done:
        raise EmptyDomain(
            f"{d.id}: no instance of the families could be sampled (tried "
            + "; ".join(where(x) for x in ladder)
            + "): the hypotheses may be contradictory"
        )
    return done, notes


# -- entry points ------------------------------------------------------------------------------


def check_general_derivation(
    d: Derivation, options: CheckOptions, lemmas: LemmaVerdicts | None
) -> DerivationReport:
    """General mode for a derivation over families (see the module docstring)."""
    started = time.perf_counter()
    if not length_variables(d):
        report = check_plain_derivation(instantiate_derivation(d, {}), options, lemmas)
        return dataclasses.replace(report, id=d.id)
    plan = general_plan(d, options)
    links = d.links()
    claim_why = Justification("the theorem's conclusion, checked on its own")
    proofs: list[SymbolicProof] = []
    conclusion_proofs: list[SymbolicProof] = []
    # Full proofs asked for early, by an instance that saw no violation (see Settles).
    early: dict[int, SymbolicProof] = {}

    def link_proof(i: int, cheap: bool) -> SymbolicProof:
        if i + 1 in early:
            return early[i + 1]
        left, rel, right, why = links[i]
        return prove_general(plan, i + 1, left, rel, right, why, cheap=cheap)

    def claim_proof(cheap: bool) -> SymbolicProof:
        if 0 in early:
            return early[0]
        claim = d.claim
        return prove_general(plan, 0, claim.lhs, claim.relation, claim.rhs, claim_why, cheap=cheap)

    def settles(index: int) -> bool:
        if not options.symbolic:
            return False
        if index == 0:
            if all(settles(i + 1) for i in range(len(links))):
                return True
            early.setdefault(0, claim_proof(False))
            return early[0].proved
        early.setdefault(index, link_proof(index - 1, False))
        return early[index].proved

    def prove_all(first: list[Instance]) -> bool:
        # After the first wave: a link refuted at some length gets the cheap proof attempt.
        proofs.extend(
            link_proof(i, _refuted([inst.steps[i] for inst in first])) for i in range(len(links))
        )
        chain_proved = all(p.proved for p in proofs)
        if chain_proved or not options.symbolic:
            conclusion_proofs.append(SymbolicProof(None, ran=options.symbolic))
        else:
            conclusion_proofs.append(claim_proof(_refuted([inst.conclusion for inst in first])))
        return chain_proved

    instances, notes = _staged(d, options, lemmas, False, prove_all, settles)
    conclusion_proof = conclusion_proofs[0]
    steps = tuple(
        combine(
            i + 1,
            left,
            rel,
            right,
            why,
            proofs[i],
            [(inst, inst.steps[i]) for inst in instances],
            lemmas,
        )
        for i, (left, rel, right, why) in enumerate(links)
    )
    conclusion = combine(
        0,
        d.claim.lhs,
        d.claim.relation,
        d.claim.rhs,
        claim_why,
        conclusion_proof,
        [(inst, inst.conclusion) for inst in instances],
        lemmas,
    )
    chain_verdict = weakest(s.verdict for s in steps)
    conclusion = follows_from_chain(conclusion, chain_verdict)
    oracle = merged_oracle(instances)
    verdicts = [s.verdict for s in steps] + [conclusion.verdict]
    if oracle is not None and oracle.agrees is False:
        verdicts.append(Verdict.REFUTED)
    elif oracle is not None and oracle.suspect:
        verdicts.append(Verdict.UNDECIDED)  # a disagreement seen, not confirmed
    notes = [
        f"checked in {time.perf_counter() - started:.2f} s with seed {options.seed}",
        f"general mode: proofs are of the links for every length; numeric checks at "
        f"{covered(instances)}",
        *notes,
        *induction_notes(plan, [(p.trace, s.verdict) for p, s in zip(proofs, steps, strict=True)]),
    ]
    return DerivationReport(
        id=d.id,
        title=d.title,
        source=str(d.source),
        verdict=weakest(verdicts),
        steps=steps,
        conclusion=conclusion,
        oracle=oracle,
        erratum=d.erratum,
        notes=tuple(notes),
    )


def check_general_claim(d: Derivation, options: CheckOptions) -> StepResult:
    """General mode for a claim over families (the ``claim`` verb)."""
    if not length_variables(d):
        return check_plain_claim(instantiate_derivation(d, {}), options)
    plan = general_plan(d, options)
    why = Justification("the claim as typed")
    proofs: list[SymbolicProof] = []
    early: list[SymbolicProof] = []

    def claim_proof(cheap: bool) -> SymbolicProof:
        if early:
            return early[0]
        claim = d.claim
        return prove_general(plan, 1, claim.lhs, claim.relation, claim.rhs, why, cheap=cheap)

    def settles(index: int) -> bool:
        if not options.symbolic:
            return False
        if not early:
            early.append(claim_proof(False))
        return early[0].proved

    def prove_all(first: list[Instance]) -> bool:
        proofs.append(claim_proof(_refuted([inst.conclusion for inst in first])))
        return proofs[0].proved

    instances, notes = _staged(d, options, None, True, prove_all, settles)
    proof = proofs[0]
    result = combine(
        1,
        d.claim.lhs,
        d.claim.relation,
        d.claim.rhs,
        why,
        proof,
        [(inst, inst.conclusion) for inst in instances],
        None,
    )
    if notes:
        # The notes go before the family table, which ends the evidence.
        assert isinstance(result.said, Step)
        said = dataclasses.replace(result.said, notes=tuple(notes))
        result = dataclasses.replace(result, said=said)
    return result
