"""Trade-off functions as exact numeric objects (Dong, Roth & Su, arXiv:1905.02383v3, Sec. 2-3).

For distributions P and Q, T(P, Q)(alpha) = inf{beta_phi : alpha_phi <= alpha}, with
alpha_phi = E_P[phi] and beta_phi = 1 - E_Q[phi] (seed 004, section 2).

* :class:`FinitePair` and :func:`tradeoff_curve`: the Neyman-Pearson trade-off of two
  distributions on a finite set.  The most powerful tests reject outcomes in decreasing order
  of the likelihood ratio q/p, randomising on the boundary outcome, so T(P, Q) is the
  piecewise-linear convex curve through the points (sum of p, 1 - sum of q) of those
  prefixes.  Sums are taken from the short side (prefix sums for alpha, suffix sums for beta)
  so that tiny errors keep their relative accuracy.
* :func:`tensor`: f (x) g = T(P x P', Q x Q') for finite pairs, atoms with equal likelihood
  ratio merged (Sec. 3, Definition of the tensor product).
* :func:`eps_delta_pair`: a 4-point pair with T(P, Q) = f_{eps, delta};
  :func:`eps_power_pair`: the n-fold product of the delta = 0 pair, built directly from the
  binomial law of the number of "eps" coordinates.
* :func:`shift_tradeoff`, :func:`laplace_tradeoff`: T(F, F(. - mu)) for a location family with
  monotone likelihood ratio (Gaussian, Laplace): F(F^{-1}(1 - alpha) - mu).
* :func:`gaussian_tensor`: G_mu1 (x) G_mu2 from the privacy-loss variable L1 + L2 by
  quadrature over one coordinate (no use of the closed form being checked).
* :func:`group_tradeoff`: 1 - (1 - f)^{o k}, group privacy (Sec. 2.5).
* :func:`tradeoff_violations`: sampled checks of the four properties that characterise
  trade-off functions (convex, continuous, non-increasing, f <= 1 - alpha; Proposition 2.2).
* :func:`functionals`, :func:`clt_parameters`: kl, kappa_2, kappa_3, bar kappa_3 of a
  piecewise-linear trade-off function and the (mu, gamma) of the Berry-Esseen bound (Sec. 3).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import mpmath

from numeric_checks.dp.divergences import check_distribution
from numeric_checks.dp.gaussian import _alpha, _mu, tradeoff_gaussian
from numeric_checks.mp import phi_inv, quad_relative
from symbolic.errors import InvalidInput


@dataclass(frozen=True)
class FinitePair:
    """Two distributions P and Q on the same finite set, as atoms (p_i, q_i)."""

    p: tuple[Any, ...]
    q: tuple[Any, ...]

    @classmethod
    def make(cls, p: Sequence[Any], q: Sequence[Any]) -> FinitePair:
        if len(p) != len(q):
            raise InvalidInput(
                f"P and Q must be over the same outcomes, got {len(p)} and {len(q)} atoms"
            )
        return cls(tuple(check_distribution(p, "P")), tuple(check_distribution(q, "Q")))

    def swap(self) -> FinitePair:
        """(Q, P): its trade-off function is the inverse f^{-1} of T(P, Q)."""
        return FinitePair(self.q, self.p)


@dataclass(frozen=True)
class Curve:
    """A piecewise-linear trade-off function: vertex alphas, betas, and each segment's
    slope magnitude (the likelihood ratio q/p of the outcome rejected along it)."""

    alphas: tuple[Any, ...]
    betas: tuple[Any, ...]
    ratios: tuple[Any, ...]

    def __call__(self, alpha: Any) -> Any:
        a = _alpha(alpha)
        j = bisect.bisect_right(self.alphas, a) - 1
        if j >= len(self.ratios):
            return self.betas[-1]
        return max(mpmath.mpf(0), self.betas[j] - (a - self.alphas[j]) * self.ratios[j])


def _ratio_key(atom: tuple[Any, Any]) -> Any:
    p, q = atom
    return q / p


def tradeoff_curve(pair: FinitePair) -> Curve:
    """T(P, Q) by the Neyman-Pearson lemma (seed 004, section 2)."""
    atoms = sorted(
        ((p, q) for p, q in zip(pair.p, pair.q, strict=True) if p > 0),
        key=_ratio_key,
        reverse=True,
    )
    qs = [q for _, q in atoms]
    alphas = [mpmath.mpf(0)]
    for p, _ in atoms:
        alphas.append(alphas[-1] + p)
    # beta(0) = sum of q over p > 0: outcomes only Q charges are rejected at no cost.
    betas = [mpmath.fsum(qs[j:]) for j in range(len(qs) + 1)]
    return Curve(tuple(alphas), tuple(betas), tuple(q / p for p, q in atoms))


def _merge(atoms: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """Merge atoms whose likelihood ratios agree to working precision (a product of
    pairs repeats ratios many times; merging keeps the n-fold product small)."""
    zero_p = [(p, q) for p, q in atoms if p == 0]
    rest = sorted(((p, q) for p, q in atoms if p > 0), key=_ratio_key)
    tol = mpmath.mpf(2) ** (-mpmath.mp.prec + 12)
    out: list[tuple[Any, Any]] = []
    for p, q in rest:
        if out:
            p0, q0 = out[-1]
            r0, r = q0 / p0, q / p
            if abs(r - r0) <= tol * max(r, r0):
                out[-1] = (p0 + p, q0 + q)
                continue
        out.append((p, q))
    if zero_p:
        out.append((mpmath.mpf(0), mpmath.fsum(q for _, q in zero_p)))
    return out


def tensor(*pairs: FinitePair) -> FinitePair:
    """The product pair (P x P' x ..., Q x Q' x ...): T of it is f (x) g (x) ..."""
    if not pairs:
        raise InvalidInput("tensor needs at least one pair")
    atoms = list(zip(pairs[0].p, pairs[0].q, strict=True))
    for other in pairs[1:]:
        atoms = _merge(
            [
                (p * p2, q * q2)
                for p, q in atoms
                for p2, q2 in zip(other.p, other.q, strict=True)
                if (p * p2 > 0 or q * q2 > 0)
            ]
        )
    return FinitePair(tuple(p for p, _ in atoms), tuple(q for _, q in atoms))


def _eps_delta(eps: Any, delta: Any) -> tuple[Any, Any]:
    e, d = mpmath.mpf(eps), mpmath.mpf(delta)
    if not (mpmath.isfinite(e) and e >= 0):
        raise InvalidInput(f"eps must be >= 0, got eps={eps}")
    if not 0 <= d <= 1:
        raise InvalidInput(f"delta must be in [0, 1], got delta={delta}")
    return e, d


def eps_delta_pair(eps: Any, delta: Any) -> FinitePair:
    """P = (delta, (1-delta) e^eps/(1+e^eps), (1-delta)/(1+e^eps), 0) and Q the reverse:
    T(P, Q) = f_{eps, delta} (Dong, Roth & Su, Sec. 2.3; seed 004, section 4.1)."""
    e, d = _eps_delta(eps, delta)
    hi = (1 - d) / (1 + mpmath.exp(-e))
    lo = (1 - d) / (1 + mpmath.exp(e))
    zero = mpmath.mpf(0)
    return FinitePair((d, hi, lo, zero), (zero, lo, hi, d))


def eps_power_pair(eps: Any, n: int) -> FinitePair:
    """The n-fold product of the f_{eps, 0} pair: with j coordinates on the outcome of ratio
    e^-eps, the ratio is e^{(n - 2j) eps}; j ~ Bin(n, e^eps/(1+e^eps)) under P and
    Bin(n, 1/(1+e^eps)) under Q."""
    e, _ = _eps_delta(eps, 0)
    if int(n) != n or n < 1:
        raise InvalidInput(f"n must be a whole number >= 1, got n={n}")
    n = int(n)
    s = 1 / (1 + mpmath.exp(-e))  # e^eps/(1 + e^eps)
    t = 1 / (1 + mpmath.exp(e))
    p = tuple(mpmath.binomial(n, j) * s**j * t ** (n - j) for j in range(n + 1))
    q = tuple(mpmath.binomial(n, j) * t**j * s ** (n - j) for j in range(n + 1))
    return FinitePair(p, q)


def identity_pair() -> FinitePair:
    """P = Q: T(P, P) = Id, Id(alpha) = 1 - alpha."""
    one = (mpmath.mpf(1),)
    return FinitePair(one, one)


def shift_tradeoff(
    cdf: Callable[[Any], Any], quantile: Callable[[Any], Any], mu: Any, alpha: Any
) -> Any:
    """T(F, F(. - mu)) for a location family whose likelihood ratio increases in x (true for
    log-concave densities): the best tests reject x > F^{-1}(1 - alpha), so the value is
    F(F^{-1}(1 - alpha) - mu)."""
    m, a = _mu(mu), _alpha(alpha)
    if a == 0:
        return mpmath.mpf(1)
    if a == 1:
        return mpmath.mpf(0)
    return cdf(quantile(1 - a) - m)


def _laplace_cdf(x: Any) -> Any:
    return mpmath.exp(x) / 2 if x < 0 else 1 - mpmath.exp(-x) / 2


def _laplace_quantile(u: Any) -> Any:
    return mpmath.log(2 * u) if u < 0.5 else -mpmath.log(2 * (1 - u))


def laplace_tradeoff(mu: Any, alpha: Any) -> Any:
    """T(Lap(0, 1), Lap(mu, 1))(alpha) by the quantile formula."""
    return shift_tradeoff(_laplace_cdf, _laplace_quantile, mu, alpha)


def gaussian_tradeoff_by_shift(mu: Any, alpha: Any) -> Any:
    """T(N(0, 1), N(mu, 1)) by the quantile formula (the definition of G_mu)."""
    return shift_tradeoff(mpmath.ncdf, phi_inv, mu, alpha)


def _loss_integral(mu1: Any, mu2: Any, t: Any, kind: str) -> Any:
    """For the Gaussian privacy losses L_i = mu_i X_i - mu_i^2/2 (X_i ~ N(0, 1) under P,
    N(mu_i, 1) under Q): P[L1 + L2 > t] (kind "p"), its density in t ("dp"), or
    Q[L1 + L2 <= t] ("q"), each an integral over X_1 of an exact expression in X_2."""
    half = (mu1**2 + mu2**2) / 2
    b = mu1 / mu2
    if kind == "q":
        # with y = x1 - mu1: X_2 - mu2 <= (t - mu1 x1 + half)/mu2 - mu2
        c = (t - mu1**2 + half) / mu2 - mu2

        def f(y: Any) -> Any:
            return mpmath.npdf(y) * mpmath.ncdf(c - b * y)

        peak = -b * c / (1 + b**2) if c < 0 else mpmath.mpf(0)
    else:
        c = (t + half) / mu2
        tail = mpmath.ncdf if kind == "p" else mpmath.npdf

        def f(y: Any) -> Any:
            return mpmath.npdf(y) * tail(b * y - c)

        peak = b * c / (1 + b**2) if (c > 0 or kind == "dp") else mpmath.mpf(0)
    value = quad_relative(f, [-mpmath.inf, peak - 8, peak, peak + 8, mpmath.inf])
    return value / mu2 if kind == "dp" else value


def gaussian_tensor(mu1: Any, mu2: Any, alpha: Any) -> Any:
    """(G_mu1 (x) G_mu2)(alpha) = T(N(0, I), N((mu1, mu2), I))(alpha): the most powerful test
    rejects when the privacy loss L1 + L2 exceeds t, with t solved from P[L > t] = alpha by
    Newton's method on log P[L > t] (the density is a third integral)."""
    m1, m2, a = _mu(mu1), _mu(mu2), _alpha(alpha)
    if a == 0:
        return mpmath.mpf(1)
    if a == 1:
        return mpmath.mpf(0)
    with mpmath.extradps(10):
        # Start where a normal law with the losses' mean and variance would put t; only the
        # start: the iteration solves the exact equation.
        s = mpmath.sqrt(m1**2 + m2**2)
        t = -(s**2) / 2 - s * phi_inv(a)
        target = mpmath.log(a)
        eps = mpmath.mpf(2) ** (-mpmath.mp.prec + 20)
        for _ in range(60):
            tail = _loss_integral(m1, m2, t, "p")
            step = (mpmath.log(tail) - target) * tail / _loss_integral(m1, m2, t, "dp")
            t += step
            if abs(step) <= eps * (1 + abs(t)):
                break
        else:
            raise ArithmeticError(f"no convergence for the loss threshold at alpha={alpha}")
        return +_loss_integral(m1, m2, t, "q")


def group_tradeoff(
    f: Callable[[Any], Any],
    k: int,
    alpha: Any,
    f_of_complement: Callable[[Any], Any] | None = None,
) -> Any:
    """1 - (1 - f)^{o k}(alpha): the trade-off for groups of k of an f-DP mechanism
    (Dong, Roth & Su, Sec. 2.5; seed 004, section 4.6).

    With x_0 = alpha and x_j = 1 - f(x_{j-1}), the value is y_k = 1 - x_k, and
    y_j = f(1 - y_{j-1}).  Iterating on y keeps tiny values (G_38(1/2) ~ 1e-316) that
    1 - (1 - y) would round to 0; ``f_of_complement(y)`` = f(1 - y), when given, evaluates
    f without forming 1 - y at all."""
    if int(k) != k or k < 1:
        raise InvalidInput(f"group size k must be a whole number >= 1, got k={k}")
    fc = f_of_complement if f_of_complement is not None else (lambda y: f(1 - y))
    y = f(_alpha(alpha))
    for _ in range(int(k) - 1):
        y = fc(y)
    return y


def gaussian_group(mu: Any, k: int, alpha: Any) -> Any:
    """1 - (1 - G_mu)^{o k}(alpha), iterating G_mu(1 - y) = Phi(Phi^{-1}(y) - mu)."""
    m = _mu(mu)

    def complement(y: Any) -> Any:
        if y == 0:
            return mpmath.mpf(0)
        return mpmath.ncdf(phi_inv(y) - m)

    return group_tradeoff(lambda x: tradeoff_gaussian(m, x), k, alpha, complement)


@dataclass(frozen=True)
class Violation:
    """A failed property of a would-be trade-off function at a sampled alpha."""

    kind: str  # "range", "above-identity", "increasing", "convexity", "continuity"
    alpha: Any
    detail: str


def tradeoff_violations(
    f: Callable[[Any], Any], samples: int = 200, tol: Any = None
) -> list[Violation]:
    """Sample the four defining properties of a trade-off function (Dong, Roth & Su,
    Proposition 2.2; seed 004, section 2): convex, continuous, non-increasing, f <= 1 - alpha.
    A sampled check: an empty list means no violation was found on the grid, not a proof.
    The grid is uniform plus points clustered at both ends, where convex functions may
    jump; continuity is probed at 0 and 1 by a sequence tending to the end."""
    tol = mpmath.mpf(10) ** (-(mpmath.mp.dps - 8)) if tol is None else mpmath.mpf(tol)
    grid = sorted(
        {mpmath.mpf(i) / samples for i in range(samples + 1)}
        | {mpmath.mpf(10) ** -k for k in range(2, 12)}
        | {1 - mpmath.mpf(10) ** -k for k in range(2, 12)}
    )
    values = [f(a) for a in grid]
    out: list[Violation] = []
    for a, v in zip(grid, values, strict=True):
        if not (-tol <= v <= 1 + tol):
            out.append(Violation("range", a, f"f({mpmath.nstr(a, 8)}) = {mpmath.nstr(v, 8)}"))
        if v > 1 - a + tol:
            out.append(Violation("above-identity", a, f"f = {mpmath.nstr(v, 8)} > 1 - alpha"))
    points = list(zip(grid, values, strict=True))
    for (a0, v0), (a1, v1) in pairwise(points):
        if v1 > v0 + tol:
            out.append(
                Violation(
                    "increasing",
                    a1,
                    f"f({mpmath.nstr(a0, 8)}) = {mpmath.nstr(v0, 8)} < "
                    f"f({mpmath.nstr(a1, 8)}) = {mpmath.nstr(v1, 8)}",
                )
            )
    slopes = [(v1 - v0) / (a1 - a0) for (a0, v0), (a1, v1) in pairwise(points)]
    widths = [a1 - a0 for a0, a1 in pairwise(grid)]
    for j in range(1, len(slopes)):
        # A convex function's chord slopes increase; allow the rounding of a difference
        # quotient over a short interval.
        slack = tol * (1 / widths[j - 1] + 1 / widths[j])
        if slopes[j] < slopes[j - 1] - slack:
            out.append(
                Violation(
                    "convexity",
                    grid[j],
                    f"chord slopes {mpmath.nstr(slopes[j - 1], 8)} then "
                    f"{mpmath.nstr(slopes[j], 8)}",
                )
            )
    for end, inward in ((mpmath.mpf(0), 1), (mpmath.mpf(1), -1)):
        near = [f(end + inward * mpmath.mpf(10) ** -k) for k in (20, 30, 40)]
        gap = abs(f(end) - near[-1])
        if gap > mpmath.mpf(10) ** -6 and abs(near[-1] - near[0]) < gap / 100:
            out.append(
                Violation(
                    "continuity",
                    end,
                    f"f({mpmath.nstr(end, 3)}) = {mpmath.nstr(f(end), 8)} but the limit is "
                    f"{mpmath.nstr(near[-1], 8)}",
                )
            )
    return out


@dataclass(frozen=True)
class Functionals:
    """kl(f) = -int log|f'|, kappa_2 = int log^2|f'|, kappa_3 = int |log|f'||^3 and
    bar kappa_3 = int |log|f'| + kl(f)|^3 over [0, 1] (seed 004, section 5.2)."""

    kl: Any
    kappa2: Any
    kappa3: Any
    kappa3_bar: Any


def functionals(curve: Curve) -> Functionals:
    """The functionals of a piecewise-linear trade-off function: each segment has width p
    and |f'| = q/p, so the integrals are finite sums (a flat segment, |f'| = 0, gives oo)."""
    widths = [a1 - a0 for a0, a1 in pairwise(curve.alphas)]
    logs = [mpmath.log(r) if r > 0 else -mpmath.inf for r in curve.ratios]
    parts = [(w, lg) for w, lg in zip(widths, logs, strict=True) if w > 0]
    if any(not mpmath.isfinite(lg) for _, lg in parts):
        inf = mpmath.inf
        return Functionals(inf, inf, inf, inf)
    kl = -mpmath.fsum(w * lg for w, lg in parts)
    return Functionals(
        kl,
        mpmath.fsum(w * lg**2 for w, lg in parts),
        mpmath.fsum(w * abs(lg) ** 3 for w, lg in parts),
        mpmath.fsum(w * abs(lg + kl) ** 3 for w, lg in parts),
    )


def clt_parameters(parts: Sequence[Functionals]) -> tuple[Any, Any]:
    """(mu, gamma) of the Berry-Esseen bound for f_1 (x) ... (x) f_n (Dong, Roth & Su, Sec. 3;
    seed 004, section 5.2): mu = 2 ||kl||_1 / sqrt(||kappa_2||_1 - ||kl||_2^2) and
    gamma = 0.56 ||bar kappa_3||_1 / (||kappa_2||_1 - ||kl||_2^2)^{3/2}."""
    kl1 = mpmath.fsum(f.kl for f in parts)
    var = mpmath.fsum(f.kappa2 for f in parts) - mpmath.fsum(f.kl**2 for f in parts)
    if var <= 0:
        raise InvalidInput("the trade-off functions have zero variance (all are Id)")
    return 2 * kl1 / mpmath.sqrt(var), mpmath.mpf("0.56") * mpmath.fsum(
        f.kappa3_bar for f in parts
    ) / var ** mpmath.mpf(1.5)


def eps_tradeoff_power(eps: Any, n: int, alpha: Any) -> Any:
    """f_{eps, 0}^{(x) n}(alpha), exactly (a binomial Neyman-Pearson curve)."""
    return tradeoff_curve(eps_power_pair(eps, n))(alpha)
