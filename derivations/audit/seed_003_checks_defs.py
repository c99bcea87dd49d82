"""The checks behind the audit of seed 003's first sections (definitions, divergences,
sensitivity): each computes its evidence from first principles and returns an Outcome."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from math import prod
from typing import Any

import mpmath
import sympy as sp
from flint import arb, ctx

from derivations.audit.seed_003_tools import (
    dp_both_ways,
    engine_claim,
    exact_dists,
    mp_str,
    none_found,
    nonempty_subsets,
    sym_zero,
)
from numeric_checks.dp.divergences import kl as kl_mp
from numeric_checks.dp.finite_search import (
    FiniteStatement,
    all_of,
    hockey,
    implies,
    kl,
    leq,
    max_div,
    renyi,
)
from numeric_checks.dp.laplace import hockey_stick, laplace_density, laplace_interval
from symbolic.audit import Outcome
from symbolic.verdicts import Verdict

EPS = {"eps": (Fraction(0), Fraction(4))}


def membership_errors() -> Outcome:
    """Under eps-DP every membership test has false-alarm + miss >= 2/(1 + e^eps) > 0, and
    randomized response attains it."""
    t = sp.Symbol("t", positive=True)  # e^eps = 1 + t with eps > 0
    a = sp.Symbol("alpha", nonnegative=True)  # false-alarm rate Q(S)
    e = 1 + t
    star, low = 1 / (1 + e), 2 / (1 + e)
    by_s = a + (1 - e * a)  # miss >= 1 - e^eps Q(S), from P(S) <= e^eps Q(S)
    by_complement = a + (1 - a) / e  # miss >= e^-eps (1 - Q(S)), from the complement
    meet = sym_zero(by_s.subs(a, star) - low) and sym_zero(by_complement.subs(a, star) - low)
    slopes = bool(sp.diff(by_s, a).is_negative) and bool(
        sp.simplify(sp.diff(by_complement, a)).is_positive
    )
    rr = sym_zero(star + (1 - e / (1 + e)) - low)  # randomized response: Q(S) = miss = star

    def events(d: Sequence[Sequence[Any]], pr: Mapping[str, Any]) -> bool | None:
        p, q = d[0], d[1]
        bound = 2 / (1 + arb(pr["eps"]).exp())
        rows = [
            leq(bound, sum((q[i] for i in s), arb(0)) + 1 - sum((p[i] for i in s), arb(0)))
            for s in nonempty_subsets(len(p))
        ]
        return implies(dp_both_ways(p, q, pr["eps"], arb(0)), all_of(*rows))

    search = none_found(FiniteStatement("false alarm + miss >= 2/(1+e^eps)", 2, events, EPS))
    with mpmath.workdps(20):
        accuracy = mpmath.e / (1 + mpmath.e)
    ok = meet and slopes and rr and search.holds is True
    return Outcome(
        ok,
        "SymPy: the two DP constraints on a test (event S and its complement) meet at "
        "Q(S) = 1/(1+e^eps) where false alarm + miss = 2/(1+e^eps) > 0, one decreasing and one "
        f"increasing in Q(S), and randomized response attains it; {search.detail}; at eps = 1 "
        f"the best test is still right with probability {mp_str(accuracy)} (equal priors)",
    )


def _levenshtein(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1]


def edit_distance_one() -> Outcome:
    """On X^n, edit distance 1 is the same relation as 'differ in one entry'."""
    pairs = 0
    for n in range(1, 5):
        words = list(itertools.product(range(3), repeat=n))
        for a, b in itertools.product(words, repeat=2):
            pairs += 1
            hamming = sum(x != y for x, y in zip(a, b, strict=True))
            if (hamming == 1) != (_levenshtein(a, b) == 1):
                return Outcome(False, f"{a} and {b}: Hamming {hamming}, edit distance differs")
    return Outcome(
        True,
        f"all {pairs} ordered pairs of X^n, |X| = 3, n = 1..4: edit distance 1 exactly when "
        "one entry differs (an insertion or deletion changes the length)",
    )


def values_within_eps() -> Outcome:
    """The Laplace mechanism (Delta f = 1, eps = 1) is 1-DP, yet its outputs on neighbours
    are more than eps apart with probability 1/2 + e^-2."""
    with mpmath.workdps(30):
        eps, b = mpmath.mpf(1), mpmath.mpf(1)

        def apart(s: Any) -> Any:  # Pr over L2 that |s - (1 + L2)| > eps
            return 1 - laplace_interval(s - 1 - eps, s - 1 + eps, 0, b)

        prob = mpmath.quad(
            lambda s: laplace_density(s, 0, b) * apart(s), [-mpmath.inf, 0, 2, mpmath.inf]
        )
        gap = max(hockey_stick(0, 1, b, eps), hockey_stick(1, 0, b, eps))
        closed = mpmath.mpf(1) / 2 + mpmath.exp(-2)
        ok = abs(prob - closed) < mpmath.mpf(10) ** -20 and gap < mpmath.mpf(10) ** -20
    return Outcome(
        False if ok else None,
        f"f(x) = 0, f(x') = 1, b = Delta f/eps = 1: the mechanism is 1-DP (hockey-stick "
        f"divergence at e^eps {mp_str(gap, 3)} both ways), but Pr[|M(x) - M(x')| > eps] = "
        f"{mp_str(prob, 12)} (quadrature; closed form 1/2 + e^-2 = {mp_str(closed, 12)})",
    )


def eps_dp_is_bounded_ratio() -> Outcome:
    """The correction: the output laws are within a factor e^eps on every event."""
    with mpmath.workdps(30):
        gap = max(hockey_stick(0, 1, 1, 1), hockey_stick(1, 0, 1, 1))
    return Outcome(
        bool(gap < mpmath.mpf(10) ** -20),
        f"Laplace, eps = 1, neighbours 0 and 1: sup_S Pr[M(x) in S] - e^eps Pr[M(x') in S] = "
        f"{mp_str(gap, 3)} (both ways)",
    )


def relaxation() -> Outcome:
    """eps-DP implies (eps, delta)-DP, and (eps, delta) with delta > 0 is strictly weaker."""
    implied = engine_claim(
        """
hypotheses = ["a <= exp(eps)*b"]
[claim]
lhs = "a"
relation = "<="
rhs = "exp(eps)*b + delta"
[variables]
eps = "[0, oo)"
delta = "[0, 1]"
a = "[0, 1]"
b = "[0, 1]"
""",
        Verdict.PROVED,
    )
    delta = arb(1) / 8  # exact in binary, so the equalities below are decided
    p, q = [1 - delta, delta], [arb(1), arb(0)]
    strict = dp_both_ways(p, q, arb(0), delta) is True and leq(max_div(p, q), 1000) is False
    return Outcome(
        implied.holds is True and strict,
        f"Pr[M(x) in S] <= e^eps Pr[M(x') in S] implies the same + delta: {implied.detail}; "
        "strictly weaker: P = (7/8, 1/8), Q = (1, 0) are (0, 1/8)-indistinguishable both "
        "ways (exact) but D_inf(P||Q) = +inf, so no eps-DP",
    )


def _release(x: tuple[int, ...], delta: Fraction) -> dict[tuple[tuple[int, int], ...], Fraction]:
    """Publish each record (index, value) independently with probability delta."""
    out: dict[tuple[tuple[int, int], ...], Fraction] = {}
    for mask in itertools.product((0, 1), repeat=len(x)):
        key = tuple((i, x[i]) for i, m in enumerate(mask) if m)
        out[key] = prod((delta if m else 1 - delta for m in mask), start=Fraction(1))
    return out


def delta_small() -> Outcome:
    """The mechanism publishing each record with probability delta is (eps, delta)-DP for
    every eps, and publishes n delta records on average: delta must be far below 1/n."""
    cases = 0
    for n in range(1, 4):
        for delta in (Fraction(1, 10), Fraction(1, n + 1), Fraction(1, n)):
            for x in itertools.product((0, 1), repeat=n):
                for j in range(n):
                    y = tuple(1 - v if i == j else v for i, v in enumerate(x))
                    p, q = _release(x, delta), _release(y, delta)
                    only_x = sum((v for k, v in p.items() if k not in q), Fraction(0))
                    same = all(p[k] == q[k] for k in p if k in q)
                    cases += 1
                    if only_x != delta or not same:
                        return Outcome(False, f"n = {n}, delta = {delta}: gap {only_x}")
    n = 3
    seen = 1 - (1 - Fraction(1, n)) ** n
    return Outcome(
        True,
        f"exact (Fractions), {cases} neighbouring pairs, n = 1..3: the laws agree except on "
        "outputs naming the changed record, which have probability exactly delta, so the "
        "mechanism is (eps, delta)-DP for every eps >= 0 while publishing n delta records in "
        f"expectation; at delta = 1/n = 1/3 some record is published with probability {seen}",
    )


def gibbs() -> Outcome:
    """KL is >= 0 (what makes it usable as a distance) but not symmetric."""
    found = none_found(FiniteStatement("KL >= 0", 2, lambda d, pr: leq(0, kl(d[0], d[1]))))
    with mpmath.workdps(20):
        a = kl_mp([0.5, 0.5], [0.25, 0.75])
        b = kl_mp([0.25, 0.75], [0.5, 0.5])
    return Outcome(
        found.holds,
        f"{found.detail}; not a metric: D((1/2,1/2)||(1/4,3/4)) = {mp_str(a)} but "
        f"D((1/4,3/4)||(1/2,1/2)) = {mp_str(b)}",
    )


def kl_below_max() -> Outcome:
    return none_found(
        FiniteStatement("KL <= D_inf", 2, lambda d, pr: leq(kl(d[0], d[1]), max_div(d[0], d[1])))
    )


def _ratio(a: Fraction, b: Fraction) -> Fraction | float:
    return a / b if b else float("inf")


def events_equal_points() -> Outcome:
    """max over events S within Supp(Y) of P(S)/Q(S) equals the max over single outcomes."""
    pairs = 0
    for n in range(2, 6):
        for p, q in zip(exact_dists(80, n, n), exact_dists(80, n, 100 + n), strict=True):
            supp = [i for i in range(n) if p[i] > 0]
            by_event = max(
                _ratio(
                    sum((p[supp[i]] for i in s), Fraction(0)),
                    sum((q[supp[i]] for i in s), Fraction(0)),
                )
                for s in nonempty_subsets(len(supp))
            )
            by_point = max(_ratio(p[i], q[i]) for i in supp)
            pairs += 1
            if by_event != by_point:
                return Outcome(False, f"P = {p}, Q = {q}: {by_event} vs {by_point}")
    return Outcome(
        True,
        f"exact rationals, {pairs} random pairs on 2..5 outcomes (zeros included): the largest "
        "P(S)/Q(S) over nonempty S within Supp(P) equals the largest P(y)/Q(y) (ln is increasing)",
    )


def max_div_is_dp() -> Outcome:
    """D_inf(P||Q) <= eps exactly when P(S) <= e^eps Q(S) for every event S."""

    def both(d: Sequence[Sequence[Any]], pr: Mapping[str, Any]) -> bool | None:
        p, q, eps = d[0], d[1], pr["eps"]
        bounded = leq(max_div(p, q), eps)
        events = leq(hockey(p, q, eps), 0)
        return all_of(implies(bounded, events), implies(events, bounded))

    return none_found(FiniteStatement("D_inf <= eps iff every event obeys e^eps", 2, both, EPS))


def renyi_between() -> Outcome:
    """KL <= D_alpha <= D_inf and D_alpha nondecreasing in alpha; the two ends are limits."""
    orders = {"alpha": (Fraction(9, 8), Fraction(20)), "step": (Fraction(1, 8), Fraction(10))}

    def sandwich(d: Sequence[Sequence[Any]], pr: Mapping[str, Any]) -> bool | None:
        p, q, al = d[0], d[1], pr["alpha"]
        r = renyi(p, q, al)
        return all_of(
            leq(kl(p, q), r),
            leq(r, max_div(p, q)),
            leq(r, renyi(p, q, arb(al) + pr["step"])),
        )

    found = none_found(FiniteStatement("KL <= D_alpha <= D_alpha+s <= D_inf", 2, sandwich, orders))
    saved, ctx.prec = ctx.prec, 128  # the order 1 + 1e-12 cancels 40 bits
    try:
        p = [arb(1) / 2, arb(1) / 2]
        q = [arb(1) / 4, arb(3) / 4]
        near_one = abs(renyi(p, q, 1 + arb(10) ** -12) - kl(p, q))
        far = abs(renyi(p, q, arb(10) ** 6) - max_div(p, q))
        limits = leq(near_one, arb(10) ** -10) is True and leq(far, arb(10) ** -5) is True
    finally:
        ctx.prec = saved
    return Outcome(
        found.holds if limits else None,
        f"{found.detail}; at P = (1/2,1/2), Q = (1/4,3/4): |D_(1+1e-12) - KL| <= 1e-10 and "
        "|D_(1e6) - D_inf| <= 1e-5",
    )


def gaussian_l2() -> Outcome:
    """The Gaussian privacy loss depends on f(x) - f(y) only through its l2 norm."""
    w1, w2, d1, d2 = sp.symbols("w1 w2 d1 d2", real=True)
    s = sp.Symbol("sigma", positive=True)
    loss = ((w1 + d1) ** 2 + (w2 + d2) ** 2 - w1**2 - w2**2) / (2 * s**2)
    linear = (d1 * w1 + d2 * w2) / s**2 + (d1**2 + d2**2) / (2 * s**2)
    return Outcome(
        sym_zero(loss - linear),
        "SymPy: with z = f(x) + w, ln p_x(z)/p_y(z) = <d, w>/sigma^2 + ||d||_2^2/(2 sigma^2), "
        "d = f(x) - f(y) in R^2; for w ~ N(0, sigma^2 I) it is N(||d||^2/(2 sigma^2), "
        "||d||^2/sigma^2): only ||d||_2 matters",
    )
