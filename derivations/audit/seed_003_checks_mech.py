"""The checks behind the audit of seed 003's Laplace and exponential mechanism sections."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import mpmath
import sympy as sp
from sympy.stats import Laplace, variance

from derivations.audit.seed_003_tools import engine_claim, mp_str, sym_zero
from numeric_checks.dp.divergences import max_divergence
from numeric_checks.dp.exponential import output_laws
from numeric_checks.dp.laplace import hockey_stick, worst_privacy_loss
from symbolic.audit import Outcome
from symbolic.verdicts import Verdict

DELTA_F, EPS = sp.symbols("Delta_f eps", positive=True)


def _laplace_variance() -> sp.Expr:
    """Var Lap(b) at b = Delta f/eps, from sympy.stats and from the density's integral."""
    b = sp.Symbol("b", positive=True)
    t = sp.Symbol("t", real=True)
    by_stats = variance(Laplace("L", 0, b))
    by_integral = sp.integrate(t**2 * sp.exp(-sp.Abs(t) / b) / (2 * b), (t, -sp.oo, sp.oo))
    if not sym_zero(by_stats - by_integral):
        raise AssertionError(f"two computations of Var Lap(b) disagree: {by_stats}, {by_integral}")
    return sp.simplify(by_stats.subs(b, DELTA_F / EPS))


def _against(claimed: sp.Expr, what: str) -> Outcome:
    true = _laplace_variance()
    at = {DELTA_F: 1, EPS: sp.Rational(1, 10)}
    differs = not sym_zero(true - claimed)
    return Outcome(
        False if differs else None,
        f"Var Lap(0, Delta f/eps) = {true} (sympy.stats and the integral of t^2 times the "
        f"density agree), not {what} = {claimed}; at Delta f = 1, eps = 1/10: "
        f"{true.subs(at)} vs {claimed.subs(at)}",
    )


def laplace_variance_seed() -> Outcome:
    """The Laplace section: variance = sensitivity / eps."""
    return _against(DELTA_F / EPS, "Delta f/eps")


def laplace_variance_gauss_section() -> Outcome:
    """The Gaussian section: the Laplace variance is Delta^2 f/eps^2."""
    return _against(DELTA_F**2 / EPS**2, "Delta^2 f/eps^2")


def laplace_variance_true() -> Outcome:
    true = _laplace_variance()
    return Outcome(
        sym_zero(true - 2 * DELTA_F**2 / EPS**2),
        f"Var Lap(0, b) = 2 b^2 = {true} with b = Delta f/eps (scale b, standard deviation "
        "sqrt(2) Delta f/eps)",
    )


LAPLACE_VECTOR = """
hypotheses = ["Abs(fx1 - fy1) + Abs(fx2 - fy2) <= Delta"]
[claim]
lhs = "exp((Abs(z1 - fy1) - Abs(z1 - fx1) + Abs(z2 - fy2) - Abs(z2 - fx2))/b)"
relation = "<="
rhs = "exp(eps)"
[variables]
eps = "(0, oo)"
Delta = "(0, oo)"
z1 = "R"
z2 = "R"
fx1 = "R"
fx2 = "R"
fy1 = "R"
fy2 = "R"
[defs]
b = "Delta/eps"
"""


def laplace_vector() -> Outcome:
    """Independent Laplace noise per coordinate, b = (l1 sensitivity)/eps: ratio <= e^eps."""
    return engine_claim(LAPLACE_VECTOR, Verdict.PROVED)


def laplace_on_counts() -> Outcome:
    """The Laplace mechanism on an integer-valued counting query is eps-DP."""
    with mpmath.workdps(30):
        eps = mpmath.mpf(1) / 2
        b = 1 / eps
        gap = max(hockey_stick(3, 4, b, eps), hockey_stick(4, 3, b, eps))
        loss = max(worst_privacy_loss(3, 4, b), worst_privacy_loss(4, 3, b))
        ok = gap < mpmath.mpf(10) ** -20 and abs(loss - eps) < mpmath.mpf(10) ** -20
    return Outcome(
        False if ok else None,
        f"counting query (integer values 3 and 4 on neighbours, sensitivity 1), eps = 1/2: "
        f"Laplace noise gives hockey-stick divergence {mp_str(gap, 3)} and worst privacy loss "
        f"{mp_str(loss, 10)} = eps, so it is eps-DP on a discrete-valued query",
    )


def geometric_noise() -> Outcome:
    """Two-sided geometric noise on integers is eps-DP: noise can be added to discrete
    results."""
    a = Fraction(1, 2)  # e^-eps, eps = ln 2
    norm = (1 - a) / (1 + a)

    def pmf(k: int) -> Fraction:
        return norm * a ** abs(k)

    worst = max(max(pmf(k - 1) / pmf(k), pmf(k) / pmf(k - 1)) for k in range(-40, 41))
    s = sp.Symbol("a", positive=True)
    total = sp.simplify((1 - s) / (1 + s) * (1 + 2 * s / (1 - s)))  # sum over all integers
    ok = worst == 1 / a and total == 1
    return Outcome(
        False if ok else None,
        f"two-sided geometric noise Pr[k] = (1-a)/(1+a) a^|k| with a = e^-eps = 1/2 sums to "
        f"{total} and shifts by 1 change each probability by a factor at most {worst} = e^eps "
        "(exact, k = -40..40): an eps-DP mechanism adding noise to an integer result",
    )


def exponential_categorical() -> Outcome:
    """The correction: the exponential mechanism on a categorical range is eps-DP."""
    rng = random.Random(3)
    worst = mpmath.mpf(0)
    with mpmath.workdps(30):
        eps = mpmath.mpf(1)
        for size in (2, 3, 5):
            for _ in range(5):
                ux = [mpmath.mpf(rng.randint(0, 20)) for _ in range(size)]
                uy = [u + rng.choice((-1, 0, 1)) for u in ux]
                p, q = output_laws(ux, uy, eps, 1)
                worst = max(worst, max_divergence(p, q), max_divergence(q, p))
    return Outcome(
        bool(worst <= 1 + mpmath.mpf(10) ** -20),
        f"exponential mechanism on categorical ranges of 2, 3, 5 labels, integer scores moved "
        f"by at most Delta u = 1, eps = 1: max-divergence {mp_str(worst)} <= eps (15 tables)",
    )


_U = sp.symbols("ux1:4", real=True), sp.symbols("uy1:4", real=True)
_DU = sp.Symbol("Du", positive=True)


def _ratio_line1(denominator_x: sp.Expr, denominator_y: sp.Expr) -> sp.Expr:
    """The first line of the seed's chain, with the given denominators inside the exponentials
    of the two numerators."""
    (ux, uy), e = _U, EPS
    zx = sum(sp.exp(e * u / (2 * _DU)) for u in ux)
    zy = sum(sp.exp(e * u / (2 * _DU)) for u in uy)
    return (sp.exp(e * ux[0] / denominator_x) / zx) / (sp.exp(e * uy[0] / denominator_y) / zy)


def _line2(r: int) -> sp.Expr:
    (ux, uy), e = _U, EPS
    zx = sum(sp.exp(e * u / (2 * _DU)) for u in ux)
    zy = sum(sp.exp(e * u / (2 * _DU)) for u in uy)
    return sp.exp(e * (ux[r] - uy[r]) / (2 * _DU)) * zy / zx


def _at(expr: sp.Expr, ux: tuple[int, ...], uy: tuple[int, ...]) -> sp.Expr:
    values = dict(zip(_U[0], ux, strict=True)) | dict(zip(_U[1], uy, strict=True))
    return expr.subs(values | {EPS: 1, _DU: 1})


def exp_two_u() -> Outcome:
    """Line 1 as printed ('2u' inside the exponentials) against line 2."""
    (ux, uy), half = _U, sp.Rational(1, 2)
    printed = _ratio_line1(2 * ux[0], 2 * uy[0])  # '2u' read as 2 u(., r), the score of r
    line = _line2(0)
    at_x, at_y = (1, 0, 0), (half, half, 0)
    left, right = _at(printed, at_x, at_y), _at(line, at_x, at_y)
    differs = abs(float(left - right)) > 1e-9
    return Outcome(
        False if differs else None,
        f"|R| = 3, r = r_1, eps = Delta u = 1, u(x, .) = {at_x}, u(y, .) = (1/2, 1/2, 0): "
        f"with '2u' the first expression is {float(left):.6f}, the next line "
        f"{float(right):.6f} (ratio e^(1/4))",
    )


def exp_line1_as_meant() -> Outcome:
    return Outcome(
        sym_zero(_ratio_line1(2 * _DU, 2 * _DU) - _line2(0)),
        "SymPy, |R| = 3: with 2 Delta u in both numerators the first two lines are equal",
    )


def exp_r_prime() -> Outcome:
    """Line 2 as printed (u(x, r') - u(y, r'), r' unbound) against line 1."""
    at_x, at_y = (1, 0, 0), (0, 0, 0)
    with_r, with_r_prime = _at(_line2(0), at_x, at_y), _at(_line2(1), at_x, at_y)
    differs = abs(float(with_r - with_r_prime)) > 1e-9
    return Outcome(
        False if differs else None,
        f"|R| = 3, r = r_1 and r' = r_2, eps = Delta u = 1, u(x, .) = {at_x}, u(y, .) = "
        f"{at_y}: the line with r is {float(with_r):.6f}, the printed line with r' "
        f"{float(with_r_prime):.6f}",
    )


def exp_line2_as_meant() -> Outcome:
    (ux, uy), e = _U, EPS
    quotient = sp.exp(e * ux[0] / (2 * _DU)) / sp.exp(e * uy[0] / (2 * _DU))
    return Outcome(
        sym_zero(quotient - sp.exp(e * (ux[0] - uy[0]) / (2 * _DU))),
        "SymPy: exp(eps u(x,r)/2Du)/exp(eps u(y,r)/2Du) = exp(eps (u(x,r) - u(y,r))/2Du)",
    )


def exp_side_index() -> Outcome:
    """The side derivation's denominator sum_r exp(eps q(D, r')/2 Delta): r' is free."""
    e, d = 1, 1
    q = (0, 1)  # q(D, r_1), q(D, r_2)
    weights = [sp.exp(sp.Rational(e * s, 2 * d)) for s in q]
    before = sum(sp.exp(sp.Rational(e * (s + d), 2 * d)) for s in q) / sum(weights)
    printed = sp.exp(sp.Rational(e, 2)) * sum(weights) / (len(q) * weights[0])  # r' = r_1
    return Outcome(
        False if abs(float(before - printed)) > 1e-9 else None,
        f"|R| = 2, q(D, .) = {q}, eps = Delta = 1, the free r' = r_1: the previous line is "
        f"{float(before):.6f} = e^(1/2), the printed next line {float(printed):.6f}, and "
        "its claimed value e^(1/2) = 1.648721",
    )


def exp_side_as_meant() -> Outcome:
    qs = sp.symbols("q1:4", real=True)
    delta = sp.Symbol("Delta", positive=True)
    num = sum(sp.exp(EPS * (s + delta) / (2 * delta)) for s in qs)
    den = sum(sp.exp(EPS * s / (2 * delta)) for s in qs)
    return Outcome(
        sym_zero(num / den - sp.exp(EPS / 2)),
        "SymPy, |R| = 3: with sum over r' in the denominator the ratio is exactly e^(eps/2)",
    )


def disease_sensitivity() -> Outcome:
    """Counts of three diseases change by at most 1 between neighbours (both relations)."""
    worst_sub, worst_add, pairs = 0, 0, 0
    labels = ("none", "A", "B", "C")
    for n in range(1, 6):
        for x in itertools.product(labels, repeat=n):
            cx = Counter(x)
            for i, new in itertools.product(range(n), labels):
                y = (*x[:i], new, *x[i + 1 :])
                cy = Counter(y)
                worst_sub = max(worst_sub, *(abs(cx[d] - cy[d]) for d in "ABC"))
                pairs += 1
            cz = Counter(x[1:])  # add/remove: drop one person
            worst_add = max(worst_add, *(abs(cx[d] - cz[d]) for d in "ABC"))
    ok = worst_sub == 1 and worst_add == 1
    return Outcome(
        ok,
        f"exhaustive, n = 1..5 people, each with one of A, B, C or none: over {pairs} "
        f"substitution pairs the largest change of a count is {worst_sub}; removing a person "
        f"changes a count by at most {worst_add}",
    )


def larger_eps_more_truth() -> Outcome:
    """d/da ln Pr[argmax] = sum_r p_r (u_max - u_r) >= 0, a = eps/(2 Delta u), |R| = 3."""
    a = sp.Symbol("a", positive=True)
    u = sp.symbols("u1:4", real=True)  # u1 the largest score (the true answer)
    w = [sp.exp(a * s) for s in u]
    z = sum(w)
    p = [v / z for v in w]
    deriv = sp.diff(sp.log(p[0]), a)
    form = sum(pi * (u[0] - ui) for pi, ui in zip(p, u, strict=True))
    return Outcome(
        sym_zero(deriv - form),
        "SymPy, |R| = 3: d/da ln Pr[output = argmax] = sum_r p_r (u_max - u_r), a = "
        "eps/(2 Delta u); every term is a probability times a nonnegative gap, so the "
        "probability of the true answer is nondecreasing in eps (constant only if all "
        "scores tie)",
    )
