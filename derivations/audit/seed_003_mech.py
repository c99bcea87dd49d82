"""Audit of seed 003, sections The Laplace mechanism and Exponential mechanism.

The Laplace proof is the catalog's ``laplace-ratio`` (its display is split by the transcription:
the first line, the ratio of the mechanism's densities, is printed after the paragraph that
follows it).  The exponential mechanism's proof is the catalog's ``exponential-mechanism`` read
as meant; its lines as printed are audited here one by one.
"""

from __future__ import annotations

from derivations.audit import seed_003_checks_mech as c
from derivations.audit.seed_003_tools import entry, not_checkable
from symbolic.audit import AuditVerdict, Entry, Erratum, ErratumKind, Method

__all__ = ["ENTRIES"]

V = AuditVerdict
LAPLACE = "The Laplace mechanism"
EXPO = "Exponential mechanism"


def _laplace_step(short: str, quote: str, claim: str, step: str) -> Entry:
    return entry(
        short,
        LAPLACE,
        quote,
        claim,
        Method.DERIVATION,
        V.PROVED,
        f"Catalog laplace-ratio (proved, 6/6 steps; oracle: hockey-stick divergence "
        f"integrated exactly piece by piece): {step}.",
        derivations=("laplace-ratio",),
        readings="Pr(... = z) of a continuous law is read as its density at z, as the next "
        "line (1/(2b)) exp(-|.|/b) shows.",
    )


def _expo(short: str, quote: str, claim: str, step: str, verdict: AuditVerdict) -> Entry:
    return entry(
        short,
        EXPO,
        quote,
        claim,
        Method.DERIVATION,
        verdict,
        f"Catalog exponential-mechanism (proved: 6/6 steps, the two sensitivity steps by "
        f"the rules; oracle: exact output laws for |R| = 2..8): {step}.",
        derivations=("exponential-mechanism",),
    )


LAPLACE_ENTRIES: tuple[Entry, ...] = (
    not_checkable(
        "laplace-definition",
        LAPLACE,
        "就是在数值结果的基础上加一个 Laplace 噪声项 (因此属于 Additive noise mechanisms)",
        "The Laplace mechanism outputs f(x) + Lap(0, b = Delta f/eps).",
        "A definition (an additive-noise mechanism with scale Delta f/eps).",
    ),
    entry(
        "laplace-variance",
        LAPLACE,
        "注意到噪声项的方差为 敏感度/误差阈值",
        "The variance of the noise is sensitivity/eps = Delta f/eps.",
        Method.SYMBOLIC,
        V.REFUTED,
        "Var Lap(0, b) = 2 b^2 = 2 (Delta f/eps)^2 by sympy.stats and by integrating t^2 "
        "against the density; Delta f/eps is the scale b, not the variance.",
        check=c.laplace_variance_seed,
        erratum=Erratum(
            id="seed-003-laplace-variance",
            kind=ErratumKind.FALSE,
            wrong="噪声项的方差为 敏感度/误差阈值: Var = Delta f/eps",
            counterexample="Delta f = 1, eps = 1/10: Var Lap(0, 10) = 200, the seed's "
            "formula gives 10 (at eps = 1: 2 vs 1)",
            correction="Var = 2 (Delta f/eps)^2; Delta f/eps is the scale b (the standard "
            "deviation is sqrt(2) Delta f/eps).",
            check_correction=c.laplace_variance_true,
        ),
    ),
    entry(
        "laplace-proof-roles",
        LAPLACE,
        "这里的第一个不等式用了三角不等式; 第二个则是敏感度的定义",
        "The first inequality is the triangle inequality, the second the sensitivity.",
        Method.DERIVATION,
        V.PROVED,
        "Catalog laplace-ratio: step 4 is proved by the triangle-inequality rule and step 5 "
        "by the sensitivity hypothesis, as the seed says.",
        derivations=("laplace-ratio",),
    ),
    _laplace_step(
        "laplace-step-shift",
        "=\\frac{Pr(Lap(0, \\frac{\\Delta f}{\\epsilon})=z-f(x))}{...}",
        "Pr(M(x) = z)/Pr(M(y) = z) = Pr(f(x) + Lap = z)/... = Pr(Lap = z - f(x))/"
        "Pr(Lap = z - f(y)).",
        "step 1 (the mechanism's density at z is the noise density at z - f(x))",
    ),
    _laplace_step(
        "laplace-step-density",
        "=\\frac{\\frac{1}{2 b} \\exp (-\\frac{|z-f(x)|}{b})}{...}",
        "Substitute the Laplace density (1/(2b)) exp(-|t|/b).",
        "step 2 (definition of the density)",
    ),
    _laplace_step(
        "laplace-step-combine",
        "=\\exp (\\frac{|z-f(y)|-|z-f(x)|}{b})",
        "The ratio of densities is exp((|z - f(y)| - |z - f(x)|)/b).",
        "step 3 (proved by the tactics)",
    ),
    _laplace_step(
        "laplace-step-triangle",
        "\\leq \\exp (\\frac{|f(y)-f(x)|}{b})",
        "By the triangle inequality the exponent is at most |f(y) - f(x)|/b.",
        "step 4 (proved by the triangle-inequality rule)",
    ),
    _laplace_step(
        "laplace-step-sensitivity",
        "\\leq \\exp (\\frac{\\Delta f}{b})",
        "By the sensitivity, |f(y) - f(x)| <= Delta f.",
        "step 5 (proved from the hypothesis)",
    ),
    _laplace_step(
        "laplace-step-scale",
        "=\\exp (\\epsilon)",
        "With b = Delta f/eps the bound is e^eps.",
        "step 6 (definition of b)",
    ),
    entry(
        "laplace-vector",
        LAPLACE,
        "可以是向量, 此时误差项为多个独立的Laplace噪声, 距离度量为1范数",
        "For vector queries, independent Laplace noise per coordinate with the l1 sensitivity "
        "gives eps-DP.",
        Method.DERIVATION,
        V.PROVED,
        "The engine proves, in R^2, exp(sum_i (|z_i - f(y)_i| - |z_i - f(x)_i|)/b) <= e^eps "
        "given ||f(x) - f(y)||_1 <= Delta and b = Delta/eps (triangle inequality per "
        "coordinate, then the hypothesis). 'scale' in the seed is 'scalar'.",
        check=c.laplace_vector,
    ),
)

EXPO_ENTRIES: tuple[Entry, ...] = (
    entry(
        "expo-continuous-only",
        EXPO,
        "相较于前两种机制仅能用在连续的查询结果上, 这里对于DP的可用范围进行拓展 (输出为离散)",
        "Laplace and Gaussian work only for continuous query results; the exponential "
        "mechanism extends DP to discrete outputs.",
        Method.EXACT,
        V.REFUTED,
        "The Laplace mechanism on an integer-valued counting query is eps-DP (hockey-stick "
        "divergence 0, worst loss exactly eps, integrated piece by piece). What the exponential "
        "mechanism adds is arbitrary, non-numeric output ranges, not discreteness.",
        check=c.laplace_on_counts,
        readings="Literal reading: the query's values must be continuous (refuted: counting "
        "queries are the textbook use of Laplace noise). Charitable reading: the noise "
        "mechanisms need numeric outputs, the exponential mechanism does not (true).",
        erratum=Erratum(
            id="seed-003-expo-continuous-only",
            kind=ErratumKind.FALSE,
            wrong="前两种机制仅能用在连续的查询结果上 ... (输出为离散)",
            counterexample="counting query with values 3 and 4 on neighbours, eps = 1/2: "
            "f + Lap(2) has hockey-stick divergence 0 and worst privacy loss 0.5 = eps",
            correction="Laplace and Gaussian noise need numeric (real or integer) query "
            "values; the exponential mechanism handles arbitrary output ranges R scored by "
            "u(x, r).",
            check_correction=c.exponential_categorical,
        ),
    ),
    entry(
        "expo-cannot-add-noise",
        EXPO,
        "在离散情况下, 我们不能把噪声加载结果上, 怎么办?",
        "In the discrete case noise cannot be added to the result.",
        Method.EXACT,
        V.REFUTED,
        "Two-sided geometric noise on an integer result is eps-DP (exact rational "
        "computation of its probability ratios under a shift by 1).",
        check=c.geometric_noise,
        readings="Literal: discrete results (refuted by the geometric mechanism). For "
        "categorical results (the seed's disease example) there is nothing to add noise to, "
        "which is the point the notes make.",
        erratum=Erratum(
            id="seed-003-expo-cannot-add-noise",
            kind=ErratumKind.FALSE,
            wrong="在离散情况下, 我们不能把噪声加载结果上",
            counterexample="integer result + two-sided geometric noise Pr[k] = (1/3) 2^-|k| "
            "(a = e^-eps = 1/2): every shift by 1 changes a probability by a factor <= 2 = "
            "e^eps, so it is (ln 2)-DP",
            correction="Noise cannot be added to non-numeric (categorical) results; integer "
            "results take discrete noise (geometric mechanism).",
            check_correction=c.exponential_categorical,
        ),
    ),
    not_checkable(
        "expo-output-law",
        EXPO,
        "显然输出应该是在定义域上的一个分布",
        "The output should be a distribution over the (output) domain.",
        "Informal; made precise by Definition 3.4 ('定义域' read as the output range R).",
    ),
    not_checkable(
        "expo-score-exponential",
        EXPO,
        "用这个分数的指数值作为概率来生成结果",
        "Use the exponential of the score as the (unnormalised) probability.",
        "Informal: the scaling eps/(2 Delta u) and the normalisation are given by "
        "Definition 3.4, audited there.",
    ),
    not_checkable(
        "expo-sensitivity-missing",
        EXPO,
        "类似的, 我们先定义 敏感度:",
        "The sensitivity Delta u of the score is defined (the display is missing).",
        "The formula is missing from this copy; the proof uses Delta u = max over r and "
        "neighbours x, y of |u(x, r) - u(y, r)| (Dwork & Roth), as the catalog does.",
    ),
    not_checkable(
        "expo-definition",
        EXPO,
        "Definition 3.4 (The Exponential Mechanism) ... proportional to \\exp(\\frac{\\varepsilon "
        "u(x, r)}{2 \\Delta u})",
        "M_E outputs r with probability proportional to exp(eps u(x, r)/(2 Delta u)).",
        "A definition (as in Dwork & Roth Definition 3.4); its privacy is the next entries.",
    ),
    _expo(
        "expo-is-dp",
        "证明如下",
        "The exponential mechanism is eps-DP (Dwork & Roth Theorem 3.10, implied).",
        "the whole chain read as meant, for any finite range R",
        V.PROVED,
    ),
    entry(
        "expo-step-two-u",
        EXPO,
        "\\frac{\\exp (\\frac{\\varepsilon u(x, r)}{2 u})}{\\sum_{r^{\\prime} \\in \\mathcal{R}} "
        "...}",
        "First line: the ratio of the two output probabilities, written with '2u' in the "
        "numerators' exponents, equals the next line (with 2 Delta u).",
        Method.EXACT,
        V.REFUTED,
        "As printed the numerators are exp(eps u(x,r)/(2u)); reading u as the score of r this "
        "is e^(eps/2) for both databases and the equality with the next line fails by the "
        "factor exp(eps (u(x,r) - u(y,r))/(2 Delta u)).",
        check=c.exp_two_u,
        readings="'2u' read as 2 u(., r) (refuted) and as 2 Delta u with Delta lost in the "
        "transcription (SymPy: then the lines are equal, the catalog's reading).",
        erratum=Erratum(
            id="seed-003-expo-two-u",
            kind=ErratumKind.TYPO,
            wrong="exp(eps u(x, r)/(2u)) and exp(eps u(y, r)/(2u)) in the first line",
            counterexample="|R| = 3, eps = Delta u = 1, u(x, .) = (1, 0, 0), u(y, .) = "
            "(1/2, 1/2, 0), r = r_1: first line 0.977891, second line 1.255637",
            correction="exp(eps u(x, r)/(2 Delta u)) and exp(eps u(y, r)/(2 Delta u))",
            corrected="exponential-mechanism",
            check_correction=c.exp_line1_as_meant,
        ),
    ),
    entry(
        "expo-step-r-prime",
        EXPO,
        "=\\exp (\\frac{\\varepsilon(u(x, r^{\\prime})-u(y, r^{\\prime}))}{2 \\Delta u}) \\cdot",
        "Second line: the quotient of the numerators is exp(eps (u(x, r') - u(y, r'))/(2 Delta "
        "u)).",
        Method.EXACT,
        V.REFUTED,
        "r' is bound only inside the sums; outside them the line must use r. With r' any "
        "other output the equality fails.",
        check=c.exp_r_prime,
        erratum=Erratum(
            id="seed-003-expo-r-prime",
            kind=ErratumKind.ILL_FORMED,
            wrong="u(x, r') - u(y, r') outside the sums over r'",
            counterexample="|R| = 3, eps = Delta u = 1, u(x, .) = (1, 0, 0), u(y, .) = "
            "(0, 0, 0), r = r_1, r' = r_2: 1.355588 (with r) vs 0.822206 (with r')",
            correction="exp(eps (u(x, r) - u(y, r))/(2 Delta u))",
            corrected="exponential-mechanism",
            check_correction=c.exp_line2_as_meant,
        ),
    ),
    _expo(
        "expo-step-bound",
        "\\leq \\exp (\\frac{\\varepsilon}{2}) \\cdot \\exp (\\frac{\\varepsilon}{2}) \\cdot ...",
        "The first factor is at most e^(eps/2) and the sum over y at most e^(eps/2) times the "
        "sum over x.",
        "steps 3-4 (proved from the sensitivity hypotheses per term); valid even from the "
        "printed line with r', since |u(x, r') - u(y, r')| <= Delta u for every r'",
        V.PROVED,
    ),
    _expo(
        "expo-step-final",
        "=\\exp (\\varepsilon)",
        "The bound equals e^eps.",
        "steps 5-6 (proved by the tactics)",
        V.PROVED,
    ),
    _expo(
        "expo-proof-roles",
        "第一项用了敏感度的定义, 第二项对于分子进行了放缩",
        "The first factor uses the sensitivity; the second bounds the numerator's sum.",
        "steps 3 and 4, justified exactly so",
        V.PROVED,
    ),
    _expo(
        "expo-side-termwise",
        "\\leq (\\frac{\\sum_{r^{\\prime}} \\exp (\\frac{\\epsilon(q(D, r^{\\prime})+\\Delta)}"
        "{2 \\Delta})}{...})",
        "Side derivation: sum_r' exp(eps q(D', r')/2 Delta) <= sum_r' exp(eps (q(D, r') + "
        "Delta)/2 Delta), termwise.",
        "step 4 of the catalog chain, in the side derivation's names (q, D, D', Delta for u, x, "
        "y, Delta u)",
        V.PROVED,
    ),
    entry(
        "expo-side-index",
        EXPO,
        "\\sum_{r} \\exp (\\frac{\\epsilon q(D, r^{\\prime})}{2 \\Delta})",
        "Side derivation: = e^(eps/2) sum_r' exp(eps q(D, r')/2 Delta) / sum_r exp(eps q(D, "
        "r')/2 Delta) = e^(eps/2).",
        Method.EXACT,
        V.REFUTED,
        "The denominator sums over r a term in r' (unbound): as printed it is |R| times one "
        "weight, and neither equality holds.",
        check=c.exp_side_index,
        erratum=Erratum(
            id="seed-003-expo-side-index",
            kind=ErratumKind.ILL_FORMED,
            wrong="sum_{r} exp(eps q(D, r')/(2 Delta)) in the last denominator",
            counterexample="|R| = 2, q(D, .) = (0, 1), eps = Delta = 1, r' = r_1: previous "
            "line 1.648721, printed line 2.183502, claimed value e^(1/2) = 1.648721",
            correction="sum_{r'} exp(eps q(D, r')/(2 Delta)), after which the ratio is "
            "exactly e^(eps/2)",
            corrected="exponential-mechanism",
            check_correction=c.exp_side_as_meant,
        ),
    ),
    entry(
        "expo-example-sensitivity",
        EXPO,
        "敏感度显然为1 (差一个人的数据集, 造成的计数最多差1)",
        "Disease example: the score is the count of patients; its sensitivity is 1.",
        Method.EXACT,
        V.CHECKED,
        "Exhaustive over up to 5 people with one of three diseases or none: substituting one "
        "person (the seed's neighbours) or removing one changes every count by at most 1, "
        "and by exactly 1 somewhere. The linked example's numbers are lost in this copy.",
        check=c.disease_sensitivity,
    ),
    entry(
        "expo-example-larger-eps",
        EXPO,
        "\\epsilon 设置的越大, 输出结果为真的概率也越大",
        "The larger eps, the more likely the output is the true (highest-count) answer.",
        Method.SYMBOLIC,
        V.PROVED,
        "SymPy: d/da ln Pr[argmax] = sum_r p_r (u_max - u_r) >= 0 with a = eps/(2 Delta u) "
        "(|R| = 3); strictly increasing unless all counts tie. 'eps can take values such "
        "as 1' is a choice, nothing to check.",
        check=c.larger_eps_more_truth,
    ),
)

ENTRIES: tuple[Entry, ...] = LAPLACE_ENTRIES + EXPO_ENTRIES
