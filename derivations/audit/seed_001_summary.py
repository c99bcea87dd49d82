"""Seed 001, closing discussion ('我们到底显示了什么?'): what Theorem 3.28 shows, compared with
answering known queries by the Laplace mechanism and with the exponential mechanism."""

from __future__ import annotations

from derivations.audit import seed_001_algebra as alg
from derivations.audit import seed_001_exact as exact
from derivations.audit.seed_001_text import entry
from symbolic.audit import AuditVerdict, Erratum, ErratumKind, Method, Outcome

__all__ = ["ENTRIES"]

V, M = AuditVerdict, Method


def _corrected_guarantee() -> Outcome:
    return exact.accuracy_corrected_hypothesis(0)


ENTRIES = (
    entry(
        "summary-guarantee",
        quote=(
            "我们到底显示了什么?如果给我们一系列查询,并保证只有最多 c 个答案的答案高于 T+α,"
            "我们就可以回答高于给定阈值 T 的那些查询,直至误差 α"
        ),
        claim=(
            "Given queries of which at most c have answers above T + alpha, NumericSparse "
            "answers those above T to within alpha (the meaning of Theorem 3.28)."
        ),
        method=M.EXACT,
        verdict=V.REFUTED,
        detail=(
            "Exact failure probability of Definition 3.10 (numeric_checks.dp.sparse."
            "exact_failure, 30 digits) on c = 1, k = 2, stream (T, T + 2 alpha): 0.503 "
            "(delta = 0) and 0.583 (delta = 0.1) against beta = 0.05.  The query at T is not "
            "above T + alpha, so the guarantee holds, but it is answered about half the time "
            "and the algorithm halts before the one query that is above T + alpha."
        ),
        check=exact.summary_as_written,
        erratum=Erratum(
            id="seed-001-summary-above-t-plus-alpha",
            kind=ErratumKind.FALSE,
            wrong="保证只有最多 c 个答案的答案高于 T+α (a bound on the queries above T + α)",
            counterexample=(
                "eps = 1, beta = 0.05, c = 1, k = 2, f_1(D) = T, f_2(D) = T + 2 alpha "
                "(alpha = 45.68): at most c = 1 answer above T + alpha, yet the algorithm "
                "fails (halts after answering f_1, never answers f_2) with probability "
                "0.503 > beta; delta = 0.1 (alpha = 207.5): 0.583."
            ),
            correction=(
                "The guarantee must count the queries at or above T − α, as L(T) in "
                "Theorem 3.28, and (Definition 3.10 counts halting) at most c − 1 of them "
                "before f_k: then the exact failure probabilities are below beta."
            ),
            corrected="numeric-sparse-accuracy-pure",
            check_correction=_corrected_guarantee,
        ),
        readings=(
            "Literal: 'above T + alpha'.  Theorem 3.28's hypothesis counts queries at or "
            "above T - alpha; with that wording the sentence restates the theorem and "
            "inherits its halting erratum (seed-001-thm-3-28-pure)."
        ),
    ),
    entry(
        "summary-laplace-baseline",
        quote=(
            "如果我们事先知道进行这些高于阈值查询的身份,并使用拉普拉斯机制进行回答,那么在给定"
            "相同的隐私保证的情况下,此精度等于(等于常数和log k …)"
        ),
        claim=(
            "This alpha equals, up to constants and a log k factor, the accuracy of answering "
            "the c large queries, known in advance, with the Laplace mechanism under the same "
            "privacy."
        ),
        method=M.SYMBOLIC,
        verdict=V.PROVED,
        detail=(
            "delta = 0, beta <= 1/2: the Laplace baseline (scale c/eps on each of the c known "
            "queries, union bound) has alpha_L = c ln(c/beta)/eps, and alpha <= (27 + 9 log2 "
            "k) alpha_L (SymPy, sign-carrying symbols).  At finite sizes the ratio is 20 to "
            "35 (k = 10..10^6, c = 1..100): the 'constants' are about 9 times (3 + log2 k) "
            "at worst, 20 or more in practice."
        ),
        check=alg.laplace_baseline_ratio,
        readings=(
            "Read for delta = 0 with the pure baseline above and beta <= 1/2; as beta -> 1 "
            "with c = 1 the baseline's ln(c/beta) -> 0 and no constant works.  For delta > 0 "
            "the seed does not say how the baseline is calibrated; not checked."
        ),
    ),
    entry(
        "summary-logarithmic",
        quote=(
            "稀疏向量技术允许我们几乎“免费”地辨别这些大型查询的身份,只为这些不相关的查询进行"
            "对数精度的响应"
        ),
        claim=(
            "Identifying the large queries is almost free: the price of the irrelevant "
            "queries is only logarithmic in their number."
        ),
        method=M.SYMBOLIC,
        verdict=V.PROVED,
        detail=(
            "SymPy: k d(alpha)/dk = 9c/eps (delta = 0) and (sqrt(512)+1) sqrt(c ln(2/delta))"
            "/eps (delta > 0), free of k: alpha = A + B ln k, so k queries cost an additive "
            "B ln k."
        ),
        check=alg.logarithmic_in_k,
        readings=(
            "'对数精度的响应' (answers of logarithmic accuracy) garbles 'paying only "
            "logarithmically'; read as: alpha grows like ln k in the number k of queries."
        ),
    ),
    entry(
        "summary-exponential-mechanism",
        quote=(
            "这种算法与另一种形式(通过指数机制找到造成隐私损失大的查询,然后通过拉普拉斯机制响应"
            "这些查询)提供相同的保证"
        ),
        claim=(
            "The same guarantee could be had by finding the large queries with the "
            "exponential mechanism and answering them with the Laplace mechanism."
        ),
        method=M.NONE,
        verdict=V.NOT_CHECKABLE,
        detail=(
            "Too vague to check: the alternative algorithm's budget split, utility and the "
            "guarantee it is to match are not given ('相同的保证' up to what constants?).  "
            "Also, '造成隐私损失大的查询' (queries that cause a large privacy loss) is not "
            "what the exponential mechanism would select: every sensitivity-1 query costs the "
            "same under Laplace noise; the selection is of queries with large answers f_i(D) "
            "(a mistranslation of 'large queries')."
        ),
    ),
    entry(
        "summary-simple-adaptive",
        quote="这个稀疏向量算法运行起来很简单,而且最关键的是,它允许我们自适应地选择查询",
        claim="The algorithm is simple to run and allows the queries to be chosen adaptively.",
        method=M.NONE,
        verdict=V.NOT_CHECKABLE,
        detail=(
            "'Simple to run' is not a mathematical statement.  Adaptivity is a property of "
            "the privacy proof (an adaptive composition, the Theorem 3.27 entries); the seed "
            "states no separate claim to check."
        ),
    ),
)
