"""The numeric filters that skip proof attempts (symbolic/rules/samples.py): they only ever
say "not identically 0" or "negative at a point of the facts" when that is so, respecting
the symbols' assumptions and the facts; anything doubtful is no evidence."""

from __future__ import annotations

import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.rules.samples import clearly_nonzero, negative_somewhere

x, y = sp.symbols("x y", real=True)
pos = sp.Symbol("pos", positive=True)
neg = sp.Symbol("neg", negative=True)
n = sp.Symbol("n", integer=True, positive=True)


def test_clearly_nonzero_respects_assumptions() -> None:
    assert not clearly_nonzero(sp.sqrt(pos**2) - pos)
    assert not clearly_nonzero(sp.sqrt(neg**2) + neg)  # 0 for a negative symbol
    assert clearly_nonzero(sp.sqrt(neg**2) - neg)
    assert not clearly_nonzero((-1) ** (2 * n) - 1)
    assert clearly_nonzero(sp.exp(x) - x)
    assert not clearly_nonzero(sp.cosh(x) ** 2 - sp.sinh(x) ** 2 - 1)


def test_clearly_nonzero_says_nothing_of_an_undefined_value() -> None:
    assert not clearly_nonzero(sp.log(neg))
    assert not clearly_nonzero(sp.Integral(sp.exp(-(x**2)), (x, 0, pos)))


def test_clearly_nonzero_says_nothing_of_a_function_sympy_cannot_evaluate() -> None:
    # PhiInv stays symbolic under sp.N: the residual is no number, and no evidence either
    # way (comparing it with the tolerance raised TypeError and lost a derivative-rule proof).
    from symbolic.functions import PhiInv

    assert not clearly_nonzero(sp.exp(2 * x) - PhiInv(x / (1 + x)))


def test_clearly_nonzero_evaluates_phi_through_its_erf_form() -> None:
    from symbolic.functions import Phi

    assert clearly_nonzero(sp.exp(2 * x) - Phi(2 * x))
    assert not clearly_nonzero(Phi(x) + Phi(-x) - 1)  # identically 0


def test_negative_somewhere_uses_only_points_of_the_facts() -> None:
    # x - 1 is negative at x = 0, but not where x >= 2
    assert negative_somewhere(x - 1, [])
    assert not negative_somewhere(x - 1, [(x - 2, False)])
    assert negative_somewhere(-(x**2) - 1, [])
    assert not negative_somewhere(x**2 * y**2, [])
    # a strict fact excludes its edge: x > 0 leaves x (y - x)**2 >= 0 nowhere negative
    assert not negative_somewhere(x * (y - x) ** 2, [(x, True)])


@settings(max_examples=40, deadline=None)
@given(
    c=st.lists(st.integers(-3, 3), min_size=3, max_size=3),
    k=st.integers(0, 4),
)
def test_negative_somewhere_never_flags_a_nonnegative_polynomial(c: list[int], k: int) -> None:
    """(c0 x + c1 y + c2)**2 + k x**2 (x - 1/2)**2 >= 0 everywhere: never flagged."""
    g = (c[0] * x + c[1] * y + c[2]) ** 2 + k * x**2 * (x - sp.Rational(1, 2)) ** 2
    assert not negative_somewhere(g, [])
    assert negative_somewhere(-g - 1, [])
