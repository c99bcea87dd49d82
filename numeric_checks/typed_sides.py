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

from symbolic.side_conditions import SideCondition, definedness, discharge, undischarged

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
    read = {(c.kind, c.expr, c.given) for side in (link.lhs, link.rhs) for c in definedness(side)}
    out: list[SideCondition] = []
    for c in found:
        c = replace(c, expr=plan.prepare(c.expr), given=tuple(plan.prepare(g) for g in c.given))
        if (c.kind, c.expr, c.given) not in read and c not in out:
            out.append(c)
    return tuple(out)


def guarded(plan: CheckPlan, link: Link) -> Link:
    """``link`` with each prepared side given no value where a lost condition the facts do
    not discharge fails (``Piecewise((side, x != 0))`` for ``x/x`` read as ``1``): a point
    where the side as typed has no value is skipped by every evaluation, never a
    counterexample (``x/x - 1 + x**2 > 0`` was refuted at ``x = 0``).  Conditions over a
    sum's index are not guarded (they would need a quantifier), nor those only sufficient
    (:attr:`~symbolic.side_conditions.SideCondition.exact`); they still bar a proof."""
    lost = undischarged(discharge(lost_conditions(plan, link), plan.context.facts))
    # Only a condition without which the typed side has no value: gamma(x) at x = -1/2
    # has one, though x > 0 is what the rules ask.
    guard = [_holds(c) for c in lost if not c.given and c.exact]
    guard = [g for g in guard if g is not None and g is not sp.true]
    if not guard:
        return link
    cond = sp.And(*guard)
    return replace(
        link,
        lhs=sp.Piecewise((link.lhs, cond)),
        rhs=sp.Piecewise((link.rhs, cond)),
        read=(link.lhs, link.rhs),
    )


def _holds(c: SideCondition) -> sp.Basic | None:
    """The condition as a SymPy boolean, None for one that is not a sign (an integer)."""
    if c.kind == "nonzero":
        return sp.Ne(c.expr, 0)
    if c.kind == "positive":
        return sp.StrictGreaterThan(c.expr, 0)
    if c.kind == "nonnegative":
        return sp.GreaterThan(c.expr, 0)
    if c.kind == "holds":
        return c.expr
    return None
