"""NumericSparse: privacy (Theorem 3.27) and accuracy (Theorem 3.28) of Dwork & Roth 2014,
section 3.6.3 (seed 001).

NumericSparse(D, {f_i}, T, c, eps, delta) answers sensitivity-1 queries above a noisy
threshold with a Laplace-noised value (the algorithm and its constants are in
:mod:`numeric_checks.dp.sparse`).  Its proofs split the budget between the Sparse algorithm
(Theorems 3.25 and 3.26, cited) and the Laplace answers.

* ``numeric-sparse-privacy-pure``: delta = 0, the split 8 eps/9 + eps/9 = eps.
* ``numeric-sparse-privacy-approx-seed``: delta > 0 as the seed writes it, the Laplace part
  with eps' = eps/sqrt(512): the parts add to more than eps (erratum).
* ``numeric-sparse-privacy-approx``: delta > 0 with the Laplace part the algorithm actually
  has (c answers of scale sigma(eps2), advanced composition with delta/2).
* ``numeric-sparse-accuracy-pure-seed`` and ``numeric-sparse-accuracy-approx-seed``: alpha as
  the seed states it, under the seed's hypothesis L(T) <= c, with a simulation oracle
  (errata: see their ``erratum`` texts).
* ``numeric-sparse-accuracy-pure`` and ``numeric-sparse-accuracy-approx``: corrected.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import sympy as sp

from derivations.display import frac, product
from numeric_checks.dp.sparse import SparseParams, assess
from symbolic.derivation import (
    Claim,
    Derivation,
    Justification,
    JustificationKind,
    Oracle,
    OracleOutcome,
    Source,
    Step,
)
from symbolic.domains import Variable, parse_domain
from symbolic.relations import Relation

K = JustificationKind
DR = "Dwork & Roth 2014, The Algorithmic Foundations of Differential Privacy"
FAMILY = "Dwork & Roth, section 3.6: the sparse vector technique"
R512 = sp.sqrt(512)

EPS = Variable("eps", parse_domain("(0, oo)"), "privacy parameter epsilon", r"\varepsilon")
EPS_SMALL = Variable(
    "eps", parse_domain("(0, 1]"), "privacy parameter epsilon (at most 1)", r"\varepsilon"
)
DELTA = Variable("delta", parse_domain("(0, 1)"), "privacy parameter delta", r"\delta")
BETA = Variable("beta", parse_domain("(0, 1)"), "failure probability of accuracy", r"\beta")
C = Variable("c", parse_domain("Z in [1, 50]"), "number of answers before halting", "c")
C_WIDE = Variable("c", parse_domain("Z in [1, 10000]"), "number of numeric answers", "c")
KQ = Variable("k", parse_domain("Z in [1, 1000]"), "number of queries", "k")
ALPHA = sp.Symbol("alpha", positive=True)


# -- privacy -------------------------------------------------------------------------------


def privacy_pure() -> Derivation:
    es, cs = EPS.symbol, C_WIDE.symbol
    eps2 = 2 * es / 9
    sigma2 = frac(2 * cs, eps2)
    return Derivation(
        id="numeric-sparse-privacy-pure",
        title="NumericSparse is eps-DP (delta = 0): the budget split",
        source=Source(DR, "Theorem 3.27 (case delta = 0)", seed="001"),
        statement=(
            "For delta = 0, NumericSparse is the adaptive composition of "
            "Sparse(D, {f_i}, T, c, 8 eps/9, 0) (eps1 = 8 eps/9, private by Theorem 3.25) and "
            "at most c answers f_i(D) + Lap(sigma(eps2)), sigma(e) = 2c/e, eps2 = 2 eps/9, "
            "each (1/sigma(eps2))-DP for a sensitivity-1 query (Theorem 3.6).  By basic "
            "composition (Theorem 3.16) the total is 8 eps/9 + c/sigma(eps2) = eps."
        ),
        variables=(EPS, C_WIDE),
        claim=Claim(sp.Add(8 * es / 9, frac(cs, sigma2), evaluate=False), Relation.EQ, es),
        steps=(
            Step(
                Relation.EQ,
                sp.Add(8 * es / 9, product(cs, frac(eps2, 2 * cs)), evaluate=False),
                Justification("1/sigma(eps2) = eps2/(2c)", K.ALGEBRA),
            ),
            Step(
                Relation.EQ,
                sp.Add(8 * es / 9, es / 9, evaluate=False),
                Justification("c (2 eps/9)/(2c) = eps/9: the seed's Laplace part", K.ALGEBRA),
            ),
            Step(Relation.EQ, es, Justification("8/9 + 1/9 = 1", K.ALGEBRA)),
        ),
        family=FAMILY,
    )


def privacy_approx_seed() -> Derivation:
    es = EPS.symbol
    sparse_part = frac(product(R512, es), R512 + 1)
    return Derivation(
        id="numeric-sparse-privacy-approx-seed",
        title="NumericSparse (delta > 0): the budget split as the seed writes it",
        source=Source(DR, "Theorem 3.27 (case delta > 0), proof as in the seed", seed="001"),
        statement=(
            "For delta > 0 the seed writes NumericSparse as Sparse(D, {f_i}, T, c, "
            "sqrt(512)/(sqrt(512)+1) eps, delta/2) composed with the Laplace mechanism with "
            "(eps', delta) = (eps/sqrt(512), delta/2), and concludes (eps, delta)-DP by "
            "composition: sqrt(512) eps/(sqrt(512)+1) + eps/sqrt(512) <= eps."
        ),
        variables=(EPS,),
        claim=Claim(sp.Add(sparse_part, frac(es, R512), evaluate=False), Relation.LE, es),
        steps=(
            Step(
                Relation.EQ,
                frac(product(es, 512 + R512 + 1), 512 + R512),
                Justification("common denominator sqrt(512)(sqrt(512) + 1)", K.ALGEBRA),
            ),
            Step(
                Relation.LE,
                es,
                Justification("basic composition of the two parts (Theorem 3.16)", K.LEMMA),
            ),
        ),
        erratum=(
            "Seed 001 gives the Laplace part of NumericSparse (delta > 0) privacy "
            "eps' = eps/sqrt(512); with the Sparse part's sqrt(512) eps/(sqrt(512)+1) the two "
            "add to eps (1 + 1/(512 + sqrt(512))) > eps, so composition does not give eps.  "
            "The algorithm's eps2 = 2 eps/(sqrt(512)+1) makes the Laplace part "
            "(eps/(sqrt(512)+1), delta/2): numeric-sparse-privacy-approx."
        ),
        family=FAMILY,
    )


def privacy_approx() -> Derivation:
    es, ds, cs = EPS_SMALL.symbol, DELTA.symbol, C_WIDE.symbol
    log2d = sp.log(2 / ds)
    eps0 = sp.Symbol("eps_0", positive=True)
    eps2 = 2 * es / (R512 + 1)
    sparse_part = frac(product(R512, es), R512 + 1)
    half = frac(es, 2 * (R512 + 1))
    lhs = sp.Add(
        sparse_part,
        product(sp.sqrt(2 * cs * log2d), eps0),
        product(cs, eps0, sp.exp(eps0) - 1),
        evaluate=False,
    )
    return Derivation(
        id="numeric-sparse-privacy-approx",
        title="NumericSparse is (eps, delta)-DP (delta > 0, eps <= 1): the budget split",
        source=Source(
            DR,
            "Theorem 3.27 (case delta > 0), with the Laplace part of the algorithm as "
            "given in the book (eps2 = 2 eps/(sqrt(512)+1))",
            seed="001",
        ),
        statement=(
            "For 0 < delta < 1 and eps <= 1: Sparse(D, {f_i}, T, c, sqrt(512) eps/(sqrt(512)+1), "
            "delta/2) is private by Theorem 3.25; the at most c answers f_i(D) + "
            "Lap(sigma(eps2)), sigma(e) = sqrt(32 c ln(2/delta))/e, are each eps_0-DP with "
            "eps_0 = 1/sigma(eps2), so by advanced composition (Theorem 3.20, delta' = "
            "delta/2) they are (sqrt(2 c ln(2/delta)) eps_0 + c eps_0 (e^eps_0 - 1), "
            "delta/2)-DP.  Basic composition of the two parts gives (eps, delta)."
        ),
        variables=(EPS_SMALL, DELTA, C_WIDE),
        defs=((eps0, eps2 / sp.sqrt(32 * cs * log2d)),),
        claim=Claim(lhs, Relation.LE, es),
        steps=(
            Step(
                Relation.EQ,
                sp.Add(sparse_part, half, product(cs, eps0, sp.exp(eps0) - 1), evaluate=False),
                Justification(
                    "sqrt(2 c L) eps2/sqrt(32 c L) = eps2/4 = eps/(2(sqrt(512)+1))", K.ALGEBRA
                ),
            ),
            Step(
                Relation.LE,
                sp.Add(sparse_part, half, half, evaluate=False),
                Justification(
                    "c eps_0 (e^eps_0 - 1) <= c eps_0^2 e^eps_0 = eps2^2 e^eps_0/(32 ln(2/delta)) "
                    "<= eps2/4, since eps2 <= 0.085 for eps <= 1 and ln(2/delta) > ln 2",
                    K.ALGEBRA,
                ),
            ),
            Step(
                Relation.EQ, es, Justification("sqrt(512) + 1/2 + 1/2 = sqrt(512) + 1", K.ALGEBRA)
            ),
        ),
        family=FAMILY,
    )


# -- accuracy ------------------------------------------------------------------------------


def _alpha_seed_pure(es: sp.Expr, bs: sp.Expr, cs: sp.Expr, ks: sp.Expr) -> sp.Expr:
    return 9 * cs * (sp.log(ks) + sp.log(4 * cs / bs)) / es


def _alpha_seed_approx(es: sp.Expr, ds: sp.Expr, bs: sp.Expr, cs: sp.Expr, ks: sp.Expr) -> sp.Expr:
    return (sp.log(ks) + sp.log(4 * cs / bs)) * sp.sqrt(cs * sp.log(2 / ds)) * (R512 + 1) / es


def _alpha_corrected_approx(
    es: sp.Expr, ds: sp.Expr, bs: sp.Expr, cs: sp.Expr, ks: sp.Expr
) -> sp.Expr:
    return (sp.log(ks) + sp.log(4 * cs / bs)) * sp.sqrt(8 * cs * sp.log(2 / ds)) * (R512 + 1) / es


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


def accuracy_pure(
    hypothesis: str = "last", alpha_formula: sp.Expr | None = None, id_suffix: str = ""
) -> Derivation:
    """delta = 0.  ``alpha_formula`` replaces the stated alpha (for mutation tests)."""
    es, bs, cs, ks = EPS.symbol, BETA.symbol, C.symbol, KQ.symbol
    alpha = alpha_formula if alpha_formula is not None else _alpha_seed_pure(es, bs, cs, ks)
    eps1, eps2 = 8 * es / 9, 2 * es / 9
    half_beta = bs / 2
    alpha_s = frac(product(8 * cs, sp.log(ks) + sp.log(frac(2 * cs, half_beta))), eps1)
    alpha_l = product(frac(2 * cs, eps2), sp.log(frac(cs, half_beta)))
    simplified = sp.Max(
        9 * cs * (sp.log(ks) + sp.log(4 * cs / bs)) / es,
        9 * cs * sp.log(2 * cs / bs) / es,
        evaluate=False,
    )
    seed = hypothesis == "seed"
    return Derivation(
        id=("numeric-sparse-accuracy-pure-seed" if seed else "numeric-sparse-accuracy-pure")
        + id_suffix,
        title="NumericSparse accuracy, delta = 0"
        + (" (as the seed states it)" if seed else " (hypothesis corrected)"),
        source=Source(DR, "Theorem 3.28 (case delta = 0)", seed="001"),
        statement=_statement("alpha = 9c(ln k + ln(4c/beta))/eps", hypothesis),
        variables=(EPS, BETA, C, KQ),
        hypotheses=(sp.LessThan(cs, ks),),
        defs=((ALPHA, alpha),),
        claim=Claim(sp.Max(alpha_s, alpha_l, evaluate=False), Relation.LE, ALPHA),
        steps=(
            Step(
                Relation.EQ,
                simplified,
                Justification(
                    "Sparse accuracy (Theorem 3.26) at eps1 = 8 eps/9 and failure beta/2; "
                    "Laplace answers of scale sigma(eps2) = 2c/eps2, eps2 = 2 eps/9, with "
                    "failure beta/2 split over c answers",
                    K.LEMMA,
                    lemma="Dwork & Roth Theorem 3.26",
                ),
            ),
            Step(
                Relation.LE,
                ALPHA,
                Justification(
                    "the Sparse part dominates: ln k >= 0 and ln(2c/beta) < ln(4c/beta)",
                    K.ALGEBRA,
                ),
            ),
        ),
        oracle=_oracle(hypothesis),
        erratum=(
            "The alpha algebra is right, but the theorem is false as stated.  " + _HALTING
            if seed
            else None
        ),
        family=FAMILY,
    )


def accuracy_approx(
    hypothesis: str = "last", alpha_formula: sp.Expr | None = None, id_suffix: str = ""
) -> Derivation:
    """delta > 0.  The seed's alpha with ``hypothesis="seed"``, the corrected one otherwise;
    ``alpha_formula`` replaces either (for mutation tests)."""
    es, ds, bs, cs, ks = EPS.symbol, DELTA.symbol, BETA.symbol, C.symbol, KQ.symbol
    seed = hypothesis == "seed"
    stated = (_alpha_seed_approx if seed else _alpha_corrected_approx)(es, ds, bs, cs, ks)
    alpha = alpha_formula if alpha_formula is not None else stated
    eps1 = frac(product(R512, es), R512 + 1)
    eps2 = frac(2 * es, R512 + 1)
    half_beta = bs / 2
    alpha_s = frac(
        product(
            sp.log(ks) + sp.log(frac(2 * cs, half_beta)),
            sp.sqrt(512 * cs * sp.log(1 / (ds / 2))),
        ),
        eps1,
    )
    sigma2 = frac(sp.sqrt(32 * cs * sp.log(2 / ds)), eps2)
    alpha_l = product(sigma2, sp.log(frac(cs, half_beta)))
    root = sp.sqrt(cs * sp.log(2 / ds)) * (R512 + 1) / es
    simplified = sp.Max(
        (sp.log(ks) + sp.log(4 * cs / bs)) * root,
        2 * sp.sqrt(2) * sp.log(2 * cs / bs) * root,
        evaluate=False,
    )
    last_step = (
        Justification(
            "the seed: the Sparse part alone (the Laplace part is taken to be no larger)",
            K.ALGEBRA,
        )
        if seed
        else Justification(
            "both parts are at most 2 sqrt(2) (ln k + ln(4c/beta)) sqrt(c ln(2/delta)) "
            "(sqrt(512)+1)/eps: ln k >= 0, ln(2c/beta) < ln(4c/beta), 1 < 2 sqrt(2)",
            K.ALGEBRA,
        )
    )
    alpha_text = (
        "alpha = (ln k + ln(4c/beta)) sqrt(c ln(2/delta)) (sqrt(512)+1)/eps"
        if seed
        else "alpha = (ln k + ln(4c/beta)) sqrt(8 c ln(2/delta)) (sqrt(512)+1)/eps"
    )
    return Derivation(
        id=("numeric-sparse-accuracy-approx-seed" if seed else "numeric-sparse-accuracy-approx")
        + id_suffix,
        title="NumericSparse accuracy, delta > 0"
        + (" (as the seed states it)" if seed else " (alpha and hypothesis corrected)"),
        source=Source(DR, "Theorem 3.28 (case delta > 0)", seed="001"),
        statement=_statement(alpha_text, hypothesis),
        variables=(EPS, DELTA, BETA, C, KQ),
        hypotheses=(sp.LessThan(cs, ks),),
        defs=((ALPHA, alpha),),
        claim=Claim(sp.Max(alpha_s, alpha_l, evaluate=False), Relation.LE, ALPHA),
        steps=(
            Step(
                Relation.EQ,
                simplified,
                Justification(
                    "Sparse accuracy (Theorem 3.26) at eps1 = sqrt(512) eps/(sqrt(512)+1), "
                    "delta/2 and failure beta/2; Laplace answers of scale sigma(eps2) = "
                    "sqrt(32 c ln(2/delta))/eps2, eps2 = 2 eps/(sqrt(512)+1), failure beta/2 "
                    "split over c answers",
                    K.LEMMA,
                    lemma="Dwork & Roth Theorem 3.26",
                ),
            ),
            Step(Relation.LE, ALPHA, last_step),
        ),
        oracle=_oracle(hypothesis),
        erratum=(
            "The seed's alpha covers only the Sparse part: the Laplace answers have scale "
            "sigma(eps2) = sqrt(32 c ln(2/delta)) (sqrt(512)+1)/(2 eps), and alpha_L = "
            "sigma(eps2) ln(2c/beta) = 2 sqrt(2) sqrt(c ln(2/delta)) (sqrt(512)+1) "
            "ln(2c/beta)/eps exceeds the stated alpha unless ln(2k) >= (2 sqrt(2) - 1) "
            "ln(2c/beta); then the numeric answers are off by more than alpha far more often "
            "than beta/2 (k = c = 1, beta = 0.05: probability 0.21 per answer).  Also: " + _HALTING
            if seed
            else None
        ),
        family=FAMILY,
    )


DERIVATIONS = (
    privacy_pure,
    privacy_approx_seed,
    privacy_approx,
    lambda: accuracy_pure("seed"),
    accuracy_pure,
    lambda: accuracy_approx("seed"),
    accuracy_approx,
)
