"""Sums evaluated in one pass over a compiled term: finite ranges by ``mpmath.fsum``,
infinite ranges by direct summation outward from the terms' centre with a tail bound.

``mpmath.nsum`` extrapolates, which is fast for smooth slowly-decaying terms but wrong
for the discrete Gaussian's normaliser: at sigma = 100 it returns ``sum exp(-k^2/2s^2)``
to 12 digits instead of 30, at sigma = 1e4 it is off by a factor of 35.  Terms that decay
at least geometrically are better summed directly: starting at the centre (the stationary
point of the exponent, see :func:`numeric_checks.integrals.analyse`), each side is summed
until its terms fall below ``2**-(prec + 10)`` of the partial sum and the last ratio
``r = |t_{n+1}/t_n| < 1`` bounds the rest by ``|t_{n+1}| r/(1 - r)`` (a geometric tail,
Knopp 1990, Theory and Application of Infinite Series, section 13; valid when the ratios
keep decreasing, as they do for log-concave terms such as Gaussians and exponentials).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import mpmath

from numeric_checks.slow_series import euler_maclaurin
from symbolic.errors import EvaluationError

__all__ = [
    "MAX_TERMS",
    "binomial_walk",
    "product_finite",
    "sum_finite",
    "sum_infinite",
    "sum_range",
]

MAX_TERMS = 200_000
"""Cap on terms per evaluation (a work count): a longer sum is undefined at that point."""
DIRECT_TERMS = 20_000
"""Terms an infinite sum is summed directly before falling back to ``mpmath.nsum``."""
WINDOW_TERMS = 2000
"""Finite sums longer than this are summed over the window carrying their mass."""
SCAN = 256
"""Evenly spaced terms a long finite sum is scanned on (its mode, and the window's check)."""
_SETTLE = 8
"""Consecutive negligible terms required before the tail bound is trusted."""


REFRESH = 32
"""Steps of the binomial recurrence between two direct evaluations (bounds the rounding
it accumulates to about REFRESH units in the last place)."""
_WALK: list[Any] = [None]
"""The last binomial evaluated: (precision, n, k, value, steps since a direct one)."""


def binomial_walk(n: Any, k: Any) -> Any:
    """``binomial(n, k)``, by the recurrence ``C(n, k+1) = C(n, k) (n - k)/(k + 1)`` (Graham,
    Knuth & Patashnik 1994, Concrete Mathematics, eq. 5.6, valid for real ``n``) when the
    previous call had the same ``n`` and precision and a ``k`` one away, as the terms of a
    sum are evaluated: two operations instead of mpmath's gamma products (about 100 us at
    ``n = 10^4``, half the cost of a term of Kairouz et al.'s composition sum).  Any other
    call, a zero value, and every :data:`REFRESH`-th step are evaluated directly."""
    prec = mpmath.mp.prec
    last = _WALK[0]
    if last is not None and last[0] == prec and last[1] == n and last[3] != 0:
        _, _, pk, value, steps = last
        if k == pk:
            return value
        if steps < REFRESH and k == pk + 1 and k != 0:
            value = value * (n - pk) / k
            _WALK[0] = (prec, n, k, value, steps + 1)
            return value
        if steps < REFRESH and k == pk - 1 and n - k != 0:
            value = value * pk / (n - k)
            _WALK[0] = (prec, n, k, value, steps + 1)
            return value
    value = mpmath.binomial(n, k)
    _WALK[0] = (prec, n, k, value, 0)
    return value


def sum_range(a: Any, b: Any) -> Iterator[Any]:
    """The integers a..b as mpmath numbers, refusing sums too long to evaluate."""
    lo, hi = int(mpmath.ceil(a)), int(mpmath.floor(b))
    if hi - lo + 1 > MAX_TERMS:
        raise EvaluationError(f"a Sum of {hi - lo + 1} terms is too long to evaluate directly")
    return (mpmath.mpf(i) for i in range(lo, hi + 1))


def sum_finite(
    term: Callable[[Any], Any], a: Any, b: Any, fallback: Callable[[], Any] | None = None
) -> Any:
    """``sum term(k) for k = a..b`` under :data:`MAX_TERMS`: with one rounding (``fsum``)
    up to :data:`WINDOW_TERMS` terms, beyond that over the window that carries the mass
    (:func:`_windowed`), every term where the window's tail bound does not hold.  A sum too
    long for that takes its value from ``fallback`` (its Arb enclosure, by Euler-Maclaurin
    with a proved remainder: :mod:`numeric_checks.rigorous.values`), or has none."""
    lo, hi = int(mpmath.ceil(a)), int(mpmath.floor(b))
    if hi - lo + 1 > WINDOW_TERMS:
        total = _windowed(term, lo, hi)
        if total is not None:
            return total
    if hi - lo + 1 > MAX_TERMS and fallback is not None:
        try:
            return fallback()
        except mpmath.libmp.NoConvergence:
            pass
    return mpmath.fsum(term(k) for k in sum_range(a, b))


def product_finite(term: Callable[[Any], Any], a: Any, b: Any) -> Any:
    """``prod term(k) for k = a..b`` under :data:`MAX_TERMS` factors (an empty product is 1);
    an infinite or longer product is not evaluated (:class:`EvaluationError`)."""
    return mpmath.fprod(term(k) for k in sum_range(a, b))


def _windowed(term: Callable[[Any], Any], lo: int, hi: int) -> Any | None:
    """A long finite sum from its largest term outward, each side stopped by the geometric
    tail bound of :func:`_side` (the terms of a binomial sum such as Kairouz et al.'s
    optimal composition at k = 10^4 carry their mass within a few hundred terms of the
    mode).  The mode is found on :data:`SCAN` evenly spaced terms, and those terms also
    check the window: if any outside it is not negligible against the total (a second
    bump), None is returned and the caller sums every term."""
    step = max(1, (hi - lo) // SCAN)
    with mpmath.extradps(10):
        scanned = [(k, term(mpmath.mpf(k))) for k in [*range(lo, hi + 1, step), hi]]
        if any(isinstance(t, mpmath.mpc) or not mpmath.isfinite(t) for _, t in scanned):
            return None
        centre, peak = max(scanned, key=lambda kt: abs(kt[1]))
        if peak == 0:
            return None
        try:
            right, n_right = _side(term, centre, 1, hi, mpmath.mpf(0), zeros_settle=True)
            left, n_left = (
                _side(term, centre - 1, -1, lo, right, zeros_settle=True)
                if centre > lo
                else (mpmath.mpf(0), 0)
            )
        except mpmath.libmp.NoConvergence:
            return None  # more than DIRECT_TERMS on a side: every term, as before
        total = left + right
        first, last = centre - n_left, centre + n_right - 1
        eps = mpmath.mpf(2) ** (-mpmath.mp.prec)
        if any(abs(t) > eps * abs(total) for k, t in scanned if not first <= k <= last):
            return None
        return +total


def _side(
    term: Callable[[Any], Any],
    start: int,
    step: int,
    stop: Any,
    scale: Any,
    *,
    zeros_settle: bool = False,
) -> tuple[Any, int]:
    """Sum ``term`` from ``start`` in direction ``step`` until the tail is negligible
    relative to ``scale`` (updated with the partial sums) or ``stop`` is passed.  With
    ``zeros_settle``, a run of exact zeros (a ``Max(0, ...)`` past its kink) counts as
    negligible terms with ratio 0."""
    total, prev, quiet, n = mpmath.mpf(0), None, 0, 0
    eps = mpmath.mpf(2) ** (-mpmath.mp.prec - 10)
    k = start
    while (step > 0 and k <= stop) or (step < 0 and k >= stop):
        t = term(mpmath.mpf(k))
        total += t
        n += 1
        size = abs(t)
        # Relative to the partial sum with no absolute floor: a floor of 2**-(prec + 10)
        # called every term of a sum of total 1e-165 negligible, and stopped after 8 terms.
        ref = abs(scale + total)
        if zeros_settle and size == 0 and prev == 0:
            quiet += 1
            if quiet >= _SETTLE:
                return total, n
        elif prev is not None and prev != 0 and size <= eps * ref:
            r = size / prev
            quiet = quiet + 1 if r < 1 else 0
            if quiet >= _SETTLE and size * r / (1 - r) <= eps * ref:
                return total, n
        else:
            quiet = 0
        if n > DIRECT_TERMS:
            raise mpmath.libmp.NoConvergence(
                f"an infinite Sum needs more than {DIRECT_TERMS} terms here"
            )
        prev = size
        k += step
    return total, n


def sum_infinite(
    term: Callable[[Any], Any],
    a: Any,
    b: Any,
    centre: Any = 0,
    fallback: Callable[[], Any] | None = None,
) -> Any:
    """``sum term(k)`` over the integers in ``[a, b]`` (either end may be infinite), summed
    outward from ``centre`` (see the module docstring for the tail bound).  Where that is too
    costly or does not settle, ``fallback`` (the sum's Arb enclosure, see
    :mod:`numeric_checks.rigorous.values`) gives the value before ``mpmath.nsum``'s
    extrapolation is trusted: the discrete Gaussian at sigma = 10^6 needs 10^7 terms, and
    nsum printed its normaliser as 1819 instead of 2.5e6.

    >>> with mpmath.workdps(30):
    ...     s = mpmath.mpf(100)
    ...     v = sum_infinite(lambda k: mpmath.exp(-k**2 / (2 * s**2)), -mpmath.inf, mpmath.inf)
    ...     print(mpmath.nstr(v / (s * mpmath.sqrt(2 * mpmath.pi)), 25))
    1.0
    """
    lo = -mpmath.inf if mpmath.isinf(a) else mpmath.ceil(a)
    hi = mpmath.inf if mpmath.isinf(b) else mpmath.floor(b)
    if lo > hi:
        return mpmath.mpf(0)
    try:
        c = mpmath.nint(mpmath.mpf(centre))
    except (TypeError, ValueError):
        c = mpmath.mpf(0)
    if not mpmath.isfinite(c):
        c = mpmath.mpf(0)
    c = min(max(c, lo), hi)
    start = int(c)
    if fallback is not None and _wide(term, start, lo, hi):
        # Thousands of terms on a side: the enclosure (Euler-Maclaurin with a proved
        # remainder) is both faster and certain; direct summation only where it fails.
        try:
            return fallback()
        except mpmath.libmp.NoConvergence:
            fallback = None
    try:
        return _summed(term, lo, hi, start)
    except (EvaluationError, mpmath.libmp.NoConvergence) as exc:
        if fallback is not None:
            try:
                return fallback()
            except mpmath.libmp.NoConvergence:
                pass
        if isinstance(exc, _Extrapolate):
            # Terms that decay only polynomially (1/k^2) and no enclosure: Euler-Maclaurin
            # with its error estimate, else mpmath's extrapolation (Richardson/Shanks).
            try:
                return euler_maclaurin(term, lo, hi, start)
            except (EvaluationError, *UNDEFINED) as why:
                del why  # not accurate enough here: the extrapolation has its turn
            with mpmath.extradps(10):
                return +mpmath.nsum(term, [lo, hi])
        raise


UNDEFINED = (ValueError, TypeError, ArithmeticError, mpmath.libmp.NoConvergence)


class _Extrapolate(mpmath.libmp.NoConvergence):
    """The terms do not settle within :data:`DIRECT_TERMS` and never grew to a peak."""


def _summed(term: Callable[[Any], Any], lo: Any, hi: Any, start: int) -> Any:
    # Extra digits: the sides are accumulated one term at a time.
    with mpmath.extradps(10):
        # Summed from the terms' peak, not from a fixed centre: x^k/k! at x = 1000 peaks
        # near k = 1000 and at x = 1e30 near k = 1e30, where no window from 0 reaches.
        peak = _peak(term, start, 1, hi)
        if peak == start and start - 1 >= lo:
            peak = _peak(term, start, -1, lo)
        if peak != start:
            _affordable(term, peak, lo, hi)
        else:
            try:
                _affordable(term, peak, lo, hi)
            except EvaluationError as exc:
                # Terms that fall too slowly from where they start (the discrete Gaussian at
                # sigma = 10^6): 2 x 20 000 terms summed for nothing at every point; the
                # enclosure, or else the extrapolation, decides at once.
                raise _Extrapolate(str(exc)) from exc
        try:
            # A run of exact zeros ends a side (E[max(Z, 0)]: every term left of 0 is 0).
            right, _ = _side(term, peak, 1, hi, mpmath.mpf(0), zeros_settle=True)
            left, _ = (
                _side(term, peak - 1, -1, lo, right, zeros_settle=True)
                if peak - 1 >= lo
                else (0, 0)
            )
            total = left + right
        except mpmath.libmp.NoConvergence as exc:
            if peak != start:
                # Terms that grew to a peak and are still not negligible DIRECT_TERMS away
                # from it: a window too wide to sum (a Poisson mass at 1e30).  Too costly
                # here, so undefined at this point: mpmath.nsum would extrapolate from the
                # rising side and return a wrong value stable across precisions.
                raise EvaluationError(
                    f"an infinite Sum whose terms peak near k = {mpmath.nstr(peak, 3)} is "
                    "too costly to evaluate here"
                ) from exc
            raise _Extrapolate("the terms decay too slowly to sum directly") from exc
        largest = _size(term, peak)
        if peak != start and largest and abs(total) < largest * mpmath.eps * 2**20:
            # exp(-1000) as its series: terms of 1e432 cancel to 5e-435, beyond any
            # working precision; the partial sums' noise is no value.
            raise EvaluationError(
                "the terms of an infinite Sum cancel beyond the working precision here"
            )
        return +total


WIDE_TERMS = 2000
"""A sum whose terms are not negligible this far from where it starts is summed from its
enclosure first (:func:`sum_infinite`)."""


def _wide(term: Callable[[Any], Any], start: int, lo: Any, hi: Any) -> bool:
    """The terms ``WIDE_TERMS`` away from ``start`` are not negligible against the one
    there (or the peak lies far away): summing directly would take thousands of terms."""
    top = _size(term, start)
    if not top:
        return False
    for k in (start + WIDE_TERMS, start - WIDE_TERMS):
        if lo <= k <= hi:
            size = _size(term, k)
            if size is not None and size > top * mpmath.eps:
                return True
    return False


def _affordable(term: Callable[[Any], Any], peak: int, lo: Any, hi: Any) -> None:
    """Refuse, before summing, a peak wider than :data:`DIRECT_TERMS` on either side: the
    terms there must already be negligible against the peak's."""
    top = _size(term, peak)
    if not top:
        return
    for k in (peak + DIRECT_TERMS, peak - DIRECT_TERMS):
        if not lo <= k <= hi:
            continue
        size = _size(term, k)
        if size is not None and size > top * mpmath.eps:
            raise EvaluationError(
                f"an infinite Sum whose terms peak near k = {mpmath.nstr(peak, 3)} is too "
                f"costly to evaluate here (more than {DIRECT_TERMS} terms on a side)"
            )


PEAK_DOUBLINGS = 400
"""How far the peak of a sum's terms is looked for: up to 2^400 terms from the start."""


def _size(term: Callable[[Any], Any], k: Any) -> Any:
    """``|term(k)|``, or None where it is not a finite real number."""
    try:
        t = term(mpmath.mpf(k))
    except (ArithmeticError, ValueError, TypeError):
        return None
    if isinstance(t, mpmath.mpc) or not mpmath.isfinite(t):
        return None
    return abs(t)


def _peak(term: Callable[[Any], Any], start: int, step: int, stop: Any) -> int:
    """Where ``|term|`` stops growing going from ``start`` in direction ``step`` (at most
    ``stop``): the ratio ``|t(k+1)/t(k)|`` is followed by doubling the distance while it
    exceeds 1, then bisected (the terms' log-derivative changes sign once for the
    log-concave terms this is for: Poisson, exponential and binomial series).  ``start``
    when the terms do not grow there, or when any term on the way is undefined."""

    def growing(k: int) -> bool | None:
        a, b = _size(term, k), _size(term, k + step)
        if a is None or b is None:
            return None
        return bool(b > a)

    if growing(start) is not True:
        return start
    near, far, reach = start, start, 1
    for _ in range(PEAK_DOUBLINGS):
        far = start + step * reach
        if (step > 0 and far >= stop) or (step < 0 and far <= stop):
            far = int(stop)
            break
        g = growing(far)
        if g is None:
            return start
        if not g:
            break
        near, reach = far, 2 * reach
    else:
        return start
    while abs(far - near) > 1:
        mid = (near + far) // 2
        g = growing(mid)
        if g is None:
            return start
        if g:
            near = mid
        else:
            far = mid
    return far
