"""Equality hypotheses become substitutions.

Rejection sampling never hits an equality such as ``b == Delta/eps``, and freezing a solved
value at one precision would fake a discrepancy when a point is re-evaluated at a higher one.
So each equality is solved for one of its variables, that variable is substituted away
everywhere, and its domain becomes an inequality on the remaining variables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import sympy as sp

from symbolic.domains import Variable
from symbolic.errors import EmptyDomain, InvalidInput


@dataclass(frozen=True)
class Space:
    """Where points live: the variables still sampled, the inequalities they must satisfy,
    and the eliminated variables with their formulas (for display)."""

    free: tuple[Variable, ...]
    inequalities: tuple[sp.Rel, ...]
    solved: tuple[tuple[Variable, sp.Expr], ...]

    def substitute(self, expr: sp.Basic) -> sp.Basic:
        for var, value in self.solved:
            expr = expr.xreplace({var.symbol: value})
        return expr

    @property
    def free_symbols(self) -> tuple[sp.Symbol, ...]:
        return tuple(v.symbol for v in self.free)


def build_space(variables: Sequence[Variable], hypotheses: Sequence[sp.Basic]) -> Space:
    """Eliminate the equalities among ``hypotheses`` and collect what remains."""
    free = list(variables)
    solved: list[tuple[Variable, sp.Expr]] = []
    given: list[sp.Basic] = []
    for h in hypotheses:
        # Definitions substituted can make a hypothesis hold identically (log(p/q) <= eps
        # with p = q e^eps): it is satisfied; one false everywhere is contradictory.
        if h is sp.true:
            continue
        if h is sp.false:
            raise EmptyDomain(
                "a hypothesis is false for every value of the variables once definitions "
                "are substituted: the hypotheses are contradictory"
            )
        given.append(h)
    pending_eqs = [h for h in given if isinstance(h, sp.Equality)]
    ineqs: list[sp.Basic] = [h for h in given if not isinstance(h, sp.Equality)]
    for h in ineqs:
        if not isinstance(h, sp.Rel) or isinstance(h, sp.Unequality):
            raise InvalidInput(f"a hypothesis must be <=, <, >=, > or an equality, got {h}")
    for eq in pending_eqs:
        for var, value in solved:
            eq = eq.xreplace({var.symbol: value})
        if eq is sp.true:
            continue
        if eq is sp.false:
            raise EmptyDomain(f"the equality hypotheses contradict each other at {eq}")
        choice = _solve_for_one(eq, free)
        if choice is None:
            raise InvalidInput(
                f"cannot solve the equality hypothesis {eq} for one of its variables; "
                "write it as a definition under [defs] instead"
            )
        var, value = choice
        free.remove(var)
        solved.append((var, value))
        ineqs = [h.xreplace({var.symbol: value}) for h in ineqs]
        ineqs += [c.xreplace({var.symbol: value}) for c in var.domain.constraints(var.symbol)]
    kept: list[sp.Rel] = []
    for h in ineqs:
        if h is sp.true:
            continue
        if h is sp.false:
            raise EmptyDomain("a hypothesis is false for every value of the variables")
        kept.append(h)
    return Space(tuple(free), tuple(kept), tuple(solved))


def _solve_for_one(eq: sp.Equality, free: Sequence[Variable]) -> tuple[Variable, sp.Expr] | None:
    candidates = []
    names = {s.name for s in eq.free_symbols}
    alone = {side for side in (eq.lhs, eq.rhs) if isinstance(side, sp.Symbol)}
    for index, var in enumerate(free):
        if var.name not in names or var.domain.kind == "integer":
            continue
        root = affine_root(eq.lhs - eq.rhs, var.symbol)
        if root is not None:
            sols = [root]
        else:
            try:
                sols = sp.solve(eq, var.symbol, dict=False)
            except (NotImplementedError, ValueError, TypeError):
                continue
        sols = [s for s in sols if s.is_real is not False]
        if len(sols) == 1:
            # Prefer what the user wrote alone on one side (b in b == Delta/eps), then the
            # simplest solution, then the variable declared last (derived quantities).
            key = (var.symbol not in alone, sp.count_ops(sols[0]), -index)
            candidates.append((key, var, sols[0]))
    if not candidates:
        return None
    _, var, value = min(candidates, key=lambda c: c[0])
    return var, value


def affine_root(e: sp.Expr, x: sp.Symbol) -> sp.Expr | None:
    """The root ``-b/a`` of ``e = a x + b`` when ``e`` is affine in ``x`` (``a`` free of
    ``x`` and nonzero, ``b`` finite), else None.  The root ``sp.solve`` finds (possibly
    written another way; for every equality and boundary of the catalog the same
    expression), without its simplify pass, which imports sympy.physics: 0.4 s of a cold
    ``dpderive check``, and 0.7 s of kl-bound's three equalities."""
    a = sp.diff(e, x)
    if a.has(x) or a.is_zero is not False:
        return None
    b = e.subs(x, 0)
    if b.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        return None
    return -b / a
