"""Oracle for the KL bounds of pure DP (Dwork & Roth 2014, Lemma 3.18, and its tight form).

Pairs of distributions ``(P, Q)`` on ``n`` outcomes with ``D_inf(P||Q) <= eps`` and
``D_inf(Q||P) <= eps`` are built directly: ``Q`` at random, ``P = Q * r`` with every ratio
``r_i`` in ``[e^-eps, e^eps]`` and the deviations ``r_i - 1`` balanced so that ``P`` sums to 1.
Extreme pairs put every ratio at an end of the interval (randomized response is the two-point
case).  The exact KL divergence is computed by :mod:`numeric_checks.dp.divergences`, which shares
no code with the derivations.  The bounds themselves are stated formulas: they live in
:mod:`derivations.kl_bound` and come here as parameters (:func:`kl_sweep`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import mpmath

from numeric_checks.dp.divergences import kl

EPS_EDGES = ("1e-6", "1e-3", "0.05", "0.5", "1", "2", "5", "20", "50")


def random_pair(
    rng: random.Random, n: int, eps: Any, extreme: bool = False
) -> tuple[list[Any], list[Any]]:
    """A pair (p, q) on n outcomes with both max divergences <= eps, at the current precision.
    Extreme pairs sit on the boundary up to a relative 10**-(dps/2), strictly inside, so that
    they satisfy the hypotheses exactly after rounding."""
    weights = [mpmath.mpf(rng.expovariate(1.0)) + mpmath.mpf(10) ** -6 for _ in range(n)]
    total = mpmath.fsum(weights)
    q = [w / total for w in weights]
    lo, hi = mpmath.exp(-eps) - 1, mpmath.expm1(eps)
    inside = 1 - mpmath.mpf(10) ** (-(mpmath.mp.dps // 2))
    if extreme:
        d = [(hi if rng.random() < 0.5 else lo) * inside for _ in range(n)]
        if all(x > 0 for x in d) or all(x < 0 for x in d):
            d[0] = -d[0] * (lo / hi if d[0] > 0 else hi / lo)
    else:
        d = [lo + (hi - lo) * mpmath.mpf(rng.random()) for _ in range(n)]
    d = balanced(q, d)
    p = [qi * (1 + di) for qi, di in zip(q, d, strict=True)]
    # Rounding: put the rounding error of the sum on the largest entry.
    p[p.index(max(p))] += 1 - mpmath.fsum(p)
    return p, q


def balanced(base: list[Any], d: list[Any]) -> list[Any]:
    """Relative deviations ``d`` with the larger side (positive or negative) scaled down so
    that ``sum base_i d_i = 0``: the entries ``base_i (1 + d_i)`` keep the base's total, and
    every deviation stays inside its original interval."""
    up = mpmath.fsum(b * x for b, x in zip(base, d, strict=True) if x > 0)
    down = -mpmath.fsum(b * x for b, x in zip(base, d, strict=True) if x < 0)
    if up > down:
        return [x * down / up if x > 0 else x for x in d]
    if down > 0:
        return [x * up / down if x < 0 else x for x in d]
    return d


def randomized_response(eps: Any) -> tuple[list[Any], list[Any]]:
    x = mpmath.exp(eps) * (1 - mpmath.mpf(10) ** (-(mpmath.mp.dps // 2)))
    return [x / (1 + x), 1 / (1 + x)], [1 / (1 + x), x / (1 + x)]


def draw_eps(rng: random.Random) -> Any:
    if rng.random() < 0.3:
        return mpmath.mpf(rng.uniform(0, 3))
    return mpmath.mpf(10) ** rng.uniform(-6, 1.6)


def pair_generator(
    n: int, count: int = 150, sep: str = ""
) -> Callable[[random.Random, int], list[dict[str, Any]]]:
    """Points for a derivation over (eps, p1..pn, q1..qn): random, extreme and edge-eps pairs.
    ``sep`` goes between a name and its index (``"_"``: an instance's ``p_1``, ``q_1``)."""

    def generate(rng: random.Random, dps: int) -> list[dict[str, Any]]:
        out = []
        epsilons = [mpmath.mpf(e) for e in EPS_EDGES] + [draw_eps(rng) for _ in range(count)]
        for k, eps in enumerate(epsilons):
            p, q = random_pair(rng, n, eps, extreme=k % 3 == 0)
            point = {"eps": eps}
            point.update({f"p{sep}{i + 1}": v for i, v in enumerate(p)})
            point.update({f"q{sep}{i + 1}": v for i, v in enumerate(q)})
            out.append(point)
        return out

    return generate


@dataclass(frozen=True)
class Sweep:
    """Exact KL of random and extreme pairs against bounds, by the bound's name: how many
    pairs exceed it, the largest KL/bound ratio and the eps where it occurs."""

    n: int
    pairs: int
    violations: dict[str, int]
    worst_ratio: dict[str, Any]
    worst_eps: dict[str, Any]


def kl_sweep(
    n: int,
    bounds: Mapping[str, Callable[[Any], Any]],
    pairs: int = 1000,
    seed: int = 0,
    dps: int = 50,
) -> Sweep:
    """Exact KL of ``pairs`` random and extreme pairs on ``n`` outcomes (every tenth pair for
    n = 2 is randomized response), against each ``bounds[name](eps)``."""
    rng = random.Random(seed * 1009 + n)
    worst = {name: mpmath.mpf(0) for name in bounds}
    worst_eps = {name: mpmath.mpf(0) for name in bounds}
    bad = dict.fromkeys(bounds, 0)
    with mpmath.workdps(dps):
        tol = mpmath.mpf(10) ** (-(dps - 10))
        for k in range(pairs):
            eps = draw_eps(rng)
            p, q = (
                randomized_response(eps)
                if n == 2 and k % 10 == 0
                else random_pair(rng, n, eps, extreme=k % 3 == 0)
            )
            value = kl(p, q)
            for name, bound in bounds.items():
                ratio = value / bound(eps)
                bad[name] += ratio > 1 + tol
                if ratio > worst[name]:
                    worst[name], worst_eps[name] = ratio, eps
    return Sweep(n, pairs, bad, worst, worst_eps)


def sup_kl_two_point(eps: Any, grid: int = 400) -> Any:
    """The largest KL over two-point pairs with both max divergences <= eps, by direct
    maximisation (a grid over q1, then golden-section refinement), without the tanh formula.
    For fixed q, KL is convex in p, so the maximum over the feasible p is at an end."""
    x = mpmath.exp(eps)

    def best_p(q1: Any) -> Any:
        q2 = 1 - q1
        lo = max(q1 / x, 1 - x * q2)
        hi = min(x * q1, 1 - q2 / x)
        return max(kl([lo, 1 - lo], [q1, q2]), kl([hi, 1 - hi], [q1, q2]))

    qs = [mpmath.mpf(i) / grid for i in range(1, grid)]
    values = [best_p(qv) for qv in qs]
    i = max(range(len(values)), key=values.__getitem__)
    a = qs[max(i - 1, 0)]
    b = qs[min(i + 1, len(qs) - 1)]
    invphi = (mpmath.sqrt(5) - 1) / 2
    # The optimum sits on a kink (both ratio constraints active: randomized response), where
    # the error is linear in the bracket, so shrink the bracket to the working precision.
    for _ in range(int(mpmath.mp.prec * 1.5)):
        c, d = b - (b - a) * invphi, a + (b - a) * invphi
        if best_p(c) > best_p(d):
            b = d
        else:
            a = c
    return best_p((a + b) / 2)
