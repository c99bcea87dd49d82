"""The rungs of :func:`numeric_checks.stages.prove` for links about sums of symbolic length:
a hypothesis as written, then the sum rules (:mod:`symbolic.rules.sums`), with the last term
peeled off for an induction's step."""

from __future__ import annotations

from typing import TYPE_CHECKING

from numeric_checks.plan import CheckPlan
from symbolic.relations import Relation
from symbolic.rules import prove_relation
from symbolic.rules.facts import MAX_GOALS
from symbolic.rules.prover import expanded
from symbolic.rules.sums import has_family_sums, prove_sums
from symbolic.rules.sums.peel import peel
from symbolic.side_conditions import discharge, undischarged

if TYPE_CHECKING:
    from numeric_checks.stages import Link

__all__ = ["hypothesis_as_written", "prove_by_sum_rules"]


def hypothesis_as_written(plan: CheckPlan, link: Link) -> str | None:
    """A link about sums that is a hypothesis as written, up to expansion: the hypothesis
    rule's first case (:func:`symbolic.rules.hypotheses.hypothesis`), before the sum rules,
    whose failing termwise attempts cost approx-dp-good-part-mass 0.5 s of its 1.2 s on
    such a link."""
    if link.relation is Relation.EQ:
        return None
    small, big = (link.lhs, link.rhs) if link.relation.direction == 1 else (link.rhs, link.lhs)
    gap = expanded(big - small)
    for fact in plan.context.facts:
        if (fact.strict or not link.relation.strict) and expanded(fact.expr) == gap:
            return f"hypothesis {fact.origin}"
    return None


def prove_by_sum_rules(plan: CheckPlan, link: Link, max_goals: int | None = None) -> str | None:
    """A link about sums or products of symbolic length (or family elements p[i]) by the
    sum rules (:mod:`symbolic.rules.sums`), with the derivation's hypotheses as written
    ("for all" and sum hypotheses included), definitions expanded.  Run on a refuted link
    too, with ``max_goals`` subgoals per termwise proof: a rule claiming a false link must
    be caught, and one misapplied does so near the root (the full search of a refuted
    optimal-composition variant took 16 s, issue 40)."""
    if not has_family_sums(link.lhs, link.rhs):
        return None
    d = plan.derivation
    hypotheses = [d.expand_defs(h) for h in d.hypotheses]
    trace = prove_sums(
        link.lhs,
        link.relation,
        link.rhs,
        hypotheses=hypotheses,
        variables=d.variables,
        cited=link.cited,
        max_goals=max_goals,
    )
    if trace is not None:
        return f"sum rules: {trace}"
    # The step of an induction on a length pairs a sum over 1..n with one over 1..n - 1:
    # peel the last term off the longer one, then the sum rules or the tactics again.
    peeled = peel(link.lhs, link.rhs)
    if peeled is None:
        return None
    (lhs, rhs), how, conditions = peeled
    unmet = undischarged(discharge(conditions, plan.context.facts))
    if unmet:  # a product over a range that may be reversed: the peeled form may be 1/0
        return None
    trace = prove_sums(
        lhs,
        link.relation,
        rhs,
        hypotheses=hypotheses,
        variables=d.variables,
        max_goals=max_goals,
    )
    if trace is None:
        trace = prove_relation(
            lhs, link.relation, rhs, plan.context, max_goals=max_goals or MAX_GOALS
        )
    return None if trace is None else f"sum rules: peel the last term ({'; '.join(how)}), {trace}"
