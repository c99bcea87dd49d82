"""The checks behind the audit of seed 003's composition sections."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp

from derivations.advanced_composition import advanced_eps
from derivations.audit.seed_003_tools import mp_str, sym_zero
from derivations.composition import basic_eps
from numeric_checks.dp.laplace import hockey_stick, laplace_interval, worst_privacy_loss
from symbolic.audit import Outcome

INF = mpmath.inf


def _parallel(eps1: Any, eps2: Any) -> tuple[Any, Any, Any]:
    """Counts of parts D_1, D_2 plus Laplace(1/eps_i) noise; x has the record in D_1, x' has
    it (substituted) in D_2.  Returns Pr_x[S], Pr_x'[S] for S = {M_1 >= 1, M_2 <= 0}, and
    the largest hockey-stick divergence of one coordinate under a change of its count by 1."""
    b1, b2 = 1 / eps1, 1 / eps2
    px = laplace_interval(1, INF, 1, b1) * laplace_interval(-INF, 0, 0, b2)
    py = laplace_interval(1, INF, 0, b1) * laplace_interval(-INF, 0, 1, b2)
    each = max(hockey_stick(0, 1, b1, eps1), hockey_stick(0, 1, b2, eps2))
    return px, py, each


def parallel_substitution(eps1: str, eps2: str) -> Outcome:
    with mpmath.workdps(30):
        e1, e2 = mpmath.mpf(eps1), mpmath.mpf(eps2)
        px, py, each = _parallel(e1, e2)
        loss = mpmath.log(px / py)
        bad = loss > max(e1, e2) + mpmath.mpf(10) ** -20 and each < mpmath.mpf(10) ** -20
    return Outcome(
        False if bad else None,
        f"D = {{a, b}}, D_1 = {{a}}, D_2 = {{b}}, n = 1, x = (a), x' = (b) (one entry "
        f"differs); M_i = |X ∩ D_i| + Lap(1/eps_i) with eps_1 = {eps1}, eps_2 = {eps2}, each "
        f"eps_i-DP (hockey-stick {mp_str(each, 3)}); S = {{M_1 >= 1, M_2 <= 0}}: "
        f"Pr_x[S] = {mp_str(px)}, Pr_x'[S] = {mp_str(py)}, ln ratio = {mp_str(loss)} > "
        f"max eps_i = {mp_str(max(e1, e2))} (= eps_1 + eps_2)",
    )


def parallel_corrected() -> Outcome:
    """Add/remove neighbours: only one part changes, the tuple is max(eps_i)-DP; substitution
    across parts: the sum of the two parts' eps."""
    with mpmath.workdps(30):
        e1, e2 = mpmath.mpf(1), mpmath.mpf(1) / 2
        # add/remove the record in D_1: counts (1, 0) vs (0, 0)
        remove = worst_privacy_loss(1, 0, 1 / e1) + worst_privacy_loss(0, 0, 1 / e2)
        # substitution from D_1 to D_2: counts (1, 0) vs (0, 1)
        move = worst_privacy_loss(1, 0, 1 / e1) + worst_privacy_loss(0, 1, 1 / e2)
        tol = mpmath.mpf(10) ** -20
        ok = abs(remove - max(e1, e2)) < tol and abs(move - (e1 + e2)) < tol
    return Outcome(
        ok,
        f"eps_1 = 1, eps_2 = 1/2: removing the record changes one part, worst privacy loss "
        f"{mp_str(remove)} = max eps_i; moving it between parts gives {mp_str(move)} = "
        "eps_1 + eps_2",
    )


def naive_linear_tight() -> Outcome:
    """k-fold randomized response: the ratio at (1, ..., 1) is exactly e^(k eps)."""
    eps = sp.Symbol("eps", positive=True)
    k = sp.Symbol("k", positive=True, integer=True)
    e = sp.exp(eps)
    p, q = e / (1 + e), 1 / (1 + e)  # Pr[1] on x and on x'
    return Outcome(
        sym_zero((p / q) ** k - sp.exp(k * eps)),
        "SymPy: k independent eps-DP randomized responses have probability ratio "
        "(e^eps)^k = e^(k eps) at the all-ones output, so the bound k eps of Theorem 1 is "
        "attained: the guarantee grows exactly linearly",
    )


Game = dict[tuple[int, ...], Fraction]


def _game(bit: int, k: int) -> Game:
    """Adversary coins r uniform on {0, 1}; round i asks randomized response (answer = bit
    w.p. 2/3, ln 2-DP) when r + (answers so far) is odd, else a constant query (answer 0).
    Returns the law of the view (r, y_1, ..., y_k)."""
    law: Game = {}
    for view in itertools.product((0, 1), repeat=k + 1):
        r, ys = view[0], view[1:]
        p = Fraction(1, 2)
        for i, y in enumerate(ys):
            if (r + sum(ys[:i])) % 2:
                p *= Fraction(2, 3) if y == bit else Fraction(1, 3)
            else:
                p *= 1 if y == 0 else 0
        law[view] = p
    return law


def _marginal(law: Game, keep: int, given_r: bool) -> Game:
    """Law of the first ``keep`` answers (with r in front if ``given_r``)."""
    out: Game = {}
    for view, p in law.items():
        key = view[: keep + 1] if given_r else view[1 : keep + 1]
        out[key] = out.get(key, Fraction(0)) + p
    return out


def _factorised(law: Game, view: tuple[int, ...], given_r: bool) -> Fraction:
    """Pr[R = r] times the product of Pr[Y_i = y_i | (R = r,) Y_<i = y_<i]."""
    k = len(view) - 1
    out = _marginal(law, 0, True)[view[:1]]
    for i in range(1, k + 1):
        num, den = _marginal(law, i, given_r), _marginal(law, i - 1, given_r)
        key = view[: i + 1] if given_r else view[1 : i + 1]
        if den.get(key[:-1], 0) == 0:
            return Fraction(0)
        out *= num.get(key, Fraction(0)) / den[key[:-1]]
    return out


def naive_factorisation() -> Outcome:
    """The first line as printed (conditionals without R = r) is not the view's ratio."""
    k = 2
    law0, law1 = _game(0, k), _game(1, k)
    for view in sorted(law0):
        true_ratio = (law0[view], law1[view])
        printed = (_factorised(law0, view, False), _factorised(law1, view, False))
        if law1[view] and printed[1] and true_ratio[0] / true_ratio[1] != printed[0] / printed[1]:
            break
    else:
        return Outcome(None, "no view separates the two factorisations")
    bound = max(
        _factorised(law0, v, False) / _factorised(law1, v, False)
        for v in law0
        if _factorised(law1, v, False)
    )
    return Outcome(
        False,
        f"k = 2 adaptive rounds (randomized response with ratio 2 = e^eps, or a constant "
        f"query, chosen from the coins r and the answers so far): at v = {view} "
        f"Pr[V^0 = v]/Pr[V^1 = v] = {true_ratio[0] / true_ratio[1]}, the printed product "
        f"(conditionals given the earlier answers only) = {printed[0] / printed[1]}; the printed "
        f"product still stays <= {bound} <= e^(k eps) = 4 (it telescopes to the ratio of the "
        "answers' marginal laws)",
    )


def naive_factorisation_corrected() -> Outcome:
    """Conditioning on R = r too, the product is the view's law and the ratio <= e^(k eps)."""
    k = 2
    law0, law1 = _game(0, k), _game(1, k)
    exact = all(_factorised(law, v, True) == law[v] for law in (law0, law1) for v in law)
    worst = max(law0[v] / law1[v] for v in law0 if law1[v])
    return Outcome(
        exact and worst <= 2**k,
        f"exact (Fractions): with R = r in every condition the product equals Pr[V^b = v] at "
        f"all {len(law0)} views, and the largest ratio is {worst} <= e^(k eps) = {2**k}",
    )


def _ratio_second_first(k: int, eps: Any, delta_p: Any) -> Any:
    return k * eps * mpmath.expm1(eps) / (mpmath.sqrt(2 * k * mpmath.log(1 / delta_p)) * eps)


def strong_regime() -> Outcome:
    """eps = 1e-5, delta' = 1e-6: second term / first term at several k."""
    with mpmath.workdps(30):
        eps, dp = mpmath.mpf(10) ** -5, mpmath.mpf(10) ** -6
        rows = {k: _ratio_second_first(10**k, eps, dp) for k in (2, 4, 6, 8, 10, 12, 14)}
        cross = 2 * mpmath.log(1 / dp) / mpmath.expm1(eps) ** 2
    small = all(rows[k] < mpmath.mpf(1) / 100 for k in (2, 4, 6))
    table = ", ".join(f"k = 1e{k}: {mp_str(v, 3)}" for k, v in rows.items())
    return Outcome(
        small,
        f"eps = 1e-5, delta' = 1e-6, second term / first term: {table}; the terms are equal "
        f"at k = {mp_str(cross, 3)}, beyond which eps' grows linearly in k",
    )


def strong_better_small_k() -> Outcome:
    with mpmath.workdps(30):
        eps, dp, k = mpmath.mpf(10) ** -5, mpmath.mpf(10) ** -6, 10
        adv, basic = advanced_eps(k, eps, dp), basic_eps(k, eps)
    return Outcome(
        False if adv > basic else None,
        f"eps = 1e-5, delta' = 1e-6, k = 10: advanced eps' = {mp_str(adv)} > k eps = "
        f"{mp_str(basic)} (and it costs delta' on top)",
    )


def strong_better_threshold() -> Outcome:
    """eps'/(k eps) - 1 = sqrt(2 ln(1/delta')/k) + e^eps - 2: better iff
    k > 2 ln(1/delta')/(2 - e^eps)^2 (and eps < ln 2)."""
    k, eps, dp = sp.symbols("k eps delta_p", positive=True)
    adv = sp.sqrt(2 * k * sp.log(1 / dp)) * eps + k * eps * (sp.exp(eps) - 1)
    identity = sym_zero(adv / (k * eps) - 1 - (sp.sqrt(2 * sp.log(1 / dp) / k) + sp.exp(eps) - 2))
    agree, cases = True, 0
    with mpmath.workdps(30):
        for e in ("1e-5", "0.01", "0.3", "0.69"):
            for d in ("1e-3", "1e-6", "1e-12"):
                e_, d_ = mpmath.mpf(e), mpmath.mpf(d)
                edge = 2 * mpmath.log(1 / d_) / (2 - mpmath.exp(e_)) ** 2
                for kk in (1, 2, 5, 10, 30, 100, 1000, 10**5):
                    cases += 1
                    if kk == edge:
                        continue
                    agree &= (advanced_eps(kk, e_, d_) < basic_eps(kk, e_)) == (kk > edge)
    return Outcome(
        identity and agree,
        f"SymPy identity eps'/(k eps) - 1 = sqrt(2 ln(1/delta')/k) + e^eps - 2, and on {cases} "
        "grid points (eps up to 0.69, delta' 1e-3..1e-12, k 1..1e5) advanced beats k eps "
        "exactly when k > 2 ln(1/delta')/(2 - e^eps)^2",
    )


def delta_prime_range() -> Outcome:
    """At delta' > 1 the formula's eps' is not real; at delta' = 0 it is undefined."""
    k, eps = 1, sp.Integer(1)

    def eps_prime(dp: sp.Expr) -> sp.Expr:
        return sp.sqrt(2 * k * sp.log(1 / dp)) * eps + k * eps * (sp.exp(eps) - 1)

    at_two = sp.N(eps_prime(sp.Integer(2)), 12)
    at_zero = sp.log(1 / sp.Integer(0))
    return Outcome(
        False if sp.im(at_two) != 0 else None,
        f"k = 1, eps = 1: at delta' = 2, eps' = {at_two} (not real); at delta' = 0, "
        f"ln(1/delta') = {at_zero}",
    )


def delta_prime_open_unit() -> Outcome:
    """For 0 < delta' < 1, ln(1/delta') > 0 and eps' is real and positive."""
    t = sp.Symbol("t", positive=True)  # delta' = 1/(1 + t) runs over (0, 1)
    k, eps = sp.symbols("k eps", positive=True)
    inner = sp.log(1 / (1 / (1 + t)))
    eps_prime = sp.sqrt(2 * k * inner) * eps + k * eps * (sp.exp(eps) - 1)
    return Outcome(
        bool(sp.simplify(inner).is_positive) and bool(eps_prime.is_real),
        "SymPy: with delta' = 1/(1 + t), t > 0, ln(1/delta') = ln(1 + t) > 0, so eps' is real; "
        "the theorem itself on (0, 1) is the catalog's advanced-composition",
    )
