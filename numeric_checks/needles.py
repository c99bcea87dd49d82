"""Points where counterexamples hide that random draws miss (issue 23).

* :func:`ladder_points`: integer variables on a logarithmic ladder, so that a claim false
  only on a band of k is met there before the far edges;
* :func:`needle_points`: points where two or three inequality hypotheses are tight at once
  (the system solved where it is affine).

Both take a :class:`~numeric_checks.sampling.Sampler` (its draws, domain bounds and
membership test) and are seeded through it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import mpmath
import sympy as sp

from numeric_checks.bridge import compile_exprs, evaluate
from numeric_checks.sampling import Point, Sampler
from symbolic.errors import EvaluationError

__all__ = ["LADDER", "ladder_points", "needle_points"]

LADDER = (1, 2, 3, 10, 30, 100, 300, 1000, 3000, 10**4, 3 * 10**4, 10**5, 3 * 10**5, 10**6)
"""Integer values tried for every integer variable of a wide domain (see
:func:`ladder_points`)."""


def _system_solver(
    hyps: Sequence[sp.Rel], real: Sequence[sp.Symbol], symbols: Sequence[sp.Symbol]
) -> tuple[list[sp.Symbol], Callable[..., list[Any]]] | None:
    """The hypotheses' equalities solved for as many of the continuous variables ``real``,
    where the system is affine in them with constant coefficients and a unique solution;
    None otherwise.  Affinity is read off the derivatives (no polynomial construction: a
    catalog plan tries dozens of systems)."""
    eqs = [h.lhs - h.rhs for h in hyps]
    present = [x for x in real if any(e.has(x) for e in eqs)]
    slopes: dict[tuple[int, sp.Symbol], sp.Expr | None] = {}
    for i, e in enumerate(eqs):
        for x in present:
            d = sp.diff(e, x)
            slopes[i, x] = None if (d.has(x) or not d.is_number) else d
    for unknowns in itertools.combinations(present, len(eqs)):
        rows = [[slopes[i, x] for x in unknowns] for i in range(len(eqs))]
        if any(c is None for row in rows for c in row):
            continue
        matrix = sp.Matrix(rows)
        if matrix.det() == 0:
            continue
        at_zero = {x: 0 for x in unknowns}
        rhs = sp.Matrix([-e.xreplace(at_zero) for e in eqs])
        solution = list(matrix.LUsolve(rhs))
        return list(unknowns), compile_exprs(symbols, solution)
    return None


def ladder_points(sampler: Sampler) -> list[Point]:
    """Each integer variable on a logarithmic ladder (1, 2, 3, 10, 30, ... 10^6, others
    random), smallest first: a claim false only on a band of k (10^4 .. 10^6) is caught
    there before the far edges (k = 10^30), where a long sum cannot be evaluated."""
    out: list[Point] = []
    seen: set[tuple[Any, ...]] = set()
    for i, var in enumerate(sampler.space.free):
        if var.domain.kind != "integer":
            continue
        dom = var.domain
        short = dom.upper.is_finite and dom.lower.is_finite
        if short and dom.upper - dom.lower <= LADDER[2]:
            continue  # a short range: its edges already cover it
        for step in LADDER:
            values = [sampler.draw_value(v) for v in sampler.space.free]
            values[i] = mpmath.mpf(step)
            key = tuple(values)
            if key not in seen and sampler.satisfies(values):
                seen.add(key)
                out.append(Point(key, "ladder"))
    return out


MAX_EXAMINED = 2_000
"""Systems of hypotheses :func:`needle_points` looks at, solvable or not."""


def needle_points(sampler: Sampler, per_combination: int = 2, limit: int = 48) -> list[Point]:
    """Points where two or three inequality hypotheses are tight at once: the system of
    their equalities solved for as many continuous variables, where it is affine in
    them, the other variables drawn at random.  A wrong claim that fails only where
    several constraints meet (x = y = z = 1/2 under x + y, y + z, x + z <= 1) is met
    here, where random draws almost never land."""
    hyps = list(sampler.space.inequalities)
    real = [v.symbol for v in sampler.space.free if v.domain.kind != "integer"]
    out: list[Point] = []
    tried = examined = 0
    for size in (2, 3):
        if size > len(real):
            break  # no system of `size` equations has a unique solution in fewer unknowns
        for combo in itertools.combinations(hyps, size):
            # Both bounds: the combinations grow as the cube of the hypotheses (200 of them
            # spent a minute here before anything was checked, issue 41).
            if tried >= limit or examined >= MAX_EXAMINED:
                return out
            examined += 1
            solver = _system_solver(combo, real, sampler.symbols)
            if solver is None:
                continue
            tried += 1
            unknowns, fn = solver
            where = [sampler.symbols.index(u) for u in unknowns]
            for _ in range(per_combination):
                values = [sampler.draw_value(v) for v in sampler.space.free]
                try:
                    roots = evaluate(fn, values, sampler.dps)
                except EvaluationError:
                    continue
                for shrink in (0, 1, -1):
                    cand = list(values)
                    with mpmath.workdps(sampler.dps):  # a nudge of 1e-42 needs the digits
                        for j, r in zip(where, roots, strict=True):
                            cand[j] = r - shrink * (abs(r) + sampler._tol) * sampler._tol
                    if sampler.satisfies(cand):
                        out.append(Point(tuple(cand), "needle"))
                        break
    return out
