"""The second-order derivative rule: ``h >= 0`` on an interval from a point where ``h``
touches 0 with a zero slope, and ``h'' >= 0`` on the whole interval.

Two-variable claims whose sides touch along a whole line defeat both box certification
(no box around the line has a positive margin) and the first-order rule started at an end
(the slope changes sign at the touching point).  Hoeffding's lemma for a two-point law,
``cosh(s) + m sinh(s) <= exp(m s + s**2/2)`` for ``m`` in ``[-1, 1]``, is the example: its
log form ``h(s) = m s + s**2/2 - log(cosh s + m sinh s)`` has ``h(0) = 0``, ``h'(0) = 0`` for
every ``m``, and ``h''(s) = t**2 >= 0`` with ``t = (sinh s + m cosh s)/(cosh s + m sinh s)``
(Hoeffding 1963, proof of Lemma 1; Dwork & Roth 2014, proof of Theorem 3.20).

The rule, for a variable ``x`` (the others are parameters, constrained by the facts free of
``x``) on the interval ``I`` its bounds give and a point ``a`` strictly inside ``I``:

* ``h(a) >= 0`` and ``h'(a) = 0`` (a tactic reduces it to 0: an identity in the
  parameters);
* ``h''(x) >= 0`` for every ``x`` in ``I`` (a subgoal for the full search: the rules, the
  decision procedure, the first-order rule, this rule again up to the depth cap);
* ``h`` is twice differentiable on ``I``: only functions smooth on their domain occur, and
  every ``log`` argument, fractional power's base and denominator is proved positive (or
  nonzero) on ``I``, as for the first-order rule.

Then ``h(x) = h(a) + h'(a)(x - a) + h''(xi)(x - a)**2/2 >= h(a) >= 0`` for some ``xi``
between ``a`` and ``x`` (Taylor's theorem with the Lagrange remainder), so ``h >= 0`` on
``I``, for both directions from ``a`` at once.  The points tried are ``0``, ``1``, ``-1``
and the other variables (``p = q`` for Pinsker's inequality between two Bernoulli laws); a
point where ``h(a)`` or ``h'(a)`` is not identically of the right form is dropped before
any subgoal is spent, so the rule costs little where it does not apply.
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy as sp

from symbolic.rules.derivative import (
    MAX_DEPTH,
    MAX_OPS,
    Bound,
    Prove,
    _bound_fact,
    _bounds,
    _continuity,
    _smooth,
    _tidy,
    interval_text,
    log_form,
    variables,
)
from symbolic.rules.facts import Fact
from symbolic.rules.samples import clearly_nonzero, negative_somewhere
from symbolic.tactics import prove_zero

MAX_GOAL_OPS = 30
"""The largest goal the rule starts on (the two-variable MGF bounds in their log form are
at most 22 operations)."""
MAX_SYMBOLS = 3
POINTS = (sp.S.Zero, sp.S.One, sp.S.NegativeOne)
MAX_TRIES = 3
"""(variable, point) pairs that pass the cheap filter and are tried with subgoals."""


def tangency_rule(
    h: sp.Expr, strict: bool, facts: Sequence[Fact], depth: int, prove: Prove
) -> str | None:
    """A proof of ``h >= 0`` by the second-order rule in one of its variables, or None.
    A strict goal is refused: at the touching point ``h`` is 0."""
    if strict or depth >= MAX_DEPTH:
        return None
    h = sp.sympify(h)
    tries = 0
    for x in variables(h, MAX_SYMBOLS, MAX_GOAL_OPS):
        if not _smooth(h, x):
            continue
        for a, dh, at in _touching(h, x, facts):
            if tries >= MAX_TRIES:
                return None
            tries += 1
            trace = _about(h, x, a, dh, at, facts, depth, prove)
            if trace is not None:
                return trace
    return None


def _touching(
    h: sp.Expr, x: sp.Symbol, facts: Sequence[Fact]
) -> list[tuple[sp.Expr, sp.Expr, sp.Expr]]:
    """The points ``a`` (with ``h'`` and ``h(a)``) where ``h'(a)`` is identically 0 and
    ``h(a)`` has no ``x``: the cheap filter, no subgoal spent."""
    dh = _tidy(sp.diff(h, x))
    if dh == 0 or sp.count_ops(dh) > MAX_OPS:
        return []
    lowers, uppers = _bounds(x, facts)
    lo, hi = (lowers[0] if lowers else None), (uppers[0] if uppers else None)
    others = sorted((s for s in h.free_symbols if s != x and s.is_real), key=str)
    out: list[tuple[sp.Expr, sp.Expr, sp.Expr]] = []
    for a in [*POINTS, *others]:
        if a.is_number and not _strictly_inside(a, lo, hi):
            continue
        try:
            at = h.subs(x, a)
            slope = dh.subs(x, a)
        except (TypeError, ValueError, ZeroDivisionError):
            continue
        if at.has(sp.nan, sp.zoo, sp.oo, -sp.oo) or slope.has(sp.nan, sp.zoo):
            continue
        if slope != 0 and (clearly_nonzero(slope) or prove_zero(slope, cheap=True) is None):
            continue
        out.append((a, dh, at))
    return out


def _strictly_inside(a: sp.Expr, lo: Bound | None, hi: Bound | None) -> bool:
    """A numeric point strictly between the numeric bounds (a symbolic bound: the point's
    place is a subgoal of :func:`_about`)."""
    for bound, sign in ((lo, 1), (hi, -1)):
        known = bound is not None and bound[0] is not None and bound[0].is_number
        if known and not (sign * (a - bound[0])).is_positive:  # type: ignore[index,operator]
            return False
    return True


def _about(
    h: sp.Expr,
    x: sp.Symbol,
    a: sp.Expr,
    dh: sp.Expr,
    at: sp.Expr,
    facts: Sequence[Fact],
    depth: int,
    prove: Prove,
) -> str | None:
    """The subgoals for the point ``a``: inside the interval, ``h(a) >= 0``, ``h`` defined
    and smooth on the interval, ``h'' >= 0`` there."""
    free = [f for f in facts if x not in f.expr.free_symbols]
    lowers, uppers = _bounds(x, facts)
    ends: list[tuple[Bound, bool]] = []
    if lowers:
        ends.append((lowers[0], True))
    if uppers:
        ends.append((uppers[0], False))
    interval = [_bound_fact(x, b[0], lower, b[1]) for b, lower in ends if b[0] is not None]
    for (end, _), lower in ends:
        # a strictly inside: it is a point of the interval with room on both sides
        if end is None or (a.is_number and end.is_number):
            continue
        if prove(a - end if lower else end - a, True, free, depth + 1) is None:
            return None
    if not (at.is_number and at.is_zero):
        start = prove(at, False, free, depth + 1)
        if start is None:
            return None
        at_text = f"{at} >= 0 ({start})"
    else:
        at_text = "0"
    on_interval = [*free, *interval]
    defined: list[str] = []
    for need in _continuity(h):
        if prove(need, True, on_interval, depth + 1) is None:
            return None
        defined.append(f"{need} > 0")
    d2h = _tidy(sp.diff(dh, x))
    if sp.count_ops(d2h) > MAX_OPS:
        return None
    # A false convexity subgoal (the claim's constant changed) would send the search down
    # the first-order rule, whose limits at infinity SymPy may take minutes to fail.
    if negative_somewhere(d2h, [(f.expr, f.strict) for f in on_interval], {x: [a]}):
        return None
    convex = prove(d2h, False, on_interval, depth + 1)
    if convex is None:
        return None
    lo = next((b for b, lower in ends if lower), None)
    hi = next((b for b, lower in ends if not lower), None)
    where = interval_text(lo, hi)
    return (
        f"second-order derivative rule in {x} on {where} about {x} = {a}: "
        f"h = {h}{_smooth_text(defined)}; h({a}) = {at_text}; h' = {dh}, h'({a}) = 0; "
        f"h'' = {d2h} >= 0 ({convex}); so h >= h({a}) + h'({a})({x} - {a}) >= 0 (Taylor)"
    )


def _smooth_text(defined: list[str]) -> str:
    return f" (smooth there: {', '.join(defined)})" if defined else ""


def touches(h: sp.Expr, facts: Sequence[Fact]) -> bool:
    """Whether the rule has a point to try on ``h`` (the cheap filter alone)."""
    h = sp.sympify(h)
    reals = variables(h, MAX_SYMBOLS, MAX_GOAL_OPS)
    return any(_smooth(h, x) and _touching(h, x, facts) for x in reals)


def second_order_rule(
    small: sp.Expr, big: sp.Expr, strict: bool, facts: Sequence[Fact], prove: Prove
) -> str | None:
    """A proof of ``small <= big`` by :func:`tangency_rule` on the log form (both sides
    proved positive first), then on the gap ``big - small``.  The log form goes first: for
    an MGF bound ``f <= exp(q)`` its second derivative is a square over a positive
    denominator, where the gap's is as hard as the goal (Hoeffding's two-point lemma:
    ``(1 + (m + s)**2) exp(m s + s**2/2) >= cosh s + m sinh s``)."""
    small, big = sp.sympify(small), sp.sympify(big)
    gap = big - small
    if strict or len(gap.free_symbols) > MAX_SYMBOLS:
        return None
    logs = log_form(small, big)
    if logs is not None and touches(logs, facts):
        positive = [prove(side, True, facts, 2) for side in (small, big)]
        if all(positive):
            trace = tangency_rule(logs, False, facts, 0, prove)
            if trace is not None:
                why = "; ".join(map(str, positive))
                return f"both sides positive ({why}), logs compared: {trace}"
    return tangency_rule(gap, False, facts, 0, prove)
