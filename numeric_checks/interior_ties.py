"""A strict relation refuted where its two sides meet exactly inside the domain.

A strict inequality that is false only on a set of measure zero -- the sides touch along a
curve, as ``rho*alpha + L/(alpha - 1) > rho + 2*sqrt(rho*L)`` does at
``alpha = 1 + sqrt(L/rho)`` (Bun & Steinke 2016, Proposition 1.3, with ">=" made strict) --
is never violated at a sampled binary point: the sampler sees margins of 1e-7 and calls it
``checked``.  Here the point nearest to failing is made exact: every variable but one is
rounded to a short rational, and SymPy solves ``lhs = rhs`` for the last one.  Each root is
then decided exactly, as an inexact closed end is (:mod:`numeric_checks.exact_ends`): the
residual's sign from checked enclosures or SymPy's exact zero test, every domain and
hypothesis decided exactly at the point.  Only a point where the residual *is* zero (or
has the failing sign) refutes; a root SymPy got wrong is dropped by that test, never shown.
"""

from __future__ import annotations

import decimal
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import mpmath
import sympy as sp

from numeric_checks.budget import work_limit
from numeric_checks.exact_ends import decided_at, evaluable_link
from numeric_checks.search import SpotOutcome
from symbolic.exact_numbers import compare
from symbolic.relations import Relation
from symbolic.report import RefereeRecord
from symbolic.verdicts import Verdict

if TYPE_CHECKING:
    from numeric_checks.plan import CheckPlan
    from numeric_checks.stages import Link
    from symbolic.domains import Variable

__all__ = ["NEAR", "SOLVE_SECONDS", "interior_tie"]

NEAR = 5e-2
"""The nearest approach (relative gap between the sides) below which a tie is looked for:
a strict relation whose sides never came closer than this is not near a touching point.
Loose, since the solve is exact and only saves work: toward a kink (``Min(x**2, 4 - x**2) <
2`` at ``x = sqrt(2)``) 40 draws and 60 search steps came no nearer than 0.2%."""
SOLVE_SECONDS = 2.0
"""CPU seconds of SymPy's ``solve`` per variable (it can run for minutes on a
transcendental equation)."""
DIGITS = (2, 3, 4, 6)
"""Significant digits tried when rounding the other variables to short rationals."""
PLAIN = (1, sp.Rational(1, 2), 2, sp.Rational(1, 10), 10, 0, -1)
"""Values tried first for the other variables (the first in each one's domain): a point
a reader can check by hand, where the sides touch for every value of those variables."""
TIE = "the sides meet there, exactly, inside the domain (the relation is strict)"
"""The counterexample's note."""
MAX_SOLVES = 8
"""``solve`` calls per link at most (each bounded by :data:`SOLVE_SECONDS`)."""


def interior_tie(
    plan: CheckPlan, link: Link, spot: SpotOutcome
) -> tuple[SpotOutcome, RefereeRecord] | None:
    """A point inside the domain where the strict ``link`` fails exactly (its sides equal),
    as the outcome and exact ruling that show it; None when none was found."""
    if link.relation not in (Relation.LT, Relation.GT) or spot.verdict is not Verdict.CHECKED:
        return None
    gap = spot.evidence.worst_margin_value
    # Against a side that is 0 every gap relative to the larger side is 100%: no nearness.
    zero_side = link.lhs == 0 or link.rhs == 0
    if gap is None or (gap < -NEAR and not zero_side) or spot.nearest_values is None:
        return None
    if not evaluable_link(link.lhs, link.rhs):
        return None
    residual = link.lhs - link.rhs
    free = plan.space.free
    solves = 0
    for i, v in enumerate(free):
        if v.domain.kind != "real" or not residual.has(v.symbol):
            continue
        for others in _candidates(free, spot.nearest_values, i):
            if solves >= MAX_SOLVES:
                return None
            solves += 1
            for root in _roots(residual.xreplace(others), v.symbol, _positive(v)):
                if not v.domain.contains(root):
                    continue
                values = {**others, v.symbol: root}
                shown = {w.name: _text(values[w.symbol]) for w in free}
                found = decided_at(plan, link, spot, values, shown, TIE, "at the exact point")
                if found is not None:
                    return found
    return None


def _candidates(
    free: tuple[Variable, ...], near: tuple[Any, ...], skip: int
) -> Iterator[dict[sp.Symbol, sp.Expr]]:
    """The variables other than ``free[skip]`` at plain values (:data:`PLAIN`), then at
    short rationals next to the nearest point, coarsest first; each inside its domain
    (decided exactly)."""
    seen: set[tuple[sp.Expr, ...]] = set()
    for digits in (0, *DIGITS):
        values: dict[sp.Symbol, sp.Expr] = {}
        for j, (w, x) in enumerate(zip(free, near, strict=True)):
            if j == skip:
                continue
            if digits == 0:
                value = _plain(w)
            else:
                value = _short(x, digits, integer=w.domain.kind == "integer")
            if value is None or not w.domain.contains(value):
                break
            values[w.symbol] = value
        else:
            key = tuple(values.values())
            if key not in seen:
                seen.add(key)
                yield values


def _plain(v: Variable) -> sp.Expr | None:
    """The first of :data:`PLAIN` in ``v``'s domain, else its domain's midpoint (a finite
    interval) or the end plus one (a half-line)."""
    for c in PLAIN:
        if v.domain.contains(c):
            return sp.sympify(c)
    lo, hi = v.domain.lower, v.domain.upper
    mid = (lo + hi) / 2 if lo.is_finite and hi.is_finite else (lo + 1 if lo.is_finite else hi - 1)
    if v.domain.kind == "integer":
        mid = sp.floor(mid)
    return mid if v.domain.contains(mid) else None


def _short(x: Any, digits: int, *, integer: bool) -> sp.Rational | None:
    """``x`` rounded to ``digits`` significant digits, as an exact rational (an integer for
    an integer variable); None for a value that is not a finite number."""
    try:
        value = mpmath.mpf(x)
    except (TypeError, ValueError):
        return None
    if not mpmath.isfinite(value):
        return None
    if integer:
        return sp.Integer(int(mpmath.nint(value)))
    return sp.Rational(mpmath.nstr(value, digits, min_fixed=-mpmath.inf, max_fixed=mpmath.inf))


def _positive(v: Variable) -> bool:
    """The variable's domain lies in ``(0, oo)`` (decided exactly)."""
    lo = v.domain.lower
    side = compare(lo, sp.S.Zero) if lo.is_finite else None
    return side is not None and (side > 0 or (side == 0 and v.domain.lower_open))


def _roots(equation: sp.Expr, x: sp.Symbol, positive: bool = False) -> list[sp.Expr]:
    """SymPy's closed-form solutions of ``equation = 0`` for ``x`` (real-looking ones only);
    empty when it finds none within :data:`SOLVE_SECONDS` or fails.  ``positive``: the
    variable's domain is positive, which makes ``log(x)`` real (``solve`` refuses ``|log(x)
    - 1| = 0`` for a real ``x``).  ``Max`` and ``Min`` are written as ``Piecewise``, which
    ``solve`` takes and they are not.  Nothing here is trusted: each root is decided exactly
    by the caller."""
    # solve's own domain: the variable's is checked later
    plain = sp.Symbol(x.name, positive=True) if positive else sp.Symbol(x.name, real=True)
    try:
        with work_limit(SOLVE_SECONDS):
            target = equation.xreplace({x: plain})
            if target.has(sp.Max, sp.Min):
                target = target.rewrite(sp.Piecewise)
            found = sp.solve(target, plain, rational=False)
    except Exception:  # SymPy's solver raises many kinds on arbitrary input; BudgetSpent too
        return []
    roots = []
    for r in found if isinstance(found, list) else []:
        r = sp.sympify(r)
        if r.free_symbols or r.has(sp.I, sp.nan, sp.zoo) or r.is_real is False:
            continue
        roots.append(r)
    return roots


def _text(value: sp.Expr) -> str:
    """An exact coordinate as the user reads it: a short rational as a decimal when it is
    one, otherwise SymPy's exact form (``1 + sqrt(log(2))``)."""
    if isinstance(value, sp.Integer):
        return str(value)
    if isinstance(value, sp.Rational):
        q = int(value.q)
        while q % 2 == 0:
            q //= 2
        while q % 5 == 0:
            q //= 5
        if q == 1:  # a terminating decimal, written exactly
            with decimal.localcontext(prec=60):
                return str(decimal.Decimal(int(value.p)) / decimal.Decimal(int(value.q)))
    return str(value)
