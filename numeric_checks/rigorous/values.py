"""Values for sampling from enclosures: a sum or an integral that mpmath cannot evaluate
reliably at a point gets its value from its Arb ball instead, or none.

Sampling (:mod:`numeric_checks.bridge`) evaluates sums and integrals with mpmath: tanh-sinh
quadrature and direct summation, fast but with error estimates, not bounds.  Where they give
up (a quadrature that does not converge at a nested kink, a sum whose mass spreads over
millions of terms) they used to fall back on extrapolation (``mpmath.nsum``), which printed
a discrete Gaussian normaliser at sigma = 10^6 as 1819 where both sides were near 2.5e6.
Here the node is enclosed by :mod:`numeric_checks.rigorous` at the point, at the working
precision plus guard bits, and its midpoint is the value only when the ball is narrow enough
that every digit the decision uses is certain; otherwise the point is undefined
(:class:`mpmath.libmp.NoConvergence`), never a precise-looking wrong number.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mpmath
import sympy as sp

from symbolic.binary_rationals import binary_parts
from symbolic.errors import Unsupported

__all__ = [
    "GUARD_BITS",
    "enclosed_value",
    "forget_refusals",
    "nested_kinks",
    "or_enclosed",
    "register",
]

GUARD_BITS = 32
"""Bits above mpmath's working precision at which the node is enclosed."""
SAMPLING_EVAL_LIMIT = 5000
"""Integrand evaluations per quadrature piece for a sampled value (a work count): a point
where the enclosure needs more is undefined, as it was when mpmath gave up there."""

MAX_REFUSALS = 3
"""Points at which a node's enclosure may fail before sampling stops asking for it (a tail
with no envelope has none at the next point either, and each refusal can cost seconds); the
count is per link (:func:`forget_refusals`), so one claim's refusals never reach another's."""

_NODES: list[tuple[sp.Expr, tuple[sp.Symbol, ...]]] = []
_REFUSALS: dict[int, int] = {}
_INDEX: dict[tuple[sp.Expr, tuple[sp.Symbol, ...]], int] = {}


def register(node: sp.Expr, free: tuple[sp.Symbol, ...]) -> int:
    """A key for ``node`` with its free symbols in the order their values will come."""
    entry = (node, free)
    if entry not in _INDEX:
        _INDEX[entry] = len(_NODES)
        _NODES.append(entry)
    return _INDEX[entry]


def forget_refusals() -> None:
    """Start counting refusals afresh (at the start of each link's check): a point left
    undefined by another check's refusals would make verdicts depend on what ran before."""
    _REFUSALS.clear()


def enclosed_value(key: int, values: tuple[Any, ...]) -> Any:
    """The node ``key`` at ``values`` (mpmath numbers) as an mpmath number whose every digit
    at the working precision is certain; raises ``NoConvergence`` where it is not shown."""
    from flint import arb

    from numeric_checks.arb import exact_ball, precision
    from numeric_checks.rigorous.calculus import compile_calculus
    from numeric_checks.rigorous.quadrature import GOAL_BITS, POINT_EVAL_LIMIT

    node, free = _NODES[key]
    if _REFUSALS.get(key, 0) >= MAX_REFUSALS:
        raise mpmath.libmp.NoConvergence("no enclosure of this node at the points before")
    prec = mpmath.mp.prec
    # Quadratures and Euler-Maclaurin aim at every bit asked for, not at half of them.
    saved = GOAL_BITS[0], POINT_EVAL_LIMIT[0]
    GOAL_BITS[0], POINT_EVAL_LIMIT[0] = prec + 8, SAMPLING_EVAL_LIMIT
    try:
        with precision(prec + GUARD_BITS):
            balls = [exact_ball(mpmath.mpf(v)) for v in values]
            ball = compile_calculus(free, (node,))(*balls)[0]
            mid = ball.mid()
            narrow = ball.rad() <= abs(mid) * arb(2) ** (-prec + 4) or ball.rad() == 0
    except (Unsupported, ArithmeticError, ValueError, TypeError) as exc:
        _REFUSALS[key] = _REFUSALS.get(key, 0) + 1
        raise mpmath.libmp.NoConvergence(f"no enclosure: {exc}") from exc
    finally:
        GOAL_BITS[0], POINT_EVAL_LIMIT[0] = saved
    if not ball.is_finite() or not narrow:
        raise mpmath.libmp.NoConvergence("the enclosure is too wide to give a value")
    return mpmath.mpf(binary_parts(mid))


def or_enclosed(compute: Callable[[], Any], fallback: Callable[[], Any]) -> Any:
    """``compute()`` (an mpmath quadrature), or where it does not converge ``fallback()``
    (the node's :func:`enclosed_value`)."""
    try:
        return compute()
    except mpmath.libmp.NoConvergence:
        return fallback()


FAR = 2.0**40
"""Where an infinite integration range is cut for the search for nested kinks."""


def nested_kinks(key: int, values: tuple[Any, ...], a: Any, b: Any) -> list[Any]:
    """Breakpoints for mpmath's quadrature of the integral ``key`` at ``values``: the zeros
    of kinks inside kinks (:func:`~numeric_checks.rigorous.kinks.numeric_kinks`) at the
    working precision, which the symbolic analysis misses and without which tanh-sinh does
    not converge (the Laplace privacy profile written with ``Abs``).  Empty where there are
    none."""
    from numeric_checks.arb import exact_ball, precision
    from numeric_checks.rigorous.kinks import has_nested_kinks, numeric_kinks

    node, free = _NODES[key]
    if not isinstance(node, sp.Integral) or len(node.limits) != 1:
        return []
    x, _, _ = node.limits[0]
    if not has_nested_kinks(node.function, x):
        return []
    params = tuple(s for s in free if s != x)
    with precision(mpmath.mp.prec + 16):
        mids = [exact_ball(mpmath.mpf(v)) for s, v in zip(free, values, strict=True) if s != x]
        lo = max(float(a), -FAR) if mpmath.isfinite(a) or a < 0 else FAR
        hi = min(float(b), FAR) if mpmath.isfinite(b) or b > 0 else -FAR
        roots = numeric_kinks(node.function, x, params, mids, lo, hi, [0.0])
        out = []
        for r in roots:
            out.append(mpmath.mpf(binary_parts(r)))
    return out
