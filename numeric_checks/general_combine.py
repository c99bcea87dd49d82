"""General mode's verdict of one link: its proof for every length and its instances'
results combined (see :mod:`numeric_checks.general` for the rules)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import sympy as sp

from numeric_checks.family_instances import Instance, covered, family_table, where
from numeric_checks.search import MIN_CHECKED_POINTS
from numeric_checks.stages import SymbolicProof
from symbolic.derivation import Justification
from symbolic.relations import Relation
from symbolic.report import NumericEvidence, Route, StepResult
from symbolic.verdicts import Verdict

if TYPE_CHECKING:
    from numeric_checks.general import Engine

__all__ = ["combine"]

LemmaVerdicts = Callable[[str], Verdict | None]


def combine(
    engine: Engine,
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
    lengths = covered([i for i, _ in results])
    per = min((i.points for i, _ in results), default=0)
    suspect = ""
    route, why_not, instances, table = Route.INSTANCES, "", "", ""
    if refuted is not None:
        inst, r = refuted
        if proof.proved:
            raise engine.inconsistency(
                f"step {index} ({left} {rel.value} {right}): proved for every length by "
                f"{trace}, but refuted at {where(inst.lengths)}: {r.evidence}"
            )
        cex = r.counterexample
        counterexample = None
        table = ""
        if cex is not None:
            point = {k: str(v) for k, v in inst.lengths.items()}
            point.update(cex.point)
            counterexample = dataclasses.replace(cex, point=point)
            table = family_table(inst.lengths, cex.point)
        evidence = f"refuted at {where(inst.lengths)}: {r.evidence}"
        head = f"refuted at {where(inst.lengths)}: {r.head}"
        if table:
            evidence += "\n" + table
        verdict = Verdict.REFUTED
        numeric = r.numeric
        referees = r.referees
    else:
        numeric = _worst([r.numeric for _, r in results])
        referees = ()
        suspects = [(i, r) for i, r in results if r.suspect]
        checked_points = sum(_points(r) for _, r in results if r.verdict is Verdict.CHECKED)
        undecided = [i for i, r in results if r.verdict is Verdict.UNDECIDED]
        counterexample = None
        numerics = f"numeric checks at {lengths} ({per} points or more each) found no violation"
        instances = numerics
        if suspects:
            i, r = suspects[0]
            suspect = f"at {where(i.lengths)}: {r.suspect}"
            numerics += f"; a suspect point {suspect}"
        if undecided:
            numerics += f"; undecided at {'; '.join(where(i.lengths) for i in undecided)}"
        if proof.proved:
            verdict, route = Verdict.PROVED, Route.EVERY_LENGTH
            head = f"proved for every length by {trace}"
            evidence = f"{head}; {numerics}"
        elif suspects:
            # A violation seen at one length and not confirmed: no verdict for every length.
            verdict = Verdict.UNDECIDED
            head = "a violation was seen and not confirmed"
            evidence = f"{head} ({numerics})"
            head += f" ({instances})"
        elif 0 < checked_points < MIN_CHECKED_POINTS:
            verdict = Verdict.UNDECIDED
            head = (
                f"only {checked_points} defined point(s) over every length, fewer than the "
                f"{MIN_CHECKED_POINTS} a checked verdict needs"
            )
            evidence = f"{head} ({numerics})"
            head += f" ({instances})"
        elif any(r.verdict is Verdict.CHECKED for _, r in results):
            verdict = Verdict.CHECKED
            head = f"checked at {lengths} ({per} points or more each)"
            why_not = (
                "no rule proved the general link (an instance's proof or certificate is not "
                "the statement for every length)"
            )
            evidence = f"{head}; why not proved: {why_not}"
            if undecided:
                evidence += "; " + numerics
        else:
            verdict = Verdict.UNDECIDED
            head = "not proved for every length, and no instance decided it"
            evidence = f"{head} ({numerics})"
            head += f" ({instances})"
    return StepResult(
        index=index,
        lhs=str(left),
        relation=rel.value,
        rhs=str(right),
        justification=why.text,
        verdict=verdict,
        evidence=evidence,
        symbolic=trace,
        numeric=numeric,
        counterexample=counterexample,
        referees=referees,
        basis=engine.basis(why, trace, lemmas, proof.rules),
        rules=proof.rules,
        suspect=suspect,
        route=route,
        head=head,
        why_not_proved=why_not,
        why_short=why_not,
        table=table,
        instances=instances,
        decided=head if why_not else evidence,
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
