"""Sum rules about single elements and "for all" equalities (for :mod:`symbolic.rules.sums`).

Three identities or implications, each valid for every length:

* **peeling the first term**: ``Product(f(i), (i, a, b)) = f(a) Product(f(i), (i, a + 1, b))``
  and ``Sum(f(i), (i, a, b)) = f(a) + Sum(f(i), (i, a + 1, b))`` when the range is not
  empty (``b >= a`` is shown from the facts, e.g. ``k >= 1``); applied only where the other
  side of the link has the shorter range, so that the two sides meet;
* **a "for all" equality inside a sum or product**: in ``Sum(f, (i, a, b))`` an element
  ``x[i]`` may be replaced by ``y[i]`` when a hypothesis says ``x[i] = y[i]`` for every
  ``i`` of a range covering ``a..b`` (the terms are equal term by term);
* **an element at a fixed index**: a link without sums about ``x[1]`` may use every "for
  all" hypothesis at ``1`` (and the family's domain at ``1``) when ``1`` is shown inside
  the hypothesis's range.

Parallel composition (seed 003, Theorem 4) needs all three: the part that holds the changed
record is peeled off the product, the other parts' ratios are 1 by the equality, and the
changed part's ratio is bounded by its own privacy hypothesis.
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from symbolic.families import ForAll
from symbolic.relations import Relation
from symbolic.rules.facts import Context, Fact, fact_from_relation
from symbolic.rules.prover import prove_relation
from symbolic.rules.sums.setup import Setup

__all__ = ["at_fixed_indices", "peel_first", "substitute_equalities"]

Prove = Callable[[sp.Expr, Relation, sp.Expr], "str | None"]


def _inside(setup: Setup, e: sp.Expr, lower: sp.Expr, upper: sp.Expr) -> bool:
    """Whether ``lower <= e <= upper`` is shown from the plain facts."""
    return (
        setup.scalar(sp.expand(e - lower), False) is not None
        and setup.scalar(sp.expand(upper - e), False) is not None
    )


# -- peeling --------------------------------------------------------------------------------


def _ranges(e: sp.Expr) -> set[tuple[type, sp.Expr, sp.Expr]]:
    out = set()
    for s in e.atoms(sp.Sum, sp.Product):
        if len(s.limits) == 1:
            _, lo, hi = s.limits[0]
            out.add((type(s), lo, hi))
    return out


def peel_first(lhs: sp.Expr, rhs: sp.Expr, setup: Setup) -> tuple[sp.Expr, sp.Expr] | None:
    """Both sides with each one-index sum (product) over ``a..b`` written as its first term
    and the rest over ``a + 1..b`` where the other side has a sum (product) over
    ``a + 1..b``; None when nothing is peeled."""
    changed = False

    def peel(e: sp.Expr, other: sp.Expr) -> sp.Expr:
        nonlocal changed
        wanted = _ranges(other)
        table = {}
        for s in e.atoms(sp.Sum, sp.Product):
            if len(s.limits) != 1:
                continue
            var, lo, hi = s.limits[0]
            if (type(s), lo + 1, hi) not in wanted or setup.scalar(
                sp.expand(hi - lo), False
            ) is None:
                continue
            first = s.function.xreplace({var: lo})
            rest = s.func(s.function, (var, lo + 1, hi))
            table[s] = first * rest if isinstance(s, sp.Product) else first + rest
        if table:
            changed = True
            return e.xreplace(table)
        return e

    new = peel(lhs, rhs), peel(rhs, lhs)
    return new if changed else None


# -- "for all" equalities -------------------------------------------------------------------


def substitute_equalities(e: sp.Expr, setup: Setup) -> sp.Expr:
    """``e`` with every element ``x[i]`` inside a sum or product over ``a..b`` replaced by
    ``y[i]`` where a hypothesis ``x[i] = y[i]`` holds for every ``i`` of a range covering
    ``a..b``."""
    rules = [
        h
        for h in setup.foralls
        if isinstance(h.relation, sp.Equality)
        and isinstance(h.relation.lhs, sp.Indexed)
        and h.relation.lhs.indices == (h.index,)
        and not h.relation.rhs.has(h.relation.lhs.base)
    ]
    if not rules:
        return e
    table = {}
    for s in e.atoms(sp.Sum, sp.Product):
        if len(s.limits) != 1:
            continue
        var, lo, hi = s.limits[0]
        body = s.function
        for h in rules:
            covered = (
                setup.scalar(sp.expand(lo - h.lower), False) is not None
                and setup.scalar(sp.expand(h.upper - hi), False) is not None
            )
            if not covered:
                continue
            at = h.relation.xreplace({h.index: var})
            body = body.xreplace({at.lhs: at.rhs})
        if body != s.function:
            table[s] = s.func(body, (var, lo, hi))
    return e.xreplace(table) if table else e


# -- elements at fixed indices --------------------------------------------------------------


def at_fixed_indices(lhs: sp.Expr, rel: Relation, rhs: sp.Expr, setup: Setup) -> str | None:
    """A sum-free link about elements at index expressions free of bound indices (``x[1]``,
    ``x[k]``), proved with the "for all" hypotheses and the families' domains at those
    indices (each where the index is shown inside the range)."""
    if lhs.has(sp.Sum, sp.Product) or rhs.has(sp.Sum, sp.Product):
        return None
    elements = (lhs.atoms(sp.Indexed) | rhs.atoms(sp.Indexed)) - {None}
    at = {x.indices[0] for x in elements if len(x.indices) == 1}
    if not at:
        return None
    facts: list[Fact] = list(setup.facts)
    for e in at:
        for base, v in setup.families.items():
            fam = v.family
            if fam is not None and fam.second is None and _inside(setup, e, fam.lower, fam.upper):
                for c in v.domain.constraints(base[e]):
                    facts += fact_from_relation(c, f"domain of {v.name}")
        for h in setup.foralls:
            if isinstance(h, ForAll) and _inside(setup, e, h.lower, h.upper):
                facts += fact_from_relation(h.at(e), f"{h} at {h.index} = {e}")
    if len(facts) == len(setup.facts):
        return None
    trace = prove_relation(lhs, rel, rhs, Context(facts), cheap=True)
    if trace is None:
        return None
    return f"the 'for all' hypotheses at {', '.join(sorted(map(str, at)))}: {trace}"
