"""Products of symbolic length, compared factor by factor (for :mod:`symbolic.rules.sums`):
both sides products over one range, an ``exp`` of a sum read as the product of the
exponentials, and a power ``c**L`` (or ``exp(x)``) against a product of length ``L`` as ``L``
equal factors."""

from __future__ import annotations

import sympy as sp

from symbolic.relations import Relation
from symbolic.rules.registry import credit
from symbolic.rules.sums.normal import canonical
from symbolic.rules.sums.setup import Setup, plain_index
from symbolic.tactics import prove_zero


def by_products(lhs: sp.Expr, rel: Relation, rhs: sp.Expr, setup: Setup) -> str | None:
    """Both sides products over one range (an ``exp`` of a sum read as the product of the
    exponentials, a power ``c**L`` or ``exp(L x)`` against a product of length ``L`` as
    that many equal factors), compared factor by factor."""
    read = _as_product(lhs), _as_product(rhs)
    read = _equal_factors(read[0], read[1], setup), _equal_factors(read[1], read[0], setup)
    if rel is Relation.EQ:
        trace = _products(read[0], read[1], None, setup)
    else:
        small, big = read if rel.direction == 1 else read[::-1]
        trace = _products(small, big, rel.strict, setup)
    if trace is None:
        return None
    if read != (lhs, rhs):
        trace = f"product of exponentials or of equal factors, {trace}"
    return plain_index(trace)


def _equal_factors(e: sp.Expr, other: sp.Expr, setup: Setup) -> sp.Expr:
    """``c**L`` or ``exp(x)`` as ``Product(c)``, ``Product(exp(x/L))`` over the range of
    ``other`` (a product of length ``L >= 1``), when ``c`` does not depend on the index."""
    if isinstance(e, sp.Product) or not isinstance(other, sp.Product):
        return e
    read = canonical(other)
    if read is None or setup.scalar(read[0].length - 1, False) is None:
        return e
    r = read[0]
    limits = (r.index, r.lower, r.upper)
    if isinstance(e, sp.Pow) and sp.simplify(e.exp - r.length) == 0:
        return sp.Product(e.base, limits)
    if isinstance(e, sp.exp):
        return sp.Product(sp.exp(sp.expand(e.args[0] / r.length)), limits)
    return e


def _as_product(e: sp.Expr) -> sp.Expr:
    """``exp(Sum(f, R))`` as ``Product(exp(f), R)`` (the same finite product)."""
    if isinstance(e, sp.exp) and isinstance(e.args[0], sp.Sum):
        read = canonical(e.args[0])
        if read is not None:
            r, body, _ = read
            return sp.Product(sp.exp(body), (r.index, r.lower, r.upper))
    return e


def _products(small: sp.Expr, big: sp.Expr, strict: bool | None, setup: Setup) -> str | None:
    """``Product(a) <= Product(b)`` (``strict`` None: ``=``) over one range, factor by
    factor: ``0 <= a_i <= b_i`` (``a_i = b_i``) for every ``i``."""
    if not (isinstance(small, sp.Product) and isinstance(big, sp.Product)):
        return None
    a, b = canonical(small), canonical(big)
    if a is None or b is None or a[0] != b[0] or strict:
        return None
    r = a[0]
    if strict is None:
        tactic = prove_zero(a[1] - b[1])
        return None if tactic is None else f"equal factors over {r} ({tactic})"
    low = setup.termwise(a[1], r, False)
    gap = setup.termwise(b[1] - a[1], r, False)
    if low is None or gap is None:
        return None
    credit("product bound")  # prod a_i <= prod b_i from 0 <= a_i <= b_i, factor by factor
    return (
        f"termwise product of nonnegative factors ({a[1]} >= 0: {low}; "
        f"{a[1]} <= {b[1]}: {gap}, for every {r.index} in {r})"
    )
