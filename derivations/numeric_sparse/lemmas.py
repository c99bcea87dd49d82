"""The accuracy lemmas under NumericSparse's accuracy (Theorem 3.28 of Dwork & Roth 2014),
from the Laplace tail (``laplace-tail``, Fact 3.7) and the union bound.

Each lemma bounds the probability that the algorithm fails to be (alpha, beta)-accurate
(Definitions 3.9 and 3.10) by a sum of Laplace tails and shows that the sum is at most beta
at the stated alpha.  What the engine cannot write as an expression is named, never proved
here: that the algorithm fails only if some noise is large (the event inclusion of the
book's proofs), and that the probability of a union of events is at most the sum of theirs
(the foundation ``union-bound``).  The chain starts at the sum of tails the union bound
gives, evaluates each tail by ``laplace-tail``, and ends at beta in the step where the union
bound turns the parts' failure probabilities into the whole's.

* ``above-threshold-accuracy``: Theorem 3.24.  AboveThreshold at eps has threshold noise
  Lap(2/eps) and query noise Lap(4/eps); it is accurate unless the threshold's noise or one of
  the k queries' noises is at least alpha/2, for alpha = 8(ln k + ln(2/beta))/eps.
* ``sparse-accuracy-pure`` and ``sparse-accuracy-approx``: Theorem 3.26.  Sparse is c runs of
  AboveThreshold with threshold noise Lap(sigma) and query noise Lap(2 sigma), sigma = 2c/eps
  (delta = 0, each run AboveThreshold at eps/c) or sqrt(32 c ln(1/delta))/eps (delta > 0, each
  run at eps/sqrt(8 c ln(1/delta))); each run fails with probability at most beta/c.
* ``numeric-sparse-accuracy-bound-pure`` and ``-approx``: the two parts of Theorem 3.28's
  proof.  Sparse at eps1 with failure beta/2 (at alpha >= alpha_S), and the at most c Laplace
  answers of scale sigma(eps2), all within alpha except with probability c e^{-alpha/sigma(eps2)}
  <= beta/2 (at alpha >= alpha_L): at alpha = max(alpha_S, alpha_L) NumericSparse fails with
  probability at most beta.  ``numeric-sparse-accuracy-pure`` and ``-approx`` rest on these.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import sympy as sp

from derivations.display import frac, product
from derivations.laplace_tail import LaplaceTail
from derivations.numeric_sparse.variables import FAMILY, R512
from derivations.sources import DWORK_ROTH
from numeric_checks.dp.above_threshold import hardest_stream, simulate_above_threshold
from symbolic.derivation import Derivation, Oracle, OracleOutcome
from symbolic.domains import Variable, parse_domain
from symbolic.kit import Chain, by, chain

__all__ = [
    "DERIVATIONS",
    "above_threshold_accuracy",
    "alpha_at",
    "numeric_sparse_bound_approx",
    "numeric_sparse_bound_pure",
    "sparse_accuracy_approx",
    "sparse_accuracy_pure",
]

EPS = Variable("eps", parse_domain("(0, oo)"), "privacy parameter epsilon", r"\varepsilon")
DELTA = Variable("delta", parse_domain("(0, 1)"), "privacy parameter delta", r"\delta")
BETA = Variable("beta", parse_domain("(0, 1)"), "failure probability of accuracy", r"\beta")
K = Variable("k", parse_domain("Z>=1"), "number of queries", "k")
C = Variable("c", parse_domain("Z>=1"), "number of answers before halting", "c")
ALPHA = sp.Symbol("alpha", positive=True)

_UNION_NOISES = (
    "union bound: the algorithm fails only if some noise is large (the event inclusion of "
    "the book's proof), so its failure probability is at most the first line"
)


def alpha_at(eps: sp.Expr, beta: sp.Expr, k: sp.Expr) -> sp.Expr:
    """alpha of AboveThreshold (Theorem 3.24): 8(ln k + ln(2/beta))/eps."""
    return 8 * (sp.log(k) + sp.log(2 / beta)) / eps


def _run_tails(alpha: sp.Expr, sigma: sp.Expr, k: sp.Expr) -> sp.Expr:
    """One run of AboveThreshold with threshold noise Lap(sigma) and query noise
    Lap(2 sigma): the tails at alpha/2 of its threshold's noise and its k queries' noises."""
    half = frac(alpha, 2)
    return sp.Add(
        LaplaceTail(half, sigma), product(k, LaplaceTail(half, 2 * sigma)), evaluate=False
    )


def _run_exps(alpha: sp.Expr, sigma: sp.Expr, k: sp.Expr) -> sp.Expr:
    """:func:`_run_tails` by the Laplace tail: e^{-alpha/(2 sigma)} + k e^{-alpha/(4 sigma)}."""
    return sp.Add(
        sp.exp(-alpha / (2 * sigma)), product(k, sp.exp(-alpha / (4 * sigma))), evaluate=False
    )


def _run_at_alpha(share: sp.Expr, k: sp.Expr) -> sp.Expr:
    """:func:`_run_exps` where alpha/(4 sigma) = ln(k/share): (share/k)^2 + share."""
    return sp.Add(sp.Pow(frac(share, k), 2, evaluate=False), share, evaluate=False)


_TAIL = (
    "laplace-tail",
    "each tail Pr[|Lap(b)| >= s] = e^{-s/b} (Fact 3.7 at t = s/b)",
)


ORACLE_MAX_K = 200
"""The oracle simulates k queries per run: above this k it does not decide (cost)."""


def _above_threshold_oracle(values: Mapping[str, Any]) -> OracleOutcome:
    k, beta, alpha = int(values["k"]), float(values["beta"]), float(values["alpha"])
    if k > ORACLE_MAX_K:
        return OracleOutcome(None, f"simulation skipped above k = {ORACLE_MAX_K} (cost)")
    r = simulate_above_threshold(
        float(values["eps"]), hardest_stream(k, alpha), alpha, runs=20000, seed=k
    )
    ok = False if r.lower > beta else (True if r.upper <= beta else None)
    return OracleOutcome(
        ok,
        f"{r.failures}/{r.runs} runs not alpha-accurate, {r.confidence:.1%} interval "
        f"[{float(r.lower):.4g}, {float(r.upper):.4g}] vs beta = {beta:.4g}",
    )


def above_threshold_accuracy() -> Derivation:
    """Theorem 3.24: AboveThreshold is (alpha, beta)-accurate, alpha = 8(ln k + ln(2/beta))/eps."""
    es, bs, ks = EPS.symbol, BETA.symbol, K.symbol
    proof = (
        chain(_run_tails(ALPHA, 2 / es, ks))
        .eq(_run_exps(ALPHA, 2 / es, ks), by.lemma(*_TAIL))
        .eq(
            _run_at_alpha(bs / 2, ks),
            by.algebra("alpha eps/8 = ln k + ln(2/beta): e^{-alpha eps/8} = beta/(2k)"),
        )
        .le(
            bs,
            by.foundation(
                "union-bound",
                _UNION_NOISES + ", and (beta/(2k))^2 + beta/2 <= beta since beta/(2k) < 1/2",
            ),
        )
    )
    return proof.derive(
        id="above-threshold-accuracy",
        title="AboveThreshold is (alpha, beta)-accurate",
        source=DWORK_ROTH.at("Theorem 3.24"),
        statement=(
            "For any k queries of sensitivity 1 such that only the last may satisfy "
            "f_i(D) >= T - alpha, AboveThreshold(D, {f_i}, T, eps) (threshold noise "
            "Lap(2/eps), query noise Lap(4/eps)) is (alpha, beta)-accurate (Definition 3.9) "
            "for alpha = 8(ln k + ln(2/beta))/eps.  Proof: it fails only if the threshold's "
            "noise or some query's noise is at least alpha/2 in absolute value; by the union "
            "bound and the Laplace tail that has probability at most e^{-alpha eps/4} + "
            "k e^{-alpha eps/8} <= beta."
        ),
        variables=(EPS, BETA, K),
        defs=((ALPHA, alpha_at(es, bs, ks)),),
        oracle=Oracle(
            "above-threshold-simulation",
            "AboveThreshold simulated (20000 seeded runs) on the hardest stream of the "
            "hypothesis: k - 1 queries at T - alpha, the last just above T + alpha; refuted if "
            "the failure rate's 99.9% interval lies above beta, agrees if below",
            _above_threshold_oracle,
            points=8,
        ),
        family=FAMILY,
    )


def _sparse_proof(sigma: sp.Expr, alpha: sp.Expr) -> Chain:
    """c runs of AboveThreshold with threshold noise Lap(sigma), each failing with
    probability at most beta/c at ``alpha`` (alpha/(4 sigma) = ln k + ln(2c/beta))."""
    bs, cs, ks = BETA.symbol, C.symbol, K.symbol
    return (
        chain(product(cs, _run_tails(alpha, sigma, ks)))
        .eq(product(cs, _run_exps(alpha, sigma, ks)), by.lemma(*_TAIL))
        .eq(
            product(cs, _run_at_alpha(bs / (2 * cs), ks)),
            by.algebra("alpha/(4 sigma) = ln k + ln(2c/beta): e^{-alpha/(4 sigma)} = beta/(2ck)"),
        )
        .le(
            product(cs, frac(bs, cs)),
            by.lemma(
                "above-threshold-accuracy",
                "each run is AboveThreshold with failure beta/c: (beta/(2ck))^2 + beta/(2c) "
                "<= beta/c",
            ),
        )
        .eq(
            bs,
            by.foundation(
                "union-bound",
                "union bound over the c runs: Sparse fails only if one of its runs does",
            ),
        )
    )


_SPARSE_STATEMENT = (
    "For any k queries of sensitivity 1 with |{i < k : f_i(D) >= T - alpha}| <= c - 1, "
    "Sparse(D, {f_i}, T, c, eps, delta) is (alpha, beta)-accurate (Definition 3.9) for {alpha}.  "
    "(The book's hypothesis L(T) = |{i : f_i(D) >= T - alpha}| <= c lets Sparse halt before "
    "f_k, which Definition 3.9 counts as a failure: see numeric-sparse-accuracy-pure-seed.)  "
    "Proof: Sparse is c runs of AboveThreshold, each with threshold noise Lap(sigma) and query "
    "noise Lap(2 sigma), sigma = {sigma}; by the union bound over the runs and, in each run, "
    "over its noises, the failure probability is at most c(e^{-alpha/(2 sigma)} + "
    "k e^{-alpha/(4 sigma)}) <= beta."
)


def sparse_accuracy_pure() -> Derivation:
    """Theorem 3.26, delta = 0: alpha = 8c(ln k + ln(2c/beta))/eps."""
    es, bs, cs, ks = EPS.symbol, BETA.symbol, C.symbol, K.symbol
    return _sparse_proof(2 * cs / es, ALPHA).derive(
        id="sparse-accuracy-pure",
        title="Sparse is (alpha, beta)-accurate (delta = 0)",
        source=DWORK_ROTH.at("Theorem 3.26 (case delta = 0)"),
        statement=_SPARSE_STATEMENT.replace(
            "{alpha}", "alpha = 8c(ln k + ln(2c/beta))/eps (delta = 0)"
        ).replace("{sigma}", "2c/eps (each run is AboveThreshold at eps/c)"),
        variables=(EPS, BETA, C, K),
        defs=((ALPHA, 8 * cs * (sp.log(ks) + sp.log(2 * cs / bs)) / es),),
        family=FAMILY,
    )


def sparse_accuracy_approx() -> Derivation:
    """Theorem 3.26, delta > 0: alpha = (ln k + ln(2c/beta)) sqrt(512 c ln(1/delta))/eps."""
    es, ds, bs, cs, ks = EPS.symbol, DELTA.symbol, BETA.symbol, C.symbol, K.symbol
    sigma = frac(sp.sqrt(32 * cs * sp.log(1 / ds)), es)
    alpha = (sp.log(ks) + sp.log(2 * cs / bs)) * sp.sqrt(512 * cs * sp.log(1 / ds)) / es
    return _sparse_proof(sigma, ALPHA).derive(
        id="sparse-accuracy-approx",
        title="Sparse is (alpha, beta)-accurate (delta > 0)",
        source=DWORK_ROTH.at("Theorem 3.26 (case delta > 0)"),
        statement=_SPARSE_STATEMENT.replace(
            "{alpha}", "alpha = (ln k + ln(2c/beta)) sqrt(512 c ln(1/delta))/eps (delta > 0)"
        ).replace(
            "{sigma}",
            "sqrt(32 c ln(1/delta))/eps (each run is AboveThreshold at eps/sqrt(8 c ln(1/delta)))",
        ),
        variables=(EPS, DELTA, BETA, C, K),
        defs=((ALPHA, alpha),),
        family=FAMILY,
    )


def _numeric_sparse_proof(
    sigma1: sp.Expr, sigma2: sp.Expr, alpha_s: sp.Expr, alpha_l: sp.Expr, sparse: str
) -> Chain:
    """Sparse at eps1 (threshold noise Lap(sigma1)) with failure beta/2 at alpha_S, and c
    Laplace answers of scale sigma2 within alpha_L except with probability beta/2.

    At alpha = max(alpha_S, alpha_L) each tail is at most the same tail at the part's own
    alpha (a larger alpha is a smaller event), so the chain starts at the parts' tails at
    alpha_S and alpha_L."""
    bs, cs, ks = BETA.symbol, C.symbol, K.symbol
    answers = product(cs, LaplaceTail(alpha_l, sigma2))
    answers_exp = product(cs, sp.exp(-frac(alpha_l, sigma2)))
    return (
        chain(sp.Add(product(cs, _run_tails(alpha_s, sigma1, ks)), answers, evaluate=False))
        .eq(
            sp.Add(product(cs, _run_exps(alpha_s, sigma1, ks)), answers_exp, evaluate=False),
            by.lemma(*_TAIL),
        )
        .le(
            sp.Add(bs / 2, answers_exp, evaluate=False),
            by.lemma(sparse, "the Sparse part: Sparse at eps1 with failure beta/2, at alpha_S"),
        )
        .eq(
            sp.Add(bs / 2, bs / 2, evaluate=False),
            by.algebra("alpha_L/sigma(eps2) = ln(2c/beta): c e^{-ln(2c/beta)} = beta/2"),
        )
        .eq(
            bs,
            by.foundation(
                "union-bound",
                "union bound over the Sparse part and the c answers: NumericSparse fails only "
                "if one of them does",
            ),
        )
    )


def numeric_sparse_bound_pure() -> Derivation:
    """delta = 0: eps1 = 8 eps/9, eps2 = 2 eps/9, sigma(e) = 2c/e."""
    es, bs, cs, ks = EPS.symbol, BETA.symbol, C.symbol, K.symbol
    eps1, eps2 = 8 * es / 9, 2 * es / 9
    alpha_s = 9 * cs * (sp.log(ks) + sp.log(4 * cs / bs)) / es
    alpha_l = 9 * cs * sp.log(2 * cs / bs) / es
    proof = _numeric_sparse_proof(
        frac(2 * cs, eps1), frac(2 * cs, eps2), alpha_s, alpha_l, "sparse-accuracy-pure"
    )
    return proof.derive(
        id="numeric-sparse-accuracy-bound-pure",
        title="NumericSparse's failure probability is at most beta (delta = 0)",
        source=DWORK_ROTH.at("Theorem 3.28 (case delta = 0), its proof", seed="001"),
        statement=_bound_statement(
            "eps1 = 8 eps/9, eps2 = 2 eps/9, sigma(e) = 2c/e",
            "alpha_S = 9c(ln k + ln(4c/beta))/eps (Theorem 3.26 at eps1 and beta/2), "
            "alpha_L = 9c ln(2c/beta)/eps",
        ),
        variables=(EPS, BETA, C, K),
        family=FAMILY,
    )


def numeric_sparse_bound_approx() -> Derivation:
    """delta > 0: eps1 = sqrt(512) eps/(sqrt(512)+1), eps2 = 2 eps/(sqrt(512)+1),
    sigma(e) = sqrt(32 c ln(2/delta))/e (Sparse at delta/2)."""
    es, ds, bs, cs, ks = EPS.symbol, DELTA.symbol, BETA.symbol, C.symbol, K.symbol
    eps1, eps2 = frac(product(R512, es), R512 + 1), frac(2 * es, R512 + 1)
    root = sp.sqrt(32 * cs * sp.log(2 / ds))
    alpha_s = (sp.log(ks) + sp.log(4 * cs / bs)) * sp.sqrt(cs * sp.log(2 / ds)) * (R512 + 1) / es
    alpha_l = 2 * sp.sqrt(2) * sp.log(2 * cs / bs) * sp.sqrt(cs * sp.log(2 / ds)) * (R512 + 1) / es
    proof = _numeric_sparse_proof(
        frac(root, eps1), frac(root, eps2), alpha_s, alpha_l, "sparse-accuracy-approx"
    )
    return proof.derive(
        id="numeric-sparse-accuracy-bound-approx",
        title="NumericSparse's failure probability is at most beta (delta > 0)",
        source=DWORK_ROTH.at("Theorem 3.28 (case delta > 0), its proof", seed="001"),
        statement=_bound_statement(
            "eps1 = sqrt(512) eps/(sqrt(512)+1), eps2 = 2 eps/(sqrt(512)+1), "
            "sigma(e) = sqrt(32 c ln(2/delta))/e",
            "alpha_S = (ln k + ln(4c/beta)) sqrt(c ln(2/delta)) (sqrt(512)+1)/eps (Theorem "
            "3.26 at eps1, delta/2 and beta/2), alpha_L = 2 sqrt(2) ln(2c/beta) "
            "sqrt(c ln(2/delta)) (sqrt(512)+1)/eps",
        ),
        variables=(EPS, DELTA, BETA, C, K),
        family=FAMILY,
    )


def _bound_statement(split: str, alphas: str) -> str:
    return (
        f"NumericSparse ({split}) runs Sparse at eps1 (threshold noise Lap(sigma(eps1)), "
        "query noise Lap(2 sigma(eps1))) and answers at most c queries with Laplace noise "
        f"Lap(sigma(eps2)).  With {alphas}: at alpha = max(alpha_S, alpha_L) the Sparse part "
        "fails with probability at most beta/2 and the c answers are all within alpha except "
        "with probability c e^{-alpha/sigma(eps2)} <= beta/2; by the union bound "
        "NumericSparse is (alpha, beta)-accurate (Definition 3.10, for queries with "
        "|{i < k : f_i(D) >= T - alpha}| <= c - 1)."
    )


DERIVATIONS: tuple[Callable[[], Derivation], ...] = (
    above_threshold_accuracy,
    sparse_accuracy_pure,
    sparse_accuracy_approx,
    numeric_sparse_bound_pure,
    numeric_sparse_bound_approx,
)
