"""The checks behind the audit of seed 000 (Dwork & Roth 2014, section 3.5: composition).

Each function re-runs one check and returns an :class:`~symbolic.audit.Outcome`:

* finite-distribution searches (:mod:`numeric_checks.dp.finite_search`) for the composition
  theorems read on whole output distributions, zero probabilities included;
* SymPy proofs of the small facts the text asserts in passing (the average of repeated
  Laplace answers converges, privacy must degrade, the "by symmetry" line, the induction
  behind Corollary 3.15);
* an exact computation of two mechanisms that share their coins (the missing independence
  hypothesis of Theorem 3.14).

Distributions ``P_i`` are the output laws of ``M_i`` on a database ``x`` and ``Q_i`` on a
neighbour ``y`` (``||x - y||_1 <= 1``, the seed's relation); since any pair of laws can be
the outputs of some mechanism on two neighbours, the statements quantify over all pairs.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp
from flint import arb

from derivations.catalog import get
from numeric_checks import check_derivation
from numeric_checks.dp.finite_search import (
    FiniteStatement,
    all_of,
    hockey,
    implies,
    leq,
    max_div,
    search,
    tv,
)
from numeric_checks.plan import CheckOptions
from symbolic.audit import Outcome
from symbolic.verdicts import Verdict

__all__ = [
    "DRAWS",
    "approx_composition",
    "corrected_step_one",
    "degradation",
    "independent_coins",
    "laplace_average",
    "pointwise_to_events",
    "pure_composition",
    "repeated_application",
    "shared_coins",
    "symmetric_display",
]

DRAWS = 300
"""Hypothesis draws per finite search (after its edge cases)."""
PAIRS = (2, 3)
"""Outcomes per distribution in the two-mechanism searches (products have 4 to 9)."""
EPS_RANGE = {"eps1": (Fraction(0), Fraction(2)), "eps2": (Fraction(0), Fraction(2))}


def _product(p: Sequence[Any], q: Sequence[Any]) -> list[Any]:
    """The law of the pair of independent outputs."""
    return [a * b for a in p for b in q]


def _delta(p: Sequence[Any], q: Sequence[Any], eps: Any) -> Any:
    """The least delta with P and Q (eps, delta)-indistinguishable both ways."""
    return hockey(p, q, eps).max(hockey(q, p, eps))


def _pure(d: Sequence[Sequence[Any]], _: Mapping[str, Any]) -> bool | None:
    """D_inf(P1 x P2 || Q1 x Q2) <= D_inf(P1||Q1) + D_inf(P2||Q2), and the same swapped:
    Theorem 3.14 with eps_i the least eps for which M_i is eps-DP."""
    p1, q1, p2, q2 = d
    joint_x, joint_y = _product(p1, p2), _product(q1, q2)
    return all_of(
        leq(max_div(joint_x, joint_y), max_div(p1, q1) + max_div(p2, q2)),
        leq(max_div(joint_y, joint_x), max_div(q1, p1) + max_div(q2, p2)),
    )


def _approx(d: Sequence[Sequence[Any]], p: Mapping[str, Any]) -> bool | None:
    """Theorem 3.16 for k = 2 with delta_i the least delta at eps_i: the pair is
    (eps1 + eps2, delta1 + delta2)-indistinguishable both ways."""
    p1, q1, p2, q2 = d
    e1, e2 = p["eps1"], p["eps2"]
    joint_x, joint_y = _product(p1, p2), _product(q1, q2)
    budget = _delta(p1, q1, e1) + _delta(p2, q2, e2)
    return leq(_delta(joint_x, joint_y, e1 + e2), budget)


def _searched(statement: FiniteStatement) -> Outcome:
    found = search(statement, max_examples=DRAWS)
    if found is not None:
        return Outcome(False, found.describe())
    return Outcome(
        True,
        f"{statement.name}: no counterexample among the edge cases (point masses, disjoint "
        f"supports, randomized response) and {DRAWS} Hypothesis draws on "
        f"{statement.outcomes[0]}..{statement.outcomes[1]} outcomes, decided exactly with Arb "
        "balls (evidence, not proof)",
    )


def pure_composition() -> Outcome:
    """Theorem 3.14 on whole output distributions (zeros included)."""
    return _searched(FiniteStatement("pure composition of two pairs", 4, _pure, outcomes=PAIRS))


def approx_composition() -> Outcome:
    """Theorem 3.16, k = 2, heterogeneous (eps1, delta1), (eps2, delta2)."""
    return _searched(
        FiniteStatement(
            "(eps, delta) composition of two pairs", 4, _approx, EPS_RANGE, outcomes=PAIRS
        )
    )


def _events(d: Sequence[Sequence[Any]], p: Mapping[str, Any]) -> bool | None:
    """p(r) <= e^eps q(r) at every outcome implies P(S) <= e^eps Q(S) for every event S."""
    big_p, big_q = d
    factor = arb(p["eps"]).exp()
    pointwise = all_of(*(leq(a, factor * b) for a, b in zip(big_p, big_q, strict=True)))
    n = len(big_p)
    on_events = []
    for mask in range(1, 2**n):
        s = [r for r in range(n) if mask >> r & 1]
        mass_p = sum((big_p[r] for r in s), arb(0))
        mass_q = sum((big_q[r] for r in s), arb(0))
        on_events.append(leq(mass_p, factor * mass_q))
    return implies(pointwise, all_of(*on_events))


def pointwise_to_events() -> Outcome:
    """The proof bounds a ratio per outcome; the definition of DP is about events."""
    return _searched(
        FiniteStatement(
            "pointwise ratio bound implies the bound on every event",
            2,
            _events,
            {"eps": (Fraction(0), Fraction(3))},
        )
    )


def _coins(shared: bool) -> tuple[list[Fraction], list[Fraction], list[Fraction]]:
    """Databases x = 0, y = 1 records (||x - y||_1 = 1); coin c ~ Bernoulli(1/2);
    M_1(n) = (n mod 2) xor c, M_2(n) = c (shared) or an independent copy of c.
    Returns the law of M_1, which is also the law of M_2 (the same on both databases:
    each mechanism alone is 0-DP), and the joint law on x and on y over the outcomes
    (0,0), (0,1), (1,0), (1,1)."""
    joint: dict[int, list[Fraction]] = {}
    for n in (0, 1):
        law = [Fraction(0)] * 4
        for c, c2 in itertools.product((0, 1), repeat=2):  # each pair of coins: 1/4
            second = c if shared else c2
            law[2 * ((n % 2) ^ c) + second] += Fraction(1, 4)
        joint[n] = law
    laws = {
        (first, n): [sum((joint[n][2 * a + b] for b in (0, 1)), Fraction(0)) for a in (0, 1)]
        if first
        else [sum((joint[n][2 * a + b] for a in (0, 1)), Fraction(0)) for b in (0, 1)]
        for first in (True, False)
        for n in (0, 1)
    }
    if len({tuple(v) for v in laws.values()}) != 1:
        raise ArithmeticError(f"each mechanism must have one law on both databases: {laws}")
    return laws[True, 0], joint[0], joint[1]


def _show(x: Any) -> str:
    """A ball as a number, infinity as "inf"."""
    return str(x.mid()) if x.is_finite() else "inf"


def _balls(p: Sequence[Fraction]) -> list[Any]:
    return [arb(x.numerator) / x.denominator for x in p]


def shared_coins() -> Outcome:
    """Theorem 3.14 read without independence: two 0-DP mechanisms sharing a coin."""
    marginal, on_x, on_y = _coins(shared=True)
    m, jx, jy = _balls(marginal), _balls(on_x), _balls(on_y)
    each = max_div(m, m)
    joint = max_div(jx, jy)
    distance = tv(jx, jy)
    holds = leq(joint, each + each)
    detail = (
        f"M_1 and M_2 each have law {[str(v) for v in marginal]} on both databases, so each "
        f"is 0-DP (D_inf = {_show(each)}); the pair has law {[str(v) for v in on_x]} on x and "
        f"{[str(v) for v in on_y]} on y: D_inf = {_show(joint)}, statistical distance "
        f"{_show(distance)}, so it is not (0 + 0)-DP, nor (eps, delta)-DP for any delta < 1"
    )
    return Outcome(holds, detail)


def independent_coins() -> Outcome:
    """The correction: with independent coins the example is (0 + 0)-DP, and the pure
    composition holds on every searched pair of distributions."""
    _, on_x, on_y = _coins(shared=False)
    joint = max_div(_balls(on_x), _balls(on_y)).max(max_div(_balls(on_y), _balls(on_x)))
    example = leq(joint, arb(0))
    general = pure_composition()
    detail = (
        f"independent coins: the pair has law {[str(v) for v in on_x]} on both databases, "
        f"D_inf = {_show(joint)}; {general.detail}"
    )
    return Outcome(example is True and general.holds is True, detail)


def corrected_step_one() -> Outcome:
    """The catalog's corrected chain (``basic-composition``) is proved by the engine."""
    report = check_derivation(get("basic-composition"), CheckOptions(points=60, search_budget=60))
    steps = ", ".join(s.verdict.value for s in report.steps)
    return Outcome(
        report.verdict is Verdict.PROVED,
        f"basic-composition: {report.verdict.value} (steps: {steps})",
    )


def symmetric_display() -> Outcome:
    """Pr[M(y) = r]/Pr[M(x) = r] >= e^-(eps1 + eps2) from a_i <= e^eps_i b_i, by
    parametrising each hypothesis exactly: a_i = e^eps_i b_i/(1 + s_i) with s_i >= 0."""
    e1, e2, b1, b2 = sp.symbols("eps1 eps2 b1 b2", positive=True)
    s1, s2 = sp.symbols("s1 s2", nonnegative=True)
    a1 = sp.exp(e1) * b1 / (1 + s1)
    a2 = sp.exp(e2) * b2 / (1 + s2)
    gap = sp.factor(sp.simplify((b1 * b2 / (a1 * a2) - sp.exp(-(e1 + e2))) * sp.exp(e1 + e2)))
    nonneg = bool(gap.is_nonnegative)
    # The parametrisation covers exactly the hypothesis: s_i = e^eps_i b_i/a_i - 1 >= 0.
    back = sp.simplify(sp.exp(e1) * b1 / a1 - 1 - s1) == 0
    return Outcome(
        nonneg and back,
        f"with a_i = e^eps_i b_i/(1 + s_i), s_i >= 0: (lhs - rhs) e^(eps1 + eps2) = {gap}, "
        f"nonnegative by SymPy's assumptions: {nonneg}; parametrisation inverted: {back}",
    )


def laplace_average() -> Outcome:
    """The mean of k Laplace(f(x), b) answers has variance 2b^2/k; by Chebyshev
    Pr[|mean - f(x)| >= t] <= 2b^2/(k t^2) -> 0 as k -> oo."""
    z = sp.Symbol("z", real=True)
    b, t, k = sp.symbols("b t k", positive=True)
    density = sp.exp(-sp.Abs(z) / b) / (2 * b)
    mass = sp.integrate(density, (z, -sp.oo, sp.oo))
    mean = sp.integrate(z * density, (z, -sp.oo, sp.oo))
    variance = sp.integrate(z**2 * density, (z, -sp.oo, sp.oo)) - mean**2
    of_mean = sp.simplify(k * variance / k**2)
    tail = of_mean / t**2
    limit = sp.limit(tail, k, sp.oo)
    ok = mass == 1 and mean == 0 and sp.simplify(variance - 2 * b**2) == 0 and limit == 0
    return Outcome(
        ok,
        f"Laplace(0, b): mass {mass}, mean {mean}, variance {variance}; the mean of k answers "
        f"has variance {of_mean}; Chebyshev tail {tail} -> {limit} as k -> oo",
    )


def degradation() -> Outcome:
    """No fixed (eps', delta' < 1) covers k repetitions of the eps-DP Laplace mechanism for
    all k, and the pure privacy loss of k repetitions is exactly k eps."""
    eps, epsp, d, s, k = sp.symbols("eps epsprime d s k", positive=True)  # d = 1 - delta'
    b = 1 / eps  # sensitivity 1
    # S = {mean < 1/2}: Pr_x[S] >= 1 - 8 b^2/k, Pr_y[S] <= 8 b^2/k (Chebyshev at t = 1/2).
    c = 8 * b**2 * (1 + sp.exp(epsp))
    gap = sp.simplify((1 - 8 * b**2 / k) - (sp.exp(epsp) * 8 * b**2 / k + (1 - d)))
    at = sp.factor(sp.simplify(gap.subs(k, c / d + s)))
    beyond = bool(at.is_positive)
    z = sp.Symbol("z", nonpositive=True)
    loss = sp.simplify((sp.Abs(z - 1) - sp.Abs(z)) / b)  # log-density ratio, f(x)=0, f(y)=1
    total = sp.simplify(k * loss)
    with mpmath.workdps(30):
        threshold = 8 * (1 + mpmath.e) / mpmath.mpf("0.9")
    return Outcome(
        beyond and sp.simplify(total - k * eps) == 0,
        f"(eps', delta')-DP would need {gap} <= 0 on S = {{mean < 1/2}}; at k = c/(1 - delta') + s "
        f"(c = {c}) it is {at} > 0: {beyond} (e.g. eps = eps' = 1, delta' = 0.1: every "
        f"k > {mpmath.nstr(threshold, 6)} violates it); privacy loss at z_i <= 0: "
        f"{loss} per answer, {total} for k answers",
    )


def repeated_application() -> Outcome:
    """The induction behind Corollary 3.15: sum_{i<k} eps_i + eps_k = sum_{i<=k} eps_i, and
    e^(sum_{i<k}) e^(eps_k) = e^(sum_{i<=k})."""
    i, k = sp.symbols("i k", integer=True, positive=True)
    e = sp.IndexedBase("eps")
    before, last, upto = (
        sp.Sum(e[i], (i, 1, k - 1)),
        sp.Sum(e[i], (i, k, k)),
        sp.Sum(e[i], (i, 1, k)),
    )
    sums = last.doit() == e[k] and sp.simplify(before + last - upto) == 0
    exps = sp.simplify(sp.powsimp(sp.exp(before) * sp.exp(e[k])) - sp.exp(before + e[k])) == 0
    return Outcome(
        sums and exps,
        f"Sum(eps_i, i=k..k) = {last.doit()}; Sum(i<k) + eps_k - Sum(i<=k) simplifies to 0: "
        f"{sums}; e^a e^b = e^(a + b): {exps}",
    )
