"""The sign of a lone log or power (rule ``sign_at_zero``), and equalities proved in the
defined symbols as written (``numeric_checks.stages._prove_as_written``)."""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from derivations.catalog import get
from numeric_checks import CheckOptions, check_derivation
from numeric_checks.as_written import _has_assumptions
from numeric_checks.as_written import prove_as_written as _prove_as_written
from numeric_checks.plan import make_plan
from numeric_checks.stages import Link, prove
from symbolic.derivation import Claim
from symbolic.relations import Relation
from symbolic.rules import prove_relation
from symbolic.verdicts import Verdict

from .conftest import context

X = sp.Symbol("x", positive=True)


@given(
    k=st.fractions(min_value=0.01, max_value=10),
    m=st.fractions(min_value=0.01, max_value=10),
    strict=st.booleans(),
)
def test_log_sign_is_sound(k, m, strict) -> None:  # type: ignore[no-untyped-def]
    """Whenever the rule proves log(m x) >= 0 (> 0) from x >= k, it holds numerically over
    x >= k (log(m x) is increasing, so the end x = k decides), and it proves it exactly
    when m k >= 1 (> 1)."""
    k, m = sp.Rational(k.numerator, k.denominator), sp.Rational(m.numerator, m.denominator)
    goal = sp.log(m * X)
    rel = Relation.GT if strict else Relation.GE
    trace = prove_relation(goal, rel, sp.Integer(0), context(sp.GreaterThan(X, k)))
    at_end = mpmath.log(mpmath.mpf(m.p) / m.q * mpmath.mpf(k.p) / k.q)
    if trace is not None:
        assert at_end > 0 if strict else at_end >= 0
    if m * k > 1:
        assert trace is not None


def test_power_sign_needs_a_positive_base_for_negative_exponents() -> None:
    ctx = context(sp.GreaterThan(X, 1))
    assert prove_relation(sp.sqrt(X - 1), Relation.GE, sp.Integer(0), ctx) is not None
    # (x - 1)^(-1/2) is not even defined at x = 1: x >= 1 must not prove it positive.
    assert prove_relation((X - 1) ** sp.Rational(-1, 2), Relation.GT, 0, ctx) is None
    strict = context(sp.StrictGreaterThan(X, 1))
    assert prove_relation((X - 1) ** sp.Rational(-1, 2), Relation.GT, 0, strict) is not None


@pytest.mark.parametrize("wrong", [sp.log(X / 2), sp.log(3 * X / 4), sp.log(X) - 1])
def test_log_sign_does_not_fire_below_one(wrong: sp.Expr) -> None:
    ctx = context(sp.StrictLessThan(X, 1))
    assert prove_relation(wrong, Relation.GE, sp.Integer(0), ctx) is None


def _first_link(d):  # type: ignore[no-untyped-def]
    plan = make_plan(d, CheckOptions(points=4, search_budget=4, oracle=False, certify=False))
    left, rel, right, why = d.links()[0]
    return plan, Link.of(plan, 1, left, rel, right, str(why))


def test_profile_step_proved_in_the_defined_symbol() -> None:
    """Theorem A.1, step 1: GaussianDelta(mu_G, eps) integrates to its closed form only with
    mu_G positive; the value eps/sqrt(2 ln(1.25/delta)) is proved positive first."""
    plan, link = _first_link(get("classical-gaussian-mechanism"))
    proof = prove(plan, link, cheap=False)
    assert proof.trace is not None and "as written" in proof.trace
    assert "mu_G > 0" in proof.trace


def test_a_changed_constant_is_refuted_not_proved() -> None:
    d = get("classical-gaussian-mechanism")
    mu = d.symbols["mu_G"]
    rhs = d.steps[0].expr
    wrong = d.with_step(0, expr=rhs.subs(mu / 2, mu / 3))
    assert wrong.steps[0].expr != rhs
    # Only the mutated step: the later links, started from the wrong value, are near ties
    # that each escalate quadratures of the exact profile for minutes; they say nothing here.
    first = wrong.steps[0]
    wrong = wrong.replace(claim=Claim(d.claim.lhs, first.relation, first.expr), steps=(first,))
    r = check_derivation(wrong, CheckOptions(points=20, search_budget=20, oracle=False))
    assert r.steps[0].verdict is Verdict.REFUTED
    assert r.steps[0].symbolic is None or "as written" not in r.steps[0].symbolic


def test_a_value_without_the_symbols_assumption_is_refused() -> None:
    plan, _ = _first_link(get("classical-gaussian-mechanism"))
    d = get("classical-gaussian-mechanism")
    mu, eps = d.symbols["mu_G"], d.symbols["eps"]
    assert _has_assumptions(plan, mu, eps) is not None
    assert _has_assumptions(plan, mu, -eps) is None
    assert _has_assumptions(plan, mu, eps - sp.Rational(1, 2)) is None


def test_an_inequality_is_proved_in_the_defined_symbols_from_the_written_hypotheses() -> None:
    """gdp-clt-berry-esseen's conclusion in gamma_n and mu_n, from gamma_n <= alpha <= 1 -
    gamma_n as written; with the two bounds swapped it is false and not proved."""
    d = get("gdp-clt-berry-esseen")
    plan = make_plan(d, CheckOptions(points=4))
    c = d.claim
    right = Link.of(plan, 0, c.lhs, c.relation, c.rhs, "conclusion")
    proof = prove(plan, right, cheap=False)
    assert proof.trace is not None and "as written" in proof.trace
    assert "gamma_n > 0" in proof.trace
    wrong = Link.of(plan, 0, c.rhs, c.relation, c.lhs, "swapped")
    assert _prove_as_written(plan, wrong) is None
