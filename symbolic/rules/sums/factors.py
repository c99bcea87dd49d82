"""A common positive factor of two sides holding sums of symbolic length (for the sum rules,
:mod:`symbolic.rules.sums`).

``c X REL c Y`` holds exactly when ``X REL Y`` does, for every ``c > 0``: the rule strikes
the factors the two sides share (as a multiset of multiplicative factors) once every one of
them is shown positive, and leaves ``X REL Y`` to the other sum rules.  This is the step of
the exponential mechanism's proof (Dwork & Roth 2014, Theorem 3.10) that bounds the
normaliser's ratio ``Z_y / Z_x`` termwise while ``e^(eps/2) / Z_x`` stays in front.

A factor counts as positive when SymPy's assumptions say so, when it is ``exp`` of anything
real, a power of a positive factor, a product of positive factors, or a sum whose every term
is positive over a range that is not empty (``Setup.termwise`` proves the terms, with the
index's range and the "for all" hypotheses as facts).  Nothing else is struck: a factor of
unknown sign could be 0 or negative, where the reduction is false (tests/test_sums_rules.py
has a property that checks the rule on instances, and the negative case refused).
"""

from __future__ import annotations

from collections import Counter

import sympy as sp

from symbolic.rules.sums.normal import canonical
from symbolic.rules.sums.setup import Setup

__all__ = ["positive_factor", "split_common_factor"]

MAX_DEPTH = 4
"""Nesting of powers and products a positivity proof follows (a guard, not a limit met)."""


def split_common_factor(
    lhs: sp.Expr, rhs: sp.Expr, setup: Setup
) -> tuple[sp.Expr, sp.Expr, sp.Expr] | None:
    """``(c, X, Y)`` with ``lhs = c X``, ``rhs = c Y`` and ``c > 0`` shown, when the two
    sides share factors and the link holds a sum or product; None otherwise."""
    left, right = Counter(_factors(lhs)), Counter(_factors(rhs))
    shared = left & right
    if not shared or not (lhs.has(sp.Sum, sp.Product) or rhs.has(sp.Sum, sp.Product)):
        return None
    common = list(shared.elements())
    if not all(positive_factor(f, setup) for f in set(common)):
        return None
    c = sp.Mul(*common)
    x = sp.Mul(*(left - shared).elements())
    y = sp.Mul(*(right - shared).elements())
    return c, x, y


def _factors(e: sp.Expr, power: sp.Expr = sp.S.One) -> list[sp.Expr]:
    """The multiplicative factors of ``e`` raised to ``power``, unevaluated products and
    quotients (as the chains write them) flattened."""
    if isinstance(e, sp.Mul):
        return [f for a in e.args for f in _factors(a, power)]
    if isinstance(e, sp.Pow) and e.exp.is_Integer:
        return _factors(e.base, power * e.exp)
    if power.is_Integer and power != 0:
        # S**2 as S, S: a factor shared once with the other side (S * T against S**2).
        return [e if power > 0 else sp.Pow(e, -1)] * abs(int(power))
    return [sp.Pow(e, power)]


def positive_factor(f: sp.Expr, setup: Setup, depth: int = 0) -> bool:
    """Whether ``f > 0`` for every length and every point of the hypotheses (see the module
    docstring for what is read)."""
    if f.is_positive is True:
        return True
    if depth > MAX_DEPTH:
        return False
    if isinstance(f, sp.exp):
        return f.args[0].is_extended_real is True
    if isinstance(f, sp.Pow):
        return f.exp.is_real is True and positive_factor(f.base, setup, depth + 1)
    if isinstance(f, sp.Mul):
        return all(positive_factor(a, setup, depth + 1) for a in f.args)
    if isinstance(f, sp.Sum):
        read = canonical(f)
        if read is None:
            return False
        r, body, _ = read
        nonempty = setup.scalar(r.length - 1, False) is not None
        return nonempty and setup.termwise(body, r, True) is not None
    return False
