"""Seed 001, first half: the introduction of NumericSparse and Theorem 3.27 (privacy) with
its proof, sentence by sentence.

The seed does not print the algorithm (Algorithm 3 of Dwork & Roth 2014); every check uses
the book's: delta = 0: eps1 = 8 eps/9, eps2 = 2 eps/9, sigma(e) = 2c/e; delta > 0:
eps1 = sqrt(512) eps/(sqrt(512)+1), eps2 = 2 eps/(sqrt(512)+1), sigma(e) =
sqrt(32 c ln(2/delta))/e; threshold noise Lap(sigma(eps1)), query noise Lap(2 sigma(eps1)),
answers f_i(D) + Lap(sigma(eps2)), halt after c answers.
"""

from __future__ import annotations

from derivations.audit import seed_001_algebra as alg
from derivations.audit import seed_001_exact as exact
from derivations.audit.seed_001_text import entry
from symbolic.audit import AuditVerdict, Erratum, ErratumKind, Method

__all__ = ["ENTRIES"]

V, M = AuditVerdict, Method

_NO_ALGORITHM = (
    "The seed never prints the algorithm (Dwork & Roth's Algorithm 3: its noise scales, "
    "budget split and halting rule), so a sentence describing it has nothing in the seed to "
    "be checked against; the later entries check the book's Algorithm 3 "
    "(numeric_checks.dp.sparse)."
)

INTRO = (
    entry(
        "intro-numeric-output",
        quote="它实际上输出了高于阈值查询的数值 … 而是输出向量 a ∈ (R ∪ {⊥})*",
        claim=(
            "NumericSparse is a version of Sparse that releases the values of the queries "
            "above the threshold: its output is a vector in (R ∪ {bottom})* instead of "
            "{top, bottom}*."
        ),
        method=M.NONE,
        verdict=V.NOT_CHECKABLE,
        detail="A description of the algorithm's output type (and its name), not a claim. "
        + _NO_ALGORITHM,
    ),
    entry(
        "intro-constant-factor",
        quote="我们只需要在精度上损失一个常数因子就可以做到这一点",
        claim=(
            "Releasing the values costs only a constant factor in accuracy: the alpha of "
            "NumericSparse (Theorem 3.28) is within a constant factor of the alpha of Sparse "
            "(Theorem 3.26) at the same eps, delta, beta, c, k."
        ),
        method=M.SYMBOLIC,
        verdict=V.PROVED,
        detail=(
            "Proved with SymPy after substituting the logarithms by sign-carrying symbols: "
            "delta = 0, alpha_NumericSparse <= (9/4) alpha_Sparse (tight as k = c = 1, "
            "beta -> 1); 0 < delta <= 1/2, alpha_NumericSparse <= 2 sqrt(2)(1 + 1/sqrt(512)) "
            "alpha_Sparse = 2.95 alpha_Sparse.  The check also tabulates the ratio as "
            "delta -> 1 (1.75 at delta = 0.5, 10.4 at 0.99, 103 at 0.9999)."
        ),
        check=alg.constant_factor_vs_sparse,
        readings=(
            "Compared: the seed's alpha of Theorem 3.28 against Sparse's alpha of the book's "
            "Theorem 3.26 (8c(ln k + ln(2c/beta))/eps; (ln k + ln(2c/beta)) sqrt(512 c "
            "ln(1/delta))/eps).  Literally over every delta in (0, 1) no constant exists: "
            "Sparse's alpha has ln(1/delta) -> 0 as delta -> 1 while NumericSparse's has "
            "ln(2/delta) -> ln 2.  That is the degenerate regime of delta near 1; the entry's "
            "verdict is for delta <= 1/2 (and delta = 0).  With the corrected alpha of "
            "Theorem 3.28 (sqrt(8) larger, seed-001-thm-3-28-approx) the constant for "
            "delta > 0 becomes 8.35."
        ),
    ),
    entry(
        "intro-composition",
        quote="它是一种简单的使用 Laplace 机制组成的 Sparse 算法",
        claim="NumericSparse is a simple composition of Sparse with the Laplace mechanism.",
        method=M.NONE,
        verdict=V.NOT_CHECKABLE,
        detail=(
            "A description of how the algorithm is built. "
            + _NO_ALGORITHM
            + "  Its precise form, with the parameters of the two parts, is the proof of "
            "Theorem 3.27: seed-001-thm-3-27-sparse-part and the entries after it."
        ),
    ),
)

_PRIVACY_APPROX_ERRATUM = Erratum(
    id="seed-001-thm-3-27-large-eps",
    kind=ErratumKind.MISSING_HYPOTHESIS,
    wrong=(
        "Theorem 3.27 for delta > 0 states (eps, delta)-DP for every eps > 0; the proof's "
        "advanced composition of the c Laplace answers gives their share of eps only when "
        "eps is small."
    ),
    counterexample=(
        "eps = 1e5, delta = 1/2, c = k = 10^4, neighbours with f_i(D) = T + 1, f_i(D') = T: "
        "each answer has scale sigma(eps2) with eps0 = 1/sigma(eps2) = 12.709; the event S "
        "'all c queries answered and the answers' log-likelihood ratio >= eps + 50' has "
        "Pr[M(D) in S] - e^eps Pr[M(D') in S] >= 1 - 1.2e-12 (Hoeffding bound 9.2e-40, "
        "Pr[some query unanswered] <= 1.2e-12): the left side is at least 1 - 1.2e-12, "
        "the right side delta = 0.5."
    ),
    correction=(
        "Add eps <= 1 (a range in which the proof's advanced composition closes): "
        "numeric-sparse-privacy-approx certifies the budget split on eps in [1e-6, 1], "
        "delta in [1e-6, 1 - 1e-6], c in [1, 10^4] and checks it numerically beyond."
    ),
    as_written=None,
    corrected="numeric-sparse-privacy-approx",
    check_correction=exact.privacy_small_eps,
)

_LAPLACE_BUDGET_ERRATUM = Erratum(
    id="seed-001-thm-3-27-laplace-budget",
    kind=ErratumKind.TYPO,
    wrong="(ε′, δ) = (1/√512 ε, δ/2) for the Laplace part (delta > 0)",
    counterexample=(
        "With the Sparse part's sqrt(512) eps/(sqrt(512)+1), basic composition gives "
        "eps (1 + 1/(512 + sqrt(512))): at eps = 1, 0.957676 + 0.044194 = 1.001870 > 1 = eps "
        "(numeric-sparse-privacy-approx-seed is refuted at that step)."
    ),
    correction=(
        "(ε′, δ) = (1/(√512+1) ε, δ/2): the algorithm's eps2 = 2 eps/(sqrt(512)+1) gives the "
        "c answers (eps2/4 + c eps0 (e^eps0 - 1), delta/2) <= (eps/(sqrt(512)+1), delta/2) "
        "for eps <= 1, and the two parts add up to (eps, delta) exactly."
    ),
    as_written="numeric-sparse-privacy-approx-seed",
    corrected="numeric-sparse-privacy-approx",
    check_correction=alg.budget_sums,
)

THEOREM_3_27 = (
    entry(
        "thm-3-27-pure",
        quote=(
            "我们发现 NumericSparse 算法是具有隐私性的: 定理 3.27 NumericSparse 算法是"
            "(ε,δ)-差分隐私的"
        ),
        claim="Theorem 3.27, delta = 0: NumericSparse is eps-differentially private.",
        method=M.DERIVATION,
        verdict=V.PROVED,
        detail=(
            "numeric-sparse-privacy-pure (proved): 8 eps/9 for Sparse (Theorem 3.25, cited) "
            "plus c answers each (eps2/(2c))-DP, c eps2/(2c) = eps/9; basic composition gives "
            "eps for every eps > 0."
        ),
        derivations=("numeric-sparse-privacy-pure",),
    ),
    entry(
        "thm-3-27-approx",
        quote="定理 3.27 NumericSparse 算法是(ε,δ)-差分隐私的",
        claim="Theorem 3.27, delta > 0: NumericSparse is (eps, delta)-differentially private.",
        method=M.EXACT,
        verdict=V.REFUTED,
        detail=(
            "False for large eps: a rigorous lower bound on the hockey-stick divergence of "
            "the output on neighbours (the c numeric answers alone: Hoeffding on their "
            "privacy loss, a union bound on the answering) exceeds delta at eps = 1e5, "
            "delta = 1/2, c = 10^4; computed with mpmath at 30 digits.  With eps <= 1 the "
            "proof's budget split is certified (numeric-sparse-privacy-approx)."
        ),
        check=exact.large_eps_privacy_violation,
        erratum=_PRIVACY_APPROX_ERRATUM,
        readings=(
            "The seed gives no range for eps, so the statement is read for every eps > 0 and "
            "0 < delta < 1, with the book's Algorithm 3 (the seed does not print it).  The "
            "counterexample needs an extreme eps; it shows a missing hypothesis, not a "
            "failure in the usual range eps <= 1."
        ),
    ),
    entry(
        "thm-3-27-sparse-part",
        quote=(
            "NumericSparse 算法 (D,{f_i},T,c,ε,δ) 是 Sparse 算法 "
            "(D,{f_i},T,c,√512/(√512+1) ε,δ/2) 的自适应组合"
        ),
        claim=(
            "NumericSparse's above/below decisions are those of Sparse(D, {f_i}, T, c, eps1, "
            "delta/2) with eps1 = 8 eps/9 (delta = 0) or sqrt(512) eps/(sqrt(512)+1) "
            "(delta > 0); the numeric answers are added on top."
        ),
        method=M.SYMBOLIC,
        verdict=V.PROVED,
        detail=(
            "SymPy: NumericSparse's threshold scale sigma(eps1) = sqrt(32 c ln(2/delta))/eps1 "
            "equals Sparse's sqrt(32 c ln(1/delta'))/eps1 at delta' = delta/2 (and 2c/eps1 "
            "for delta = 0); both draw the query noise at twice that scale, so the decisions "
            "have Sparse's distribution, and the answers' Laplace noise is drawn apart."
        ),
        check=alg.sparse_part_noise,
        readings="Also covers the delta = 0 sentence: 'Sparse 算法 (D,{f_i},T,c,8/9 ε,0)'.",
    ),
    entry(
        "thm-3-27-proof-pure",
        quote="其中输出具体数值使用了具有隐私参数 (ε′,δ)=(1/9 ε,0) 的 Lapalace 机制",
        claim=("delta = 0: the numeric answers form a Laplace mechanism with privacy (eps/9, 0)."),
        method=M.DERIVATION,
        verdict=V.PROVED,
        detail=(
            "numeric-sparse-privacy-pure (proved): c answers of scale sigma(eps2) = 9c/eps, "
            "each eps/(9c)-DP (Theorem 3.6), eps/9 together.  'Lapalace' is a misspelling "
            "without mathematical effect."
        ),
        derivations=("numeric-sparse-privacy-pure",),
    ),
    entry(
        "thm-3-27-proof-approx",
        quote="其中输出具体数值使用了具有隐私参数 (ε′,δ)=(1/√512 ε,δ/2) 的 Lapalace 机制",
        claim=(
            "delta > 0: the numeric answers form a Laplace mechanism with privacy "
            "(eps/sqrt(512), delta/2), which composed with the Sparse part gives "
            "(eps, delta)."
        ),
        method=M.DERIVATION,
        verdict=V.REFUTED,
        detail=(
            "numeric-sparse-privacy-approx-seed (refuted): with eps/sqrt(512) the two parts "
            "add to eps (1 + 1/(512 + sqrt(512))) > eps, so composition does not give "
            "(eps, delta).  The book has eps/(sqrt(512)+1); the seed dropped the +1."
        ),
        derivations=("numeric-sparse-privacy-approx-seed",),
        erratum=_LAPLACE_BUDGET_ERRATUM,
        readings=(
            "(a) the Laplace part of the book's algorithm is (eps/sqrt(512), delta/2)-DP: "
            "true for eps <= 1 (it is even (eps/(sqrt(512)+1), delta/2)-DP), but then the "
            "budgets composed in the next sentence exceed eps; (b) the Laplace noise is "
            "calibrated to eps/sqrt(512): a different algorithm, whose total is again "
            "eps (1 + 1/(512 + sqrt(512))).  Either way the proof does not reach eps."
        ),
    ),
    entry(
        "thm-3-27-simple-composition",
        quote="因此,NumericSparse 算法的隐私来自简单的组合",
        claim=("Hence NumericSparse's privacy follows from basic composition of the two parts."),
        method=M.SYMBOLIC,
        verdict=V.PROVED,
        detail=(
            "SymPy: 8 eps/9 + eps/9 = eps (delta = 0); sqrt(512) eps/(sqrt(512)+1) + "
            "eps/(sqrt(512)+1) = eps and delta/2 + delta/2 = delta (delta > 0, the book's "
            "Laplace part).  The check also computes the excess eps/(512 + sqrt(512)) of the "
            "seed's own delta > 0 budgets."
        ),
        check=alg.budget_sums,
        readings=(
            "The step itself (Theorem 3.16, basic composition, applied to the two parts) is "
            "checked with the parts the algorithm has.  With the seed's delta > 0 Laplace "
            "part eps/sqrt(512) the sum exceeds eps: that is the erratum of "
            "seed-001-thm-3-27-proof-approx, not repeated here.  For delta > 0 the Laplace "
            "part itself needs advanced composition over its c answers and eps <= 1 "
            "(seed-001-thm-3-27-approx)."
        ),
    ),
)

ENTRIES = (*INTRO, *THEOREM_3_27)
