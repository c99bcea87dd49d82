"""Seed 004, sections 五 and 5.1-5.3: the composition set-up, tensor products, the
composition theorem, the central limit theorem and the (eps, delta) approximation.  Checks in
:mod:`derivations.audit.seed_004_composition_checks`."""

from __future__ import annotations

from derivations.audit import seed_004_composition_checks as c
from derivations.audit.seed_004_tools import SEED
from symbolic.audit import AuditVerdict, Entry, Erratum, ErratumKind, Method

S5 = "五、组合定理"
S51 = "5.1 一般组合定理"
S52 = "5.2 中心极限定理"
S53 = "5.3 对 (ε, δ)-DP 的近似"

V = AuditVerdict
_SEED = SEED.split("_")[0]

KAPPA3 = Erratum(
    id="seed-004-clt-kappa3-hypothesis",
    kind=ErratumKind.FALSE,
    wrong=(
        "'令 f1,…,fn 是对称的权衡函数,则 κ3(fi) < ∞' states as a consequence ('then') what "
        "Dong, Roth & Su assume (Theorem 3.4: symmetric trade-off functions 'such that' "
        "kappa_3(f_i) < oo).  Symmetric trade-off functions can have kappa_3 = oo."
    ),
    counterexample=(
        "f_{0, 1/10}(alpha) = max(0, 0.9 - alpha) is symmetric (f^-1 = f, exactly) but "
        "|f'| = 0 on (0.9, 1], so log|f'| = -oo there and kappa_3 = oo."
    ),
    correction="Let f_1, ..., f_n be symmetric trade-off functions with kappa_3(f_i) < oo.",
    check_correction=c.berry_esseen_with_kappa3,
)

CLT_LIMIT = Erratum(
    id="seed-004-clt-limit-conditions",
    kind=ErratumKind.MISSING_HYPOTHESIS,
    wrong=(
        "The limit theorem keeps only sum kl(f_ni) -> K and sum kappa_2(f_ni) -> s^2; Dong, "
        "Roth & Su (Theorem 3.5) also need symmetric f_ni, max_i kl(f_ni) -> 0 and "
        "sum kappa_3(f_ni) -> 0 (no single factor may dominate)."
    ),
    counterexample=(
        "f_n1 = f_{3,0} and f_ni = Id for i >= 2 (all symmetric): sum kl = 3 tanh(3/2) = "
        "2.715 = K and sum kappa_2 = 9 = s^2 for every n, but the product is f_{3,0} for every "
        "n: at alpha = 0.05 it is 0.0473 while G_{2K/s} = G_1.810 gives 0.434 (sup gap 0.39)."
    ),
    correction=(
        "Add max_i kl(f_ni) -> 0 and sum_i kappa_3(f_ni) -> 0 (and symmetric f_ni); then the "
        "limit is G_{2K/s} uniformly in alpha."
    ),
    check_correction=c.clt_limit_corrected,
)

ENTRIES: tuple[Entry, ...] = (
    Entry(
        id="seed-004-composition-setup",
        seed=_SEED,
        section=S5,
        quote="M(S)=(y1,M2(S,y1)), y1=M1(S) … M_i : X × Y_1 × … × Y_i-1 → Y_i",
        claim="Definition of the adaptive composition of M_1, ..., M_n.",
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail=(
            "A definition.  Typesetting: 'MXY1×Y2' lost its colon, and 'Y_i-1' renders as "
            "Y_i - 1 (meant Y_{i-1})."
        ),
    ),
    Entry(
        id="seed-004-markov-remark",
        seed=_SEED,
        section=S5,
        quote="这种类马尔可夫链的形式,使得我们可以直接运用相关的数学工具来进行分析",
        claim="The Markov-chain-like form lets one use related mathematical tools.",
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail="A remark without a statement.",
    ),
    Entry(
        id="seed-004-tensor-properties",
        seed=_SEED,
        section=S51,
        quote="f⊗g:=T(P×P′,Q×Q′) … ⊗ 符号符合交换律和结合律 … (f⊗g)^{-1}=f^{-1}⊗g^{-1}",
        claim=(
            "f (x) g is well defined and a trade-off function; (x) is commutative and "
            "associative; g1 >= g2 implies f (x) g1 >= f (x) g2; f (x) Id = Id (x) f; "
            "(f (x) g)^-1 = f^-1 (x) g^-1."
        ),
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail=(
            "40 random triples of rational pairs, exact at all breakpoints: the same "
            "f (x) g from a different pair representing f and g (atoms split), the four "
            "properties of a trade-off function, commutativity, associativity, "
            "monotonicity (g1 a post-processing of g2's pair), f (x) Id = Id (x) f = f, and the "
            "inverse rule."
        ),
        check=c.tensor_properties,
        readings=(
            "The seed writes f (x) Id = Id (x) f (true by commutativity); Dong, Roth & Su state "
            "f (x) Id = Id (x) f = f, which is also checked."
        ),
    ),
    Entry(
        id="seed-004-identity-same-law",
        seed=_SEED,
        section=S51,
        quote="Id 可以看作是两个相同分布的权衡函数",
        claim="Id(x) = 1 - x is T(P, P) for any P.",
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail="T(P, P) = 1 - alpha exactly for 40 random rational laws P on 1-6 outcomes.",
        check=c.identity_is_same_law,
    ),
    Entry(
        id="seed-004-composition-theorem",
        seed=_SEED,
        section=S51,
        quote="M: X→Y_1×Y_2×…Y_{i−1} is f_1⊗f_2⊗…f_n-DP",
        claim="If each M_i(., y_1..y_i-1) is f_i-DP, the composition is f_1 (x) ... (x) f_n-DP.",
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail=(
            "60 random adaptive two-step mechanisms on a pair of neighbours (M_2's law "
            "depends on y_1 through a channel applied to a fixed f_2 pair): the joint "
            "trade-off function dominates f_1 (x) f_2, exactly at all breakpoints."
        ),
        check=c.composition_theorem,
        readings=(
            "The codomain is printed as Y_1 x ... Y_{i-1} with i unbound; read Y_1 x ... x "
            "Y_n.  Under the reading i = n (the first n - 1 outputs) the claim stays true, "
            "since f_n <= Id and (x) is monotone, so no erratum."
        ),
    ),
    Entry(
        id="seed-004-composition-tight",
        seed=_SEED,
        section=S51,
        quote="这个定理符合①封闭性;②严紧性 … 是一个紧界,一般来说不存在优化的空间了",
        claim="The composition bound is closed (stays in f-DP) and tight.",
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail=(
            "In the same 60 instances the non-adaptive product mechanism (M_i(S) = P_i, "
            "M_i(S') = Q_i) attains f_1 (x) f_2 exactly, so the bound cannot be improved in "
            "general; closure is the theorem itself."
        ),
        check=c.composition_theorem,
    ),
    Entry(
        id="seed-004-gdp-composition",
        seed=_SEED,
        section=S51,
        quote="G_{μ1}⊗G_{μ2}⊗…G_{μn}=G_μ, μ=sqrt(μ1^2+μ2^2+…+μn^2)",
        claim="G_mu1 (x) ... (x) G_mun = G_sqrt(mu1^2 + ... + mun^2).",
        method=Method.DERIVATION,
        verdict=V.PROVED,
        detail=(
            "Catalog gdp-composition (Corollary 3.3): proved for every number k of factors, "
            "from the foundations Neyman-Pearson (the most powerful tests of N(0, I_k) "
            "against N(mu, I_k) are the half-spaces <mu, x> > c) and rotation invariance "
            "(<mu, X> is normal with variance sum mu_i^2); the left side is spot-checked "
            "against the most powerful test of the product, integrated over one coordinate."
        ),
        derivations=("gdp-composition",),
    ),
    Entry(
        id="seed-004-gdp-composition-mechanisms",
        seed=_SEED,
        section=S51,
        quote="n 个 μi-GDP 的组合机制是 sqrt(μ1^2+μ2^2+…+μn^2)-GDP",
        claim="Composing mu_i-GDP mechanisms gives sqrt(sum mu_i^2)-GDP.",
        method=Method.DERIVATION,
        verdict=V.CHECKED,
        detail="The composition theorem (seed-004-composition-theorem) with gdp-composition.",
        derivations=("gdp-composition",),
    ),
    Entry(
        id="seed-004-clt-motivation",
        seed=_SEED,
        section=S52,
        quote="对于一般的 fi-DP 组合机制,其最终的表达式往往是难以求解的",
        claim="For general f_i the composed trade-off function is hard to compute.",
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail="A motivation; 'hard to compute' is not made precise.",
    ),
    Entry(
        id="seed-004-clt-classical",
        seed=_SEED,
        section=S52,
        quote="对于独立并同样分布的随机变量,…标准化样本均值的抽样分布也趋向于标准正态分布",
        claim="For i.i.d. variables the standardised sample mean tends to N(0, 1).",
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail=(
            "Exact Kolmogorov distance of the standardised Binomial(n, 0.3) to Phi at n = 10, "
            "100, 1000 (25 digits): 0.150, 0.049, 0.016, falling like 1/sqrt n.  (True for "
            "finite variance, which '在许多情况下' leaves implicit.)"
        ),
        check=c.classical_clt,
    ),
    Entry(
        id="seed-004-clt-functionals",
        seed=_SEED,
        section=S52,
        quote="kl(f):=−∫_0^1 log|f′(x)|dx, κ2(f):=∫_0^1 log^2|f′(x)|dx, κ3, κ3‾",
        claim="Definitions of kl, kappa_2, kappa_3 and bar kappa_3.",
        method=Method.DERIVATION,
        verdict=V.PROVED,
        detail=(
            "Definitions, as in Dong, Roth & Su; the catalog computes them for f_{eps,0} "
            "(eps-tradeoff-kl, -kappa2, -kappa3, -kappa3-bar: proved).  'κ3‾' lacks its "
            "argument (f)."
        ),
        derivations=(
            "eps-tradeoff-kl",
            "eps-tradeoff-kappa2",
            "eps-tradeoff-kappa3",
            "eps-tradeoff-kappa3-bar",
        ),
    ),
    Entry(
        id="seed-004-clt-kappa3-hypothesis",
        seed=_SEED,
        section=S52,
        quote="令 f1,…,fn 是对称的权衡函数,则 κ3(fi)<∞ for all 1≤i≤n",
        claim="Symmetric trade-off functions have kappa_3 < oo.",
        method=Method.EXACT,
        verdict=V.REFUTED,
        detail=(
            "f_{0, 1/10}: f^-1 = f exactly (rational curves) and kappa_3 computed from its "
            "Neyman-Pearson curve is +oo."
        ),
        check=c.kappa3_as_written,
        erratum=KAPPA3,
        readings="Literal: '则' (then) makes kappa_3 < oo a conclusion; intended: a hypothesis.",
    ),
    Entry(
        id="seed-004-clt-berry-esseen",
        seed=_SEED,
        section=S52,
        quote="假设 γ<1/2, 对于所有的 α∈[γ,1−γ],有: G_μ(α+γ)−γ ≤ f1⊗f2⊗…⊗fn(α) ≤ G_μ(α−γ)+γ",
        claim="The Berry-Esseen sandwich of f_1 (x) ... (x) f_n with the stated mu and gamma.",
        method=Method.DERIVATION,
        verdict=V.CHECKED,
        detail=(
            "Catalog gdp-clt-berry-esseen: checked against the exact binomial trade-off "
            "(n <= 400); mu and gamma as the seed defines them."
        ),
        derivations=("gdp-clt-berry-esseen",),
    ),
    Entry(
        id="seed-004-clt-limit",
        seed=_SEED,
        section=S52,
        quote="lim f_{n1}⊗…f_{nn}(α)=G_{2K/s}(α), with Σkl(f_{ni})→K; Σκ2(f_{ni})→s^2",
        claim="If sum kl -> K and sum kappa_2 -> s^2, the products tend to G_{2K/s}.",
        method=Method.EXACT,
        verdict=V.REFUTED,
        detail=(
            "The array f_n1 = f_{3,0}, f_ni = Id meets both stated conditions (functionals "
            "computed from the Neyman-Pearson curves) but its product is f_{3,0} for every n, "
            "0.39 away from G_{2K/s} in sup norm (101 alphas, 20 digits)."
        ),
        check=c.clt_limit_as_written,
        erratum=CLT_LIMIT,
    ),
    Entry(
        id="seed-004-approx-rewrite",
        seed=_SEED,
        section=S53,
        quote="f_{ϵ1,δ1}⊗f_{ϵ2,δ2}⊗…⊗f_{ϵn,δn}(α)",
        claim="(The expression to approximate; no statement.)",
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail="An expression, not a statement.",
    ),
    Entry(
        id="seed-004-eps-delta-split",
        seed=_SEED,
        section=S53,
        quote="f_{ϵ,δ}=f_{ϵ,0}⊗f_{0,δ}",
        claim="f_{eps,delta} = f_{eps,0} (x) f_{0,delta}.",
        method=Method.DERIVATION,
        verdict=V.PROVED,
        detail="Catalog tradeoff-eps-delta-split: proved (Neyman-Pearson on the product pair, "
        "built symbolically).",
        derivations=("tradeoff-eps-delta-split",),
    ),
    Entry(
        id="seed-004-regroup",
        seed=_SEED,
        section=S53,
        quote="f_{ϵ1,δ1}⊗…⊗f_{ϵn,δn}=(f_{ϵ1,0}⊗…⊗f_{ϵn,0})⊗(f_{0,δ1}⊗…⊗f_{0,δn})",
        claim="The product regroups into an eps part and a delta part.",
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail=(
            "20 random instances with n = 2, 3, rational e^eps_i in [1, 4] and delta_i in "
            "[0, 1/4] (so every pair is rational): both sides equal at every breakpoint."
        ),
        check=c.regroup,
        readings="'ϵ1' without subscript in the first factor is a typesetting slip.",
    ),
    Entry(
        id="seed-004-eps-part-gaussian",
        seed=_SEED,
        section=S53,
        quote="前者套用上面的结论,近似为 G_{sqrt(ϵ1^2+…+ϵn^2)}",
        claim="f_{eps_1,0} (x) ... (x) f_{eps_n,0} is approximately G_sqrt(sum eps_i^2).",
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail=(
            "Exact binomial curves against G_mu, eps = mu/sqrt n, sup over 101 alphas: mu = 1 "
            "gives 0.127 (n = 1), 0.0123 (n = 10), 0.00117 (n = 100); mu = 2 gives 0.331, "
            "0.0352, 0.0023: good for many small eps_i, poor for a few large ones.  The CLT's "
            "own mu (n = 10, eps = 1/sqrt 10) is 1.0042, against sqrt(sum eps^2) = 1."
        ),
        check=c.eps_part_gaussian,
    ),
    Entry(
        id="seed-004-delta-part",
        seed=_SEED,
        section=S53,
        quote="后面那项可以化简为 f_{0,1−(1−δ1)(1−δ2)…(1−δn)}",
        claim="f_{0,delta_1} (x) ... (x) f_{0,delta_n} = f_{0, 1 - prod(1 - delta_i)}.",
        method=Method.DERIVATION,
        verdict=V.PROVED,
        detail="Catalog tradeoff-zero-eps-composition: proved for every n.",
        derivations=("tradeoff-zero-eps-composition",),
    ),
    Entry(
        id="seed-004-approx-limit",
        seed=_SEED,
        section=S53,
        quote="f_{ϵn1,δn,1}⊗…⊗f_{ϵnn,δnn} → G_μ⊗f_{0,1−e^{−δ}}",
        claim="Under the four limits, the product tends to G_mu (x) f_{0, 1 - e^-delta}.",
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail=(
            "eps_ni = 1/sqrt n, delta_ni = 0.1/n: the exact product of n four-point pairs "
            "against G_1 (x) f_{0, 1 - e^-0.1} (the tensor with f_{0,d} is (1-d) f(alpha/(1-d)), "
            "itself checked on a finite f), sup over 101 alphas: 0.0104, 0.0036, 0.0011 at "
            "n = 10, 30, 100."
        ),
        check=c.final_limit,
    ),
)
