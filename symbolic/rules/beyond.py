"""What runs after the rules fail: the decision procedure for nonlinear real arithmetic on
the abstracted goal (:mod:`.nra`), then the derivative rule (:mod:`.derivative`), whose
subgoals go through the rules, the decision procedure and the derivative rule again.

A budget of wall time bounds the whole search (failing searches must stay cheap: the
catalog's checked steps pass through here too)."""

from __future__ import annotations

import time
from collections.abc import Sequence

import sympy as sp

from symbolic.rules.derivative import derivative_rule, log_form
from symbolic.rules.facts import MAX_GOALS, Context, Fact
from symbolic.rules.nra import TIMEOUT_MS, decide

SECONDS = 6.0
"""Wall-time budget of the derivative search from one goal."""
SUB_TIMEOUT_MS = 800
"""z3's cap on the derivative rule's subgoals."""


class _Budget:
    def __init__(self, seconds: float) -> None:
        self.until = time.monotonic() + seconds

    def spent(self) -> bool:
        return time.monotonic() > self.until


def beyond_rules(small: sp.Expr, big: sp.Expr, strict: bool, ctx: Context) -> str | None:
    """A proof of ``small <= big`` (``<``) by decision or derivatives, or None."""
    gap = big - small
    decision = decide(gap, strict, ctx.facts, TIMEOUT_MS)
    if decision.trace is not None:
        return decision.trace
    if decision.status in ("not abstractable", "constant", "trivial"):
        return None
    budget = _Budget(SECONDS)

    def prove(g: sp.Expr, s: bool, facts: Sequence[Fact], depth: int) -> str | None:
        if budget.spent():
            return None
        g = sp.sympify(g)
        if g.is_number:
            ok = g.is_positive if s else g.is_nonnegative
            return f"{g} {'>' if s else '>='} 0" if ok else None
        from symbolic.rules.prover import Prover  # the prover imports this module

        rules = Prover(Context(list(facts)))
        trace = rules.nonneg(g, s, 0)
        if trace is not None:
            return " -> ".join(trace)
        if len(rules.seen) >= MAX_GOALS and budget.spent():
            return None
        d = decide(g, s, facts, SUB_TIMEOUT_MS)
        if d.trace is not None:
            return d.trace
        return derivative_rule(g, s, facts, depth, prove)

    trace = derivative_rule(gap, strict, ctx.facts, 0, prove)
    if trace is not None:
        return trace
    logs = log_form(small, big)
    if logs is not None and not budget.spent():
        positive = [prove(side, True, ctx.facts, 2) for side in (small, big)]
        if all(positive):
            trace = prove(logs, strict, ctx.facts, 0)
            if trace is not None:
                why = "; ".join(map(str, positive))
                return f"both sides positive ({why}), logs compared: {trace}"
    return None
