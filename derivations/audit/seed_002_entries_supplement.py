"""Seed 002 audit entries: the translator's supplement to the proof of Lemma 3.18, Lemma 3.19
(Azuma's inequality) and the page footer."""

from __future__ import annotations

from derivations.audit import seed_002_proof_checks as c
from derivations.audit.seed_002_entries_defs import NUMBER, S_318, S_319
from symbolic.audit import AuditVerdict, Entry, Erratum, ErratumKind, Method

__all__ = ["ENTRIES"]

V = AuditVerdict
KL = ("kl-bound",)

ENTRIES: tuple[Entry, ...] = (
    Entry(
        id="seed-002-supplement-preamble",
        seed=NUMBER,
        section=S_318,
        quote="补充该证明过程省略许多步骤,会造成迷惑,这边对证明过程加以补充",
        claim="The proof skips steps; the translator fills them in.",
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail="Commentary, no mathematics.",
    ),
    Entry(
        id="seed-002-supplement-identity",
        seed=NUMBER,
        section=S_318,
        quote="= Σ_y Pr[Y=y]·ln… + Σ_y{Pr[Z=y]+Pr[Y=y]-Pr[Y=y]}·ln Pr[Z=y]/Pr[Y=y] = Σ_y[…]",
        claim="D(Y||Z) + D(Z||Y) = sum p ln(p/q) + sum q ln(q/p) = sum p ln(p/q) + sum "
        "(q + p - p) ln(q/p) = sum [p (ln(p/q) + ln(q/p)) + (q - p) ln(q/p)].",
        method=Method.DERIVATION,
        verdict=V.PROVED,
        detail="kl-bound steps 2, 3, 4 (definition unfolded; expand): proved.",
        derivations=KL,
    ),
    Entry(
        id="seed-002-supplement-max-zy",
        seed=NUMBER,
        section=S_318,
        quote="ln Pr[Z=y]/Pr[Y=y] ≤ D_∞(Z||Y) = max_{S⊆Supp(Y)}[ln Pr[Z=y]/Pr[Y=y]] ≤ ε",
        claim="From D_inf(Z||Y) <= eps: ln(Pr[Z=y]/Pr[Y=y]) <= D_inf(Z||Y) = max over "
        "S ⊆ Supp(Y) of ln(Pr[Z=y]/Pr[Y=y]) <= eps.",
        method=Method.EXACT,
        verdict=V.REFUTED,
        detail="The middle equality is ill-formed: its maximand has y, not S, so the right "
        "side is one outcome's log-ratio; and read over events, D_inf(Z||Y) ranges over "
        "Supp(Z), not Supp(Y). The outer inequality the proof needs is right (exact check on "
        "300 pairs), and under the lemma's hypotheses the two supports coincide.",
        check=lambda: c.check_max_display(reverse=True),
        erratum=Erratum(
            id="seed-002-supplement-max-zy",
            kind=ErratumKind.ILL_FORMED,
            wrong="D_∞(Z||Y) = max_{S⊆Supp(Y)}[ln Pr[Z=y]/Pr[Y=y]]",
            counterexample="Y = (1/2, 1/2), Z = (1/4, 3/4): D_inf(Z||Y) = ln(3/2), the printed "
            "right side at y = y1 is ln(1/2). Over events with S ⊆ Supp(Y): Y = (1, 0), "
            "Z = (1/2, 1/2) gives ln(1/2) while D_inf(Z||Y) = +oo.",
            correction="ln(Pr[Z=y]/Pr[Y=y]) ≤ D_∞(Z||Y) = max_{S⊆Supp(Z)} ln(Pr[Z∈S]/Pr[Y∈S]) "
            "≤ ε (take S = {y}); checked exactly on every outcome of 300 pairs.",
            check_correction=c.check_max_display_corrected,
        ),
    ),
    Entry(
        id="seed-002-supplement-abs-step",
        seed=NUMBER,
        section=S_318,
        quote="且由两式相减必小于等于两式相减的绝对值,故:D(Y||Z) ≤ Σ_y[0+|Pr[Z=y]-Pr[Y=y]|·ε]",
        claim="From ln(Pr[Z=y]/Pr[Y=y]) <= eps and 'a difference is at most its absolute "
        "value': (Pr[Z=y] - Pr[Y=y]) ln(Pr[Z=y]/Pr[Y=y]) <= |Pr[Z=y] - Pr[Y=y]| eps, hence "
        "D(Y||Z) <= sum_y [0 + |Pr[Z=y] - Pr[Y=y]| eps].",
        method=Method.FINITE_SEARCH,
        verdict=V.REFUTED,
        detail="The reason given uses only D_inf(Z||Y) <= eps; where Pr[Z=y] < Pr[Y=y] the "
        "bound needs D_inf(Y||Z) <= eps as well. The search refutes the step under the cited "
        "hypothesis alone; with both hypotheses it finds no counterexample (the lemma's "
        "conclusion stands).",
        check=c.check_abs_step_as_justified,
        derivations=KL,
        erratum=Erratum(
            id="seed-002-supplement-abs-step",
            kind=ErratumKind.INVALID_STEP,
            wrong="(q - p) ln(q/p) ≤ |q - p| ε from ln(q/p) ≤ ε and x ≤ |x|",
            counterexample="Y = (1/2, 1/2), Z = (9/10, 1/10), eps = ln(9/5) = D_inf(Z||Y): "
            "sum (q - p) ln(q/p) = 0.8789 > sum |q - p| eps = 0.4702 (even D(Y||Z) = 0.5108 "
            "exceeds it); the search also finds Y = (1/2, 1/2), Z = (1, 0), eps = 1, where "
            "the left side is +oo.",
            correction="Use both hypotheses: |ln(q/p)| ≤ ε, and (q - p) ln(q/p) = |q - p| "
            "|ln(q/p)| since both factors have the same sign (finite search: no "
            "counterexample; kl-bound step 5).",
            corrected="kl-bound",
            check_correction=c.check_abs_step_both,
        ),
    ),
    Entry(
        id="seed-002-supplement-abs-identity",
        seed=NUMBER,
        section=S_318,
        quote="max{f(x),g(x)}-min{f(x),g(x)}=|f(x)-g(x)|",
        claim="max{f, g} - min{f, g} = |f - g|, so sum_y |q - p| eps = eps sum_y (max - min).",
        method=Method.SYMBOLIC,
        verdict=V.PROVED,
        detail="SymPy: the difference, rewritten as Piecewise, simplifies to 0 for real f, g "
        "(the display itself is kl-bound step 6, proved).",
        check=c.check_max_minus_min,
        derivations=KL,
    ),
    Entry(
        id="seed-002-supplement-max-yz",
        seed=NUMBER,
        section=S_318,
        quote="ln Pr[Y=y]/Pr[Z=y] ≤ D_∞(Y||Z) = max_{S⊆Supp(Y)}[ln Pr[Y=y]/Pr[Z=y]] ≤ ε",
        claim="From D_inf(Y||Z) <= eps: ln(Pr[Y=y]/Pr[Z=y]) <= D_inf(Y||Z) = max over "
        "S ⊆ Supp(Y) of ln(Pr[Y=y]/Pr[Z=y]) <= eps.",
        method=Method.EXACT,
        verdict=V.REFUTED,
        detail="The same slip as seed-002-supplement-max-zy (the range is right here): the "
        "maximand has y, not S, so the middle equality is false for all but the maximising "
        "y. The outer inequality is right.",
        check=lambda: c.check_max_display(reverse=False),
        erratum=Erratum(
            id="seed-002-supplement-max-yz",
            kind=ErratumKind.ILL_FORMED,
            wrong="D_∞(Y||Z) = max_{S⊆Supp(Y)}[ln Pr[Y=y]/Pr[Z=y]]",
            counterexample="Y = (1/2, 1/2), Z = (1/4, 3/4): D_inf(Y||Z) = ln 2, the printed "
            "right side at y = y2 is ln(2/3).",
            correction="ln(Pr[Y=y]/Pr[Z=y]) ≤ D_∞(Y||Z) = max_{S⊆Supp(Y)} ln(Pr[Y∈S]/Pr[Z∈S]) "
            "≤ ε (take S = {y}).",
            check_correction=c.check_max_display_corrected,
        ),
    ),
    Entry(
        id="seed-002-supplement-case-greater",
        seed=NUMBER,
        section=S_318,
        quote="当 Pr[Y=y]>Pr[Z=y] 时,… ⟹ Pr[Y=y]≤e^ε·Pr[Z=y] ⟹ max{Pr[Y=y],Pr[Z=y]}≤e^ε·Pr[Z=y]",
        claim="Where Pr[Y=y] > Pr[Z=y], the max is Pr[Y=y], and D_inf(Y||Z) <= eps gives "
        "max{Pr[Y=y], Pr[Z=y]} <= e^eps Pr[Z=y].",
        method=Method.FINITE_SEARCH,
        verdict=V.CHECKED,
        detail="Finite search (512 examples, premise certainly true in 330): no outcome with "
        "Pr[Y=y] > Pr[Z=y] breaks it.",
        check=c.check_case_y_greater,
    ),
    Entry(
        id="seed-002-supplement-converse",
        seed=NUMBER,
        section=S_318,
        quote="反之 … 亦然 … max{Pr[Y=y],Pr[Z=y]}≤e^ε·min{Pr[Y=y],Pr[Z=y]}",
        claim="Symmetrically where Pr[Y=y] < Pr[Z=y]; so max{p, q} <= e^eps min{p, q} at every "
        "outcome when both max divergences are at most eps.",
        method=Method.FINITE_SEARCH,
        verdict=V.CHECKED,
        detail="Finite search (512 examples, premise certainly true in 278): no counterexample.",
        check=c.check_max_below_e_eps_min,
    ),
    Entry(
        id="seed-002-supplement-min-step",
        seed=NUMBER,
        section=S_318,
        quote="ε·Σ_y[max{…}-min{…}] ≤ ε·Σ_y[(e^ε-1)·min{Pr[Y=y],Pr[Z=y]}]",
        claim="Hence eps sum (max - min) <= eps sum (e^eps - 1) min.",
        method=Method.DERIVATION,
        verdict=V.CHECKED,
        detail="kl-bound step 7: numeric only (205 points at 50 digits).",
        derivations=KL,
    ),
    Entry(
        id="seed-002-azuma",
        seed=NUMBER,
        section=S_319,
        quote="Pr[Σ_{i=1}^k C_i > kβ + z√k·α] ≤ e^{-z²/2}",
        claim="Azuma: if |C_i| <= alpha almost surely and E[C_i | C_1..C_{i-1}] <= beta on the "
        "support, then for every z > 0, Pr[sum C_i > k beta + z sqrt(k) alpha] <= e^(-z^2/2).",
        method=Method.DERIVATION,
        verdict=V.CHECKED,
        detail="azuma-binomial (catalog): checked numerically on the exact tail of a two-point "
        "martingale (387 points at 50 digits); its oracle, an adaptive martingale simulation "
        "with Clopper-Pearson bounds, agrees. The lemma itself is the catalog's "
        "azuma-inequality, proved for every k from Markov's inequality, conditioning on the "
        "past and hoeffding-lemma.",
        derivations=("azuma-binomial",),
    ),
    Entry(
        id="seed-002-page-footer",
        seed=NUMBER,
        section=S_319,
        quote="Copyright © GuoJohnny 2019 all right reserved,powered by Gitbook",
        claim="Web page footer and search-box text.",
        method=Method.NONE,
        verdict=V.NOT_CHECKABLE,
        detail="Page boilerplate, no mathematics.",
    ),
)
