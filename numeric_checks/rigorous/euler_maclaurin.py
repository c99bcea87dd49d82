"""Long sums of smooth terms by the Euler-Maclaurin formula with a proved remainder.

For ``f`` with ``2p`` continuous derivatives on ``[a, b]`` (integers ``a < b``), DLMF 2.10.1
with the last correction kept in the sum:

    sum_{k=a}^{b} f(k) = int_a^b f + (f(a) + f(b))/2
                         + sum_{j=1}^{p} B_{2j}/(2j)! (f^(2j-1)(b) - f^(2j-1)(a)) + R,
    R = -int_a^b B~_{2p}(x)/(2p)! f^(2p)(x) dx,

and ``|B~_{2p}(x)| <= |B_{2p}|`` (DLMF 24.9.1), so ``|R| <= |B_{2p}|/(2p)! int_a^b
|f^(2p)|``.  The last integral is bounded piece by piece, ``|J| sup_J |f^(2p)|``, with the
supremum from one Taylor evaluation on the ball ``J``
(:mod:`~numeric_checks.rigorous.taylor`); a piece whose share is too large is halved.  With
``c_j = f^(j)/j!`` the corrections are ``B_{2j}/(2j) (c_{2j-1}(b) - c_{2j-1}(a))`` and the
bound ``|B_{2p}| sum_J |J| sup_J |c_{2p}|``.

This is what makes a slowly varying summand (the discrete Gaussian at sigma = 10^6, whose
mass spreads over 10^7 terms) cost a few hundred ball evaluations instead of 10^7: the
corrections shrink like ``(2 pi sigma)^(-2j)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flint import arb, fmpq

from numeric_checks.rigorous.taylor import NotSmooth, TaylorFn

__all__ = ["ORDER", "euler_maclaurin"]

ORDER = 6
"""``p``: corrections up to the 11th derivative, remainder in the 12th; then 12 and 24 where
that remainder is too large (a precision the decision asks for beyond what order 6 gives
at this scale)."""
MAX_PIECES = 1024
"""Pieces the remainder's integral may be cut into (a work count)."""
CHEAP_PIECES = 64
"""The same for an attempt whose caller has a fallback."""


def euler_maclaurin(
    taylor: TaylorFn,
    integral: Callable[[int, int], Any],
    a: int,
    b: int,
    params: tuple[Any, ...],
    tolerance: Any,
    order: int = ORDER,
    *,
    cheap: bool = False,
) -> Any | None:
    """``sum_{k=a}^{b} f(k)`` as a ball, or None where the remainder is not shown below
    ``tolerance`` within :data:`MAX_PIECES` pieces (a kink inside, or too few derivatives
    small enough).  ``integral(a, b)`` encloses ``int_a^b f``; ``taylor`` is ``f``'s
    :data:`~numeric_checks.rigorous.taylor.TaylorFn`.  ``cheap``: one order and
    :data:`CHEAP_PIECES` pieces (the caller can sum the terms one by one instead)."""
    orders = (order,) if cheap else (order, 2 * order, 4 * order)
    for p in orders:
        try:
            at_a = taylor(arb(a), 2 * p - 1, *params)
            at_b = taylor(arb(b), 2 * p - 1, *params)
            limit = CHEAP_PIECES if cheap else MAX_PIECES
            remainder = _remainder(taylor, a, b, params, p, tolerance, limit)
        except NotSmooth:
            return None
        if remainder is not None and remainder <= tolerance:
            break
    else:
        return None  # no order brings the remainder below the tolerance
    total = integral(a, b) + (at_a[0] + at_b[0]) / 2
    for j in range(1, p + 1):
        bern = fmpq.bernoulli(2 * j)
        total += arb(bern.p) / (arb(bern.q) * 2 * j) * (at_b[2 * j - 1] - at_a[2 * j - 1])
    return total + arb(0).union(remainder).union(-remainder)


def _remainder(
    taylor: TaylorFn,
    a: int,
    b: int,
    params: tuple[Any, ...],
    p: int,
    tolerance: Any,
    limit: int = 1024,
) -> Any | None:
    """``|B_{2p}| sum_J |J| sup_J |c_{2p}|`` over pieces ``J`` of ``[a, b]``, each halved
    until its share of ``tolerance`` (proportional to its length) is met."""
    bern = fmpq.bernoulli(2 * p)
    weight = abs(arb(bern.p) / bern.q)
    total = arb(0)
    stack = [(a, b)]
    pieces = 0
    span = b - a
    while stack:
        lo, hi = stack.pop()
        pieces += 1
        if pieces > limit:
            return None
        ball = arb(lo).union(arb(hi))
        try:
            c = taylor(ball, 2 * p, *params)[2 * p]
            share = weight * abs(c).upper() * (hi - lo)
        except NotSmooth:
            share = None
        if share is not None and share.is_finite() and share <= tolerance * (hi - lo) / span:
            total += share
            continue
        if hi - lo < 2:
            if share is None or not share.is_finite():
                return None
            total += share  # cannot be split further: take it as it is
            continue
        mid = (lo + hi) // 2
        stack += [(lo, mid), (mid, hi)]
    return total
