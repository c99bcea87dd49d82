"""Rigorous Arb enclosures of expressions with sums and integrals, at one point.

Used to confirm a counterexample (:mod:`numeric_checks.confirm`).  Each outermost ``Sum``,
``Product`` or ``Integral`` is enclosed by :mod:`numeric_checks.rigorous` (sums: terms as
balls near their mass, proved tails by the ratio test or a geometric envelope,
Euler-Maclaurin with a proved remainder where the mass is too wide; integrals: Arb's
quadrature on analytic pieces with proved tail envelopes).  A node that cannot be enclosed
so is evaluated by SymPy at the exact point (``doit``, time-bounded) and its closed form
substituted symbolically, so that what it shares with the rest of the expression cancels
exactly.  Anything else raises :class:`Unsupported`, naming the part and why.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import sympy as sp

from numeric_checks.budget import BudgetSpent, work_limit
from numeric_checks.prepare import prepared
from numeric_checks.rigorous.calculus import EnclosureNote, compile_calculus, outermost
from numeric_checks.rigorous.series import TERM_CAP
from symbolic.errors import Unsupported

__all__ = ["CLOSED_FORM", "DOIT_SECONDS", "TERM_CAP", "enclose"]

CLOSED_FORM = "SymPy's closed form of "
"""How a note says a Sum or an Integral was replaced by SymPy's closed form at the point
(not a proved enclosure of the node: SymPy can be wrong, so a ruling that rests on it is
cross-checked against the sampled evaluation, :func:`numeric_checks.confirm.confirm_violation`)."""

DOIT_SECONDS = 20.0
"""CPU time SymPy may spend on one ``Sum``/``Integral`` at the exact point (a node with no
rigorous enclosure is confirmed through SymPy's closed form or not at all); counted in work,
:func:`~numeric_checks.budget.work_limit`, so that it does not depend on the load."""

_FAILED: dict[tuple[sp.Basic, tuple[Any, ...]], str] = {}
"""Nodes whose enclosure failed at a point (structural: the same at every precision), so
that the precision ladder does not retry them per rung."""


def enclose(
    expr: sp.Expr,
    symbols: Sequence[sp.Symbol],
    balls: Sequence[Any],
    exact: dict[sp.Symbol, sp.Rational],
    notes: list[EnclosureNote] | None = None,
) -> Any:
    """The Arb ball of ``expr`` at ``balls`` (the values of ``symbols``; ``exact`` the same
    point as rationals, for SymPy), at the current Arb precision; ``notes`` collects how
    sums and integrals were enclosed.  Raises :class:`Unsupported` where no rigorous
    enclosure is known."""
    from numeric_checks.arb import compile_arb

    expr = _branches_at(prepared(expr), symbols, balls)
    nodes = outermost(expr)
    if not nodes:
        return compile_arb(list(symbols), [expr], extended=True)(*balls)[0]
    closed: dict[sp.Basic, sp.Expr] = {}
    enclosed: list[tuple[sp.Expr, Any]] = []
    for node in nodes:
        free = node.free_symbols
        point = tuple(sorted(((s, v) for s, v in exact.items() if s in free), key=_name))
        try:
            enclosed.append((node, _enclose_node(node, symbols, balls, point, notes)))
        except Unsupported as exc:
            # SymPy's closed form at the point, substituted symbolically so that what it
            # shares with the rest cancels exactly (exp(x) - exp(x) at x = 1e30).
            form = _doit(node, point)
            if form is None:
                raise Unsupported(f"{exc}, and SymPy finds no closed form at the point") from exc
            closed[node] = form
            if notes is not None:
                notes.append(EnclosureNote(f"{CLOSED_FORM}{_short(node)}", closed_form=True))
    stand_ins = [sp.Symbol(f"_enclosed{i}") for i in range(len(enclosed))]
    reduced = expr.xreplace({n: s for (n, _), s in zip(enclosed, stand_ins, strict=True)})
    if closed:
        reduced = prepared(reduced.xreplace(closed).xreplace(exact))
    if outermost(reduced):
        raise Unsupported("a Sum or an Integral is left after enclosing its parts")
    fn = compile_arb([*symbols, *stand_ins], [reduced], extended=True)
    return fn(*balls, *[b for _, b in enclosed])[0]


def _branches_at(expr: sp.Expr, symbols: Sequence[sp.Symbol], balls: Sequence[Any]) -> sp.Expr:
    """Each ``Piecewise`` of ``expr`` (innermost first) replaced by its branch at the point,
    its conditions decided by Arb balls: the first that certainly holds after those that
    certainly fail (``Piecewise((side, x**2 > 0))``, the guard of a side typed ``x/x``, is
    ``side`` at ``x = 1/2``).  A condition the balls do not decide, or none that holds (the
    point has no value), is :class:`Unsupported`."""
    from numeric_checks.arb import compile_arb

    while True:
        pieces = [p for p in expr.atoms(sp.Piecewise) if not p.atoms(sp.Piecewise) - {p}]
        if not pieces:
            return expr
        choice: dict[sp.Basic, sp.Basic] = {}
        for piece in pieces:
            for branch, cond in piece.args:
                if cond is sp.true:
                    holds = True
                elif isinstance(cond, sp.core.relational.Relational) and not isinstance(
                    cond, sp.Eq | sp.Ne
                ):
                    ball = compile_arb(list(symbols), [cond.lhs - cond.rhs], extended=True)(*balls)[
                        0
                    ]
                    strict = isinstance(cond, sp.StrictGreaterThan | sp.StrictLessThan)
                    sign = 1 if isinstance(cond, sp.StrictGreaterThan | sp.GreaterThan) else -1
                    low = ball * sign
                    if (low > 0) or (not strict and low >= 0):
                        holds = True
                    elif (low < 0) or (strict and low <= 0):
                        holds = False
                    else:
                        raise Unsupported(f"the Piecewise condition {cond} is not decided there")
                else:
                    raise Unsupported(f"no rigorous enclosure for the condition {cond}")
                if holds:
                    choice[piece] = branch
                    break
            else:
                raise Unsupported(f"no branch of {piece} applies at the point")
        expr = expr.xreplace(choice)


def _short(node: sp.Expr) -> str:
    text = str(node)
    return text if len(text) <= 60 else text[:57] + "..."


def _name(kv: tuple[sp.Symbol, Any]) -> str:
    return kv[0].name


def _enclose_node(
    node: sp.Expr,
    symbols: Sequence[sp.Symbol],
    balls: Sequence[Any],
    point: tuple[tuple[sp.Symbol, sp.Rational], ...],
    notes: list[EnclosureNote] | None,
) -> Any:
    key = (node, point)
    if key in _FAILED:
        raise Unsupported(_FAILED[key])
    fn = compile_calculus(symbols, (node,))
    try:
        value = fn(*balls)[0]
    except Unsupported as exc:
        if len(_FAILED) > 64:
            _FAILED.clear()
        _FAILED[key] = str(exc)
        raise
    if notes is not None:
        notes.extend(getattr(fn, "notes", []))
    return value


@lru_cache(maxsize=64)
def _doit(node: sp.Expr, point: tuple[tuple[sp.Symbol, sp.Rational], ...]) -> sp.Expr | None:
    try:
        with work_limit(DOIT_SECONDS):
            closed = node.xreplace(dict(point)).doit()
    except (BudgetSpent, TypeError, ValueError, NotImplementedError, RecursionError):
        return None
    except Exception:  # SymPy's integrators raise a zoo of types; a failure proves nothing
        return None
    if (
        not isinstance(closed, sp.Expr)
        or closed.has(sp.Sum, sp.Product, sp.Integral)
        or closed.free_symbols
    ):
        return None
    return closed
