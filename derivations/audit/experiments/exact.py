"""Exact computation: small facts the seeds assert in passing, computed exactly (SymPy for
symbolic identities and limits, fractions for finite laws).

``proved`` is returned only where SymPy reduced a difference to 0 (or decided a sign) for
symbolic values of every variable; an exact computation on one concrete example returns
``refuted`` (a witness) or ``checked`` (that instance only).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import sympy as sp
from flint import arb

from derivations.audit.experiments.base import Result, register
from numeric_checks.dp.finite_search import leq, max_div, tv
from symbolic.errors import InvalidInput
from symbolic.verdicts import Verdict

__all__ = ["coin_laws"]

TOPIC = "exact computation"


def _verdict(ok: bool) -> Verdict:
    # A symbolic computation that did not reduce is not a refutation: no point was found.
    return Verdict.PROVED if ok else Verdict.UNDECIDED


def coin_laws(shared: bool) -> tuple[list[Fraction], list[Fraction], list[Fraction]]:
    """Databases x = 0 and y = 1 records (neighbours); a fair coin c; M_1(n) = (n mod 2)
    xor c and M_2(n) = c (``shared``) or an independent copy of c.  Returns the law of each
    mechanism alone (the same for both, on both databases) and the joint laws on x and on y
    over the outcomes (0,0), (0,1), (1,0), (1,1)."""
    joint: dict[int, list[Fraction]] = {}
    for n in (0, 1):
        law = [Fraction(0)] * 4
        for c, c2 in itertools.product((0, 1), repeat=2):  # each pair of coins: 1/4
            second = c if shared else c2
            law[2 * ((n % 2) ^ c) + second] += Fraction(1, 4)
        joint[n] = law
    marginals = {
        (first, n): [sum((joint[n][2 * a + b] for b in (0, 1)), Fraction(0)) for a in (0, 1)]
        if first
        else [sum((joint[n][2 * a + b] for a in (0, 1)), Fraction(0)) for b in (0, 1)]
        for first in (True, False)
        for n in (0, 1)
    }
    if len({tuple(v) for v in marginals.values()}) != 1:
        raise ArithmeticError(f"each mechanism must have one law on both databases: {marginals}")
    return marginals[True, 0], joint[0], joint[1]


def _balls(p: Sequence[Fraction]) -> list[Any]:
    return [arb(x.numerator) / x.denominator for x in p]


def _show(x: Any) -> str:
    return str(x.mid()) if x.is_finite() else "inf"


def _coins_at(
    _: Mapping[str, Any], witness: Sequence[Sequence[Fraction]], __: Mapping[str, Fraction]
) -> bool | None:
    """Is the pair with the printed joint laws on x and y (0 + 0)-DP?  Each mechanism's
    law is the marginal of the joint law; both must be the same on x and y (0-DP)."""
    on_x, on_y = (list(w) for w in witness)
    firsts = [[w[0] + w[1], w[2] + w[3]] for w in (on_x, on_y)]
    seconds = [[w[0] + w[2], w[1] + w[3]] for w in (on_x, on_y)]
    if firsts[0] != firsts[1] or seconds[0] != seconds[1]:
        return None  # not a witness of this statement: a mechanism alone is not 0-DP
    jx, jy = _balls(on_x), _balls(on_y)
    return leq(max_div(jx, jy).max(max_div(jy, jx)), arb(0))


@register("coins", TOPIC, ("coins",), _coins_at)
def coins(params: Mapping[str, Any]) -> Result:
    """Two 0-DP mechanisms paired, with shared or independent coins: is the pair 0-DP?"""
    kind = params.get("coins", "shared")
    if kind not in ("shared", "independent"):
        raise InvalidInput(f"coins is 'shared' or 'independent', got {kind!r}")
    marginal, on_x, on_y = coin_laws(kind == "shared")
    m, jx, jy = _balls(marginal), _balls(on_x), _balls(on_y)
    each = max_div(m, m).max(max_div(m, m))
    joint = max_div(jx, jy).max(max_div(jy, jx))
    holds = leq(joint, each + each)
    shown = [str(v) for v in on_x], [str(v) for v in on_y]
    detail = (
        f"{kind} coins: each mechanism has law {[str(v) for v in marginal]} on both databases "
        f"(D_inf = {_show(each)}); the pair has law {shown[0]} on x and {shown[1]} on y: "
        f"D_inf = {_show(joint)}, statistical distance {_show(tv(jx, jy))}"
    )
    if holds is False:
        return Result(
            Verdict.REFUTED, "instance: a witness", detail, {}, (tuple(on_x), tuple(on_y))
        )
    if holds is True:
        return Result(Verdict.CHECKED, "instance: this example only", detail)
    return Result(Verdict.UNDECIDED, "instance: this example only", detail)


@register("laplace-average", TOPIC)
def laplace_average(_: Mapping[str, Any]) -> Result:
    """The mean of k Laplace(f(x), b) answers has variance 2b^2/k; by Chebyshev
    Pr[|mean - f(x)| >= t] <= 2b^2/(k t^2) -> 0 as k -> oo (convergence in probability)."""
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
    return Result(
        _verdict(ok),
        "general: every b, t > 0",
        f"Laplace(0, b): mass {mass}, mean {mean}, variance {variance}; the mean of k answers "
        f"has variance {of_mean}; Chebyshev tail {tail} -> {limit} as k -> oo",
    )


@register("degradation", TOPIC)
def degradation(_: Mapping[str, Any]) -> Result:
    """No fixed (eps', delta' < 1) covers k repetitions of the eps-DP Laplace mechanism for
    every k (Chebyshev on the event {mean < 1/2}), and the pure privacy loss of k
    repetitions at answers z_i <= 0 is exactly k eps."""
    eps, epsp, d, s, k = sp.symbols("eps epsprime d s k", positive=True)  # d = 1 - delta'
    b = 1 / eps  # sensitivity 1
    c = 8 * b**2 * (1 + sp.exp(epsp))
    gap = sp.simplify((1 - 8 * b**2 / k) - (sp.exp(epsp) * 8 * b**2 / k + (1 - d)))
    at = sp.factor(sp.simplify(gap.subs(k, c / d + s)))
    beyond = bool(at.is_positive)
    z = sp.Symbol("z", nonpositive=True)
    loss = sp.simplify((sp.Abs(z - 1) - sp.Abs(z)) / b)  # log-density ratio, f(x)=0, f(y)=1
    total = sp.simplify(k * loss)
    return Result(
        _verdict(beyond and sp.simplify(total - k * eps) == 0),
        "general: every eps, eps' > 0 and delta' < 1",
        f"(eps', delta')-DP of k answers would need {gap} <= 0 on S = {{mean < 1/2}}; at "
        f"k = c/(1 - delta') + s (c = {c}) it is {at}, positive by SymPy: {beyond}; privacy "
        f"loss at z_i <= 0: {loss} per answer, {total} for k answers",
    )


@register("repeated-application", TOPIC)
def repeated_application(_: Mapping[str, Any]) -> Result:
    """The induction step behind Corollary 3.15 for symbolic k: sum_{i<k} eps_i + eps_k =
    sum_{i<=k} eps_i, and e^(sum_{i<k}) e^(eps_k) = e^(sum_{i<=k})."""
    i, k = sp.symbols("i k", integer=True, positive=True)
    e = sp.IndexedBase("eps")
    before, last, upto = (
        sp.Sum(e[i], (i, 1, k - 1)),
        sp.Sum(e[i], (i, k, k)),
        sp.Sum(e[i], (i, 1, k)),
    )
    sums = last.doit() == e[k] and sp.simplify(before + last - upto) == 0
    exps = sp.simplify(sp.powsimp(sp.exp(before) * sp.exp(e[k])) - sp.exp(before + e[k])) == 0
    return Result(
        _verdict(sums and exps),
        "general: every k >= 1",
        f"Sum(eps_i, i=k..k) = {last.doit()}; Sum(i<k) + eps_k - Sum(i<=k) simplifies to 0: "
        f"{sums}; e^a e^b = e^(a + b): {exps}",
    )
