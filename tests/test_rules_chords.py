"""The convex-chord rule (symbolic/rules/chords.py): claims whose sides touch at both ends
of a bounded interval are proved, with the rule named in the evidence; their mutants (a
constant changed) are not proved and the engine refutes them with a confirmed point; the
ways the rule could be unsound (a pole inside, a kink, a missing end, a strict goal with a
zero end, a function that is not convex) are refused; and a Hypothesis property over
random convex and non-convex functions against random lines: it never proves a false one,
and it proves the true convex ones."""

from __future__ import annotations

from collections.abc import Sequence
from unittest import mock

import mpmath
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from numeric_checks import CheckOptions, check_claim
from symbolic.readers.claim_files import parse_claim
from symbolic.relations import Relation
from symbolic.rules import Context, Fact, chords, prove_relation
from symbolic.rules.chords import chord_rule
from symbolic.rules.nra import RLIMIT, decide
from symbolic.rules.prover import _capped_rules

x = sp.Symbol("x", real=True)
eps = sp.Symbol("eps", positive=True)
q = sp.Symbol("q", positive=True)
c = sp.Symbol("c", positive=True)
s = sp.Symbol("s", real=True)
LE, GE, LT = Relation.LE, Relation.GE, Relation.LT


def within(v: sp.Symbol, lo: sp.Expr, hi: sp.Expr, open_: bool = False) -> list[Fact]:
    return [Fact(v - lo, open_, f"{v} >= {lo}"), Fact(hi - v, open_, f"{v} <= {hi}")]


def unit(v: sp.Symbol) -> list[Fact]:
    return [Fact(1 - v, False, f"{v} <= 1")]


def sub_prover(g: sp.Expr, strict: bool, facts: Sequence[Fact], depth: int) -> str | None:
    """The rule's subgoals by the decision procedure and the rules (no derivative rule)."""
    g = sp.sympify(g)
    if g.is_number:
        ok = g.is_positive if strict else g.is_nonnegative
        return "number" if ok else None
    d = decide(g, strict, facts, 2500, rlimit=RLIMIT // 2)
    if d.trace is not None:
        return d.trace
    rules = _capped_rules(g, strict, facts, 30)
    return " -> ".join(rules) if rules is not None else None


def by_rule(lhs: sp.Expr, rel: Relation, rhs: sp.Expr, facts: list[Fact]) -> str | None:
    small, big = (lhs, rhs) if rel.direction == 1 else (rhs, lhs)
    return chord_rule(small, big, rel.strict, facts, 0, sub_prover)


TRUE = [
    # amplification by subsampling, step 2 of the trial: e^eps - 1 <= 2 eps on (0, 1]
    ("amplification step", q * (sp.exp(eps) - 1), LE, 2 * eps * q, unit(eps) + unit(q), "below"),
    ("exp chord on [0, 1]", sp.exp(eps), LE, 1 + (sp.E - 1) * eps, unit(eps), "below"),
    ("exp chord on [0, c]", sp.exp(x), LE, 1 + (sp.exp(c) - 1) * x / c, within(x, 0, c), "below"),
    ("tanh chord", sp.tanh(eps), GE, sp.tanh(1) * eps, unit(eps), "above"),
    ("log1p chord", sp.log(1 + eps), GE, sp.log(2) * eps, unit(eps), "above"),
    ("1 - e^-x chord", 1 - sp.exp(-eps), GE, (1 - sp.exp(-1)) * eps, unit(eps), "above"),
    (
        "Hoeffding's convexity step",
        sp.exp(s * x),
        LE,
        (1 - x) / 2 * sp.exp(-s) + (1 + x) / 2 * sp.exp(s),
        within(x, -1, 1),
        "below",
    ),
    ("sqrt above its chord", sp.sqrt(eps), GE, eps, unit(eps), "above"),
]
MUTANTS = [
    # the brief's mutant: e - 1 = 1.718... > 3/2, false near eps = 1
    ("e^eps - 1 <= 1.5 eps", sp.exp(eps) - 1, LE, sp.Rational(3, 2) * eps, unit(eps)),
    ("exp chord 17/10", sp.exp(eps), LE, 1 + sp.Rational(17, 10) * eps, unit(eps)),
    ("tanh chord 4/5", sp.tanh(eps), GE, sp.Rational(4, 5) * eps, unit(eps)),
    ("log1p chord 7/10", sp.log(1 + eps), GE, sp.Rational(7, 10) * eps, unit(eps)),
    (
        "Hoeffding 9/10",
        sp.exp(s * x),
        LE,
        (1 - x) / 2 * sp.exp(-s) + (1 + x) / 2 * sp.exp(sp.Rational(9, 10) * s),
        within(x, -1, 1),
    ),
]


@pytest.mark.parametrize(
    ("name", "lhs", "rel", "rhs", "facts", "side"), TRUE, ids=[t[0] for t in TRUE]
)
def test_claims_touching_at_both_ends_are_proved_by_the_rule(
    name: str, lhs: sp.Expr, rel: Relation, rhs: sp.Expr, facts: list[Fact], side: str
) -> None:
    trace = by_rule(lhs, rel, rhs, facts)
    assert trace is not None, name
    assert trace.startswith("chord rule in ")
    assert f"{side} its chord" in trace
    # the whole search proves it too (by this rule unless the decision procedure, tried
    # first, already does: sqrt(eps) >= eps from sqrt(eps)**2 = eps)
    whole = prove_relation(lhs, rel, rhs, Context(facts))
    assert whole is not None, name
    assert "chord" in whole or "nlsat" in whole.split(";")[0], (name, whole)


def test_the_amplification_step_names_convexity_on_the_unit_interval() -> None:
    trace = by_rule(*TRUE[0][1:5])
    assert trace is not None
    assert "is convex on [0, 1]: below its chord" in trace
    assert "at eps = 1" in trace and "at eps = 0" in trace


@pytest.mark.parametrize(
    ("name", "lhs", "rel", "rhs", "facts"), MUTANTS, ids=[t[0] for t in MUTANTS]
)
def test_mutants_are_not_proved(
    name: str, lhs: sp.Expr, rel: Relation, rhs: sp.Expr, facts: list[Fact]
) -> None:
    assert by_rule(lhs, rel, rhs, facts) is None, name
    assert prove_relation(lhs, rel, rhs, Context(facts)) is None, name


OPTIONS = CheckOptions(points=60, search_budget=60, budget=120.0)
ONE_VARIABLE = """
[claim]
lhs = "{lhs}"
relation = "{rel}"
rhs = "{rhs}"
[variables]
eps = "(0, 1]"
"""


@pytest.mark.parametrize(
    ("lhs", "rel", "rhs"),
    [("exp(eps) - 1", "<=", "3*eps/2"), ("tanh(eps)", ">=", "4*eps/5")],
)
def test_the_engine_refutes_the_mutants_with_a_confirmed_point(
    lhs: str, rel: str, rhs: str
) -> None:
    claim = parse_claim(ONE_VARIABLE.format(lhs=lhs, rel=rel, rhs=rhs), name="mutant")
    result = check_claim(claim, OPTIONS)
    assert result.verdict.value == "refuted", result.evidence
    assert result.counterexample is not None


def test_the_true_form_is_proved_through_the_engine() -> None:
    claim = parse_claim(ONE_VARIABLE.format(lhs="exp(eps) - 1", rel="<=", rhs="2*eps"), name="t")
    result = check_claim(claim, OPTIONS)
    assert result.verdict.value == "proved", result.evidence


# -- what the rule refuses ---------------------------------------------------------------------


def test_a_pole_inside_the_interval_is_refused() -> None:
    """g = -1/(x - 1/2)**2 has g'' = -6/(x - 1/2)**4 <= 0 wherever defined and g(0) = g(1) =
    -4, so a concave-gap argument that missed the pole would prove -4 <= g: false."""
    g = -1 / (x - sp.Rational(1, 2)) ** 2
    assert by_rule(sp.Integer(-4), LE, g, within(x, 0, 1)) is None


def test_a_kink_is_refused() -> None:
    """|x - 1/2| is convex, but not smooth: the rule does not read it."""
    assert by_rule(sp.Abs(x - sp.Rational(1, 2)), LE, sp.Rational(1, 2), within(x, 0, 1)) is None


def test_an_unbounded_interval_is_refused() -> None:
    """1 - e^-x >= 0 on [0, oo): no chord without an upper end."""
    assert by_rule(sp.S.Zero, LE, 1 - sp.exp(-eps), []) is None


def test_a_strict_goal_needs_a_positive_end() -> None:
    """exp(x) < 1 + (e - 1) x fails at both (closed) ends, where the sides are equal."""
    assert by_rule(sp.exp(eps), LT, 1 + (sp.E - 1) * eps, within(eps, 0, 1)) is None
    # with the ends open, one strictly positive end and concavity make it strict
    assert by_rule(sp.exp(eps), LT, 2 + (sp.E - 1) * eps, within(eps, 0, 1, True)) is not None


def test_a_function_that_is_not_convex_is_refused() -> None:
    """sin(4x) on [0, 1]: sin 0 = 0 and sin 4 < 0 fit under the line 0, but sin(1/2) > 0."""
    assert by_rule(sp.sin(4 * x), LE, sp.S.Zero, within(x, 0, 1)) is None


# -- soundness: never a proof of a false instance ----------------------------------------------

CONVEX_PIECES = (
    lambda t: sp.exp(t),
    lambda t: sp.exp(-2 * t),
    lambda t: t**2,
    lambda t: t**4,
    lambda t: -sp.log(1 + t),
    lambda t: 1 / (1 + t),
    lambda t: sp.cosh(t),
)
OTHER_PIECES = (
    lambda t: sp.sin(3 * t),
    lambda t: -(t**2),
    lambda t: sp.tanh(2 * t - 1),
    lambda t: 1 / (10 * (t - sp.Rational(3, 5)) ** 2),  # a pole inside most of the intervals
)
COEFFS = st.sampled_from([sp.Integer(0), sp.Rational(1, 2), sp.Integer(1), sp.Integer(2)])
OTHER = st.sampled_from([sp.Integer(0), sp.Rational(1, 3), sp.Integer(-1), sp.Integer(2)])
ENDS = st.sampled_from(
    [(0, 1), (0, 2), (sp.Rational(1, 2), sp.Rational(3, 2)), (0, sp.Rational(1, 4))]
)
SHIFTS = st.sampled_from([sp.Rational(-1, 50), sp.Integer(0), sp.Rational(1, 50)])
TILTS = st.sampled_from([sp.Integer(0), sp.Rational(1, 10), sp.Rational(-1, 10)])
t = sp.Symbol("t", real=True)


def instance(
    coeffs: Sequence[sp.Expr], others: Sequence[sp.Expr], ends: tuple, shift: sp.Expr, tilt: sp.Expr
) -> tuple[sp.Expr, sp.Expr, list[Fact]]:
    """g <= line on [a, b]: g a nonnegative mix of convex pieces plus (maybe) non-convex
    ones; the line is g's chord shifted by ``shift`` at ``a`` and tilted by ``tilt``."""
    a, b = (sp.Integer(e) if isinstance(e, int) else e for e in ends)
    g = sp.Add(*(k * f(t) for k, f in zip(coeffs, CONVEX_PIECES, strict=True)))
    g += sp.Add(*(k * f(t) for k, f in zip(others, OTHER_PIECES, strict=True)))
    ga, gb = g.subs(t, a), g.subs(t, b)
    line = ga + (gb - ga) * (t - a) / (b - a) + shift + tilt * (t - a)
    return g, line, within(t, a, b)


def violated(g: sp.Expr, line: sp.Expr, ends: tuple) -> bool:
    """A grid point of [a, b] where g > line (the truth oracle's own check, at 30 digits)."""
    f = sp.lambdify(t, line - g, "mpmath")
    a, b = (mpmath.mpf(sp.Rational(e).p) / sp.Rational(e).q for e in ends)
    with mpmath.workdps(30):
        for v in mpmath.linspace(a, b, 201):
            try:
                if f(v) < -(mpmath.mpf(10) ** -20):
                    return True
            except ZeroDivisionError:
                return True  # a pole: g is not defined on the whole interval
    return False


def wide_rule(g: sp.Expr, line: sp.Expr, facts: list[Fact]) -> str | None:
    """The rule with its size cap raised: the random mixes are larger than users' claims,
    and the property is about the rule's logic, not its cost cap."""
    with mock.patch.object(chords, "MAX_GOAL_OPS", 200):
        return chord_rule(g, line, False, facts, 0, sub_prover)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    coeffs=st.lists(COEFFS, min_size=7, max_size=7),
    others=st.lists(OTHER, min_size=4, max_size=4),
    ends=ENDS,
    shift=SHIFTS,
    tilt=TILTS,
)
def test_the_rule_never_proves_a_false_instance(
    coeffs: list[sp.Expr], others: list[sp.Expr], ends: tuple, shift: sp.Expr, tilt: sp.Expr
) -> None:
    g, line, facts = instance(coeffs, others, ends, shift, tilt)
    if not g.has(t):
        return
    trace = wide_rule(g, line, facts)
    if trace is not None:
        assert not violated(g, line, ends), (g, line, trace)


@pytest.mark.parametrize(
    ("coeffs", "ends"),
    [
        ((1, 0, 0, 0, 0, 0, 0), (0, 1)),
        ((0, 1, 1, 0, 0, 0, 0), (0, 2)),
        ((0, 0, 0, 1, 0, 0, 1), (0, 1)),
        ((1, 0, 1, 0, 1, 0, 0), (sp.Rational(1, 2), sp.Rational(3, 2))),
    ],
)
def test_the_property_sees_proofs_of_convex_instances(coeffs: tuple, ends: tuple) -> None:
    """Not vacuous: a convex mix under its own chord (a tie at both ends) is proved, and
    under the chord lowered by 1/50 (false at the ends) is not."""
    ks = [sp.Integer(k) for k in coeffs]
    zero = [sp.Integer(0)] * 4
    g, line, facts = instance(ks, zero, ends, sp.Integer(0), sp.Integer(0))
    assert not violated(g, line, ends)
    assert wide_rule(g, line, facts) is not None
    g, low, facts = instance(ks, zero, ends, sp.Rational(-1, 50), sp.Integer(0))
    assert violated(g, low, ends)
    assert wide_rule(g, low, facts) is None
