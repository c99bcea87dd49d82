"""Audit of seed 003, from the title to the sensitivity (sections 差分隐私 ... 机制).

The neighbour relation is the seed's own: tuples in X^n that differ in one entry
(substitution).  Verdicts: ``proved`` for SymPy identities, the engine's rules, and existence
claims shown by an exact example; ``checked`` for universal claims checked exactly on finitely
many instances or by the finite-distribution search (evidence, not proof).
"""

from __future__ import annotations

from derivations.audit import seed_003_checks_defs as c
from derivations.audit.seed_003_tools import entry, not_checkable
from symbolic.audit import AuditVerdict, Entry, Erratum, ErratumKind, Method

__all__ = ["ENTRIES"]

V = AuditVerdict
TITLE = "差分隐私"
CONCEPTS = "概念与定义"
DEFINITION = "differential privacy 定义"
READING = "定义理解"
RENYI = "数学: 瑞丽熵和Renyi Divergence"
MECHANISMS = "机制 differentially private mechanisms"

ENTRIES: tuple[Entry, ...] = (
    not_checkable(
        "title-and-source",
        TITLE,
        "知乎 卡兵 | 差分隐私合集 / wiki",
        "Title and attribution of the notes (a Zhihu collection, a wiki).",
        "A title and a source attribution: no mathematical content.",
    ),
    not_checkable(
        "dp-is-a-standard",
        CONCEPTS,
        "Differential privacy is a definition (i.e., standard) of privacy",
        "Differential privacy is a definition (a standard) of privacy.",
        "A statement about what kind of object DP is, not a mathematical claim.",
    ),
    not_checkable(
        "risk-should-not-change",
        CONCEPTS,
        "Any information-related risk to a person should not change significantly",
        "A person's risk should not change much whether or not their data is used.",
        "An informal desideratum; 'risk' and 'significantly' are made precise only by the "
        "definition that follows (checked there).",
    ),
    entry(
        "cannot-tell-membership",
        CONCEPTS,
        "无法基于所给的统计数据, 判断出一个人是否出现在该数据中",
        "From the released statistics one cannot determine whether a person is in the data.",
        Method.SYMBOLIC,
        V.PROVED,
        "Read as 'no test decides membership without error': under eps-DP every test has "
        "false-alarm + miss >= 2/(1+e^eps) > 0 (SymPy on the two constraints DP puts on an "
        "event and its complement; randomized response attains the bound; the finite search "
        "over all events of random eps-DP pairs agrees).",
        check=c.membership_errors,
        readings="(a) cannot decide with certainty: proved. (b) cannot do better than a coin: "
        "false, the best test is right with probability e^eps/(1+e^eps), 0.731 at eps = 1; DP "
        "bounds the advantage, it does not remove it. Reading (a) is taken as the literal one.",
    ),
    not_checkable(
        "dmns-citation",
        DEFINITION,
        "[DWORK MCSHERRY NISSIM SMITH ’06, ‘16]",
        "The definition is due to Dwork, McSherry, Nissim and Smith (2006, journal 2016).",
        "A citation.",
    ),
    not_checkable(
        "eps-dp-definition",
        DEFINITION,
        "satisfies \\epsilon-differential privacy if \\forall x, x^{\\prime} \\in X^{n} that "
        "differ on one entry",
        "M is eps-DP if M(x) ≈_eps M(x') for all x, x' in X^n differing in one entry.",
        "A definition: it fixes the meaning of eps-DP and the neighbour relation (substitution "
        "of one entry of an n-tuple) used throughout this audit. Its equivalent forms are "
        "checked in seed-003-max-div-is-dp.",
    ),
    not_checkable(
        "dp-is-about-algorithms",
        DEFINITION,
        "differential privacy 是针对算法而言的",
        "Differential privacy is a property of the algorithm.",
        "A remark on what the definition quantifies over (M, not the data); nothing to compute.",
    ),
    entry(
        "edit-distance-one",
        DEFINITION,
        "对于任意编辑距离为一的两组数据",
        "'Differ on one entry' is the same as 'edit distance one'.",
        Method.EXACT,
        V.CHECKED,
        "Exhaustive over X^n with |X| = 3 and n = 1..4: edit (Levenshtein) distance 1 between "
        "two n-tuples holds exactly when one entry differs, since insertions and deletions "
        "change the length. Checked on finitely many cases, so 'checked'.",
        check=c.edit_distance_one,
    ),
    entry(
        "values-within-eps",
        DEFINITION,
        "算法给出的值在 \\epsilon 范围内接近",
        "The values the algorithm outputs on the two datasets are close, within eps.",
        Method.EXACT,
        V.REFUTED,
        "DP bounds the ratio of the output probabilities by e^eps; it does not make the "
        "outputs close. The 1-DP Laplace mechanism gives outputs more than eps apart with "
        "probability 1/2 + e^-2 = 0.635 (quadrature, independent of the closed form).",
        check=c.values_within_eps,
        readings="Literal reading: the output values lie within eps of each other (refuted). "
        "The reading 'the output distributions are e^eps-close on every event' is the "
        "definition itself (seed-003-event-inequality).",
        erratum=Erratum(
            id="seed-003-values-within-eps",
            kind=ErratumKind.FALSE,
            wrong="算法给出的值在 ε 范围内接近: the outputs are within eps of each other",
            counterexample="Laplace mechanism, Delta f = 1, eps = 1, f(x) = 0, f(x') = 1: "
            "1-DP (hockey-stick divergence 0 both ways), yet "
            "Pr[|M(x) - M(x')| > eps] = 1/2 + e^-2 = 0.6353 (quadrature)",
            correction="For every event S, Pr[M(x) in S] <= e^eps Pr[M(x') in S]: the output "
            "laws, not the output values, are close.",
            check_correction=c.eps_dp_is_bounded_ratio,
        ),
    ),
    not_checkable(
        "event-inequality",
        DEFINITION,
        "\\forall S subset of the outcome space T, Pr[M(x) \\in S] \\leq e^{\\epsilon} "
        "Pr[M(x') \\in S]",
        "M(x) ≈_eps M(x') means Pr[M(x) in S] <= e^eps Pr[M(x') in S] for every event S.",
        "A definition of the notation ≈_eps; its equivalence with D_inf <= eps is checked in "
        "seed-003-max-div-is-dp.",
    ),
    entry(
        "approx-dp-relaxation",
        DEFINITION,
        "还有松弛版本 (\\epsilon, \\delta) -differential privacy",
        "(eps, delta)-DP (the same inequality plus delta) is a relaxation of eps-DP.",
        Method.SYMBOLIC,
        V.PROVED,
        "The engine proves a <= e^eps b implies a <= e^eps b + delta for delta >= 0 (eps-DP "
        "is (eps, 0)-DP and implies (eps, delta)-DP); strictness by an exact example: "
        "P = (7/8, 1/8), Q = (1, 0) are (0, 1/8)-indistinguishable both ways while "
        "D_inf(P||Q) = +inf.",
        check=c.relaxation,
    ),
    not_checkable(
        "eps-magnitude",
        DEFINITION,
        "数量级在 1/100, 1/10 左右",
        "eps measures leakage and is typically of order 1/100 to 1/10.",
        "A convention about parameter choices, not a mathematical statement (deployed systems "
        "use larger values, which the definition allows).",
    ),
    entry(
        "delta-much-below-one-over-n",
        DEFINITION,
        "0 \\leq \\delta \\ll \\frac{1}{n} (often, cryptographically small)",
        "delta should be much smaller than 1/n.",
        Method.EXACT,
        V.CHECKED,
        "A recommendation; the fact behind it was checked exactly (Fractions, n = 1..3, all "
        "neighbouring pairs): the mechanism that publishes each record in the clear with "
        "probability delta is (eps, delta)-DP for every eps, yet publishes n delta records on "
        "average (at delta = 1/3, n = 3 some record is published with probability 19/27).",
        check=c.delta_small,
    ),
    not_checkable(
        "noise-should-keep-distribution",
        READING,
        "我们希望在引入噪声之后, 尽量不改变原随机变量的分布",
        "After adding noise we want the distribution to change as little as possible.",
        "A motivation, not a statement. ('数据集合S' is read as a set of output values; see "
        "seed-003-s-and-y-notation.)",
    ),
    entry(
        "kl-as-distance",
        READING,
        "衡量的是距离, 采用 KL-Divergence D(Y \\| Z)=\\mathbb{E}_{y \\sim Y}[\\ln ...]",
        "KL divergence, D(Y||Z) = E_{y~Y} ln(Pr[Y=y]/Pr[Z=y]), measures the distance.",
        Method.FINITE_SEARCH,
        V.CHECKED,
        "The formula is the standard KL divergence (Dwork & Roth Definition 3.5). What makes "
        "it a measure of distance, D >= 0, was searched for counterexamples on random "
        "rational pairs: none.",
        check=c.gibbs,
        readings="'距离' read loosely (a divergence, as 'KL distance' is often said). As a "
        "metric KL fails: it is not symmetric (0.1438 vs 0.1308 on (1/2,1/2), (1/4,3/4), "
        "computed by the check); not counted as an erratum since the notes move on to the "
        "max-divergence.",
    ),
    entry(
        "kl-average-max-worst",
        READING,
        "我们不关心期望水平, 而关注在取到某一值情况下的改变有多少, 因此用 MAX-Divergence",
        "KL averages the log-ratio; the max-divergence takes its worst value instead.",
        Method.FINITE_SEARCH,
        V.CHECKED,
        "The implied comparison D(Y||Z) <= D_inf(Y||Z) (an average is at most the maximum) "
        "was searched for counterexamples: none.",
        check=c.kl_below_max,
    ),
    entry(
        "max-div-events-points",
        READING,
        "\\max_{S \\subset Supp(Y)}[\\ln \\frac{Pr[Y \\in S]}{Pr[Z \\in S]}]=\\max _{y \\in Y}"
        "[\\ln \\frac{Pr[Y=y]}{Pr[Z=y]}]",
        "D_inf(Y||Z) defined over events equals the maximum over single outcomes.",
        Method.EXACT,
        V.CHECKED,
        "Exact rational arithmetic on 320 random pairs (2..5 outcomes, zeros included), "
        "every nonempty event: the two maxima agree (a ratio of sums is at most the largest "
        "ratio). Checked on finitely many pairs.",
        check=c.events_equal_points,
        readings="'y ∈ Y' read as y in Supp(Y) and S nonempty (the empty event gives 0/0). For "
        "continuous laws the pointwise form needs densities; the seed's statement is read for "
        "discrete outputs.",
    ),
    entry(
        "max-div-is-dp",
        READING,
        "此式即为我们上面的差分隐私定义",
        "D_inf(M(x)||M(x')) <= eps is the DP definition above.",
        Method.FINITE_SEARCH,
        V.CHECKED,
        "Finite search over pairs and eps in [0, 4]: D_inf(P||Q) <= eps holds exactly when "
        "P(S) <= e^eps Q(S) for every event (hockey-stick divergence 0); no counterexample.",
        check=c.max_div_is_dp,
    ),
    not_checkable(
        "s-and-y-notation",
        READING,
        "注意这里的S是某一数据集, 而y是特定的数据",
        "Here S is a set of data values and y a single value.",
        "A remark on notation. Read '数据集' as a set of output values (an event), which is "
        "what S is in the formula; S is not a database here.",
    ),
    not_checkable(
        "renyi-pointer",
        RENYI,
        "参见 Rényi entropy 和 博文",
        "See Rényi entropy and a blog post.",
        "A pointer to outside texts (the links are lost in this copy).",
    ),
    entry(
        "renyi-explains-both",
        RENYI,
        "对于上面的式子进行了说明",
        "Rényi divergence explains the formulas above (KL and D_inf are its orders 1 and inf).",
        Method.FINITE_SEARCH,
        V.CHECKED,
        "Read as: D_alpha is nondecreasing in alpha, between KL (alpha -> 1) and D_inf "
        "(alpha -> inf). Finite search (alpha in [9/8, 20], steps up to 10): no "
        "counterexample; at one pair, D_(1+1e-12) is within 1e-10 of KL and D_(1e6) within "
        "1e-5 of D_inf (Arb at 128 bits).",
        check=c.renyi_between,
    ),
    not_checkable(
        "sensitivity-definition",
        MECHANISMS,
        "\\Delta f=\\max {D, D^{\\prime}}\\left|f(D)-f\\left(D^{\\prime}\\right)\\right|",
        "Delta f is the largest |f(D) - f(D')| over datasets at edit distance 1.",
        "A definition. The display lost its subscript ('max {D, D'}' for max over D, D'); the "
        "restriction to neighbours is in the prose.",
    ),
    entry(
        "l1-laplace-l2-gauss",
        MECHANISMS,
        "L2范数可以对应高斯机制",
        "The l1 norm matches the Laplace mechanism; the l2 norm matches the Gaussian mechanism.",
        Method.SYMBOLIC,
        V.PROVED,
        "SymPy identity in R^2: the Gaussian privacy loss is <d, w>/sigma^2 + "
        "||d||_2^2/(2 sigma^2) with d = f(x) - f(y), so its law depends on d only through "
        "||d||_2. The l1/Laplace half is seed-003-laplace-vector.",
        check=c.gaussian_l2,
    ),
    not_checkable(
        "sensitivity-pointer",
        MECHANISMS,
        "参见",
        "See (an empty pointer).",
        "A pointer whose target is lost in this copy.",
    ),
)
