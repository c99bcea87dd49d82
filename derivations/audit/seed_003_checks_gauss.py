"""The checks behind the audit of seed 003's Gaussian mechanism section.

Throughout: Delta f = 1, x ~ N(0, sigma^2) is the noise, sigma = c Delta f/eps with
c = sqrt(2 ln(1.25/delta)) (the seed's variance), f(x) - f(y) = Delta f (the worst pair).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

import mpmath
import sympy as sp

from derivations.audit.seed_003_tools import (
    dp_both_ways,
    engine_claim,
    found,
    loss_tail,
    mp_str,
    none_found,
    sym_zero,
)
from derivations.gaussian_mechanism import classical_sigma
from numeric_checks.dp.finite_search import FiniteStatement, hockey, implies, leq
from numeric_checks.dp.gaussian import exact_sigma, profile_closed_form
from symbolic.audit import Outcome
from symbolic.verdicts import Verdict

EPS, MU = sp.symbols("eps mu", positive=True)


def _c(delta: Any) -> Any:
    return mpmath.sqrt(2 * mpmath.log(mpmath.mpf(5) / 4 / delta))


def not_pure() -> Outcome:
    """The Gaussian privacy loss is unbounded, so no finite eps works with delta = 0."""
    z = sp.Symbol("z", real=True)
    sigma, shift = sp.symbols("sigma Delta", positive=True)
    loss = ((z - 0) ** 2 - (z - shift) ** 2) / (2 * sigma**2)  # ln p_x(z)/p_y(z)
    limit = sp.limit(loss, z, sp.oo)
    return Outcome(
        limit is sp.oo,
        f"SymPy: ln p_x(z)/p_y(z) = {sp.simplify(loss)} tends to {limit} as z -> oo, so "
        "D_inf = +inf (no pure DP), while the Laplace ratio is bounded (laplace-ratio)",
    )


def _phi(t: sp.Expr) -> sp.Expr:
    return sp.exp(-(t**2) / 2) / sp.sqrt(2 * sp.pi)


def _cdf(t: sp.Expr) -> sp.Expr:
    return (1 + sp.erf(t / sp.sqrt(2))) / 2


def larger_sigma_ok() -> Outcome:
    """delta(eps) of the Gaussian mechanism, Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)
    with mu = Delta/sigma, increases with mu: more noise keeps (eps, delta)-DP."""
    delta = _cdf(-EPS / MU + MU / 2) - sp.exp(EPS) * _cdf(-EPS / MU - MU / 2)
    identity = sym_zero(sp.exp(EPS) * _phi(-EPS / MU - MU / 2) - _phi(-EPS / MU + MU / 2))
    derivative = sym_zero(sp.diff(delta, MU) - _phi(-EPS / MU + MU / 2))
    return Outcome(
        identity and derivative,
        "SymPy: e^eps phi(-eps/mu - mu/2) = phi(-eps/mu + mu/2), hence d delta(eps)/d mu = "
        "phi(-eps/mu + mu/2) > 0: the exact profile (Balle & Wang 2018; catalog gdp-to-dp) "
        "decreases as sigma = Delta/mu grows",
    )


def smaller_sigma_works() -> Outcome:
    """A variance below the seed's still gives (eps, delta)-DP."""
    with mpmath.workdps(30):
        eps, delta = mpmath.mpf(1) / 2, mpmath.mpf(10) ** -5
        seed = classical_sigma(eps, delta)
        smaller = seed * 8 / 10
        got = profile_closed_form(1 / smaller, eps)
        least = exact_sigma(eps, delta)
    return Outcome(
        False if got <= delta else None,
        f"eps = 1/2, delta = 1e-5, Delta f = 1: the seed's sigma = {mp_str(seed)}; "
        f"sigma = 0.8 x that = {mp_str(smaller)} has exact delta(eps) = {mp_str(got)} <= delta; "
        f"the least sufficient sigma is {mp_str(least)} (variance {mp_str(least**2)} vs the "
        f"seed's {mp_str(seed**2)})",
    )


def least_sigma() -> Outcome:
    """The correction: the least sufficient sigma is where the exact profile meets delta."""
    with mpmath.workdps(30):
        eps, delta = mpmath.mpf(1) / 2, mpmath.mpf(10) ** -5
        least = exact_sigma(eps, delta)
        at = profile_closed_form(1 / least, eps)
        below = profile_closed_form(1 / (least * mpmath.mpf("0.99")), eps)
    ok = abs(at - delta) < delta * mpmath.mpf(10) ** -15 and below > delta
    return Outcome(
        ok,
        f"eps = 1/2, delta = 1e-5: at sigma = {mp_str(least)} the profile is {mp_str(at)} = "
        f"delta; at 0.99 sigma it is {mp_str(below)} > delta",
    )


def variance_vs_laplace() -> Outcome:
    """2 ln(1.25/delta) Delta^2/eps^2 > 2 Delta^2/eps^2 exactly when delta < 5/(4e)."""
    d = sp.Symbol("delta", positive=True)
    region = sp.solve_univariate_inequality(sp.log(sp.Rational(5, 4) / d) > 1, d, relational=False)
    want = sp.Interval.open(0, sp.Rational(5, 4) * sp.exp(-1))
    seeds = sp.solve_univariate_inequality(
        2 * sp.log(sp.Rational(5, 4) / d) > 1, d, relational=False
    )
    return Outcome(
        region == want,
        f"SymPy: the Gaussian variance exceeds the Laplace variance 2 Delta^2/eps^2 for delta "
        f"in {region}, i.e. delta < 5/(4e) = {float(want.sup):.4f}; against the seed's "
        f"Delta^2/eps^2 for delta in {seeds} (< {float(seeds.sup):.4f})",
    )


EPS_DELTA = {"eps": (Fraction(0), Fraction(3)), "delta": (Fraction(0), Fraction(1, 2))}


def approx_is_not_loss_bound() -> Outcome:
    """(eps, delta)-DP does not bound the privacy loss by eps with probability 1 - delta."""

    def meaning(d: Any, pr: Any) -> bool | None:
        tail = loss_tail(d[0], d[1], pr["eps"])
        holds = None if tail is None else leq(tail, pr["delta"])
        return implies(dp_both_ways(d[0], d[1], pr["eps"], pr["delta"]), holds)

    cx = found(FiniteStatement("(eps, delta)-DP => Pr[loss > eps] <= delta", 2, meaning, EPS_DELTA))
    with mpmath.workdps(20):
        prof, tail = profile_closed_form(1, 1), mpmath.ncdf(-mpmath.mpf(1) / 2)
    return Outcome(
        cx.holds,
        f"{cx.detail}; Gaussian mechanism with Delta/sigma = 1 at eps = 1: it is (1, "
        f"{mp_str(prof)})-DP (exact profile) but its loss exceeds 1 with probability "
        f"Phi(-1/2) = {mp_str(tail)}",
    )


def loss_bound_implies_dp() -> Outcome:
    """The correction: the loss bound is sufficient: hockey-stick <= Pr[loss > eps]."""
    return none_found(
        FiniteStatement(
            "delta(eps) <= Pr[loss > eps]",
            2,
            lambda d, pr: implies(
                loss_tail(d[0], d[1], pr["eps"]) is not None,
                leq(hockey(d[0], d[1], pr["eps"]), loss_tail(d[0], d[1], pr["eps"])),
            ),
            {"eps": EPS_DELTA["eps"]},
        )
    )


def tail_two_sided() -> Outcome:
    """Pr[|x| >= sigma^2 eps/Delta f - Delta f/2] < delta fails near delta = 1."""
    with mpmath.workdps(30):
        eps, delta = mpmath.mpf("0.99"), mpmath.mpf("0.97")
        sigma = _c(delta) / eps
        t = sigma**2 * eps - mpmath.mpf(1) / 2
        prob = 2 * mpmath.ncdf(-t / sigma)
        edge = mpmath.findroot(lambda d: _two_sided(1, d) - d, (0.9, 0.999), solver="anderson")
    return Outcome(
        False if prob > delta else None,
        f"eps = 0.99, delta = 0.97, sigma from the seed's formula: Pr[|x| >= "
        f"{mp_str(t)}] = {mp_str(prob)} > delta (at eps = 1 it fails for delta > "
        f"{mp_str(edge, 4)})",
    )


def _two_sided(eps: Any, delta: Any) -> Any:
    """2 Phi(-(c - eps/(2c))): Pr[|x| >= sigma^2 eps/Delta f - Delta f/2] for t > 0."""
    c = _c(delta)
    return 2 * mpmath.ncdf(-(c - eps / (2 * c)))


ONE_SIDED = """
[claim]
lhs = "Phi(-(c - eps/(2*c)))"
relation = "<="
rhs = "delta"
[variables]
eps = "(0, 1]"
delta = "(0, 1)"
[defs]
c = "sqrt(2*log(5/(4*delta)))"
"""


@cache
def tail_one_sided() -> Outcome:
    """The correction: the one-sided tail Pr[x > sigma^2 eps/Delta f - Delta f/2] <= delta
    (certified by the engine on eps in [1e-6, 1], delta in [1e-6, 1 - 1e-6])."""
    return engine_claim(ONE_SIDED, Verdict.CERTIFIED)


def partition() -> Outcome:
    x = sp.Symbol("x", real=True)
    a = sp.Symbol("a", positive=True)  # c Delta f/eps
    r1 = sp.Interval(-a, a)
    r2 = sp.Union(sp.Interval.open(-sp.oo, -a), sp.Interval.open(a, sp.oo))
    cover = sp.Or(sp.Abs(x) <= a, sp.Abs(x) > a) is sp.true
    disjoint = sp.And(sp.Abs(x) <= a, sp.Abs(x) > a) is sp.false
    return Outcome(
        cover and disjoint and sp.Complement(sp.Reals, r1) == r2,
        "SymPy: R_2 = R minus R_1, and |x| <= a or |x| > a is true, both false",
    )


def s1_loss() -> Outcome:
    """On R_1 the loss reaches eps/c + eps^2/(2 c^2), above eps when delta is large."""
    with mpmath.workdps(30):
        eps, delta = mpmath.mpf("0.99"), mpmath.mpf("0.9")
        c = _c(delta)
        sigma, edge, h = c / eps, c / eps, mpmath.mpf(1) / 100
        loss = eps / c + eps**2 / (2 * c**2)
        largest = mpmath.mpf(5) / 4 * mpmath.exp(-(((1 + mpmath.sqrt(3)) / 2) ** 2) / 2)
        px = mpmath.ncdf(edge / sigma) - mpmath.ncdf((edge - h) / sigma)  # f(x) = 1
        py = mpmath.ncdf((edge + 1) / sigma) - mpmath.ncdf((edge + 1 - h) / sigma)  # f(y) = 0
    return Outcome(
        False if loss > eps and px > mpmath.exp(eps) * py else None,
        f"eps = 0.99, delta = 0.9 (c = {mp_str(c)}): the loss at the edge of R_1 is "
        f"{mp_str(loss)} > eps; the event f(x) + [c/eps - 0.01, c/eps] has probability "
        f"{mp_str(px)} under x and {mp_str(py)} under y, ratio {mp_str(px / py)} > e^eps = "
        f"{mp_str(mpmath.exp(eps))} (at eps = 1 the loss exceeds eps on R_1 for delta > "
        f"{mp_str(largest, 4)}, where c < (1 + sqrt 3)/2)",
    )


def cut_at_threshold() -> Outcome:
    """The correction: cut at t = sigma^2 eps/Delta - Delta/2; the loss there is exactly eps."""
    sigma, delta_f, x = sp.symbols("sigma Delta x", positive=True)
    loss = (2 * x * delta_f + delta_f**2) / (2 * sigma**2)
    at_cut = loss.subs(x, sigma**2 * EPS / delta_f - delta_f / 2)
    increasing = sp.diff(loss, x).is_positive
    return Outcome(
        sym_zero(at_cut - EPS) and bool(increasing),
        "SymPy: the loss (2 x Delta + Delta^2)/(2 sigma^2) is increasing in x and equals eps "
        "at x = sigma^2 eps/Delta - Delta/2, so on {x <= t} the loss is at most eps for every "
        "delta",
    )


def _masses(delta: Any) -> tuple[Any, Any]:
    """Pr[x in R_1], Pr[x in R_2] at eps = 1 (sigma = c)."""
    inner = 1 - 2 * mpmath.ncdf(-_c(delta) / _c(delta))
    return inner, 1 - inner


def line1() -> Outcome:
    with mpmath.workdps(30):
        p1, _ = _masses(mpmath.mpf(10) ** -5)
    return Outcome(
        False if abs(1 - (p1 + 1)) > mpmath.mpf(1) / 10 else None,
        f"S = R, eps = 1, delta = 1e-5: Pr[f(x)+x in S] = 1 but Pr[.. in S_1] + Pr[.. in S] "
        f"= {mp_str(p1 + 1)}",
    )


def line1_as_meant() -> Outcome:
    """Pr[S] = Pr[S cap S_1] + Pr[S cap S_2] on an interval S (f(x) = 0, eps = 1)."""
    with mpmath.workdps(30):
        c = _c(mpmath.mpf(10) ** -5)
        sigma, lo, hi = c, mpmath.mpf(-1), mpmath.mpf(3) * c

        def pr(a: Any, b: Any) -> Any:
            return mpmath.ncdf(b / sigma) - mpmath.ncdf(a / sigma)

        whole = pr(lo, hi)
        parts = pr(lo, min(hi, c)) + pr(c, hi)  # S cap R_1, S cap R_2 (lo > -c)
    return Outcome(
        abs(whole - parts) < mpmath.mpf(10) ** -25,
        f"S = [-1, 3c]: Pr[S] = {mp_str(whole)} = Pr[S cap S_1] + Pr[S cap S_2]",
    )


def line2() -> Outcome:
    with mpmath.workdps(30):
        delta = mpmath.mpf(10) ** -5
        p1, p2 = _masses(delta)
    printed = p1 + 1 <= 1 + delta
    book = p1 + p2 <= p1 + delta
    return Outcome(
        False if not printed and not book else None,
        f"S = R, eps = 1, delta = 1e-5: as printed Pr[S_1] + Pr[S] = {mp_str(p1 + 1)} > "
        f"Pr[S] + delta; with S_1, S_2 as in the book Pr[S_1] + Pr[S_2] = 1 > Pr[S_1] + delta "
        f"= {mp_str(p1 + delta)} (Pr[S_2] = {mp_str(p2)})",
    )


def line3() -> Outcome:
    with mpmath.workdps(30):
        eps, delta = mpmath.mpf(1) / 2, mpmath.mpf(10) ** -5
        sigma = _c(delta) / eps
        s = 8 * sigma  # S = [s, oo), f(x) = 1, f(y) = 0; the loss passes eps near 4.8 sigma
        px, py = mpmath.ncdf(-(s - 1) / sigma), mpmath.ncdf(-s / sigma)
    return Outcome(
        False if px > mpmath.exp(eps) * py else None,
        f"eps = 1/2, delta = 1e-5, f(x) = 1, f(y) = 0, S = [8 sigma, oo): Pr[f(x)+x in S] = "
        f"{mp_str(px)} > e^eps Pr[f(y)+x in S] = {mp_str(mpmath.exp(eps) * py)}",
    )


def line3_both_readings() -> Outcome:
    """Line 3 as printed (S) and as in the book (S_1 with R_1 = {|x| <= c Delta f/eps})."""
    printed, book = line3(), s1_loss()
    refuted = printed.holds is False and book.holds is False
    return Outcome(
        False if refuted else None,
        f"as printed: {printed.detail}; as in the book (S_1): {book.detail}",
    )
