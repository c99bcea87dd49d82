"""mpmath helpers shared by the engine and the DP library: the inverse normal CDF,
quadrature to relative accuracy and breakpoints for tails.  No SymPy here: these are
numbers only, at the caller's precision (the quantile's Newton steps evaluate Phi in Arb)."""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Callable, Sequence
from typing import Any

import mpmath
from flint import arb

from numeric_checks.mp_arb import arb_precision, from_mpf, to_mpf
from symbolic.errors import EvaluationError

__all__ = ["integration_points", "phi_inv", "quad_affine", "quad_pieces", "quad_relative"]


def phi_inv(p: Any) -> Any:
    """Inverse standard normal CDF at the current mpmath precision.

    Solved by Newton's method on ``log Phi`` so that tiny ``p`` (1e-300) keep full relative
    accuracy, which ``sqrt(2)*erfinv(2p-1)`` loses to the cancellation in ``2p - 1``.

    >>> with mpmath.workdps(30):
    ...     print(mpmath.nstr(phi_inv(mpmath.mpf("0.975")), 12))
    1.95996398454
    """
    p = mpmath.mpf(p)
    if not 0 < p < 1:
        if p == 0:
            return -mpmath.inf
        if p == 1:
            return mpmath.inf
        raise EvaluationError(f"PhiInv needs 0 <= p <= 1, got p={p}")
    if p > 0.5:
        return -phi_inv(1 - p)
    with mpmath.extradps(10):
        # Start from a double-precision quantile (fine away from 0) or the tail asymptotic.
        if p > mpmath.mpf("1e-10"):
            # a 16-digit start (Wichura's AS241 in the standard library): Newton doubles the
            # digits per step, where a full-precision erfinv is a root-finding of its own
            x = mpmath.mpf(statistics.NormalDist().inv_cdf(float(p)))
        else:
            t = mpmath.sqrt(-2 * mpmath.log(p))
            x = -(t - (mpmath.log(t) + mpmath.log(2 * mpmath.pi) / 2) / t)
        # Phi, phi and log in Arb (C; mpmath's ncdf at 60 digits is ~120 us, Arb's erfc a
        # fifth of it), the iteration and its stopping rule in mpmath as before.
        bits = mpmath.mp.prec + 10
        with arb_precision(bits):
            logp = from_mpf(p).log()
            root2, norm = arb(2).sqrt(), 1 / (2 * arb.pi()).sqrt()
        for _ in range(200):
            with arb_precision(bits):
                xa = from_mpf(x)
                cdf = (-xa / root2).erfc() / 2
                # d/dx log Phi(x) = pdf/cdf
                step = to_mpf((cdf.log() - logp) * cdf / (norm * (-(xa**2) / 2).exp()))
            x -= step
            if abs(step) <= abs(x) * mpmath.mpf(2) ** (-mpmath.mp.prec + 4) + mpmath.mpf(2) ** (
                -mpmath.mp.prec
            ):
                break
    return +x


_STANDARD = [mpmath.mpf(-1), mpmath.mpf(1)]


def quad_pieces(f: Callable[[Any], Any], points: Sequence[Any], weight: Any = None) -> Any:
    """``mpmath.quad(f, points)`` (times ``weight``, if given), through :func:`quad_affine`.

    >>> with mpmath.workdps(30):
    ...     print(mpmath.nstr(quad_pieces(mpmath.exp, [0, 1, mpmath.mpf(2)]), 25))
    6.389056098930650227230427
    """
    one = mpmath.mpf(1)
    return quad_affine(f, points, mpmath.mpf(0), one, one if weight is None else weight)[0]


def quad_affine(
    f: Callable[[Any], Any],
    points: Sequence[Any],
    shift: Any,
    stretch: Any,
    weight: Any,
    maxdegree: int | None = None,
) -> tuple[Any, Any]:
    """The integral over ``points`` of ``u -> weight * f(shift + stretch * u)`` and mpmath's
    (absolute) error estimate, summed over the sub-intervals.  Each finite sub-interval is
    mapped onto ``[-1, 1]`` by the integrand itself (folded into the shift, stretch and
    weight, in the 20 extra bits ``quad`` works with), so mpmath uses its standard
    tanh-sinh nodes as they are, where it would otherwise transform every node for every new
    interval (as costly as the integrand).  Per sub-interval, the rule, degree cap and
    stopping test are those of one ``quad`` over all of them."""
    total, error = mpmath.mpf(0), mpmath.mpf(0)
    for lo, hi in itertools.pairwise(points):
        lo, hi = mpmath.mpf(lo), mpmath.mpf(hi)
        if lo == hi:
            continue
        if mpmath.isinf(lo) or mpmath.isinf(hi):
            h, ends = _mapped(f, shift, stretch, weight), [lo, hi]
        else:
            with mpmath.workprec(mpmath.mp.prec + 20):
                half, mid = (hi - lo) / 2, (hi + lo) / 2
                a, b, m = shift + stretch * mid, stretch * half, weight * half
            h, ends = _mapped(f, a, b, m), _STANDARD
        value, err = mpmath.quad(h, ends, error=True, maxdegree=maxdegree)
        total += value
        error += err
    return total, error


def _mapped(f: Callable[[Any], Any], a: Any, b: Any, m: Any) -> Callable[[Any], Any]:
    return lambda t: m * f(a + b * t)


def quad_relative(f: Callable[[Any], Any], points: Sequence[Any]) -> Any:
    """``mpmath.quad`` to relative, not absolute, accuracy.

    mpmath stops when its error estimate falls below 10**-dps in absolute terms, so an
    integrand of size 1e-86 "converges" at once with about 7 correct digits.  A first pass
    gives the magnitude; the second integrates the integrand divided by it.

    >>> with mpmath.workdps(30):
    ...     v = quad_relative(lambda x: mpmath.exp(-x) * mpmath.mpf(10)**-80, [0, mpmath.inf])
    ...     print(mpmath.nstr(v * mpmath.mpf(10)**80, 25))
    1.0
    """
    rough = quad_pieces(f, points)
    if isinstance(rough, mpmath.mpc):
        return rough
    scale = abs(rough)
    if scale == 0 or not mpmath.isfinite(scale):
        return rough
    return quad_pieces(f, points, 1 / scale) * scale


def integration_points(a: Any, b: Any) -> list[Any]:
    """Breakpoints for a compiled Integral: a semi-infinite range gets points at geometric
    distances from its finite end, starting at the end's natural scale 1/|a| (a Gaussian tail
    from x* = 5e4 decays on 2e-5), so that quadrature resolves tails far from the origin."""
    a, b = mpmath.mpf(a), mpmath.mpf(b)
    if mpmath.isinf(b) and not mpmath.isinf(a):
        s = 1 / max(mpmath.mpf(1), abs(a))
        return [a, *[a + s * 4**j for j in range(8)], b]
    if mpmath.isinf(a) and not mpmath.isinf(b):
        s = 1 / max(mpmath.mpf(1), abs(b))
        return [a, *[b - s * 4**j for j in reversed(range(8))], b]
    if mpmath.isinf(a) and mpmath.isinf(b):
        return [a, mpmath.mpf(-1), mpmath.mpf(0), mpmath.mpf(1), b]
    return [a, b]
