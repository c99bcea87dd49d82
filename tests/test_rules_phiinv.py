"""Monotonicity of PhiInv (the standard normal quantile) in the rules: increasing on [0, 1],
so the rule needs both arguments shown inside it (gdp-clt-berry-esseen's conclusion)."""

from __future__ import annotations

import mpmath
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from symbolic.functions import Phi, PhiInv
from symbolic.relations import Relation
from symbolic.rules import prove_relation

from .conftest import context

P = sp.Symbol("p", real=True)
D = sp.Symbol("d", nonnegative=True)


IN_UNIT = (sp.GreaterThan(P, 0), sp.LessThan(P + D, 1))


def test_phiinv_is_increasing_inside_the_unit_interval() -> None:
    ctx = context(*IN_UNIT)
    trace = prove_relation(PhiInv(P + D), Relation.GE, PhiInv(P), ctx)
    assert trace is not None and "PhiInv" in trace


def test_phiinv_rule_does_not_fire_on_false_variants() -> None:
    ctx = context(*IN_UNIT)
    assert prove_relation(PhiInv(P), Relation.GE, PhiInv(P + D), ctx) is None
    # Without the arguments known inside [0, 1] the comparison is not even defined.
    assert prove_relation(PhiInv(P + D), Relation.GE, PhiInv(P), context(IN_UNIT[0])) is None
    assert prove_relation(PhiInv(P + D), Relation.GE, PhiInv(P), context(IN_UNIT[1])) is None


@given(
    lo=st.fractions(min_value=0, max_value=1),
    width=st.fractions(min_value=0, max_value=1),
    shift=st.fractions(min_value=-1, max_value=1),
)
def test_phiinv_rule_is_sound(lo, width, shift) -> None:  # type: ignore[no-untyped-def]
    """Whenever the rules prove PhiInv(x + s) >= PhiInv(x) for x in [lo, lo + width], it
    holds numerically on a grid of that interval, whose arguments the rule has shown to be
    in [0, 1]."""
    lo, width, s = (sp.Rational(v.numerator, v.denominator) for v in (lo, width, shift))
    x = sp.Symbol("x", real=True)
    ctx = context(sp.GreaterThan(x, lo), sp.LessThan(x, lo + width))
    trace = prove_relation(PhiInv(x + s), Relation.GE, PhiInv(x), ctx)
    if trace is None or s == 0:  # s = 0: the two sides are identical
        return
    with mpmath.workdps(30):
        for i in range(11):
            xv = mpmath.mpf(lo.p) / lo.q + mpmath.mpf(width.p) / width.q * i / 10
            big, small = xv + mpmath.mpf(s.p) / s.q, xv
            assert small >= 0 and big <= 1 and big >= small
            if small > 0 and big < 1:
                assert mpmath.sqrt(2) * mpmath.erfinv(2 * big - 1) >= mpmath.sqrt(
                    2
                ) * mpmath.erfinv(2 * small - 1)


G = sp.Symbol("g", nonnegative=True)
A = sp.Symbol("a", real=True)


def test_extra_nonnegative_terms_and_a_pair() -> None:
    """2 g + Phi(b) - Phi(a): 2 g >= 0 alone and Phi(b) - Phi(a) >= 0 as a pair."""
    ctx = context(sp.LessThan(G, A), sp.LessThan(A, 1 - G))
    lhs = -G + Phi(PhiInv(1 - A - G) - P)
    rhs = G + Phi(PhiInv(1 - A + G) - P)
    trace = prove_relation(lhs, Relation.LE, rhs, ctx)
    assert trace is not None and "pairs and nonnegative terms" in trace
    # Flipped, or with the extra term negative, it is false and must not be proved.
    assert prove_relation(rhs, Relation.LE, lhs, ctx) is None
    assert prove_relation(G + lhs, Relation.LE, -G + rhs - 1, ctx) is None
