"""The hypothesis rule: a goal ``g >= 0`` follows from a hypothesis ``h >= 0`` when ``g - h``
has a known sign, when ``g`` is a positive multiple of ``h``, or (for facts about absolute
values, such as a sensitivity bound) when ``g - h >= 0`` has a proof of its own."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import sympy as sp

from symbolic.rules.facts import MAX_DEPTH, SIGN_MAX_OPS, ops

if TYPE_CHECKING:
    from symbolic.rules.prover import Prover

MAX_CHAIN_DEPTH = 3  # hypotheses are chained with a remainder only this close to the root


def hypothesis(
    prover: Prover, g: sp.Expr, strict: bool, depth: int = MAX_DEPTH
) -> list[str] | None:
    """``g >= 0`` (``> 0`` if strict) from one of the prover's facts."""
    symbols = g.free_symbols
    for fact in prover.ctx.facts:
        # A fact about variables absent from g cannot help bound g (and trying every fact
        # at every subgoal dominated the cost of failing searches).
        if not fact.expr.free_symbols <= symbols:
            continue
        # g >= h with h >= 0 gives only g >= 0; a strict goal then needs g - h > 0.
        rest_strict = strict and not fact.strict
        # Both sides expanded once per prover: expanding g - h afresh for every fact
        # dominated the cost of searches on large goals.
        rest = prover.expanded(g) - prover.expanded(fact.expr)
        if rest == 0 and not rest_strict:
            return [f"hypothesis {fact.origin}"]
        if rest != 0 and prover.sign(rest, rest_strict):
            return [f"hypothesis {fact.origin} plus a term of known sign"]
        # Chaining serves facts about absolute values (sensitivity |f(x) - f(y)| <= Delta)
        # feeding the triangle inequality; other facts would only multiply the search.
        # A goal without absolute values gains nothing from subtracting one (the remainder
        # would only carry the fact's |a|), so the goal itself must have one.
        # And the fact must cancel a term of g (Delta against Delta): a remainder that is
        # g with the fact's terms merely appended is a harder goal than g, and searching it
        # at the root (exp(a) - exp(b) - Delta + |fx - fy|) was most of laplace-ratio's time.
        if (
            rest != 0
            and depth <= MAX_CHAIN_DEPTH
            and g.has(sp.Abs)
            and rest.has(sp.Abs)
            and fact.expr.has(sp.Abs)
            and _cancels_a_term(prover.expanded(g), prover.expanded(fact.expr), rest)
        ):
            # g = h + rest with h >= 0: chain the hypothesis with a proof of rest >= 0
            # (e.g. |z-fy| <= |z-fx| + |fx-fy| <= |z-fx| + Delta).
            trace = prover.nonneg(rest, rest_strict, depth + 1)
            if trace is not None:
                return [f"hypothesis {fact.origin}, then", *trace]
        # g = c*h with c > 0: tried only where it can work cheaply (same variables, small
        # goal), since cancel() on large quotients dominated failing searches; and only
        # where it could give the goal (a strict goal needs a strict fact), before the
        # cancel() rather than after it.
        if (
            (not strict or fact.strict)
            and fact.expr != 0
            and fact.expr.free_symbols == symbols
            and ops(g) <= SIGN_MAX_OPS
            and _positive_ratio(prover, _ratio(g, fact.expr))
        ):
            return [f"hypothesis {fact.origin} times a positive factor"]
    return None


@functools.lru_cache(maxsize=4096)
def _ratio(g: sp.Expr, h: sp.Expr) -> sp.Expr:
    """``cancel(g/h)``, memoised for every prover (it depends on neither facts nor case)."""
    return sp.cancel(g / h)


def _positive_ratio(prover: Prover, ratio: sp.Expr) -> bool:
    """``ratio > 0`` by assumptions, or as a quotient whose numerator and denominator have
    the same sign by assumptions or strict facts (``e^-eps/(1 - p1 - p2)`` with the fact
    ``1 - p1 - p2 > 0``).  No search here: this is called inside the hypothesis rule."""
    if ratio.is_positive:
        return True
    num, den = sp.fraction(ratio)
    if den == 1:
        return False
    return (_plainly_positive(prover, num) and _plainly_positive(prover, den)) or (
        _plainly_positive(prover, -num) and _plainly_positive(prover, -den)
    )


def _plainly_positive(prover: Prover, e: sp.Expr) -> bool:
    """Every factor of ``e`` is positive by assumptions or is a strict fact as it stands."""
    for f in sp.Mul.make_args(e):
        if f.is_positive or (isinstance(f, sp.Add) and sp.expand(f) in prover.strict_facts()):
            continue
        if isinstance(f, sp.Pow) and f.exp.is_integer and _plainly_positive(prover, f.base):
            continue
        return False
    return True


def _cancels_a_term(g: sp.Expr, h: sp.Expr, rest: sp.Expr) -> bool:
    """``rest = g - h`` (all expanded) has fewer terms than ``g`` and ``h`` together: some
    term of the fact cancelled or merged with one of the goal."""
    size = len(sp.Add.make_args(g)) + len(sp.Add.make_args(h))
    return len(sp.Add.make_args(rest)) < size
