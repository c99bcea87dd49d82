"""Proof by induction on an integer variable: the chain of a derivation as the inductive step.

A derivation that declares ``induction=Induction("k", base=b)`` claims ``L(k) = R(k)`` and
its chain is the step from ``k - 1`` to ``k``: links justified ``by.hypothesis(...)`` may use
the **induction hypothesis** ``L(k - 1) = R(k - 1)``, which is built from the claim (never
written by hand, so it cannot say more than the claim does).  The **base case** is the claim
at ``k = b``.  Induction (on the integers ``k >= b``) then gives the claim for every ``k`` of
the variable's domain, provided

* no hypothesis mentions ``k`` except "for all i in lo..k" ones, which hold on the shorter
  range at ``k - 1`` too (so ``k`` may be the length of a family, ``p[1..k]``);
* the domain is a set of integers starting at ``b`` or ``b + 1`` (no gap between the base
  case and the first step, and no step below the base case, whose hypothesis would be
  unfounded);
* the base case is proved;
* every link of the chain is proved, those citing the hypothesis with it.

This module holds the pure symbolic part (the declaration, the hypothesis and base case as
expressions, the rewrite); the engine (``numeric_checks.stages``) decides when to use it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import sympy as sp

from symbolic.domains import Variable
from symbolic.errors import IllFormedDerivation, InvalidInput
from symbolic.families import ForAll
from symbolic.functions import NumericFunction

__all__ = [
    "Induction",
    "apply_hypothesis",
    "at",
    "check_declaration",
    "parse_spec",
    "with_domain_base",
]

UNFOLD_ROUNDS = 4
"""How many nested numeric functions may be unfolded to expose the hypothesis' left side: one
is what an inductive step needs (the step's own function wraps the ``k - 1`` instance)."""


@dataclass(frozen=True)
class Induction:
    """The chain is the inductive step ``k - 1 -> k`` of an induction on ``variable``
    (an integer variable of the derivation) with base case ``variable = base``."""

    variable: str
    base: int = 1

    def describe(self) -> str:
        return f"induction on {self.variable} from {self.variable} = {self.base}"


def check_declaration(
    induction: Induction, variables: Sequence[Variable], hypotheses: Sequence[sp.Basic]
) -> None:
    """Raise :class:`IllFormedDerivation` unless ``induction`` is an induction the engine may
    use: an integer variable whose domain starts at ``base`` or ``base + 1`` and that no
    hypothesis mentions (a hypothesis in ``k`` would have to be shown at ``k - 1`` too)."""
    found = [v for v in variables if v.name == induction.variable]
    if not found:
        raise IllFormedDerivation(f"induction on an undeclared variable {induction.variable!r}")
    (var,) = found
    dom = var.domain
    if dom.kind != "integer":
        raise IllFormedDerivation(f"induction on {var.name}, which is not an integer variable")
    base = sp.Integer(induction.base)
    if not dom.lower.is_finite or not base <= dom.lower <= base + 1:
        raise IllFormedDerivation(
            f"induction on {var.name} from {base}: its domain must start at {base} or "
            f"{base + 1}, not at {dom.lower} (no gap after the base case, no step below it)"
        )
    for h in hypotheses:
        if var.symbol in sp.sympify(h).free_symbols and not _shrinks(h, var.symbol):
            raise IllFormedDerivation(
                f"induction on {var.name}: a hypothesis mentions {var.name} ({h}), so the "
                f"induction hypothesis at {var.name} - 1 would need it at {var.name} - 1 as "
                f"well (only 'for all' hypotheses over a range ending at {var.name} carry "
                "over: they hold on the shorter range)"
            )


def _shrinks(h: sp.Basic, k: sp.Symbol) -> bool:
    """Whether ``h`` is "rel(i) for all i in lo..k" with ``k`` nowhere else: at k it implies
    itself at k - 1 (the range only shrinks), so the claim at k - 1, proved under the
    hypotheses at k - 1, holds under the hypotheses at k.  A sum hypothesis over 1..k
    (sum p_i = 1) does not: at k - 1 it is another statement."""
    if not isinstance(h, ForAll):
        return False
    return h.upper == k and k not in h.relation.free_symbols and k not in h.lower.free_symbols


def parse_spec(spec: str) -> Induction:
    """A proof file's ``induction`` field: ``"n"`` (base case at the domain's start, filled
    in by the caller) or ``"n from 1"``.

    >>> parse_spec("n from 2")
    Induction(variable='n', base=2)
    """
    name, sep, base = spec.strip().partition(" from ")
    name = name.strip()
    if not name.isidentifier():
        raise InvalidInput(
            f"induction = {spec!r}: write the integer variable (a family's length, say) and "
            'optionally its base case, e.g. induction = "n" or induction = "n from 1"'
        )
    if not sep:
        return Induction(name, base=BASE_FROM_DOMAIN)
    try:
        value = int(base.strip())
    except ValueError:
        raise InvalidInput(
            f"induction = {spec!r}: the base case must be a whole number, e.g. 'n from 1'"
        ) from None
    return Induction(name, base=value)


BASE_FROM_DOMAIN = -(10**9)
"""The base of an ``Induction`` parsed without ``from``: replaced by the start of the
variable's domain (:func:`with_domain_base`) before the derivation is built."""


def with_domain_base(induction: Induction, variables: Sequence[Variable]) -> Induction:
    """``induction`` with a base left to the domain set to the domain's first value."""
    if induction.base != BASE_FROM_DOMAIN:
        return induction
    found = [v for v in variables if v.name == induction.variable]
    if not found or not found[0].domain.lower.is_Integer:
        raise InvalidInput(
            f"induction on {induction.variable}: declare it an integer variable with a "
            f'finite start (e.g. {induction.variable} = "Z>=1"), or write '
            f'induction = "{induction.variable} from 1"'
        )
    lower = found[0].domain.lower
    start = int(lower) + (1 if found[0].domain.lower_open else 0)
    return Induction(induction.variable, base=start)


def at(expr: sp.Basic, k: sp.Symbol, value: sp.Expr) -> sp.Basic:
    """``expr`` with ``k`` replaced by ``value`` (``k - 1`` for the hypothesis, the base for
    the base case).  ``xreplace`` is exact: nothing is simplified on the way."""
    return sp.sympify(expr).xreplace({k: value})


def _unfoldable(f: sp.Basic) -> bool:
    """A numeric function whose ``doit`` writes out its definition symbolically."""
    return isinstance(f, NumericFunction) and type(f).doit is not NumericFunction.doit


def apply_hypothesis(
    expr: sp.Expr, lhs: sp.Expr, rhs: sp.Expr
) -> tuple[sp.Expr, tuple[str, ...]] | None:
    """``expr`` with every occurrence of ``lhs`` replaced by ``rhs``, and the names of the
    functions unfolded (by their definition, ``doit``) to expose an occurrence; None when
    ``lhs`` occurs nowhere, even after unfolding.

    Only a numeric function whose one-level unfolding contains ``lhs`` is unfolded, so
    nothing else of ``expr`` changes.  The rewrite is sound when ``lhs = rhs`` holds (the
    caller's induction hypothesis): equals replaced by equals.

    >>> x, y = sp.symbols("x y")
    >>> apply_hypothesis(sp.sin(x) + 1, sp.sin(x), y)
    (y + 1, ())
    >>> apply_hypothesis(sp.cos(x), sp.sin(x), y) is None
    True
    """
    unfolded: list[str] = []
    for _ in range(UNFOLD_ROUNDS):
        if expr.has(lhs):
            return expr.xreplace({lhs: rhs}), tuple(unfolded)
        exposing = {}
        for f in expr.atoms(sp.Function):
            if not _unfoldable(f):
                continue
            one = f.doit(deep=False)
            if one != f and one.has(lhs):
                exposing[f] = one
        if not exposing:
            return None
        unfolded += sorted({type(f).__name__ for f in exposing} - set(unfolded))
        expr = expr.xreplace(exposing)
    return (expr.xreplace({lhs: rhs}), tuple(unfolded)) if expr.has(lhs) else None
