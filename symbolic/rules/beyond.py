"""What runs after the rules fail: the decision procedure for nonlinear real arithmetic on
the abstracted goal (:mod:`.nra`); the goal once more with a factor of known sign set aside
or a positive denominator cleared; the convex-chord rule on a bounded interval
(:mod:`.chords`, a budget of its own); then the second-order rule about a touching point
(:mod:`.tangency`, on the log form first when an exponential makes it simpler) and the
derivative rule (:mod:`.derivative`), whose subgoals go through the rules, the decision
procedure and both derivative rules again.

A budget of subgoals bounds the whole search (failing searches must stay cheap: the
catalog's checked steps pass through here too)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import sympy as sp

from symbolic.proof_tree import Goal
from symbolic.rules.chords import chord_rule
from symbolic.rules.derivative import MAX_SYMBOLS, Prove, derivative_rule, log_form
from symbolic.rules.facts import Context, Fact, ops
from symbolic.rules.nra import RLIMIT, TIMEOUT_MS, decide
from symbolic.rules.registry import attempt, side_condition
from symbolic.rules.samples import negative_somewhere
from symbolic.rules.tangency import second_order_rule, tangency_rule

Rules = Callable[[sp.Expr, bool, Sequence[Fact], int], list[str] | None]
"""``rules(g, strict, facts, goals)``: the rule search with a budget of ``goals`` subgoals
(given by the prover, which imports this module)."""

CALLS = 30
"""Subgoals of the derivative search from one goal."""
SECONDS = 20.0
"""Its wall-time bound (a last resort: the count decides)."""
CHORD_CALLS = 12
"""Subgoals of the chord rule from one goal (a budget of its own)."""
SUB_TIMEOUT_MS = 2500
"""z3's cap on the derivative rule's subgoals."""


SUB_GOALS = 30
"""The rules' subgoal budget on the derivative rule's subgoals (the full budget of a
failing search cost 2 s a subgoal on the catalog's larger steps)."""
SUB_RULES_MAX_OPS = 40
"""The rules run on the derivative rule's subgoals up to this size only: on the catalog's
large steps each of their subgoals cost 0.1-0.5 s, and there z3 is tried first anyway."""


class _Budget:
    """Subgoals counted, so that what is proved does not depend on the machine's load; the
    bound in CPU seconds (work, not wall time, for the same reason) is a last resort against
    a pathological subgoal."""

    def __init__(self, calls: int, seconds: float) -> None:
        self.left = calls
        self.until = time.process_time() + seconds

    def spend(self) -> bool:
        """Take one subgoal from the budget; False when none is left."""
        self.left -= 1
        return self.left >= 0 and time.process_time() <= self.until

    def spent(self) -> bool:
        return self.left <= 0 or time.process_time() > self.until


def beyond_rules(
    small: sp.Expr, big: sp.Expr, strict: bool, ctx: Context, rules: Rules, reduce: bool = True
) -> str | None:
    """A proof of ``small <= big`` (``<``) by decision or derivatives, or None.  ``reduce``:
    first try the goal with a factor of known sign set aside or a positive denominator
    cleared (once: the reduced goal is not reduced again)."""
    small, big = sp.sympify(small), sp.sympify(big)
    gap = big - small
    decision = decide(gap, strict, ctx.facts, TIMEOUT_MS, rlimit=RLIMIT)
    if decision.trace is not None:
        return decision.trace
    if decision.status in ("not abstractable", "constant", "trivial"):
        return None
    reduced = _reduced(gap, strict, ctx.facts) if reduce else None
    if reduced is not None:
        how, (small_rest, big_rest) = reduced
        trace = attempt(
            None,
            beyond_rules,
            small_rest,
            big_rest,
            strict,
            ctx,
            rules,
            False,
            goal=Goal(big_rest - small_rest, strict),
        )
        if trace is not None:
            rel = "<" if strict else "<="
            return f"{how}, what remains: {small_rest} {rel} {big_rest} by {trace}"
    # The chord rule first, on a budget of its own: its subgoals are few (a second
    # derivative's sign, two end values), and on claims touching at both ends of a bounded
    # interval the derivative rules spend their whole budget failing; its failures must not
    # eat into theirs (Pinsker's inequality is the second-order rule's).
    chord_budget = _Budget(CHORD_CALLS, SECONDS)
    chord_search = _search(rules, chord_budget, deep=False)
    trace = attempt(
        "convexity",
        chord_rule,
        small,
        big,
        strict,
        ctx.facts,
        0,
        chord_search,
        goal=Goal(gap, strict),
    )
    if trace is not None:
        return trace
    budget = _Budget(CALLS, SECONDS)
    prove = _search(rules, budget)
    trace = attempt(
        "derivative rule",
        second_order_rule,
        small,
        big,
        strict,
        ctx.facts,
        prove,
        goal=Goal(gap, strict),
    )
    if trace is not None:
        return trace
    trace = attempt(
        "derivative rule", derivative_rule, gap, strict, ctx.facts, 0, prove, goal=Goal(gap, strict)
    )
    if trace is not None:
        return trace
    if len(gap.free_symbols) > MAX_SYMBOLS:
        return None
    return attempt(
        None, _logs_compared, small, big, strict, ctx, prove, budget, goal=Goal(gap, strict)
    )


def _logs_compared(
    small: sp.Expr, big: sp.Expr, strict: bool, ctx: Context, prove: Prove, budget: _Budget
) -> str | None:
    """``small <= big`` from ``log(small) <= log(big)``, both sides proved positive."""
    logs = log_form(small, big)
    if logs is not None and not budget.spent():
        positive = [side_condition(prove, side, True, ctx.facts, 2) for side in (small, big)]
        if all(positive):
            trace = prove(logs, strict, ctx.facts, 0)
            if trace is not None:
                why = "; ".join(map(str, positive))
                return f"both sides positive ({why}), logs compared: {trace}"
    return None


def _search(rules: Rules, budget: _Budget, deep: bool = True) -> Prove:
    """The search of a subgoal: the decision procedure, the rules, then (if ``deep``) both
    derivative rules (whose own subgoals come back here), all on ``budget``.  The chord
    rule's subgoals are not deep: their failing derivative searches cost the catalog's
    Gaussian mechanism 4 s, and no claim of the tests needed them."""

    def prove(g: sp.Expr, s: bool, facts: Sequence[Fact], depth: int) -> str | None:
        # In a frame of its own, so that the rule proving the subgoal is its node.
        g = sp.sympify(g)
        return attempt(None, search, g, s, facts, depth, goal=Goal(g, s))

    def search(g: sp.Expr, s: bool, facts: Sequence[Fact], depth: int) -> str | None:
        if not budget.spend():
            return None
        g = sp.sympify(g)
        if g.is_number:
            ok = g.is_positive if s else g.is_nonnegative
            return f"{g} {'>' if s else '>='} 0" if ok else None
        d = decide(g, s, facts, SUB_TIMEOUT_MS, rlimit=RLIMIT // 2)
        if d.trace is not None:
            return d.trace
        if ops(g) <= SUB_RULES_MAX_OPS:
            trace = rules(g, s, facts, SUB_GOALS)
            if trace is not None:
                return " -> ".join(trace)
        if budget.spent() or not deep:
            return None
        # What is negative at a point of the facts has no proof: the derivative rules'
        # search on it (limits at infinity included) is skipped.
        if negative_somewhere(g, [(f.expr, f.strict) for f in facts]):
            return None
        second = attempt("derivative rule", tangency_rule, g, s, facts, depth, prove)
        if second is not None:
            return second
        return attempt("derivative rule", derivative_rule, g, s, facts, depth, prove)

    return prove


FACTOR_MAX_OPS = 40


def _reduced(
    gap: sp.Expr, strict: bool, facts: Sequence[Fact]
) -> tuple[str, tuple[sp.Expr, sp.Expr]] | None:
    """``gap = f r`` with ``f`` nonnegative (positive, for a strict goal) by the symbols'
    assumptions, or ``gap = N/D`` with ``D > 0`` decided: then ``gap >= 0`` follows from
    ``r >= 0`` (``N >= 0``), written ``small <= big`` with the negative terms on the left.
    ``eps (e^eps - 1) <= 2 eps**2`` becomes ``e^eps <= 2 eps + 1``, which the chord rule
    reads; the geometric mechanism's ``2 e^-eps/(1 - e^-eps)**2 <= 2/eps**2`` becomes a
    numerator that is 0 at eps = 0 instead of a pole there.  None when neither is found or
    the goal is large (a catalog step: the recursion would double a failing search)."""
    if len(gap.free_symbols) > MAX_SYMBOLS or ops(gap) > FACTOR_MAX_OPS:
        return None
    sign = ">" if strict else ">="
    common = sp.factor_terms(gap)
    if isinstance(common, sp.Mul):
        signed = [f for f in common.args if (f.is_positive if strict else f.is_nonnegative)]
        if any(f.free_symbols for f in signed):
            rest = sp.Mul(*(f for f in common.args if f not in signed))
            if rest.free_symbols and rest != gap:
                factor = sp.Mul(*signed)
                how = (
                    f"the factor {factor} {sign} 0 (sign from the variables' assumptions) set aside"
                )
                return how, _sides(rest)
    numerator, denominator = sp.together(gap).as_numer_denom()
    if not _may_vanish(denominator) or not numerator.free_symbols:
        return None
    positive = decide(denominator, True, facts, SUB_TIMEOUT_MS, rlimit=RLIMIT // 2)
    if positive.trace is None:
        return None
    return f"the denominator {denominator} > 0 ({positive.trace}) cleared", _sides(numerator)


def _may_vanish(denominator: sp.Expr) -> bool:
    """A denominator with a factor other than an exponential (SymPy writes ``exp(-x)`` as
    ``1/exp(x)``) and a number: only a factor that may vanish makes a pole worth clearing;
    clearing ``exp(p s)`` from the Bernoulli MGF bound cost a failing search of 6 s."""
    for f in sp.Mul.make_args(denominator):
        base = f.base if isinstance(f, sp.Pow) else f
        if base.free_symbols and not isinstance(base, sp.exp):
            return True
    return False


def _sides(e: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """``e >= 0`` as ``small <= big``: the terms with a negative coefficient moved left."""
    terms = sp.Add.make_args(sp.expand(e))
    negative = [t for t in terms if t.as_coeff_Mul()[0].is_negative]
    return -sp.Add(*negative), sp.Add(*(t for t in terms if t not in negative))
