"""The derivative rule, through prove_relation: the textbook inequalities it proves, their
mutants it does not, and the ways it could be unsound (a pole, a strict goal at a closed
end, an integer variable) that it refuses."""

from __future__ import annotations

import pytest
import sympy as sp

from symbolic.relations import Relation
from symbolic.rules import Context, Fact, prove_relation

x = sp.Symbol("x", nonnegative=True)
s = sp.Symbol("s", real=True)
eps = sp.Symbol("eps", positive=True)
q = sp.Symbol("q", nonnegative=True)
GE, LE, GT = Relation.GE, Relation.LE, Relation.GT

TRUE = [
    ("tanh cubic", sp.tanh(x), GE, x - x**3 / 3, []),
    ("Hoeffding cosh", sp.cosh(s), LE, sp.exp(s**2 / 2), []),
    ("Bernstein h", (1 + x) * sp.log(1 + x) - x, GE, x**2 / (2 + 2 * x / 3), []),
    ("log1p cubic", sp.log(1 + x), LE, x - x**2 / 2 + x**3 / 3, []),
    (
        "amplification",
        sp.log(1 + q * (sp.exp(eps) - 1)),
        LE,
        eps,
        [Fact(1 - q, False, "q <= 1")],
    ),
]
MUTANTS = [
    ("tanh cubic", sp.tanh(x), GE, x - x**3 / 4, []),
    ("Hoeffding cosh", sp.cosh(s), LE, sp.exp(s**2 / 3), []),
    ("Bernstein h", (1 + x) * sp.log(1 + x) - x, GE, x**2 / (2 + x / 3), []),
    ("log1p cubic", sp.log(1 + x), LE, x - x**2 / 2 + x**3 / 4, []),
    (
        "amplification",
        sp.log(1 + q * (sp.exp(eps) - 1)),
        LE,
        9 * eps / 10,
        [Fact(1 - q, False, "q <= 1")],
    ),
]


@pytest.mark.parametrize(("name", "lhs", "rel", "rhs", "facts"), TRUE, ids=[t[0] for t in TRUE])
def test_textbook_inequalities_are_proved(
    name: str, lhs: sp.Expr, rel: Relation, rhs: sp.Expr, facts: list[Fact]
) -> None:
    trace = prove_relation(lhs, rel, rhs, Context(facts))
    assert trace is not None, name
    assert "derivative rule" in trace or "nonlinear real arithmetic" in trace


@pytest.mark.parametrize(
    ("name", "lhs", "rel", "rhs", "facts"), MUTANTS, ids=[t[0] for t in MUTANTS]
)
def test_their_mutants_are_not(
    name: str, lhs: sp.Expr, rel: Relation, rhs: sp.Expr, facts: list[Fact]
) -> None:
    assert prove_relation(lhs, rel, rhs, Context(facts)) is None, name


def test_a_pole_inside_the_interval_is_refused() -> None:
    """-1/(x - 1) - 1 is 0 at x = 0 with derivative 1/(x - 1)**2 >= 0, yet -2 at x = 2:
    the rule must find that it is not continuous on [0, oo)."""
    assert prove_relation(-1 / (x - 1), GE, sp.Integer(1), Context([])) is None


def test_a_strict_goal_is_not_proved_from_a_zero_at_a_closed_end() -> None:
    """eps (e^eps - 1) is 0 at eps = 0, which the domain [0, 1] contains."""
    e0 = sp.Symbol("e0", nonnegative=True)
    goal = e0 * (sp.exp(e0) - 1)
    assert prove_relation(goal, GT, sp.Integer(0), Context([Fact(1 - e0, False, "")])) is None


def test_a_strict_goal_is_proved_from_a_zero_at_an_open_end() -> None:
    assert prove_relation(eps * (sp.exp(eps) - 1), GT, sp.Integer(0), Context([])) is not None


def test_an_integer_variable_is_not_differentiated() -> None:
    """(n - 1)(n - 2) >= 0 holds at every integer, not between 1 and 2: the rule must not
    reach it by treating n as real with its integrality kept."""
    n = sp.Symbol("n", integer=True, positive=True)
    trace = prove_relation((n - 1) * (n - 2), GE, sp.Integer(0), Context([]))
    assert trace is None or "derivative rule in n" not in trace


def test_a_bound_below_the_sign_assumption_is_not_trusted() -> None:
    """x >= 0 assumed and x >= y - 5 a fact: starting at y - 5 (possibly negative), the
    subgoals must not use x >= 0; -x**3 + x >= -x**3 + x holds, but x**2 - x >= 0 fails at
    x = 1/2 and must not be proved from x >= y - 5."""
    y = sp.Symbol("y", real=True)
    facts = [Fact(x - y + 5, False, "x >= y - 5")]
    assert prove_relation(x**2, GE, x, Context(facts)) is None
