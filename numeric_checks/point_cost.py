"""The cost of evaluating a link at a point, estimated before it is evaluated (issue 40).

A sum whose length depends on the variables (Kairouz, Oh & Viswanath's optimal composition,
``Sum(..., (l, 0, k))``) costs about one term evaluation per term: nothing at ``k = 3``, a
long wait at ``k = 10^6``.  The spot check of such a link evaluates its points cheapest
first, so that a budget spent on a few costly points has still evaluated the cheap ones,
and a run that evaluated none can say what the cheapest point would have cost.

The unit is one term (a quadrature counts :data:`INTEGRAL_COST` terms).  Only the outer
ranges are read, at the point, from their limits; an inner range whose limits depend on
an outer index counts as one term per outer term (a lower estimate, never used to skip a
point, only to order them).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import mpmath
import sympy as sp

from numeric_checks.bridge import compile_exprs, evaluate
from symbolic.errors import EvaluationError

__all__ = ["INTEGRAL_COST", "CostModel", "describe_cost"]

INTEGRAL_COST = 1000
"""Terms a quadrature is counted as (a few hundred nodes at a few levels)."""


class CostModel:
    """Estimated terms per evaluation of ``exprs`` at a point of ``symbols``."""

    def __init__(self, symbols: Sequence[sp.Symbol], exprs: Sequence[sp.Expr]) -> None:
        self.fixed = 1.0
        # Only SymPy's own functions (mpmath evaluates them in time independent of their
        # arguments' size) and sums whose lengths are read here: a catalog function such
        # as EpsTensorPower(eps, n, alpha) may cost seconds at n = 10^6, unseen by the model.
        self.estimable = not any(
            e.has(sp.Integral)
            or any(
                not (type(f).__module__ or "").startswith("sympy.") for f in e.atoms(sp.Function)
            )
            for e in exprs
        )
        lengths: list[sp.Expr] = []
        free = set(symbols)
        for e in exprs:
            self.fixed += INTEGRAL_COST * len(e.atoms(sp.Integral))
            for s in e.atoms(sp.Sum, sp.Product):
                for _, a, b in s.limits:
                    span = b - a + 1
                    if span.free_symbols and span.free_symbols <= free:
                        lengths.append(span)
                    elif span.is_number and span.is_finite:
                        self.fixed += float(span)
        self._fn: Callable[..., list[Any]] | None = (
            compile_exprs(tuple(symbols), lengths) if lengths else None
        )

    estimable: bool
    """Whether the sides hold nothing whose cost the model cannot estimate (a quadrature,
    a function of the catalog): the points chosen for their regime, up to k = 10^6
    (:mod:`numeric_checks.regimes`), are evaluated only then."""

    @property
    def varies(self) -> bool:
        """Whether the cost depends on the point at all."""
        return self._fn is not None

    def cost(self, values: Sequence[Any]) -> float:
        """Terms to evaluate at ``values`` (infinite where a length is undefined there)."""
        if self._fn is None:
            return self.fixed
        try:
            spans = evaluate(self._fn, values, 15)
        except EvaluationError:
            return math.inf
        total = self.fixed
        for s in spans:
            if not mpmath.isfinite(s):
                return math.inf
            total += max(float(s), 0.0)
        return total


def describe_cost(terms: float) -> str:
    """A cost in words: "about 3.0e+04 terms"."""
    if math.isinf(terms):
        return "an unbounded number of terms"
    return f"about {terms:.2g} terms"
