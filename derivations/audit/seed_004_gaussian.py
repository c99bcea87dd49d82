"""Seed 004, sections 4.2, 4.3, 4.5 and 4.6: G_mu, the Gaussian mechanism and its proof, the
conversion to (eps, delta)-DP and group privacy.  Checks in
:mod:`derivations.audit.seed_004_gaussian_checks`."""

from __future__ import annotations

from derivations.audit import seed_004_gaussian_checks as c
from derivations.audit.seed_004_tools import SEED
from symbolic.audit import AuditVerdict, Entry, Erratum, ErratumKind, Method

S42 = "4.2 高斯机制的定义"
S43 = "4.3 添加高斯噪声"
S45 = "4.5 高斯机制和 (ε, δ)-dp 之间的转换关系"
S46 = "4.6 组隐私"

V = AuditVerdict
_SEED = SEED.split("_")[0]

GMU_SIGN = Erratum(
    id="seed-004-gmu-formula-mu-sign",
    kind=ErratumKind.MISSING_HYPOTHESIS,
    wrong=(
        "G_mu := T(N(0,1), N(mu,1)) and G_mu(alpha) = Phi(Phi^-1(1 - alpha) - mu) are stated "
        "without mu >= 0; for mu < 0 the formula is not T(N(0,1), N(mu,1)) (which is G_|mu|) "
        "and not even a trade-off function (it exceeds 1 - alpha)."
    ),
    counterexample=(
        "mu = -1, alpha = 0.5: the formula gives Phi(1) = 0.8413 > 1 - alpha = 0.5 (the "
        "engine refutes 'formula <= 1 - alpha' on mu in (-5, 5)), while T(N(0,1), N(-1,1))(0.5) "
        "= 0.1587 (binned Neyman-Pearson curve, an upper bound of the true value)."
    ),
    correction="For mu >= 0, G_mu := T(N(0,1), N(mu,1)) = Phi(Phi^-1(1 - alpha) - mu).",
    check_correction=c.gmu_formula_nonnegative_mu,
)

SENSITIVITY = Erratum(
    id="seed-004-sensitivity-neighbours",
    kind=ErratumKind.MISSING_HYPOTHESIS,
    wrong=(
        "sens(theta) = sup_{S,S'} |theta(S) - theta(S')| takes the supremum over all pairs of "
        "data sets, which is the diameter of theta's range, not the global sensitivity the "
        "text says it is (the supremum over neighbouring S, S')."
    ),
    counterexample=(
        "The counting query on data sets of 5 binary records: the printed supremum is 5, the "
        "global sensitivity 1.  With the printed value the noise is 5 times larger than "
        "needed (the mechanism stays mu-GDP, but the calibration is not the theorem's)."
    ),
    correction="sens(theta) = sup over neighbouring S, S' of |theta(S) - theta(S')|.",
    check_correction=c.sensitivity_corrected,
)

LOWERCASE_S = Erratum(
    id="seed-004-proof-lowercase-s",
    kind=ErratumKind.ILL_FORMED,
    wrong=(
        "Three displays of the proof write theta(s') with a lowercase s' that is bound "
        "nowhere: T(M(S),M(S')) = G_{|theta(S) - theta(s')|/sigma}."
    ),
    counterexample=(
        "Read with s' free, the display fails: theta(S) = 0, theta(S') = 1, sigma = 1 and "
        "theta(s') = 0 give T(M(S), M(S'))(0.5) = 0.1587 but G_0(0.5) = 0.5."
    ),
    correction="Read theta(S'): T(M(S), M(S')) = G_{|theta(S) - theta(S')|/sigma}.",
    check_correction=c.standardized_pair_any_sign,
)

_BINNED = (
    "the Neyman-Pearson curve of N(0,1) and N(d,1) binned in cells of width 0.02 (an upper "
    "bound on the true trade-off function, within 0.01 of it) at 6 alphas, 20 digits"
)

ENTRIES: tuple[Entry, ...] = (
    Entry(
        id="seed-004-gmu-formula",
        seed=_SEED,
        section=S42,
        quote="G_μ:=T(N(0,1),N(μ,1)) … G_μ(α)=Φ(Φ^{-1}(1−α)−μ)",
        claim="G_mu = T(N(0,1), N(mu,1)) has the closed form Phi(Phi^-1(1 - alpha) - mu).",
        method=Method.DERIVATION,
        verdict=V.REFUTED,
        detail=(
            "As written (mu unrestricted): the claim 'Phi(PhiInv(1 - alpha) - mu) <= 1 - alpha' "
            "built with parse_claim is refuted by the engine at mu = -1, and " + _BINNED + " "
            "at d = -1 is far below the formula.  For mu in {0, 0.5, 2} the formula matches."
        ),
        check=c.gmu_formula_any_mu,
        erratum=GMU_SIGN,
        readings=(
            "Literal: mu any real (no condition is given in 4.2).  The notes use mu >= 0 "
            "implicitly (mu-GDP; section 4.6 says '令 μ ≥ 0'), under which the formula holds."
        ),
    ),
    Entry(
        id="seed-004-normal-cdf",
        seed=_SEED,
        section=S42,
        quote="Φ(x)=1/2[1+erf((x−μ)/(σ√2))]",
        claim="The CDF of N(mu, sigma^2) is (1 + erf((x - mu)/(sigma sqrt 2)))/2.",
        method=Method.SYMBOLIC,
        verdict=V.PROVED,
        detail="SymPy: its derivative is the N(mu, sigma^2) density and its limit at -oo is 0.",
        check=c.normal_cdf_formula,
        readings=(
            "The display reuses Phi (the standard normal CDF) and mu (the GDP parameter) for "
            "the CDF of N(mu, sigma^2), which is Phi((x - mu)/sigma); '累积密度函数' means the "
            "cumulative distribution function."
        ),
    ),
    Entry(
        id="seed-004-gmu-decreasing",
        seed=_SEED,
        section=S42,
        quote="当 α 固定时,值随着 μ 的增加而递减",
        claim="For fixed alpha, G_mu(alpha) decreases as mu increases.",
        method=Method.DERIVATION,
        verdict=V.PROVED,
        detail=(
            "Claim file: mu1 <= mu2 implies Phi(PhiInv(1-alpha) - mu2) <= "
            "Phi(PhiInv(1-alpha) - mu1) on mu in [0, 10], alpha in (0, 1): proved by the engine "
            "(monotonicity of Phi, then the hypothesis).  Strictly decreasing for alpha in "
            "(0, 1); constant at alpha = 0 and 1."
        ),
        check=c.gmu_decreasing,
    ),
    Entry(
        id="seed-004-gdp-definition",
        seed=_SEED,
        section=S42,
        quote="如果对于任意的邻近数据集 S 和 S‘,均有: T(M(S),M(S')) ≥ G_μ 则称:机制 M 符合 μ-GDP",
        claim="Definition of mu-GDP.",
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail="A definition (f-DP with f = G_mu).",
    ),
    Entry(
        id="seed-004-gdp-interpretation",
        seed=_SEED,
        section=S42,
        quote="μ越大,相同 I 类错误 α 的前提下,II 类错误 β 就越小,攻击者就越容易分辨 S 和 S’",
        claim="Larger mu: smaller least type II error at the same alpha, weaker privacy.",
        method=Method.DERIVATION,
        verdict=V.PROVED,
        detail="The monotonicity of seed-004-gmu-decreasing, proved by the engine.",
        check=c.gmu_decreasing,
    ),
    Entry(
        id="seed-004-sensitivity-definition",
        seed=_SEED,
        section=S43,
        quote="sens(θ)=sup_{S,S'}|θ(S)−θ(S')| … 敏感度为全局敏感度",
        claim="sens(theta), the supremum over S, S', is the global sensitivity.",
        method=Method.EXACT,
        verdict=V.REFUTED,
        detail=(
            "Exhaustive over the 32 data sets of 5 binary records, counting query: the "
            "printed supremum (all pairs) is 5, the supremum over neighbours (one record "
            "replaced) is 1."
        ),
        check=c.sensitivity_as_printed,
        erratum=SENSITIVITY,
        readings=(
            "Literal: the supremum over all pairs S, S'.  Intended (Dong, Roth & Su, Theorem "
            "2.7): over neighbouring S, S'.  The seed never defines neighbours; one record "
            "replaced is used, as in section 4.6."
        ),
    ),
    Entry(
        id="seed-004-gaussian-mechanism-gdp",
        seed=_SEED,
        section=S43,
        quote="M(S)=θ(S)+ξ, ξ∼N(0,sens(θ)^2/μ^2) 则 M 符合 μ-GDP",
        claim="Adding N(0, sens^2/mu^2) noise to theta is mu-GDP.",
        method=Method.DERIVATION,
        verdict=V.PROVED,
        detail=(
            "Catalog gdp-gaussian-mechanism (Theorem 2.7): proved; the trade-off of the two "
            "normals is built from the threshold test symbolically, monotonicity and "
            "sigma = sens/mu proved; its oracle agrees."
        ),
        derivations=("gdp-gaussian-mechanism",),
    ),
    Entry(
        id="seed-004-proof-lowercase-s",
        seed=_SEED,
        section=S43,
        quote="T(M(S),M(S'))=G_{|θ(S)−θ(s')|/σ} ≥ G_μ",
        claim="The proof's displays with theta(s') (lowercase s').",
        method=Method.EXACT,
        verdict=V.REFUTED,
        detail=(
            "With s' free the first display fails: "
            + _BINNED
            + " at d = 1 gives 0.1587 at alpha = 0.5, against G_0(0.5) = 0.5."
        ),
        check=c.lowercase_s_as_printed,
        erratum=LOWERCASE_S,
        readings="Literal: s' a free data set.  Intended: S' (checked in the correction).",
    ),
    Entry(
        id="seed-004-proof-output-law",
        seed=_SEED,
        section=S43,
        quote="let σ^2=sens(θ)^2/μ^2, T(M(S),M(S'))=T(N(θ(S),σ^2),N(θ(S'),σ^2)",
        claim="M(S) = theta(S) + xi has the law N(theta(S), sigma^2).",
        method=Method.SYMBOLIC,
        verdict=V.PROVED,
        detail=(
            "SymPy: the density of theta + xi, f_xi(x - theta), equals the N(theta, sigma^2) "
            "density identically.  (The display misses a closing parenthesis.)"
        ),
        check=c.output_law,
    ),
    Entry(
        id="seed-004-proof-standardize",
        seed=_SEED,
        section=S43,
        quote="N(θ(S'),σ^2) 将转化为 N((θ(S’)−θ(S))/σ,1)",
        claim="Standardising by z = (x - theta(S))/sigma maps the pair to N(0,1), N(d,1).",
        method=Method.SYMBOLIC,
        verdict=V.PROVED,
        detail=(
            "SymPy: sigma f_{N(theta', sigma^2)}(sigma z + theta) is identically the "
            "N((theta' - theta)/sigma, 1) density; a bijection leaves T unchanged."
        ),
        check=c.output_law,
    ),
    Entry(
        id="seed-004-proof-absolute-value",
        seed=_SEED,
        section=S43,
        quote="T(N(θ(S),σ^2),N(θ(S'),σ^2)=G_{|θ(S)−θ(s')|/σ}",
        claim="T(N(0,1), N(d,1)) = G_|d|, whatever the sign of d.",
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail=(
            _BINNED + " at d = -1.5, -0.3, 0.7 lies above G_|d| and within 0.01 of it.  For "
            "d < 0 the step also needs the reflection x -> -x, which the text leaves implicit."
        ),
        check=c.standardized_pair_any_sign,
        readings="theta(s') read as theta(S') (see seed-004-proof-lowercase-s).",
    ),
    Entry(
        id="seed-004-proof-bound",
        seed=_SEED,
        section=S43,
        quote="|θ(S)−θ(s')|/σ ≤ sens(θ)/σ = μ",
        claim="For neighbours, |theta(S) - theta(S')|/sigma <= sens/sigma = mu.",
        method=Method.DERIVATION,
        verdict=V.PROVED,
        detail=(
            "The inequality is the definition of sens as a supremum over neighbours; the "
            "equality sens/sigma = mu with sigma = sens/mu is proved by the engine (claim file)."
        ),
        check=c.sigma_calibration,
        readings=(
            "theta(s') read as theta(S'); sens over neighbours (seed-004-sensitivity-definition)."
        ),
    ),
    Entry(
        id="seed-004-proof-monotone-step",
        seed=_SEED,
        section=S43,
        quote="根据 μ-GDP 的递减性质,可以得到:",
        claim="By monotonicity in mu, G_{|theta(S)-theta(S')|/sigma} >= G_mu.",
        method=Method.DERIVATION,
        verdict=V.PROVED,
        detail=(
            "The display after '可以得到' is missing from the text; the step it announces is "
            "the monotonicity of seed-004-gmu-decreasing, proved by the engine."
        ),
        check=c.gmu_decreasing,
    ),
    Entry(
        id="seed-004-gdp-to-dp",
        seed=_SEED,
        section=S45,
        quote="机制 M 是 μ-GDP,当且仅当它符合 (ε, δ(ε) )-DP … δ(ϵ)=Φ(−ϵ/μ+μ/2)−e^ϵΦ(−ϵ/μ−μ/2)",
        claim="mu-GDP implies (eps, delta(eps))-DP for every eps >= 0 (the 'only if').",
        method=Method.DERIVATION,
        verdict=V.PROVED,
        detail=(
            "Catalog gdp-to-dp (Corollary 2.13): proved, 5/5 steps (the likelihood-ratio "
            "step by integrating the densities over the rejection region); its oracle agrees "
            "to >= 45 digits."
        ),
        derivations=("gdp-to-dp",),
    ),
    Entry(
        id="seed-004-dp-to-gdp",
        seed=_SEED,
        section=S45,
        quote="当且仅当它符合 (ε, δ(ε) )-DP",
        claim="(eps, delta(eps))-DP for every eps >= 0 implies mu-GDP (the 'if').",
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail=(
            "Such a mechanism has T >= sup_eps f_{eps, delta(eps)} (section 4.1); the supremum, "
            "by golden-section search in eps with the seed's delta(eps), equals G_mu to 1e-12 "
            "or better at mu in {0.3, 1, 2.5} and 4 alphas, 30 digits."
        ),
        check=c.dp_to_gdp,
    ),
    Entry(
        id="seed-004-k-neighbours",
        seed=_SEED,
        section=S46,
        quote="S=S0, S1, …, Sk = S’ … S 和 S‘ 之间最多有 k 个不同个体的差异",
        claim="Data sets joined by a chain of k neighbours differ in at most k individuals.",
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail=(
            "Exhaustive on data sets of 3 records with 2 or 3 values, k = 2, 3, neighbours = "
            "one record replaced: every k-chain ends within Hamming distance k."
        ),
        check=c.k_neighbours,
        readings=(
            "'也就是说' could also mean the converse (at most k differences implies a chain "
            "of exactly k neighbours): it holds with 3 values per record but fails for binary "
            "records (parity), unless a data set counts as its own neighbour."
        ),
    ),
    Entry(
        id="seed-004-group-definition",
        seed=_SEED,
        section=S46,
        quote="对于规模为 k 的组,机制 M 符合 f - DP, 如果对于所有的 k-邻近数据集 S 和 S’,都有…",
        claim="Definition of f-DP for groups of size k.",
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail="A definition.",
    ),
    Entry(
        id="seed-004-group-privacy",
        seed=_SEED,
        section=S46,
        quote="如果一个机制是 f-DP,那么对于规模为 k 的组,它将是:[1−(1−f)^{∘k}]-DP 的",
        claim="An f-DP mechanism is [1 - (1 - f)^{o k}]-DP for groups of size k.",
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail=(
            "60 random chains P_0, ..., P_k (k = 2, 3, mixtures of two rational laws) with f "
            "the convex minorant of all T(P_i, P_i+1) and T(P_i+1, P_i): T(P_0, P_k) >= "
            "1 - (1 - f)^{o k} exactly at 41 grid points and T's breakpoints."
        ),
        check=c.group_privacy_general,
    ),
    Entry(
        id="seed-004-group-iterate",
        seed=_SEED,
        section=S46,
        quote="(1−f)^{∘1}=(1−f), (1−f)^{∘2}=1−f(1−f(x))",
        claim="(1 - f) composed with itself is x -> 1 - f(1 - f(x)).",
        method=Method.SYMBOLIC,
        verdict=V.PROVED,
        detail="SymPy with an undefined function f: the residual is 0.",
        check=c.iterate_notation,
    ),
    Entry(
        id="seed-004-group-gdp",
        seed=_SEED,
        section=S46,
        quote="如果一个机制是 μ-GDP,那么对于规模为 k 的组,它将是:kμ-GDP 的",
        claim="A mu-GDP mechanism is k mu-GDP for groups of size k.",
        method=Method.DERIVATION,
        verdict=V.PROVED,
        detail=(
            "Catalog gdp-group-privacy: proved by induction on k (base case k = 1 proved; "
            "the step unfolds one application of the iterate and uses the hypothesis at k - 1)."
        ),
        derivations=("gdp-group-privacy",),
    ),
    Entry(
        id="seed-004-group-laplace-limit",
        seed=_SEED,
        section=S46,
        quote="令 μ≥0, 且 ε=μ/k,当 k 趋向于 ∞ 时,有: 1−(1−f_{ϵ,0})^{∘k} → T(Lap(0,1),Lap(μ,1))",
        claim="With eps = mu/k, 1 - (1 - f_{eps,0})^{o k} tends to T(Lap(0,1), Lap(mu,1)).",
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail=(
            "Sup gap over 101 alphas at k = 1, 2, 5, 20, 100 for mu = 0.5, 1, 3 (20 digits): "
            "decreasing in k, about 1/k^2, below 1e-3 at k = 100 (mu = 3: 0.202, 0.115, "
            "0.0175, 6.5e-4, 3.5e-5).  A limit cannot be shown numerically; the trend is."
        ),
        check=c.laplace_limit,
    ),
    Entry(
        id="seed-004-group-laplace-small-k",
        seed=_SEED,
        section=S46,
        quote="这个近似是比较准确的,即使当 k 很小的时候,精度也比较高",
        claim="The approximation is accurate even for small k.",
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail=(
            "No accuracy is stated.  Measured by seed-004-group-laplace-limit: the sup error at "
            "k = 1 is 0.023 (mu = 0.5), 0.072 (mu = 1), 0.20 (mu = 3); at k = 2 0.0065, 0.023, "
            "0.115; at k = 5 below 0.02.  'Accurate at small k' holds for small mu or k >= 5, "
            "not for k <= 2 at mu = 3."
        ),
    ),
)
