"""Whole expressions with sums and integrals, compiled once and enclosed on any box.

The outermost ``Sum``, ``Product`` and ``Integral`` nodes of the expressions are taken out and
replaced by stand-in symbols; the rest is compiled onto Arb balls
(:func:`numeric_checks.arb.compile_arb`, with the extended functions), so that what a node
shares with the rest is computed once.  On a call each node is enclosed for every point of
the balls (:mod:`~numeric_checks.rigorous.quadrature`, :mod:`~numeric_checks.rigorous.
series`, finite products factor by factor) and the stand-ins take those balls.  A sum whose
terms hold sums or integrals encloses each term the same way.

:attr:`CalculusFunction.notes` says, after a call, how the nodes were enclosed (the
evidence of a refutation names it).  Where a node has no enclosure on the box,
:class:`~symbolic.errors.Unsupported` names it and why; where only the box is too wide (a
sum's bound that is not one integer on it), the node's ball is NaN, so that a caller that
splits boxes can split on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import sympy as sp
from flint import arb

from numeric_checks.arb import compile_arb
from numeric_checks.prepare import prepared
from numeric_checks.rigorous import work
from numeric_checks.rigorous.quadrature import integral_ball
from numeric_checks.rigorous.series import WideEnd, _end, sum_ball
from symbolic.errors import Unsupported

__all__ = ["PRODUCT_CAP", "CalculusFunction", "box_function", "compile_calculus", "outermost"]

PRODUCT_CAP = 20_000
"""Factors a finite Product is multiplied out to, at most (a work count)."""
NODE_WORK = 200
"""Evaluations a node's enclosure is counted for on top of its integrand points and terms:
its kinks, tails and windows (:mod:`~numeric_checks.rigorous.work`)."""


@dataclass(frozen=True)
class EnclosureNote:
    """How one sum, integral or product of an expression was enclosed, in words, with what a
    ruling needs to know of it as flags (never read back from the words)."""

    text: str
    quadrature: bool = False
    """Enclosed by Arb's quadrature (``acb.integral``) with proved tail bounds."""
    closed_form: bool = False
    """Replaced by SymPy's closed form at the point: no proved enclosure of the node."""


def outermost(expr: sp.Expr) -> list[sp.Expr]:
    """The ``Sum``, ``Product`` and ``Integral`` nodes of ``expr`` not inside another."""
    found: list[sp.Expr] = []

    def walk(e: sp.Basic) -> None:
        if isinstance(e, sp.Sum | sp.Product | sp.Integral):
            if e not in found:
                found.append(e)  # type: ignore[arg-type]
            return
        for a in e.args:
            walk(a)

    walk(expr)
    return found


class CalculusFunction:
    """``(*balls) -> [ball of each expression]``; see the module docstring."""

    def __init__(self, symbols: tuple[sp.Symbol, ...], exprs: tuple[sp.Expr, ...]) -> None:
        self.symbols = symbols
        prepared_exprs = [prepared(e) for e in exprs]
        nodes: list[sp.Expr] = []
        for e in prepared_exprs:
            nodes += [n for n in outermost(e) if n not in nodes]
        self.nodes = nodes
        self.stand_ins = [sp.Symbol(f"_enclosed{i}") for i in range(len(nodes))]
        swap = dict(zip(nodes, self.stand_ins, strict=True))
        reduced = [e.xreplace(swap) for e in prepared_exprs]
        self.outer = compile_arb([*symbols, *self.stand_ins], reduced, extended=True)
        self.notes: list[EnclosureNote] = []
        # Which of the symbols each node uses (an Integral's free_symbols is costly: once).
        self.uses = [[i for i, s in enumerate(symbols) if s in node.free_symbols] for node in nodes]

    def __call__(self, *balls: Any) -> list[Any]:
        self.notes = []
        values = [self._node(n, use, balls) for n, use in zip(self.nodes, self.uses, strict=True)]
        return self.outer(*balls, *values)

    def _node(self, node: sp.Expr, use: list[int], balls: Sequence[Any]) -> Any:
        work.add(NODE_WORK)
        # Only the node's free symbols: a declared variable that is also the node's bound
        # index (x in Integral(f(x), (x, a, b))) must not be substituted into it.
        symbols = [self.symbols[i] for i in use]
        values = [balls[i] for i in use]
        quadrature = isinstance(node, sp.Integral)  # integrals are enclosed by acb.integral
        try:
            if quadrature:
                value, how = integral_ball(node, symbols, values)  # type: ignore[arg-type]
            elif isinstance(node, sp.Sum):
                value, how = sum_ball(node, symbols, values, compile_calculus)
            else:
                value, how = _product(node, symbols, values)  # type: ignore[arg-type]
        except WideEnd:
            return arb.nan()
        self.notes.append(EnclosureNote(how, quadrature=quadrature))
        return value


def _product(node: sp.Product, symbols: Sequence[sp.Symbol], values: Sequence[Any]) -> tuple:
    if len(node.limits) != 1:
        raise Unsupported("a Product over several indices is not enclosed")
    k, a, b = node.limits[0]
    if a.is_infinite or b.is_infinite:
        raise Unsupported("no rigorous enclosure for an infinite Product")
    params = tuple(s for s in symbols if s != k)
    vals = [v for s, v in zip(symbols, values, strict=True) if s != k]
    lo = _end(a, params, vals, ceil=True)
    hi = _end(b, params, vals, ceil=False)
    if hi - lo + 1 > PRODUCT_CAP:
        raise Unsupported(f"a Product of {hi - lo + 1} factors is too costly to enclose")
    fn = compile_calculus((*params, k), (node.function,))
    total = arb(1)
    for i in range(lo, hi + 1):
        total *= fn(*vals, arb(i))[0]
    return total, "factors multiplied as Arb balls"


def compile_calculus(symbols: Sequence[sp.Symbol], exprs: Sequence[sp.Expr]) -> Any:
    """A function of Arb balls returning the enclosures of ``exprs``: plain
    :func:`~numeric_checks.arb.compile_arb` (extended) when they hold no sum or integral, a
    :class:`CalculusFunction` otherwise."""
    return _compile(tuple(symbols), tuple(exprs))


@lru_cache(maxsize=256)
def _compile(symbols: tuple[sp.Symbol, ...], exprs: tuple[sp.Expr, ...]) -> Any:
    if not any(e.has(sp.Sum, sp.Product, sp.Integral) for e in exprs):
        return compile_arb(list(symbols), list(exprs), extended=True)
    return CalculusFunction(symbols, exprs)


def box_function(symbols: Sequence[sp.Symbol], exprs: Sequence[sp.Expr]) -> tuple[Any, bool]:
    """For branch-and-bound: a function of balls enclosing ``exprs`` and whether it encloses
    sums or integrals.  Such a function is tried once at the box's midpoint by the caller;
    past that, a node with no enclosure on a *wide* box gives NaN balls (split on: a smaller
    box may have one), never an exception."""
    if not any(e.has(sp.Sum, sp.Product, sp.Integral) for e in exprs):
        # The plain bridge, not the extended one: which steps the certifier attempts (and
        # what it costs the catalog) stays what it was before sums and integrals came in.
        return compile_arb(list(symbols), list(exprs)), False
    fn = compile_calculus(symbols, exprs)

    def on_box(*balls: Any) -> list[Any]:
        try:
            return fn(*balls)  # type: ignore[no-any-return]
        except Unsupported:
            if all(b.rad() == 0 for b in balls):
                raise
            return [arb.nan()] * len(exprs)

    return on_box, True
