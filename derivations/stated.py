"""A theorem's stated formula as a numeric function, compiled from the SymPy expression its
derivation states, so that the formula is written once.

Tables, plots and the command line need the stated numbers (the alpha of Theorem 3.28, the
sigma of Theorem A.1, eps' of advanced composition, the KL bounds).  :func:`stated` compiles
the derivation's own expression through the engine's bridge (once, on first use) and
evaluates it at the caller's precision plus guard digits, rounded back, so that the value
does not depend on the order in which SymPy happens to print the operations.

>>> import sympy as sp
>>> x = sp.Symbol("x", positive=True)
>>> f = stated([x], x * (sp.exp(x) - 1), extra_digits=lambda x: 30)
>>> with mpmath.workdps(20):
...     print(f(mpmath.mpf("1e-20")))
1.0e-40
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import mpmath
import sympy as sp

from numeric_checks.bridge import UNDEFINED_ERRORS, compile_exprs, to_real
from symbolic.errors import EvaluationError

GUARD_DIGITS = 10


def stated(
    args: Sequence[sp.Symbol],
    expr: sp.Expr,
    extra_digits: Callable[..., int] | None = None,
) -> Callable[..., Any]:
    """``expr`` as a function of ``args`` (in that order) returning an mpmath number at the
    caller's precision.  ``extra_digits(*values)`` adds guard digits where the expression
    cancels (``exp(eps) - 1`` loses about log10(1/eps) digits)."""
    compiled: list[Callable[..., list[Any]]] = []

    def value(*values: Any) -> Any:
        if not compiled:
            compiled.append(compile_exprs(list(args), [expr]))
        guard = GUARD_DIGITS + (extra_digits(*values) if extra_digits else 0)
        with mpmath.extradps(guard):
            try:
                result = to_real(compiled[0](*values)[0])
            except UNDEFINED_ERRORS as exc:
                if isinstance(exc, EvaluationError):
                    raise
                raise EvaluationError(f"{type(exc).__name__}: {exc}") from None
        return +result

    return value


def cancelling_digits(x: Any) -> int:
    """Digits lost to cancellation in ``exp(x) - 1`` for small ``x``: log10(1/|x|), at least 0."""
    x = mpmath.mpf(x)
    if x == 0 or not mpmath.isfinite(x):
        return 0
    return max(0, int(-mpmath.log10(abs(x))) + 1)
