"""Peeling the last term off a sum or a product of symbolic length: the step of an induction
on a length.

    Sum(f(i), (i, a, n)) = Sum(f(i), (i, a, n - 1)) + f(n)
    Product(f(i), (i, a, n)) = Product(f(i), (i, a, n - 1)) * f(n)

The sum's form holds for every integer ``n`` under SymPy's convention for reversed ranges
(Karr 1981, "Summation in finite terms", JACM 28(2), Def. 3: a sum over ``a..b`` with
``b < a`` is minus the sum over ``b + 1..a - 1``), which makes splitting a range at any point
exact; for ``n >= a`` it is the plain splitting of a finite sum.  The product's form needs
more: under the same convention a product over a reversed range is the reciprocal of the
product over ``b + 1..a - 1``, so where ``n < a`` and ``f(n) = 0`` the shorter product is
``1/0`` and the peeled form is undefined.  So a product is peeled with the side condition
``n - a >= 0`` (:class:`~symbolic.side_conditions.SideCondition`), which whoever uses the
peeled form must discharge.

:func:`peel` rewrites a link only where it pairs a sum over ``a..n`` with the same sum over
``a..n - 1`` (the induction hypothesis's form): the longer one becomes the shorter one plus
its last term, so that the two sides can meet.  Nothing else changes.
"""

from __future__ import annotations

import sympy as sp

from symbolic.side_conditions import SideCondition

__all__ = ["peel"]

_KINDS: tuple[type[sp.Basic], ...] = (sp.Sum, sp.Product)


def _key(e: sp.Basic) -> tuple[type, sp.Basic, sp.Basic, sp.Basic] | None:
    """(kind, body, index, lower) of a one-index Sum or Product, else None."""
    if not isinstance(e, _KINDS) or len(e.limits) != 1:
        return None
    i, lo, _ = e.limits[0]
    return type(e), e.function, i, lo


def _last_term(e: sp.Basic) -> sp.Expr:
    i, _, hi = e.limits[0]
    return e.function.xreplace({i: hi})


def _shorter(e: sp.Basic) -> sp.Basic:
    i, lo, hi = e.limits[0]
    return type(e)(e.function, (i, lo, hi - 1))


Peeled = tuple[tuple[sp.Expr, ...], tuple[str, ...], tuple[SideCondition, ...]]


def peel(*exprs: sp.Expr) -> Peeled | None:
    """``exprs`` with every sum (product) over ``a..u`` that occurs next to the same sum
    over ``a..u - 1`` in any of them written as that shorter sum plus (times) its last term,
    and a description of each rewrite; None when no such pair occurs.

    >>> i, n = sp.Symbol("i", integer=True), sp.Symbol("n", integer=True)
    >>> (a, b), how, conditions = peel(sp.Sum(i**2, (i, 1, n)), sp.Sum(i**2, (i, 1, n - 1)))
    >>> a
    n**2 + Sum(i**2, (i, 1, n - 1))
    """
    found: list[sp.Basic] = []
    for e in exprs:
        found += [x for x in sp.preorder_traversal(e) if _key(x) is not None]
    present = set(found)
    longer = {}
    for x in found:
        shorter = _shorter(x)
        if shorter in present and x not in longer:
            op = sp.Add if isinstance(x, sp.Sum) else sp.Mul
            longer[x] = op(shorter, _last_term(x))
    if not longer:
        return None
    how = tuple(f"{x} = {peeled}" for x, peeled in longer.items())
    conditions = tuple(
        SideCondition("nonnegative", x.limits[0][2] - x.limits[0][1], "peeling a product")
        for x in longer
        if isinstance(x, sp.Product)
    )
    return tuple(sp.sympify(e).xreplace(longer) for e in exprs), how, conditions
