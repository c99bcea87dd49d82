"""The decision procedure (z3 nlsat after abstraction): what it proves, what it refuses, and a
soundness property over random polynomial inequalities whose truth is known by
construction (it never proves a false one; its model of a false one is a real
counterexample)."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symbolic.functions import Phi
from symbolic.rules.facts import Fact
from symbolic.rules.nra import DECIDED, decide

x, y = sp.symbols("x y", real=True)
u = sp.Symbol("u", nonnegative=True)
eps = sp.Symbol("eps", positive=True)
delta = sp.Symbol("delta", positive=True)
n = sp.Symbol("n", integer=True, positive=True)


@pytest.mark.parametrize(
    ("goal", "facts"),
    [
        (sp.Rational(1, 4) - x * (1 - x), []),
        (sp.exp(eps) - 1 - eps, []),
        (x + (sp.log(1 / delta) - y) ** 2 - x, []),
        (sp.sqrt(eps + delta) - sp.sqrt(delta), []),
        (u**2 - sp.tanh(u) ** 2, []),
        (1 - Phi(x) - Phi(-x) + Phi(y) ** 2, []),
        (1 - sp.tanh(x), []),
        (x - sp.log(1 + x), [Fact(x, False, "x >= 0")]),
        (1 / (4 * n) - x * (1 - x) / n, []),
    ],
)
def test_decides_true_goals(goal: sp.Expr, facts: list[Fact]) -> None:
    d = decide(goal, False, facts)
    assert d.trace is not None and d.trace.startswith(DECIDED), d
    assert d.candidate is None


@pytest.mark.parametrize(
    "goal",
    [
        sp.exp(eps) - 1 - 2 * eps,  # the tangent line's mutant
        sp.Rational(1, 5) - x * (1 - x),
        sp.log(1 + u) - u + u**2 / 3,
        sp.sqrt(eps) - eps,
    ],
)
def test_refuses_false_goals_and_gives_a_candidate(goal: sp.Expr) -> None:
    d = decide(goal, False, [])
    assert d.trace is None
    assert d.status == "sat"
    assert d.candidate is not None  # only a candidate: symbolic/ never refutes


def test_a_log_argument_must_be_proved_positive() -> None:
    """log(x) - (x - 1) <= 0 holds only where log is defined: not proved for real x."""
    assert decide(x - 1 - sp.log(x), False, []).trace is None
    assert decide(x - 1 - sp.log(x), False, [Fact(x, True, "x > 0")]).trace is not None


def test_complex_symbols_are_not_sent() -> None:
    z = sp.Symbol("z")
    assert decide(z**2, False, []).status == "not abstractable"


def _poly(coeffs: list[int], v: sp.Symbol, w: sp.Symbol) -> sp.Expr:
    monomials = [1, v, w, v * w, v**2, w**2]
    return sum((c * m for c, m in zip(coeffs, monomials, strict=False)), sp.Integer(0))


coefficients = st.lists(st.integers(-4, 4), min_size=6, max_size=6)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(a=coefficients, b=coefficients, c=st.integers(0, 3))
def test_sums_of_squares_are_never_refuted(a: list[int], b: list[int], c: int) -> None:
    """``p**2 + q**2 + c >= 0`` is true: z3 proves it or gives up, never finds a model."""
    goal = sp.expand(_poly(a, x, y) ** 2 + _poly(b, x, y) ** 2 + c)
    d = decide(goal, False, [], timeout_ms=1000)
    assert d.status != "sat", (goal, d)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    a=coefficients,
    px=st.fractions(-3, 3, max_denominator=4),
    py=st.fractions(-3, 3, max_denominator=4),
    lo=st.fractions(-3, 0, max_denominator=4),
)
def test_false_polynomial_goals_are_never_proved(
    a: list[int], px: Fraction, py: Fraction, lo: Fraction
) -> None:
    """A random polynomial shifted so that it is negative at a known point of the facts'
    box: z3 must not prove it; a model it returns makes the goal negative."""
    p = _poly(a, x, y)
    point = {
        x: sp.Rational(px.numerator, px.denominator),
        y: sp.Rational(py.numerator, py.denominator),
    }
    low = sp.Rational(lo.numerator, lo.denominator)
    point = {k: max(v, low) for k, v in point.items()}
    goal = sp.expand(p - p.subs(point) - sp.Rational(1, 7))  # negative at the point
    facts = [Fact(x - low, False, "x >= lo"), Fact(y - low, False, "y >= lo")]
    d = decide(goal, False, facts, timeout_ms=1000)
    assert d.trace is None, (goal, point)
    if d.candidate is not None:
        value = goal.subs({s: d.candidate.get(s.name, 0) for s in goal.free_symbols})
        assert float(value) < 1e-9, (goal, d.candidate)


def test_the_resource_count_bounds_z3_not_the_clock() -> None:
    """Whether z3 decides is bounded by its resource count (the same on a busy machine):
    one unit is not enough to decide even x**2 - 2x + 1 >= 0, the default is."""
    from symbolic.rules.nra import decide

    x = sp.Symbol("x", real=True)
    goal = x**2 - 2 * x + 1
    assert decide(goal, False, [], rlimit=1).status == "unknown"
    assert decide(goal, False, []).status == "unsat"


def test_a_positive_integer_is_at_least_one_in_the_relaxation() -> None:
    # c in Z, c > 0: the real relaxation keeps c >= 1 (NumericSparse's c answers), so
    # 32 c log(2/delta) >= 1 is decided; without it z3 finds c = 1/100 and proves nothing.
    c = sp.Symbol("c", integer=True, positive=True)
    delta = sp.Symbol("delta", positive=True)
    facts = [Fact(1 - delta, True, "hypothesis")]
    assert decide(32 * c * sp.log(2 / delta) - 1, False, facts).trace is not None
    assert decide(c**2 - c, False, []).trace is not None
    # ... and nothing more: 2 c <= c**2 fails at c = 1, a false goal stays unproved.
    assert decide(c**2 - 2 * c, False, []).trace is None
    # a nonnegative integer may be 0 (n**2 + n >= 1 is false there); between 0 and 1 the
    # relaxation is only weaker (n**2 >= n is not decided), never unsound
    n = sp.Symbol("n", integer=True, nonnegative=True)
    assert decide(n**2 + n - 1, False, []).trace is None
    # a negative integer is at most -1
    m = sp.Symbol("m", integer=True, negative=True)
    assert decide(m**2 + m, False, []).trace is not None  # false for m in (-1, 0)
    assert decide(m**2 + 2 * m, False, []).trace is None  # false at m = -1
