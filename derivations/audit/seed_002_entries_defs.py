"""Seed 002 audit entries: the section's running text, Definitions 3.5 and 3.6, Remark 3.1
and the statistical distance."""

from __future__ import annotations

from derivations.audit import seed_002_definitions as c
from symbolic.audit import AuditVerdict, Entry, Erratum, ErratumKind, Method

__all__ = ["ENTRIES", "NUMBER", "SECTIONS"]

NUMBER = "002"
S_INTRO = "3.5.1 合成:一些技术细节"
S_DEF_KL = "定义3.5(KL散度)"
S_DEF_MAX = "定义3.6(最大散度)"
S_REMARK = "备注3.1"
S_317 = "引理 3.17"
S_318 = "引理 3.18"
S_319 = "引理3.19(Azuma不等式)"
SECTIONS = (S_INTRO, S_DEF_KL, S_DEF_MAX, S_REMARK, S_317, S_318, S_319)
"""The headings of the seed, as printed."""

V = AuditVerdict

ENTRIES: tuple[Entry, ...] = (
    Entry(
        id="seed-002-intro-roadmap",
        seed=NUMBER,
        section=S_INTRO,
        quote="在本节的剩余部分,我们将证明一个更复杂的合成定理。为此,我们需要一些定义和引理",
        claim="The rest of the section proves a more complex composition theorem, and needs "
        "definitions and lemmas recasting differential privacy through distances between "
        "distributions.",
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail="An announcement: the theorem it announces (Theorem 3.20, advanced composition) "
        "is not in this file; the catalog's advanced-composition derivation checks it (seed 003).",
    ),
    Entry(
        id="seed-002-zero-denominator",
        seed=NUMBER,
        section=S_INTRO,
        quote="如果分母为零,那么我们将分数的值定义为无穷大(分子总是正的)",
        claim="In the section's fractions a zero denominator makes the value +infinity, and "
        "the numerator is always positive.",
        method=Method.EXACT,
        verdict=V.REFUTED,
        detail="The convention is fine; the parenthesis is false for the section's own "
        "fractions (exact: the empty event of Definition 3.6, and an event with "
        "Pr[Y in S] = delta in its delta version). The check computes both numerators (0).",
        check=c.check_numerator_positive,
        erratum=Erratum(
            id="seed-002-zero-denominator",
            kind=ErratumKind.FALSE,
            wrong="'分子总是正的' (the numerator is always positive)",
            counterexample="Definition 3.6 ranges over S ⊆ Supp(Y), which includes S = {}: "
            "Pr[Y in {}]/Pr[Z in {}] = 0/0, which the convention makes +oo, so D_inf(Y||Z) "
            "would be +oo for every pair. In the delta version, Y = (1/2, 1/2), delta = 1/2, "
            "S = {y1}: numerator Pr[Y in S] - delta = 0, and with Z = (0, 1) the fraction "
            "is 0/0.",
            correction="Take S nonempty in Definition 3.6 and Pr[Y in S] > delta in the delta "
            "version: every numerator is then positive (26,896 fractions over 120 exact "
            "distributions, delta at every event mass and midpoint).",
            check_correction=c.check_numerator_positive_corrected,
        ),
    ),
    Entry(
        id="seed-002-def-kl",
        seed=NUMBER,
        section=S_DEF_KL,
        quote="D(Y||Z) = E_{y~Y}[ln Pr[Y=y]/Pr[Z=y]] = Σ_{y~Y} Pr(y) ln Pr[Y=y]/Pr[Z=y]",
        claim="KL divergence (also called relative entropy): the expectation under Y of the "
        "log-ratio, equal to the sum over outcomes of Pr[Y=y] ln(Pr[Y=y]/Pr[Z=y]).",
        method=Method.SYMBOLIC,
        verdict=V.PROVED,
        detail="sympy.stats computes E[ln ratio] from the law of Y on three outcomes "
        "(symbolic p1..p3, q1..q3); the difference with the sum form simplifies to 0.",
        check=c.check_kl_forms,
        readings="'Σ_{y~Y} Pr(y)' read as the sum over y in Supp(Y) with Pr(y) = Pr[Y=y] (the "
        "only reading equal to the expectation; Pr(y) = Pr[Z=y] would give sum q ln(p/q) "
        "= -D(Z||Y) <= 0).",
    ),
    Entry(
        id="seed-002-def-kl-integral",
        seed=NUMBER,
        section=S_DEF_KL,
        quote="=∫_{-∞}^{∞} p_Y(y) ln p_Y(y)/p_Z(y) dy(译者注:增加离散和连续的两种相对熵等价定义)",
        claim="Translator's addition: for densities the KL divergence is the integral of "
        "p_Y ln(p_Y/p_Z), the continuous counterpart of the sum.",
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail="Y = N(1.3, 1), Z = N(0, 1) at 30 digits: the integral by quadrature is 0.845 "
        "(= mu^2/2); the sum form on both laws binned at width h falls short by 0.0111 "
        "(h = 0.4) and 0.0007 (h = 0.1), converging to it. Numeric evidence, one family.",
        check=c.check_kl_integral,
        readings="The '=' between the sum and the integral means 'or, for densities' (two "
        "settings, as the translator's note says), not an identity of two numbers.",
    ),
    Entry(
        id="seed-002-kl-nonnegative",
        seed=NUMBER,
        section=S_DEF_KL,
        quote="已知 D(Y||Z)≥0,且当且仅当 Y 和 Z 分布相同时具有相等性",
        claim="D(Y||Z) >= 0, with equality exactly when Y and Z have the same distribution.",
        method=Method.FINITE_SEARCH,
        verdict=V.CHECKED,
        detail="Finite-distribution search (353 examples on 2..5 outcomes, exact Arb "
        "decisions): D >= 0 always and D > 0 whenever the laws differ; equal laws give "
        "sum p ln 1 = 0. Gibbs' inequality; not proved here.",
        check=c.check_kl_nonnegative,
    ),
    Entry(
        id="seed-002-kl-asymmetric",
        seed=NUMBER,
        section=S_DEF_KL,
        quote="然而,D 是非对称的",
        claim="The KL divergence is not symmetric.",
        method=Method.SYMBOLIC,
        verdict=V.PROVED,
        detail="Exact witness: Y = (1/2, 1/2), Z = (1/4, 3/4): D(Y||Z) = ln(2/sqrt 3) = 0.1438, "
        "D(Z||Y) = 0.1308 (exact expressions, SymPy evalf to 30 digits).",
        check=c.check_kl_asymmetric,
    ),
    Entry(
        id="seed-002-kl-no-triangle",
        seed=NUMBER,
        section=S_DEF_KL,
        quote="不满足三角不等式",
        claim="The KL divergence does not satisfy the triangle inequality.",
        method=Method.SYMBOLIC,
        verdict=V.PROVED,
        detail="Exact witness: X = (9/10, 1/10), Y = (1/2, 1/2), Z = (1/10, 9/10): "
        "D(X||Z) = 0.8 ln 9 = 1.7578 > D(X||Y) + D(Y||Z) = 0.8789.",
        check=c.check_kl_no_triangle,
    ),
    Entry(
        id="seed-002-kl-infinite",
        seed=NUMBER,
        section=S_DEF_KL,
        quote="甚至可以是无限的,特别是当 Supp(Y) 不包含在 Supp(Z) 中时",
        claim="D(Y||Z) can be infinite, in particular when Supp(Y) is not contained in Supp(Z).",
        method=Method.FINITE_SEARCH,
        verdict=V.CHECKED,
        detail="Finite search: in all 45 examples with Supp(Y) not inside Supp(Z) the KL is "
        "+oo (an outcome with p > 0 = q contributes p ln(p/0) = +oo); e.g. Y = (1/2, 1/2), "
        "Z = (1, 0).",
        check=c.check_kl_infinite,
    ),
    Entry(
        id="seed-002-support-note",
        seed=NUMBER,
        section=S_DEF_KL,
        quote="比如 ReLU 函数的支撑集就是 (0,+∞)",
        claim="Translator's note: the support is the set where a function is nonzero; ReLU's "
        "is (0, +oo); a distribution's is where its probability (density) is nonzero.",
        method=Method.SYMBOLIC,
        verdict=V.PROVED,
        detail="solveset(max(x, 0) != 0) over the reals is (0, oo).",
        check=c.check_relu_support,
        readings="Under the note's own definition (the nonzero set). With the topological "
        "definition (closure of the nonzero set) ReLU's support is [0, +oo); for the finite "
        "distributions of this section both agree.",
    ),
    Entry(
        id="seed-002-def-max-div",
        seed=NUMBER,
        section=S_DEF_MAX,
        quote="D_∞(Y||Z) = max_{S⊆Supp(Y)}[ln Pr[Y∈S]/Pr[Z∈S]]",
        claim="Max divergence: the largest log-ratio Pr[Y in S]/Pr[Z in S] over events S inside "
        "Supp(Y); for finite laws it is the largest ratio at one outcome.",
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail="Over 300 exact rational pairs (2..5 outcomes, zeros included) the max over "
        "every nonempty event equals the max over single outcomes (mediant inequality), so "
        "D_inf <= eps means Pr[Y=y] <= e^eps Pr[Z=y] for all y, as the proof of Lemma 3.18 "
        "uses.",
        check=c.check_max_div_by_outcomes,
        readings="S nonempty: the empty event gives 0/0 (see seed-002-zero-denominator).",
    ),
    Entry(
        id="seed-002-def-approx-max-div",
        seed=NUMBER,
        section=S_DEF_MAX,
        quote="D_∞^δ(Y||Z) = max_{S⊆Supp(Y): Pr[Y∈S]≥δ}[ln (Pr[Y∈S]-δ)/Pr[Z∈S]]",
        claim="delta-approximate max divergence: the max over events S inside Supp(Y) with "
        "Pr[Y in S] >= delta of ln((Pr[Y in S] - delta)/Pr[Z in S]); Remark 3.1 and Lemma 3.17 "
        "use D_inf^delta(Y||Z) <= eps to mean Pr[Y in S] <= e^eps Pr[Z in S] + delta.",
        method=Method.EXACT,
        verdict=V.REFUTED,
        detail="Exact sweep (100 pairs, delta at every event mass of Y and one random value, "
        "eps = 0, ln 1.5, ln 2, ln 5): with '>= delta' and the section's convention the "
        "definition disagrees with (eps, delta)-closeness at events with Pr[Y in S] = delta "
        "and Pr[Z in S] = 0; with '> delta', 4,284 cases all agree.",
        check=c.check_approx_def_as_written,
        readings="Literal: '>= delta' with 0/0 = +oo (the section's convention). Reading "
        "0/0 as ln 0 = -oo instead makes '>=' harmless; the convention as stated does not "
        "allow it.",
        erratum=Erratum(
            id="seed-002-def-approx-max-div",
            kind=ErratumKind.TYPO,
            wrong="Pr[Y∈S] ≥ δ in the range of the max",
            counterexample="Y = (1/2, 1/2), Z = (0, 1), delta = 1/2, eps = 0: "
            "sup_S Pr[Y in S] - Pr[Z in S] = 1/2 <= delta, so Y is (0, 1/2)-close to Z (and "
            "Y' = Z gives the right side of Lemma 3.17 (1)); but S = {y1} has Pr[Y in S] = "
            "1/2 >= delta and the fraction 0/0 = +oo, so D_inf^delta(Y||Z) = +oo. The sweep "
            "also finds Y = (1/8, 5/24, 5/24, 7/24, 1/6), Z = (1/6, 0, 3/10, 2/15, 2/5), "
            "delta = 5/24.",
            correction="Range over S ⊆ Supp(Y) with Pr[Y∈S] > δ: then D_inf^delta(Y||Z) <= "
            "eps iff Pr[Y in S] <= e^eps Pr[Z in S] + delta for all S (4,284 exact cases).",
            check_correction=c.check_approx_def_strict,
        ),
    ),
    Entry(
        id="seed-002-remark-pure",
        seed=NUMBER,
        section=S_REMARK,
        quote="当且仅当在每对相邻数据库 x,y, D_∞(M(x)||M(y))≤ε, D_∞(M(y)||M(x))≤ε 时,"
        "机制为 ε-差分隐私",
        claim="M is eps-DP iff for every pair of neighbouring databases both max divergences "
        "between M(x) and M(y) are at most eps.",
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail="Per pair of neighbours: 1,166 exact cases (200 pairs of output laws on 2..5 "
        "outcomes; eps = 0, ln 1.5, ln 2, ln 5 and the pair's own max divergences, the "
        "boundary): Pr[M(x) in S] <= e^eps Pr[M(y) in S] both ways for every event iff both "
        "max divergences (Definition 3.6, over events) are <= eps.",
        check=c.check_remark_pure,
        readings="The section does not define neighbours; the remark is an equivalence for "
        "each pair (x, y), so it is checked for one pair with arbitrary output laws.",
    ),
    Entry(
        id="seed-002-remark-approx",
        seed=NUMBER,
        section=S_REMARK,
        quote="当且仅当在每两个相邻的数据库 x,y D_∞^δ(M(x)||M(y))≤ε D_∞^δ(M(y)||M(x))≤ε 时,"
        "机制为 (ε,δ)-差分隐私",
        claim="M is (eps, delta)-DP iff for all neighbours both delta-approximate max "
        "divergences are at most eps.",
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail="With Definition 3.6 corrected ('> delta'): 2,856 exact cases (150 pairs, delta "
        "at event masses and random, four eps) agree. As printed ('>= delta', 0/0 = +oo) it "
        "fails at Y = (1/2, 1/2), Z = (0, 1), delta = 1/2: the erratum is counted once, at "
        "seed-002-def-approx-max-div.",
        check=c.check_remark_approx,
        readings="Missing commas between the two conditions read as 'and'. Checked per pair "
        "of neighbours, as Remark 3.1 (1).",
    ),
    Entry(
        id="seed-002-statistical-distance",
        seed=NUMBER,
        section=S_INTRO,
        quote="Δ(Y,Z) = max_S |Pr[Y∈S]-Pr[Z∈S]|",
        claim="Statistical distance: the largest difference of the probabilities of one event.",
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail="Over 300 exact pairs the max over all events (enumerated) equals half the l1 "
        "distance and is attained at S = {y : Pr[Y=y] > Pr[Z=y]}.",
        check=c.check_statistical_distance,
    ),
    Entry(
        id="seed-002-delta-close",
        seed=NUMBER,
        section=S_INTRO,
        quote="如果 Δ(Y,Z)≤δ,我们说 Y,Z 是δ-接近",
        claim="Y and Z are called delta-close when their statistical distance is at most delta.",
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail="A name for a condition; it asserts nothing to check.",
    ),
    Entry(
        id="seed-002-reformulate",
        seed=NUMBER,
        section=S_INTRO,
        quote="我们将根据确切的最大散度和统计距离重新制定最大散度公式",
        claim="The max divergence will be reformulated through exact max divergence and "
        "statistical distance.",
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail="An announcement. It names the max divergence where Lemma 3.17 reformulates "
        "the delta-approximate one (the book: 'approximate max divergence'); no formula.",
    ),
)
