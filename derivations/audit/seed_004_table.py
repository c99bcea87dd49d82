"""Seed 004, section 六: the summary table, row by row.  Most rows repeat statements audited
earlier and reuse those checks; the classical Gaussian mechanism appears only here."""

from __future__ import annotations

import mpmath

from derivations.audit import seed_004_fdp_checks as fdp
from derivations.audit import seed_004_gaussian_checks as gauss
from derivations.audit import seed_004_review_checks as review
from derivations.audit.seed_004_tools import SEED
from derivations.gaussian_mechanism import classical_sigma
from numeric_checks.dp.gaussian import profile_closed_form
from symbolic.audit import AuditVerdict, Entry, Erratum, ErratumKind, Method, Outcome

S6 = "六、整理"

V = AuditVerdict
_SEED = SEED.split("_")[0]


def classical_within_eps_at_most_1() -> Outcome:
    """The exact privacy profile of the classical calibration stays below delta for eps <= 1."""
    worst = mpmath.mpf(0)
    with mpmath.workdps(30):
        for e in ("0.05", "0.5", "1"):
            for d in ("1e-12", "1e-5", "0.01", "0.2"):
                sigma = classical_sigma(mpmath.mpf(e), mpmath.mpf(d))
                worst = max(worst, profile_closed_form(1 / sigma, mpmath.mpf(e)) / mpmath.mpf(d))
    return Outcome(
        worst <= 1,
        f"max over eps in {{0.05, 0.5, 1}}, delta in {{1e-12, 1e-5, 0.01, 0.2}} of the exact "
        f"delta(eps) of sigma = sqrt(2 ln(1.25/delta))/eps, divided by delta: "
        f"{mpmath.nstr(worst, 4)}",
    )


TABLE_KL = Erratum(
    id="seed-004-table-kl-divergence",
    kind=ErratumKind.FALSE,
    wrong=(
        "The table gives 'KL-Divergence: D_KL(P||...' as the idea behind (eps, delta)-DP (the "
        "cell is cut off in the text); (eps, delta)-DP bounds the hockey-stick divergence, and "
        "KL does not determine it (as in seed-004-dp-from-relative-entropy)."
    ),
    counterexample=(
        "((999, 1)/1000, (9, 1)/10) has smaller KL in both directions (0.0996, 0.367) than "
        "randomized response at eps = 1 (0.462), yet is not (1, delta)-DP for delta < 0.0973 "
        "while randomized response is (1, 0)-DP."
    ),
    correction="Idea of (eps, delta)-DP: sup_S P(S) - e^eps Q(S) <= delta (max divergence).",
    check_correction=review.dp_is_hockey_stick,
)

TABLE_GMU = Erratum(
    id="seed-004-table-gmu-mu-sign",
    kind=ErratumKind.MISSING_HYPOTHESIS,
    wrong="The table repeats G_mu(alpha) = Phi(Phi^-1(1 - alpha) - mu) without mu >= 0.",
    counterexample="mu = -1, alpha = 0.5: Phi(1) = 0.8413 > 1 - alpha (see seed-004-gmu-formula).",
    correction="G_mu := T(N(0,1), N(mu,1)) = Phi(Phi^-1(1 - alpha) - mu) for mu >= 0.",
    check_correction=gauss.gmu_formula_nonnegative_mu,
)

CLASSICAL = Erratum(
    id="seed-004-table-classical-gaussian-eps",
    kind=ErratumKind.MISSING_HYPOTHESIS,
    wrong=(
        "M(S) = theta(S) + N(0, 2 sens^2 log(1.25/delta)/eps^2) is said to be (eps, delta)-DP "
        "with no range for eps; Dwork & Roth (Theorem A.1) prove it for eps < 1 only."
    ),
    counterexample=(
        "eps = 10, delta = 1e-5: sigma = 0.4845 sens, and the exact privacy profile of "
        "x + N(0, sigma^2) at eps = 10 is 2.27e-5 > delta (catalog "
        "classical-gaussian-mechanism-any-eps, refuted; also eps = 4, delta = 0.9 gives 0.923)."
    ),
    correction="Add 0 < eps <= 1 (or calibrate sigma exactly, Balle & Wang 2018).",
    as_written="classical-gaussian-mechanism-any-eps",
    corrected="classical-gaussian-mechanism",
    check_correction=classical_within_eps_at_most_1,
)

ENTRIES: tuple[Entry, ...] = (
    Entry(
        id="seed-004-table-tradeoff-idea",
        seed=_SEED,
        section=S6,
        quote="思想 | Trade-Off: T(P,Q)(α)=inf{β_Φ:α_Φ≤α}",
        claim="The idea of f-DP is the trade-off function T(P, Q).",
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail="Repeats section 二's definition; the same check as seed-004-tradeoff-definition.",
        check=review.tradeoff_is_infimum,
    ),
    Entry(
        id="seed-004-table-kl-idea",
        seed=_SEED,
        section=S6,
        quote="$KL-Divergence : D_{KL}(P|",
        claim="The idea of (eps, delta)-DP is the KL divergence.",
        method=Method.FINITE_SEARCH,
        verdict=V.REFUTED,
        detail="The same search and pairs as seed-004-dp-from-relative-entropy.",
        check=review.kl_does_not_determine_dp,
        erratum=TABLE_KL,
        readings="The cell is truncated after 'D_{KL}(P|'; read as 'KL divergence of P and Q'.",
    ),
    Entry(
        id="seed-004-table-definitions",
        seed=_SEED,
        section=S6,
        quote="if: P(M(S)∈E) ≤ e^ϵ P[M(S’)∈E]+δ for all neighboring S and S' then M is (ϵ,δ)-DP",
        claim="The definitions of f-DP and (eps, delta)-DP, restated.",
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail="Definitions (the event E is again not quantified; read 'for every event E').",
    ),
    Entry(
        id="seed-004-table-conversion",
        seed=_SEED,
        section=S6,
        quote="转化 | f_{ϵ,δ}(α)=max{0,1−δ−e^ϵα,e^{−ϵ}(1−δ−α)}",
        claim="(eps, delta)-DP converts to f_{eps,delta}-DP.",
        method=Method.FINITE_SEARCH,
        verdict=V.CHECKED,
        detail="The check of seed-004-eps-delta-tradeoff-equivalence (finite_search).",
        check=fdp.eps_delta_tradeoff_equivalence,
    ),
    Entry(
        id="seed-004-table-gmu-formula",
        seed=_SEED,
        section=S6,
        quote="G_μ:=T(N(0,1),N(μ,1)) G_μ(α)=Φ(Φ^{−1}(1−α)−μ)",
        claim="G_mu and its closed form, as in section 4.2.",
        method=Method.DERIVATION,
        verdict=V.REFUTED,
        detail="The same check as seed-004-gmu-formula (engine refutes at mu = -1).",
        check=gauss.gmu_formula_any_mu,
        erratum=TABLE_GMU,
    ),
    Entry(
        id="seed-004-table-gmu-monotone",
        seed=_SEED,
        section=S6,
        quote="随着 μ 增加而保护性递减",
        claim="Protection decreases as mu increases.",
        method=Method.DERIVATION,
        verdict=V.PROVED,
        detail="The engine proves G_mu(alpha) non-increasing in mu (seed-004-gmu-decreasing).",
        check=gauss.gmu_decreasing,
    ),
    Entry(
        id="seed-004-table-gdp-noise",
        seed=_SEED,
        section=S6,
        quote="M(S)=θ(S)+ξ, ξ∼N(0,sens(θ)^2/μ^2) then M is μ-GDP",
        claim="The Gaussian mechanism with sigma = sens/mu is mu-GDP.",
        method=Method.DERIVATION,
        verdict=V.PROVED,
        detail="Catalog gdp-gaussian-mechanism: proved.",
        derivations=("gdp-gaussian-mechanism",),
    ),
    Entry(
        id="seed-004-table-classical-gaussian",
        seed=_SEED,
        section=S6,
        quote="M(S)=θ(S)+ξ, ξ∼N(0, 2sens(θ)^2 log(1.25/δ)/ϵ^2) then M is (ϵ,δ)-DP",
        claim="The classical Gaussian calibration is (eps, delta)-DP (no range for eps).",
        method=Method.DERIVATION,
        verdict=V.REFUTED,
        detail=(
            "Catalog classical-gaussian-mechanism-any-eps (the calibration without eps <= 1) "
            "is refuted; classical-gaussian-mechanism (eps <= 1) is certified."
        ),
        derivations=("classical-gaussian-mechanism-any-eps", "classical-gaussian-mechanism"),
        erratum=CLASSICAL,
    ),
    Entry(
        id="seed-004-table-dp-to-gdp",
        seed=_SEED,
        section=S6,
        quote="if M is (ϵ,δ(ϵ))-DP for all ϵ≥0, and δ(ϵ)=Φ(−ϵ/μ+μ/2)−… then M is μ-GDP",
        claim="(eps, delta(eps))-DP for all eps >= 0 implies mu-GDP.",
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail="The check of seed-004-dp-to-gdp (sup over eps of f_{eps,delta(eps)} = G_mu).",
        check=gauss.dp_to_gdp,
    ),
    Entry(
        id="seed-004-table-gdp-composition",
        seed=_SEED,
        section=S6,
        quote="G_{μ1}⊗…⊗G_{μn}=G_μ, μ=sqrt(μ1^2+…+μn^2)",
        claim="GDP composes by the root of the sum of squares.",
        method=Method.DERIVATION,
        verdict=V.PROVED,
        detail="Catalog gdp-composition: proved for every number of factors.",
        derivations=("gdp-composition",),
    ),
    Entry(
        id="seed-004-table-accountants",
        seed=_SEED,
        section=S6,
        quote="Moment Accountant, Rneyi Accountant, ……",
        claim="Composition for (eps, delta)-DP: moments accountant, Renyi accountant.",
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail="Names of methods, not a composition rule ('Rneyi' is a typo for Renyi).",
    ),
)
