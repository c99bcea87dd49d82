"""A link proved in the defined symbols as written (``mu_G``, not its value): the rung of
:func:`numeric_checks.stages.prove` that keeps definitions folded."""

from __future__ import annotations

from typing import TYPE_CHECKING

import sympy as sp

from numeric_checks.budget import BudgetSpent, work_limit
from numeric_checks.plan import CheckPlan, rules_context
from symbolic.functions import unfold
from symbolic.relations import Relation
from symbolic.rules import Context, prove_relation

if TYPE_CHECKING:
    from numeric_checks.stages import Link

__all__ = ["AS_WRITTEN_GOALS", "AS_WRITTEN_SECONDS", "prove_as_written"]


AS_WRITTEN_SECONDS = 30.0
"""CPU-time bound on one equality attempted in the defined symbols as written
(:func:`~numeric_checks.budget.work_limit`: the same work on a busy machine as a quiet one)."""

AS_WRITTEN_GOALS = 30
"""Subgoal budget of an inequality's attempt as written, which also skips the rules beyond
the search (derivative rule, nonlinear arithmetic).  The attempt runs before the search over
the unfolded link, which keeps the full budget, and it wins where the hypotheses as written
give the link in a few steps (``gamma_n <= alpha``; the catalog's eight inequalities proved as
written take at most 1.3 s); with the full budget, a failing one cost up to 1.9 s
(numeric-sparse-accuracy-approx's Max(...) <= alpha, proved unfolded in 0.3 s)."""


def prove_as_written(plan: CheckPlan, link: Link) -> str | None:
    """A link proved in the defined symbols as written (``mu_G``, not its value).

    Unfolding a definition can hide what the tactics need: ``GaussianDelta(mu, eps)``
    integrates to its closed form only when mu is known to be positive, which SymPy sees of
    the positive symbol ``mu_G`` but not of its value ``eps/sqrt(2 ln(1.25/delta))``.  An
    identity in a symbol holds at every value that has the symbol's assumptions, so it holds
    at the defined value once the rules prove that value has them (positive, nonnegative);
    any other assumption must be one SymPy itself knows of the value.  An inequality is
    proved from the hypotheses as written too (``gamma_n <= alpha``): it then holds for every
    value of the symbols that has their assumptions and satisfies the hypotheses, and the
    defined values do.
    """
    written = (unfold(link.left), unfold(link.right))
    symbols = set().union(*(e.free_symbols for e in written))
    used = [(s, v) for s, v in plan.derivation.defs if s in symbols]
    if not used or written == (link.lhs, link.rhs):
        return None
    why = []
    for symbol, value in used:
        reason = _has_assumptions(plan, symbol, plan.prepare(value))
        if reason is None:
            return None
        why.append(f"{symbol} {reason}")
    try:
        # Integrating a defined function can cost SymPy minutes when the identity is false
        # or beyond it; a bound that fires proves nothing (the numeric layers decide).
        with work_limit(AS_WRITTEN_SECONDS):
            if link.relation is Relation.EQ:
                trace = prove_relation(written[0], Relation.EQ, written[1], plan.context)
            else:
                context = _written_context(plan)
                if context is None:
                    return None
                trace = prove_relation(
                    written[0],
                    link.relation,
                    written[1],
                    context,
                    cheap=True,
                    max_goals=AS_WRITTEN_GOALS,
                )
    except BudgetSpent:
        return None
    if trace is None:
        return None
    return f"{trace} in the defined symbols as written ({'; '.join(why)})"


def _written_context(plan: CheckPlan) -> Context | None:
    """The hypotheses as written (defined symbols kept) and the variables' domains, as
    facts; None when an equality hypothesis was solved away (its variable is no longer free
    in the plan's facts, and the written ones would disagree with them)."""
    d = plan.derivation
    if any(isinstance(h, sp.Equality) for h in d.hypotheses):
        return None
    return rules_context(d.hypotheses, d.variables)


_ASSUMPTIONS: dict[int, tuple[CheckPlan, dict[tuple[sp.Symbol, sp.Expr], str | None]]] = {}
"""What :func:`_has_assumptions` found, per plan (keyed by id, the plan kept alive with
its entry): the same definition's sign is asked once per link that uses it, and proving
it is the same work each time (kl-bound's, gdp-to-dp's: up to 1 s a link)."""


def _has_assumptions(plan: CheckPlan, symbol: sp.Symbol, value: sp.Expr) -> str | None:
    """How ``value`` is known to have ``symbol``'s assumptions, or None."""
    entry = _ASSUMPTIONS.get(id(plan))
    if entry is None or entry[0] is not plan:
        if len(_ASSUMPTIONS) >= 8:
            _ASSUMPTIONS.pop(next(iter(_ASSUMPTIONS)))
        entry = _ASSUMPTIONS[id(plan)] = (plan, {})
    known = entry[1]
    if (symbol, value) not in known:
        known[(symbol, value)] = _assumptions_shown(plan, symbol, value)
    return known[(symbol, value)]


def _assumptions_shown(plan: CheckPlan, symbol: sp.Symbol, value: sp.Expr) -> str | None:
    if symbol.is_positive:
        wanted = Relation.GT
    elif symbol.is_nonnegative:
        wanted = Relation.GE
    else:
        extra = {k for k, v in symbol.assumptions0.items() if v and k != "commutative"}
        known = all(getattr(value, f"is_{k}", None) is True for k in extra)
        return "(no assumption beyond SymPy's own)" if known else None
    sign = "> 0" if wanted is Relation.GT else ">= 0"
    if (value.is_positive if wanted is Relation.GT else value.is_nonnegative) is True:
        return f"{sign} by SymPy's assumptions"
    trace = prove_relation(value, wanted, sp.Integer(0), plan.context)
    return None if trace is None else f"{sign} by {trace}"
