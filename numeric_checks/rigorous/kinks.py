"""Where an integrand bends, found numerically: the real zeros of the arguments of its kinks.

The symbolic kinks of :func:`numeric_checks.integrals.analyse` are closed forms (a linear
argument, a difference of exponentials of polynomials); a kink inside a kink escapes them:
``|exp(-|y|/b) - e^eps exp(-|y - 1|/b)|`` bends where the difference vanishes, which moves
with ``eps`` and ``b`` and has no closed form that analysis finds.  Left to Arb's
quadrature, such a kink costs bisection down to the goal with direct enclosures: 50 000
integrand evaluations for one hockey-stick integral.  So the arguments of every ``Abs``,
``sign``, ``Heaviside``, ``floor``, ``ceiling``, ``Max``/``Min`` difference and ``Piecewise``
condition are sampled on the range at the box's midpoint, and each change of sign is
narrowed by bisection.  The points found are only breakpoints: the quadrature encloses the
integral whatever they are (:mod:`~numeric_checks.rigorous.integrands`), so a missed or
inexact root costs time, never correctness.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import sympy as sp
from flint import arb, ctx

from numeric_checks.arb import ArbFn, compile_arb
from symbolic.errors import Unsupported

__all__ = ["SAMPLES", "has_nested_kinks", "kink_arguments", "numeric_kinks"]

SAMPLES = 257
"""Points each argument is sampled on across the range (plus a geometric ladder around every
symbolic cut, where narrow features sit)."""
BISECTIONS = 60
"""Halvings of a bracket: a root to the last bits of a double."""


def kink_arguments(f: sp.Expr, x: sp.Symbol) -> tuple[sp.Expr, ...]:
    """The expressions whose real zeros in ``x`` are where ``f`` is not analytic."""
    out: list[sp.Expr] = []
    for node in sp.preorder_traversal(f):
        if not isinstance(node, sp.Basic) or not node.has(x):
            continue
        if isinstance(node, sp.Abs | sp.sign | sp.Heaviside):
            out.append(node.args[0])
        elif isinstance(node, sp.floor | sp.ceiling):
            out.append(sp.sin(sp.pi * node.args[0]))  # an integer part jumps at its zeros
        elif isinstance(node, sp.Max | sp.Min):
            args = node.args
            out += [args[i] - args[j] for i in range(len(args)) for j in range(i + 1, len(args))]
        elif isinstance(node, sp.Piecewise):
            out += [
                c.lhs - c.rhs for _, c in node.args if isinstance(c, sp.core.relational.Relational)
            ]
    return tuple(dict.fromkeys(out))


@lru_cache(maxsize=256)
def _arguments_fn(f: sp.Expr, x: sp.Symbol, params: tuple[sp.Symbol, ...]) -> ArbFn | None:
    args = kink_arguments(f, x)
    if not args:
        return None
    try:
        return compile_arb([*params, x], list(args), extended=True)
    except Unsupported:
        return None


def numeric_kinks(
    f: sp.Expr,
    x: sp.Symbol,
    params: tuple[sp.Symbol, ...],
    mids: Sequence[Any],
    lo: float,
    hi: float,
    near: Sequence[float] = (),
    *,
    coarse: bool = False,
) -> list[Any]:
    """Approximate real zeros in ``(lo, hi)`` of ``f``'s kink arguments at the parameters
    ``mids`` (exact balls), sampled evenly and on ladders around the points ``near``: exact
    Arb numbers, narrowed to the working precision (to a few bits on a wide box)."""
    fn = _arguments_fn(f, x, params)
    if fn is None or not lo < hi:
        return []
    # On a wide box (coarse) a rough cut is all the quadrature can use.
    samples, ladder = (SAMPLES, 30) if not coarse else (SAMPLES // 8, 8)
    grid = {lo + (hi - lo) * i / (samples - 1) for i in range(samples)}
    for c in near:
        for j in range(-ladder, ladder + 1):
            for side in (-1.0, 1.0):
                p = c + side * 2.0**j
                if lo < p < hi:
                    grid.add(p)
    points = [arb(p) for p in sorted(grid)]
    signs = [_signs(fn, mids, p) for p in points]
    steps = BISECTIONS // 3 if coarse else max(BISECTIONS, ctx.prec + 8)
    roots: list[Any] = []
    for i in range(len(points) - 1):
        a, b = signs[i], signs[i + 1]
        if a is None or b is None:
            continue
        for j, (sa, sb) in enumerate(zip(a, b, strict=True)):
            if sa * sb < 0:
                roots.append(_bisect(fn, mids, j, points[i], points[i + 1], sa, steps))
    return sorted(set(roots), key=float)


def has_nested_kinks(f: sp.Expr, x: sp.Symbol) -> bool:
    """Some kink of ``f`` has an argument that bends itself, or that is not a polynomial:
    where the symbolic kinks of :func:`numeric_checks.integrals.analyse` may be missed."""
    kinds = (sp.Abs, sp.Max, sp.Min, sp.sign, sp.Heaviside, sp.Piecewise, sp.floor, sp.ceiling)
    return any(h.has(*kinds) for h in kink_arguments(f, x))


def _signs(fn: ArbFn, mids: Sequence[Any], p: Any) -> list[int] | None:
    try:
        values = fn(*mids, p)
    except (ArithmeticError, ValueError, TypeError):
        return None
    out = []
    for v in values:
        m = v.mid()
        out.append(1 if m > 0 else -1 if m < 0 else 0)
    return out


def _bisect(fn: ArbFn, mids: Sequence[Any], j: int, a: Any, b: Any, sign_a: int, steps: int) -> Any:
    for _ in range(steps):
        m = ((a + b) / 2).mid()  # exact: the bracket's ends stay exact dyadic numbers
        if m in (a, b):
            break
        s = _signs(fn, mids, m)
        if s is None or s[j] == 0:
            return m
        if s[j] == sign_a:
            a = m
        else:
            b = m
    return ((a + b) / 2).mid()
