"""The local search of a spot check (issue 40): from the points closest to failing, steps
that climb the violation, in the coordinates a variable lives in (logit for a probability,
log for a positive scale), and projected back onto a hypothesis a step crossed, so that the
search slides along a boundary instead of stopping at it."""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import Any

import mpmath
import sympy as sp

from numeric_checks.boundaries import Boundary, linear_roots
from numeric_checks.bridge import compile_exprs
from numeric_checks.budget import spent
from numeric_checks.points import PointResult, RelationCheck, Status
from numeric_checks.sampling import Point
from symbolic.domains import Domain
from symbolic.exact_numbers import compare

__all__ = ["Projector", "cheap_boundary", "local_search", "perturb", "search_margin"]


def search_margin(r: PointResult) -> Any:
    """Objective of the local search: the violation relative to ``1 + |sides|``.  Unlike the
    purely relative gap it still has a slope when one side is 0 (``0 <= g(x)``)."""
    if r.lhs is None or r.rhs is None:
        return -mpmath.inf
    scale = max(abs(r.lhs), abs(r.rhs))
    if mpmath.isinf(scale):
        return r.margin
    return r.margin * scale / (1 + scale)


Found = tuple[Point, PointResult]


def local_search(
    check: RelationCheck, results: Sequence[Found], budget: int, seed: int
) -> tuple[Found | None, list[tuple[Any, ...]], Found | None]:
    """Hill-climb toward the largest violation from the closest points found so far.
    Returns the violation found (or None), the points evaluated where both sides are
    defined (a point where a side is undefined is no evidence), and the one of them
    nearest to failing (largest margin; None when none held): the climb approaches a
    touching point far closer than any draw (a strict relation whose sides meet at
    ``x = sqrt(2)``: 1e-15 against the draws' 0.7%), which the nearest approach the
    evidence reports, and the exact search of :mod:`numeric_checks.interior_ties`,
    must see."""
    rng = random.Random(seed + 7919)
    ranked = sorted(
        (pr for pr in results if pr[1].status is Status.OK),
        key=lambda pr: search_margin(pr[1]),
        reverse=True,
    )
    starts = ranked[: max(1, min(6, len(ranked)))]
    evaluated: list[tuple[Any, ...]] = []
    nearest: Found | None = None
    if not starts:
        return None, evaluated, nearest
    per_start = max(1, budget // len(starts))
    free = check.sampler.space.free
    projector = Projector(check, rng)
    for start, res in starts:
        values, margin = list(start.values), search_margin(res)
        sigma = 1.0
        for _ in range(per_start):
            if spent():
                return None, evaluated, nearest
            cand = list(values)
            i = rng.randrange(len(cand)) if cand else 0
            if not cand:
                break
            cand[i] = perturb(cand[i], free[i].domain, sigma, rng)
            if rng.random() < 0.3 and len(cand) > 1:
                j = rng.randrange(len(cand))
                cand[j] = perturb(cand[j], free[j].domain, sigma, rng)
            if not check.satisfies(cand):
                # Onto the hypothesis the step crossed: the margin's optimum often lies
                # on a hypothesis, affine or not (issue 40).
                projected = projector.onto(cand, i)
                if projected is None:
                    sigma = max(sigma * 0.7, 1e-6)
                    continue
                cand = projected
            r = check.decide(cand, quick=True)
            if r.status is not Status.UNDEFINED:
                evaluated.append(tuple(cand))
            if r.status is Status.VIOLATED:
                return (Point(tuple(cand), "search"), r), evaluated, nearest
            if r.status is Status.OK and (nearest is None or r.margin > nearest[1].margin):
                nearest = Point(tuple(cand), "search"), r
            if r.status is Status.OK and search_margin(r) > margin:
                values, margin = cand, search_margin(r)
                sigma = min(sigma * 1.5, 4.0)
            else:
                sigma = max(sigma * 0.85, 1e-6)
    return None, evaluated, nearest


@functools.lru_cache(maxsize=256)
def _within_one(upper: sp.Expr) -> bool:
    """A domain's upper end is at most 1, compared exactly: SymPy cannot decide ``Phi(1)
    <= 1`` by itself (the search stopped there with a TypeError)."""
    side = compare(upper, sp.Integer(1)) if upper.is_finite else None
    return side is not None and side <= 0


def perturb(v: Any, domain: Domain, sigma: float, rng: random.Random) -> Any:
    """A step from ``v`` in coordinates fitted to its domain (issue 40): a probability
    (a domain within ``[0, 1]``) moves in logit coordinates and a positive quantity (a
    scale) in log coordinates, so that a step of the same size goes from 1e-3 to 1e-6 as
    easily as from 0.3 to 0.6; other reals additively or multiplicatively."""
    with mpmath.workdps(max(60, mpmath.mp.dps)):
        r = rng.random()
        if domain.kind == "integer":
            if r < 0.5:
                return v + rng.choice((-1, 1)) * max(1, int(abs(v) * sigma * rng.random()))
            return mpmath.floor(v * mpmath.exp(rng.gauss(0, sigma)) + mpmath.mpf("0.5"))
        positive = domain.lower.is_nonnegative is True
        if positive and _within_one(domain.upper) and 0 < v < 1 and r < 0.5:
            logit = mpmath.log(v) - mpmath.log1p(-v)
            # A wider step than in log coordinates: tails of probabilities span decades.
            return 1 / (1 + mpmath.exp(-(logit + rng.gauss(0, 4 * sigma))))
        if r < 0.6 or (positive and r < 0.9):
            return v * mpmath.exp(rng.gauss(0, sigma))
        if r < 0.9:
            return v + rng.gauss(0, sigma) * max(abs(v), mpmath.mpf(1))
        return -v


PARTNERS = 2
"""Other variables of a crossed hypothesis the search tries to restore it along (chosen at
random among those it contains), before the variable the step moved."""

PROJECTIONS = 40
"""Projections per local search (a count: on a catalog instance of 80 variables every
step may leave the hypotheses, and each projection evaluates roots and memberships)."""


class Projector:
    """A step that left the hypotheses moved back onto the boundary of one it crossed,
    along one continuous variable: up to :data:`PARTNERS` others than the one the step
    moved first (so that the search slides along a tight hypothesis, where optima often
    lie, instead of returning to where it was), that one last.  Only boundaries whose
    roots have a closed form without ``sp.solve`` are followed (affine in that variable,
    ``|affine|``, or quadratic: ``x^2 + y^2 <= 2`` and ``x y <= 1`` included; see
    :func:`cheap_boundary`), so a projection costs a few evaluations, never a symbolic
    solve.  A root is nudged inside until every domain and hypothesis holds exactly
    (never assumed)."""

    def __init__(self, check: RelationCheck, rng: random.Random) -> None:
        self.check = check
        self.space = check.sampler.space
        self.rng = rng
        self.left = PROJECTIONS
        symbols = check.sampler.symbols
        continuous = {v.symbol for v in self.space.free if v.domain.kind != "integer"}
        # Per hypothesis, its continuous variables' indices (free_symbols, once).
        self._within = [
            [j for j, s in enumerate(symbols) if s in h.free_symbols and s in continuous]
            for h in self.space.inequalities
        ]

    def onto(self, cand: list[Any], moved: int) -> list[Any] | None:
        if self.left <= 0 or self.space.free[moved].domain.kind == "integer":
            return None
        self.left -= 1
        symbols = self.check.sampler.symbols
        for h, within in zip(self.space.inequalities, self._within, strict=True):
            if moved not in within:
                continue
            others = [j for j in within if j != moved]
            self.rng.shuffle(others)
            for j in [*others[:PARTNERS], moved]:
                out = self._along(cand, j, cheap_boundary(h, symbols[j], symbols))
                if out is not None:
                    return out
        return None

    def _along(self, cand: list[Any], i: int, solver: Boundary | None) -> list[Any] | None:
        if solver is None:
            return None
        tol = self.check.sampler._tol
        roots = [
            r
            for r in solver.roots(cand, self.check.dps)
            if isinstance(r, mpmath.mpf) and mpmath.isfinite(r)
        ]
        for root in sorted(roots, key=lambda r: abs(r - cand[i])):
            with mpmath.workdps(self.check.dps + 10):  # a nudge of 1e-22 needs the digits
                nudge = (abs(root) + tol) * tol
                steps = (root, root - nudge, root + nudge)
            for at in steps:
                moved = list(cand)
                moved[i] = at
                if self.check.satisfies(moved):
                    return moved
        return None


@functools.lru_cache(maxsize=512)
def cheap_boundary(h: sp.Rel, x: sp.Symbol, symbols: tuple[sp.Symbol, ...]) -> Boundary | None:
    """The roots in ``x`` of ``h``'s boundary in closed form, found without ``sp.solve``:
    :func:`~numeric_checks.boundaries.linear_roots`, or the two roots of a quadratic in
    ``x`` (coefficients free of ``x``); None otherwise."""
    e = h.lhs - h.rhs
    sols = linear_roots(e, x)
    if sols is None:
        try:
            poly = sp.Poly(e, x)
        except sp.PolynomialError:
            return None
        if poly.degree() != 2 or any(c.has(x) for c in poly.all_coeffs()):
            return None
        a, b, c = poly.all_coeffs()
        disc = sp.sqrt(b**2 - 4 * a * c)
        sols = [(-b - disc) / (2 * a), (-b + disc) / (2 * a)]
    return Boundary(tuple(sols), compile_exprs(symbols, sols))
