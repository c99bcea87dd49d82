"""Expressions kept unevaluated so that a chain shows the step the book writes.

SymPy evaluates on construction: ``(e^-a/(2b)) / (e^-c/(2b))`` cancels the ``1/(2b)`` at once
and ``(a1/b1)(a2/b2)`` flattens, so the intermediate lines of a proof would vanish.  Checking
is unaffected: the checker substitutes definitions, which evaluates these forms again.
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy as sp


def frac(num: sp.Expr, den: sp.Expr) -> sp.Expr:
    """``num/den`` as written.

    >>> a, b = sp.symbols("a b", positive=True)
    >>> frac(2 * a, 2 * b)
    (2*a)/((2*b))
    """
    return sp.Mul(num, sp.Pow(den, -1, evaluate=False), evaluate=False)


def product(*factors: sp.Expr) -> sp.Expr:
    """The product of ``factors`` as written (no flattening, no combining of powers)."""
    return sp.Mul(*factors, evaluate=False)


def ratios(nums: Sequence[sp.Expr], dens: Sequence[sp.Expr]) -> sp.Expr:
    """``(n_1/d_1)(n_2/d_2)...``: one ratio per mechanism."""
    return product(*[frac(n, d) for n, d in zip(nums, dens, strict=True)])
