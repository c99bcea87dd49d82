"""Seed 002 audit entries: Lemma 3.17 and Lemma 3.18 with the displays of its proof (the
translator's supplement is in :mod:`derivations.audit.seed_002_entries_supplement`)."""

from __future__ import annotations

from derivations.audit import seed_002_lemmas as c
from derivations.audit import seed_002_proof_checks as pc
from derivations.audit.seed_002_entries_defs import NUMBER, S_317, S_318
from symbolic.audit import AuditVerdict, Entry, Erratum, ErratumKind, Method

__all__ = ["LEMMA_3_17", "LEMMA_3_18"]

V = AuditVerdict
KL = ("kl-bound",)
STEPS = (
    "kl-bound (catalog, every number n >= 1 of outcomes): all 8 steps proved by the sum rules "
    "(5 and 7 termwise, by the sign case split on p_i - q_i), oracle (exact KL) agrees"
)

LEMMA_3_17: tuple[Entry, ...] = (
    Entry(
        id="seed-002-lemma-3-17-1-if",
        seed=NUMBER,
        section=S_317,
        quote="存在一个随机变量 Y' 满足 Δ(Y,Y')≤δ, D_∞(Y'||Z)≤ε 时,D_∞^δ(Y||Z)≤ε 成立",
        claim="Lemma 3.17 (1), 'if': if some Y' has Delta(Y, Y') <= delta and "
        "D_inf(Y'||Z) <= eps, then D_inf^delta(Y||Z) <= eps.",
        method=Method.FINITE_SEARCH,
        verdict=V.CHECKED,
        detail="Finite search over (Y, Y', Z) on 2..4 outcomes, eps in [0, 3], delta in [0, 1] "
        "(4,512 examples, premise certainly true in 1,597): no counterexample. The one-line "
        "proof Pr[Y in S] <= Pr[Y' in S] + delta <= e^eps Pr[Z in S] + delta is standard.",
        check=c.check_317_1_if,
        readings="D_inf^delta as corrected ('> delta'); as printed, Y = (1/2, 1/2), Y' = Z = "
        "(0, 1), delta = 1/2, eps = 0 fails (seed-002-def-approx-max-div).",
    ),
    Entry(
        id="seed-002-lemma-3-17-1-only-if",
        seed=NUMBER,
        section=S_317,
        quote="1.当且仅当存在一个随机变量 Y' 满足 Δ(Y,Y')≤δ, D_∞(Y'||Z)≤ε 时",
        claim="Lemma 3.17 (1), 'only if': if D_inf^delta(Y||Z) <= eps then some Y' has "
        "Delta(Y, Y') <= delta and D_inf(Y'||Z) <= eps.",
        method=Method.EXACT,
        verdict=V.REFUTED,
        detail="False for eps < 0, which nothing in the lemma excludes (D_inf^delta can be "
        "negative, D_inf cannot). For eps >= 0 it holds: the repaired Y' is verified exactly "
        "on 600 cases.",
        check=c.check_317_1_only_if_as_written,
        readings="Literal: eps any real. The book's convention eps >= 0 makes it true; the "
        "erratum is mild (the hypothesis is implicit in DP usage).",
        erratum=Erratum(
            id="seed-002-lemma-3-17-1-only-if",
            kind=ErratumKind.MISSING_HYPOTHESIS,
            wrong="Lemma 3.17 stated for every eps",
            counterexample="Y = Z = (1/2, 1/2), delta = 1/2, eps = ln(1/2): D_inf^delta(Y||Z) "
            "= ln(1/2) <= eps (the only event with Pr[Y in S] > delta is the whole space), but "
            "every Y' has D_inf(Y'||Z) >= 0 > eps (its ratios to Z average to 1 under Z). "
            "Part 2 fails the same way.",
            correction="Assume eps >= 0. Then Y' = min(Y, e^eps Z) plus the removed mass "
            "spread over the slack e^eps Z - min(Y, e^eps Z) has Delta(Y, Y') = "
            "sup_S Pr[Y in S] - e^eps Pr[Z in S] <= delta and D_inf(Y'||Z) <= eps (600 exact "
            "cases, eps = ln r, r in {1, 3/2, 2, 4}).",
            check_correction=c.check_317_1_only_if_corrected,
        ),
    ),
    Entry(
        id="seed-002-lemma-3-17-2-if",
        seed=NUMBER,
        section=S_317,
        quote="存在随机变量 Y',Z' 满足 Δ(Y,Y')≤δ/(e^ε+1), Δ(Z,Z')≤δ/(e^ε+1), D_∞(Y'||Z')≤ε 时,"
        "D_∞^δ(Y||Z)≤ε, D_∞^δ(Z||Y)≤ε 成立",
        claim="Lemma 3.17 (2), 'if': Y', Z' within delta/(e^eps + 1) of Y, Z with "
        "D_inf(Y'||Z') <= eps give both D_inf^delta(Y||Z) <= eps and D_inf^delta(Z||Y) <= eps.",
        method=Method.EXACT,
        verdict=V.REFUTED,
        detail="A one-sided bound on Y', Z' cannot give the two-sided conclusion: exact "
        "counterexample at delta = 0; the catalog's event-level lemma-3-17-2-if-seed is refuted "
        "(conclusion and step 2) and the corrected lemma-3-17-2-if is proved (4/4 steps).",
        check=c.check_317_2_if_as_written,
        derivations=("lemma-3-17-2-if-seed", "lemma-3-17-2-if"),
        erratum=Erratum(
            id="seed-002-lemma-3-17-2-if",
            kind=ErratumKind.MISSING_HYPOTHESIS,
            wrong="the right side assumes only D_∞(Y'||Z') ≤ ε",
            counterexample="delta = 0, Y = Y' = (1, 0), Z = Z' = (1/2, 1/2), eps = ln 2: the "
            "right side holds (distances 0, e^(D_inf(Y'||Z')) = 2), but Pr[Z = y2] = 1/2 > "
            "e^eps Pr[Y = y2] + 0 = 0, so D_inf^0(Z||Y) = +oo. lemma-3-17-2-if-seed is refuted at "
            "eps = 2, delta = 0, Pr[Y in S] = Pr[Y' in S] = 0, Pr[Z in S] = Pr[Z' in S] = "
            "0.7311: 0.7311 > 0.",
            correction="Also require D_∞(Z'||Y') ≤ ε (and eps >= 0): the 'if' direction is "
            "then proved by the engine (lemma-3-17-2-if), and the 'only if' direction holds with "
            "this stronger right side (seed-002-lemma-3-17-2-only-if).",
            as_written="lemma-3-17-2-if-seed",
            corrected="lemma-3-17-2-if",
            check_correction=c.check_317_2_if_corrected,
        ),
    ),
    Entry(
        id="seed-002-lemma-3-17-2-only-if",
        seed=NUMBER,
        section=S_317,
        quote="2.当且仅当存在随机变量 Y',Z' 满足 Δ(Y,Y')≤δ/(e^ε+1), Δ(Z,Z')≤δ/(e^ε+1)",
        claim="Lemma 3.17 (2), 'only if': if both D_inf^delta are <= eps, there are Y', Z' "
        "within delta/(e^eps + 1) of Y, Z with D_inf(Y'||Z') <= eps.",
        method=Method.EXACT,
        verdict=V.CHECKED,
        detail="Checked with the stronger right side (both D_inf(Y'||Z') and D_inf(Z'||Y') "
        "<= eps), which implies the printed one: for 600 exact cases (150 pairs on 2..5 "
        "outcomes, eps = ln r, r in {1, 3/2, 2, 4}, delta the least admissible) an explicit "
        "repair (move each excess over the ratio r, split r : 1 between the laws, then "
        "rebalance the sums into the remaining room) gives Y', Z' within delta/(e^eps + 1) "
        "that are eps-close both ways, verified over every event.",
        check=c.check_317_2_only_if,
        readings="eps >= 0 (for eps < 0 it fails as part 1 does: seed-002-lemma-3-17-1-only-if).",
    ),
    Entry(
        id="seed-002-lemma-3-17-proof",
        seed=NUMBER,
        section=S_317,
        quote="【证明】",
        claim="A proof of Lemma 3.17.",
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail="The heading '【证明】' is followed by no text: the proof is missing from the "
        "seed. The lemma's directions are checked above.",
    ),
)

LEMMA_3_18: tuple[Entry, ...] = (
    Entry(
        id="seed-002-lemma-3-18",
        seed=NUMBER,
        section=S_318,
        quote="满足 D_∞(Y||Z)≤ε D_∞(Z||Y)≤ε,则 D(Y||Z)≤ε·(e^ε-1)",
        claim="If both max divergences are at most eps, then D(Y||Z) <= eps (e^eps - 1).",
        method=Method.DERIVATION,
        verdict=V.CHECKED,
        detail=f"{STEPS}. The bound is loose by the factor e^eps + 1: eps tanh(eps/2) is the "
        "sharp one (kl-bound-tight).",
        derivations=KL,
        readings="The missing '且' between the two hypotheses read as 'and'.",
    ),
    Entry(
        id="seed-002-lemma-3-18-proof-gibbs",
        seed=NUMBER,
        section=S_318,
        quote="任意 Y,Z 有 D(Y||Z)≥0,所以 D(Y||Z) 可以被 D(Y||Z)+D(Z||Y) 约束",
        claim="D(Y||Z) <= D(Y||Z) + D(Z||Y), because D(Z||Y) >= 0.",
        method=Method.DERIVATION,
        verdict=V.PROVED,
        detail="kl-bound step 1: proved by the log tangent bound (Gibbs' inequality).",
        derivations=KL,
    ),
    Entry(
        id="seed-002-lemma-3-18-proof-regroup",
        seed=NUMBER,
        section=S_318,
        quote="= Σ_y Pr[Y=y]·(ln…+ln…) + (Pr[Z=y]-Pr[Y=y])·(ln Pr[Z=y]/Pr[Y=y])",
        claim="D(Y||Z) + D(Z||Y) = sum_y Pr[Y=y] (ln(p/q) + ln(q/p)) + (Pr[Z=y] - Pr[Y=y]) "
        "ln(q/p).",
        method=Method.SYMBOLIC,
        verdict=V.REFUTED,
        detail="As printed the sum binds only its first product, leaving y free in the second "
        "term; the first sum is identically 0 and no value of y gives the left side "
        "(exact values in the check). With the summand bracketed, as the supplement writes "
        "it, the line is an identity (SymPy; kl-bound steps 2-4).",
        check=pc.check_regroup_as_printed,
        derivations=KL,
        erratum=Erratum(
            id="seed-002-lemma-3-18-proof-regroup",
            kind=ErratumKind.ILL_FORMED,
            wrong="Σ_y Pr[Y=y]·(…) + (Pr[Z=y]-Pr[Y=y])·(…): y unbound in the second term",
            counterexample="Y = (1/2, 1/4, 1/4), Z = (1/4, 1/4, 1/2): D(Y||Z) + D(Z||Y) = "
            "(1/2) ln 2 = 0.3466; the printed line is 0 + (Pr[Z=y] - Pr[Y=y]) "
            "ln(Pr[Z=y]/Pr[Y=y]) = 0.1733, 0, 0.1733 for y = y1, y2, y3.",
            correction="Σ_y [Pr[Y=y](ln(p/q) + ln(q/p)) + (Pr[Z=y] - Pr[Y=y]) ln(q/p)] (the "
            "supplement's bracket): SymPy expands the difference to 0.",
            corrected="kl-bound",
            check_correction=pc.check_regroup_bracketed,
        ),
    ),
    Entry(
        id="seed-002-lemma-3-18-proof-abs",
        seed=NUMBER,
        section=S_318,
        quote="≤ Σ_y[0+|Pr[Z=y]-Pr[Y=y]|·ε]",
        claim="The regrouped sum is at most sum_y |Pr[Z=y] - Pr[Y=y]| eps.",
        method=Method.DERIVATION,
        verdict=V.CHECKED,
        detail="kl-bound step 5: numeric only (375 points at 50 digits; certification gave up).",
        derivations=KL,
    ),
    Entry(
        id="seed-002-lemma-3-18-proof-max-min",
        seed=NUMBER,
        section=S_318,
        quote="= ε·Σ_y[max{Pr[Y=y],Pr[Z=y]} - min{Pr[Y=y],Pr[Z=y]}]",
        claim="sum_y |q - p| eps = eps sum_y (max{p, q} - min{p, q}).",
        method=Method.DERIVATION,
        verdict=V.PROVED,
        detail="kl-bound step 6: proved (Abs rewritten, expand).",
        derivations=KL,
    ),
    Entry(
        id="seed-002-lemma-3-18-proof-min",
        seed=NUMBER,
        section=S_318,
        quote="≤ ε·Σ_y[(e^ε-1)·min{Pr[Y=y],Pr[Z=y]}]",
        claim="max{p, q} - min{p, q} <= (e^eps - 1) min{p, q} at every outcome.",
        method=Method.DERIVATION,
        verdict=V.CHECKED,
        detail="kl-bound step 7: numeric only (205 points at 50 digits; certification gave "
        "up). The pointwise fact behind it is checked at seed-002-supplement-converse.",
        derivations=KL,
    ),
    Entry(
        id="seed-002-lemma-3-18-proof-final",
        seed=NUMBER,
        section=S_318,
        quote="≤ ε(e^ε-1)",
        claim="eps (e^eps - 1) sum_y min{p, q} <= eps (e^eps - 1).",
        method=Method.DERIVATION,
        verdict=V.PROVED,
        detail="kl-bound step 8: proved (min(a, b) <= a termwise, sum p = 1).",
        derivations=KL,
    ),
)
