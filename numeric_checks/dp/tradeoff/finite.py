"""Trade-off functions of finite pairs (Dong, Roth & Su, arXiv:1905.02383v3, Sec. 2-3).

For distributions P and Q, T(P, Q)(alpha) = inf{beta_phi : alpha_phi <= alpha}, with
alpha_phi = E_P[phi] and beta_phi = 1 - E_Q[phi] (seed 004, section 2).

* :class:`FinitePair` and :func:`tradeoff_curve`: the Neyman-Pearson trade-off of two
  distributions on a finite set.  The most powerful tests reject outcomes in decreasing order
  of the likelihood ratio q/p, randomising on the boundary outcome, so T(P, Q) is the
  piecewise-linear convex curve through the points (sum of p, 1 - sum of q) of those
  prefixes.  Sums are taken from the short side (prefix sums for alpha, suffix sums for beta)
  so that tiny errors keep their relative accuracy.
* :func:`dominates` compares two such curves exactly at their vertices;
  :func:`convex_minorant` is the greatest convex function below several of them;
  :func:`inverse` is f^{-1}.
* :func:`tensor`: f (x) g = T(P x P', Q x Q') for finite pairs, atoms with equal likelihood
  ratio merged (Sec. 3, Definition of the tensor product).
* :func:`eps_delta_pair`: a 4-point pair with T(P, Q) = f_{eps, delta};
  :func:`eps_power_pair`: the n-fold product of the delta = 0 pair, built directly from the
  binomial law of the number of "eps" coordinates; :func:`eps_tradeoff_power` its curve.
"""

from __future__ import annotations

import bisect
import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import mpmath

from numeric_checks.dp.divergences import check_distribution
from numeric_checks.validate import check_alpha, check_eps_delta, check_whole
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
        a = check_alpha(alpha)
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
    # beta(0) = sum of q over p > 0: outcomes only Q charges are rejected at no cost.  The
    # suffix sums in one backward pass (n additions, not n^2/2): the terms are >= 0, so
    # each partial sum keeps its relative accuracy.
    betas = [mpmath.mpf(0)] * (len(qs) + 1)
    for j in range(len(qs) - 1, -1, -1):
        betas[j] = betas[j + 1] + qs[j]
    return Curve(tuple(alphas), tuple(betas), tuple(q / p for p, q in atoms))


def dominates(hi: Curve, lo: Curve, tol: Any = 0) -> bool:
    """hi >= lo - tol on [0, 1].  Both are piecewise linear between their vertices (and
    flat beyond the last), so comparing them at the union of their vertices decides."""
    return all(hi(a) >= lo(a) - tol for a in {*hi.alphas, *lo.alphas, 1} if 0 <= a <= 1)


def inverse(curve: Curve) -> Curve:
    """f^{-1}(y) = inf{t in [0, 1] : f(t) <= y} (Dong, Roth & Su, Sec. 2; seed 004, section
    3): the vertices (beta, alpha) of f, the least alpha kept where f is flat, and flat at 0
    from f(0) to 1.  For f = T(P, Q) this is T(Q, P)."""
    points: dict[Any, Any] = {}
    for a, b in zip(curve.alphas, curve.betas, strict=True):
        points[b] = min(points.get(b, a), a)
    if max(points) < 1:
        points[mpmath.mpf(1)] = mpmath.mpf(0)
    vertices = sorted(points.items())
    slopes = tuple((y0 - y1) / (x1 - x0) for (x0, y0), (x1, y1) in pairwise(vertices))
    xs, ys = zip(*vertices, strict=True)
    return Curve(xs, ys, slopes)


def convex_minorant(*curves: Curve) -> Curve:
    """The greatest convex function below every one of ``curves``: the lower convex hull of
    all their vertices (each curve is convex, so its graph lies on or above that hull),
    extended flat to alpha = 1.  When each curve is a trade-off function, so is this one:
    the tightest f with T(P_i, Q_i) >= f for every pair (Dong, Roth & Su, Sec. 2.5)."""
    hull: list[tuple[Any, Any]] = []
    for x, y in sorted({v for c in curves for v in zip(c.alphas, c.betas, strict=True)}):
        # Drop the last vertex while it lies on or above the chord to (x, y).
        while len(hull) > 1 and (hull[-1][1] - hull[-2][1]) * (x - hull[-2][0]) >= (
            y - hull[-2][1]
        ) * (hull[-1][0] - hull[-2][0]):
            hull.pop()
        hull.append((x, y))
    if hull[-1][0] < 1:
        hull.append((mpmath.mpf(1), hull[-1][1]))
    xs, ys = zip(*hull, strict=True)
    slopes = tuple((y0 - y1) / (x1 - x0) for (x0, y0), (x1, y1) in pairwise(hull))
    return Curve(xs, ys, slopes)


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
    """(eps, delta) of f_{eps, delta}: eps >= 0 and delta in [0, 1], the whole range where
    the trade-off function is defined (f_{0, 0} = Id, f_{eps, 1} = 0)."""
    return check_eps_delta(eps, delta, eps_zero=True, delta_open="neither")


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
    n = check_whole("n", n)
    s = 1 / (1 + mpmath.exp(-e))  # e^eps/(1 + e^eps)
    t = 1 / (1 + mpmath.exp(e))
    # Exact integer binomials (math.comb), rounded once: mpmath.binomial goes through the
    # gamma function and cost most of the curve.
    weights = [mpmath.mpf(math.comb(n, j)) for j in range(n + 1)]
    p = tuple(w * s**j * t ** (n - j) for j, w in enumerate(weights))
    q = tuple(w * t**j * s ** (n - j) for j, w in enumerate(weights))
    return FinitePair(p, q)


def identity_pair() -> FinitePair:
    """P = Q: T(P, P) = Id, Id(alpha) = 1 - alpha."""
    one = (mpmath.mpf(1),)
    return FinitePair(one, one)


def eps_tradeoff_power(eps: Any, n: int, alpha: Any) -> Any:
    """f_{eps, 0}^{(x) n}(alpha), exactly (a binomial Neyman-Pearson curve)."""
    return _power_curve(mpmath.mpf(eps), check_whole("n", n), mpmath.mp.prec)(alpha)


@functools.lru_cache(maxsize=256)
def _power_curve(eps: Any, n: int, prec: int) -> Curve:
    """The curve of f_{eps,0}^{(x) n} at a precision, built once: the steps of a chain and
    its conclusion evaluate it at the same (eps, n) for many alphas."""
    with mpmath.workprec(prec):
        return tradeoff_curve(eps_power_pair(eps, n))
