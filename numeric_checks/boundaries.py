"""The boundary of an inequality hypothesis in one variable: its roots, compiled, and exactly
at a point (:meth:`numeric_checks.sampling.Sampler.boundary_points`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import mpmath
import sympy as sp

from numeric_checks.bridge import compile_exprs, evaluate
from numeric_checks.exact_eval import exact_value
from numeric_checks.exact_points import exact_mpf, exact_number
from symbolic.errors import EvaluationError
from symbolic.hypotheses import affine_root

__all__ = ["Boundary", "boundary_solver", "exact_roots", "linear_roots"]


@dataclass(frozen=True)
class Boundary:
    """The roots in one variable of a hypothesis taken with equality: as SymPy expressions
    in the other variables (``sols``), and compiled (``roots``: their values at a point)."""

    sols: tuple[sp.Expr, ...]
    fn: Callable[..., list[Any]]

    def roots(self, values: Sequence[Any], dps: int) -> list[Any]:
        try:
            return evaluate(self.fn, values, dps)
        except EvaluationError:
            return []


def boundary_solver(h: sp.Rel, x: sp.Symbol, symbols: Sequence[sp.Symbol]) -> Boundary | None:
    """The real roots in ``x`` of ``h.lhs == h.rhs`` at given values of the other variables,
    or None if SymPy cannot solve for ``x`` in closed form."""
    sols = linear_roots(h.lhs - h.rhs, x)
    if sols is None:
        try:
            sols = sp.solve(sp.Eq(h.lhs, h.rhs), x)
        except (NotImplementedError, ValueError, TypeError):
            return None
    sols = [s for s in sols if s.is_real is not False and not s.has(sp.I)][:4]
    if not sols:
        return None
    return Boundary(tuple(sols), compile_exprs(symbols, sols))


def linear_roots(e: sp.Expr, x: sp.Symbol) -> list[sp.Expr] | None:
    """The roots in ``x`` of ``e = 0`` for the shapes hypotheses take, without ``sp.solve``
    (whose simplify pass imports sympy.physics, 0.4 s of laplace-ratio's 1.6 s): ``e``
    affine in ``x``, or ``e = s |u| + r`` with ``u`` affine in ``x`` and ``s``, ``r`` free
    of ``x`` (roots of ``u = +-(-r/s)``).  None: another shape, left to ``sp.solve``.
    Roots are only candidates: a boundary point is kept only where every hypothesis holds
    (:meth:`Sampler.boundary_points`), so a root that is not one costs a point, never
    soundness."""
    absolutes = [a for a in e.atoms(sp.Abs) if a.has(x)]
    if not absolutes:
        root = affine_root(e, x)
        return None if root is None else [root]
    if len(absolutes) != 1:
        return None
    t = sp.Dummy("t")
    level = affine_root(e.subs(absolutes[0], t), t)
    if level is None or level.has(x):
        return None
    roots = [affine_root(absolutes[0].args[0] - sign * level, x) for sign in (-1, 1)]
    if any(r is None for r in roots):
        return None
    return sorted({r for r in roots if r is not None}, key=sp.default_sort_key)


def exact_roots(
    h: sp.Rel,
    symbols: Sequence[sp.Symbol],
    i: int,
    sols: Sequence[sp.Expr],
    values: Sequence[Any],
    dps: int,
) -> list[Any]:
    """Each root of ``h`` in the ``i``-th variable at the other coordinates, exactly, as
    a sample coordinate (None where SymPy does not give it, or where it is not shown to
    satisfy ``h`` with equality: a root of ``|u| = level`` with ``level < 0``)."""
    x = symbols[i]
    try:
        point = {s: exact_number(v) for s, v in zip(symbols, values, strict=True)}
    except ValueError:
        return [None] * len(sols)
    point.pop(x)
    out: list[Any] = []
    for sol in sols:
        found = exact_value(sol, point).value
        residual = None
        if found is not None:
            residual = exact_value(h.lhs - h.rhs, {**point, x: found}).value
        if residual is None or (residual != 0 and sp.expand(residual) != 0):
            out.append(None)
            continue
        with mpmath.workdps(dps):
            out.append(exact_mpf(found, dps))
    return out
