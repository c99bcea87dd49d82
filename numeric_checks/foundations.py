"""Numeric sanity checks of the named foundations (:mod:`symbolic.foundations`).

A foundation is taken as given, never proved here; what these checks can catch is a
foundation *stated wrongly* (a reversed inequality, a missing weight, a definition that does
not match what :mod:`numeric_checks.dp` computes).  Each foundation has a statement
evaluated on a random finite instance (finite events, finite distributions, a random test),
exactly in rational arithmetic where the statement is about finite sums, and to a stated
tolerance where it needs logarithms, exponentials or a quadrature.  Each has a mutant, a
wrong version of the statement, that the same check must reject: a sanity check that
cannot fail checks nothing.

:func:`find_violation` draws instances and returns the first one where a statement fails.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import mpmath

from numeric_checks.dp.divergences import approx_max_divergence, kl, max_divergence
from numeric_checks.dp.tradeoff.finite import FinitePair, tradeoff_curve
from symbolic.foundations import FOUNDATIONS

__all__ = ["MUTANTS", "STATEMENTS", "Comparison", "Statement", "find_violation"]

TOLERANCE = 1e-9
"""Allowed slack of a floating-point comparison (logarithms, exponentials, quadrature at
30 digits): far above their rounding, far below what a wrong statement misses by."""


@dataclass(frozen=True)
class Comparison:
    """``lhs REL rhs`` on one instance (``REL`` is ``<=`` or ``=``), with the instance."""

    lhs: Fraction | float
    relation: str
    rhs: Fraction | float
    instance: str

    @property
    def holds(self) -> bool:
        if isinstance(self.lhs, Fraction) and isinstance(self.rhs, Fraction):
            exact = self.lhs - self.rhs  # rational: no slack at all
            return exact <= 0 if self.relation == "<=" else exact == 0
        lhs, rhs = float(self.lhs), float(self.rhs)
        slack = TOLERANCE * max(1.0, abs(lhs), abs(rhs))
        if self.relation == "<=":
            return lhs - rhs <= slack
        return abs(lhs - rhs) <= slack


Statement = Callable[[random.Random], Comparison]
"""Draws an instance and says whether the statement holds on it."""


# -- random finite instances ----------------------------------------------------------------


def _distribution(rng: random.Random, n: int, *, zeros: bool = False) -> list[Fraction]:
    """A random distribution on ``n`` outcomes, exact; with ``zeros`` some atoms may be 0."""
    weights = [rng.randint(0 if zeros else 1, 20) for _ in range(n)]
    if sum(weights) == 0:
        weights[0] = 1
    total = sum(weights)
    return [Fraction(w, total) for w in weights]


def _event(rng: random.Random, n: int) -> set[int]:
    return {i for i in range(n) if rng.random() < 0.4}


def _pr(p: Sequence[Fraction], event: set[int]) -> Fraction:
    return sum((p[i] for i in event), Fraction(0))


def _values(rng: random.Random, n: int, low: int = -10) -> list[Fraction]:
    return [Fraction(rng.randint(low, 30), rng.randint(1, 4)) for _ in range(n)]


def _mp(xs: Sequence[Fraction]) -> list[mpmath.mpf]:
    """Exact fractions as mpmath numbers at the working precision (the dp functions'
    input)."""
    return [mpmath.mpf(x.numerator) / x.denominator for x in xs]


def _mean(p: Sequence[Fraction], xs: Sequence[Fraction]) -> Fraction:
    return sum((a * x for a, x in zip(p, xs, strict=True)), Fraction(0))


# -- the probability axioms used as rules -----------------------------------------------------


def union_bound(rng: random.Random, *, mutant: bool = False) -> Comparison:
    """Pr[A_1 or ... or A_k] <= sum Pr[A_i]; the mutant bounds it by max Pr[A_i]."""
    n, k = rng.randint(2, 8), rng.randint(2, 4)
    p = _distribution(rng, n)
    events = [_event(rng, n) for _ in range(k)]
    union = _pr(p, set().union(*events))
    each = [_pr(p, e) for e in events]
    bound = max(each) if mutant else sum(each, Fraction(0))
    return Comparison(union, "<=", bound, f"p={p}, events={events}")


def total_probability(rng: random.Random, *, mutant: bool = False) -> Comparison:
    """Pr[A] = sum_j Pr[A | B_j] Pr[B_j]; the mutant forgets the weights Pr[B_j] (averages
    the conditional probabilities)."""
    n = rng.randint(3, 9)
    p = _distribution(rng, n)
    a = _event(rng, n)
    m = rng.randint(2, 3)
    block = [rng.randrange(m) for _ in range(n)]
    parts = [{i for i in range(n) if block[i] == j} for j in range(m)]
    parts = [b for b in parts if _pr(p, b) > 0]
    conditional = [_pr(p, a & b) / _pr(p, b) for b in parts]
    if mutant:
        rhs = sum(conditional, Fraction(0)) / len(parts)
    else:
        rhs = sum((c * _pr(p, b) for c, b in zip(conditional, parts, strict=True)), Fraction(0))
    return Comparison(_pr(p, a), "=", rhs, f"p={p}, A={a}, partition={parts}")


def tower_property(rng: random.Random, *, mutant: bool = False) -> Comparison:
    """E[Y E[X | B]] = E[Y X] for Y constant on each block of a partition B; the mutant
    takes Y outside as its mean (E[Y] E[X], as if Y and X were independent)."""
    n, m = rng.randint(3, 9), rng.randint(2, 3)
    p, x = _distribution(rng, n), _values(rng, n)
    block = [rng.randrange(m) for _ in range(n)]
    per_block = [Fraction(rng.randint(-5, 5)) for _ in range(m)]
    y = [per_block[block[i]] for i in range(n)]
    lhs = _mean(p, [a * b for a, b in zip(y, x, strict=True)])
    if mutant:
        return Comparison(lhs, "=", _mean(p, y) * _mean(p, x), f"p={p}, x={x}, y={y}")
    weight = {j: _pr(p, {i for i in range(n) if block[i] == j}) for j in range(m)}
    given = {
        j: sum((p[i] * x[i] for i in range(n) if block[i] == j), Fraction(0)) / w
        for j, w in weight.items()
        if w > 0
    }
    rhs = sum((p[i] * y[i] * given[block[i]] for i in range(n)), Fraction(0))
    return Comparison(lhs, "=", rhs, f"p={p}, x={x}, y={y}, blocks={block}")


def linearity_of_expectation(rng: random.Random, *, mutant: bool = False) -> Comparison:
    """E[X + Y] = E[X] + E[Y] for X, Y on one space (dependent); the mutant claims
    E[max(X, Y)] = max(E[X], E[Y])."""
    n = rng.randint(2, 8)
    p = _distribution(rng, n)
    xs, ys = _values(rng, n), _values(rng, n)
    if mutant:
        lhs = _mean(p, [max(x, y) for x, y in zip(xs, ys, strict=True)])
        return Comparison(lhs, "=", max(_mean(p, xs), _mean(p, ys)), f"p={p}, X={xs}, Y={ys}")
    lhs = _mean(p, [x + y for x, y in zip(xs, ys, strict=True)])
    return Comparison(lhs, "=", _mean(p, xs) + _mean(p, ys), f"p={p}, X={xs}, Y={ys}")


def markov_inequality(rng: random.Random, *, mutant: bool = False) -> Comparison:
    """Pr[X >= a] <= E[X]/a for X >= 0 and a > 0; the mutant halves the bound.  The
    threshold is one of X's values half the time: a bound's mutant fails at the edge."""
    n = rng.randint(1, 6)
    p = _distribution(rng, n)
    xs = _values(rng, n, low=0)
    positive = [x for x in xs if x > 0]
    a = rng.choice(positive) if positive and rng.random() < 0.5 else Fraction(rng.randint(1, 40), 4)
    tail = _pr(p, {i for i in range(n) if xs[i] >= a})
    bound = _mean(p, xs) / a / (2 if mutant else 1)
    return Comparison(tail, "<=", bound, f"p={p}, X={xs}, a={a}")


def independence_product(rng: random.Random, *, mutant: bool = False) -> Comparison:
    """E[XY] = E[X] E[Y] for independent X, Y (the joint law is the product of the
    marginals); the mutant claims it for a joint law drawn at random (dependent)."""
    n, m = rng.randint(2, 4), rng.randint(2, 4)
    px, py = _distribution(rng, n), _distribution(rng, m)
    xs, ys = _values(rng, n), _values(rng, m)
    if mutant:
        flat = _distribution(rng, n * m)
        joint = [[flat[i * m + j] for j in range(m)] for i in range(n)]
        px = [sum(row, Fraction(0)) for row in joint]
        py = [sum((joint[i][j] for i in range(n)), Fraction(0)) for j in range(m)]
    else:
        joint = [[px[i] * py[j] for j in range(m)] for i in range(n)]
    exy = sum((joint[i][j] * xs[i] * ys[j] for i in range(n) for j in range(m)), Fraction(0))
    return Comparison(exy, "=", _mean(px, xs) * _mean(py, ys), f"joint={joint}, X={xs}, Y={ys}")


# -- classical facts -------------------------------------------------------------------------


def jensen_convex(rng: random.Random, *, mutant: bool = False) -> Comparison:
    """f(E[X]) <= E[f(X)] for the convex f = exp and f = -log (X > 0); the mutant applies it
    to the concave log."""
    n = rng.randint(2, 6)
    p = _distribution(rng, n)
    xs = [Fraction(rng.randint(1, 40), 8) for _ in range(n)]
    name = "log" if mutant else rng.choice(["exp", "-log"])
    f: Callable[[float], float] = {
        "exp": math.exp,
        "-log": lambda x: -math.log(x),
        "log": math.log,
    }[name]
    lhs = f(float(_mean(p, xs)))
    rhs = math.fsum(float(a) * f(float(x)) for a, x in zip(p, xs, strict=True))
    return Comparison(lhs, "<=", rhs, f"f={name}, p={p}, X={xs}")


def _lr_test(
    p: Sequence[Fraction], q: Sequence[Fraction], alpha: Fraction, *, reverse: bool = False
) -> list[Fraction]:
    """The likelihood-ratio test of P against Q at level ``alpha``: reject outcomes in
    decreasing order of q/p (outcomes P does not charge first), randomising on the last
    (``reverse``: in increasing order, the mutant's test)."""

    def ratio(i: int) -> Fraction:
        return q[i] / p[i] if p[i] > 0 else Fraction(10**9)

    order = sorted(range(len(p)), key=ratio, reverse=not reverse)
    phi = [Fraction(0)] * len(p)
    left = alpha
    for i in order:
        if p[i] == 0:
            phi[i] = Fraction(0) if reverse else Fraction(1)
            continue
        take = min(Fraction(1), left / p[i])
        phi[i] = take
        left -= take * p[i]
    return phi


def _errors(
    p: Sequence[Fraction], q: Sequence[Fraction], phi: Sequence[Fraction]
) -> tuple[Fraction, Fraction]:
    """(type I error E_P[phi], type II error 1 - E_Q[phi]) of the rejection rule phi."""
    return _mean(p, phi), 1 - _mean(q, phi)


def neyman_pearson(rng: random.Random, *, mutant: bool = False) -> Comparison:
    """No test of level alpha has a smaller type II error than the likelihood-ratio test:
    a random test phi (scaled to level alpha) is compared with it on random finite P, Q.
    The mutant's "optimal" test rejects where the likelihood ratio is smallest."""
    n = rng.randint(2, 6)
    p, q = _distribution(rng, n, zeros=True), _distribution(rng, n, zeros=True)
    alpha = Fraction(rng.randint(0, 20), 20)
    best = _lr_test(p, q, alpha, reverse=mutant)
    phi = [Fraction(rng.randint(0, 10), 10) for _ in range(n)]
    size = _mean(p, phi)
    if size > alpha:
        phi = [x * alpha / size for x in phi]
    _, beta_best = _errors(p, q, best)
    _, beta_phi = _errors(p, q, phi)
    return Comparison(beta_best, "<=", beta_phi, f"P={p}, Q={q}, alpha={alpha}, phi={phi}")


def normal_rotation_invariance(rng: random.Random, *, mutant: bool = False) -> Comparison:
    """For Z ~ N(0, I_2), Pr[v1 Z1 + v2 Z2 <= t] = Phi(t/|v|), the left side by quadrature
    (conditioning on Z1: the integral of phi(z) Phi((t - v1 z)/|v2|)).  The mutant's scale
    is |v1| + |v2|."""
    v1 = rng.choice([-1, 1]) * rng.uniform(0.2, 3.0)
    v2 = rng.choice([-1, 1]) * rng.uniform(0.2, 3.0)
    t = rng.uniform(-3.0, 3.0)
    lhs = _simpson(lambda z: _npdf(z) * _ncdf((t - v1 * z) / abs(v2)), -12.0, 12.0, 4000)
    scale = abs(v1) + abs(v2) if mutant else math.hypot(v1, v2)
    return Comparison(lhs, "=", _ncdf(t / scale), f"v=({v1:.4g}, {v2:.4g}), t={t:.4g}")


def _npdf(z: float) -> float:
    return math.exp(-z * z / 2) / math.sqrt(2 * math.pi)


def _ncdf(x: float) -> float:
    return math.erfc(-x / math.sqrt(2)) / 2


def _simpson(f: Callable[[float], float], a: float, b: float, intervals: int) -> float:
    """Composite Simpson's rule: for these smooth integrands (a normal density times a
    normal distribution function, cut at |z| = 12 where the density is below 1e-31) its
    error with 4000 intervals is below 1e-13, far inside :data:`TOLERANCE`."""
    h = (b - a) / intervals
    odd = math.fsum(f(a + i * h) for i in range(1, intervals, 2))
    even = math.fsum(f(a + i * h) for i in range(2, intervals, 2))
    return h / 3 * (f(a) + f(b) + 4 * odd + 2 * even)


# -- the definitions, against numeric_checks.dp's implementations ---------------------------


def _pair(rng: random.Random) -> tuple[list[Fraction], list[Fraction]]:
    n = rng.randint(2, 6)
    return _distribution(rng, n, zeros=True), _distribution(rng, n)


def kl_definition(rng: random.Random, *, mutant: bool = False) -> Comparison:
    """D(P||Q) = sum_y P(y) log(P(y)/Q(y)), against :func:`numeric_checks.dp.divergences.kl`;
    the mutant swaps the ratio (sum P log(Q/P))."""
    p, q = _pair(rng)
    terms = [
        float(a) * math.log(float(b / a) if mutant else float(a / b))
        for a, b in zip(p, q, strict=True)
        if a > 0
    ]
    with mpmath.workdps(30):
        implemented = float(kl(_mp(p), _mp(q)))
    return Comparison(math.fsum(terms), "=", implemented, f"P={p}, Q={q}")


def max_divergence_definition(rng: random.Random, *, mutant: bool = False) -> Comparison:
    """D_inf(P||Q) = max over events S with P(S) > 0 of log(P(S)/Q(S)), over every event,
    against :func:`numeric_checks.dp.divergences.max_divergence` (which takes the max over
    single outcomes); the mutant takes the max of log(Q(S)/P(S))."""
    p, q = _pair(rng)
    best = -math.inf
    for size in range(1, len(p) + 1):
        for s in itertools.combinations(range(len(p)), size):
            ps, qs = _pr(p, set(s)), _pr(q, set(s))
            if ps > 0:
                best = max(best, math.log(float(qs / ps) if mutant else float(ps / qs)))
    with mpmath.workdps(30):
        implemented = float(max_divergence(_mp(p), _mp(q)))
    return Comparison(best, "=", implemented, f"P={p}, Q={q}")


def approx_max_divergence_definition(rng: random.Random, *, mutant: bool = False) -> Comparison:
    """D_inf^delta(P||Q) = max over S with P(S) > delta of log((P(S) - delta)/Q(S)), by
    every event, against :func:`numeric_checks.dp.divergences.approx_max_divergence` on
    P of 15 or more atoms (where it bisects on the hockey-stick divergence instead of
    enumerating events); the mutant puts delta in the denominator, log(P(S)/(Q(S) +
    delta))."""
    n = 15
    p = [Fraction(1, 30)] * 10 + _distribution(rng, 5)
    p = [x / sum(p, Fraction(0)) for x in p]
    q = _distribution(rng, n)
    delta = Fraction(rng.randint(1, 30), 100)
    # Every event, its P(S) and Q(S) from the event less its lowest outcome (2^15 sums).
    pf, qf, d = [float(x) for x in p], [float(x) for x in q], float(delta)
    ps, qs = [0.0] * (1 << n), [0.0] * (1 << n)
    best = -math.inf
    for mask in range(1, 1 << n):
        low = (mask & -mask).bit_length() - 1
        ps[mask] = ps[mask & (mask - 1)] + pf[low]
        qs[mask] = qs[mask & (mask - 1)] + qf[low]
        if mutant:
            best = max(best, math.log(ps[mask] / (qs[mask] + d)))
        elif ps[mask] > d:
            best = max(best, math.log((ps[mask] - d) / qs[mask]))
    with mpmath.workdps(30):
        implemented = float(approx_max_divergence(_mp(p), _mp(q), _mp([delta])[0]))
    return Comparison(best, "=", implemented, f"P={[str(x) for x in p]}, Q={q}, delta={delta}")


def tradeoff_definition(rng: random.Random, *, mutant: bool = False) -> Comparison:
    """T(P, Q)(alpha) = inf {beta_phi : alpha_phi <= alpha} over rejection rules phi in
    [0, 1]^n, against :func:`numeric_checks.dp.tradeoff.finite.tradeoff_curve`.  The inf of
    this linear programme is attained at a vertex, where at most one phi_i is strictly
    between 0 and 1: every vertex is enumerated, exactly.  The mutant takes the inf over
    deterministic tests only (phi in {0, 1}^n)."""
    n = rng.randint(2, 5)
    p, q = _distribution(rng, n), _distribution(rng, n, zeros=True)
    alpha = Fraction(rng.randint(0, 40), 40)
    best: Fraction | None = None
    for mask in itertools.product((0, 1), repeat=n):
        s = {i for i in range(n) if mask[i]}
        size = _pr(p, s)
        if size > alpha:
            continue
        candidates = [1 - _pr(q, s)]
        if not mutant:
            for j in set(range(n)) - s:
                fraction = min(Fraction(1), (alpha - size) / p[j])
                candidates.append(1 - _pr(q, s) - fraction * q[j])
        low = min(candidates)
        best = low if best is None else min(best, low)
    assert best is not None  # the empty test has size 0 <= alpha
    with mpmath.workdps(30):
        implemented = float(tradeoff_curve(FinitePair.make(_mp(p), _mp(q)))(_mp([alpha])[0]))
    return Comparison(float(best), "=", implemented, f"P={p}, Q={q}, alpha={alpha}")


_CHECKS: dict[str, Callable[..., Comparison]] = {
    "union-bound": union_bound,
    "total-probability": total_probability,
    "tower-property": tower_property,
    "linearity-of-expectation": linearity_of_expectation,
    "markov-inequality": markov_inequality,
    "independence-product": independence_product,
    "jensen-convex": jensen_convex,
    "neyman-pearson": neyman_pearson,
    "normal-rotation-invariance": normal_rotation_invariance,
    "kl-divergence-definition": kl_definition,
    "max-divergence-definition": max_divergence_definition,
    "approx-max-divergence-definition": approx_max_divergence_definition,
    "tradeoff-function-definition": tradeoff_definition,
}
assert set(_CHECKS) == set(FOUNDATIONS), "every named foundation needs a sanity check"

STATEMENTS: dict[str, Statement] = {name: check for name, check in _CHECKS.items()}
"""Foundation name -> its statement on a random instance."""
MUTANTS: dict[str, Statement] = {
    name: functools.partial(check, mutant=True) for name, check in _CHECKS.items()
}
"""Foundation name -> a wrong version of its statement (each must be rejected)."""


def find_violation(statement: Statement, trials: int = 200, seed: int = 0) -> Comparison | None:
    """The first of ``trials`` random instances (seeded) where ``statement`` fails, or
    None when it holds on every one."""
    rng = random.Random(seed)
    for _ in range(trials):
        c = statement(rng)
        if not c.holds:
            return c
    return None
