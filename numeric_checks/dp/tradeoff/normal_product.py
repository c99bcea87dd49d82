"""G_mu1 (x) G_mu2 from the definition: the Neyman-Pearson curve of N(0, I) against
N((mu1, mu2), I) in the plane (Dong, Roth & Su, arXiv:1905.02383v3, Definition 3.1 and
Corollary 3.3, whose closed form G_sqrt(mu1^2 + mu2^2) this module never uses).

The most powerful tests reject when mu1 x1 + mu2 x2 > c (Neyman-Pearson: the likelihood
ratio is exp(mu . x - |mu|^2/2)).  With the coordinates ordered so that mu_s <= mu_L and
b = mu_s/mu_L <= 1, every probability needed is a one-dimensional integral over the
coordinate of the smaller mean with the other coordinate's law exact:

    P[b Y_s + Y_L <= u] = I(u) = int phi(y) Phi(u - b y) dy = int phi(y) Phi(u + b y) dy,

its derivative I'(u) = int phi(y) phi(u + b y) dy.  The integrand is entire and decays like a
Gaussian, so the trapezoidal rule on the whole line converges geometrically, with error about
exp(-2 pi^2/(h^2 (1 + b^2))) for the step h (the Fourier transform of the integrand decays
like exp(-w^2 (1 + b^2)/2); Trefethen & Weideman, "The exponentially convergent trapezoidal
rule", SIAM Review 56(3), 2014, Sec. 5): about a hundred nodes give 60 digits, against
thousands of tanh-sinh nodes.  Ordering the coordinates keeps b <= 1, so the integrand never
has a step of width mu_s/mu_L that a fixed grid would miss.
"""

from __future__ import annotations

import functools
from typing import Any

import mpmath
from flint import arb

from numeric_checks.mp import phi_inv
from numeric_checks.mp_arb import arb_precision, from_mpf, to_mpf
from numeric_checks.validate import check_alpha, check_mu
from symbolic.errors import EvaluationError

__all__ = ["gaussian_tensor", "gaussian_tensor_k", "normal_mix"]

GUARD = 10  # digits carried beyond the caller's precision


def _line_sum(f: Any, center: Any, h: Any, offset: Any, tol: Any) -> tuple[Any, Any]:
    """sum_j f(center + (j + offset) h) over all integers j, both components of f's pair.

    f is a pair of log-concave functions (products of phi and Phi are log-concave), so the
    terms decrease once past their mode: the sum stops on each side when the newest term is
    below ``tol`` times the running sum and shrinking by at least half per node (the rest is
    then below a geometric series of ratio 1/2)."""
    first = f(center + offset * h)
    total = [first[0], first[1]]
    for direction in (1, -1):
        j, prev = 0, None
        while True:
            j += direction
            if abs(j) > 100_000:
                raise EvaluationError("trapezoidal sum did not decay")
            term = f(center + (j + offset) * h)
            total[0] += term[0]
            total[1] += term[1]
            small = all(t <= tol * abs(s) for t, s in zip(term, total, strict=True))
            if (
                small
                and prev is not None
                and all(2 * t <= p for t, p in zip(term, prev, strict=True))
            ):
                break
            prev = term
    return total[0], total[1]


def normal_mix(u: Any, b: Any) -> tuple[Any, Any]:
    """(I(u), I'(u)) with I(u) = int phi(y) Phi(u + b y) dy = P[Y_L + b Y_s <= u] for
    0 <= b <= 1, to the working precision relative to each value, by the trapezoidal rule on
    the line (module docstring), halving the step until two successive sums agree to a third
    of the digits (the error of the finer one is then about the fourth power of the coarser
    one's, exp(-c/h^2) with h halved)."""
    u, b = mpmath.mpf(u), mpmath.mpf(b)
    digits = mpmath.mp.dps
    s2 = 1 + b**2
    # Mode of phi(y) Phi(u + b y): 0 when Phi is near 1 there, else where phi(y) phi(u + b y)
    # peaks (Phi(x) ~ phi(x)/|x| as x -> -inf), -b u/(1 + b^2).
    center = -b * u / s2 if u < 0 else mpmath.mpf(0)

    # The terms run in Arb (C): phi and Phi at 60 digits cost ~15 and ~120 us in mpmath,
    # a few us in Arb; the sums and the stopping rules stay as they were.
    bits = mpmath.mp.prec + 10
    with arb_precision(bits):
        u_a, b_a = from_mpf(u), from_mpf(b)
        norm = 1 / (2 * arb.pi()).sqrt()
        root2 = arb(2).sqrt()

    def f(y: Any) -> tuple[Any, Any]:
        with arb_precision(bits):
            y_a = from_mpf(y)
            x = u_a + b_a * y_a
            w = norm * (-(y_a**2) / 2).exp()
            below = (-x / root2).erfc() / 2
            return to_mpf(w * below), to_mpf(w * norm * (-(x**2) / 2).exp())

    tol = mpmath.mpf(10) ** -(digits + 5)
    agree = mpmath.mpf(10) ** -(digits / 3)
    # first step: error 10^-(digits/3 + 2), i.e. 2 pi^2/(h^2 (1 + b^2)) = that many e-folds
    h = mpmath.sqrt(2 * mpmath.pi**2 / (s2 * mpmath.log(10) * (digits / 3 + 2)))
    sums = _line_sum(f, center, h, 0, tol)  # the raw sums on the grid of step h
    for _ in range(8):
        mid = _line_sum(f, center, h, mpmath.mpf(1) / 2, tol)
        coarse = [h * s for s in sums]
        sums = (sums[0] + mid[0], sums[1] + mid[1])
        h /= 2
        fine = [h * s for s in sums]
        if all(abs(c - v) <= agree * abs(v) for c, v in zip(coarse, fine, strict=True)):
            return fine[0], fine[1]
    raise EvaluationError(f"trapezoidal rule did not converge at u={u}, b={b}")


def gaussian_tensor(mu1: Any, mu2: Any, alpha: Any) -> Any:
    """(G_mu1 (x) G_mu2)(alpha) = T(N(0, I), N((mu1, mu2), I))(alpha) from the definition
    (module docstring): the threshold u of the most powerful test of size alpha solved by
    Newton's method on log I, then beta = Q[accept] as one more integral."""
    m1, m2, a = check_mu(mu1), check_mu(mu2), check_alpha(alpha)
    if a == 0:
        return mpmath.mpf(1)
    if a == 1:
        return mpmath.mpf(0)
    small, large = sorted((m1, m2))
    return +_gaussian_tensor(small, large, a, mpmath.mp.prec)


def gaussian_tensor_k(*args: Any) -> Any:
    """(G_mu1 (x) ... (x) G_muk)(alpha) = T(N(0, I_k), N(mu, I_k))(alpha), arguments
    ``mu1, ..., muk, alpha`` (k >= 1), from the definition and never from Corollary 3.3's
    closed form.

    k = 1 is G_mu1 itself.  For k >= 2 the first k - 1 coordinates are rotated (the
    foundation normal-rotation-invariance: an orthogonal map of those coordinates fixes
    N(0, I) and sends (mu_1, ..., mu_{k-1}) to (r, 0, ..., 0), r = |(mu_1, ..., mu_{k-1})|),
    which leaves the trade-off function unchanged (a bijection of the sample space); the
    k - 2 coordinates with no shift have the same law under both hypotheses and are
    independent of the rest, so no test gains from them.  What remains is the pair
    N(0, I_2) against N((r, mu_k), I_2), whose Neyman-Pearson curve :func:`gaussian_tensor`
    computes by one numerical integral.  The rotation merges the first k - 1 coordinates
    only: the last one is still integrated, so a wrong rule for adding a mechanism shows."""
    *mus, alpha = args
    if not mus:
        raise EvaluationError("a tensor product needs at least one factor")
    ms = [check_mu(m) for m in mus]
    a = check_alpha(alpha)
    if len(ms) == 1:
        if a == 0:
            return mpmath.mpf(1)
        if a == 1:
            return mpmath.mpf(0)
        return mpmath.ncdf(phi_inv(1 - a) - ms[0])
    with mpmath.extradps(GUARD):
        r = mpmath.sqrt(mpmath.fsum(m**2 for m in ms[:-1]))
    return gaussian_tensor(+r, ms[-1], a)


@functools.lru_cache(maxsize=1024)
def _gaussian_tensor(small: Any, large: Any, a: Any, prec: int) -> Any:
    """beta at size a for mu_s = small <= mu_L = large, cached per precision: a step and the
    conclusion that contain the tensor product are spot-checked at the same points.

    With S = (mu . Y)/mu_L = b Y_s + Y_L (Y ~ N(0, I)) the test rejects S > v.  Size:
    P[S > v] = I(-v) (I is symmetric in b), so for a <= 1/2 solve I(u) = a with v = -u, and
    for a > 1/2 solve the complement I(u) = 1 - a with v = u (each tail to full relative
    precision).  Under Q, mu . X = mu . Y + |mu|^2, so beta = P[S <= v - |mu|^2/mu_L] =
    I(v - mu_L (1 + b^2))."""
    with mpmath.workprec(prec), mpmath.extradps(GUARD):
        b = small / large
        p = a if a <= mpmath.mpf(1) / 2 else 1 - a
        # Start where S would put the tail if it were normal with variance 1 + b^2 (the
        # variance of a sum of independent terms); only the start: Newton solves I(u) = p.
        u = mpmath.sqrt(1 + b**2) * phi_inv(p)
        target = mpmath.log(p)
        eps = mpmath.mpf(2) ** (-mpmath.mp.prec + 20)
        for _ in range(60):
            value, density = normal_mix(u, b)
            step = (mpmath.log(value) - target) * value / density
            u -= step
            if abs(step) <= eps * (1 + abs(u)):
                break
        else:
            raise EvaluationError(f"no convergence for the test's threshold at alpha={a}")
        v = -u if a <= mpmath.mpf(1) / 2 else u
        return +normal_mix(v - large * (1 + b**2), b)[0]
