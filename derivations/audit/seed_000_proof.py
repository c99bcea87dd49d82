"""Seed 000, Theorem 3.14 and its proof: the statement, the missing independence hypothesis,
every displayed step of the proof as printed, the "by symmetry" line and the end of proof.

The displayed chain is kept as written in the catalog as ``basic-composition-seed`` (an
erratum: its first step divides by Pr[M_2(x) = r_2]) and corrected as ``basic-composition``;
the step entries below point at it and record the catalog's per-step verdicts.
"""

from __future__ import annotations

from derivations.audit import seed_000_checks as checks
from symbolic.audit import AuditVerdict, Entry, Erratum, ErratumKind, Method

__all__ = ["PROOF_ENTRIES", "SECTION", "SEED"]

SEED = "000_487654f92a8b4b8b.txt"
SECTION = "3.5 合成定理"
_AS_WRITTEN = "basic-composition-seed"
_CORRECTED = "basic-composition"

THEOREM = Entry(
    id="seed-000-thm-3-14",
    seed="000",
    section=SECTION,
    quote=r"\mathcal{M}_{1,2}(x) = (\mathcal{M}_{1}(x),\mathcal{M}_{2}(x))",
    claim=(
        "Theorem 3.14: if M_1 is eps_1-DP and M_2 is eps_2-DP, the combination "
        "M_{1,2}(x) = (M_1(x), M_2(x)) is (eps_1 + eps_2)-DP."
    ),
    method=Method.DERIVATION,
    verdict=AuditVerdict.PROVED,
    detail=(
        "Catalog derivation basic-composition: proved (4/4 steps by SymPy tactics and the "
        "product rule on the DP hypotheses of each mechanism, at one outcome pair with "
        "positive probabilities, neighbours ||x - y||_1 <= 1).  The statement as extracted "
        "has lost its verbs ('设 ... 为' is missing before each mechanism): a rendering "
        "artefact, not an erratum.  The independence this relies on is not in the statement; "
        "see seed-000-thm-3-14-independence."
    ),
    derivations=(_CORRECTED,),
    readings=(
        "Read with independent coins (the warm-up's '独立的', and what the proof's first "
        "equality uses); discrete ranges, as the proof's Pr[M = r] presumes.  Whole output "
        "distributions with zero probabilities: seed-000-thm-3-14-distributions."
    ),
)

DISTRIBUTIONS = Entry(
    id="seed-000-thm-3-14-distributions",
    seed="000",
    section=SECTION,
    quote=r"\mathcal{M}_{1,2}:\mathbb{N}^{|\mathcal{X}|}\to \mathcal{R}_1 \times \mathcal{R}_2",
    claim=(
        "Theorem 3.14 on whole output laws, outcomes of probability 0 included: "
        "D_inf(P_1 x P_2 || Q_1 x Q_2) <= D_inf(P_1||Q_1) + D_inf(P_2||Q_2), both ways, "
        "where P_i, Q_i are the laws of M_i(x), M_i(y)."
    ),
    method=Method.FINITE_SEARCH,
    verdict=AuditVerdict.CHECKED,
    detail=(
        "Finite-distribution search (numeric_checks.dp.finite_search), arity 4 (P_1, Q_1, "
        "P_2, Q_2 on 2 or 3 outcomes, products on 4 to 9), eps_i taken as the least eps for "
        "which each pair is eps-indistinguishable: no counterexample among the edge cases and "
        "300 Hypothesis draws, each decided exactly with Arb balls.  The search has teeth: "
        "the mutant with max(eps_1, eps_2) in place of the sum is refuted at once (test)."
    ),
    check=checks.pure_composition,
)

INDEPENDENCE = Entry(
    id="seed-000-thm-3-14-independence",
    seed="000",
    section=SECTION,
    quote=r"映射为: M1,2(x)=(M1(x),M2(x))",
    claim=(
        "Theorems 3.14 and 3.16 and Corollary 3.15 as stated: the pair (M_1(x), M_2(x)) of "
        "any two DP algorithms is DP, with no requirement that they use independent coins."
    ),
    method=Method.EXACT,
    verdict=AuditVerdict.REFUTED,
    detail=(
        "Exact computation: one record type, x = 0 and y = 1 records (neighbours, "
        "||x - y||_1 = 1), a fair coin c, M_1(n) = (n mod 2) xor c and M_2(n) = c.  Each "
        "output alone is a fair bit on both databases (0-DP), but the pair determines n: "
        "Pr[M_{1,2}(x) = (0,0)] = 1/2 while Pr[M_{1,2}(y) = (0,0)] = 0, so D_inf is infinite "
        "and the statistical distance is 1."
    ),
    readings=(
        "Literal: M_{1,2}(x) = (M_1(x), M_2(x)) with the joint law left open (coins may be "
        "shared) - false.  Under Dwork & Roth's Definition 2.2 (an algorithm is a map to "
        "output distributions) the only pairing definable from the two maps is the product, "
        "i.e. independent coins, and the theorem holds (seed-000-thm-3-14).  The warm-up "
        "sentence says '独立的' and the proof's first equality uses independence, so the "
        "hypothesis is intended but missing from the three statements."
    ),
    check=checks.shared_coins,
    erratum=Erratum(
        id="seed-000-thm-3-14-independence",
        kind=ErratumKind.MISSING_HYPOTHESIS,
        wrong="the composition theorems do not say that the mechanisms use independent coins",
        counterexample=(
            "M_1(n) = (n mod 2) xor c, M_2(n) = c with one shared fair coin c: each is 0-DP "
            "(law (1/2, 1/2) on both databases), the pair has law (1/2, 0, 0, 1/2) on x = 0 "
            "and (0, 1/2, 1/2, 0) on y = 1: D_inf = inf > 0 + 0, statistical distance 1"
        ),
        correction=(
            "add 'with independent randomness' (M_{1,2}(x) draws M_1(x) and M_2(x) "
            "independently), as the warm-up sentence does"
        ),
        check_correction=checks.independent_coins,
    ),
)

SETUP = Entry(
    id="seed-000-proof-pointwise",
    seed="000",
    section=SECTION,
    quote=r"任意 (r1,r2)R1×R2(r_1,r_2) \in \mathcal{R}_1 \times \mathcal{R}_2",
    claim=(
        "The proof bounds Pr[M_{1,2}(x) = (r_1, r_2)]/Pr[M_{1,2}(y) = (r_1, r_2)] at every "
        "outcome; this suffices for DP, which bounds Pr[M(x) in S] <= e^eps Pr[M(y) in S] "
        "for every event S."
    ),
    method=Method.FINITE_SEARCH,
    verdict=AuditVerdict.CHECKED,
    detail=(
        "Finite-distribution search on pairs over 2 to 6 outcomes and eps in [0, 3]: "
        "p(r) <= e^eps q(r) at every outcome implies P(S) <= e^eps Q(S) on all 2^n - 1 "
        "non-empty events, no counterexample among the edge cases and 300 draws (exact "
        "Arb decisions).  (It is the termwise sum, left implicit in the seed as in the book.)  "
        "The ratio is undefined where Pr[M_{1,2}(y) = (r_1, r_2)] = 0; for pure DP the "
        "numerator is then 0 too, and the multiplied-out form is the one to read."
    ),
    readings="Discrete ranges R_1, R_2 (the proof writes Pr[M = r]); for densities the same "
    "argument holds for the density ratio.",
    check=checks.pointwise_to_events,
)

STEP_1 = Entry(
    id="seed-000-proof-step-1",
    seed="000",
    section=SECTION,
    quote=(
        r"\frac{\text{Pr}[\mathcal{M}_{1}(x)=r_1]\text{Pr}[\mathcal{M}_{2}(x)=r_2]}"
        r"{\text{Pr}[\mathcal{M}_{1}(y)=r_1]\text{Pr}[\mathcal{M}_{2}(x)=r_2]}"
    ),
    claim=(
        "First step: Pr[M_{1,2}(x) = (r_1,r_2)]/Pr[M_{1,2}(y) = (r_1,r_2)] = "
        "Pr[M_1(x) = r_1] Pr[M_2(x) = r_2] / (Pr[M_1(y) = r_1] Pr[M_2(x) = r_2])."
    ),
    method=Method.DERIVATION,
    verdict=AuditVerdict.REFUTED,
    detail=(
        "Catalog derivation basic-composition-seed (the chain as printed, an erratum): "
        "step 1 refuted; its denominator has Pr[M_2(x) = r_2] where independence gives "
        "Pr[M_2(y) = r_2].  The typo carries into the second display line (a factor "
        "Pr[M_2(x)=r_2]/Pr[M_2(x)=r_2] = 1), so the printed chain never uses that M_2 is "
        "eps_2-DP.  The conclusion is still true (basic-composition, proved)."
    ),
    derivations=(_AS_WRITTEN, _CORRECTED),
    erratum=Erratum(
        id="seed-000-proof-step-1",
        kind=ErratumKind.TYPO,
        wrong="the denominator reads Pr[M_1(y) = r_1] Pr[M_2(x) = r_2]",
        counterexample=(
            "Pr[M_1(x)=r_1] = Pr[M_2(x)=r_2] = Pr[M_1(y)=r_1] = 1, Pr[M_2(y)=r_2] = 1/2 "
            "(eps_1 = eps_2 = 1): the left side is 1/(1/2) = 2, the printed right side 1 "
            "(the catalog's counterexample, re-verified at 50 digits)"
        ),
        correction=(
            "denominator Pr[M_1(y) = r_1] Pr[M_2(y) = r_2], and in the next line the factor "
            "Pr[M_2(x) = r_2]/Pr[M_2(y) = r_2]"
        ),
        as_written=_AS_WRITTEN,
        corrected=_CORRECTED,
        check_correction=checks.corrected_step_one,
    ),
)


def _catalog_step(index: int, quote: str, claim: str, how: str) -> Entry:
    return Entry(
        id=f"seed-000-proof-step-{index}",
        seed="000",
        section=SECTION,
        quote=quote,
        claim=claim,
        method=Method.DERIVATION,
        verdict=AuditVerdict.PROVED,
        detail=f"Catalog derivation basic-composition-seed, step {index}: proved ({how}).",
        derivations=(_AS_WRITTEN,),
    )


STEP_2 = _catalog_step(
    2,
    r"\Big(\frac{\text{Pr}[\mathcal{M}_{2}(x)=r_2]}{\text{Pr}[\mathcal{M}_{2}(x)=r_2]}\Big)",
    "Second step, as printed: the previous right side equals "
    "(Pr[M_1(x)=r_1]/Pr[M_1(y)=r_1]) (Pr[M_2(x)=r_2]/Pr[M_2(x)=r_2]).",
    "SymPy tactic expand; the regrouping is right, it inherits step 1's typo, so the second "
    "factor is identically 1",
)
STEP_3 = _catalog_step(
    3,
    r"&\leq \exp(\varepsilon_1)\exp(\varepsilon_2)",
    "Third step, as printed: that product is at most exp(eps_1) exp(eps_2).",
    "the product rule: the first factor by the hypothesis that M_1 is eps_1-DP, the second "
    "factor (= 1 as printed) by 1 <= e^eps_2, not by the DP of M_2 as intended; corrected, "
    "basic-composition step 3 uses Pr[M_2(x)=r_2] <= e^eps_2 Pr[M_2(y)=r_2] and is proved",
)
STEP_4 = _catalog_step(
    4,
    r"&= \exp(\varepsilon_1+\varepsilon_2)",
    "Fourth step: exp(eps_1) exp(eps_2) = exp(eps_1 + eps_2).",
    "SymPy tactic expand",
)

SYMMETRY = Entry(
    id="seed-000-proof-symmetry",
    seed="000",
    section=SECTION,
    quote=r"由对称性,Pr[M1,2(y)=(r1,r2)]Pr[M1,2(x)=(r1,r2)]exp((ε1+ε2))",
    claim=(
        "'By symmetry', Pr[M_{1,2}(y) = (r_1,r_2)]/Pr[M_{1,2}(x) = (r_1,r_2)] >= "
        "exp(-(eps_1 + eps_2))."
    ),
    method=Method.SYMBOLIC,
    verdict=AuditVerdict.PROVED,
    detail=(
        "SymPy, from the hypotheses Pr[M_i(x)=r_i] <= e^eps_i Pr[M_i(y)=r_i] written "
        "exactly as Pr[M_i(x)=r_i] = e^eps_i Pr[M_i(y)=r_i]/(1 + s_i) with s_i >= 0: "
        "(lhs - rhs) e^(eps_1+eps_2) = s_1 s_2 + s_1 + s_2 >= 0.  True as printed, but it "
        "is the reciprocal of the display just proved, not its mirror image: symmetry "
        "(swapping x and y) gives Pr[M(y)=r]/Pr[M(x)=r] <= e^(eps_1+eps_2), equivalently "
        "Pr[M(x)=r]/Pr[M(y)=r] >= e^-(eps_1+eps_2), which is what the book writes (x over "
        "y).  Either way nothing new is needed: the display holds for every ordered pair of "
        "neighbours, so not an erratum."
    ),
    readings=(
        "As printed (y over x, >=): proved.  The book's line (x over y, >=) is the same "
        "statement with x, y swapped, proved by the same computation."
    ),
    check=checks.symmetric_display,
)

QED = Entry(
    id="seed-000-proof-qed",
    seed="000",
    section=SECTION,
    quote="【定理 3.14 证毕】",
    claim="End of the proof of Theorem 3.14.",
    method=Method.NONE,
    verdict=AuditVerdict.NOT_CHECKABLE,
    detail=(
        "An end-of-proof marker, not a statement.  Whether the proof is complete is decided "
        "by the step entries: as printed the chain breaks at step 1 (seed-000-proof-step-1), "
        "and with the corrected denominator (basic-composition) every step is proved."
    ),
)

PROOF_ENTRIES: tuple[Entry, ...] = (
    THEOREM,
    DISTRIBUTIONS,
    INDEPENDENCE,
    SETUP,
    STEP_1,
    STEP_2,
    STEP_3,
    STEP_4,
    SYMMETRY,
    QED,
)
