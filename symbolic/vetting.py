"""The last check of a parsed expression, shared by the SymPy-syntax and LaTeX readers:
every path (SymPy, the mpmath and Arb bridges) can evaluate it as written
(:func:`vet`)."""

from __future__ import annotations

import sympy as sp

from symbolic.errors import ExpressionError
from symbolic.vocabulary import FREE_FUNCTION_NAMES

__all__ = ["ITERATED_INTEGRAL", "shortened", "vet"]

ITERATED_INTEGRAL = (
    "an iterated (multiple) integral is not supported yet: the numeric bridge integrates "
    "over one variable at a time; integrate the inner variable by hand or state a bound on it"
)


def vet(expr: sp.Basic, text: str = "") -> sp.Basic:
    """``expr`` if every path can evaluate it as written, else :class:`ExpressionError`:
    a constant part that is undefined (``1/0``, ``log(0)``, ``factorial(-1)``, ``gamma``
    at a pole), an iterated integral, or a declared ``beta``/``gamma`` used beside the
    function of that name (the numeric bridge would read one as the other).  Both parsers
    end here."""
    shown = shortened(text) if text else str(expr)[:80]
    if expr.has(sp.zoo, sp.nan):
        raise ExpressionError(
            f"{shown} is undefined: it divides by zero or takes log(0), or a function at a "
            "pole (factorial of a negative integer, gamma at 0, -1, ...)"
        )
    for integral in expr.atoms(sp.Integral):
        if len(integral.limits) > 1 or any(
            inner.has(*integral.variables) for inner in integral.function.atoms(sp.Integral)
        ):
            raise ExpressionError(f"{ITERATED_INTEGRAL}: {shown}")
    names = {s.name for s in expr.atoms(sp.Symbol)} & FREE_FUNCTION_NAMES
    for f in expr.atoms(sp.Function):
        if type(f).__name__ in names:
            raise ExpressionError(
                f"`{type(f).__name__}` is declared as a variable and the function "
                f"{type(f).__name__} is used too in {shown}; rename the variable"
            )
    return expr


def shortened(text: str, limit: int = 80) -> str:
    """``text`` quoted, cut to ``limit`` characters, for a message."""
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")
