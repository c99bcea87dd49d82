"""General mode's verdict of one link: its proof for every length and its instances'
results combined (see :mod:`numeric_checks.general` for the rules)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import sympy as sp

from numeric_checks.conclusion import EngineInconsistency
from numeric_checks.general.instances import Instance, covered, family_table
from numeric_checks.pipeline import LemmaVerdicts, basis
from numeric_checks.search import MIN_CHECKED_POINTS
from numeric_checks.stages import SymbolicProof
from symbolic.derivation import Justification
from symbolic.evidence import (
    AtLengths,
    EveryLength,
    Family,
    Headline,
    InstanceRefuted,
    Obstacle,
    ObstacleKind,
    Said,
    Step,
    words,
)
from symbolic.relations import Relation
from symbolic.report import HEAD, NumericEvidence, Route, StepResult
from symbolic.verdicts import Verdict

__all__ = ["combine"]


def combine(
    index: int,
    left: sp.Expr,
    rel: Relation,
    right: sp.Expr,
    why: Justification,
    proof: SymbolicProof,
    results: Sequence[tuple[Instance, StepResult]],
    lemmas: LemmaVerdicts | None,
) -> StepResult:
    """One link's result in general mode, from its general proof and its instances' results
    (the verdict rules of :mod:`numeric_checks.general`)."""
    trace = proof.describe()
    refuted = next(((i, r) for i, r in results if r.verdict is Verdict.REFUTED), None)
    per = min((i.points for i, _ in results), default=0)
    doubt: AtLengths | None = None
    route, blocked, table = Route.INSTANCES, None, ""
    decided: Said | None = None
    if refuted is not None:
        inst, r = refuted
        if proof.proved:
            shown = EveryLength(Family.PROVED, "", per, trace=trace)
            raise EngineInconsistency(
                f"step {index} ({left} {rel.value} {right}): {words(shown, HEAD)}, but "
                f"{words(InstanceRefuted(inst.lengths, r.said))}"
            )
        cex = r.counterexample
        counterexample = None
        if cex is not None:
            point = {k: str(v) for k, v in inst.lengths.items()}
            point.update(cex.point)
            counterexample = dataclasses.replace(cex, point=point)
            table = family_table(inst.lengths, cex.point)
        decision: Said = InstanceRefuted(inst.lengths, r.said)
        verdict = Verdict.REFUTED
        numeric = r.numeric
        referees = r.referees
    else:
        numeric = _worst([r.numeric for _, r in results])
        referees = ()
        suspects = [(i, r) for i, r in results if r.doubt is not None]
        checked_points = sum(_points(r) for _, r in results if r.verdict is Verdict.CHECKED)
        undecided = tuple(i.lengths for i, r in results if r.verdict is Verdict.UNDECIDED)
        counterexample = None
        if suspects:
            i, r = suspects[0]
            assert r.doubt is not None
            doubt = AtLengths(i.lengths, r.doubt)
        if proof.proved:
            verdict, route, kind = Verdict.PROVED, Route.EVERY_LENGTH, Family.PROVED
        elif suspects:
            # A violation seen at one length and not confirmed: no verdict for every length.
            verdict, kind = Verdict.UNDECIDED, Family.SUSPECT
        elif 0 < checked_points < MIN_CHECKED_POINTS:
            verdict, kind = Verdict.UNDECIDED, Family.FEW
        elif any(r.verdict is Verdict.CHECKED for _, r in results):
            verdict, kind = Verdict.CHECKED, Family.CHECKED
            blocked = Obstacle(ObstacleKind.GENERAL)
        else:
            verdict, kind = Verdict.UNDECIDED, Family.NONE
        decision = EveryLength(
            kind,
            covered([i for i, _ in results]),
            per,
            trace=trace,
            suspect=doubt,
            undecided=undecided,
            checked_points=checked_points,
            minimum=MIN_CHECKED_POINTS,
        )
        if blocked is not None:
            decided = Headline(decision)
    said = Step(decision, table=table)
    return StepResult(
        index=index,
        lhs=str(left),
        relation=rel.value,
        rhs=str(right),
        justification=why.text,
        verdict=verdict,
        said=said,
        symbolic=trace,
        numeric=numeric,
        counterexample=counterexample,
        referees=referees,
        grounds=basis(why, trace, lemmas, proof.rules),
        rules=proof.rules,
        doubt=doubt,
        route=route,
        obstacle=blocked,
        table=table,
        decision=decided if decided is not None else said,
        proof_tree=proof.proof_tree(why),
    )


def _points(r: StepResult) -> int:
    return r.numeric.points if r.numeric is not None else 0


def _worst(numerics: list[NumericEvidence | None]) -> NumericEvidence | None:
    """The instances' numeric evidence nearest to failing (largest relative gap): the first
    length's alone said "the sides agree at every point" for a product that is right at
    k = 1 and off by 100% at k = 2 (where its suspect point was reported)."""

    def gap(n: NumericEvidence | None) -> float:
        if n is None or n.worst_margin_value is None:
            return -math.inf
        return n.worst_margin_value

    found = [n for n in numerics if n is not None]
    return max(found, key=gap) if found else None
