"""Audit of seed 000: Chinese lecture notes on Dwork & Roth 2014, section 3.5 (composition
theorems), sentence by sentence.

The seed has one heading, "3.5 合成定理"; its paragraphs are the motivation, the warm-up,
Theorem 3.14 with its proof (in :mod:`derivations.audit.seed_000_proof`), Corollary 3.15,
Theorem 3.16 and a closing remark.  The checks are in
:mod:`derivations.audit.seed_000_checks`.  Two errata: the proof's first step has
Pr[M_2(x) = r_2] in the denominator (a typo, kept as written in the catalog as
``basic-composition-seed``), and the composition theorems omit that the mechanisms use
independent coins (false without it).
"""

from __future__ import annotations

from collections.abc import Callable

from derivations.audit import seed_000_checks as checks
from derivations.audit.seed_000_proof import PROOF_ENTRIES, SECTION, SEED
from symbolic.audit import AuditVerdict, Entry, Method, Outcome

__all__ = ["ENTRIES", "SECTION", "SEED"]


def _entry(
    key: str,
    quote: str,
    claim: str,
    *,
    method: Method,
    verdict: AuditVerdict,
    detail: str,
    check: Callable[[], Outcome] | None = None,
    derivations: tuple[str, ...] = (),
    readings: str = "",
) -> Entry:
    return Entry.of(
        "000",
        key,
        section=SECTION,
        quote=quote,
        claim=claim,
        method=method,
        verdict=verdict,
        detail=detail,
        check=check,
        derivations=derivations,
        readings=readings,
    )


INTRO: tuple[Entry, ...] = (
    _entry(
        "intro-composition-is-dp",
        "事实上,两个差分隐私算法的组合确实是差分隐私的",
        "The combination of two differentially private algorithms is differentially private.",
        method=Method.DERIVATION,
        verdict=AuditVerdict.CHECKED,
        detail=(
            "This is what Theorems 3.14 and 3.16 state: basic-composition is proved (pure "
            "DP), approx-basic-composition is checked (k homogeneous (eps, delta)-DP "
            "mechanisms against the exact optimal composition, numeric only); the weaker "
            "verdict is recorded.  It needs independent coins (seed-000-thm-3-14-independence)."
        ),
        derivations=("basic-composition", "approx-basic-composition"),
        readings="Pure and approximate DP, independent coins, parameters added as in 3.14/3.16.",
    ),
    _entry(
        "intro-params-degrade",
        "必然会降级的",
        "The privacy parameters necessarily degrade when a DP computation is repeated.",
        method=Method.SYMBOLIC,
        verdict=AuditVerdict.PROVED,
        detail=(
            "SymPy on the seed's own example (Laplace answers with b = 1/eps to a query of "
            "sensitivity 1, f(x) = 0, f(y) = 1): on the event {mean < 1/2} Chebyshev gives "
            "Pr_x >= 1 - 8b^2/k and Pr_y <= 8b^2/k, so (eps', delta')-DP of k answers needs "
            "d - c/k <= 0 with d = 1 - delta', c = 8b^2(1 + e^eps'); at k = c/d + s SymPy "
            "reduces the gap to d^2 eps^2 s/(d eps^2 s + 8e^eps' + 8) > 0.  No fixed "
            "(eps', delta' < 1) survives all k (at eps = eps' = 1, delta' = 0.1 every "
            "k > 33.05 fails).  Also exact: at answers z_i <= 0 the privacy loss of k "
            "answers is k eps, so the pure parameter grows linearly, as Corollary 3.15 allows."
        ),
        readings=(
            "'Degrade' read as: no (eps', delta') with delta' < 1 holds for every number of "
            "repetitions; and, for pure DP, the loss of k repetitions reaches k eps."
        ),
        check=checks.degradation,
    ),
    _entry(
        "intro-laplace-each-eps-dp",
        "考虑使用拉普拉斯机制重复计算相同的统计,每次都是ε-差分隐私",
        "Each run of the Laplace mechanism on the same statistic is eps-DP.",
        method=Method.DERIVATION,
        verdict=AuditVerdict.PROVED,
        detail="Catalog derivation laplace-ratio (Theorem 3.6): proved, its oracle agrees.",
        derivations=("laplace-ratio",),
    ),
    _entry(
        "intro-average-converges",
        "每一个机制实例给出的答案的平均值最终会收敛到统计的真实值",
        "The average of the answers of the repeated runs converges to the true value.",
        method=Method.SYMBOLIC,
        verdict=AuditVerdict.PROVED,
        detail=(
            "SymPy: the Laplace(0, b) density integrates to 1 with mean 0 and variance "
            "2b^2, so the mean of k independent answers has variance 2b^2/k, and Chebyshev's "
            "bound 2b^2/(k t^2) on Pr[|mean - f(x)| >= t] tends to 0 as k -> oo: "
            "convergence in probability (almost surely as well, by the strong law)."
        ),
        readings="'Converges' read as convergence in probability, with independent noise.",
        check=checks.laplace_average,
    ),
    _entry(
        "intro-precise",
        "参数 ε\\varepsilonδ\\delta 是如何精确组合的",
        "This section gives theorems saying precisely how eps and delta combine.",
        method=Method.NONE,
        verdict=AuditVerdict.NOT_CHECKABLE,
        detail=(
            "A description of the section's content.  If 'precisely' meant that the bounds "
            "are exact, that is a different claim the section does not make: the pure "
            "bound sum eps_i is attained (the Laplace example of seed-000-intro-params-degrade),"
            " while sum delta_i is only an upper bound on the optimal composition "
            "(Kairouz, Oh & Viswanath 2015)."
        ),
    ),
)

WARM_UP = _entry(
    "warmup",
    "独立的 (ε1,0)(\\varepsilon_1,0) -差分隐私算法",
    "Independent (eps_1, 0)-DP and (eps_2, 0)-DP algorithms used together are "
    "(eps_1 + eps_2, 0)-DP.",
    method=Method.DERIVATION,
    verdict=AuditVerdict.PROVED,
    detail=(
        "The statement of Theorem 3.14 with independence made explicit: catalog derivation "
        "basic-composition, proved.  The doubled parenthesis in '和((ε2,0)' is a stray "
        "character that changes nothing."
    ),
    derivations=("basic-composition",),
)

LATER: tuple[Entry, ...] = (
    _entry(
        "repeated-application",
        "组合定理能反复应用以获得以下推论",
        "Applying the composition theorem repeatedly gives Corollary 3.15.",
        method=Method.SYMBOLIC,
        verdict=AuditVerdict.PROVED,
        detail=(
            "The induction step in SymPy, for symbolic k: M_[k] = (M_[k-1], M_k) up to "
            "flattening the tuple, and Theorem 3.14 adds eps_k to sum_{i<k} eps_i: "
            "Sum(eps_i, 1..k-1) + Sum(eps_i, k..k) - Sum(eps_i, 1..k) simplifies to 0 and "
            "e^(sum_{i<k} eps_i) e^(eps_k) = e^(sum_{i<=k} eps_i).  With the base case "
            "(seed-000-thm-3-14) this gives the corollary for every k."
        ),
        check=checks.repeated_application,
    ),
    _entry(
        "cor-3-15",
        r"(\sum_{i=1}^{k}\varepsilon_i,0)- 差分隐私",
        "Corollary 3.15: the tuple (M_1(x), ..., M_k(x)) of (eps_i, 0)-DP algorithms is "
        "(sum_i eps_i, 0)-DP.",
        method=Method.DERIVATION,
        verdict=AuditVerdict.PROVED,
        detail=(
            "Catalog derivation basic-composition-k: proved for every k >= 1 (a product "
            "of k bounded ratios, termwise).  '定义为 "
            ":(M1(x),...,Mk(x))' omits 'M_[k](x) =', which is clear from Theorem 3.14.  "
            "Independent coins needed (seed-000-thm-3-14-independence)."
        ),
        derivations=("basic-composition-k",),
    ),
    _entry(
        "appendix-b",
        "该定理推广到 (ε,δ)(\\varepsilon,\\delta)-差分隐私的证明见附录B",
        "The generalisation to (eps, delta)-DP is proved in Appendix B.",
        method=Method.NONE,
        verdict=AuditVerdict.NOT_CHECKABLE,
        detail=(
            "A pointer to the book's Appendix B, which is not part of the seed; the "
            "statement it announces is audited as seed-000-thm-3-16."
        ),
    ),
    _entry(
        "thm-3-16",
        r"(\sum_{i=1}^{k}\varepsilon_i,\sum_{i=1}^{k}\delta_i)- 差分隐私",
        "Theorem 3.16: the tuple of k (eps_i, delta_i)-DP algorithms is "
        "(sum eps_i, sum delta_i)-DP.",
        method=Method.DERIVATION,
        verdict=AuditVerdict.CHECKED,
        detail=(
            "Catalog derivation approx-basic-composition (homogeneous eps_i = eps, "
            "delta_i = delta, k up to 2000): checked against the exact optimal composition "
            "of Kairouz, Oh & Viswanath, numeric only.  Heterogeneous parameters: "
            "seed-000-thm-3-16-heterogeneous.  Independent coins needed "
            "(seed-000-thm-3-14-independence)."
        ),
        derivations=("approx-basic-composition",),
    ),
    _entry(
        "thm-3-16-heterogeneous",
        r"(\varepsilon_i,\delta_i)- 差分隐私算法",
        "Theorem 3.16 for k = 2 with different parameters: (eps_1, delta_1) and "
        "(eps_2, delta_2) compose to (eps_1 + eps_2, delta_1 + delta_2).",
        method=Method.FINITE_SEARCH,
        verdict=AuditVerdict.CHECKED,
        detail=(
            "Finite-distribution search, arity 4 (P_1, Q_1, P_2, Q_2 on 2 or 3 outcomes), "
            "eps_1, eps_2 in [0, 2], delta_i taken as the least delta at eps_i (hockey-stick "
            "divergence, both directions): the product pair's hockey-stick divergence at "
            "eps_1 + eps_2 is at most delta_1 + delta_2 on every edge case and 300 draws, "
            "decided exactly.  The mutant with max(delta_1, delta_2) is refuted (test)."
        ),
        check=checks.approx_composition,
    ),
    _entry(
        "automatic",
        "其合成是“自动”的",
        "Composition of DP is 'automatic': the bounds hold without any special effort by "
        "the data curator.",
        method=Method.NONE,
        verdict=AuditVerdict.NOT_CHECKABLE,
        detail=(
            "An informal remark about practice (no curator action is needed for the bounds "
            "of 3.14-3.16 to hold); its mathematical content is those theorems.  The "
            "Chinese '限制是保持不变' (the limits stay unchanged) is a loose rendering of "
            "'the bounds obtained hold'."
        ),
    ),
    _entry(
        "footer",
        "Copyright © GuoJohnny 2019",
        "Copyright line, Gitbook revision date and search-box residue.",
        method=Method.NONE,
        verdict=AuditVerdict.NOT_CHECKABLE,
        detail="Page furniture of the web edition, not mathematics.",
    ),
)

ENTRIES: tuple[Entry, ...] = (*INTRO, WARM_UP, *PROOF_ENTRIES, *LATER)
