"""The second-order derivative rule (symbolic/rules/tangency.py): two-variable claims whose
sides touch along a whole line are proved, with the chain of derivatives in the evidence;
their mutants (a constant changed) are not proved and the engine refutes them with a
confirmed counterexample; the ways the rule could be unsound (a pole, a nonzero slope at
the touching point, a concave second derivative, a strict goal) are refused; and a
Hypothesis property over random instances of the same shapes, true and false: it never
proves a false one."""

from __future__ import annotations

from collections.abc import Sequence

import mpmath
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from numeric_checks import CheckOptions, check_claim
from symbolic.readers.claim_files import parse_claim
from symbolic.relations import Relation
from symbolic.rules import Context, Fact, prove_relation
from symbolic.rules.nra import RLIMIT, decide
from symbolic.rules.prover import _capped_rules
from symbolic.rules.tangency import second_order_rule, tangency_rule

s, m, a, b = (sp.Symbol(n, real=True) for n in "smab")
p = sp.Symbol("p", real=True)
q = sp.Symbol("q", real=True)
LE, GE, GT = Relation.LE, Relation.GE, Relation.GT


def within(v: sp.Symbol, lo: sp.Expr, hi: sp.Expr, open_: bool = False) -> list[Fact]:
    return [Fact(v - lo, open_, f"{v} >= {lo}"), Fact(hi - v, open_, f"{v} <= {hi}")]


HALF = sp.Rational(1, 2)
EIGHTH = sp.Rational(1, 8)


def two_point(k: sp.Expr = HALF, c: sp.Expr = sp.S.One) -> sp.Expr:
    return sp.exp(c * m * s + k * s**2)


def bernoulli(k: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    return p * sp.exp((1 - p) * s) + (1 - p) * sp.exp(-p * s), sp.exp(k * s**2)


def logsumexp(k: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    return sp.log((sp.exp(a) + sp.exp(b)) / 2), (a + b) / 2 + k * (a - b) ** 2


KL = p * sp.log(p / q) + (1 - p) * sp.log((1 - p) / (1 - q))
UNIT = [*within(p, 0, 1, True), *within(q, 0, 1, True)]

TRUE = [
    ("Hoeffding two-point", sp.cosh(s) + m * sp.sinh(s), LE, two_point(), within(m, -1, 1)),
    (
        "centred Bernoulli",
        *bernoulli(sp.Rational(1, 8))[:1],
        LE,
        bernoulli(sp.Rational(1, 8))[1],
        within(p, 0, 1),
    ),
    ("scaled cosh", sp.cosh(a * s), LE, sp.exp(a**2 * s**2 / 2), []),
    ("log-sum-exp", logsumexp(sp.Rational(1, 8))[0], LE, logsumexp(sp.Rational(1, 8))[1], []),
    ("Pinsker, both orders", KL, GE, 2 * (p - q) ** 2, UNIT),
    (
        "sign with mean 2p - 1",
        p * sp.exp(s) + (1 - p) * sp.exp(-s),
        LE,
        sp.exp((2 * p - 1) * s + s**2 / 2),
        within(p, 0, 1),
    ),
]
MUTANTS = [
    (
        "two-point s^2/4",
        sp.cosh(s) + m * sp.sinh(s),
        LE,
        two_point(sp.Rational(1, 4)),
        within(m, -1, 1),
    ),
    (
        "two-point 5 s^2/11",
        sp.cosh(s) + m * sp.sinh(s),
        LE,
        two_point(sp.Rational(5, 11)),
        within(m, -1, 1),
    ),
    (
        "two-point mean 9/10",
        sp.cosh(s) + m * sp.sinh(s),
        LE,
        two_point(c=sp.Rational(9, 10)),
        within(m, -1, 1),
    ),
    (
        "Bernoulli s^2/9",
        bernoulli(sp.Rational(1, 9))[0],
        LE,
        bernoulli(sp.Rational(1, 9))[1],
        within(p, 0, 1),
    ),
    ("log-sum-exp /9", logsumexp(sp.Rational(1, 9))[0], LE, logsumexp(sp.Rational(1, 9))[1], []),
    ("Pinsker 5/2", KL, GE, 5 * (p - q) ** 2 / 2, UNIT),
]


@pytest.mark.parametrize(("name", "lhs", "rel", "rhs", "facts"), TRUE, ids=[t[0] for t in TRUE])
def test_claims_touching_along_a_line_are_proved(
    name: str, lhs: sp.Expr, rel: Relation, rhs: sp.Expr, facts: list[Fact]
) -> None:
    trace = prove_relation(lhs, rel, rhs, Context(facts))
    assert trace is not None, name
    assert "second-order derivative rule" in trace
    # the chain of derivatives is named: h, h' and h''
    assert "h' = " in trace and "h'' = " in trace and "(Taylor)" in trace


@pytest.mark.parametrize(
    ("name", "lhs", "rel", "rhs", "facts"), MUTANTS, ids=[t[0] for t in MUTANTS]
)
def test_their_mutants_are_not_proved_by_the_rule(
    name: str, lhs: sp.Expr, rel: Relation, rhs: sp.Expr, facts: list[Fact]
) -> None:
    small, big = (lhs, rhs) if rel is LE else (rhs, lhs)
    assert second_order_rule(small, big, False, facts, sub_prover) is None, name


def test_the_subtlest_mutant_is_not_proved_by_the_whole_search() -> None:
    """5 s**2/11 instead of s**2/2: false only near s = 0, through prove_relation (every
    rule, the decision procedure, both derivative rules)."""
    name, lhs, rel, rhs, facts = MUTANTS[1]
    assert prove_relation(lhs, rel, rhs, Context(facts)) is None, name


TWO_POINT = """
[claim]
lhs = "cosh(s) + m*sinh(s)"
relation = "<="
rhs = "{rhs}"
[variables]
s = "R"
m = "{m}"
"""
OPTIONS = CheckOptions(points=60, search_budget=60, budget=120.0)


@pytest.mark.parametrize(
    "rhs", ["exp(m*s + s**2/4)", "exp(m*s + 5*s**2/11)", "exp(9*m*s/10 + s**2/2)"]
)
def test_the_engine_refutes_the_two_point_mutants_with_a_confirmed_point(rhs: str) -> None:
    claim = parse_claim(TWO_POINT.format(rhs=rhs, m="[-1, 1]"), name="mutant")
    result = check_claim(claim, OPTIONS)
    assert result.verdict.value == "refuted", result.evidence
    assert result.counterexample is not None
    assert "confirmed" in result.evidence


def test_the_two_point_bound_widened_to_m_in_minus_2_2_is_not_a_mutant() -> None:
    """Widening m to [-2, 2] keeps the claim true (for |m| > 1 the log form is convex
    wherever cosh s + m sinh s > 0, and the bound is trivial elsewhere), so it is no
    mutant: the grid finds no violation.  (The rule does not prove it: the lhs is not
    positive on that domain, and the engine leaves it checked.)"""
    with mpmath.workdps(30):
        worst = min(
            mpmath.exp(mm * ss + ss**2 / 2) - mpmath.cosh(ss) - mm * mpmath.sinh(ss)
            for mm in mpmath.linspace(-2, 2, 41)
            for ss in mpmath.linspace(-6, 6, 121)
        )
    assert worst >= 0


# -- what the rule refuses ---------------------------------------------------------------------
x = sp.Symbol("x", real=True)


def sub_prover(g: sp.Expr, strict: bool, facts: Sequence[Fact], depth: int) -> str | None:
    """The rule's subgoals by the decision procedure and the rules, and the rule again."""
    d = decide(g, strict, facts, 2500, rlimit=RLIMIT // 2)
    if d.trace is not None:
        return d.trace
    rules = _capped_rules(g, strict, facts, 30)
    if rules is not None:
        return " -> ".join(rules)
    return tangency_rule(g, strict, facts, depth, sub_prover)


def test_a_pole_inside_the_interval_is_refused() -> None:
    """h = 1/(x - 2)**2 - 1/4 - x/4: h(0) = 0, h'(0) = 0, h'' = 6/(x - 2)**4 >= 0 wherever
    it is defined, yet h(4) = -1: the rule must find that h is not smooth on R."""
    h = 1 / (x - 2) ** 2 - sp.Rational(1, 4) - x / 4
    assert h.subs(x, 4) < 0
    assert tangency_rule(h, False, [], 0, sub_prover) is None
    assert prove_relation(h, GE, sp.S.Zero, Context([])) is None


def test_a_nonzero_slope_at_the_touching_point_is_refused() -> None:
    """x + x**2 is convex and 0 at 0, but its slope there is 1: negative at -1/2."""
    assert tangency_rule(x + x**2, False, [], 0, sub_prover) is None


def test_a_concave_function_is_refused() -> None:
    """m**2 - s**2: h(0) = m**2 >= 0 and h'(0) = 0, but h'' = -2."""
    assert tangency_rule(m**2 - s**2, False, within(m, -1, 1), 0, sub_prover) is None


def test_a_strict_goal_is_refused() -> None:
    """At the touching point h = 0, so h > 0 is false there."""
    h = s**2 / 2 - sp.log(sp.cosh(s))
    assert tangency_rule(h, True, [], 0, sub_prover) is None
    assert tangency_rule(h, False, [], 0, sub_prover) is not None


def test_the_value_at_the_touching_point_must_be_nonnegative() -> None:
    """s**2 - 2 s p = (s - p)**2 - p**2 has a zero slope at s = p, where it is -p**2: the
    point is tried and h(p) >= 0 is not proved."""
    assert tangency_rule(s**2 - 2 * s * p, False, within(p, 0, 1), 0, sub_prover) is None


# -- soundness: never a proof of a false instance ------------------------------------------------


def instance(
    kind: int, k: sp.Rational, c: sp.Rational
) -> tuple[sp.Expr, sp.Expr, list[Fact], bool]:
    """(small, big, facts, known truth of small <= big) of one of four shapes."""
    if kind == 0:  # two-point MGF with mean m, |m| <= c: true iff the mean term is m s
        return (
            sp.cosh(s) + m * sp.sinh(s),
            sp.exp(c * m * s + k * s**2),
            within(m, -1, 1),
            c == 1 and k >= HALF,
        )
    if kind == 1:  # centred Bernoulli: true iff k >= 1/8
        small, big = bernoulli(k)
        return small, big, within(p, 0, 1), k >= EIGHTH
    if kind == 2:  # log-sum-exp against its mean: true iff k >= 1/8
        small, big = logsumexp(k)
        return small, big, [], k >= EIGHTH
    # Pinsker's form, c (p - q)**2 <= KL: true iff c <= 2 (the constant 2 is tight at 1/2)
    return 4 * c * k * (p - q) ** 2, KL, UNIT, 4 * c * k <= 2


def violated(small: sp.Expr, big: sp.Expr, kind: int) -> bool:
    """A grid point of the domain where small > big (the truth oracle's own check)."""
    syms = sorted((big - small).free_symbols, key=str)
    f = sp.lambdify(syms, big - small, "mpmath")
    grids = {
        "s": mpmath.linspace(-3, 3, 61),
        "m": mpmath.linspace(-1, 1, 21),
        "p": mpmath.linspace(0.01, 0.99, 50) if kind == 3 else mpmath.linspace(0, 1, 21),
        "q": mpmath.linspace(0.01, 0.99, 50),
        "a": mpmath.linspace(-3, 3, 61),
        "b": [mpmath.mpf(0)],  # the shape depends on a - b only
    }
    with mpmath.workdps(30):
        points: list[list[mpmath.mpf]] = [[]]
        for v in syms:
            points = [[*pt, g] for pt in points for g in grids[v.name]]
        return any(f(*pt) < -(mpmath.mpf(10) ** -20) for pt in points)


KS = [sp.Rational(n, d) for n, d in ((1, 9), (1, 8), (1, 5), (2, 5), (1, 2), (11, 20), (1, 1))]
CS = [sp.Rational(9, 10), sp.S.One, sp.Rational(11, 10)]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.integers(0, 3), k=st.sampled_from(KS), c=st.sampled_from(CS))
def test_the_rule_never_proves_a_false_instance(kind: int, k: sp.Rational, c: sp.Rational) -> None:
    """The rule on its own (subgoals by the decision procedure, the rules and the rule
    again), on random constants of the four shapes: a proof only of a true instance."""
    small, big, facts, true = instance(kind, k, c)
    if not true:
        # the known truth is checked: a false instance has a violated grid point
        assert violated(small, big, kind), (small, big)
    trace = second_order_rule(small, big, False, facts, sub_prover)
    if trace is not None:
        assert true, (small, big, trace)
        assert not violated(small, big, kind)


@pytest.mark.parametrize("kind", range(4))
def test_the_property_sees_proofs_at_the_tight_constant(kind: int) -> None:
    """Not vacuous: the tight true instance of each shape is proved."""
    k = {0: HALF, 1: EIGHTH, 2: EIGHTH, 3: HALF}[kind]
    small, big, facts, true = instance(kind, k, sp.S.One)
    assert true
    assert second_order_rule(small, big, False, facts, sub_prover) is not None
