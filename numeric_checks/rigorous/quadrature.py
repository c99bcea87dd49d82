"""Definite integrals over finite and infinite ranges as Arb balls, for every parameter in a
box.

*Finite pieces.* ``acb.integral`` (python-flint; Johansson 2018, "Numerical integration in
arbitrary-precision ball arithmetic") on the integrand of
:mod:`~numeric_checks.rigorous.integrands`, which honours the analytic flag: the result
encloses the integral whatever the breakpoints.  The range is cut at the integrand's kinks
and centres (:func:`numeric_checks.integrals.analyse`: zeros of the arguments of ``Abs``,
``sign``, ``Heaviside``, of ``Max``/``Min`` differences and ``Piecewise`` conditions, the
stationary points of Gaussian exponents) evaluated at the box's midpoint, so that each piece
is analytic or nearly so; a cut that misses a kink (a wide box, a kink that moves with the
parameters) only costs bisection levels.  An end that is a ball of radius ``r`` (it depends
on the box) is integrated from its midpoint, plus ``[-r, r] |f(end)|`` (the integrand's real
ball on the end's ball).

*Infinite ends.* Past a cut ``T`` (after ``x -> -x`` for a lower tail) the kinks are resolved
on the ray where their branch is shown (:mod:`~numeric_checks.rigorous.signs`) and the rest
is bounded by a proved envelope (:mod:`~numeric_checks.rigorous.envelopes`); ``T`` runs over
doublings from the last breakpoint until the bound is below the goal, and the tail's ball is
``[-B, B]``.  Where no envelope can be built or none decays, :class:`Unsupported` says which
part and why, and no enclosure is claimed.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import sympy as sp
from flint import acb, arb, ctx

from numeric_checks.arb import compile_arb
from numeric_checks.prepare import prepared
from numeric_checks.rigorous import work
from numeric_checks.rigorous.envelopes import tail_bound
from numeric_checks.rigorous.integrands import Analytic, compile_integrand, guarded_integral
from numeric_checks.rigorous.kinks import numeric_kinks
from numeric_checks.rigorous.signs import resolve
from symbolic.errors import Unsupported

__all__ = [
    "BOX_EVAL_LIMIT",
    "EVAL_LIMIT",
    "GOAL_BITS",
    "POINT_EVAL_LIMIT",
    "box_goal",
    "eval_limit",
    "integral_ball",
]

EVAL_LIMIT = 200_000
"""Integrand evaluations per finite piece (a work count, never a clock): past it Arb returns
the (wider, still rigorous) ball it has."""
BOX_EVAL_LIMIT = 1000
"""The same on a wide box (certification's branch-and-bound): the box's own width bounds
how narrow the result can be, and the search splits the box rather than refine the
quadrature."""


POINT_EVAL_LIMIT: list[int] = [EVAL_LIMIT]
"""The limit at a point: :data:`EVAL_LIMIT` for a confirmation, less for a sampled value
(:mod:`~numeric_checks.rigorous.values`), where a point that costs more is left undefined."""


def eval_limit(goal: Any) -> int:
    """:data:`POINT_EVAL_LIMIT` at a point, :data:`BOX_EVAL_LIMIT` on a box wide enough to
    have coarsened the goal (:func:`box_goal`)."""
    point = goal <= arb(2) ** (-(GOAL_BITS[0] or ctx.prec // 2))
    return POINT_EVAL_LIMIT[0] if point else BOX_EVAL_LIMIT


DOUBLINGS = 400
"""How far a tail's cut is looked for: ``T`` up to ``2^400`` times the first candidate."""

_NAN = acb(arb.nan())
_KINKS = (sp.Abs, sp.Max, sp.Min, sp.sign, sp.Heaviside, sp.Piecewise)
TAIL_VARIABLE = sp.Symbol("_tail_y", positive=True)
"""The variable of a tail, ``y = direction * x`` (one symbol, so that envelopes are
compiled once per integrand and reused on every box)."""


@lru_cache(maxsize=256)
def _reflected(body: sp.Expr, x: sp.Symbol, direction: int) -> sp.Expr:
    return prepared(body.xreplace({x: direction * TAIL_VARIABLE}))


@lru_cache(maxsize=256)
def _breakpoint_fn(body: sp.Expr, x: sp.Symbol, params: tuple[sp.Symbol, ...]) -> Any:
    """The kinks and centres of ``body`` (:func:`numeric_checks.integrals.analyse`) as one
    compiled function of the parameters (None: there are none, or they cannot be
    compiled)."""
    from numeric_checks.integrals import analyse

    kinks = [k for k in analyse(body, x).kinks if k.free_symbols <= set(params)]
    usable = []
    for k in kinks:
        try:
            compile_arb(list(params), [k], extended=True)
        except (Unsupported, TypeError, ValueError):
            continue
        usable.append(k)
    return compile_arb(list(params), usable, extended=True) if usable else None


def integral_ball(
    node: sp.Integral, symbols: Sequence[sp.Symbol], balls: Sequence[Any]
) -> tuple[Any, str]:
    """The Arb ball of ``node`` (one variable) for every value of ``symbols`` in ``balls``,
    at the current Arb precision, and how it was obtained."""
    if len(node.limits) != 1 or len(node.limits[0]) != 3:
        raise Unsupported("Arb quadrature encloses one-variable definite integrals only")
    x, a, b = node.limits[0]
    body = prepared(node.function)
    params = tuple(s for s in symbols if s != x)
    values = [v for s, v in zip(symbols, balls, strict=True) if s != x]
    integrand = _Integrand(body, x, params, values)
    lo, hi = _end(a, params, values), _end(b, params, values)
    cuts = integrand.breakpoints()
    scale = integrand.scale(cuts)
    goal = box_goal(values)
    tails: list[Any] = []
    if hi is None:
        least = max([1.0, *cuts] + ([float(lo.mid())] if lo is not None else []))
        t_hi, bound = _tail(body, x, 1, least, params, values, goal * scale)
        tails.append(bound)
        right = arb(t_hi)
    else:
        right = hi
    if lo is None:
        least = max([1.0, *(-c for c in cuts)] + ([-float(hi.mid())] if hi is not None else []))
        t_lo, bound = _tail(body, x, -1, least, params, values, goal * scale)
        tails.append(bound)
        left = arb(-t_lo)
    else:
        left = lo
    coarse = goal > arb(2) ** (-(GOAL_BITS[0] or ctx.prec // 2))
    found = numeric_kinks(
        body, x, params, [arb(v.mid()) for v in values],
        float(left.mid()), float(right.mid()), [*cuts, 0.0], coarse=coarse,
    )  # fmt: skip
    core = integrand.integral(left, right, sorted({*cuts, *map(float, found)}), goal, scale)
    if not tails:
        return core, "Arb quadrature (acb.integral)"
    total = sum(tails, arb(0))
    shown = total.upper().str(3, radius=False)
    how = f"Arb quadrature (acb.integral) with proved tail bound(s) {shown}"
    return core + arb(0).union(total).union(-total), how


GOAL_BITS: list[int | None] = [None]
"""Bits of relative accuracy quadratures and sums aim at; None: half the working precision
(enough to decide a violation, which is all confirmation asks).  Sampling's values ask for
all of them (:mod:`~numeric_checks.rigorous.values`)."""


def box_goal(values: Sequence[Any]) -> Any:
    """The accuracy a quadrature or a sum aims at: :data:`GOAL_BITS`, or, on a wide box, a
    64th of the widest relative radius (the enclosure cannot be narrower than the box makes
    the integrand; more work there is wasted)."""
    goal = arb(2) ** (-(GOAL_BITS[0] or ctx.prec // 2))
    for v in values:
        if v.rad() > 0:
            goal = goal.max(arb((v.rad() / (abs(v.mid()) + v.rad())).upper()) / 64)
    return arb(goal.upper())


def _end(e: sp.Expr, params: Sequence[sp.Symbol], values: Sequence[Any]) -> Any:
    if e in (sp.S.Infinity, sp.S.NegativeInfinity):
        return None
    if e.free_symbols - set(params):
        raise Unsupported(f"an integration bound {e} is not a number at the point")
    ball = compile_arb(list(params), [e], extended=True)(*values)[0]
    if not ball.is_finite():
        raise Unsupported(f"an integration bound {e} is not finite at the point")
    return ball


class _Integrand:
    """The compiled integrand with the box's parameters fixed."""

    def __init__(
        self,
        body: sp.Expr,
        x: sp.Symbol,
        params: tuple[sp.Symbol, ...],
        values: Sequence[Any],
        fn: Any = None,
    ) -> None:
        self.body, self.x, self.params, self.values = body, x, params, values
        self.fn = compile_integrand((x, *params), body) if fn is None else fn
        self.fixed = [acb(v) for v in values]

    def __call__(self, t: Any, analytic: bool) -> Any:
        work.add()
        Analytic.on = bool(analytic)
        try:
            return self.fn(t, *self.fixed)
        except (ValueError, ZeroDivisionError, ArithmeticError):
            return _NAN
        finally:
            Analytic.on = False

    def on_piece(self, u: Any, v: Any) -> _Integrand:
        """The integrand on ``[u, v]`` with the kinks whose branch is constant there (for
        every parameter in the box) replaced by that branch: an analytic expression where
        all are, so that Gauss-Legendre runs on complex ellipses instead of bisecting down to
        direct enclosures (a ``Max`` of two exponentials cannot be decided on a complex
        ball, where their phases vary, but is on the real segment)."""
        if not self.body.has(*_KINKS):
            return self
        f = self.body
        for direction, start in ((0, u.union(v)), (1, u), (-1, v)):
            try:
                f = resolve(f, self.x, direction, self.params, self.values, start, partial=True)
            except (Unsupported, ArithmeticError, ValueError, TypeError):
                continue
            if not f.has(*_KINKS):
                break
        if f == self.body:
            return self
        try:
            fn = compile_integrand((self.x, *self.params), f)
        except Unsupported:
            return self
        return _Integrand(f, self.x, self.params, self.values, fn)

    def breakpoints(self) -> list[float]:
        """Kinks and centres at the box's midpoint, as floats (any cut is sound)."""
        fn = _breakpoint_fn(self.body, self.x, self.params)
        if fn is None:
            return []
        mids = [arb(v.mid()) for v in self.values]
        try:
            found = fn(*mids)
        except (TypeError, ValueError, ZeroDivisionError, ArithmeticError):
            return []
        out = [
            float(v.mid()) for v in found if v.is_finite() and v.rad() < 1e-6 * (1 + abs(v.mid()))
        ]
        return sorted(set(out))

    def scale(self, cuts: Sequence[float]) -> Any:
        """A rough size of the integral (the largest ``|f|`` at the cuts and near 0, or 1),
        used to set absolute tolerances only."""
        best = arb(0)
        for c in [*cuts, 0.0, 1.0, -1.0]:
            v = self(acb(c), False)
            if v.is_finite():
                best = best.max(abs(v.real).upper())
        return best if best > 0 else arb(1)

    def integral(self, lo: Any, hi: Any, cuts: Sequence[float], goal: Any, scale: Any) -> Any:
        a, b = arb(lo.mid()), arb(hi.mid())
        inner = [arb(c) for c in cuts if a < c < b]
        points = [a, *inner, b]
        total = arb(0)
        for u, v in itertools.pairwise(points):
            total += self._piece(u, v, goal, scale)
        for end, sign in ((lo, -1), (hi, 1)):
            # The ends' uncertainty: the integral from the midpoint to the true end.
            if end.rad() > 0:
                near = self(acb(end), False)
                if not near.is_finite():
                    raise Unsupported("the integrand is not finite near an integration bound")
                total += sign * arb(0).union(end - arb(end.mid())) * near.real
        return total

    def _piece(self, u: Any, v: Any, goal: Any, scale: Any) -> Any:
        f = self.on_piece(u, v)
        value = guarded_integral(
            f, acb(u), acb(v), rel_tol=goal, abs_tol=goal * scale, eval_limit=eval_limit(goal)
        )
        if not value.is_finite():
            raise Unsupported("Arb quadrature gave no finite enclosure")
        # The integrand is real on the real segment: the imaginary part is rounding only.
        return value.real


def _tail(
    body: sp.Expr,
    x: sp.Symbol,
    direction: int,
    least: float,
    params: tuple[sp.Symbol, ...],
    values: Sequence[Any],
    goal: Any,
) -> tuple[float, Any]:
    """A cut ``T >= least`` and a proved bound on ``|int_T^oo body(direction y) dy|``."""
    y = TAIL_VARIABLE
    reflected = _reflected(body, x, direction)
    best: tuple[float, Any] | None = None
    why = "no decaying envelope"
    t = float(2 ** max(0, int(least).bit_length()))
    resolved: sp.Expr | None = None
    for _ in range(DOUBLINGS):
        start = arb(t)
        try:
            if resolved is None or resolved.has(sp.Abs, sp.Max, sp.Min, sp.Piecewise):
                resolved = resolve(reflected, y, 1, params, values, start, partial=True)
            bound = tail_bound(resolved, y, params).bound(values, start)
        except Unsupported as exc:
            why = str(exc)
            bound = None
        if bound is not None:
            if best is None or bound < best[1]:
                best = (t, bound)
            if bound < goal:
                break
        elif best is not None:
            break  # the bound held nearer in and fails further out: keep the best one
        t *= 2
    if best is None:
        side = "upper" if direction > 0 else "lower"
        raise Unsupported(f"no proved bound on the {side} tail of the integral: {why}")
    return best
