"""Audit of seed 003, the composition sections (basic, naive adaptive and strong composition).

Neighbours are the seed's (one entry of an n-tuple substituted), under which a record can move
from one part D_i to another: that is where Theorem 4 (parallel composition) breaks.
"""

from __future__ import annotations

from functools import partial

from derivations.audit import seed_003_checks_comp as c
from derivations.audit.seed_003_tools import entry, not_checkable
from symbolic.audit import AuditVerdict, Entry, Erratum, ErratumKind, Method

__all__ = ["ENTRIES"]

V = AuditVerdict
COMPOSITION = "Composition theorems 查询的组合"
BASIC = "基本组合: Sequential & Parallel"
ADVANCED = "Advanced Composition"
SETUP = "实验设置"
NAIVE = "Navie Composition Throrem"
STRONG = "Strong Composition Throrem"
NAIVE_CATALOG = (
    "Catalog naive-adaptive-composition (proved for every k: the product of the rounds' "
    "conditional ratios, each at most e^eps, is at most e^(k eps))"
)
SUBSTITUTION = (
    "Under the seed's neighbours (one entry substituted) the changed record can leave D_1 for "
    "D_2, so two parts see different inputs"
)

ENTRIES: tuple[Entry, ...] = (
    not_checkable(
        "composition-heading",
        COMPOSITION,
        "Composition theorems 查询的组合",
        "Heading of the composition sections.",
        "The heading has no text of its own; its subsections follow.",
    ),
    not_checkable(
        "basic-intuitive",
        BASIC,
        "比较直观, 如下面两条称述",
        "Both basic results are intuitive, as the two statements below.",
        "An opinion, no mathematical content.",
    ),
    entry(
        "sequential-linear",
        BASIC,
        "Sequential: 如果多次查询针对的是同一数据, 它们之间满足线性关系",
        "Queries on the same data compose linearly (the eps add up).",
        Method.DERIVATION,
        V.PROVED,
        "'Linear' read as the privacy parameters adding: catalog basic-composition-k "
        "(proved for every k) and basic-composition (proved, k = 2).",
        derivations=("basic-composition-k", "basic-composition"),
    ),
    entry(
        "parallel-prose",
        BASIC,
        "Parallel: 如果多次查询用的是不用的数据, 则互不相关 ... \\left(\\max _{i} "
        "\\varepsilon_{i}\\right)-differentially private",
        "Queries on disjoint data are unrelated; together they are (max_i eps_i)-DP.",
        Method.EXACT,
        V.REFUTED,
        f"{SUBSTITUTION}: with eps_1 = 1, eps_2 = 1/2 the pair is exactly 1.5-DP, not 1-DP "
        "(closed-form Laplace interval probabilities).",
        check=partial(c.parallel_substitution, "1", "0.5"),
        readings="Under add/remove neighbours (a person joins or leaves) the claim holds "
        "(catalog parallel-composition); the seed defines neighbours by substitution.",
        erratum=Erratum(
            id="seed-003-parallel-prose",
            kind=ErratumKind.MISSING_HYPOTHESIS,
            wrong="disjoint parts give (max_i eps_i)-DP, with neighbours differing in one entry",
            counterexample="D_1 = {a}, D_2 = {b}, x = (a), x' = (b); counts + Lap(1/eps_i), "
            "eps_1 = 1, eps_2 = 1/2; S = {M_1 >= 1, M_2 <= 0}: Pr_x[S] = 0.25, "
            "Pr_x'[S] = 0.05578, ln ratio 1.5 > 1",
            correction="max_i eps_i for add/remove neighbours; under substitution the bound "
            "is eps_i + eps_j for the two largest.",
            as_written="parallel-composition-substitution-seed",
            corrected="parallel-composition",
            check_correction=c.parallel_corrected,
        ),
    ),
    entry(
        "theorem-3-sequential",
        BASIC,
        "THEOREM 3. Let M_{i} each provide \\epsilon_{i}-differential privacy. The sequence of "
        "M_{i}(X) provides (\\sum_{i} \\epsilon_{i})-differential privacy.",
        "Sequential composition: the sequence is (sum eps_i)-DP.",
        Method.DERIVATION,
        V.PROVED,
        "Catalog basic-composition-k (proved for every k) and basic-composition (proved, k = 2); "
        "independent coins, any neighbour relation.",
        derivations=("basic-composition-k", "basic-composition"),
    ),
    entry(
        "theorem-4-parallel",
        BASIC,
        "THEOREM 4. ... Let D_{i} be arbitrary disjoint subsets of the input domain D. The "
        "sequence of M_{i}(X \\cap D_{i}) provides \\epsilon-differential privacy.",
        "Parallel composition: eps-DP mechanisms on disjoint parts give eps-DP.",
        Method.EXACT,
        V.REFUTED,
        f"{SUBSTITUTION}: with eps_1 = eps_2 = 1 the pair is exactly 2-DP.",
        check=partial(c.parallel_substitution, "1", "1"),
        readings="The catalog's parallel-composition proves the theorem assuming only one "
        "part sees a different input (add/remove neighbours), which the seed's definition "
        "does not give.",
        erratum=Erratum(
            id="seed-003-theorem-4-parallel",
            kind=ErratumKind.MISSING_HYPOTHESIS,
            wrong="M_i(X ∩ D_i) on disjoint D_i is eps-DP, with the seed's neighbours "
            "(one entry substituted)",
            counterexample="D_1 = {a}, D_2 = {b}, x = (a), x' = (b); counts + Lap(1), "
            "eps = 1; S = {M_1 >= 1, M_2 <= 0}: Pr_x[S] = 0.25, Pr_x'[S] = 0.03383 = "
            "e^-2/4, ln ratio 2 > 1",
            correction="eps-DP for add/remove neighbours (the record is in one part); 2 eps "
            "under substitution.",
            as_written="parallel-composition-substitution-seed",
            corrected="parallel-composition",
            check_correction=c.parallel_corrected,
        ),
    ),
    not_checkable(
        "advanced-heading",
        ADVANCED,
        "Advanced Composition",
        "Heading of the advanced composition sections.",
        "The heading has no text of its own; its subsections follow.",
    ),
    not_checkable(
        "experiment",
        SETUP,
        "攻击者A可以执行k次查询, 他的目标是根据查询结果, 判断人b是否出现在统计数据集中",
        "An adversary makes k queries and tries to tell whether person b is in the data.",
        "A description of the experiment (Dwork & Roth's k-fold composition game); nothing to "
        "check. 'Whether b is in the data' is the add/remove view of neighbours.",
    ),
    not_checkable(
        "both-results",
        SETUP,
        "下面分别来看两者DP下的组合结果",
        "Next, the composition results for both kinds of DP.",
        "A transition sentence.",
    ),
    entry(
        "naive-linear-growth",
        NAIVE,
        "对于 \\epsilon- DP, 其所能保障的隐私阈值随着k线性增长",
        "For eps-DP the guaranteed parameter grows linearly in k.",
        Method.SYMBOLIC,
        V.PROVED,
        "The upper bound k eps is Theorem 1; SymPy shows it is attained for every k (k "
        "randomized responses have ratio exactly e^(k eps)), so the growth is exactly linear.",
        check=c.naive_linear_tight,
    ),
    entry(
        "naive-theorem",
        NAIVE,
        "Theorem 1 The class of \\epsilon-differentially private mechanisms satisfies k "
        "\\epsilon-differential privacy under k-fold adaptive composition.",
        "k-fold adaptive composition of eps-DP mechanisms is k eps-DP.",
        Method.DERIVATION,
        V.PROVED,
        f"{NAIVE_CATALOG}.",
        derivations=("naive-adaptive-composition",),
    ),
    not_checkable(
        "naive-view",
        NAIVE,
        "A view of the adversary is a tuple v=\\left(r, y_{1}, \\ldots, y_{k}\\right)",
        "The adversary's view is its coins r and the k answers.",
        "A definition.",
    ),
    entry(
        "naive-factorisation",
        NAIVE,
        "\\prod_{i=1}^{k} \\frac{Pr[Y_{i}^{0}=y_{i} \\mid Y_{1}^{0}=y_{1}, \\ldots, "
        "Y_{i-1}^{0}=y_{i-1}]}{...}",
        "Pr[V^0 = v]/Pr[V^1 = v] = (Pr[R^0 = r]/Pr[R^1 = r]) times the product of the rounds' "
        "conditional ratios given the earlier answers.",
        Method.EXACT,
        V.REFUTED,
        "The chain rule needs R = r in every condition: the adversary picks its queries from "
        "its coins. On an exact 2-round game the printed product differs from the view's "
        "ratio (13/10 vs 1). The theorem survives: the printed product telescopes to the ratio "
        "of the answers' marginals, and with R = r the factorisation is exact.",
        check=c.naive_factorisation,
        erratum=Erratum(
            id="seed-003-naive-factorisation",
            kind=ErratumKind.INVALID_STEP,
            wrong="Pr[Y_i = y_i | Y_1 = y_1, ..., Y_{i-1} = y_{i-1}] without R = r",
            counterexample="coins r uniform; round i asks randomized response (ratio 2) when "
            "r + earlier answers is odd, else a constant query; v = (0, 0, 0): view ratio 1, "
            "printed product 13/10",
            correction="Pr[Y_i = y_i | R = r, Y_1 = y_1, ..., Y_{i-1} = y_{i-1}] (as in "
            "Dwork & Roth); then Pr[R^0 = r] = Pr[R^1 = r] and each ratio is at most e^eps.",
            corrected="naive-adaptive-composition",
            check_correction=c.naive_factorisation_corrected,
        ),
    ),
    entry(
        "naive-bound",
        NAIVE,
        "\\leq \\prod_{i=1}^{k} \\exp (\\epsilon)",
        "The product is at most (e^eps)^k.",
        Method.DERIVATION,
        V.PROVED,
        f"{NAIVE_CATALOG}. The coins' ratio Pr[R^0 = r]/Pr[R^1 = r] = 1 is dropped silently "
        "(the coins do not depend on the database).",
        derivations=("naive-adaptive-composition",),
    ),
    entry(
        "naive-final",
        NAIVE,
        "=\\exp (k \\epsilon)",
        "(e^eps)^k = e^(k eps).",
        Method.DERIVATION,
        V.PROVED,
        f"{NAIVE_CATALOG}; the last step is proved there.",
        derivations=("naive-adaptive-composition",),
    ),
    not_checkable(
        "strong-intro",
        STRONG,
        "然后看 (\\epsilon, \\delta) 的结果",
        "Next, the (eps, delta) result.",
        "A transition sentence.",
    ),
    entry(
        "strong-second-term",
        STRONG,
        "当 \\epsilon 数量级较小时 (例如 -5级别) 第二项可以忽略",
        "For eps around 1e-5 the second term k eps (e^eps - 1) is negligible.",
        Method.EXACT,
        V.CHECKED,
        "At eps = 1e-5, delta' = 1e-6 the second term is 1.9e-5 of the first at k = 100, "
        "0.0019 at k = 1e6, 0.19 at k = 1e10, and equals it at k = 2.76e11: negligible only "
        "while k eps^2 << ln(1/delta').",
        check=c.strong_regime,
    ),
    entry(
        "strong-sqrt-k",
        STRONG,
        "因此基本上呈现 O(\\sqrt{k}) 级别的增长",
        "So eps' grows essentially like sqrt(k).",
        Method.EXACT,
        V.CHECKED,
        "Same computation: eps'/sqrt(k) stays within 0.2% of sqrt(2 ln(1/delta')) eps up to "
        "k = 1e6 at eps = 1e-5, but the growth is linear in k past k = 2.76e11.",
        check=c.strong_regime,
        readings="Read in the regime k << ln(1/delta')/eps^2 (checked). As an asymptotic "
        "statement for fixed eps and k -> oo it is false: eps' = Theta(k).",
    ),
    entry(
        "strong-better",
        STRONG,
        "这样来看要比 \\epsilon- DP下更好",
        "So advanced composition is better than the eps-DP (k eps) bound.",
        Method.EXACT,
        V.REFUTED,
        "Better only for k > 2 ln(1/delta')/(2 - e^eps)^2 (and eps < ln 2): at the seed's "
        "eps = 1e-5 with delta' = 1e-6 and k = 10, eps' = 1.66e-4 > k eps = 1e-4, and it "
        "pays delta' besides.",
        check=c.strong_better_small_k,
        erratum=Erratum(
            id="seed-003-strong-better",
            kind=ErratumKind.MISSING_HYPOTHESIS,
            wrong="advanced composition is better than k eps",
            counterexample="eps = 1e-5, delta' = 1e-6, k = 10: sqrt(2 k ln(1/delta')) eps + "
            "k eps (e^eps - 1) = 1.662e-4 > k eps = 1e-4",
            correction="eps' < k eps exactly when eps < ln 2 and k > 2 ln(1/delta')/"
            "(2 - e^eps)^2 (about 27.6 at delta' = 1e-6, small eps).",
            check_correction=c.strong_better_threshold,
        ),
    ),
    not_checkable(
        "strong-proof-omitted",
        STRONG,
        "证明见书, 忽略.",
        "Proof omitted (see the book).",
        "A pointer to the book.",
    ),
    entry(
        "advanced-theorem",
        STRONG,
        "\\varepsilon^{\\prime}=\\sqrt{2 k \\ln (1 / \\delta^{\\prime})} \\varepsilon+k "
        "\\varepsilon(e^{\\varepsilon}-1)",
        "Theorem 3.20: (eps, delta)-DP mechanisms compose to (eps', k delta + delta')-DP.",
        Method.DERIVATION,
        V.PROVED,
        "Catalog advanced-composition (proved; oracle: the optimal composition of Kairouz, "
        "Oh & Viswanath, delta_opt(eps') <= k delta + delta'), for 0 < delta' < 1.",
        derivations=("advanced-composition",),
    ),
    entry(
        "advanced-delta-prime-range",
        STRONG,
        "For all \\varepsilon, \\delta, \\delta^{\\prime} \\geq 0",
        "The theorem holds for all eps, delta, delta' >= 0.",
        Method.SYMBOLIC,
        V.REFUTED,
        "At delta' = 0 ln(1/delta') is undefined (eps' = oo), and for delta' > 1 eps' is not "
        "a real number, so '(eps', k delta + delta')-DP' is meaningless there (for delta' >= 1 "
        "the guarantee would be vacuous anyway). The statement needs 0 < delta' < 1.",
        check=c.delta_prime_range,
        erratum=Erratum(
            id="seed-003-advanced-delta-prime-range",
            kind=ErratumKind.MISSING_HYPOTHESIS,
            wrong="for all delta' >= 0",
            counterexample="k = 1, eps = 1, delta' = 2: eps' = 1.71828 + 1.17741 i; "
            "delta' = 0: ln(1/0) undefined",
            correction="0 < delta' < 1 (eps, delta >= 0)",
            corrected="advanced-composition",
            check_correction=c.delta_prime_open_unit,
        ),
    ),
)
