"""Points where a claim's two sides meet, or where their difference is stationary.

A strict inequality false at one point only (``|3x - 1| > 0`` on (0, 1), ``(x - sqrt(2))**2
> 0`` on (1, 2)) fails where its sides meet, and a non-strict one false by a hair
(``(x - 1/3)**2 >= 1e-40``) fails at the minimum of the difference: a set of measure zero
that no draw meets, so the claim was ``checked``.  For each link and each continuous
variable, the roots of ``lhs - rhs`` and of its derivative in that variable are sampled,
exactly where SymPy gives them (the other variables drawn): the same machinery as the
boundaries of hypotheses (:mod:`numeric_checks.boundaries`), so a root is kept only where
SymPy shows the residual is exactly zero and every hypothesis holds.

Only cheap shapes are solved: affine in the variable, one ``Abs`` of an affine argument, or
a polynomial of degree at most :data:`MAX_DEGREE` in the variable once the difference is
put over one denominator; a sum, integral or product, or a large difference, is skipped
(``sympy.solve`` on a transcendental equation can run for minutes).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sympy as sp

from numeric_checks.boundaries import Boundary, exact_roots, linear_roots
from numeric_checks.bridge import compile_exprs
from numeric_checks.sampling import Point, Sampler

__all__ = ["MAX_DEGREE", "touch_points"]

MAX_DEGREE = 4
"""Polynomials of higher degree in the variable are not solved (their roots would be
CRootOf objects, not numbers SymPy evaluates quickly)."""
MAX_OPS = 60
"""A difference with more operations is not solved (the catalog's links are long)."""
DRAWS = 4
"""Draws of the other variables per root that depends on them."""
_SKIP = (sp.Sum, sp.Integral, sp.Product, sp.Derivative, sp.Piecewise)


def _roots(e: sp.Expr, x: sp.Symbol, depth: int = 0) -> list[sp.Expr] | None:
    """Real candidate roots in ``x`` of ``e = 0`` for the cheap shapes, else None: also
    where ``x`` enters only through ``log(x)`` or ``exp(x)`` and the equation has a cheap
    shape in that (the stationary point of ``x log x`` is ``log x = -1``)."""
    if depth == 0:
        t = sp.Dummy("t")
        for atom, back in ((sp.log(x), sp.exp), (sp.exp(x), sp.log)):
            if not e.has(atom):
                continue
            inner = e.subs(atom, t)
            if inner.has(x):
                continue
            found = _roots(inner, t, depth + 1)
            return None if found is None else [back(r) for r in found]
    found = linear_roots(e, x)
    if found is not None:
        return found
    if e.has(sp.Abs):
        return None
    num, _ = sp.fraction(sp.together(e))
    try:
        poly = sp.Poly(num, x)
    except sp.PolynomialError:
        return None
    coeffs = poly.all_coeffs()
    # Symbolic coefficients: only up to the quadratic formula (a quartic's roots in other
    # variables are pages long, and compiling them filled the memory of check --all).
    most = MAX_DEGREE if all(c.is_number for c in coeffs) else 2
    if not 1 <= poly.degree() <= most or any(c.has(x) for c in coeffs):
        return None
    try:
        sols = sp.solve(poly.as_expr(), x)
    except (NotImplementedError, ValueError, TypeError):
        return None
    return [s for s in sols if not s.has(sp.I) and s.is_real is not False]


def _solvers(
    e: sp.Expr, x: sp.Symbol, symbols: Sequence[sp.Symbol]
) -> list[tuple[sp.Expr, Boundary]]:
    """The equations ``e = 0`` and ``de/dx = 0``, each with its solved roots in ``x``."""
    out = []
    for target in (e, sp.diff(e, x)):
        if not target.has(x):
            continue
        # Roots that are numbers or rational in the other variables only: a root such as
        # a*exp(-eps1 - eps2), taken exactly at a drawn eps = 1e12, is a number SymPy
        # cannot hold (basic-composition-seed filled 1 GB), and a root zoo is none.
        sols = [
            r
            for r in _roots(target, x) or ()
            if r.is_finite is not False
            and not r.has(sp.zoo, sp.nan)
            and (r.is_number or r.is_rational_function(*r.free_symbols))
        ]
        if sols:
            sols = sols[:MAX_DEGREE]
            out.append((target, Boundary(tuple(sols), compile_exprs(symbols, sols))))
    return out


def touch_points(sampler: Sampler, differences: Sequence[sp.Expr]) -> list[Point]:
    """Points where a difference ``lhs - rhs`` of the claim's links, or its derivative in
    one continuous variable, vanishes, exactly where SymPy gives the root (see the
    module's docstring); differences in the sampler's symbols."""
    out: list[Point] = []
    free = sampler.space.free
    symbols = list(sampler.symbols)
    for e in differences:
        if e.has(*_SKIP) or sp.count_ops(e) > MAX_OPS:
            continue
        for i, var in enumerate(free):
            if var.domain.kind == "integer" or var.symbol not in e.free_symbols:
                continue
            for target, solver in _solvers(e, var.symbol, symbols):
                constant = not any(s.free_symbols for s in solver.sols)
                known: list[Any] | None = None
                for _ in range(1 if constant else DRAWS):
                    values = [sampler.draw_value(v) for v in free]
                    if known is None or not constant:
                        known = exact_roots(
                            sp.Eq(target, 0, evaluate=False),
                            symbols,
                            i,
                            solver.sols,
                            values,
                            sampler.dps,
                        )
                    for on in known:
                        if on is None:
                            continue
                        values[i] = on
                        if sampler.satisfies(values):
                            out.append(Point(tuple(values), "touch"))
    return out
