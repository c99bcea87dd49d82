"""Checks of seed 004, sections 5.1-5.3: tensor products, the composition theorem, the central
limit theorem and the (eps, delta) approximation (see
:mod:`derivations.audit.seed_004_composition`)."""

from __future__ import annotations

import random
from itertools import pairwise
from typing import Any

import mpmath

from derivations.audit.seed_004_tools import (
    IDENTITY,
    PL,
    F,
    Pair,
    curve,
    dominates,
    eps_delta_pair,
    inverse,
    is_tradeoff,
    over_instances,
    push,
    random_dist,
    random_kernel,
    random_pair,
    same,
    tensor,
)
from numeric_checks.dp import tradeoff as tr
from numeric_checks.dp.gaussian import tradeoff_gaussian
from symbolic.audit import Outcome

GRID = [mpmath.mpf(i) / 100 for i in range(101)]


def _t(*pairs: Pair) -> PL:
    return curve(*tensor(*pairs))


# --- 5.1: the tensor product -------------------------------------------------------------


def _split(pair: Pair, r: random.Random) -> Pair:
    """Another pair with the same trade-off function: each atom split in two, same ratio."""
    p, q = pair
    ts = [F(r.randint(1, 9), 10) for _ in p]
    return (
        tuple(x for a, t in zip(p, ts, strict=True) for x in (a * t, a * (1 - t))),
        tuple(x for b, t in zip(q, ts, strict=True) for x in (b * t, b * (1 - t))),
    )


def _tensor_instance(r: random.Random) -> tuple[bool, str]:
    f, g, h = random_pair(r), random_pair(r), random_pair(r)
    checks = {
        "well defined": same(_t(f, g), _t(_split(f, r), _split(g, r))),
        "a trade-off function": is_tradeoff(_t(f, g)),
        "commutative": same(_t(f, g), _t(g, f)),
        "associative": same(curve(*tensor(tensor(f, g), h)), curve(*tensor(f, tensor(g, h)))),
        "f (x) Id = Id (x) f = f": same(_t(f, IDENTITY), _t(IDENTITY, f)),
        "f (x) Id = f": same(_t(f, IDENTITY), curve(*f)),
        "(f (x) g)^-1 = f^-1 (x) g^-1": same(inverse(_t(f, g)), _t(f[::-1], g[::-1])),
    }
    kern = random_kernel(r, len(g[0]), r.randint(1, 4))
    g1 = (push(g[0], kern), push(g[1], kern))  # g1 = T(post-processed g) >= g
    ok, why = dominates(curve(*g1), curve(*g))
    checks["set-up g1 >= g2"] = (ok, why)
    checks["monotone"] = dominates(_t(f, g1), _t(f, g))
    for name, (ok, why) in checks.items():
        if not ok:
            return False, f"{name}: f={f}, g={g}: {why}"
    return True, ""


def tensor_properties() -> Outcome:
    return over_instances("tensor product properties", 40, 50, _tensor_instance)


def _identity_instance(r: random.Random) -> tuple[bool, str]:
    p = random_dist(r, r.randint(1, 6))
    return same(curve(p, p), ((F(0), F(1)), (F(1), F(0))))


def identity_is_same_law() -> Outcome:
    return over_instances("T(P, P) = Id", 40, 51, _identity_instance)


def _adaptive_instance(r: random.Random) -> tuple[bool, str]:
    """M1 gives P1 or Q1; given y1, M2 post-processes a fixed pair (A, B) by a channel that
    depends on y1, so every M2(., y1) is f2-DP with f2 = T(A, B)."""
    p1, q1 = random_pair(r)
    a, b = random_pair(r)
    m = r.randint(1, 4)
    kernels = [random_kernel(r, len(a), m) for _ in p1]
    joint_p = tuple(x * y for i, x in enumerate(p1) for y in push(a, kernels[i]))
    joint_q = tuple(x * y for i, x in enumerate(q1) for y in push(b, kernels[i]))
    bound = _t((p1, q1), (a, b))
    ok, why = dominates(curve(joint_p, joint_q), bound)
    if not ok:
        return False, f"adaptive composition below f1 (x) f2: {why}"
    product = (tuple(x * y for x in p1 for y in a), tuple(x * y for x in q1 for y in b))
    return same(curve(*product), bound)  # tight: the product mechanism attains it


def composition_theorem() -> Outcome:
    return over_instances(
        "adaptive composition >= f1 (x) f2, equality for the product", 60, 52, _adaptive_instance
    )


# --- 5.2: the central limit theorem ------------------------------------------------------


def classical_clt() -> Outcome:
    """Kolmogorov distance of the standardised Binomial(n, 0.3) from N(0, 1)."""
    rows, dists = [], []
    with mpmath.workdps(25):
        p = mpmath.mpf("0.3")
        for n in (10, 100, 1000):
            sd = mpmath.sqrt(n * p * (1 - p))
            cdf, worst = mpmath.mpf(0), mpmath.mpf(0)
            for j in range(n + 1):
                z = (j - n * p) / sd
                before = cdf
                cdf += mpmath.binomial(n, j) * p**j * (1 - p) ** (n - j)
                worst = max(worst, abs(before - mpmath.ncdf(z)), abs(cdf - mpmath.ncdf(z)))
            dists.append(worst)
            rows.append(f"n={n}: {mpmath.nstr(worst, 4)}")
    ok = all(b < a for a, b in pairwise(dists)) and dists[-1] < mpmath.mpf("0.02")
    return Outcome(ok, "sup_x |F_n(x) - Phi(x)| for Binomial(n, 0.3): " + ", ".join(rows))


def kappa3_as_written() -> Outcome:
    """'Symmetric trade-off functions have kappa_3 < oo': f_{0, 1/10} is symmetric with
    kappa_3 = oo (|f'| = 0 on (0.9, 1])."""
    pair = eps_delta_pair(F(1), F(1, 10))
    f = curve(*pair)
    symmetric, _ = same(inverse(f), f)
    with mpmath.workdps(20):
        k3 = tr.functionals(tr.tradeoff_curve(tr.eps_delta_pair(0, "0.1"))).kappa3
    return Outcome(
        not (symmetric and k3 == mpmath.inf),
        f"f_(0, 1/10): symmetric (f^-1 = f exactly): {symmetric}; kappa_3 = {k3}",
    )


def berry_esseen_with_kappa3() -> Outcome:
    """With kappa_3 < oo (n = 20 copies of f_{1/2, 0}): the Berry-Esseen sandwich holds."""
    with mpmath.workdps(20):
        eps, n = mpmath.mpf("0.5"), 20
        parts = [tr.functionals(tr.tradeoff_curve(tr.eps_delta_pair(eps, 0)))] * n
        mu, gamma = tr.clt_parameters(parts)
        exact = tr.tradeoff_curve(tr.eps_power_pair(eps, n))
        alphas = [gamma + (1 - 2 * gamma) * i / 50 for i in range(51)]
        ok = gamma < 0.5 and all(
            tradeoff_gaussian(mu, min(1, a + gamma)) - gamma
            <= exact(a)
            <= tradeoff_gaussian(mu, max(0, a - gamma)) + gamma
            for a in alphas
        )
    return Outcome(
        ok,
        f"kappa_3(f_(1/2,0)) = {mpmath.nstr(parts[0].kappa3, 6)}; n = 20: mu = "
        f"{mpmath.nstr(mu, 6)}, gamma = {mpmath.nstr(gamma, 4)}; sandwich holds at 51 alphas",
    )


def _gap_to_gaussian(c: Any, mu: Any) -> Any:
    return max(abs(c(a) - tradeoff_gaussian(mu, a)) for a in GRID)


def clt_limit_as_written() -> Outcome:
    """f_n1 = f_{3,0}, f_ni = Id (i >= 2): sum kl -> K, sum kappa_2 -> s^2, and the product is
    f_{3,0} for every n, not G_{2K/s}."""
    with mpmath.workdps(20):
        f3 = tr.tradeoff_curve(tr.eps_delta_pair(3, 0))
        fun, ident = tr.functionals(f3), tr.functionals(tr.tradeoff_curve(tr.identity_pair()))
        big_k, s = fun.kl + 4 * ident.kl, mpmath.sqrt(fun.kappa2 + 4 * ident.kappa2)
        product = tr.tradeoff_curve(tr.tensor(tr.eps_delta_pair(3, 0), *[tr.identity_pair()] * 4))
        same_as_f3 = max(abs(product(a) - f3(a)) for a in GRID) < mpmath.mpf(10) ** -15
        gap = _gap_to_gaussian(product, 2 * big_k / s)
        at = mpmath.mpf("0.05")
        detail = (
            f"K = {mpmath.nstr(big_k, 6)}, s = {mpmath.nstr(s, 6)}, 2K/s = "
            f"{mpmath.nstr(2 * big_k / s, 6)}; n = 5: product = f_(3,0): {same_as_f3}; "
            f"at alpha = 0.05: {mpmath.nstr(product(at), 4)} vs G_(2K/s) = "
            f"{mpmath.nstr(tradeoff_gaussian(2 * big_k / s, at), 4)}; sup gap {mpmath.nstr(gap, 4)}"
        )
    return Outcome(not (same_as_f3 and gap > mpmath.mpf("0.1")), detail)


def clt_limit_corrected() -> Outcome:
    """f_ni = f_{1/sqrt n, 0}: sum kl -> 1/2, sum kappa_2 = 1, max kl -> 0, sum kappa_3 ->
    0; the product approaches G_{2K/s} = G_1."""
    gaps = []
    with mpmath.workdps(20):
        for n in (10, 100, 400):
            gaps.append(
                _gap_to_gaussian(tr.tradeoff_curve(tr.eps_power_pair(1 / mpmath.sqrt(n), n)), 1)
            )
    ok = all(b < a for a, b in pairwise(gaps)) and gaps[-1] < mpmath.mpf("0.002")
    shown = ", ".join(
        f"n={n}: {mpmath.nstr(g, 3)}" for n, g in zip((10, 100, 400), gaps, strict=True)
    )
    return Outcome(ok, f"sup_alpha |f_(1/sqrt n,0)^(x)n - G_1|: {shown}")


# --- 5.3: the (eps, delta) approximation -------------------------------------------------


def _regroup_instance(r: random.Random) -> tuple[bool, str]:
    n = r.randint(2, 3)
    rs = [F(r.randint(10, 40), 10) for _ in range(n)]  # e^eps_i, rational
    ds = [F(r.randint(0, 5), 20) for _ in range(n)]
    whole = curve(*tensor(*(eps_delta_pair(x, d) for x, d in zip(rs, ds, strict=True))))
    pure = tensor(*(eps_delta_pair(x, F(0)) for x in rs))
    flat = tensor(*(eps_delta_pair(F(1), d) for d in ds))
    ok, why = same(whole, curve(*tensor(pure, flat)))
    return ok, f"e^eps = {rs}, delta = {ds}: {why}"


def regroup() -> Outcome:
    return over_instances("regrouping f_(eps_i, delta_i)", 20, 53, _regroup_instance)


def eps_part_gaussian() -> Outcome:
    """f_{eps,0}^{(x) n} with eps = mu/sqrt n against G_{sqrt(n) eps} = G_mu."""
    rows, ok = [], True
    with mpmath.workdps(20):
        for mu in ("0.5", "1", "2"):
            gaps = [
                _gap_to_gaussian(
                    tr.tradeoff_curve(tr.eps_power_pair(mpmath.mpf(mu) / mpmath.sqrt(n), n)), mu
                )
                for n in (1, 10, 100)
            ]
            ok = ok and all(b < a for a, b in pairwise(gaps))
            rows.append(
                f"mu={mu}: "
                + ", ".join(
                    f"n={n}: {mpmath.nstr(g, 3)}" for n, g in zip((1, 10, 100), gaps, strict=True)
                )
            )
        e = 1 / mpmath.sqrt(10)
        fun = tr.functionals(tr.tradeoff_curve(tr.eps_delta_pair(e, 0)))
        clt_mu, _ = tr.clt_parameters([fun] * 10)
    rows.append(f"n=10, eps=1/sqrt 10: CLT mu = {mpmath.nstr(clt_mu, 6)} vs sqrt(sum eps^2) = 1")
    return Outcome(ok, "sup_alpha |f_(eps,0)^(x)n - G_(sqrt(n) eps)|: " + "; ".join(rows))


def _with_flat(f: Any, d: Any, a: Any) -> Any:
    """(f (x) f_{0,d})(alpha) = (1 - d) f(alpha/(1 - d)) on [0, 1 - d], 0 beyond."""
    return (1 - d) * f(a / (1 - d)) if a <= 1 - d else mpmath.mpf(0)


def final_limit() -> Outcome:
    """f_{eps_n, delta_n}^{(x) n} with eps_n = mu/sqrt n, delta_n = delta/n against
    G_mu (x) f_{0, 1 - e^-delta} (mu = 1, delta = 0.1)."""
    with mpmath.workdps(20):
        mu, delta = mpmath.mpf(1), mpmath.mpf("0.1")
        d_lim = 1 - mpmath.exp(-delta)
        check = tr.tradeoff_curve(
            tr.tensor(tr.eps_delta_pair(mpmath.log(2), 0), tr.eps_delta_pair(0, d_lim))
        )
        half = tr.tradeoff_curve(tr.eps_delta_pair(mpmath.log(2), 0))
        formula_ok = (
            max(abs(check(a) - _with_flat(half, d_lim, a)) for a in GRID) < mpmath.mpf(10) ** -15
        )
        gaps = []
        for n in (10, 30, 100):
            pair = tr.eps_delta_pair(mu / mpmath.sqrt(n), delta / n)
            product = tr.tradeoff_curve(tr.tensor(*[pair] * n))
            gaps.append(
                max(
                    abs(product(a) - _with_flat(lambda x: tradeoff_gaussian(mu, x), d_lim, a))
                    for a in GRID
                )
            )
    ok = formula_ok and all(b < a for a, b in pairwise(gaps)) and gaps[-1] < mpmath.mpf("0.01")
    shown = ", ".join(
        f"n={n}: {mpmath.nstr(g, 3)}" for n, g in zip((10, 30, 100), gaps, strict=True)
    )
    return Outcome(
        ok,
        f"(f (x) f_(0,d)) formula checked on a finite f: {formula_ok}; "
        f"sup gap to G_1 (x) f_(0,1-e^-0.1): {shown}",
    )
