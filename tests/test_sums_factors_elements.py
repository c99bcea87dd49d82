"""The sum rules added for the catalog's theorems for every n (issue 24, item 4): a common
positive factor struck (symbolic/rules/sums/factors.py); a first term peeled off, "for all"
equalities inside sums and products, elements at fixed indices (symbolic/rules/sums/
elements.py).  Each: what it proves, a soundness property (whenever it says proved,
written-out instances hold), and a false variant it refuses."""

from __future__ import annotations

import random

import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symbolic.domains import Variable, parse_domain
from symbolic.families import Family, ForAll, instantiate
from symbolic.relations import Relation
from symbolic.rules.sums import prove_sums

from .test_sums_rules import ATOMS, HYPS, IX, RELATIONS, VARS, S, _holds, eps, n, p, q, sides

PROPERTY = settings(
    max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)


def proves(lhs: sp.Expr, rel: Relation, rhs: sp.Expr, hyps: list[sp.Basic] = HYPS) -> str | None:
    return prove_sums(lhs, rel, rhs, hypotheses=hyps, variables=VARS)


# -- a common positive factor ---------------------------------------------------------------

POSITIVE_FACTORS = [S(p), 1 / S(q), sp.exp(eps) / S(sp.exp(p)), S(p + q) ** 2]
"""Factors holding sums, positive for every n >= 1 and every family of the hypotheses."""
UNSIGNED_FACTORS = [S(p - q), -S(p), S(p) - 1]
"""Factors of either sign, or 0 (S(p) - 1 is 0 under the hypotheses)."""


def test_common_factor_struck() -> None:
    for c in POSITIVE_FACTORS:
        trace = proves(c * S(sp.Min(p, q)), Relation.LE, c * S(p))
        assert trace is not None and "common positive factor" in trace and "termwise" in trace


@settings(PROPERTY, max_examples=8)
@given(sides(), sides(), st.sampled_from(RELATIONS), st.sampled_from(POSITIVE_FACTORS))
def test_common_factor_soundness(lhs: sp.Expr, rhs: sp.Expr, rel: Relation, c: sp.Expr) -> None:
    trace = proves(c * lhs, rel, c * rhs)
    if trace is None:
        return
    for length in (1, 3, 6):
        assert _holds(c * lhs, rel, c * rhs, length, length), (lhs, rel.value, rhs, trace)


def test_factor_of_unknown_sign_is_not_struck() -> None:
    # Sum min(p, q) <= Sum p holds termwise; times a factor that may be negative or 0 it
    # does not follow (and is false where the factor is negative).
    small, big = S(sp.Min(p, q)), S(p) + 1
    assert proves(small, Relation.LT, big) is not None
    for c in UNSIGNED_FACTORS:
        assert proves(c * small, Relation.LT, c * big) is None, c
    assert not all(_holds(-S(p) * small, Relation.LT, -S(p) * big, k, 0) for k in (1, 2, 3))


# -- a first term peeled off ----------------------------------------------------------------

M = Variable("m", parse_domain("Z>=0"))
R = Variable("r", parse_domain("(0, 1)"), family=Family("i", 1, M.symbol))


@PROPERTY
@given(st.lists(st.tuples(st.integers(-2, 2), st.sampled_from(ATOMS)), min_size=1, max_size=3))
def test_peeling_soundness(terms: list[tuple[int, sp.Expr]]) -> None:
    body = sp.Add(*[c * a for c, a in terms])
    for kind, join in ((sp.Sum, sp.Add), (sp.Product, sp.Mul)):
        whole = kind(body, (IX, 1, n))
        peeled = join(body.xreplace({IX: 1}), kind(body, (IX, 2, n)))
        trace = proves(whole, Relation.EQ, peeled)
        if trace is not None:
            for length in (1, 2, 5):
                assert _holds(whole, Relation.EQ, peeled, length, length), (whole, trace)
        # The wrong first term is refused (it differs at some instance unless body is flat).
        wrong = join(body.xreplace({IX: 2}), kind(body, (IX, 2, n)))
        if proves(whole, Relation.EQ, wrong) is not None:
            assert all(_holds(whole, Relation.EQ, wrong, k, k) for k in (1, 2, 5))


def test_peeling_needs_a_nonempty_range() -> None:
    r = R.base[IX]
    whole, peeled = sp.Product(r, (IX, 1, M.symbol)), R.base[1] * sp.Product(r, (IX, 2, M.symbol))
    assert prove_sums(whole, Relation.EQ, peeled, hypotheses=[], variables=[M, R]) is None
    at_n = prove_sums(S(p), Relation.EQ, P1 + sp.Sum(p, (IX, 2, n)), hypotheses=[], variables=VARS)
    assert at_n is not None and "first term peeled off" in at_n


P1 = p.base[1]


# -- "for all" equalities and elements at fixed indices -------------------------------------

EQUAL_FROM_2 = [ForAll(sp.Eq(p, q), (IX, 2, n))]


def _instance_values(length: int, seed: int, equal_from: int) -> dict[sp.Symbol, sp.Expr]:
    rng = random.Random(seed)
    values: dict[sp.Symbol, sp.Expr] = {eps: sp.Float(rng.uniform(0.1, 2), 30)}
    for k in range(1, length + 1):
        a = sp.Float(rng.uniform(0.05, 0.95), 30)
        b = a if k >= equal_from else sp.Float(rng.uniform(0.05, 0.95), 30)
        values[sp.Symbol(f"p_{k}", positive=True)] = a
        values[sp.Symbol(f"q_{k}", positive=True)] = b
    return values


def _gap(lhs: sp.Expr, rhs: sp.Expr, length: int, values: dict[sp.Symbol, sp.Expr]) -> sp.Expr:
    at = [instantiate(x, {n: length}).xreplace(values).doit() for x in (lhs, rhs)]
    return sp.N(at[1] - at[0], 30)


def test_forall_equality_inside_a_product() -> None:
    ones = sp.Product(p / q, (IX, 2, n))
    trace = proves(ones, Relation.EQ, 1, EQUAL_FROM_2)
    assert trace is not None and "'for all' equalities" in trace
    for length in (1, 2, 6):
        assert abs(_gap(ones, 1, length, _instance_values(length, length, 2))) < 1e-20
    # Over 1..n the equality does not hold at i = 1: refused, and false there.
    whole = sp.Product(p / q, (IX, 1, n))
    assert proves(whole, Relation.EQ, 1, EQUAL_FROM_2) is None
    assert abs(_gap(whole, 1, 3, _instance_values(3, 0, 2))) > 1e-6


def test_forall_equality_at_a_fixed_index() -> None:
    bound = [ForAll(sp.LessThan(p, sp.exp(eps) * q), (IX, 1, n))]
    trace = proves(P1 / q.base[1], Relation.LE, sp.exp(eps), bound)
    assert trace is not None and "at 1" in trace
    # The hypothesis from i = 2 on says nothing of p[1]; nor one over 1..n of p[n + 1].
    later = [ForAll(sp.LessThan(p, sp.exp(eps) * q), (IX, 2, n))]
    assert proves(P1 / q.base[1], Relation.LE, sp.exp(eps), later) is None
    beyond = p.base[n + 1] / q.base[n + 1]
    assert proves(beyond, Relation.LE, sp.exp(eps), bound) is None
