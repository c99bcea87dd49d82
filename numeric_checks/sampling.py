"""Points that satisfy a derivation's domains and hypotheses.

Three sources, all seeded: random draws (log-scale where a domain spans many magnitudes),
edge points (tiny and huge magnitudes, every finite end of every domain) and boundary points
of each inequality hypothesis (solved for one variable so that it holds with equality), since
mutants hide at the edges.  A domain where no draw satisfies the hypotheses is an error.

A closed domain end and a hypothesis boundary that is a constant are sampled *on* them,
exactly: an end ``1/3`` or a boundary ``x = sqrt(2)`` that no binary float can hold is a
coordinate carrying its exact value (:class:`~numeric_checks.exact_points.ExactMpf`), taken
at each evaluation's own precision and by the referees exactly (issue 38: a float beside the
boundary misses a claim that fails only on it).  Points where a variable sits at a closed end
are labelled ``"end"``, so that a link whose evaluations are costly keeps them all.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import mpmath
import sympy as sp
from mpmath.libmp import (
    dps_to_prec,
    fzero,
    mpf_le,
    mpf_lt,
    mpf_sub,
    round_nearest,
)

from numeric_checks.boundaries import boundary_solver, exact_roots
from numeric_checks.bridge import compile_exprs, evaluate
from numeric_checks.domain_ends import DomainBounds, end_value
from numeric_checks.exact_points import exact_mpf
from symbolic.domains import Domain, Variable
from symbolic.errors import EmptyDomain, EvaluationError
from symbolic.hypotheses import Space

TINY_HUGE = (-30, -12, -6, -3, 0, 3, 6, 12, 30)  # exponents of 10 for edge magnitudes
EXACT_DRAWS = 4
"""Draws of each hypothesis's boundary whose root is taken exactly (SymPy at the other
coordinates: about a millisecond each); the others are rounded and nudged inside.  A
constant root (``x = sqrt(2)``) is formed once and used at every draw."""
LOG_RANGE = 12  # random log-scale draws span 10**-12 .. 10**12
MAX_INT_DRAW = 10**9


@dataclass(frozen=True)
class Point:
    """Values of the free variables (exact binary numbers) and where the point came from."""

    values: tuple[Any, ...]
    origin: str


def _pow10(e: float) -> Any:
    return mpmath.mpf(10) ** e


class Sampler:
    """Draws points of a :class:`Space` at ``dps`` digits, reproducibly from ``seed``."""

    def __init__(self, space: Space, *, seed: int = 0, dps: int = 50):
        self.space = space
        self.dps = dps
        self.rng = random.Random(seed)
        self.symbols = space.free_symbols
        sides: list[sp.Expr] = []
        for h in space.inequalities:
            sides += [h.lhs, h.rhs]
        self._hyp_fn = compile_exprs(self.symbols, sides) if sides else None
        # Per hypothesis: whether it bounds its left side from above, and whether strictly.
        self._kinds = [
            (
                isinstance(h, sp.LessThan | sp.StrictLessThan),
                isinstance(h, sp.StrictLessThan | sp.StrictGreaterThan),
            )
            for h in space.inequalities
        ]
        self._tol = mpmath.mpf(10) ** (-(dps - 8))
        # Domain bounds as mpmath numbers, converted once: satisfies() runs for every draw,
        # search step and shrink candidate.
        self._bounds = [DomainBounds.of(v.domain) for v in space.free]

    # -- membership ------------------------------------------------------------------------
    def satisfies(self, values: Sequence[Any], on: int | None = None) -> bool:
        """Domains and hypotheses hold at ``values``, exactly: no slack, and evaluated with
        extra digits, since a point outside a hypothesis by 1e-40 is still outside and a
        step may legitimately fail there.  ``on``: the index of a non-strict hypothesis
        shown to hold with equality at the point, exactly (its numeric test is skipped:
        rounding would put the point on either side)."""
        for bounds, v in zip(self._bounds, values, strict=True):
            if not bounds.contains(v):
                return False
        if self._hyp_fn is None:
            return True
        dps = 2 * self.dps + 10
        try:
            out = evaluate(self._hyp_fn, values, dps)
        except EvaluationError:
            return False
        # The difference at ``dps`` digits, as ``mpmath.workdps(dps)`` would compute it,
        # through mpmath's own kernel: this runs for every draw and every search step.
        prec = dps_to_prec(dps)
        for k, ((upper, strict), lhs, rhs) in enumerate(
            zip(self._kinds, out[::2], out[1::2], strict=True)
        ):
            if k == on:
                continue
            a, b = (rhs, lhs) if upper else (lhs, rhs)
            d = mpf_sub(a._mpf_, b._mpf_, prec, round_nearest)
            if mpf_lt(d, fzero) or (strict and mpf_le(d, fzero)):
                return False
        return True

    # -- draws -----------------------------------------------------------------------------
    def draw_value(self, var: Variable) -> Any:
        with mpmath.workdps(self.dps):
            return _draw(var.domain, self.rng)

    def random_points(self, n: int, max_tries_factor: int = 60) -> list[Point]:
        """``n`` random points satisfying the hypotheses (fewer if they are rare); raises
        :class:`EmptyDomain` if none of ``n * max_tries_factor`` draws is valid."""
        out: list[Point] = []
        tries = 0
        limit = max(n, 1) * max_tries_factor
        while len(out) < n and tries < limit:
            tries += 1
            with mpmath.workdps(self.dps):  # as draw_value, once per point
                values = tuple(_draw(v.domain, self.rng) for v in self.space.free)
            if self.satisfies(values):
                out.append(Point(values, "random"))
        if not out and self.space.free:
            # Hypotheses tight enough to leave a single point (x + y >= 1, x <= 1/2,
            # y <= 1/2) are satisfiable, but no draw lands there: try where they meet.
            out = self.vertex_points()
        if not out and self.space.free:
            hyps = "; ".join(str(h) for h in self.space.inequalities) or "(none)"
            raise EmptyDomain(
                f"no point among {tries} draws, nor where the hypotheses' boundaries meet, "
                f"satisfies the domains and hypotheses [{hyps}]: they may be contradictory "
                "or the domain empty"
            )
        if not self.space.free and self.satisfies(()):
            out.append(Point((), "constant"))
        elif not self.space.free:
            raise EmptyDomain("the hypotheses are false (the claim has no free variables)")
        return out

    def generated_points(self, generator: Any, origin: str = "random") -> list[Point]:
        """Points from a derivation's own generator, keeping only those that satisfy every
        domain and hypothesis (a generator is trusted for coverage, never for validity).
        Each generated point assigns all variables; eliminated ones are recomputed."""
        with mpmath.workdps(self.dps):
            raw = generator(self.rng, self.dps)
        out = []
        for assignment in raw:
            values = tuple(assignment[v.name] for v in self.space.free)
            if self.satisfies(values):
                out.append(Point(values, origin))
        if not out:
            raise EmptyDomain("the derivation's point generator produced no valid point")
        return out

    def edge_points(self, per_variable: int = 12) -> list[Point]:
        """Each variable at each of its edge values (others random), plus corner points
        where every variable sits at the same edge (all tiny, all huge)."""
        free = self.space.free
        with mpmath.workdps(self.dps):  # 1e-30 must be 1e-30 to 50 digits, not a double
            edges = [_edges(v.domain) for v in free]
            ends = [_closed_ends(v.domain) for v in free]
            integers = [_integers_inside(v.domain) for v in free]
        out: list[Point] = []
        for i, _var in enumerate(free):
            chosen = edges[i][:per_variable]
            # Every closed finite end, exactly, even past the first few edges.
            chosen += [e for e in ends[i] if not any(_same(e, c) for c in chosen)]
            # Integers inside a real interval, past the cap too: floor, ceiling, (-1)**x
            # and Piecewise conditions at integers jump there, and no draw lands on one
            # (floor(x) + floor(-x) = -1 on (0, 3) was checked: its mid point is 1.5).
            chosen += [e for e in integers[i] if not any(_same(e, c) for c in chosen)]
            for e in chosen:
                values = [self.draw_value(v) for v in free]
                values[i] = e
                if self.satisfies(values):
                    at_end = any(_same(e, end) for end in ends[i])
                    out.append(Point(tuple(values), "end" if at_end else "edge"))
        for k in range(max((len(e) for e in edges), default=0)):
            values = [e[min(k, len(e) - 1)] for e in edges]
            if edges and self.satisfies(values):
                out.append(Point(tuple(values), "corner"))
            rev = [e[max(len(e) - 1 - k, 0)] for e in edges]
            if edges and self.satisfies(rev):
                out.append(Point(tuple(rev), "corner"))
        return out

    def vertex_points(self) -> list[Point]:
        """Points where as many linear hypotheses (or finite domain ends) hold with equality
        as there are variables, kept where every hypothesis holds: a set that tight
        hypotheses squeeze to a point or a segment has no interior for random draws.  Only
        linear boundaries, only up to :data:`MAX_VERTEX_VARIABLES` variables and
        :data:`MAX_VERTEX_SYSTEMS` systems: the search stays small."""
        symbols = list(self.symbols)
        if not 0 < len(symbols) <= MAX_VERTEX_VARIABLES:
            return []
        planes: list[sp.Expr] = []
        for h in self.space.inequalities:
            planes.append(sp.expand(h.lhs - h.rhs))
        for v in self.space.free:
            planes += [v.symbol - end for end in (v.domain.lower, v.domain.upper) if end.is_finite]
        linear = [e for e in planes if _is_linear(e, symbols)]
        out: list[Point] = []
        seen: set[tuple[Any, ...]] = set()
        systems = itertools.islice(itertools.combinations(linear, len(symbols)), MAX_VERTEX_SYSTEMS)
        for system in systems:
            solutions = sp.linsolve(list(system), symbols)
            for solution in solutions:
                if any(not value.is_Rational for value in solution):
                    continue
                with mpmath.workdps(self.dps):
                    values = tuple(mpmath.mpf(value.p) / value.q for value in solution)
                if values not in seen and self.satisfies(values):
                    seen.add(values)
                    out.append(Point(values, "vertex"))
        return out

    def boundary_points(self, per_hypothesis: int = 12) -> list[Point]:
        """Points where an inequality hypothesis holds with equality: for a non-strict one,
        exactly on it where SymPy gives the root exactly (``x = sqrt(2)`` for ``x >=
        sqrt(2)``, ``x = 1/y`` at the drawn ``y`` for ``x*y >= 1``); otherwise the rounded
        root, nudged inside."""
        out: list[Point] = []
        for k, h in enumerate(self.space.inequalities):
            strict = self._kinds[k][1]
            for i, var in enumerate(self.space.free):
                if var.symbol not in h.free_symbols or var.domain.kind == "integer":
                    continue
                solver = boundary_solver(h, var.symbol, self.symbols)
                if solver is None:
                    continue
                constant = not any(sol.free_symbols for sol in solver.sols)
                known: list[Any] | None = None
                for draw in range(per_hypothesis):
                    values = [self.draw_value(v) for v in self.space.free]
                    numeric = solver.roots(values, self.dps)
                    exact: list[Any] = [None] * len(numeric)
                    if not strict and numeric and (constant or draw < EXACT_DRAWS):
                        if known is None or not constant:
                            known = exact_roots(h, self.symbols, i, solver.sols, values, self.dps)
                        exact = known
                    for root, on in zip(numeric, exact, strict=True):
                        if on is not None:
                            values[i] = on
                            if self.satisfies(values, on=k):
                                out.append(Point(tuple(values), "boundary"))
                                continue
                        # The rounded root may fall just outside; nudge it inward.
                        nudge = (abs(root) + self._tol) * self._tol
                        for cand in (root, root - nudge, root + nudge):
                            values[i] = cand
                            if self.satisfies(values):
                                out.append(Point(tuple(values), "boundary"))
                                break
        return out


MAX_VERTEX_VARIABLES = 4
MAX_VERTEX_SYSTEMS = 500


def _is_linear(e: sp.Expr, symbols: Sequence[sp.Symbol]) -> bool:
    """Whether ``e`` is a polynomial of degree at most one in ``symbols`` with rational
    coefficients (the systems :func:`sympy.linsolve` solves exactly)."""
    try:
        poly = sp.Poly(e, *symbols)
    except (sp.PolynomialError, sp.GeneratorsNeeded):
        return False
    return poly.total_degree() <= 1 and all(c.is_Rational for c in poly.coeffs())


def _same(a: Any, b: Any) -> bool:
    """The same sample coordinate: equal values, and the same exact number if either has
    one (the float of 1/3 is not 1/3)."""
    return bool(a == b) and getattr(a, "exact", None) == getattr(b, "exact", None)


def _closed_ends(d: Domain) -> list[Any]:
    """The domain's finite closed ends, exactly (at the current precision)."""
    out = []
    for end, open_ in ((d.lower, d.lower_open), (d.upper, d.upper_open)):
        if end.is_finite and not open_:
            out.append(_end(end))
    return out


def _end(x: sp.Expr) -> Any:
    """A finite domain end as a sample coordinate: exact (see :func:`exact_mpf`)."""
    return exact_mpf(x, mpmath.mp.dps)


def _log_uniform(rng: random.Random, lo_exp: float, hi_exp: float) -> Any:
    return _pow10(rng.uniform(lo_exp, hi_exp))


def _draw(d: Domain, rng: random.Random) -> Any:
    lo_inf, hi_inf = not d.lower.is_finite, not d.upper.is_finite
    if d.kind == "integer":
        lo = -MAX_INT_DRAW if lo_inf else int(d.lower)
        hi = MAX_INT_DRAW if hi_inf else int(d.upper)
        if rng.random() < 0.5 or hi - lo < 100:
            small_hi = min(hi, lo + 100) if not lo_inf else hi
            small_lo = lo if not lo_inf else max(lo, -100)
            return mpmath.mpf(rng.randint(small_lo, max(small_lo, small_hi)))
        span = hi - lo
        offset = int(10 ** rng.uniform(0, math.log10(span))) if span > 0 else 0
        return mpmath.mpf(lo + offset if not lo_inf else hi - offset)
    if lo_inf and hi_inf:
        if rng.random() < 0.4:
            return mpmath.mpf(rng.uniform(-10, 10))
        sign = 1 if rng.random() < 0.5 else -1
        return sign * _log_uniform(rng, -LOG_RANGE, LOG_RANGE)
    if hi_inf or lo_inf:
        base = end_value(d.lower, True) if hi_inf else end_value(d.upper, False)
        direction = 1 if hi_inf else -1
        r = rng.random()
        if r < 0.3:
            off = mpmath.mpf(rng.uniform(0, 10))
        else:
            off = _log_uniform(rng, -LOG_RANGE, LOG_RANGE)
        return base + direction * off
    lo, hi = end_value(d.lower, True), end_value(d.upper, False)
    r = rng.random()
    log_ok = lo >= 0 and (d.scale == "log" or (d.scale == "auto" and (lo == 0 or hi / lo > 1e3)))
    if log_ok and r < 0.5:
        lo_e = float(mpmath.log10(lo)) if lo > 0 else math.log10(float(hi)) - LOG_RANGE
        return _pow10(rng.uniform(lo_e, float(mpmath.log10(hi))))
    if r < 0.8:
        return lo + (hi - lo) * mpmath.mpf(rng.random())
    # near one end, at a random magnitude
    gap = (hi - lo) * _log_uniform(rng, -LOG_RANGE, 0)
    return lo + gap if rng.random() < 0.5 else hi - gap


MAX_INTEGER_EDGES = 7
"""Integers of a real domain sampled as edges: the first two from each finite end, the
one nearest the middle, and 0 and 1 where they lie inside."""


def _integers_inside(d: Domain) -> list[Any]:
    """Integer points of a real domain (a few, see :data:`MAX_INTEGER_EDGES`), exactly.
    Ends come from :func:`end_value` rounded inwards, so an open end that is an integer
    is left out by the membership test of the points, not here."""
    if d.kind == "integer":
        return []
    lo = end_value(d.lower, True) if d.lower.is_finite else None
    hi = end_value(d.upper, False) if d.upper.is_finite else None
    first = int(mpmath.ceil(lo)) if lo is not None else None
    last = int(mpmath.floor(hi)) if hi is not None else None
    if first is not None and last is not None and first > last:
        return []
    cands: list[int] = [0, 1, -1]
    if first is not None:
        cands += [first, first + 1]
    if last is not None:
        cands += [last, last - 1]
    if first is not None and last is not None:
        cands.append((first + last) // 2)
    out: list[int] = []
    for c in cands:
        inside = (first is None or c >= first) and (last is None or c <= last)
        if inside and c not in out:
            out.append(c)
    return [mpmath.mpf(c) for c in out[:MAX_INTEGER_EDGES]]


def _edges(d: Domain) -> list[Any]:
    """Edge values of a domain, from small to large magnitude."""
    if d.kind == "integer":
        lo = None if not d.lower.is_finite else int(d.lower)
        hi = None if not d.upper.is_finite else int(d.upper)
        cands = [0, 1, 2, 3, 10, 100, 10**4, 10**6, 10**9, -1, -2, -10, -(10**6)]
        if lo is not None:
            cands += [lo, lo + 1, lo + 2]
        if hi is not None:
            cands += [hi, hi - 1]
        vals = sorted(
            {c for c in cands if (lo is None or c >= lo) and (hi is None or c <= hi)},
            key=lambda c: (abs(c), c),
        )
        return [mpmath.mpf(c) for c in vals]
    lo_inf, hi_inf = not d.lower.is_finite, not d.upper.is_finite
    mags = [_pow10(e) for e in TINY_HUGE]
    if lo_inf and hi_inf:
        return [mpmath.mpf(0)] + [s * m for m in mags for s in (1, -1)]
    if hi_inf or lo_inf:
        end = d.lower if hi_inf else d.upper
        base = end_value(end, hi_inf)
        direction = 1 if hi_inf else -1
        out = [base + direction * m for m in mags]
        closed = not (d.lower_open if hi_inf else d.upper_open)
        return ([_end(end)] if closed else []) + out
    lo, hi = end_value(d.lower, True), end_value(d.upper, False)
    width = hi - lo
    out = []
    if not d.lower_open:
        out.append(_end(d.lower))
    if not d.upper_open:
        out.append(_end(d.upper))
    for e in (-30, -12, -6, -2):
        out += [lo + width * _pow10(e), hi - width * _pow10(e)]
    out.append(lo + width / 2)
    return out
