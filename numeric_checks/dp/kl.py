"""Oracle for the KL bounds of pure DP (Dwork & Roth 2014, Lemma 3.18, and its tight form).

Pairs of distributions ``(P, Q)`` on ``n`` outcomes with ``D_inf(P||Q) <= eps`` and
``D_inf(Q||P) <= eps`` are built directly: ``Q`` at random, ``P = Q * r`` with every ratio
``r_i`` in ``[e^-eps, e^eps]`` and the deviations ``r_i - 1`` balanced so that ``P`` sums to 1.
Extreme pairs put every ratio at an end of the interval (randomized response is the two-point
case).  The exact KL divergence is computed by :mod:`numeric_checks.dp.divergences`, which shares
no code with the derivations.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import mpmath

from numeric_checks.dp.divergences import kl

EPS_EDGES = ("1e-6", "1e-3", "0.05", "0.5", "1", "2", "5", "20", "50")


def seed_bound(eps: Any) -> Any:
    """Dwork & Roth, Lemma 3.18: eps (e^eps - 1)."""
    return eps * mpmath.expm1(eps)


def tight_bound(eps: Any) -> Any:
    """eps tanh(eps/2), the KL of randomized response."""
    return eps * mpmath.tanh(eps / 2)


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
    up = mpmath.fsum(qi * di for qi, di in zip(q, d, strict=True) if di > 0)
    down = -mpmath.fsum(qi * di for qi, di in zip(q, d, strict=True) if di < 0)
    if up > down:
        d = [di * down / up if di > 0 else di for di in d]
    elif down > 0:
        d = [di * up / down if di < 0 else di for di in d]
    p = [qi * (1 + di) for qi, di in zip(q, d, strict=True)]
    # Rounding: put the rounding error of the sum on the largest entry.
    p[p.index(max(p))] += 1 - mpmath.fsum(p)
    return p, q


def randomized_response(eps: Any) -> tuple[list[Any], list[Any]]:
    x = mpmath.exp(eps) * (1 - mpmath.mpf(10) ** (-(mpmath.mp.dps // 2)))
    return [x / (1 + x), 1 / (1 + x)], [1 / (1 + x), x / (1 + x)]


def draw_eps(rng: random.Random) -> Any:
    if rng.random() < 0.3:
        return mpmath.mpf(rng.uniform(0, 3))
    return mpmath.mpf(10) ** rng.uniform(-6, 1.6)


def pair_generator(
    n: int, count: int = 150
) -> Callable[[random.Random, int], list[dict[str, Any]]]:
    """Points for a derivation over (eps, p1..pn, q1..qn): random, extreme and edge-eps pairs."""

    def generate(rng: random.Random, dps: int) -> list[dict[str, Any]]:
        out = []
        epsilons = [mpmath.mpf(e) for e in EPS_EDGES] + [draw_eps(rng) for _ in range(count)]
        for k, eps in enumerate(epsilons):
            p, q = random_pair(rng, n, eps, extreme=k % 3 == 0)
            point = {"eps": eps}
            point.update({f"p{i + 1}": v for i, v in enumerate(p)})
            point.update({f"q{i + 1}": v for i, v in enumerate(q)})
            out.append(point)
        return out

    return generate


@dataclass(frozen=True)
class Sweep:
    n: int
    pairs: int
    violations_seed: int
    violations_tight: int
    worst_ratio_seed: Any
    worst_ratio_tight: Any
    worst_eps_tight: Any


def kl_sweep(n: int, pairs: int = 1000, seed: int = 0, dps: int = 50) -> Sweep:
    """Exact KL of ``pairs`` random and extreme pairs on ``n`` outcomes, against both bounds."""
    rng = random.Random(seed * 1009 + n)
    worst_seed = worst_tight = mpmath.mpf(0)
    worst_eps = mpmath.mpf(0)
    bad_seed = bad_tight = 0
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
            rs, rt = value / seed_bound(eps), value / tight_bound(eps)
            bad_seed += rs > 1 + tol
            bad_tight += rt > 1 + tol
            if rs > worst_seed:
                worst_seed = rs
            if rt > worst_tight:
                worst_tight, worst_eps = rt, eps
    return Sweep(n, pairs, bad_seed, bad_tight, worst_seed, worst_tight, worst_eps)


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


def tightness_rows(
    eps_values: tuple[str, ...] = ("0.01", "0.1", "0.5", "1", "2", "5"),
) -> list[dict[str, Any]]:
    """eps -> (sup KL by maximisation, eps tanh(eps/2), eps (e^eps - 1)), for tables and plots."""
    rows = []
    with mpmath.workdps(40):
        for text in eps_values:
            eps = mpmath.mpf(text)
            rows.append(
                {
                    "eps": eps,
                    "sup_kl": sup_kl_two_point(eps),
                    "tight": tight_bound(eps),
                    "seed": seed_bound(eps),
                }
            )
    return rows


def tightness_table() -> str:
    lines = [
        "How tight is it?  Exact sup of KL over eps-indistinguishable pairs (maximised over",
        "two-point pairs), the tight bound and the seed's bound:",
        f"  {'eps':>6}  {'sup KL (maximised)':>20}  {'eps*tanh(eps/2)':>18}  "
        f"{'eps*(e^eps - 1)':>18}  {'seed/tight':>10}",
    ]
    for r in tightness_rows():
        lines.append(
            f"  {mpmath.nstr(r['eps'], 3):>6}  {mpmath.nstr(r['sup_kl'], 12):>20}  "
            f"{mpmath.nstr(r['tight'], 12):>18}  {mpmath.nstr(r['seed'], 12):>18}  "
            f"{mpmath.nstr(r['seed'] / r['tight'], 5):>10}"
        )
    lines.append("The seed's bound is loose by a factor e^eps + 1 (about 2 for small eps).")
    return "\n".join(lines)


def sweep_table(ns: tuple[int, ...] = (2, 3, 4, 5, 6, 7, 8), pairs: int = 1000) -> str:
    lines = [
        f"Oracle sweep: {pairs} random and extreme pairs per n, exact KL at 50 digits:",
        f"  {'n':>2}  {'violations (seed, tight)':>25}  {'worst KL/seed bound':>20}  "
        f"{'worst KL/tight bound':>21}",
    ]
    for n in ns:
        s = kl_sweep(n, pairs)
        lines.append(
            f"  {n:>2}  {f'{s.violations_seed}, {s.violations_tight}':>25}  "
            f"{mpmath.nstr(s.worst_ratio_seed, 8):>20}  "
            f"{mpmath.nstr(s.worst_ratio_tight, 12):>21}"
        )
    lines.append("A worst KL/tight ratio of 1 is randomized response, which attains the bound.")
    return "\n".join(lines)


def kl_appendix() -> str:
    return tightness_table() + "\n\n" + sweep_table()
