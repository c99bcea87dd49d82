"""Checks of seed 004, sections 三, 4.1 and 4.4: f-DP, its symmetrization, f_{eps, delta} and
post-processing (see :mod:`derivations.audit.seed_004_fdp`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

import mpmath
from flint import arb

from derivations.app.claims import parse_claim
from derivations.audit.seed_004_tools import (
    PL,
    F,
    ball_curve,
    ball_value,
    curve,
    dominates,
    eps_delta_pair,
    f_eps_delta,
    inverse,
    is_tradeoff,
    lower_hull,
    over_instances,
    pl_max,
    pl_min,
    push,
    random_kernel,
    random_pair,
    same,
    searched,
)
from numeric_checks import check_claim
from numeric_checks.dp.finite_search import FiniteStatement, all_of, hockey, implies, leq, search
from numeric_checks.dp.gaussian import tradeoff_eps_delta
from numeric_checks.dp.tradeoff import tradeoff_violations
from numeric_checks.plan import CheckOptions
from symbolic.audit import Outcome
from symbolic.verdicts import Verdict

DRAWS = 300
OPTIONS = CheckOptions(points=60, search_budget=60)


# --- section 三: f-DP and f^S ------------------------------------------------------------


def _mechanism(r: random.Random) -> tuple[PL, PL, PL]:
    """A mechanism on one pair of neighbours S, S' (M(S) = P, M(S') = Q) and a trade-off
    function f it satisfies in both orders: the convex minorant of min(T(P,Q), T(Q,P), h)
    for a third, random trade-off function h, so that f is in general not symmetric."""
    p, q = random_pair(r)
    a, b = random_pair(r)
    t_pq, t_qp = curve(p, q), curve(q, p)
    f = lower_hull(pl_min(pl_min(t_pq, t_qp), curve(a, b)))
    return t_pq, t_qp, f


def _symmetric_instance(r: random.Random) -> tuple[bool, str]:
    t_pq, t_qp, f = _mechanism(r)
    for name, t in (("T(P,Q)", t_pq), ("T(Q,P)", t_qp)):
        holds, why = dominates(t, f)
        if not holds:
            return False, f"set-up: {name} < f {why}"
        holds, why = dominates(inverse(t), inverse(f))  # the inverse preserves order
        if not holds:
            return False, f"{name} >= f but {name}^-1 < f^-1 {why}"
        holds, why = dominates(t, inverse(f))
        if not holds:
            return False, f"M is f-DP but {name} < f^-1 {why}"
    return True, ""


def fdp_symmetric() -> Outcome:
    return over_instances("f-DP (both orders) implies f^-1-DP", 60, 10, _symmetric_instance)


def _swap_instance(r: random.Random) -> tuple[bool, str]:
    p, q = random_pair(r)
    equal, why = same(inverse(curve(p, q)), curve(q, p))
    return equal, f"P={p}, Q={q}: {why}"


def inverse_is_swap() -> Outcome:
    return over_instances("T(P,Q)^-1 = T(Q,P)", 60, 11, _swap_instance)


def fs_above_f() -> Outcome:
    claim = parse_claim(
        """
[claim]
lhs = "Max(f, finv)"
relation = ">="
rhs = "f"
[variables]
f = "[0, 1]"
finv = "[0, 1]"
"""
    )
    result = check_claim(claim, OPTIONS)
    return Outcome(result.verdict is Verdict.PROVED, f"{result.verdict.value}: {result.evidence}")


def _self_inverse_instance(r: random.Random) -> tuple[bool, str]:
    p, q = random_pair(r)
    f = curve(p, q)
    fs = pl_max(f, inverse(f))
    ok, why = is_tradeoff(fs)
    if not ok:
        return False, f"f^S of T({p}, {q}) is {why}"
    equal, why = same(inverse(fs), fs)
    return equal, f"f = T({p}, {q}): {why}"


def fs_self_inverse() -> Outcome:
    return over_instances(
        "f^S = (f^S)^-1 and f^S is a trade-off function", 60, 12, _self_inverse_instance
    )


def _fs_instance(r: random.Random) -> tuple[bool, str]:
    t_pq, t_qp, f = _mechanism(r)
    fs = pl_max(f, inverse(f))
    for name, t in (("T(P,Q)", t_pq), ("T(Q,P)", t_qp)):
        holds, why = dominates(t, fs)
        if not holds:
            return False, f"M is f-DP but {name} < f^S {why}"
    return True, ""


def fdp_implies_fs() -> Outcome:
    out = over_instances("f-DP implies f^S-DP", 60, 10, _fs_instance)
    r = random.Random(4010)
    asymmetric = sum(1 for _ in range(60) if same(*_asym(r))[0] is False)
    return Outcome(out.holds, f"{out.detail}; f was asymmetric in {asymmetric} of them")


def _asym(r: random.Random) -> tuple[PL, PL]:
    f = _mechanism(r)[2]
    return f, inverse(f)


# --- section 4.1: f_{eps, delta} -------------------------------------------------------


def _formula_instance(r: random.Random) -> tuple[bool, str]:
    ratio, delta = F(r.randint(1, 30), r.randint(1, 6)), F(r.randint(0, 9), 10)
    ratio = max(ratio, 1 / ratio)  # e^eps >= 1
    f = f_eps_delta(ratio, delta)
    ok, why = is_tradeoff(f)
    if not ok:
        return False, f"e^eps={ratio}, delta={delta}: the formula is {why}"
    equal, why = same(f, curve(*eps_delta_pair(ratio, delta)))
    return equal, f"e^eps={ratio}, delta={delta}: {why}"


def f_eps_delta_is_tradeoff() -> Outcome:
    exact = over_instances("f_{eps,delta} = T(4-point pair)", 60, 20, _formula_instance)
    bad: list[str] = []
    with mpmath.workdps(30):
        for e, d in (("0", "0"), ("0.5", "0.01"), ("2", "0.3"), ("8", "1e-6")):
            v = tradeoff_violations(partial(tradeoff_eps_delta, e, d), samples=100)
            bad += [f"eps={e}, delta={d}: {x.kind} at {x.alpha}" for x in v]
    sampled = "four properties sampled at eps in {0, 0.5, 2, 8} (224 alphas, 30 digits)"
    return Outcome(
        exact.holds is True and not bad, f"{exact.detail}; {sampled}: {bad or 'no violation'}"
    )


def _eps_delta_equivalence(d: Sequence[Sequence[Any]], p: Mapping[str, Any]) -> bool | None:
    """(eps, delta)-DP of the pair in both orders <=> T(P, Q) >= f_{eps, delta}."""
    pp, qq = d
    e, delta = p["eps"], p["delta"]
    dp = all_of(leq(hockey(pp, qq, e), delta), leq(hockey(qq, pp, e), delta))
    zero = arb(0)

    def f(a: Any) -> Any:
        return zero.max(1 - delta - e.exp() * a).max((-e).exp() * (1 - delta - a))

    above = all_of(*(leq(f(a), b) for a, b in ball_curve(pp, qq)))
    return all_of(implies(dp, above), implies(above, dp))


def eps_delta_tradeoff_equivalence() -> Outcome:
    found = search(
        FiniteStatement(
            "(eps, delta)-DP <=> T(P, Q) >= f_{eps, delta}",
            2,
            _eps_delta_equivalence,
            params={"eps": (F(0), F(3)), "delta": (F(0), F(1))},
        ),
        max_examples=DRAWS,
    )
    return searched(found, "(eps, delta)-DP <=> T >= f_{eps,delta}", DRAWS)


# --- section 4.4: post-processing --------------------------------------------------------


def _post_instance(r: random.Random) -> tuple[bool, str]:
    p, q = random_pair(r)
    kern = random_kernel(r, len(p), r.randint(1, 5))
    holds, why = dominates(curve(push(p, kern), push(q, kern)), curve(p, q))
    return holds, f"P={p}, Q={q}, kernel={kern}: {why}"


def _circulant(d: Sequence[Sequence[Any]], p: Mapping[str, Any]) -> bool | None:
    """T(PK, QK) >= T(P, Q) for the circulant channel K_ij = R[(j - i) mod n]."""
    pp, qq, rr = d
    n = len(pp)

    def out(x: Sequence[Any]) -> list[Any]:
        return [sum((x[i] * rr[(j - i) % n] for i in range(n)), arb(0)) for j in range(n)]

    before, after = ball_curve(pp, qq), ball_curve(out(pp), out(qq))
    xs = [a for a, _ in before] + [a for a, _ in after]
    return all_of(*(leq(ball_value(before, x), ball_value(after, x)) for x in xs))


def post_processing() -> Outcome:
    exact = over_instances("T(PK, QK) >= T(P, Q)", 60, 30, _post_instance)
    found = search(FiniteStatement("post-processing", 3, _circulant), max_examples=DRAWS)
    ball = searched(found, "circulant channels", DRAWS)
    return Outcome(exact.holds is True and ball.holds is True, f"{exact.detail}; {ball.detail}")
