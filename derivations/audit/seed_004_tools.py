"""Shared machinery of the seed-004 audit (Gaussian differential privacy notes).

Trade-off functions of finite pairs with rational probabilities, computed exactly with
:class:`fractions.Fraction`: the Neyman-Pearson curve T(P, Q) is piecewise linear, so two such
curves (or any piecewise-linear functions built from them: inverses, maxima, convex hulls)
are compared exactly by comparing them at the union of their breakpoints.  Random rational
instances come from a seeded generator, so every check sees the same instances.

The same curves on Arb balls serve statements searched by
:mod:`numeric_checks.dp.finite_search`, whose distributions arrive as balls.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import pairwise
from typing import Any

from symbolic.audit import Outcome

SEED = "004_8163944e81e55ae4.txt"
F = Fraction
Dist = tuple[Fraction, ...]
Pair = tuple[Dist, Dist]
PL = tuple[tuple[Fraction, Fraction], ...]
"""A piecewise-linear function on [0, 1]: its vertices (x, y), x increasing from 0 to 1."""


# --- exact curves -------------------------------------------------------------------------


def curve(p: Sequence[Fraction], q: Sequence[Fraction]) -> PL:
    """T(P, Q) by the Neyman-Pearson lemma: reject outcomes in decreasing order of q/p;
    outcomes with p = 0 are rejected first at no cost, so T(P, Q)(0) = Q(p > 0)."""
    atoms = sorted(
        ((a, b) for a, b in zip(p, q, strict=True) if a > 0),
        key=lambda t: t[1] / t[0],
        reverse=True,
    )
    alpha, beta = F(0), sum((b for _, b in atoms), F(0))
    out = [(alpha, beta)]
    for a, b in atoms:
        alpha, beta = alpha + a, beta - b
        out.append((alpha, beta))
    return tuple(out)


def value(f: PL, x: Fraction) -> Fraction:
    """f(x) by linear interpolation between the vertices."""
    for (x0, y0), (x1, y1) in pairwise(f):
        if x0 <= x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    raise ValueError(f"x={x} is outside [0, 1]")


def breaks(*fs: PL) -> list[Fraction]:
    return sorted({x for f in fs for x, _ in f})


def tabulate(fn: Callable[[Fraction], Fraction], xs: Sequence[Fraction]) -> PL:
    """The piecewise-linear function through (x, fn(x)); exact when fn is linear between
    consecutive xs."""
    return tuple((x, fn(x)) for x in sorted(set(xs) | {F(0), F(1)}))


def linear(c0: Fraction, c1: Fraction) -> PL:
    return ((F(0), c0), (F(1), c0 + c1))


def _crossings(f: PL, g: PL) -> list[Fraction]:
    """The union of breakpoints plus the points where f - g changes sign between them."""
    xs = breaks(f, g)
    diff = [a - b for a, b in zip(values_at(f, xs), values_at(g, xs), strict=True)]
    out = list(xs)
    for (x0, d0), (x1, d1) in pairwise(zip(xs, diff, strict=True)):
        if d0 * d1 < 0:
            out.append(x0 + d0 / (d0 - d1) * (x1 - x0))
    return out


def pl_max(*fs: PL) -> PL:
    """The pointwise maximum, breakpoints at every crossing."""
    out = fs[0]
    for g in fs[1:]:
        out = _pointwise(max, out, g)
    return out


def pl_min(f: PL, g: PL) -> PL:
    return _pointwise(min, f, g)


def _pointwise(pick: Callable[[Fraction, Fraction], Fraction], f: PL, g: PL) -> PL:
    xs = sorted(set(_crossings(f, g)) | {F(0), F(1)})
    return tuple(zip(xs, map(pick, values_at(f, xs), values_at(g, xs)), strict=True))


def lower_hull(f: PL) -> PL:
    """The greatest convex minorant of a piecewise-linear function (Andrew's monotone chain)."""
    hull: list[tuple[Fraction, Fraction]] = []
    for pt in f:
        while len(hull) >= 2:
            (x0, y0), (x1, y1) = hull[-2], hull[-1]
            if (y1 - y0) * (pt[0] - x0) >= (pt[1] - y0) * (x1 - x0):
                hull.pop()  # hull[-1] lies on or above the chord from hull[-2] to pt
            else:
                break
        hull.append(pt)
    return tuple(hull)


def inverse_at(f: PL, y: Fraction) -> Fraction:
    """f^{-1}(y) = inf{t in [0, 1] : f(t) <= y} for a non-increasing f (seed 004, section 3)."""
    if f[0][1] <= y:
        return F(0)
    for (x0, y0), (x1, y1) in pairwise(f):
        if y1 <= y:
            return x0 + (y0 - y) / (y0 - y1) * (x1 - x0)
    raise ValueError(f"f never reaches {y}")


def inverse(f: PL) -> PL:
    """f^{-1} as a piecewise-linear function: its breakpoints are f's vertex values."""
    return tabulate(lambda y: inverse_at(f, y), [y for _, y in f if 0 <= y <= 1])


def values_at(f: PL, xs: Sequence[Fraction]) -> list[Fraction]:
    """f at sorted points xs in one sweep over the segments."""
    out, j = [], 0
    for x in xs:
        while j + 2 < len(f) and f[j + 1][0] < x:
            j += 1
        (x0, y0), (x1, y1) = f[j], f[j + 1]
        out.append(y0 + (y1 - y0) * (x - x0) / (x1 - x0))
    return out


def dominates(hi: PL, lo: PL) -> tuple[bool, str]:
    """hi >= lo on [0, 1], decided exactly at the union of breakpoints."""
    xs = breaks(hi, lo)
    for x, a, b in zip(xs, values_at(hi, xs), values_at(lo, xs), strict=True):
        if a < b:
            return False, f"at alpha = {x}: {a} < {b}"
    return True, ""


def same(f: PL, g: PL) -> tuple[bool, str]:
    ok, why = dominates(f, g)
    if not ok:
        return ok, why
    return dominates(g, f)


def is_tradeoff(t: PL) -> tuple[bool, str]:
    """The four defining properties, exactly at the vertices: non-increasing, convex (slopes
    increasing), on [0, 1] with f(1) = 0, and below 1 - alpha."""
    slopes = [(b1 - b0) / (a1 - a0) for (a0, b0), (a1, b1) in pairwise(t)]
    if any(s > 0 for s in slopes):
        return False, "increasing"
    if any(s1 < s0 for s0, s1 in pairwise(slopes)):
        return False, "not convex"
    if any(b > 1 - a for a, b in t) or t[-1] != (F(1), F(0)) or t[0][0] != 0:
        return False, "above 1 - alpha or not on [0, 1]"
    return True, ""


def compose_group(f: PL, k: int, x: Fraction) -> Fraction:
    """[1 - (1 - f)^{o k}](x): x_0 = x, x_j = 1 - f(x_{j-1}), the value 1 - x_k."""
    for _ in range(k):
        x = 1 - value(f, x)
    return 1 - x


# --- exact pairs --------------------------------------------------------------------------


def tensor(*pairs: Pair) -> Pair:
    """(P x P' x ..., Q x Q' x ...): its trade-off function is f (x) g (x) ..."""
    p, q = pairs[0]
    for p2, q2 in pairs[1:]:
        p = tuple(a * b for a in p for b in p2)
        q = tuple(a * b for a in q for b in q2)
    return p, q


def push(p: Dist, kernel: Sequence[Dist]) -> Dist:
    """The law of a channel's output; ``kernel[i]`` is the output law given outcome i."""
    return tuple(
        sum((p[i] * kernel[i][j] for i in range(len(p))), F(0)) for j in range(len(kernel[0]))
    )


def eps_delta_pair(r: Fraction, delta: Fraction) -> Pair:
    """The 4-point pair whose trade-off function is f_{eps, delta} with e^eps = r (Dong, Roth
    & Su, Sec. 2.3): rational whenever r and delta are."""
    hi, lo = (1 - delta) * r / (1 + r), (1 - delta) / (1 + r)
    return (delta, hi, lo, F(0)), (F(0), lo, hi, delta)


def f_eps_delta(r: Fraction, delta: Fraction) -> PL:
    """The seed's formula max{0, 1 - delta - e^eps alpha, e^-eps (1 - delta - alpha)} with
    e^eps = r, as the maximum of its three linear pieces."""
    return pl_max(linear(F(0), F(0)), linear(1 - delta, -r), linear((1 - delta) / r, -1 / r))


IDENTITY: Pair = ((F(1),), (F(1),))


# --- random rational instances ------------------------------------------------------------


def rng(salt: int) -> random.Random:
    return random.Random(4000 + salt)


def random_dist(r: random.Random, n: int, zeros: bool = True) -> Dist:
    while True:
        w = [r.randint(0 if zeros else 1, 9) for _ in range(n)]
        if sum(w):
            return tuple(F(x, sum(w)) for x in w)


def random_pair(r: random.Random, zeros: bool = True) -> Pair:
    n = r.randint(2, 5)
    return random_dist(r, n, zeros), random_dist(r, n, zeros)


def random_kernel(r: random.Random, n: int, m: int) -> tuple[Dist, ...]:
    return tuple(random_dist(r, m) for _ in range(n))


def over_instances(
    name: str, count: int, salt: int, test: Callable[[random.Random], tuple[bool, str]]
) -> Outcome:
    """Run ``test`` on ``count`` seeded random instances; the first failure is the outcome."""
    r = rng(salt)
    for i in range(count):
        ok, why = test(r)
        if not ok:
            return Outcome(False, f"{name}: fails on instance {i + 1}: {why}")
    return Outcome(True, f"{name}: holds on {count} random rational instances, decided exactly")


# --- the same curves on Arb balls (finite_search) ----------------------------------------


def ball_curve(p: Sequence[Any], q: Sequence[Any]) -> list[tuple[Any, Any]]:
    """T(P, Q)'s vertices for distributions given as Arb balls."""
    from flint import arb

    atoms = sorted(((a, b) for a, b in zip(p, q, strict=True) if a > 0), key=lambda t: t[1] / t[0])[
        ::-1
    ]
    alpha, beta = arb(0), sum((b for _, b in atoms), arb(0))
    out = [(alpha, beta)]
    for a, b in atoms:
        alpha, beta = alpha + a, beta - b
        out.append((alpha, beta))
    return out


def ball_value(f: Sequence[tuple[Any, Any]], x: Any) -> Any:
    """f(x) by interpolation; at a shared breakpoint either neighbouring segment serves."""
    for (x0, y0), (x1, y1) in pairwise(f):
        if not x > x1:
            return y0 if x1 - x0 == 0 else y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return f[-1][1]


def searched(result: Any, name: str, examples: int) -> Outcome:
    """A finite_search result as an outcome (holds when no counterexample was found)."""
    if result is None:
        return Outcome(
            True,
            f"{name}: no counterexample among the edge cases and {examples} Hypothesis draws "
            "(distributions on 2-6 outcomes, decided on exact Arb balls)",
        )
    return Outcome(False, result.describe())
