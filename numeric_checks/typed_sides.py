"""What a link's sides need as their author typed them, beyond what they need as read.

SymPy evaluates on reading: ``x/x`` is read as ``1``, ``exp(log(x))`` as ``x``, and a
definition substituted may cancel the same way (``r*x`` with ``r = 1/x``).  The read sides
are defined where the typed ones are not, so a proof of the read link would prove a claim
that has no value at ``x = 0`` (issue 38's side conditions).  :func:`lost_conditions` gives
the conditions the typed sides need that the prepared sides (``link.lhs``, ``link.rhs``) do
not: those the reader kept (:attr:`symbolic.derivation.Derivation.typed`) and those of each
definition the sides use, in the free variables; :func:`guarded` gives the sides no value
where one of them fails, as the typed sides have none.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import sympy as sp

from symbolic.side_conditions import (
    SideCondition,
    covered,
    definedness,
    discharge,
    undischarged,
)

if TYPE_CHECKING:
    from numeric_checks.plan import CheckPlan
    from numeric_checks.stages import Link

__all__ = ["guarded", "lost_conditions"]


def lost_conditions(plan: CheckPlan, link: Link) -> tuple[SideCondition, ...]:
    """The conditions of ``link``'s sides as typed, definitions included, that the sides as
    prepared for the engine do not have (none for most links), undischarged."""
    d = plan.derivation
    if not d.typed and not d.defs:
        return ()
    typed = dict(d.typed)
    defs = dict(d.defs)
    found: list[SideCondition] = []
    seen: set[sp.Basic] = set()

    def visit(e: sp.Basic) -> None:
        found.extend(typed.get(e, ()))
        for s in sorted(e.free_symbols & defs.keys() - seen, key=str):
            seen.add(s)
            found.extend(definedness(defs[s]))
            visit(defs[s])

    visit(link.left)
    visit(link.right)
    if not found:
        return ()
    read = [c for side in (link.lhs, link.rhs) for c in definedness(side)]
    out: list[SideCondition] = []
    for c in found:
        c = replace(c, expr=plan.prepare(c.expr), given=tuple(plan.prepare(g) for g in c.given))
        if not covered(c, read) and c not in out:
            out.append(c)
    return tuple(out)


def guarded(plan: CheckPlan, link: Link) -> Link:
    """``link`` with each prepared side given no value where a lost condition the facts do
    not discharge fails (``Piecewise((side, x**2 > 0))`` for ``x/x`` read as ``1``): a point
    where the side as typed has no value is skipped by every evaluation, never a
    counterexample (``x/x - 1 + x**2 > 0`` was refuted at ``x = 0``).  Conditions over a
    sum's index are not guarded (they would need a quantifier), nor those only sufficient
    (:attr:`~symbolic.side_conditions.SideCondition.exact`); they still bar a proof."""
    lost = undischarged(discharge(lost_conditions(plan, link), plan.context.facts))
    # Only a condition without which the typed side has no value: gamma(x) at x = -1/2
    # has one, though x > 0 is what the rules ask.
    exact = [c for c in lost if not c.given and c.exact]
    # Each group one relation the Arb bridge decides on a ball (a Ne or an And it does not):
    # x != 0 as x**2 > 0, several at once through their Min.
    strict = [c.expr**2 for c in exact if c.kind == "nonzero"]
    strict += [c.expr for c in exact if c.kind == "positive"]
    loose = [c.expr for c in exact if c.kind == "nonnegative"]
    guards = [sp.StrictGreaterThan(sp.Min(*strict), 0)] if strict else []
    guards += [sp.GreaterThan(sp.Min(*loose), 0)] if loose else []
    guards += [c.expr for c in exact if c.kind == "holds" and isinstance(c.expr, sp.Rel)]
    guards = [g for g in guards if g is not sp.true]
    if not guards:
        return link
    lhs, rhs = link.lhs, link.rhs
    for g in guards:
        lhs, rhs = sp.Piecewise((lhs, g)), sp.Piecewise((rhs, g))
    return replace(link, lhs=lhs, rhs=rhs, read=(link.lhs, link.rhs))
