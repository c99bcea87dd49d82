"""A numeric filter: an expression that is a real number far from 0 at a point of its
symbols' assumptions is not identically 0, so a tactic ladder trying to reduce it to 0 (slow
on what is not 0: its last rung is ``simplify``) need not run.

The filter only ever skips an attempt that cannot succeed; an undefined, complex or tiny
value decides nothing, and expressions with integrals, sums or functions without a closed
form are not evaluated at all (their numeric value is costly or unavailable)."""

from __future__ import annotations

import sympy as sp
from sympy.core.function import AppliedUndef

from symbolic.functions import NumericFunction

SAMPLE = (sp.Rational(3137, 10000), sp.Rational(4721, 10000), sp.Rational(1913, 10000))
"""Values in (0, 1): inside most parameter domains (probabilities, small epsilons)."""
INTEGERS = (3, 5, 7)
TOLERANCE = 1e-8
MAX_OPS = 200


def clearly_nonzero(e: sp.Expr) -> bool:
    """``e`` is a real number farther than :data:`TOLERANCE` from 0 at a sample point that
    satisfies every symbol's sign and integrality assumptions."""
    e = sp.sympify(e)
    if e.has(sp.Integral, sp.Sum, sp.Product) or e.atoms(NumericFunction, AppliedUndef):
        return False
    if sp.count_ops(e) > MAX_OPS:
        return False
    symbols = sorted(e.free_symbols, key=str)
    for shift in range(2):
        point: dict[sp.Symbol, sp.Expr] = {}
        for i, s in enumerate(symbols):
            value = _value(s, i + shift)
            if value is None:
                return False
            point[s] = value
        try:
            number = sp.N(e.xreplace(point), 20)
        except (TypeError, ValueError, ZeroDivisionError, ArithmeticError):
            return False
        if number.is_real and number.is_finite and abs(number) > TOLERANCE:
            return True
    return False


def _value(s: sp.Symbol, i: int) -> sp.Expr | None:
    """A value of ``s`` that its assumptions allow (None: none of the sample values)."""
    if s.is_integer:
        value: sp.Expr = sp.Integer(INTEGERS[i % len(INTEGERS)])
    else:
        value = SAMPLE[i % len(SAMPLE)]
    if s.is_nonpositive:
        value = -value
    # the sample must satisfy every assumption the symbol carries (even, prime, ...)
    checks = {k: v for k, v in s.assumptions0.items() if v is not None}
    for key, wanted in checks.items():
        got = getattr(value, f"is_{key}", None)
        if got is not None and got != wanted:
            return None
    return value
