"""Exact computation, symbolic: the NumericSparse algebra of seed 001 (Dwork & Roth 2014,
section 3.6.3).

Each function computes one fact with SymPy and returns an :class:`~symbolic.audit.Outcome`;
registered as an experiment it is ``proved`` when SymPy decided it for symbolic values of
every variable (in the scope registered with it), ``undecided`` otherwise.  The formulas
here are the seed's displays as printed and the book's statements they are compared with
(Theorem 3.26, the accuracy of Sparse; the noise scales of Algorithms 2 and 3).
Inequalities are reduced by substituting logarithms by symbols that carry their signs
(``ln k = L >= 0``, ``ln(c/beta) = m > 0`` since ``c >= 1 > beta``) after ``expand_log``;
SymPy's assumptions then decide the sign of the residual.  Nothing numeric is called a
proof here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import sympy as sp

from derivations.audit.experiments.base import Result, register
from symbolic.audit import Outcome
from symbolic.verdicts import Verdict

__all__ = [
    "R512",
    "alpha_ns_approx",
    "alpha_ns_pure",
    "alpha_sparse_approx",
    "alpha_sparse_pure",
    "bottom_union_bound",
    "budget_sums",
    "constant_factor_vs_sparse",
    "display_approx_is_sparse_part",
    "display_pure_is_sparse_part",
    "laplace_baseline_ratio",
    "laplace_step_approx_corrected",
    "laplace_step_pure",
    "logarithmic_in_k",
    "sparse_part_noise",
    "union_bound",
]

R512 = sp.sqrt(512)
EPS, DELTA, BETA = sp.symbols("eps delta beta", positive=True)
C, K = sp.symbols("c k", positive=True)
L = sp.Symbol("L", nonnegative=True)  # ln k, k >= 1
M = sp.Symbol("m", positive=True)  # ln(c/beta), c >= 1 > beta
N = sp.Symbol("n", nonnegative=True)  # an excess over ln 2 (beta <= 1/2 or delta <= 1/2)


def alpha_ns_pure(e: sp.Expr, b: sp.Expr, c: sp.Expr, k: sp.Expr) -> sp.Expr:
    """The seed's display for delta = 0: alpha = 9c(ln k + ln(4c/beta))/eps."""
    return 9 * c * (sp.log(k) + sp.log(4 * c / b)) / e


def alpha_ns_approx(e: sp.Expr, d: sp.Expr, b: sp.Expr, c: sp.Expr, k: sp.Expr) -> sp.Expr:
    """The seed's display for delta > 0:
    alpha = (ln k + ln(4c/beta)) sqrt(c ln(2/delta)) (sqrt(512)+1)/eps."""
    return (sp.log(k) + sp.log(4 * c / b)) * sp.sqrt(c * sp.log(2 / d)) * (R512 + 1) / e


def alpha_sparse_pure(e: sp.Expr, b: sp.Expr, c: sp.Expr, k: sp.Expr) -> sp.Expr:
    """Dwork & Roth, Theorem 3.26 (delta = 0): Sparse is accurate at 8c(ln k + ln(2c/beta))/eps."""
    return 8 * c * (sp.log(k) + sp.log(2 * c / b)) / e


def alpha_sparse_approx(e: sp.Expr, d: sp.Expr, b: sp.Expr, c: sp.Expr, k: sp.Expr) -> sp.Expr:
    """Dwork & Roth, Theorem 3.26 (delta > 0): (ln k + ln(2c/beta)) sqrt(512 c ln(1/delta))/eps."""
    return (sp.log(k) + sp.log(2 * c / b)) * sp.sqrt(512 * c * sp.log(1 / d)) / e


def _signs(expr: sp.Expr, extra: dict[sp.Expr, sp.Expr] | None = None) -> sp.Expr:
    """``expr`` with ln k -> L and ln c -> m + ln beta (so ln(c/beta) = m), simplified."""
    out = sp.expand_log(sp.expand(expr), force=True)
    out = out.subs({sp.log(K): L, sp.log(C): M + sp.log(BETA)})
    if extra:
        out = out.subs(extra)
    return sp.factor(sp.simplify(out))


def _nonneg(expr: sp.Expr) -> bool:
    return bool(expr.is_nonnegative)


def _zero(expr: sp.Expr) -> bool:
    return sp.simplify(sp.expand_log(expr, force=True)) == 0


def display_pure_is_sparse_part() -> Outcome:
    """The delta = 0 display is Sparse's alpha at eps1 = 8 eps/9 and failure beta/2, and it
    exceeds the Laplace part 9c ln(2c/beta)/eps (c answers of scale 9c/eps, beta/2)."""
    diff = alpha_ns_pure(EPS, BETA, C, K) - alpha_sparse_pure(8 * EPS / 9, BETA / 2, C, K)
    laplace = 9 * C * sp.log(2 * C / BETA) / EPS
    slack = _signs(alpha_ns_pure(EPS, BETA, C, K) - laplace)
    ok = _zero(diff) and _nonneg(slack)
    return Outcome(
        ok,
        "9c(ln k + ln(4c/beta))/eps - 8c(ln k + ln(2c/(beta/2)))/(8 eps/9) simplifies to "
        f"{sp.simplify(sp.expand_log(diff, force=True))}; alpha - 9c ln(2c/beta)/eps = "
        f"{slack} >= 0 with L = ln k >= 0 (SymPy)",
    )


def display_approx_is_sparse_part() -> Outcome:
    """The delta > 0 display is Sparse's alpha at eps1 = sqrt(512) eps/(sqrt(512)+1),
    delta/2 and failure beta/2: it accounts for the Sparse part only."""
    eps1 = R512 * EPS / (R512 + 1)
    diff = alpha_ns_approx(EPS, DELTA, BETA, C, K) - alpha_sparse_approx(
        eps1, DELTA / 2, BETA / 2, C, K
    )
    ok = _zero(diff)
    return Outcome(
        ok,
        "(ln k + ln(4c/beta)) sqrt(c ln(2/delta)) (sqrt(512)+1)/eps minus Sparse's alpha "
        "(ln k + ln(2c/beta')) sqrt(512 c ln(1/delta'))/eps1 at eps1 = sqrt(512) eps/"
        "(sqrt(512)+1), delta' = delta/2, beta' = beta/2 simplifies to "
        f"{sp.simplify(sp.expand_log(diff, force=True))} (SymPy)",
    )


def sparse_part_noise() -> Outcome:
    """NumericSparse's threshold noise sigma(eps1) is that of Sparse(..., eps1, delta/2)
    (Sparse: 2c/eps for delta = 0, sqrt(32 c ln(1/delta))/eps for delta > 0)."""
    e1_approx = R512 * EPS / (R512 + 1)
    approx = sp.simplify(
        sp.sqrt(32 * C * sp.log(2 / DELTA)) / e1_approx
        - sp.sqrt(32 * C * sp.log(1 / (DELTA / 2))) / e1_approx
    )
    ok = approx == 0
    return Outcome(
        ok,
        "delta = 0: NumericSparse's sigma(eps1) = 2c/eps1 is Sparse's 2c/eps at eps = eps1 "
        "(the same formula); "
        "delta > 0: sqrt(32 c ln(2/delta))/eps1 - sqrt(32 c ln(1/(delta/2)))/eps1 simplifies "
        f"to {approx} (SymPy); the query noise is twice the threshold noise in both",
    )


def budget_sums() -> Outcome:
    """Basic composition of the two parts: 8/9 + 1/9 = 1; with the book's Laplace part
    sqrt(512)/(sqrt(512)+1) + 1/(sqrt(512)+1) = 1 and delta/2 + delta/2 = delta; with the
    seed's eps/sqrt(512) the sum exceeds eps."""
    pure = sp.simplify(8 * EPS / 9 + EPS / 9 - EPS)
    book = sp.simplify(R512 * EPS / (R512 + 1) + EPS / (R512 + 1) - EPS)
    deltas = sp.simplify(DELTA / 2 + DELTA / 2 - DELTA)
    seed_excess = sp.simplify(R512 * EPS / (R512 + 1) + EPS / R512 - EPS)
    target = EPS / (512 + R512)
    seed_ok = sp.simplify(seed_excess - target) == 0
    ok = pure == 0 and book == 0 and deltas == 0 and seed_ok
    return Outcome(
        ok,
        f"8 eps/9 + eps/9 - eps = {pure}; sqrt(512) eps/(sqrt(512)+1) + eps/(sqrt(512)+1) - "
        f"eps = {book}; delta/2 + delta/2 - delta = {deltas} (SymPy).  With the seed's "
        f"Laplace part eps/sqrt(512) the excess is eps/(512 + sqrt(512)) = "
        f"{sp.N(target.subs(EPS, 1), 6)} eps",
    )


def bottom_union_bound() -> Outcome:
    """Corrected first step of the proof of Theorem 3.28: a bottom on a query with
    f_i(D) > T + alpha needs nu_i < -alpha/2 (one of at most k query noises, scale
    2 sigma(eps1)) or z > alpha/2 (one of at most c threshold draws, scale sigma(eps1)); the
    union bound k e^{-alpha/(4 sigma)}/2 + c e^{-alpha/(2 sigma)}/2 is at most beta/2."""
    s_pure = 2 * C / (8 * EPS / 9)
    s_approx = sp.sqrt(32 * C * sp.log(2 / DELTA)) / (R512 * EPS / (R512 + 1))
    r = 4 * (sp.log(K) + sp.log(4 * C / BETA))
    ratio_ok = _zero(alpha_ns_pure(EPS, BETA, C, K) / s_pure - r) and _zero(
        alpha_ns_approx(EPS, DELTA, BETA, C, K) / s_approx - r
    )
    bound = sp.simplify(K * sp.exp(-r / 4) / 2 + C * sp.exp(-r / 2) / 2)
    u, v, w = sp.symbols("u v w", nonnegative=True)  # c = 1 + u, k = 1 + v, beta = 1/(1 + w)
    slack = sp.factor(sp.simplify((BETA / 2 - bound).subs({C: 1 + u, K: 1 + v, BETA: 1 / (1 + w)})))
    ok = ratio_ok and _nonneg(slack)
    return Outcome(
        ok,
        "alpha/sigma(eps1) simplifies to 4(ln k + ln(4c/beta)) for both displays; the union "
        f"bound is {bound}; beta/2 minus it, with c = 1 + u, k = 1 + v, beta = 1/(1 + w), "
        f"is {slack} >= 0 (SymPy assumptions)",
    )


def union_bound() -> Outcome:
    """Two failure events of probability at most beta/2 each fail together with
    probability at most beta/2 + beta/2 = beta (union bound)."""
    res = sp.simplify(BETA / 2 + BETA / 2 - BETA)
    return Outcome(res == 0, f"beta/2 + beta/2 - beta = {res} (SymPy)")


def laplace_step_pure() -> Outcome:
    """delta = 0: c answers of scale sigma(eps2) = 2c/(2 eps/9) are all within alpha except
    with probability c exp(-alpha/sigma) = beta/(4k) <= beta/2."""
    x, b, t = sp.symbols("x b t", positive=True)
    tail = sp.simplify(2 * sp.integrate(sp.exp(-x / b) / (2 * b), (x, t, sp.oo)))
    tail_ok = sp.simplify(tail - sp.exp(-t / b)) == 0
    sigma2 = 2 * C / (2 * EPS / 9)
    union = C * tail.subs({t: alpha_ns_pure(EPS, BETA, C, K), b: sigma2})
    union_ok = _zero(union - BETA / (4 * K))
    j = sp.Symbol("j", nonnegative=True)  # k = 1 + j
    slack = sp.factor(sp.simplify((BETA / 2 - BETA / (4 * K)).subs(K, 1 + j)))
    ok = tail_ok and union_ok and _nonneg(slack)
    return Outcome(
        ok,
        f"Pr[|Lap(b)| > t] = {tail} (SymPy integral); c exp(-alpha/sigma(eps2)) with "
        f"sigma(eps2) = 9c/eps simplifies to beta/(4k); beta/2 - beta/(4k) = {slack} >= 0 "
        "for k = 1 + j, j >= 0 (SymPy assumptions)",
    )


def laplace_step_approx_corrected() -> Outcome:
    """delta > 0 with alpha sqrt(8) times the seed's: the c Laplace answers of scale
    sqrt(32 c ln(2/delta))/eps2, eps2 = 2 eps/(sqrt(512)+1), are all within alpha except
    with probability beta/(4k) <= beta/2."""
    sigma2 = sp.sqrt(32 * C * sp.log(2 / DELTA)) * (R512 + 1) / (2 * EPS)
    alpha = sp.sqrt(8) * alpha_ns_approx(EPS, DELTA, BETA, C, K)
    union = C * sp.exp(-alpha / sigma2)
    ok = _zero(sp.simplify(union) - BETA / (4 * K))
    seed = sp.simplify(C * sp.exp(-alpha_ns_approx(EPS, DELTA, BETA, C, K) / sigma2))
    return Outcome(
        ok,
        "with alpha' = sqrt(8) alpha: c exp(-alpha'/sigma(eps2)) simplifies to beta/(4k) "
        f"(SymPy); with the seed's alpha it is {seed}, i.e. c (4ck/beta)^(-1/(2 sqrt 2))",
    )


def constant_factor_vs_sparse() -> Outcome:
    """alpha of NumericSparse (the seed's displays) over alpha of Sparse (Theorem 3.26) at
    the same eps, delta, beta, c, k: at most 9/4 for delta = 0; at most
    2 sqrt(2)(1 + 1/sqrt(512)) for 0 < delta <= 1/2."""
    pure = _signs(
        sp.Rational(9, 4) * alpha_sparse_pure(EPS, BETA, C, K) - alpha_ns_pure(EPS, BETA, C, K)
    )
    # delta > 0: ratio = f1 * (1 + 1/sqrt(512)) * sqrt(f3) with f1 the log factor and f3 =
    # ln(2/delta)/ln(1/delta); bound f1 <= 2 and f3 <= 2 (ln(1/delta) = ln 2 + n, n >= 0).
    f1 = (sp.log(K) + sp.log(4 * C / BETA)) / (sp.log(K) + sp.log(2 * C / BETA))
    f1_slack = _signs(sp.together(2 - f1))
    u = sp.log(2) + N
    f3_slack = sp.factor(sp.simplify(2 - (sp.log(2) + u) / u))
    ratio_identity = sp.simplify(
        alpha_ns_approx(EPS, DELTA, BETA, C, K) / alpha_sparse_approx(EPS, DELTA, BETA, C, K)
        - f1 * (1 + 1 / R512) * sp.sqrt(sp.log(2 / DELTA)) / sp.sqrt(sp.log(1 / DELTA))
    )
    bound = 2 * sp.sqrt(2) * (1 + 1 / R512)
    ok = _nonneg(pure) and _nonneg(f1_slack) and _nonneg(f3_slack) and ratio_identity == 0
    near_one = ", ".join(
        f"delta = {d}: {_ratio_at(d):.3g}" for d in ("0.5", "0.9", "0.99", "0.9999")
    )
    return Outcome(
        ok,
        f"delta = 0: (9/4) alpha_Sparse - alpha = {pure} >= 0 with L = ln k >= 0, m = "
        "ln(c/beta) > 0 (SymPy assumptions); the factor 9/4 is approached at k = c = 1, "
        f"beta -> 1.  delta > 0: ratio = f1 (1 + 1/sqrt 512) sqrt(ln(2/delta)/ln(1/delta)) "
        f"with 2 - f1 = {f1_slack} >= 0 and, for delta <= 1/2 (ln(1/delta) = ln 2 + n), "
        f"2 - ln(2/delta)/ln(1/delta) = {f3_slack} >= 0, so ratio <= "
        f"{sp.N(bound, 5)}.  Unbounded as delta -> 1 (k = c = 1, beta = 0.05): {near_one}",
    )


def _ratio_at(delta: str) -> float:
    point = {EPS: 1, DELTA: sp.Rational(delta), BETA: sp.Rational(1, 20), C: 1, K: 1}
    num = alpha_ns_approx(EPS, DELTA, BETA, C, K).subs(point)
    den = alpha_sparse_approx(EPS, DELTA, BETA, C, K).subs(point)
    return float(sp.N(num / den, 20))


def laplace_baseline_ratio() -> Outcome:
    """delta = 0: answering the c large queries, known in advance, with Laplace noise of
    scale c/eps costs alpha_L = c ln(c/beta)/eps (union bound); the seed's alpha is at most
    (27 + 9 log2 k) alpha_L when beta <= 1/2."""
    alpha_l = C * sp.log(C / BETA) / EPS
    bound = 27 + 9 * sp.log(K) / sp.log(2)
    # beta <= 1/2 and c >= 1 give ln(c/beta) = ln 2 + n with n >= 0.
    slack = _signs(bound * alpha_l - alpha_ns_pure(EPS, BETA, C, K), {M: sp.log(2) + N})
    ok = _nonneg(slack)
    rows = []
    for k, c, beta in (
        (10, 1, "0.05"),
        (1000, 10, "0.05"),
        (10**6, 10, "0.01"),
        (10**6, 100, "0.5"),
    ):
        point = {EPS: 1, BETA: sp.Rational(beta), C: c, K: k}
        r = sp.N((alpha_ns_pure(EPS, BETA, C, K) / alpha_l).subs(point), 6)
        rows.append(f"k = {k}, c = {c}, beta = {beta}: {r} (bound {sp.N(bound.subs(K, k), 4)})")
    return Outcome(
        ok,
        f"(27 + 9 log2 k) alpha_L - alpha = {slack} >= 0 with L = ln k >= 0, ln(c/beta) = "
        "ln 2 + n, n >= 0 (SymPy assumptions).  At finite sizes alpha/alpha_L is "
        + "; ".join(rows)
        + ".  Without beta <= 1/2 the ratio is unbounded (c = 1, beta -> 1: ln(c/beta) -> 0)",
    )


def logarithmic_in_k() -> Outcome:
    """alpha is affine in ln k: k d(alpha)/dk does not depend on k (both displays)."""
    pure = sp.simplify(K * sp.diff(alpha_ns_pure(EPS, BETA, C, K), K))
    approx = sp.simplify(K * sp.diff(alpha_ns_approx(EPS, DELTA, BETA, C, K), K))
    ok = not pure.has(K) and not approx.has(K)
    return Outcome(
        ok,
        f"k d(alpha)/dk = {pure} (delta = 0) and {approx} (delta > 0): alpha = A + B ln k "
        "with B free of k (SymPy)",
    )


def _symbolic(name: str, scope: str, f: Callable[[], Outcome]) -> None:
    def run(_: Mapping[str, Any]) -> Result:
        o = f()
        # SymPy not deciding is no counterexample: undecided, never refuted.
        return Result(Verdict.PROVED if o.holds else Verdict.UNDECIDED, scope, o.detail)

    register(name, "exact computation")(run)


_GENERAL = "general: every eps, delta in (0, 1), beta in (0, 1], c, k >= 1"
for _name, _scope, _f in (
    (
        "constant-factor-vs-sparse",
        "instance: delta = 0 and 0 < delta <= 1/2 (no constant exists as delta -> 1)",
        constant_factor_vs_sparse,
    ),
    ("sparse-part-noise", _GENERAL, sparse_part_noise),
    ("budget-sums", "general: every eps > 0, delta", budget_sums),
    ("display-approx-is-sparse-part", _GENERAL, display_approx_is_sparse_part),
    ("display-pure-is-sparse-part", _GENERAL, display_pure_is_sparse_part),
    ("union-bound", "general: every beta", union_bound),
    ("bottom-union-bound", _GENERAL, bottom_union_bound),
    ("laplace-step-pure", _GENERAL, laplace_step_pure),
    ("laplace-step-approx-corrected", _GENERAL, laplace_step_approx_corrected),
    ("laplace-baseline-ratio", "instance: delta = 0 and beta <= 1/2", laplace_baseline_ratio),
    ("logarithmic-in-k", _GENERAL, logarithmic_in_k),
):
    _symbolic(_name, _scope, _f)
