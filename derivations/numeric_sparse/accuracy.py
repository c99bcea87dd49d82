"""NumericSparse accuracy: Theorem 3.28 of Dwork & Roth 2014, section 3.6.3 (seed 001).

* ``numeric-sparse-accuracy-pure-seed`` and ``numeric-sparse-accuracy-approx-seed``: alpha as
  the seed states it, under the seed's hypothesis L(T) <= c, with a simulation oracle
  (errata: see their ``erratum`` texts).
* ``numeric-sparse-accuracy-pure`` and ``numeric-sparse-accuracy-approx``: corrected.

The stated alpha is written once, in SymPy, and compiled for the numbers the command line
and the tables need (:func:`alpha_seed`, :func:`alpha_laplace_part`,
:func:`alpha_corrected`); the simulation oracle (:mod:`numeric_checks.dp.sparse`) receives
alpha as a value.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import sympy as sp

from derivations.display import frac, product
from derivations.numeric_sparse.variables import ALPHA, BETA, DELTA, EPS, FAMILY, KQ, R512, C
from derivations.sources import DWORK_ROTH
from derivations.stated import stated
from numeric_checks.dp.sparse import SparseParams, assess
from numeric_checks.validate import check_probability
from symbolic.derivation import Derivation, Oracle, OracleOutcome
from symbolic.kit import Chain, by, chain


def _alpha_seed_pure(es: sp.Expr, bs: sp.Expr, cs: sp.Expr, ks: sp.Expr) -> sp.Expr:
    """alpha for delta = 0 as the seed states it: the Sparse part of the proof."""
    return 9 * cs * (sp.log(ks) + sp.log(4 * cs / bs)) / es


def _laplace_part_pure(es: sp.Expr, bs: sp.Expr, cs: sp.Expr, ks: sp.Expr) -> sp.Expr:
    """sigma(eps2) ln(2c/beta), eps2 = 2 eps/9: c answers all within it except w.p. beta/2."""
    return 9 * cs * sp.log(2 * cs / bs) / es


def _root(es: sp.Expr, ds: sp.Expr, cs: sp.Expr) -> sp.Expr:
    return sp.sqrt(cs * sp.log(2 / ds)) * (R512 + 1) / es


def _alpha_seed_approx(es: sp.Expr, ds: sp.Expr, bs: sp.Expr, cs: sp.Expr, ks: sp.Expr) -> sp.Expr:
    """alpha for delta > 0 as the seed states it: the Sparse part of the proof."""
    return (sp.log(ks) + sp.log(4 * cs / bs)) * sp.sqrt(cs * sp.log(2 / ds)) * (R512 + 1) / es


def _laplace_part_approx(
    es: sp.Expr, ds: sp.Expr, bs: sp.Expr, cs: sp.Expr, ks: sp.Expr
) -> sp.Expr:
    """sigma(eps2) ln(2c/beta), eps2 = 2 eps/(sqrt(512)+1), simplified."""
    return 2 * sp.sqrt(2) * sp.log(2 * cs / bs) * _root(es, ds, cs)


def _alpha_corrected_approx(
    es: sp.Expr, ds: sp.Expr, bs: sp.Expr, cs: sp.Expr, ks: sp.Expr
) -> sp.Expr:
    return (sp.log(ks) + sp.log(4 * cs / bs)) * sp.sqrt(8 * cs * sp.log(2 / ds)) * (R512 + 1) / es


# -- the stated alpha as numbers -----------------------------------------------------------

_PURE = (EPS.symbol, BETA.symbol, C.symbol, KQ.symbol)
_APPROX = (EPS.symbol, DELTA.symbol, BETA.symbol, C.symbol, KQ.symbol)
_SEED = (stated(_PURE, _alpha_seed_pure(*_PURE)), stated(_APPROX, _alpha_seed_approx(*_APPROX)))
_LAPLACE = (
    stated(_PURE, _laplace_part_pure(*_PURE)),
    stated(_APPROX, _laplace_part_approx(*_APPROX)),
)


def _at(formulas: tuple[Callable[..., Any], Callable[..., Any]], p: SparseParams, beta: Any) -> Any:
    b = check_probability("beta", beta, open_ends="both")
    if p.delta == 0:
        return formulas[0](p.eps, b, p.c, p.k)
    return formulas[1](p.eps, p.delta, b, p.c, p.k)


def alpha_seed(p: SparseParams, beta: Any) -> Any:
    """alpha of Theorem 3.28 as the seed states it, at the current precision."""
    return _at(_SEED, p, beta)


def alpha_laplace_part(p: SparseParams, beta: Any) -> Any:
    """The alpha at which c Laplace answers are all within alpha except with probability
    beta/2 (union bound): sigma(eps2) ln(2c/beta)."""
    return _at(_LAPLACE, p, beta)


def alpha_corrected(p: SparseParams, beta: Any) -> Any:
    """max(Sparse part, Laplace part): the alpha the seed's own proof supports."""
    return max(alpha_seed(p, beta), alpha_laplace_part(p, beta))


def _accuracy_oracle(hypothesis: str) -> Callable[[Mapping[str, Any]], OracleOutcome]:
    def check(values: Mapping[str, Any]) -> OracleOutcome:
        p = SparseParams.make(
            values["eps"], values.get("delta", 0), int(values["c"]), int(values["k"])
        )
        results = assess(p, values["alpha"], values["beta"], hypothesis)
        for a in results:
            if a.holds is False:
                return OracleOutcome(False, a.detail, {"stream": a.stream.name})
        undecided = [a.detail for a in results if a.holds is None]
        if undecided:
            return OracleOutcome(None, "; ".join(undecided))
        worst = max(results, key=lambda a: a.score)
        return OracleOutcome(True, worst.detail, closeness=worst.score)

    return check


_ORACLE_TEXT = {
    "seed": (
        "NumericSparse simulated (vectorised, seeded; exact failure probability for k <= 3) "
        "on streams with L(T) = |{i : f_i(D) >= T - alpha}| <= c, adversarial and random; "
        "failure = halting before f_k, an answer off by more than alpha, or bottom on a "
        "query above T + alpha (Def 3.10).  Refuted if the rate's lower bound at confidence "
        "1 - 2e-6 exceeds beta; agrees if its 99.9% upper bound is at most beta"
    ),
    "last": (
        "NumericSparse simulated (vectorised, seeded; exact failure probability for k <= 3) "
        "on streams with at most c - 1 of f_1..f_{k-1} at or above T - alpha, adversarial "
        "and random; failure as in Def 3.10.  Refuted if the rate's lower bound at "
        "confidence 1 - 2e-6 exceeds beta; agrees if its 99.9% upper bound is at most beta"
    ),
}

_HALTING = (
    "Def 3.10 counts halting before f_k as a failure, and NumericSparse halts after its c-th "
    "answer; a stream satisfying L(T) <= c with its c queries above T first and any query "
    "after them (k > c) halts early with probability ~1.  The hypothesis must keep the c-th "
    "query near the threshold last: |{i < k : f_i(D) >= T - alpha}| <= c - 1 (for c = 1 "
    "this is the hypothesis of AboveThreshold's Theorem 3.24)."
)


def _oracle(hypothesis: str) -> Oracle:
    return Oracle(
        f"numeric-sparse-simulation-{hypothesis}",
        _ORACLE_TEXT[hypothesis],
        _accuracy_oracle(hypothesis),
        points=10,
    )


def _statement(alpha_text: str, hypothesis: str) -> str:
    hyp = (
        "L(T) = |{i : f_i(D) >= T - alpha}| <= c"
        if hypothesis == "seed"
        else "|{i < k : f_i(D) >= T - alpha}| <= c - 1"
    )
    return (
        f"For any k queries of sensitivity 1 with {hyp}, NumericSparse is (alpha, beta)-"
        f"accurate with respect to T (Def 3.10) for {alpha_text}.  Proof: Sparse accuracy "
        "(Theorem 3.26) at eps1 with failure beta/2 gives alpha_S; the at most c Laplace "
        "answers of scale sigma(eps2) are all within alpha_L = sigma(eps2) ln(2c/beta) except "
        "with probability c e^{-alpha_L/sigma(eps2)} = beta/2 (union bound); alpha = "
        "max(alpha_S, alpha_L) suffices."
    )


_PURE_ALPHA = "alpha = 9c(ln k + ln(4c/beta))/eps"
_SEED_APPROX_ALPHA = "alpha = (ln k + ln(4c/beta)) sqrt(c ln(2/delta)) (sqrt(512)+1)/eps"
_APPROX_ALPHA = "alpha = (ln k + ln(4c/beta)) sqrt(8 c ln(2/delta)) (sqrt(512)+1)/eps"


def _pure_proof() -> Chain:
    """delta = 0: the larger of the Sparse and the Laplace parts, simplified, is alpha."""
    es, bs, cs, ks = _PURE
    eps1, eps2 = 8 * es / 9, 2 * es / 9
    alpha_s = frac(product(8 * cs, sp.log(ks) + sp.log(frac(2 * cs, bs / 2))), eps1)
    alpha_l = product(frac(2 * cs, eps2), sp.log(frac(cs, bs / 2)))
    return (
        chain(sp.Max(alpha_s, alpha_l, evaluate=False))
        .eq(
            sp.Max(_alpha_seed_pure(*_PURE), _laplace_part_pure(*_PURE), evaluate=False),
            by.lemma(
                "numeric-sparse-accuracy-bound-pure",
                "Sparse accuracy (Theorem 3.26, sparse-accuracy-pure) at eps1 = 8 eps/9 and "
                "failure beta/2; Laplace answers of scale sigma(eps2) = 2c/eps2, eps2 = "
                "2 eps/9, with failure beta/2 split over c answers: at the larger alpha "
                "NumericSparse fails with probability at most beta",
            ),
        )
        .le(
            ALPHA,
            by.algebra("the Sparse part dominates: ln k >= 0 and ln(2c/beta) < ln(4c/beta)"),
        )
    )


def _pure(alpha: sp.Expr) -> dict[str, Any]:
    """What the delta = 0 derivations share: variables, hypothesis c <= k, the stated alpha."""
    return {
        "source": DWORK_ROTH.at("Theorem 3.28 (case delta = 0)", seed="001"),
        "variables": (EPS, BETA, C, KQ),
        "hypotheses": (sp.LessThan(C.symbol, KQ.symbol),),
        "defs": ((ALPHA, alpha),),
        "family": FAMILY,
    }


def accuracy_pure_seed() -> Derivation:
    """delta = 0, under the seed's hypothesis L(T) <= c: an erratum."""
    return _pure_proof().derive(
        id="numeric-sparse-accuracy-pure-seed",
        title="NumericSparse accuracy, delta = 0 (as the seed states it)",
        statement=_statement(_PURE_ALPHA, "seed"),
        oracle=_oracle("seed"),
        erratum="The alpha algebra is right, but the theorem is false as stated.  " + _HALTING,
        **_pure(_alpha_seed_pure(*_PURE)),
    )


def accuracy_pure() -> Derivation:
    """delta = 0, with the hypothesis corrected (the c-th query near the threshold last)."""
    return _pure_proof().derive(
        id="numeric-sparse-accuracy-pure",
        title="NumericSparse accuracy, delta = 0 (hypothesis corrected)",
        statement=_statement(_PURE_ALPHA, "last"),
        oracle=_oracle("last"),
        **_pure(_alpha_seed_pure(*_PURE)),
    )


def _approx_parts() -> Chain:
    """delta > 0: the larger of the Sparse and the Laplace parts, simplified."""
    es, ds, bs, cs, ks = _APPROX
    eps1, eps2 = frac(product(R512, es), R512 + 1), frac(2 * es, R512 + 1)
    log_k_c = sp.log(ks) + sp.log(frac(2 * cs, bs / 2))
    alpha_s = frac(product(log_k_c, sp.sqrt(512 * cs * sp.log(1 / (ds / 2)))), eps1)
    sigma2 = frac(sp.sqrt(32 * cs * sp.log(2 / ds)), eps2)
    alpha_l = product(sigma2, sp.log(frac(cs, bs / 2)))
    return chain(sp.Max(alpha_s, alpha_l, evaluate=False)).eq(
        sp.Max(
            (sp.log(ks) + sp.log(4 * cs / bs)) * _root(es, ds, cs),
            _laplace_part_approx(*_APPROX),
            evaluate=False,
        ),
        by.lemma(
            "numeric-sparse-accuracy-bound-approx",
            "Sparse accuracy (Theorem 3.26, sparse-accuracy-approx) at eps1 = sqrt(512) "
            "eps/(sqrt(512)+1), delta/2 and failure beta/2; Laplace answers of scale "
            "sigma(eps2) = sqrt(32 c ln(2/delta))/eps2, eps2 = 2 eps/(sqrt(512)+1), failure "
            "beta/2 split over c answers: at the larger alpha NumericSparse fails with "
            "probability at most beta",
        ),
    )


def _approx(alpha: sp.Expr) -> dict[str, Any]:
    """What the delta > 0 derivations share: variables, hypothesis c <= k, the stated alpha."""
    return {
        "source": DWORK_ROTH.at("Theorem 3.28 (case delta > 0)", seed="001"),
        "variables": (EPS, DELTA, BETA, C, KQ),
        "hypotheses": (sp.LessThan(C.symbol, KQ.symbol),),
        "defs": ((ALPHA, alpha),),
        "family": FAMILY,
    }


def accuracy_approx_seed() -> Derivation:
    """delta > 0 as the seed states it: its alpha covers the Sparse part only (an erratum)."""
    proof = _approx_parts().le(
        ALPHA,
        by.algebra("the seed: the Sparse part alone (the Laplace part is taken to be no larger)"),
    )
    return proof.derive(
        id="numeric-sparse-accuracy-approx-seed",
        title="NumericSparse accuracy, delta > 0 (as the seed states it)",
        statement=_statement(_SEED_APPROX_ALPHA, "seed"),
        oracle=_oracle("seed"),
        erratum=(
            "The seed's alpha covers only the Sparse part: the Laplace answers have scale "
            "sigma(eps2) = sqrt(32 c ln(2/delta)) (sqrt(512)+1)/(2 eps), and alpha_L = "
            "sigma(eps2) ln(2c/beta) = 2 sqrt(2) sqrt(c ln(2/delta)) (sqrt(512)+1) "
            "ln(2c/beta)/eps exceeds the stated alpha unless ln(2k) >= (2 sqrt(2) - 1) "
            "ln(2c/beta); then the numeric answers are off by more than alpha far more often "
            "than beta/2 (k = c = 1, beta = 0.05: probability 0.21 per answer).  Also: " + _HALTING
        ),
        **_approx(_alpha_seed_approx(*_APPROX)),
    )


def accuracy_approx() -> Derivation:
    """delta > 0 with alpha and the hypothesis corrected."""
    proof = _approx_parts().le(
        ALPHA,
        by.algebra(
            "both parts are at most 2 sqrt(2) (ln k + ln(4c/beta)) sqrt(c ln(2/delta)) "
            "(sqrt(512)+1)/eps: ln k >= 0, ln(2c/beta) < ln(4c/beta), 1 < 2 sqrt(2)"
        ),
    )
    return proof.derive(
        id="numeric-sparse-accuracy-approx",
        # Step 2 is certified (as two conjuncts, through the signs of their factors) on
        # this box: the whole range of c and k, eps over 18 decades, delta and beta from
        # 1e-100 to 1 - 1e-6.
        certify_box={
            "eps": ("1e-9", "1e9"),
            "delta": ("1e-100", "0.999999"),
            "beta": ("1e-100", "0.999999"),
            "c": ("1", "50"),
            "k": ("1", "1000"),
        },
        title="NumericSparse accuracy, delta > 0 (alpha and hypothesis corrected)",
        statement=_statement(_APPROX_ALPHA, "last"),
        oracle=_oracle("last"),
        **_approx(_alpha_corrected_approx(*_APPROX)),
    )


DERIVATIONS = (accuracy_pure_seed, accuracy_pure, accuracy_approx_seed, accuracy_approx)
