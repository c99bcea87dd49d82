"""Constants hoisted out of an integrand: the parts of ``f`` that do not depend on the
integration variable (``exp(eps)``, ``1/sqrt(2 pi)``), named once so that a quadrature does
not recompute them at every node (:mod:`numeric_checks.bridge` prints the integrand)."""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

__all__ = ["hoisted"]

_OPAQUE = (sp.Integral, sp.Sum, sp.Piecewise)
"""Never looked into for constants: a nested binder has its own variables, and a Piecewise
branch that is not taken must not be evaluated (it may be undefined there)."""


def hoisted(
    f: sp.Expr, outer: set[sp.Basic], fresh: Callable[[], sp.Symbol]
) -> tuple[sp.Expr, list[tuple[sp.Symbol, sp.Expr]]]:
    """``f`` with its largest parts in ``outer`` symbols alone (free of the integration
    variables) replaced by fresh symbols, and those parts: a factor or term list is split
    into its constant and variable members (``as_independent``), so ``-exp(eps)/2 *
    exp(-x**2/2)`` becomes ``_c1 * exp(-x**2/2)``.  Bare symbols and integers stay as they
    are (nothing to save); nothing inside an :data:`_OPAQUE` node moves."""
    found: list[tuple[sp.Symbol, sp.Expr]] = []

    def constant(e: sp.Expr) -> bool:
        return e.free_symbols <= outer and not e.has(*_OPAQUE)

    def name(e: sp.Expr) -> sp.Expr:
        if e.is_Symbol or e.is_Integer or not constant(e):
            return e
        sym = fresh()
        found.append((sym, e))
        return sym

    def walk(e: sp.Expr) -> sp.Expr:
        if not e.args or isinstance(e, _OPAQUE):
            return e
        if constant(e):
            return name(e)
        if e.is_Add or e.is_Mul:
            fixed = [a for a in e.args if constant(a)]
            moving = [walk(a) for a in e.args if not constant(a)]
            if not fixed:
                return e.func(*moving)
            return e.func(name(e.func(*fixed)), *moving)
        if e.is_Pow and e.exp.is_Number:
            # A numeric exponent keeps its own printing (sqrt(x), 1/x, x**2).
            return e.func(walk(e.base), e.exp)
        return e.func(*(walk(a) for a in e.args))

    return walk(f), found
