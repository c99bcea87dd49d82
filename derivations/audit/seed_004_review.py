"""Seed 004, sections 一 and 二: the (eps, delta)-DP recap and the trade-off function.

The checks are in :mod:`derivations.audit.seed_004_review_checks`; the entries here say what
the seed claims, how it was checked and what was found.
"""

from __future__ import annotations

from derivations.audit import seed_004_review_checks as c
from derivations.audit.seed_004_tools import SEED
from symbolic.audit import AuditVerdict, Entry, Erratum, ErratumKind, Method

S1 = "一、(ε, δ)-DP 的回顾"
S2 = "二、权衡函数——假设检验的引入"

V = AuditVerdict
_SEED = SEED.split("_")[0]

RELATIVE_ENTROPY = Erratum(
    id="seed-004-dp-from-relative-entropy",
    kind=ErratumKind.FALSE,
    wrong=(
        "(eps, delta)-DP is said to be derived from the relative entropy (KL divergence). It "
        "is a worst-case condition (a bound on the hockey-stick divergence, equivalently on the "
        "delta-approximate max divergence); the KL divergence, an average of the privacy loss, "
        "does not determine it."
    ),
    counterexample=(
        "A = randomized response with e^eps = e (P = (e, 1)/(1 + e), Q reversed): KL = 0.462 "
        "both ways and A is (1, 0)-DP.  B = (P, Q) = ((999, 1)/1000, (9, 1)/10): KL(P||Q) = "
        "0.0996 and KL(Q||P) = 0.367, both smaller, yet sup_S Q(S) - e P(S) = 0.0973, so B is "
        "not (1, delta)-DP for any delta < 0.0973.  The exact search also refutes 'KL(P1||Q1) "
        "<= KL(P2||Q2) implies delta_eps(P1, Q1) <= delta_eps(P2, Q2)'."
    ),
    correction=(
        "(eps, delta)-DP says sup_S P(S) - e^eps Q(S) <= delta for both orders of every pair "
        "of neighbours (Dwork & Roth 2014, Lemma 3.17: delta-approximate max divergence at "
        "most eps); the KL divergence only enters later, in the advanced composition proof."
    ),
    check_correction=c.dp_is_hockey_stick,
)

ENTRIES: tuple[Entry, ...] = (
    Entry(
        id="seed-004-dp-definition",
        seed=_SEED,
        section=S1,
        quote="对任意两个邻近数据集 D 和 D’,都有: Pr[M(D)∈S_m] ≤ e^ε×Pr[M(D')∈S_m]+δ",
        claim="Definition of (eps, delta)-DP: for all neighbours D, D' the inequality holds.",
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail=(
            "A definition: it fixes what (eps, delta)-DP means and asserts nothing that could "
            "be false.  Its equivalence with a bound on the hockey-stick divergence is checked "
            "in the correction of seed-004-dp-from-relative-entropy; its trade-off form in "
            "seed-004-eps-delta-tradeoff-equivalence."
        ),
        readings=(
            "The event S_m is not quantified in the display; read as 'for every measurable "
            "S_m' (the standard definition).  'Any two neighbours' covers both orders."
        ),
    ),
    Entry(
        id="seed-004-dp-from-relative-entropy",
        seed=_SEED,
        section=S1,
        quote="这个式子是通过 相对熵 推导出来的",
        claim="The (eps, delta)-DP inequality is derived from the relative entropy (KL).",
        method=Method.FINITE_SEARCH,
        verdict=V.REFUTED,
        detail=(
            "finite_search refutes the statement that a smaller KL divergence gives a smaller "
            "delta at the same eps (a counterexample is found and re-verified at 512 bits); the "
            "explicit pairs A and B of the erratum are computed exactly on Arb balls."
        ),
        check=c.kl_does_not_determine_dp,
        erratum=RELATIVE_ENTROPY,
        readings=(
            "Read as 'the definition expresses a condition on the KL divergence' (as the "
            "summary table of section 六 also says: 'KL-Divergence').  A purely historical "
            "reading (the author's linked explanation motivates it via KL) is not checkable."
        ),
    ),
    Entry(
        id="seed-004-laplace-long-tail",
        seed=_SEED,
        section=S1,
        quote="前者通过添加具备”长尾“特性的拉普拉斯噪声来保护隐私",
        claim="Laplace noise is long-tailed (heavier tails than Gaussian noise).",
        method=Method.SYMBOLIC,
        verdict=V.PROVED,
        detail=(
            "At equal variance 1 (Lap(0, 1/sqrt 2) against N(0, 1)) SymPy gives "
            "lim_{t->oo} Pr[Lap > t]/Pr[N > t] = lim e^(-sqrt2 t)/erfc(t/sqrt2) = oo."
        ),
        check=c.laplace_heavier_tail,
        readings="'Long-tailed' read as 'heavier tails than the Gaussian at equal variance'.",
    ),
    Entry(
        id="seed-004-noise-suitability",
        seed=_SEED,
        section=S1,
        quote="对离散型的数据具有比较友好的作用;后者的”对称特性“则更加适合用来保护连续数据的隐私",
        claim=(
            "Laplace noise suits discrete data; the Gaussian's symmetry makes it better for "
            "continuous statistics such as means and variances."
        ),
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail=(
            "Engineering advice without a criterion ('friendly', 'more suitable').  Note that "
            "symmetry does not separate the two: the Laplace density is symmetric about its "
            "centre as well; what differs is the tail (seed-004-laplace-long-tail)."
        ),
    ),
    Entry(
        id="seed-004-composition-only-bounds",
        seed=_SEED,
        section=S1,
        quote="难以给出直观的组合机制应该遵循的规则,只能使用放缩法来给出一个近似的上界",
        claim="Composition under (eps, delta)-DP is handled by loose, approximate upper bounds.",
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail=(
            "The advanced composition bound (Dwork & Roth Thm 3.20) against the exact optimal "
            "composition (Kairouz, Oh & Viswanath 2015) for k eps-DP mechanisms, eps = 0.1, "
            "delta' = 1e-5, k = 10 and 100 at 30 digits: the bound is strictly above the "
            "optimum (an upper bound, not tight)."
        ),
        check=c.advanced_composition_is_loose,
        readings=(
            "'只能' (only) read as a description of the usual tools.  Read literally ('no exact "
            "rule exists') it would be contradicted by the optimal composition theorem of "
            "Kairouz, Oh & Viswanath, which this check computes; the sentence is vague enough "
            "that we do not record an erratum."
        ),
    ),
    Entry(
        id="seed-004-strong-composition-tools",
        seed=_SEED,
        section=S1,
        quote="”强组合定理“主要利用”隐私损失期望的上界“和”Azuma不等式“给出组合机制",
        claim="Advanced composition rests on a bound on the expected privacy loss and Azuma.",
        method=Method.DERIVATION,
        verdict=V.CHECKED,
        detail=(
            "The catalog encodes the three pieces: kl-bound (expected privacy loss, proved), "
            "azuma-binomial (checked) and advanced-composition (proved, oracle agrees); the "
            "weakest verdict is recorded."
        ),
        derivations=("kl-bound", "azuma-binomial", "advanced-composition"),
    ),
    Entry(
        id="seed-004-expectation-moments",
        seed=_SEED,
        section=S1,
        quote="这些组合机制大部分都是针对”期望“的高阶范式进行研究",
        claim="Most of these composition methods study higher-order forms of an expectation.",
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail="A characterisation of a research area, too vague to check.",
    ),
    Entry(
        id="seed-004-moments-accountant",
        seed=_SEED,
        section=S1,
        quote="Moment Accountant 将期望看成”一阶原点矩“,通过高阶的展开式进行推导",
        claim="The moments accountant treats the expectation as a first moment and expands.",
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail=(
            "A loose description of a method, with no statement to check.  (The moments "
            "accountant bounds the log moment generating function of the privacy loss.)"
        ),
    ),
    Entry(
        id="seed-004-renyi-accountant",
        seed=_SEED,
        section=S1,
        quote="Renyi Accountant 通过考察 ”散度“的定义式,从高阶矩的定义出发,重写了差分隐私的表达式",
        claim="The Renyi accountant rewrites DP from the definition of higher moments.",
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail="A description of a method, not a mathematical statement.",
    ),
    Entry(
        id="seed-004-methods-summary",
        seed=_SEED,
        section=S1,
        quote="在高阶展开式里添加更紧的上界,从而在符合DP的前提下,减少噪声带来的精度损失",
        claim="These methods find tighter bounds to reduce the noise needed for DP.",
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail="A motivation paragraph without a statement precise enough to check.",
    ),
    Entry(
        id="seed-004-testing-history",
        seed=_SEED,
        section=S2,
        quote="在”强组合定理“的文章中,作者引入了”假设检验“。但原文只是将其作为一个测试的直观标准",
        claim="The advanced composition paper used hypothesis testing only as an intuition.",
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail="A remark on the literature, not a mathematical statement.",
    ),
    Entry(
        id="seed-004-hypotheses",
        seed=_SEED,
        section=S2,
        quote="H_0:落在 S 中,H_1:落在 S’ 中",
        claim="The attacker tests H0: the data set is S against H1: it is S'.",
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail=(
            "The set-up of the test; nothing to check.  '落在 S 中' (falls in S) is read as "
            "'the output came from M(S)', i.e. H0: output ~ P, H1: output ~ Q."
        ),
    ),
    Entry(
        id="seed-004-error-formulas",
        seed=_SEED,
        section=S2,
        quote="α_ϕ=E_{P_0}[ϕ], β_ϕ=1−E_{P_1}[ϕ]",
        claim=(
            "Type I error = rejecting a true H0, type II = accepting a false H0; for a "
            "rejection rule phi in [0, 1] they are E_P0[phi] and 1 - E_P1[phi]."
        ),
        method=Method.SYMBOLIC,
        verdict=V.PROVED,
        detail=(
            "For the threshold test phi = 1{x > t} of N(0, 1) against N(mu, 1) (the seed's "
            "figure), SymPy integrates E_P0[phi] = Pr_P0[reject] = 1 - Phi(t) and "
            "1 - E_P1[phi] = Pr_P1[accept] = Phi(t - mu): the formulas are the two error "
            "probabilities."
        ),
        check=c.error_formulas,
        readings="The text calls them 'I 类假设 和 II 类假设' (hypotheses); errors are meant.",
    ),
    Entry(
        id="seed-004-threshold-moves-right",
        seed=_SEED,
        section=S2,
        quote="随着 T 区域的不断右移, I 类错误的概率会不断缩小,II 类错误的概率会逐渐增大",
        claim="Moving the rejection region T = (t, oo) right lowers type I and raises type II.",
        method=Method.SYMBOLIC,
        verdict=V.PROVED,
        detail=(
            "d/dt (1 - Phi(t)) = -phi(t) < 0 and d/dt Phi(t - mu) = phi(t - mu) > 0, signs "
            "decided by SymPy for real t, mu."
        ),
        check=c.threshold_monotone,
        readings="The figure is not in the text; P0 = N(0, 1), P1 = N(mu, 1), T = (t, oo).",
    ),
    Entry(
        id="seed-004-tv-bound",
        seed=_SEED,
        section=S2,
        quote="α_ϕ+β_ϕ ≥ 1−TV(P_0,P_1)",
        claim="Every test has alpha + beta >= 1 - TV(P0, P1).",
        method=Method.FINITE_SEARCH,
        verdict=V.CHECKED,
        detail=(
            "finite_search over triples (P0, P1, R) with the test phi = R/max R (every test on "
            "a finite set up to scale), 300 draws plus edge cases: no counterexample."
        ),
        check=c.tv_bound,
    ),
    Entry(
        id="seed-004-tv-definition",
        seed=_SEED,
        section=S2,
        quote="TV(P_0,P_1) 是 |P_0(A)−P_1(A)| 在所有可测集合 A 上的上界",
        claim="TV(P0, P1) is the supremum over measurable A of |P0(A) - P1(A)|.",
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail="A definition (used by seed-004-tv-bound, whose search computes it).",
        readings=(
            "'上界' literally says 'an upper bound', which would not define a number; read "
            "as the supremum (上确界).  Under the literal reading the bound of "
            "seed-004-tv-bound stays true (a larger TV only weakens it)."
        ),
    ),
    Entry(
        id="seed-004-tradeoff-definition",
        seed=_SEED,
        section=S2,
        quote="T(P,Q)(α)=inf{β_ϕ:α_ϕ≤α} … 在框定 α 的前提下,考虑可实现的最小 II 类误差",
        claim="T(P, Q)(alpha) is the smallest achievable type II error at level alpha.",
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail=(
            "On 40 random rational pairs (2-5 outcomes) and 11 levels alpha, the infimum over "
            "all randomized tests, computed exactly by enumerating the vertices of the linear "
            "programme {phi in [0,1]^n : E_P[phi] <= alpha}, equals the Neyman-Pearson curve "
            "used by every other check, and it is attained (a minimum)."
        ),
        check=c.tradeoff_is_infimum,
    ),
    Entry(
        id="seed-004-larger-is-harder",
        seed=_SEED,
        section=S2,
        quote="如果这个函数值越大,就表明…最小的 II 类错误也越大,就越难区分两个分布了",
        claim="A larger trade-off function means the two distributions are harder to tell apart.",
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail=(
            "min over alpha of alpha + T(P, Q)(alpha) = 1 - TV(P, Q), checked exactly on 60 "
            "random rational pairs; so T1 >= T2 pointwise implies TV1 <= TV2 (the best test's "
            "total error is larger), also checked on pairs ordered by post-processing."
        ),
        check=c.larger_tradeoff_smaller_tv,
    ),
    Entry(
        id="seed-004-tradeoff-characterization",
        seed=_SEED,
        section=S2,
        quote="f 是 trade-off 函数的充要条件如下: 凸函数, 连续的, 非递增, f(x)≤1−x",
        claim=(
            "f: [0,1] -> [0,1] is a trade-off function iff convex, continuous, non-increasing "
            "and f(x) <= 1 - x."
        ),
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail=(
            "Only if: T(P, Q) of 60 random rational pairs has increasing slopes, decreasing "
            "values, no jump and lies below 1 - alpha (exact, at its vertices).  If: 60 "
            "random convex piecewise-linear f with f(0) <= 1, f(1) = 0 are realised as "
            "T(P, Q) with P = segment widths, Q = width x slope plus an atom 1 - f(0): equal "
            "at every breakpoint.  Sufficiency is checked for piecewise-linear f only."
        ),
        check=c.tradeoff_characterization,
        readings="The stray 'v' after 'x ∈ [0,1]' in the display is a typesetting slip.",
    ),
)
