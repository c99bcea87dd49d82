"""A numeric filter: an expression that is a real number far from 0 at a point of its
symbols' assumptions is not identically 0, so a tactic ladder trying to reduce it to 0 (slow
on what is not 0: its last rung is ``simplify``) need not run.

The filter only ever skips an attempt that cannot succeed; an undefined, complex or tiny
value decides nothing, and expressions with integrals, sums or functions without a closed
form are not evaluated at all (their numeric value is costly or unavailable)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

import sympy as sp
from sympy.core.function import AppliedUndef

from symbolic.functions import NumericFunction, Phi

SAMPLE = (sp.Rational(3137, 10000), sp.Rational(4721, 10000), sp.Rational(1913, 10000))
"""Values in (0, 1): inside most parameter domains (probabilities, small epsilons)."""
INTEGERS = (3, 5, 7)
TOLERANCE = 1e-8
MAX_OPS = 200


def clearly_nonzero(e: sp.Expr) -> bool:
    """``e`` is a real number farther than :data:`TOLERANCE` from 0 at a sample point that
    satisfies every symbol's sign and integrality assumptions."""
    e = sp.sympify(e)
    if e.has(Phi):
        # Phi's erf form is one SymPy evaluates (Phi itself it leaves unevaluated): without
        # it an inequality such as Phi(...) <= delta went through the whole identity ladder
        # (0.9 s) before its search.
        e = e.rewrite(sp.erf)
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
        # A function SymPy cannot evaluate (Phi, say) leaves a symbolic remainder: no evidence.
        if number.is_Number and number.is_finite and abs(number) > TOLERANCE:
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
    return value if _allowed(s, value) else None


GRID = tuple(
    sp.Rational(v)
    for v in ("0", "1/2", "-1/2", "1", "-1", "1/10", "-1/10", "2", "-2", "9/10", "-9/10", "5")
)
"""Values a goal's symbols take in :func:`negative_somewhere` (small, both signs)."""
MAX_POINTS = 16
MAX_TRIED = 120
"""Points tried against the facts (those outside them are not evaluated)."""
DIGITS = 30


def negative_somewhere(
    g: sp.Expr,
    facts: Sequence[tuple[sp.Expr, bool]],
    extra: Mapping[sp.Symbol, Sequence[sp.Expr]] | None = None,
) -> bool:
    """``g`` is clearly negative (below ``-TOLERANCE``, at 30 digits) at a point
    of :data:`GRID` (and ``extra`` values) that satisfies the symbols' assumptions and every
    fact ``(e, strict)``, ``e >= 0`` (``> 0``): the goal ``g >= 0`` is false there, and
    no search for its proof can succeed.  At most :data:`MAX_POINTS` points are evaluated;
    anything undefined or doubtful counts as no evidence."""
    g = sp.sympify(g)
    if g.has(sp.Integral, sp.Sum, sp.Product) or g.atoms(NumericFunction, AppliedUndef):
        return False
    symbols = sorted(g.free_symbols, key=str)
    if not symbols:
        value = _number(g)
        return value is not None and value < -TOLERANCE
    if len(symbols) > 3:
        return False
    pools = []
    for s in symbols:
        values = [*(extra or {}).get(s, ()), *GRID]
        pools.append([v for v in dict.fromkeys(values) if _allowed(s, v)])
    if not all(pools):
        return False
    relevant = [(e, strict) for e, strict in facts if e.free_symbols <= set(symbols)]
    # diagonal order: every symbol moves among its first values (``extra`` first) before
    # any goes far down its list
    combos = sorted(itertools.product(*(range(len(p)) for p in pools)), key=lambda c: (sum(c), c))[
        :MAX_TRIED
    ]
    evaluated = 0
    for combo in combos:
        point = {s: pools[i][k] for i, (s, k) in enumerate(zip(symbols, combo, strict=True))}
        if not all(_holds(e.xreplace(point), strict) for e, strict in relevant):
            continue
        evaluated += 1
        value = _number(g.xreplace(point))
        if value is not None and value < -TOLERANCE:
            return True
        if evaluated >= MAX_POINTS:
            break
    return False


def _allowed(s: sp.Symbol, v: sp.Expr) -> bool:
    for key, wanted in s.assumptions0.items():
        got = getattr(v, f"is_{key}", None)
        if wanted is not None and got is not None and got != wanted:
            return False
    return True


def _number(e: sp.Expr) -> float | None:
    try:
        value = sp.N(e, DIGITS)
    except (TypeError, ValueError, ZeroDivisionError, ArithmeticError):
        return None
    if not (value.is_real and value.is_finite and value.is_Number):
        return None
    return float(value)


def _holds(e: sp.Expr, strict: bool) -> bool:
    """A fact at a point, exactly when SymPy can tell, else with a margin (a point on the
    edge of a fact is skipped rather than trusted)."""
    decided = e.is_positive if strict else e.is_nonnegative
    if decided is not None:
        return bool(decided)
    value = _number(e)
    return value is not None and value > TOLERANCE
