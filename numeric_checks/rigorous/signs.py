"""The sign of an expression on a ray, for every parameter in a box, and kinks resolved there.

A ray is ``x = T + d u`` for ``u >= 0`` (``d = +1``: ``x >= T``; ``d = -1``: ``x <= T``).  An
expression ``h`` has one sign on it, for every parameter in the balls, when

* ``h`` is a polynomial in ``x`` and every coefficient of ``h(T + d u)`` in ``u`` has the sign
  of the constant one, which is nonzero (then ``h(T + d u)`` is a sum of terms of one sign);
* ``h`` is a sum ``sum_i c_i exp(g_i)`` with ``g_i`` polynomials in ``x`` and, for some ``j``,
  every ``g_i - g_j`` has coefficients ``<= 0`` in ``u`` at positive powers: then
  ``exp(g_i - g_j)`` lies in ``(0, exp((g_i - g_j)(T))]`` on the ray, and the ball
  ``c_j + sum_i c_i [0, exp((g_i - g_j)(T))]`` holds the sign of ``h exp(-g_j)``, which is
  the sign of ``h`` (a hockey-stick integrand ``exp(-|y|/b) - e^eps exp(-|y - 1|/b)`` on
  ``y >= T``).

:func:`resolve` replaces ``Abs``, ``sign``, ``Heaviside``, ``Max``, ``Min`` and
``Piecewise`` by the branch they take on the ray where these decide it, innermost first,
so that a tail or a sum's terms past a kink are one smooth expression.  The symbolic work
(coefficients as expressions of the parameters and of ``T``) is done once per expression;
each box costs Arb evaluations only.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import sympy as sp
from flint import arb

from numeric_checks.arb import ArbFn, compile_arb
from symbolic.errors import Unsupported

__all__ = ["START", "resolve", "sign_on_ray"]

START = sp.Symbol("_ray_start", real=True)
"""The ray's end ``T``, a symbol in the compiled coefficients."""
_U = sp.Symbol("_ray_u", nonnegative=True)


def _coefficients(h: sp.Expr, x: sp.Symbol, direction: int) -> list[sp.Expr] | None:
    """The coefficients of ``h(T + d u)`` in ``u``, lowest first (None: not polynomial)."""
    try:
        poly = sp.Poly(sp.expand(h.xreplace({x: START + direction * _U})), _U)
    except (sp.PolynomialError, sp.GeneratorsNeeded):
        return None
    if any(c.has(x) for c in poly.coeffs()):
        return None
    return list(reversed(poly.all_coeffs()))


@lru_cache(maxsize=1024)
def _polynomial_plan(
    h: sp.Expr, x: sp.Symbol, direction: int, args: tuple[sp.Symbol, ...]
) -> ArbFn | None:
    coeffs = _coefficients(h, x, direction)
    if coeffs is None:
        return None
    return compile_arb([*args, START], coeffs)


@lru_cache(maxsize=1024)
def _exponential_plans(
    h: sp.Expr, x: sp.Symbol, direction: int, args: tuple[sp.Symbol, ...]
) -> list[tuple[ArbFn, int, int]]:
    """For each pivot ``j``: a function of (params, T) returning ``[c_0, .., c_n, e_0, ..,
    e_n, slopes...]``, the number of terms ``n`` and ``j``; ``e_i`` the exponent ``g_i - g_j`` at T,
    ``slopes`` every coefficient of a positive power of ``u`` of every ``g_i - g_j``."""
    terms = []
    for term in sp.Add.make_args(sp.expand(h)):
        c, rest = term.as_independent(x, as_Add=False)
        g = sp.S.Zero
        for factor in sp.Mul.make_args(rest):
            if isinstance(factor, sp.exp):
                g += factor.args[0]
            elif factor.is_Pow and isinstance(factor.base, sp.exp):
                g += factor.base.args[0] * factor.exp
            else:
                return []
        terms.append((c, sp.expand(g)))
    if len(terms) < 2:
        return []
    plans = []
    for j, (_, gj) in enumerate(terms):
        exps, slopes = [], []
        for _, gi in terms:
            coeffs = _coefficients(gi - gj, x, direction)
            if coeffs is None:
                return []
            exps.append(coeffs[0])
            slopes += coeffs[1:]
        values = [c for c, _ in terms] + exps + slopes
        plans.append((compile_arb([*args, START], values), len(terms), j))
    return plans


def sign_on_ray(
    h: sp.Expr,
    x: sp.Symbol,
    direction: int,
    args: Sequence[sp.Symbol],
    balls: Sequence[Any],
    start: Any,
    *,
    weak: bool = False,
) -> int:
    """+1 or -1 when ``h`` is shown to have that sign at every point ``x = T + d u`` (``u >=
    0``) for every parameter in ``balls``; 0 when that is not shown (see the module
    docstring).  With ``direction`` 0, ``start`` is a ball of ``x`` (a finite range) and
    ``h`` is enclosed on it directly.  ``weak``: +1 already for ``h >= 0`` (-1 for ``<= 0``),
    which is all ``Abs``, ``Max`` and ``Min`` need (``|h| = h`` where ``h >= 0``): a kink at
    the very end of a range (``|y - 1|`` on ``[1, T]``) is then resolved too."""
    args = tuple(args)
    if direction == 0 or not h.has(x):
        value = (
            compile_arb([*args, x], [h])(*balls, start)[0]
            if direction == 0
            else compile_arb(list(args), [h])(*balls)[0]
        )
        if value > 0 or (weak and value >= 0):
            return 1
        return -1 if value < 0 or (weak and value <= 0) else 0
    plan = _polynomial_plan(h, x, direction, args)
    if plan is not None:
        coeffs = plan(*balls, start)
        if (coeffs[0] > 0 or (weak and coeffs[0] >= 0)) and all(c >= 0 for c in coeffs[1:]):
            return 1
        if (coeffs[0] < 0 or (weak and coeffs[0] <= 0)) and all(c <= 0 for c in coeffs[1:]):
            return -1
        return 0
    for fn, n, pivot in _exponential_plans(h, x, direction, args):
        values = fn(*balls, start)
        cs, exps, slopes = values[:n], values[n : 2 * n], values[2 * n :]
        if not all(s <= 0 for s in slopes):
            continue
        total = arb(0)
        for i, (c, e) in enumerate(zip(cs, exps, strict=True)):
            # exp(g_i - g_j) in (0, exp(e)]: exactly 1 for the pivot itself only.
            total += c if i == pivot else c * arb(0).union(e.exp())
        if total > 0:
            return 1
        if total < 0:
            return -1
    return 0


_KINKS = (sp.Abs, sp.sign, sp.Heaviside, sp.Max, sp.Min, sp.Piecewise)


def resolve(
    f: sp.Expr,
    x: sp.Symbol,
    direction: int,
    args: Sequence[sp.Symbol],
    balls: Sequence[Any],
    start: Any,
    *,
    partial: bool = False,
) -> sp.Expr:
    """``f`` with every kink in ``x`` replaced by the branch it takes on the ray (on the
    ball ``start`` when ``direction`` is 0), innermost first.  Raises :class:`Unsupported`
    naming the first kink whose branch is not shown, unless ``partial`` (then that kink
    stays, its arguments resolved).  The tree work is remembered: a box costs only the Arb
    evaluations that decide each branch."""
    replaced: tuple[tuple[sp.Expr, sp.Expr], ...] = ()
    for node in _kinks_inner_first(f, x):
        current = _apply(node, replaced)
        try:
            branch = _branch(current, x, direction, args, balls, start)
        except Unsupported:
            if not partial:
                raise
            branch = current
        replaced = (*replaced, (node, branch))
    return _apply(f, replaced)


@lru_cache(maxsize=1024)
def _kinks_inner_first(f: sp.Expr, x: sp.Symbol) -> tuple[sp.Expr, ...]:
    found: list[sp.Expr] = []
    for node in sp.postorder_traversal(f):
        if isinstance(node, _KINKS) and node.has(x) and node not in found:
            found.append(node)
    return tuple(found)


@lru_cache(maxsize=4096)
def _apply(e: sp.Expr, replaced: tuple[tuple[sp.Expr, sp.Expr], ...]) -> sp.Expr:
    # Outer kinks carry their inner replacements already: xreplace takes the outermost.
    return e.xreplace(dict(replaced)) if replaced else e


def _branch(
    node: sp.Expr,
    x: sp.Symbol,
    direction: int,
    args: Sequence[sp.Symbol],
    balls: Sequence[Any],
    start: Any,
) -> sp.Expr:
    def sign(h: sp.Expr, weak: bool = False) -> int:
        return sign_on_ray(h, x, direction, args, balls, start, weak=weak)

    if isinstance(node, sp.Abs | sp.sign | sp.Heaviside):
        s = sign(node.args[0], isinstance(node, sp.Abs))
        if s:
            if isinstance(node, sp.Abs):
                return _times(s, node.args[0])
            if isinstance(node, sp.sign):
                return sp.Integer(s)
            return sp.Integer(1 if s > 0 else 0)
    elif isinstance(node, sp.Max | sp.Min):
        top = 1 if isinstance(node, sp.Max) else -1
        for a in node.args:
            if all(b is a or sign(top * (a - b), True) > 0 for b in node.args):
                return a
    elif isinstance(node, sp.Piecewise):
        for value, cond in node.args:
            truth = _truth(cond, sign)
            if truth is True:
                return value
            if truth is None:
                break
    # The message names the kind only: formatting the node costs more than deciding it.
    raise Unsupported(f"the branch of a {type(node).__name__} is not shown on the ray")


def _truth(cond: sp.Basic, sign: Any) -> bool | None:
    if cond is sp.true:
        return True
    if cond is sp.false:
        return False
    if isinstance(cond, sp.core.relational.Relational) and not isinstance(cond, sp.Eq | sp.Ne):
        s = sign(cond.lhs - cond.rhs)
        if not s:
            return None
        if isinstance(cond, sp.StrictGreaterThan | sp.GreaterThan):
            return s > 0
        return s < 0
    return None


@lru_cache(maxsize=1024)
def _times(s: int, h: sp.Expr) -> sp.Expr:
    return s * h
