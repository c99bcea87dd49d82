"""Checks of seed 004, sections 一 and 二 (see :mod:`derivations.audit.seed_004_review`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import combinations
from typing import Any

import mpmath
import sympy as sp
from flint import arb

from derivations.advanced_composition import advanced_eps
from derivations.audit.seed_004_tools import (
    PL,
    F,
    curve,
    dominates,
    is_tradeoff,
    over_instances,
    push,
    random_dist,
    random_kernel,
    random_pair,
    same,
    searched,
    value,
)
from numeric_checks.dp.composition import optimal_eps
from numeric_checks.dp.finite_search import (
    FiniteStatement,
    all_of,
    hockey,
    implies,
    kl,
    leq,
    lt,
    search,
    tv,
)
from symbolic.audit import Outcome

DRAWS = 300


# --- section 一 ---------------------------------------------------------------------------


def _kl_monotone(d: Sequence[Sequence[Any]], p: Mapping[str, Any]) -> bool | None:
    """'KL determines DP': a smaller KL never comes with a larger delta at the same eps."""
    p1, q1, p2, q2 = d
    return implies(
        leq(kl(p1, q1), kl(p2, q2)), leq(hockey(p1, q1, p["eps"]), hockey(p2, q2, p["eps"]))
    )


def kl_does_not_determine_dp() -> Outcome:
    found = search(
        FiniteStatement(
            "KL(P1||Q1) <= KL(P2||Q2) implies delta_eps(P1, Q1) <= delta_eps(P2, Q2)",
            4,
            _kl_monotone,
            params={"eps": (F(0), F(3))},
        ),
        max_examples=DRAWS,
    )
    e = arb(1).exp()
    a_p, a_q = [e / (1 + e), 1 / (1 + e)], [1 / (1 + e), e / (1 + e)]
    b_p, b_q = [arb(999) / 1000, arb(1) / 1000], [arb(9) / 10, arb(1) / 10]
    numbers = (
        f"A: KL = {kl(a_p, a_q).mid()}, delta_1 = {hockey(a_p, a_q, 1).mid()} both ways; "
        f"B: KL(P||Q) = {kl(b_p, b_q).mid()}, KL(Q||P) = {kl(b_q, b_p).mid()}, "
        f"sup_S Q(S) - e P(S) = {hockey(b_q, b_p, 1).mid()}"
    )
    explicit = all_of(
        lt(kl(b_p, b_q), kl(a_p, a_q)),
        lt(kl(b_q, b_p), kl(a_q, a_p)),
        lt(hockey(a_p, a_q, 1), hockey(b_q, b_p, 1)),
    )
    if found is None or explicit is not True:
        return Outcome(True, f"no counterexample to KL monotonicity found; {numbers}")
    return Outcome(False, f"{found.describe()}; explicit pairs: {numbers}")


def _events_vs_hockey(d: Sequence[Sequence[Any]], p: Mapping[str, Any]) -> bool | None:
    """For every event S, P(S) <= e^eps Q(S) + delta  <=>  hockey(P, Q, eps) <= delta."""
    pp, qq = d
    n, factor = len(pp), p["eps"].exp()
    events = (s for r in range(n + 1) for s in combinations(range(n), r))
    every = all_of(
        *(
            leq(
                sum((pp[i] for i in s), arb(0)),
                factor * sum((qq[i] for i in s), arb(0)) + p["delta"],
            )
            for s in events
        )
    )
    by_hockey = leq(hockey(pp, qq, p["eps"]), p["delta"])
    return all_of(implies(every, by_hockey), implies(by_hockey, every))


def dp_is_hockey_stick() -> Outcome:
    found = search(
        FiniteStatement(
            "(eps, delta) over all events <=> hockey-stick <= delta",
            2,
            _events_vs_hockey,
            params={"eps": (F(0), F(3)), "delta": (F(0), F(1))},
        ),
        max_examples=DRAWS,
    )
    return searched(found, "the event-wise definition equals the hockey-stick bound", DRAWS)


def laplace_heavier_tail() -> Outcome:
    t = sp.Symbol("t", positive=True)
    lap = sp.exp(-sp.sqrt(2) * t) / 2  # Pr[Lap(0, 1/sqrt 2) > t], variance 1
    gauss = sp.erfc(t / sp.sqrt(2)) / 2  # Pr[N(0, 1) > t]
    limit = sp.limit(lap / gauss, t, sp.oo)
    return Outcome(limit == sp.oo, f"lim_(t->oo) Pr[Lap > t]/Pr[N > t] = {limit}")


def advanced_composition_is_loose() -> Outcome:
    rows = []
    ok = True
    with mpmath.workdps(30):
        for k in (10, 100):
            adv = advanced_eps(k, mpmath.mpf("0.1"), mpmath.mpf("1e-5"))
            opt = optimal_eps(k, mpmath.mpf("0.1"), mpmath.mpf("1e-5"))
            ok = ok and adv > opt
            rows.append(f"k={k}: advanced {mpmath.nstr(adv, 5)} > optimal {mpmath.nstr(opt, 5)}")
    return Outcome(ok, "; ".join(rows))


# --- section 二 ---------------------------------------------------------------------------

_X, _T = sp.symbols("x t", real=True)
_MU = sp.Symbol("mu", positive=True)


def _density(x: sp.Expr) -> sp.Expr:
    return sp.exp(-(x**2) / 2) / sp.sqrt(2 * sp.pi)


def _cdf(x: sp.Expr) -> sp.Expr:
    return (1 + sp.erf(x / sp.sqrt(2))) / 2


def error_formulas() -> Outcome:
    alpha = sp.integrate(_density(_X), (_X, _T, sp.oo))  # E_P0[1{X > t}]
    beta = 1 - sp.integrate(_density(_X - _MU), (_X, _T, sp.oo))  # 1 - E_P1[1{X > t}]
    r1 = sp.simplify((alpha - (1 - _cdf(_T))).rewrite(sp.erf))
    r2 = sp.simplify((beta - _cdf(_T - _MU)).rewrite(sp.erf))
    return Outcome(
        r1 == 0 and r2 == 0,
        f"E_P0[phi] - (1 - Phi(t)) = {r1}; 1 - E_P1[phi] - Phi(t - mu) = {r2}",
    )


def threshold_monotone() -> Outcome:
    d_alpha = sp.diff(1 - _cdf(_T), _T)
    d_beta = sp.diff(_cdf(_T - _MU), _T)
    return Outcome(
        bool(d_alpha.is_negative and d_beta.is_positive),
        f"d alpha/dt = {d_alpha} (negative: {d_alpha.is_negative}); "
        f"d beta/dt = {d_beta} (positive: {d_beta.is_positive})",
    )


def _tv_bound(d: Sequence[Sequence[Any]], p: Mapping[str, Any]) -> bool | None:
    p0, p1, r = d
    top = r[0]
    for x in r[1:]:
        top = top.max(x)
    phi = [x / top for x in r]
    alpha = sum((a * f for a, f in zip(p0, phi, strict=True)), arb(0))
    beta = 1 - sum((b * f for b, f in zip(p1, phi, strict=True)), arb(0))
    return leq(1 - tv(p0, p1), alpha + beta)


def tv_bound() -> Outcome:
    found = search(FiniteStatement("alpha + beta >= 1 - TV", 3, _tv_bound), max_examples=DRAWS)
    return searched(found, "alpha_phi + beta_phi >= 1 - TV(P0, P1)", DRAWS)


def _lp_infimum(p: Sequence[Fraction], q: Sequence[Fraction], a: Fraction) -> Fraction:
    """inf{1 - E_Q[phi] : E_P[phi] <= a, phi in [0,1]^n}: the optimum sits at a vertex of
    the feasible polytope, which has at most one fractional coordinate."""
    n, best = len(p), F(1)
    for r in range(n + 1):
        for s in combinations(range(n), r):
            mass = sum((p[i] for i in s), F(0))
            if mass > a:
                continue
            gain = sum((q[i] for i in s), F(0))
            best = min(best, 1 - gain)
            for j in set(range(n)) - set(s):
                if p[j] > 0:
                    t = min(F(1), (a - mass) / p[j])
                    best = min(best, 1 - gain - t * q[j])
    return best


def _infimum_instance(r: random.Random) -> tuple[bool, str]:
    p, q = random_pair(r)
    t = curve(p, q)
    for i in range(11):
        a = F(i, 10)
        if _lp_infimum(p, q, a) != value(t, a):
            return False, f"P={p}, Q={q}, alpha={a}: LP {_lp_infimum(p, q, a)} vs {value(t, a)}"
    return True, ""


def tradeoff_is_infimum() -> Outcome:
    return over_instances("inf over all tests = Neyman-Pearson curve", 40, 1, _infimum_instance)


def _min_total_error(t: PL) -> Fraction:
    return min(a + b for a, b in t)  # alpha + T(alpha) is convex: its minimum is at a vertex


def _tv_exact(p: Sequence[Fraction], q: Sequence[Fraction]) -> Fraction:
    return sum((abs(a - b) for a, b in zip(p, q, strict=True)), F(0)) / 2


def _harder_instance(r: random.Random) -> tuple[bool, str]:
    p, q = random_pair(r)
    t = curve(p, q)
    if _min_total_error(t) != 1 - _tv_exact(p, q):
        return False, f"P={p}, Q={q}: min(alpha + T) = {_min_total_error(t)} != 1 - TV"
    kern = random_kernel(r, len(p), r.randint(2, 4))  # post-processing: a larger curve
    p2, q2 = push(p, kern), push(q, kern)
    t2 = curve(p2, q2)
    larger, why = dominates(t2, t)
    if not larger:
        return False, f"post-processing lowered T: {why}"
    if _tv_exact(p2, q2) > _tv_exact(p, q):
        return False, f"T larger but TV larger: {_tv_exact(p2, q2)} > {_tv_exact(p, q)}"
    return True, ""


def larger_tradeoff_smaller_tv() -> Outcome:
    return over_instances("larger trade-off, smaller TV", 60, 2, _harder_instance)


def _characterization_instance(r: random.Random) -> tuple[bool, str]:
    p, q = random_pair(r)
    ok, why = is_tradeoff(curve(p, q))
    if not ok:
        return False, f"T(P, Q) for P={p}, Q={q} is {why}"
    m = r.randint(1, 5)
    widths = random_dist(r, m, zeros=False)
    ratios = sorted((F(r.randint(0, 20), r.randint(1, 5)) for _ in range(m)), reverse=True)
    height = sum((w * s for w, s in zip(widths, ratios, strict=True)), F(0))
    if height > 1:  # keep f(0) <= 1
        ratios = [s / height for s in ratios]
        height = F(1)
    pts = [(F(0), height)]
    for w, s in zip(widths, ratios, strict=True):
        pts.append((pts[-1][0] + w, pts[-1][1] - w * s))
    f = tuple(pts)
    ok, why = is_tradeoff(f)
    if not ok:
        return False, f"the constructed f is {why}"
    p2 = (*widths, F(0))
    q2 = (*(w * s for w, s in zip(widths, ratios, strict=True)), 1 - height)
    equal, why = same(curve(p2, q2), f)
    return equal, f"realising f={f}: {why}"


def tradeoff_characterization() -> Outcome:
    return over_instances(
        "characterization of trade-off functions", 60, 3, _characterization_instance
    )
