"""The ratio test with an explicit bound, for every parameter in a box.

On a ray ``k = N + d u`` (``u >= 0``, ``d = +-1``) the term ratio ``t(k + d)/t(k)`` of a term
with no kink left (see :func:`~numeric_checks.rigorous.signs.resolve`) is written
``exp(A(k)) P(k)/Q(k)`` with ``A`` a polynomial and ``P``, ``Q`` polynomials in ``k`` (SymPy's
``combsimp``/``powsimp`` on the ratio, once per term, the parameters kept symbolic; the
identity ``t(k + d) Q = exp(A) P t(k)`` is then checked by SymPy over an integer ``k``).  If
every coefficient of ``A(N + d u)`` at a positive power of ``u`` is ``<= 0``, ``Q(N + d u)``
has coefficients of one sign with a nonzero constant, and ``rho Q -+ P`` have coefficients of
that sign for ``rho = |P(N)/Q(N)|`` (slightly enlarged), then ``|t(k + d)/t(k)| <= r =
exp(A(N)) rho`` for every ``k`` on the ray, and if ``r < 1`` the ray's terms sum to at most
``|t(N)|/(1 - r)`` in absolute value (Knopp 1990, Theory and Application of Infinite Series,
section 13).  Coefficients are Arb balls of the box, so the bound holds for all of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import sympy as sp
from flint import arb

from numeric_checks.arb import ArbFn, compile_arb
from numeric_checks.budget import BudgetSpent, work_limit
from numeric_checks.rigorous.signs import START
from symbolic.errors import Unsupported

__all__ = ["RatioTest", "range_ratio", "ratio_function", "ratio_test"]

SIMPLIFY_SECONDS = 5.0
"""CPU time SymPy may spend simplifying one term ratio (a failure only loses this test)."""
_U = sp.Symbol("_ratio_u", nonnegative=True)


@dataclass(frozen=True)
class RatioTest:
    """The compiled coefficients of ``A(N + d u)``, ``P(N + d u)`` and ``Q(N + d u)``."""

    fn: ArbFn
    sizes: tuple[int, int, int]

    def bound(self, balls: Sequence[Any], start: Any) -> Any | None:
        """``r < 1`` bounding ``|t(k + d)/t(k)|`` on the ray from ``start`` (None: not
        shown)."""
        values = self.fn(*balls, start)
        na, np_, _ = self.sizes
        a, p, q = values[:na], values[na : na + np_], values[na + np_ :]
        if not all(c <= 0 for c in a[1:]):
            return None
        if q[0] < 0 and all(c <= 0 for c in q):
            p, q = [-c for c in p], [-c for c in q]
        if not (q[0] > 0 and all(c >= 0 for c in q)):
            return None
        rho = arb((abs(p[0]) / q[0]).upper()) * (1 + arb(2) ** -20)
        width = max(len(p), len(q))
        p = p + [arb(0)] * (width - len(p))
        q = q + [arb(0)] * (width - len(q))
        if not all(rho * qi - pi >= 0 and rho * qi + pi >= 0 for pi, qi in zip(p, q, strict=True)):
            return None
        r = arb((a[0].exp() * rho).upper())
        return r if r < 1 else None


def ratio_test(
    term: sp.Expr, k: sp.Symbol, direction: int, params: Sequence[sp.Symbol]
) -> RatioTest | None:
    """The :class:`RatioTest` of ``term`` in direction ``direction``, or None where the
    ratio is not of the form ``exp(polynomial) * rational``."""
    return _ratio_test(term, k, direction, tuple(params))


@lru_cache(maxsize=256)
def _ratio_test(
    term: sp.Expr, k: sp.Symbol, direction: int, params: tuple[sp.Symbol, ...]
) -> RatioTest | None:
    parts = _shown_parts(term, k, direction)
    if parts is None:
        return None
    shifted = []
    for e in parts:
        try:
            poly = sp.Poly(sp.expand(e.xreplace({k: START + direction * _U})), _U)
        except (sp.PolynomialError, sp.GeneratorsNeeded):
            return None
        coeffs = list(reversed(poly.all_coeffs()))
        if any(c.has(k) for c in coeffs):
            return None
        shifted.append(coeffs)
    try:
        fn = compile_arb([*params, START], [c for cs in shifted for c in cs])
    except Unsupported:
        return None
    sizes = (len(shifted[0]), len(shifted[1]), len(shifted[2]))
    return RatioTest(fn, sizes)


@lru_cache(maxsize=256)
def _shown_parts(term: sp.Expr, k: sp.Symbol, direction: int) -> tuple[sp.Expr, ...] | None:
    """The ratio's parts ``(A, P, Q)`` once SymPy has shown ``t(k + d) Q = exp(A) P t(k)``
    (within :data:`SIMPLIFY_SECONDS`), else None: shared by the ratio test and the ratio
    function, which asked SymPy for the same identity each."""
    try:
        with work_limit(SIMPLIFY_SECONDS):
            parts = _parts(term, k, direction)
            if parts is None or not _identity(term, k, direction, parts):
                return None
    except (BudgetSpent, sp.PolynomialError, TypeError, ValueError, RecursionError):
        return None
    return parts


def _parts(term: sp.Expr, k: sp.Symbol, direction: int) -> tuple[sp.Expr, ...] | None:
    """``(A, P, Q)`` with ``t(k + d)/t(k) = exp(A) P/Q``."""
    ratio = sp.powsimp(sp.combsimp(term.xreplace({k: k + direction}) / term), force=True)
    a_part, rest = sp.S.Zero, sp.S.One
    for factor in sp.Mul.make_args(ratio):
        if isinstance(factor, sp.exp):
            a_part += factor.args[0]
        elif factor.is_Pow and factor.exp.has(k) and not factor.base.has(k):
            a_part += factor.exp * sp.log(factor.base)
        else:
            rest *= factor
    p, q = sp.fraction(sp.cancel(sp.together(rest)))
    a_part = sp.expand(a_part)
    if not (a_part.is_polynomial(k) and p.is_polynomial(k) and q.is_polynomial(k)):
        return None
    return a_part, p, q


RANGE_SPLITS = 16
"""Pieces a finite range is cut into, at most, to bound its term ratio (a work count)."""


def range_ratio(
    term: sp.Expr,
    k: sp.Symbol,
    direction: int,
    params: Sequence[sp.Symbol],
    balls: Sequence[Any],
    first: int,
    last: int,
) -> Any | None:
    """``r < 1`` bounding ``|t(k + d)/t(k)|`` for every integer ``k`` from ``first`` to
    ``last`` (in direction ``d``), by Arb on the ratio ``exp(A) P/Q`` over balls of
    ``k`` (a range cut into pieces where a single ball is too wide); None where not shown.
    Only the finite range is used: the ratio may grow again beyond it (``k/lam`` for a
    Poisson law's lower side)."""
    fn = _ratio_function(term, k, direction, tuple(params))
    if fn is None:
        return None
    lo, hi = sorted((first, last))
    stack = [(lo, hi)]
    worst = arb(0)
    pieces = 0
    while stack:
        a, b = stack.pop()
        pieces += 1
        if pieces > RANGE_SPLITS:
            return None
        value = abs(fn(*balls, arb(a).union(arb(b)))[0])
        if value.is_finite() and value < 1:
            worst = worst.max(value)
            continue
        if b - a < 1:
            return None
        mid = (a + b) // 2
        stack += [(a, mid), (mid + 1, b)] if b - a > 1 else [(a, a), (b, b)]
    r = arb(worst.upper())
    return r if r < 1 else None


def ratio_function(
    term: sp.Expr, k: sp.Symbol, direction: int, params: Sequence[sp.Symbol]
) -> ArbFn | None:
    """``(*params, k) -> [t(k + d)/t(k)]`` simplified (``exp(A) P/Q``), or None."""
    return _ratio_function(term, k, direction, tuple(params))


@lru_cache(maxsize=256)
def _ratio_function(
    term: sp.Expr, k: sp.Symbol, direction: int, params: tuple[sp.Symbol, ...]
) -> ArbFn | None:
    parts = _shown_parts(term, k, direction)
    if parts is None:
        return None
    a_part, p, q = parts
    try:
        return compile_arb([*params, k], [sp.exp(a_part) * p / q])
    except Unsupported:
        return None


def _identity(term: sp.Expr, k: sp.Symbol, direction: int, parts: tuple[sp.Expr, ...]) -> bool:
    """``t(k + d) = exp(A) P/Q t(k)`` is shown by SymPy (``combsimp`` then ``simplify`` of
    the difference, over an integer ``k``): the ratio the terms are computed from one by
    one is an identity, not only what ``powsimp(force=True)`` made of it."""
    a_part, p, q = parts
    j = sp.Dummy("j", integer=True)
    shifted = term.xreplace({k: j + direction})
    at = {k: j}
    ratio = sp.exp(a_part.xreplace(at)) * p.xreplace(at)
    diff = shifted * q.xreplace(at) - ratio * term.xreplace(at)
    diff = sp.combsimp(sp.powsimp(sp.expand(diff)))
    return bool(diff == 0 or sp.simplify(diff) == 0)
