"""Seed 002, the definitions: the section's opening, Definition 3.5 (KL divergence) and the
facts stated after it, Definition 3.6 (max divergence), Remark 3.1 and the statistical
distance.  Each check re-runs in well under a second."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp
from sympy.stats import E, FiniteRV

from derivations.audit.seed_002_tools import (
    Balls,
    Params,
    approx_dp,
    approx_max_div_le,
    event_gap,
    events,
    hockey,
    mass,
    max_ratio,
    max_ratio_events,
    pairs,
    pure_dp,
    searched,
    show,
    support,
    tv,
)
from numeric_checks.dp.divergences import gaussian_kl
from numeric_checks.dp.finite_search import all_of, implies, kl, leq, lt
from numeric_checks.dp.finite_search import tv as tv_arb
from symbolic.audit import Outcome

__all__ = [
    "check_approx_def_as_written",
    "check_approx_def_strict",
    "check_kl_asymmetric",
    "check_kl_forms",
    "check_kl_infinite",
    "check_kl_integral",
    "check_kl_no_triangle",
    "check_kl_nonnegative",
    "check_max_div_by_outcomes",
    "check_numerator_positive",
    "check_numerator_positive_corrected",
    "check_relu_support",
    "check_remark_approx",
    "check_remark_pure",
    "check_statistical_distance",
]

R_VALUES = (Fraction(1), Fraction(3, 2), Fraction(2), Fraction(5))
"""Values of r = e^eps (eps = 0, ln 1.5, ln 2, ln 5), rational so that comparisons are exact."""


def _kl_exact(p: tuple[sp.Expr, ...], q: tuple[sp.Expr, ...]) -> sp.Expr:
    return sp.Add(*[a * sp.log(a / b) for a, b in zip(p, q, strict=True) if a != 0])


def check_kl_forms() -> Outcome:
    """Definition 3.5: E_{y~Y}[ln(Pr[Y=y]/Pr[Z=y])] = sum_y Pr[Y=y] ln(Pr[Y=y]/Pr[Z=y]), with
    the expectation computed by sympy.stats from the law of Y (three outcomes, symbolic)."""
    p = sp.symbols("p1:4", positive=True)
    q = sp.symbols("q1:4", positive=True)
    y = FiniteRV("Y", {1: p[0], 2: p[1], 3: p[2]}, check=False)
    log_ratio = sp.Piecewise(*[(sp.log(p[i] / q[i]), sp.Eq(y, i + 1)) for i in range(3)])
    residual = sp.simplify(E(log_ratio) - _kl_exact(p, q))
    return Outcome(residual == 0, f"E[ln ratio] - sum form simplifies to {residual}")


def _bin(lo: Any, hi: Any, shift: Any) -> Any:
    """Pr[lo < N(shift, 1) <= hi], from the nearer tail (no cancellation)."""
    a, b = lo - shift, hi - shift
    if b <= 0:
        return mpmath.ncdf(b) - mpmath.ncdf(a)
    return mpmath.ncdf(-a) - mpmath.ncdf(-b)


def check_kl_integral(mu: str = "1.3") -> Outcome:
    """The translator's integral form on Y = N(mu, 1), Z = N(0, 1): the integral (quadrature)
    against the sum form of both laws binned at width h, which can only fall short of it
    (data processing) and tends to it as h -> 0."""
    with mpmath.workdps(30):
        m = mpmath.mpf(mu)
        integral = gaussian_kl(m)
        gaps = []
        for h in (mpmath.mpf("0.4"), mpmath.mpf("0.1")):
            edges = [-mpmath.inf] + [-10 + h * k for k in range(int(24 / h) + 1)] + [mpmath.inf]
            total = mpmath.mpf(0)
            for lo, hi in itertools.pairwise(edges):
                a, b = _bin(lo, hi, m), _bin(lo, hi, 0)
                total += a * mpmath.log(a / b)
            gaps.append(integral - total)
    ok = 0 <= gaps[1] < gaps[0] and gaps[1] < mpmath.mpf("1e-2")
    return Outcome(
        ok,
        f"mu = {mu}: integral {mpmath.nstr(integral, 12)} (mu^2/2 = "
        f"{mpmath.nstr(m**2 / 2, 12)}); binned sums fall short by {mpmath.nstr(gaps[0], 3)} "
        f"(h = 0.4) and {mpmath.nstr(gaps[1], 3)} (h = 0.1)",
    )


def check_kl_nonnegative() -> Outcome:
    """D(Y||Z) >= 0, and > 0 whenever Y and Z differ (equality only for equal laws)."""

    def conclusion(d: Balls, p: Params) -> bool | None:
        value = kl(d[0], d[1])
        return all_of(leq(0, value), implies(lt(0, tv_arb(d[0], d[1])), lt(0, value)))

    return searched("Gibbs' inequality with its equality case", 2, conclusion)


def _kl_pair(p: tuple[int, ...], q: tuple[int, ...], den: int) -> tuple[sp.Expr, sp.Expr]:
    ps = tuple(sp.Rational(x, den) for x in p)
    qs = tuple(sp.Rational(x, den) for x in q)
    return _kl_exact(ps, qs), _kl_exact(qs, ps)


def check_kl_asymmetric() -> Outcome:
    """An exact pair with D(Y||Z) != D(Z||Y): Y = (1/2, 1/2), Z = (1/4, 3/4)."""
    forward, backward = _kl_pair((2, 2), (1, 3), 4)
    gap = sp.N(forward - backward, 30)
    return Outcome(
        bool(abs(gap) > sp.Float("1e-20")),
        f"D(Y||Z) = {sp.nsimplify(forward)} = {sp.N(forward, 12)}, D(Z||Y) = "
        f"{sp.N(backward, 12)}; difference {sp.N(gap, 6)} (SymPy evalf to 30 digits)",
    )


def check_kl_no_triangle() -> Outcome:
    """An exact triple with D(X||Z) > D(X||Y) + D(Y||Z): X = (9/10, 1/10), Y = (1/2, 1/2),
    Z = (1/10, 9/10)."""
    x = (sp.Rational(9, 10), sp.Rational(1, 10))
    y = (sp.Rational(1, 2), sp.Rational(1, 2))
    z = (sp.Rational(1, 10), sp.Rational(9, 10))
    direct, via = _kl_exact(x, z), _kl_exact(x, y) + _kl_exact(y, z)
    gap = sp.N(direct - via, 30)
    return Outcome(
        bool(gap > sp.Float("1e-20")),
        f"D(X||Z) = {sp.N(direct, 12)} > D(X||Y) + D(Y||Z) = {sp.N(via, 12)} (exact values, "
        "SymPy evalf to 30 digits)",
    )


def check_kl_infinite() -> Outcome:
    """Supp(Y) not inside Supp(Z) => D(Y||Z) = +infinity (finite distributions)."""

    def premise(d: Balls, p: Params) -> bool | None:
        return any(a != 0 and b == 0 for a, b in zip(d[0], d[1], strict=True))

    def conclusion(d: Balls, p: Params) -> bool | None:
        return not kl(d[0], d[1]).is_finite()

    return searched("Supp(Y) not in Supp(Z) gives infinite KL", 2, conclusion, premise=premise)


def check_relu_support() -> Outcome:
    """The translator's note: the set where ReLU(x) = max(x, 0) is nonzero is (0, +oo)."""
    x = sp.Symbol("x", real=True)
    found = sp.solveset(sp.Ne(sp.Max(x, 0), 0), x, sp.S.Reals)
    return Outcome(found == sp.Interval.open(0, sp.oo), f"solveset gives {found}")


def check_max_div_by_outcomes() -> Outcome:
    """Definition 3.6 over events equals the max over single outcomes (so D_inf <= eps means
    Pr[Y=y] <= e^eps Pr[Z=y] for every y, the form the supplement of Lemma 3.18 uses)."""
    count = 0
    for p, q in pairs(2, 300):
        by_events, by_outcomes = max_ratio_events(p, q), max_ratio(p, q)
        if by_events != by_outcomes:
            return Outcome(False, f"P = {show(p)}, Q = {show(q)}: {by_events} != {by_outcomes}")
        count += 1
    return Outcome(True, f"{count} exact rational pairs on 2..5 outcomes (zeros included)")


def check_numerator_positive() -> Outcome:
    """The opening's parenthesis: in the section's fractions the numerator is always
    positive.  Definition 3.6 admits S = {} (a subset of Supp(Y)), and the delta version
    admits Pr[Y in S] = delta: both give a zero numerator."""
    y, z, delta = (Fraction(1, 2), Fraction(1, 2)), (Fraction(0), Fraction(1)), Fraction(1, 2)
    empty = next(events(support(y), empty=True))
    zero_exact = mass(y, empty)
    boundary = [s for s in events(support(y)) if mass(y, s) == delta]
    s = boundary[0]
    ok = zero_exact > 0 and not boundary
    return Outcome(
        ok,
        f"S = {{}}: Pr[Y in S] = {zero_exact} over Pr[Z in S] = {mass(z, empty)} (0/0, which "
        f"the convention makes +oo, so D_inf(Y||Z) would be +oo for every pair); Y = {show(y)}, "
        f"Z = {show(z)}, delta = {delta}, S = {{y{s[0] + 1}}}: numerator Pr[Y in S] - delta = "
        f"{mass(y, s) - delta} over Pr[Z in S] = {mass(z, s)}",
    )


def check_numerator_positive_corrected() -> Outcome:
    """With S nonempty and Pr[Y in S] > delta the numerators are positive (every pair, every
    delta among the event masses and their midpoints)."""
    checked = 0
    for p, _ in pairs(3, 120):
        masses = sorted({mass(p, s) for s in events(range(len(p)), empty=True)})
        deltas = masses + [(a + b) / 2 for a, b in itertools.pairwise(masses)]
        for delta in deltas:
            for s in events(support(p)):
                if mass(p, s) > delta:
                    checked += 1
                    if not mass(p, s) - delta > 0:
                        return Outcome(False, f"P = {show(p)}, S = {s}, delta = {delta}")
    return Outcome(True, f"{checked} fractions, all with a positive numerator")


def _approx_agreement(*, strict: bool, literal: bool) -> Outcome:
    """D_inf^delta(Y||Z) <= ln r by Definition 3.6 against one-sided (eps, delta)-closeness
    Pr[Y in S] <= r Pr[Z in S] + delta over every event; delta runs over the event masses of
    Y (where the definition's boundary sits) and random values."""
    rng = random.Random(4)
    checked = 0
    for p, q in pairs(5, 100):
        masses = sorted({mass(p, s) for s in events(range(len(p)))})
        for delta in [*masses, Fraction(rng.randint(0, 20), 20)]:
            for r in R_VALUES:
                closeness = hockey(p, q, r) <= delta
                defined = approx_max_div_le(
                    p, q, delta, r, strict=strict, literal_convention=literal
                )
                checked += 1
                if closeness != defined:
                    return Outcome(
                        False,
                        f"Y = {show(p)}, Z = {show(q)}, delta = {delta}, eps = ln {r}: "
                        f"sup_S Pr[Y in S] - e^eps Pr[Z in S] = {hockey(p, q, r)} "
                        f"(<= delta: {closeness}) but D_inf^delta(Y||Z) <= eps is {defined}",
                    )
    return Outcome(True, f"{checked} exact cases (pairs x delta x eps), all agree")


def check_approx_def_as_written() -> Outcome:
    """Definition 3.6 (delta version) as printed: events with Pr[Y in S] >= delta, and the
    opening's convention (zero denominator: +infinity).  First the pair of the erratum,
    Y = (1/2, 1/2), Z = (0, 1), delta = 1/2, eps = 0, then the sweep."""
    y, z, delta, r = (
        (Fraction(1, 2), Fraction(1, 2)),
        (Fraction(0), Fraction(1)),
        Fraction(1, 2),
        Fraction(1),
    )
    close = hockey(y, z, r) <= delta
    defined = approx_max_div_le(y, z, delta, r, strict=False, literal_convention=True)
    sweep = _approx_agreement(strict=False, literal=True)
    return Outcome(
        close == defined and bool(sweep.holds),
        f"Y = {show(y)}, Z = {show(z)}, delta = {delta}, eps = 0: sup_S Pr[Y in S] - "
        f"Pr[Z in S] = {hockey(y, z, r)} (close: {close}), D_inf^delta(Y||Z) <= 0 as printed: "
        f"{defined}; sweep: {sweep.detail}",
    )


def check_approx_def_strict() -> Outcome:
    """The corrected definition: events with Pr[Y in S] > delta."""
    return _approx_agreement(strict=True, literal=False)


def check_remark_pure() -> Outcome:
    """Remark 3.1 (1) for one pair of neighbours: eps-DP on every event of the output space
    iff both max divergences (Definition 3.6, over events) are at most eps; eps runs over
    fixed values and the pair's own two max divergences (the boundary)."""
    checked = 0
    for p, q in pairs(6, 200):
        forward, backward = max_ratio_events(p, q), max_ratio_events(q, p)
        tight = [x for x in (forward, backward) if x is not None and x >= 1]
        for r in (*R_VALUES, *tight):
            bounded = all(x is not None and x <= r for x in (forward, backward))
            checked += 1
            if pure_dp(p, q, r) != bounded:
                return Outcome(False, f"P = {show(p)}, Q = {show(q)}, eps = ln {r}")
    return Outcome(True, f"{checked} exact cases (pairs on 2..5 outcomes x eps), all agree")


def check_remark_approx() -> Outcome:
    """Remark 3.1 (2) for one pair of neighbours, with the corrected Definition 3.6 (events
    with Pr[Y in S] > delta): (eps, delta)-DP on every event iff both D_inf^delta <= eps;
    delta runs over event masses (boundaries) and random values."""
    rng = random.Random(7)
    checked = 0
    for p, q in pairs(8, 150):
        masses = sorted({mass(p, s) for s in events(range(len(p)))})
        for delta in [*masses[:4], Fraction(rng.randint(0, 20), 20)]:
            for r in R_VALUES:
                both = all(
                    approx_max_div_le(a, b, delta, r, strict=True, literal_convention=False)
                    for a, b in ((p, q), (q, p))
                )
                checked += 1
                if approx_dp(p, q, r, delta) != both:
                    return Outcome(False, f"P = {show(p)}, Q = {show(q)}, delta = {delta}, r = {r}")
    return Outcome(True, f"{checked} exact cases (pairs x delta x eps), all agree")


def check_statistical_distance() -> Outcome:
    """Delta(Y, Z) = max over all events |Pr[Y in S] - Pr[Z in S]| (enumerated) equals half
    the l1 distance and is attained at S = {y : Pr[Y=y] > Pr[Z=y]}."""
    count = 0
    for p, q in pairs(9, 300):
        gap = event_gap(p, q)
        above = tuple(i for i in range(len(p)) if p[i] > q[i])
        if not gap == tv(p, q) == mass(p, above) - mass(q, above):
            return Outcome(False, f"P = {show(p)}, Q = {show(q)}: {gap} vs {tv(p, q)}")
        count += 1
    return Outcome(True, f"{count} exact rational pairs on 2..5 outcomes")
