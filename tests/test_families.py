"""Indexed families: representation, bound indices, instances at a fixed length."""

from __future__ import annotations

import pytest
import sympy as sp

from symbolic.derivation import Source
from symbolic.domains import Variable, parse_domain
from symbolic.errors import IllFormedDerivation, InvalidInput
from symbolic.families import (
    Family,
    ForAll,
    bound_free_symbols,
    index_symbol,
    instantiate,
    instantiate_hypotheses,
)
from symbolic.kit import by, chain

N = Variable("n", parse_domain("Z>=1"))
P = Variable("p", parse_domain("(0, 1)"), family=Family("i", 1, N.symbol))
Q = Variable("q", parse_domain("(0, 1)"), family=Family("i", 1, N.symbol))
IX = index_symbol("i")
p, q, n = P.base, Q.base, N.symbol
SRC = Source("test", "families")


def test_elements_carry_the_domain_assumptions() -> None:
    assert p[IX].is_positive
    assert instantiate(p[2], {}).is_positive


def test_a_sum_binds_its_index() -> None:
    s = sp.Sum(p[IX] * sp.log(p[IX] / q[IX]), (IX, 1, n))
    assert bound_free_symbols(s) == {n, P.symbol, Q.symbol}
    assert IX in bound_free_symbols(p[IX])


def test_forall_binds_its_index_and_flattens() -> None:
    h = ForAll(sp.LessThan(p[IX], 2 * q[IX]), (IX, 1, n))
    assert IX not in h.free_symbols
    flat = instantiate_hypotheses([h, sp.Eq(sp.Sum(p[IX], (IX, 1, n)), 1)], {n: 2})
    p1, p2 = sp.Symbol("p_1", positive=True), sp.Symbol("p_2", positive=True)
    q1, q2 = sp.Symbol("q_1", positive=True), sp.Symbol("q_2", positive=True)
    assert flat == [sp.LessThan(p1, 2 * q1), sp.LessThan(p2, 2 * q2), sp.Eq(p1 + p2, 1)]


def test_instance_writes_out_family_sums_only() -> None:
    e = sp.Sum(p[IX], (IX, 1, n)) + sp.Sum(IX / n**2, (IX, 1, n))
    out = instantiate(e, {n: 3})
    assert out.has(sp.Sum)  # the sum without family elements keeps its form
    assert not out.has(sp.Indexed)
    assert sp.Symbol("p_3", positive=True) in out.free_symbols


def test_instance_refuses_huge_lengths() -> None:
    with pytest.raises(InvalidInput):
        instantiate(sp.Sum(p[IX], (IX, 1, n)), {n: 10**6})


def test_family_range_must_be_integer_or_variable() -> None:
    with pytest.raises(InvalidInput):
        Family("i", 1, sp.Rational(1, 2))


def test_derivation_refuses_a_loose_index() -> None:
    with pytest.raises(IllFormedDerivation, match="outside"):
        chain(p[IX]).le(sp.S.One, by.algebra("x")).derive(
            id="loose", title="t", source=SRC, variables=[N, P]
        )


def test_derivation_accepts_a_bound_index() -> None:
    d = (
        chain(sp.Sum(p[IX], (IX, 1, n)))
        .eq(sp.S.One, by.hypothesis("sum p = 1"))
        .derive(
            id="bound",
            title="t",
            source=SRC,
            variables=[N, P],
            hypotheses=[sp.Eq(sp.Sum(p[IX], (IX, 1, n)), 1)],
        )
    )
    assert d.id == "bound"


def _claim_over_pair(rhs: sp.Expr):
    from numeric_checks.check import check_claim
    from numeric_checks.plan import CheckOptions

    d = (
        chain(sp.Sum(sp.Abs(p[IX] - q[IX]), (IX, 1, n)))
        .le(rhs, by.algebra("the claim"))
        .derive(
            id="tv",
            title="t",
            source=SRC,
            variables=[N, P, Q],
            hypotheses=[sp.Eq(sp.Sum(p[IX], (IX, 1, n)), 1), sp.Eq(sp.Sum(q[IX], (IX, 1, n)), 1)],
        )
    )
    return check_claim(d, CheckOptions(points=40, search_budget=60))


def test_no_case_split_across_the_terms_of_a_sum() -> None:
    """A sign case on p[i] - q[i] holds for one i, not for the whole sum: the rules once
    'proved' sum |p_i - q_i| <= 1 in the two cases p >= q and p <= q (each gives 0), an
    engine inconsistency once the instance at n = 2 refuted it."""
    from symbolic.verdicts import Verdict

    false = _claim_over_pair(sp.S.One)
    assert false.verdict is Verdict.REFUTED
    assert false.counterexample is not None
    true = _claim_over_pair(sp.Integer(2))
    assert true.verdict is not Verdict.REFUTED
    if true.verdict is Verdict.CHECKED:
        # Not proved for every n: the whole ladder of lengths is checked.
        assert "n = 2..8, 12, 20, 40" in true.evidence
