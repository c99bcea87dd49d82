"""Arb quadrature of a definite integral at a point: the entry point confirmation has used
since issue 23, now a thin face over :mod:`numeric_checks.rigorous.quadrature` (which
encloses an integral for every parameter in a box, with kinks resolved and tails bounded by
proved envelopes)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sympy as sp

from numeric_checks.rigorous.quadrature import integral_ball as _integral_ball

__all__ = ["integral_ball"]


def integral_ball(
    node: sp.Integral,
    symbols: Sequence[sp.Symbol],
    balls: Sequence[Any],
    exact: dict[sp.Symbol, sp.Rational] | None = None,
) -> tuple[Any, str]:
    """The Arb ball of ``node`` at the point (``balls`` the values of ``symbols``; ``exact``,
    the same point as rationals, is no longer needed), at the current Arb precision, and how
    it was obtained.  Raises :class:`~symbolic.errors.Unsupported` where no rigorous
    enclosure is known."""
    return _integral_ball(node, symbols, balls)
