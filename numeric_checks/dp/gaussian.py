"""Gaussian differential privacy, numerically (Dong, Roth & Su, arXiv:1905.02383v3).

* ``tradeoff_gaussian``: G_mu(alpha) = Phi(Phi^{-1}(1 - alpha) - mu), the trade-off function
  of N(0, 1) against N(mu, 1).
* ``tradeoff_eps_delta``: f_{eps,delta}(alpha) = max{0, 1 - delta - e^eps alpha,
  e^-eps (1 - delta - alpha)}.
* ``profile_by_loss``: delta(eps) of mu-GDP from the privacy-loss distribution: the loss
  L = mu X - mu^2/2 under X ~ N(mu, 1) is N(mu^2/2, mu^2), and
  delta(eps) = E[(1 - e^(eps - L))_+] (a quadrature in the loss variable).
* ``profile_by_loss_law``: the same expectation in closed form, through the loss law's
  moment generating function (no quadrature).
* ``profile_by_hockey_stick``: the hockey-stick divergence of N(mu, 1) and N(0, 1) by
  quadrature in x, split at the likelihood-ratio threshold x* = eps/mu + mu/2 (without the
  breakpoint quadrature keeps about 5 digits).
* ``profile_closed_form``: Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (Corollary 2.13).
* ``exact_sigma``: the smallest sigma that makes x + N(0, sigma^2) (eps, delta)-DP.  The
  classical sigma of Dwork & Roth Theorem A.1 it is compared with is a stated formula: it
  lives in :mod:`derivations.gaussian_mechanism`.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from typing import Any

import mpmath

from numeric_checks.mp import phi_inv, quad_pieces, quad_relative
from numeric_checks.mp_arb import arb_precision, from_mpf, to_mpf
from numeric_checks.validate import check_alpha, check_eps_delta, check_mu
from symbolic.errors import InvalidInput


def tradeoff_gaussian(mu: Any, alpha: Any) -> Any:
    m, a = check_mu(mu), check_alpha(alpha)
    if a == 0:
        return mpmath.mpf(1)
    if a == 1:
        return mpmath.mpf(0)
    return +_tradeoff_gaussian(m, a, mpmath.mp.prec)


@functools.lru_cache(maxsize=8192)
def _tradeoff_gaussian(m: Any, a: Any, prec: int) -> Any:
    """G_mu(alpha) per (mu, alpha, precision): tables and spot checks ask for the same
    values again (clt_table: G_1 at 1001 alphas for each of six n), and the quantile is a
    Newton solve."""
    with mpmath.workprec(prec):
        return mpmath.ncdf(phi_inv(1 - a) - m)


def tradeoff_eps_delta(eps: Any, delta: Any, alpha: Any) -> Any:
    e, d, a = mpmath.mpf(eps), mpmath.mpf(delta), check_alpha(alpha)
    if e < 0 or not 0 <= d <= 1:
        raise InvalidInput(f"need eps >= 0 and delta in [0, 1], got eps={eps}, delta={delta}")
    return max(mpmath.mpf(0), 1 - d - mpmath.exp(e) * a, mpmath.exp(-e) * (1 - d - a))


def _tail_points(start: Any, scale: Any) -> list[Any]:
    """Breakpoints resolving a tail that decays on ``scale`` from ``start``."""
    return [start + k * scale for k in (0, 1, 4, 16, 64)] + [mpmath.inf]


GUARD = 20  # near the threshold the two terms of each integrand agree to ~log10(1/(mu x*)) digits
HOCKEY_GUARD = 5  # hockey_stick_normals: nothing cancels in its integrand


def _read(mu: Any, eps: Any) -> tuple[Any, Any, int]:
    """``mu`` (checked) and ``eps`` read with the guard digits (a decimal string is read with
    them too), and the caller's precision: the key of a cached profile."""
    prec = mpmath.mp.prec
    with mpmath.extradps(GUARD):
        return check_mu(mu), mpmath.mpf(eps), prec


def profile_by_loss(mu: Any, eps: Any) -> Any:
    return +_profile_by_loss_cached(*_read(mu, eps))


@functools.lru_cache(maxsize=4096)
def _profile_by_loss_cached(m: Any, e: Any, prec: int) -> Any:
    """One quadrature per (mu, eps, precision): a step and the conclusion that both contain
    delta(eps) are spot-checked at the same points."""
    with mpmath.workprec(prec), mpmath.extradps(GUARD):
        return _profile_by_loss(m, e)


def profile_by_loss_law(mu: Any, eps: Any) -> Any:
    """delta(eps) of mu-GDP from the law of the privacy loss, in closed form: for
    L ~ N(a, s^2) (here a = mu^2/2, s = mu, Dong, Roth & Su Sec. 2.2),
    E[(1 - e^(eps - L))_+] = P[L > eps] - e^eps E[e^-L 1{L > eps}], and completing the square
    gives E[e^-L 1{L > eps}] = e^(-a + s^2/2) Phi((a - s^2 - eps)/s) (the partial expectation
    of a lognormal; Balle & Wang 2018, Theorem 8).  Exact and cheap (no quadrature); the
    two terms cancel for small mu, so the digits lost are measured and the terms recomputed
    with that many more, as in :func:`profile_closed_form`."""
    return +_profile_by_loss_law(*_read(mu, eps))


@functools.lru_cache(maxsize=4096)
def _profile_by_loss_law(m: Any, e: Any, prec: int) -> Any:
    with mpmath.workprec(prec):

        def terms() -> tuple[Any, Any]:
            a, s = m**2 / 2, m  # the loss law N(mu^2/2, mu^2), at the raised precision
            tail = mpmath.ncdf((a - e) / s)
            return tail, mpmath.exp(e - a + s**2 / 2) * mpmath.ncdf((a - s**2 - e) / s)

        return cancelling_difference(terms)


def profile_by_hockey_stick(mu: Any, eps: Any) -> Any:
    with mpmath.extradps(GUARD):
        return +_profile_by_hockey_stick(check_mu(mu), mpmath.mpf(eps))


def _midpoint_sum(f: Callable[[Any], Any], points: list[Any]) -> Any:
    """|f| at the midpoint of each finite piece times its width, summed, at 15 digits: the
    breakpoints resolve the integrand's scales, so this lands within a small factor of the
    integral of a positive integrand, for about ten evaluations."""
    with mpmath.workdps(15):
        total = mpmath.mpf(0)
        for lo, hi in itertools.pairwise(points):
            if mpmath.isfinite(lo) and mpmath.isfinite(hi):
                total += abs(f((lo + hi) / 2)) * (hi - lo)
        return total


def quad_scaled(f: Callable[[Any], Any], points: list[Any]) -> Any:
    """Quadrature to relative accuracy at the cost of about one full-precision pass:
    mpmath's error target is absolute, so the integrand is first scaled by its integral's
    magnitude, estimated by a midpoint sum over the breakpoints (a 15-digit quadrature
    cost a quarter of the whole; ``quad_relative`` spends a second pass at full precision
    on it).  Where the estimate is off by more than a factor of 10 the integral is done
    again, scaled by the accurate value."""
    scale = _midpoint_sum(f, points)
    if scale == 0 or not mpmath.isfinite(scale):
        return quad_relative(f, points)
    value = quad_pieces(f, points, 1 / scale) * scale
    if not mpmath.mpf("0.1") <= abs(value) / scale <= 10:
        # the cheap pass misjudged a sharp peak: scale again by the accurate value
        value = quad_relative(f, points)
    return value


def _profile_by_loss(m: Any, e: Any) -> Any:
    mean, sd = m**2 / 2, m

    def integrand(loss: Any) -> Any:
        return -mpmath.expm1(e - loss) * mpmath.npdf(loss, mean, sd)

    # Past eps the density falls off on the scale sd^2/(eps - mean) (or sd near the mode).
    gap = e - mean
    scale = sd if gap <= sd else min(sd, sd**2 / gap)
    pts = _tail_points(e, scale)
    if gap < 0:
        pts = [*sorted([e, mean, mean + sd, mean + 4 * sd, mean + 16 * sd]), mpmath.inf]
    return quad_scaled(integrand, pts)


def _profile_by_hockey_stick(m: Any, e: Any) -> Any:
    x_star = e / m + m / 2
    weight = mpmath.exp(e)

    def gap(x: Any) -> Any:
        return mpmath.npdf(x, m, 1) - weight * mpmath.npdf(x)

    return quad_scaled(gap, _gap_points(x_star, m, 1))


def _gap_points(x_star: Any, shift: Any, sd: Any) -> list[Any]:
    """Breakpoints for the density gap of N(shift, sd^2) over e^eps N(0, sd^2), positive
    beyond x*: past the mode the gap decays on sd^2/x*, before it on sd."""
    if x_star < shift:
        return [*sorted({x_star, shift, shift + sd, shift + 4 * sd, shift + 16 * sd}), mpmath.inf]
    return _tail_points(x_star, sd if x_star < sd else sd**2 / x_star)


def shift_tradeoff_normal(gap: Any, sigma: Any, alpha: Any) -> Any:
    """T(N(0, sigma^2), N(gap, sigma^2))(alpha) in the mechanism's own units: the best test
    rejects x > sigma Phi^{-1}(1 - alpha) (the likelihood ratio increases in x), and beta is
    the N(gap, sigma^2) mass below that threshold."""
    g, s, a = mpmath.mpf(gap), mpmath.mpf(sigma), check_alpha(alpha)
    if not (g >= 0 and s > 0):
        raise InvalidInput(f"need gap >= 0 and sigma > 0, got gap={gap}, sigma={sigma}")
    if a == 0:
        return mpmath.mpf(1)
    if a == 1:
        return mpmath.mpf(0)
    return mpmath.ncdf(s * phi_inv(1 - a), g, s)


def hockey_stick_normals(shift: Any, sigma: Any, eps: Any) -> Any:
    """sup_S Pr[N(shift, sigma^2) in S] - e^eps Pr[N(0, sigma^2) in S], by quadrature in the
    mechanism's own units: the density gap is positive beyond the point where the log
    likelihood ratio reaches eps, found by root-finding on the two log densities (no
    standardisation, no closed form).

    The gap p - e^eps q (p, q the densities of N(shift, sigma^2), N(0, sigma^2)) is
    integrated as p (1 - e^-(log(p/q) - eps)) over u = x - x* >= 0, with both exponents
    expanded about x*: log(p/q) = shift (2x - shift)/(2 sigma^2) is affine in x, so
    log(p/q) - eps = r* + shift u/sigma^2 (r* the root's residual), and
    log p(x* + u) = log p(x*) - ((x* - shift) u + u^2/2)/sigma^2.  Nothing cancels then
    (p - e^eps q loses up to log10(eps/mu^2) digits near x*, and forming x* + u loses all
    the digits of u when x*/u ~ 1e24, as at mu ~ 1e-12), so a small guard suffices, plus
    the digits of the exponent (x* - shift)^2/(2 sigma^2) of p(x*): its absolute error is
    the relative error of the result."""
    d, s, e = mpmath.mpf(shift), mpmath.mpf(sigma), mpmath.mpf(eps)
    if not (d > 0 and s > 0 and e >= 0):
        raise InvalidInput(f"need shift > 0, sigma > 0, eps >= 0, got {shift}, {sigma}, {eps}")

    def excess(x: Any) -> Any:
        """log p(x)/q(x) - eps."""
        return d * (2 * x - d) / (2 * s**2) - e

    with mpmath.workdps(15):
        rough = mpmath.findroot(excess, (d / 2 - s, d / 2 + s), solver="secant")
        exponent_digits = int(mpmath.log10(1 + ((rough - d) / s) ** 2))
    with mpmath.extradps(HOCKEY_GUARD + exponent_digits):
        x_star = mpmath.findroot(excess, (rough - s, rough + s), solver="secant")
        r_star, slope = excess(x_star), d / s**2
        p_star, drift = mpmath.npdf(x_star, d, s), x_star - d
        # The integrand runs in Arb (C), the quadrature stays mpmath's: the same sums, at
        # about a third of the cost (an mpmath exp at 40 digits is ~14 us, Arb's ~1 us).
        bits = mpmath.mp.prec + 10
        with arb_precision(bits):
            p_a, r_a, slope_a = from_mpf(p_star), from_mpf(r_star), from_mpf(slope)
            drift_a, var_a = from_mpf(drift), from_mpf(s) ** 2

        def gap(u: Any) -> Any:
            with arb_precision(bits):
                v = from_mpf(u)
                density = p_a * (-(drift_a + v / 2) * v / var_a).exp()
                return to_mpf(-density * (-(r_a + slope_a * v)).expm1())

        return +quad_scaled(gap, [p - x_star for p in _gap_points(x_star, d, s)])


def profile_closed_form(mu: Any, eps: Any) -> Any:
    """Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (Corollary 2.13) to the working
    precision *relative to the result*: the two terms cancel (by 1e4667000 at mu ~ 1e-3,
    eps ~ 10^2, where both are ~1e-4667052), so the digits lost to the difference are
    measured and the terms recomputed with that many more (the inputs are exact numbers)."""
    m, e = check_mu(mu), mpmath.mpf(eps)
    return cancelling_difference(
        lambda: (mpmath.ncdf(-e / m + m / 2), mpmath.exp(e) * mpmath.ncdf(-e / m - m / 2))
    )


def cancelling_difference(terms: Callable[[], tuple[Any, Any]]) -> Any:
    """``first - second`` from ``terms()``, to the working precision relative to the result:
    the digits the difference loses are measured and the terms recomputed with that many
    more (``terms`` must compute from exact inputs, so more digits mean a truer result)."""
    extra = 10
    for _ in range(8):
        with mpmath.extradps(extra):
            first, second = terms()
            diff = first - second
            lost = mpmath.log10(abs(first) / abs(diff)) if diff != 0 else mpmath.inf
        if lost + 5 < extra:
            break
        extra = int(min(lost, 4 * extra)) + 15 if mpmath.isfinite(lost) else 4 * extra
    return +diff


def profile_ball(mu: Any, eps: Any, bits: int = 180) -> Any:
    """delta(eps) of mu-GDP (Corollary 2.13) as a rigorous Arb ball (python-flint): its
    radius bounds the error, so the digits it reports are guaranteed (about 45 at 180 bits
    over mu in [0.05, 10], eps in [0, 10]; 1.24e-352 at mu = 0.05, eps = 2, where doubles
    give 0).  mu and eps are read as decimals (strings keep them exact)."""
    from flint import arb, ctx

    check_mu(mu)
    old = ctx.prec
    ctx.prec = bits
    try:
        m, e = arb(str(mu)), arb(str(eps))
        root2 = arb(2).sqrt()
        # Phi(x) = erfc(-x/sqrt 2)/2
        upper = ((e / m - m / 2) / root2).erfc() / 2
        lower = ((e / m + m / 2) / root2).erfc() / 2
        return upper - e.exp() * lower
    finally:
        ctx.prec = old


def envelope(mu: Any, alpha: Any) -> Any:
    """sup over eps >= 0 of f_{eps, delta(eps)}(alpha), by golden-section search in eps; the
    dual statement of Corollary 2.13 says it equals G_mu(alpha)."""
    m, a = check_mu(mu), check_alpha(alpha)

    def f(e: Any) -> Any:
        return tradeoff_eps_delta(e, profile_closed_form(m, e), a)

    lo, hi = mpmath.mpf(0), 10 * m + 20 * m**2 + 10
    invphi = (mpmath.sqrt(5) - 1) / 2
    for _ in range(int(mpmath.mp.prec * 1.5)):
        c, d = hi - (hi - lo) * invphi, lo + (hi - lo) * invphi
        if f(c) >= f(d):
            hi = d
        else:
            lo = c
    return f((lo + hi) / 2)


def _eps_delta(eps: Any, delta: Any) -> tuple[Any, Any]:
    """(eps, delta) of a Gaussian calibration: eps > 0 and delta in (0, 1) (at delta = 0 or
    eps = 0 no finite sigma is (eps, delta)-DP; at delta = 1 every sigma is)."""
    return check_eps_delta(eps, delta, eps_zero=False, delta_open="both")


def exact_sigma(eps: Any, delta: Any, sensitivity: Any = 1) -> Any:
    """The smallest sigma for which x + N(0, sigma^2) on a query of l2 sensitivity Delta is
    (eps, delta)-DP: its privacy profile is that of mu-GDP with mu = Delta/sigma
    (Balle & Wang 2018, Theorem 8; Dong, Roth & Su Corollary 2.13), increasing in mu, so
    bisect for profile(mu, eps) = delta in log mu."""
    e, d = _eps_delta(eps, delta)
    lo, hi = mpmath.mpf(-40), mpmath.mpf(10)  # log mu: profile(e^-40) ~ 0, profile(e^10) ~ 1
    for _ in range(mpmath.mp.prec + 20):
        mid = (lo + hi) / 2
        if profile_closed_form(mpmath.exp(mid), e) > d:
            hi = mid
        else:
            lo = mid
    return mpmath.mpf(sensitivity) / mpmath.exp(lo)
