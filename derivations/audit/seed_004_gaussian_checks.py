"""Checks of seed 004, sections 4.2, 4.3, 4.5 and 4.6: G_mu, the Gaussian mechanism, the
(eps, delta(eps)) conversion and group privacy (see :mod:`derivations.audit.seed_004_gaussian`).

Trade-off functions of two normal laws are checked against the Neyman-Pearson curve of the
laws binned on a fine grid: binning is a post-processing, so that curve lies above the true
T(N(0, 1), N(d, 1)) and approaches it as the grid refines, without using the formula G_mu.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp

from derivations.app.claims import parse_claim
from derivations.audit.seed_004_tools import (
    F,
    compose_group,
    curve,
    lower_hull,
    over_instances,
    pl_min,
    random_dist,
    value,
)
from numeric_checks import check_claim
from numeric_checks.dp.gaussian import envelope, tradeoff_gaussian
from numeric_checks.dp.tradeoff import (
    Curve,
    FinitePair,
    eps_delta_pair,
    group_tradeoff,
    laplace_tradeoff,
    tradeoff_curve,
)
from numeric_checks.mp import phi_inv
from numeric_checks.plan import CheckOptions
from symbolic.audit import Outcome
from symbolic.verdicts import Verdict

OPTIONS = CheckOptions(points=60, search_budget=60)
ALPHAS = ("0.001", "0.05", "0.3", "0.5", "0.8", "0.99")


def binned_normal_tradeoff(d: Any, h: Any = "0.02", reach: int = 8) -> Curve:
    """T(bin(N(0, 1)), bin(N(d, 1))) for cells of width h on [-reach, d + reach] plus the
    two tails: an upper bound on T(N(0, 1), N(d, 1)) that tends to it as h -> 0."""
    d, h = mpmath.mpf(d), mpmath.mpf(h)
    lo, hi = min(0, d) - reach, max(0, d) + reach
    edges = [-mpmath.inf] + [lo + i * h for i in range(int((hi - lo) / h) + 1)] + [mpmath.inf]
    p = [mpmath.ncdf(b) - mpmath.ncdf(a) for a, b in itertools.pairwise(edges)]
    q = [mpmath.ncdf(b - d) - mpmath.ncdf(a - d) for a, b in itertools.pairwise(edges)]
    return tradeoff_curve(FinitePair.make(p, q))


def _formula(mu: Any, alpha: Any) -> Any:
    """The seed's G_mu(alpha) = Phi(Phi^{-1}(1 - alpha) - mu), for any real mu."""
    return mpmath.ncdf(phi_inv(1 - mpmath.mpf(alpha)) - mpmath.mpf(mu))


def _compare(d: Any, formula: Any) -> tuple[bool, str]:
    """The binned curve must lie above the formula (it bounds the true T from above) and
    within 0.01 of it (the binning error at h = 0.02)."""
    rows, ok = [], True
    t = binned_normal_tradeoff(d)
    for a in ALPHAS:
        binned, stated = t(mpmath.mpf(a)), formula(a)
        ok = ok and stated - mpmath.mpf(10) ** -12 <= binned <= stated + mpmath.mpf("0.01")
        rows.append(f"alpha={a}: binned {mpmath.nstr(binned, 6)}, formula {mpmath.nstr(stated, 6)}")
    return ok, f"d={d}: " + "; ".join(rows)


# --- 4.2 --------------------------------------------------------------------------------


def gmu_formula_any_mu() -> Outcome:
    """As written (mu unrestricted): refuted by the engine and by the binned curve."""
    claim = parse_claim(
        """
[claim]
lhs = "Phi(PhiInv(1 - alpha) - mu)"
relation = "<="
rhs = "1 - alpha"
statement = "G_mu lies below Id, as every trade-off function does"
[variables]
mu = "(-5, 5)"
alpha = "(0, 1)"
"""
    )
    result = check_claim(claim, OPTIONS)
    with mpmath.workdps(20):
        ok, rows = _compare(-1, lambda a: _formula(-1, a))
    holds = result.verdict is not Verdict.REFUTED and ok
    return Outcome(holds, f"engine: {result.verdict.value}: {result.evidence}; {rows}")


def gmu_formula_nonnegative_mu() -> Outcome:
    with mpmath.workdps(20):
        checks = [_compare(mu, lambda a, mu=mu: _formula(mu, a)) for mu in ("0", "0.5", "2")]
    return Outcome(all(ok for ok, _ in checks), " | ".join(row for _, row in checks))


def normal_cdf_formula() -> Outcome:
    x, m = sp.Symbol("x", real=True), sp.Symbol("mu", real=True)
    s = sp.Symbol("sigma", positive=True)
    cdf = (1 + sp.erf((x - m) / (s * sp.sqrt(2)))) / 2
    density = sp.exp(-((x - m) ** 2) / (2 * s**2)) / (s * sp.sqrt(2 * sp.pi))
    residual = sp.simplify(sp.diff(cdf, x) - density)
    # The limit in u = (x - mu)/(sigma sqrt 2), increasing in x: SymPy 1.x returns 1 for the
    # limit taken directly in x with a symbolic mu, a SymPy bug.
    u = sp.Symbol("u", real=True)
    left = sp.limit((1 + sp.erf(u)) / 2, u, -sp.oo)
    return Outcome(
        residual == 0 and left == 0,
        f"d/dx formula - N(mu, sigma^2) density = {residual}; limit at -oo = {left}",
    )


def gmu_decreasing() -> Outcome:
    claim = parse_claim(
        """
hypotheses = ["mu1 <= mu2"]
[claim]
lhs = "Phi(PhiInv(1 - alpha) - mu2)"
relation = "<="
rhs = "Phi(PhiInv(1 - alpha) - mu1)"
[variables]
mu1 = "[0, 10]"
mu2 = "[0, 10]"
alpha = "(0, 1)"
"""
    )
    result = check_claim(claim, OPTIONS)
    return Outcome(result.verdict is Verdict.PROVED, f"{result.verdict.value}: {result.evidence}")


# --- 4.3 --------------------------------------------------------------------------------


def _sup(pairs: Any) -> int:
    return max(abs(sum(s) - sum(t)) for s, t in pairs)


def sensitivity_as_printed() -> Outcome:
    """The printed sup over all pairs against the global sensitivity (neighbours only) for
    the counting query on data sets of n = 5 binary records."""
    data = list(itertools.product((0, 1), repeat=5))
    every = _sup(itertools.product(data, data))
    neighbours = _sup(
        (s, t)
        for s, t in itertools.product(data, data)
        if sum(a != b for a, b in zip(s, t, strict=True)) == 1
    )
    return Outcome(
        every == neighbours,
        f"counting query on {{0,1}}^5: sup over all pairs = {every}, "
        f"over neighbours = {neighbours}",
    )


def sensitivity_corrected() -> Outcome:
    """With neighbours, sens = 1 for counting, and sigma = sens/mu makes the worst pair of
    neighbours exactly G_mu (the calibration is tight)."""
    with mpmath.workdps(20):
        ok, rows = _compare(1, lambda a: tradeoff_gaussian(1, a))  # mu = 1, sigma = 1
    return Outcome(ok, f"mu = 1, sigma = sens/mu = 1, neighbours at distance 1: {rows}")


def lowercase_s_as_printed() -> Outcome:
    """s' is bound nowhere; with theta(S) = 0, theta(S') = 1, sigma = 1 and theta(s') = 0 the
    display says T(M(S), M(S')) = G_0."""
    with mpmath.workdps(20):
        lhs = binned_normal_tradeoff(1)(mpmath.mpf("0.5"))
        rhs = _formula(0, "0.5")
    holds = abs(lhs - rhs) < mpmath.mpf("0.01")
    return Outcome(
        holds,
        f"alpha = 0.5: T(M(S), M(S')) ~ {mpmath.nstr(lhs, 6)} but G_0 = {mpmath.nstr(rhs, 6)}",
    )


def standardized_pair_any_sign() -> Outcome:
    """T(N(0, 1), N(d, 1)) = G_|d| for either sign of d (the text's standardisation gives
    N((theta(S') - theta(S))/sigma, 1); the absolute value needs the reflection x -> -x)."""
    with mpmath.workdps(20):
        checks = [
            _compare(d, lambda a, d=d: tradeoff_gaussian(abs(mpmath.mpf(d)), a))
            for d in ("-1.5", "-0.3", "0.7")
        ]
    return Outcome(all(ok for ok, _ in checks), " | ".join(row for _, row in checks))


def output_law() -> Outcome:
    x, th = sp.Symbol("x", real=True), sp.Symbol("theta", real=True)
    s = sp.Symbol("sigma", positive=True)

    def normal(x: sp.Expr, mean: sp.Expr, sd: sp.Expr) -> sp.Expr:
        return sp.exp(-((x - mean) ** 2) / (2 * sd**2)) / (sd * sp.sqrt(2 * sp.pi))

    shifted = normal(x - th, 0, s)  # density of theta + xi, xi ~ N(0, sigma^2), at x
    r1 = sp.simplify(shifted - normal(x, th, s))
    z, th2 = sp.Symbol("z", real=True), sp.Symbol("theta2", real=True)
    # z = (x - theta)/sigma: the density of z under N(theta2, sigma^2) is sigma f(sigma z + theta)
    r2 = sp.simplify(s * normal(s * z + th, th2, s) - normal(z, (th2 - th) / s, 1))
    return Outcome(
        r1 == 0 and r2 == 0,
        f"law of theta + xi minus N(theta, sigma^2): {r1}; standardised N(theta', sigma^2) "
        f"minus N((theta' - theta)/sigma, 1): {r2}",
    )


def sigma_calibration() -> Outcome:
    claim = parse_claim(
        """
[claim]
lhs = "sens/sigma"
relation = "="
rhs = "mu"
[variables]
sens = "(0, oo)"
mu = "(0, oo)"
[defs]
sigma = "sens/mu"
"""
    )
    result = check_claim(claim, OPTIONS)
    return Outcome(result.verdict is Verdict.PROVED, f"{result.verdict.value}: {result.evidence}")


# --- 4.5 --------------------------------------------------------------------------------


def dp_to_gdp() -> Outcome:
    """sup over eps of f_{eps, delta(eps)} = G_mu: (eps, delta(eps))-DP for all eps implies
    T >= G_mu (and each f_{eps, delta(eps)} <= G_mu gives the other direction)."""
    worst = mpmath.mpf(0)
    with mpmath.workdps(30):
        for mu in ("0.3", "1", "2.5"):
            for a in ("0.001", "0.1", "0.5", "0.9"):
                worst = max(worst, abs(envelope(mu, a) - tradeoff_gaussian(mu, a)))
    return Outcome(
        worst < mpmath.mpf(10) ** -12,
        f"max |sup_eps f_(eps, delta(eps))(alpha) - G_mu(alpha)| over 3 mu x 4 alpha = "
        f"{mpmath.nstr(worst, 3)} (30 digits, golden-section search in eps)",
    )


# --- 4.6 --------------------------------------------------------------------------------


def k_neighbours() -> Outcome:
    rows = []
    ok = True
    for values in (3, 2):
        data = list(itertools.product(range(values), repeat=3))

        def dist(s: tuple[int, ...], t: tuple[int, ...]) -> int:
            return sum(a != b for a, b in zip(s, t, strict=True))

        step = {s: [t for t in data if dist(s, t) == 1] for s in data}
        for k in (2, 3):
            reach = {(s, s) for s in data}
            for _ in range(k):
                reach = {(s, u) for s, t in reach for u in step[t]}
            ok = ok and all(dist(s, t) <= k for s, t in reach)
            converse = all((s, t) in reach for s in data for t in data if dist(s, t) <= k)
            rows.append(f"{values} values, k={k}: converse {'holds' if converse else 'fails'}")
    return Outcome(ok, "a chain of k neighbours always differs in <= k records; " + "; ".join(rows))


def _group_instance(r: random.Random) -> tuple[bool, str]:
    k = r.randint(2, 3)
    n = r.randint(2, 4)
    a, b = random_dist(r, n), random_dist(r, n)
    chain = [
        tuple((Fraction(k - i) * x + i * y) / k for x, y in zip(a, b, strict=True))
        for i in range(k + 1)
    ]
    f = curve(chain[0], chain[1])
    for s, t in itertools.pairwise(chain):
        f = pl_min(pl_min(f, curve(s, t)), curve(t, s))
    f = lower_hull(f)  # a trade-off function that every step satisfies, both orders
    target = curve(chain[0], chain[-1])
    xs = sorted({F(i, 40) for i in range(41)} | {x for x, _ in target})
    for x in xs:
        if value(target, x) < compose_group(f, k, x):
            return False, f"k={k}, chain {chain}: at alpha={x}"
    return True, ""


def group_privacy_general() -> Outcome:
    return over_instances("T(S_0, S_k) >= 1 - (1 - f)^{o k}", 60, 40, _group_instance)


def iterate_notation() -> Outcome:
    f, x = sp.Function("f"), sp.Symbol("x")

    def one_minus_f(y: sp.Expr) -> sp.Expr:
        return 1 - f(y)

    residual = sp.simplify(one_minus_f(one_minus_f(x)) - (1 - f(1 - f(x))))
    return Outcome(residual == 0, f"(1 - f)o(1 - f)(x) - (1 - f(1 - f(x))) = {residual}")


def laplace_limit_table() -> tuple[bool, str]:
    grid = [mpmath.mpf(i) / 100 for i in range(101)]
    rows, ok = [], True
    with mpmath.workdps(20):
        for mu in ("0.5", "1", "3"):
            m = mpmath.mpf(mu)
            gaps = []
            for k in (1, 2, 5, 20, 100):
                f = tradeoff_curve(eps_delta_pair(m / k, 0))
                gaps.append(
                    max(abs(group_tradeoff(f, k, a) - laplace_tradeoff(m, a)) for a in grid)
                )
            ok = ok and all(g1 < g0 for g0, g1 in itertools.pairwise(gaps)) and gaps[-1] < 1e-3
            rows.append(
                f"mu={mu}: "
                + ", ".join(
                    f"k={k}: {mpmath.nstr(g, 3)}"
                    for k, g in zip((1, 2, 5, 20, 100), gaps, strict=True)
                )
            )
    return (
        ok,
        "sup over 101 alphas of |1 - (1 - f_(mu/k,0))^(o k) - T(Lap(0,1), Lap(mu,1))|: "
        + "; ".join(rows),
    )


def laplace_limit() -> Outcome:
    return Outcome(*laplace_limit_table())
