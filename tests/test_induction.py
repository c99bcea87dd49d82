"""Proof by induction in the engine (symbolic.induction, numeric_checks.stages): the chain of
``gdp-group-privacy`` is the step k - 1 -> k (Dong, Roth & Su 2022, Sec. 2.5), its hypothesis
step is proved with the claim at k - 1 only when the base case is proved, never in a step
justified otherwise, and a wrong step is still refuted by the independent numerics."""

from __future__ import annotations

from typing import Any

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from derivations.catalog import get
from derivations.gaussian_dp import g
from derivations.gdp_algebra.group import GroupStep, GroupTradeoff
from numeric_checks import CheckOptions, check_derivation
from numeric_checks.bridge import compile_exprs
from numeric_checks.plan import make_plan
from numeric_checks.stages import INDUCTION_TAG, Link, base_case, prove
from symbolic.derivation import Derivation, Source
from symbolic.domains import Domain, Variable
from symbolic.errors import IllFormedDerivation
from symbolic.functions import NumericFunction, Phi, PhiInv
from symbolic.induction import Induction, apply_hypothesis
from symbolic.kit import by, chain
from symbolic.verdicts import Verdict

# Few points: every wrong link here is wrong at almost every point.
QUICK = CheckOptions(points=8, search_budget=4, oracle=False, certify=False)


def _shift(k: Any, x: Any) -> Any:
    """k-fold x -> x + 1, by iterating (not by the closed form)."""
    for _ in range(int(k)):
        x = x + 1
    return x


class Shift(NumericFunction):
    """A toy iterate: Shift(k, x) = x + 1 + ... + 1 (k ones); doit unfolds one application."""

    nargs = 2
    impl = staticmethod(_shift)

    def doit(self, **hints: Any) -> sp.Expr:
        k, x = self.args
        if k == 0:
            return x
        if k.is_integer and k.is_positive:
            return Shift(k - 1, x) + 1
        return self


K = Variable("k", Domain("integer", sp.Integer(1), sp.Integer(10), False, False))
X = Variable("x", Domain("real", sp.Integer(-5), sp.Integer(5), False, False))


def _toy(offset: int = 0, hypothesis_step: bool = True, base: int = 0) -> Derivation:
    """Shift(k, x) = x + k + offset by the step Shift(k, x) = Shift(k - 1, x) + 1; with
    offset != 0 the base case Shift(0, x) = x + offset is false (and so is the claim)."""
    k, x = K.symbol, X.symbol
    why = by.hypothesis("induction hypothesis") if hypothesis_step else by.algebra("algebra")
    proof = (
        chain(Shift(k, x))
        .eq(Shift(k - 1, x) + 1, by.definition("unfold the last application"))
        .eq(x + k + offset, why)
    )
    return proof.derive(
        id="toy-induction",
        title="toy",
        source=Source("test", "toy"),
        variables=(K, X),
        induction=Induction("k", base=base),
    )


def _link(d: Derivation, index: int) -> tuple[Any, Link]:
    plan = make_plan(d, QUICK)
    left, rel, right, why = d.links()[index - 1]
    return plan, Link.of(plan, index, left, rel, right, why.text)


def test_toy_induction_is_proved_and_says_so() -> None:
    r = check_derivation(_toy(), QUICK)
    assert r.verdict is Verdict.PROVED, [s.evidence for s in r.steps]
    assert r.steps[1].symbolic is not None and r.steps[1].symbolic.startswith(INDUCTION_TAG)
    assert "base case k = 0" in r.steps[1].symbolic
    (note,) = [n for n in r.notes if n.startswith("induction on k")]
    assert "proved" in note and "by induction the claim holds at k = 0" in note


def test_false_base_case_is_not_proved_by_induction() -> None:
    d = _toy(offset=1)
    plan, link = _link(d, 2)
    base = base_case(plan)
    assert base is not None and base.verdict is Verdict.REFUTED
    assert "confirmed exactly" in base.evidence or "confirmed by Arb" in base.evidence, base
    # With the hypothesis the link would reduce to x + k + 1 = x + k + 1: it must not be used.
    assert prove(plan, link, cheap=False).trace is None
    r = check_derivation(d, QUICK)
    assert r.verdict is Verdict.REFUTED
    assert r.steps[1].verdict is Verdict.REFUTED and r.steps[1].symbolic is None
    (note,) = [n for n in r.notes if n.startswith("induction on k")]
    assert "refuted" in note and "not used" in note and "by induction" not in note


def test_an_unconfirmed_false_base_case_is_only_suspect(monkeypatch: pytest.MonkeyPatch) -> None:
    import numeric_checks.stages as stages
    from symbolic.report import RefereeKind, RefereeRecord

    unconfirmed = RefereeRecord(RefereeKind.ARB, None, "the ball straddles 0 (stubbed)")
    monkeypatch.setattr(stages, "arb_referee", lambda *_: unconfirmed)
    plan, _ = _link(_toy(offset=1), 2)
    base = base_case(plan)
    assert base is not None and base.verdict is Verdict.UNDECIDED
    assert base.evidence.startswith("suspect point") and "stubbed" in base.evidence


def test_rewrite_is_not_applied_to_a_step_justified_by_algebra() -> None:
    d = _toy(hypothesis_step=False)
    plan, link = _link(d, 2)
    assert prove(plan, link, cheap=False).trace is None
    r = check_derivation(d, QUICK)
    assert r.steps[1].verdict is Verdict.CHECKED and r.verdict is Verdict.CHECKED
    (note,) = [n for n in r.notes if n.startswith("induction on k")]
    assert "no step uses it" in note and "does not conclude" in note


def test_rewrite_is_not_applied_to_the_conclusion_checked_on_its_own() -> None:
    d = _toy()
    plan = make_plan(d, QUICK)
    link = Link.of(plan, 0, d.claim.lhs, d.claim.relation, d.claim.rhs, "conclusion")
    trace = prove(plan, link, cheap=False).trace
    assert trace is None or INDUCTION_TAG not in trace


@pytest.mark.parametrize(
    ("induction", "message"),
    [
        (Induction("k", base=-1), "must start at"),
        (Induction("x", base=0), "not an integer"),
        (Induction("n", base=0), "undeclared"),
    ],
)
def test_ill_formed_inductions_are_rejected(induction: Induction, message: str) -> None:
    with pytest.raises(IllFormedDerivation, match=message):
        _toy().replace(induction=induction)


def test_a_hypothesis_in_the_induction_variable_is_rejected() -> None:
    with pytest.raises(IllFormedDerivation, match="hypothesis mentions k"):
        _toy().replace(hypotheses=(K.symbol <= 8,))


def test_apply_hypothesis_unfolds_only_to_expose_it() -> None:
    k, x = K.symbol, X.symbol
    assert apply_hypothesis(Shift(k, x), Shift(k - 1, x), x + k - 1) == (x + k, ("Shift",))
    assert apply_hypothesis(Shift(k, x) + x, Shift(k - 3, x), x) is None


def test_gdp_group_privacy_steps_one_and_two_are_proved() -> None:
    d = get("gdp-group-privacy")
    plan = make_plan(d, QUICK)
    base = base_case(plan)
    assert base is not None and base.verdict is Verdict.PROVED
    traces = []
    for i, (left, rel, right, why) in enumerate(d.links()[:2], 1):
        traces.append(prove(plan, Link.of(plan, i, left, rel, right, why.text), cheap=False))
    assert traces[0].trace is not None and traces[0].trace.startswith("tactic doit")
    assert traces[1].trace is not None and traces[1].trace.startswith(INDUCTION_TAG)


def _group_mutant_step2() -> Derivation:
    """Step 2 with G_{(k - 2) mu} for G_{(k - 1) mu} (the chain after it unchanged)."""
    d = get("gdp-group-privacy")
    m, k, a = (d.symbols[n] for n in ("mu", "k", "alpha"))
    wrong = Phi(PhiInv(1 - a) - (k - 2) * m)
    expr = Phi(PhiInv(sp.Add(1, -sp.Add(1, -wrong, evaluate=False), evaluate=False)) - m)
    # Two points: an iterate up to k = 20 costs 20 Newton inversions at 50 digits.
    return d.with_step(1, expr=expr).replace(
        points=lambda rng, dps: [
            {"mu": mpmath.mpf("0.7"), "k": mpmath.mpf(3), "alpha": mpmath.mpf("0.25")},
            {"mu": mpmath.mpf("1.5"), "k": mpmath.mpf(5), "alpha": mpmath.mpf("0.01")},
        ]
    )


def test_group_mutant_in_the_hypothesis_step_is_refuted_not_proved() -> None:
    r = check_derivation(_group_mutant_step2(), QUICK)
    assert r.verdict is Verdict.REFUTED
    assert r.steps[1].verdict is Verdict.REFUTED
    assert r.steps[1].symbolic is None or INDUCTION_TAG not in r.steps[1].symbolic


def test_group_doit_is_finite_and_exact_at_whole_numbers() -> None:
    mu, a = sp.Symbol("mu", positive=True), sp.Symbol("alpha", positive=True)
    assert GroupTradeoff(mu, 1, a).doit() == g(mu, a)
    assert GroupTradeoff(mu, 0, a).doit() == 1 - a
    # not a whole number >= 1: unevaluated
    assert GroupTradeoff(mu, sp.Rational(3, 2), a).doit() == GroupTradeoff(mu, sp.Rational(3, 2), a)
    assert GroupStep(mu, sp.Symbol("t"), a).doit() == GroupStep(mu, sp.Symbol("t"), a)
    # k doits unfold k applications; G_mu composed k times collapses to G_{k mu}
    e: sp.Expr = GroupTradeoff(mu, 4, a)
    for _ in range(4):
        e = e.doit()
    assert not e.has(GroupTradeoff) and e == g(4 * mu, a)


@settings(max_examples=25, deadline=None)
@given(
    mu=st.floats(0.01, 5),
    k=st.integers(1, 12),
    alpha=st.floats(1e-6, 1 - 1e-6),
)
def test_group_doit_agrees_with_the_iterate(mu: float, k: int, alpha: float) -> None:
    m, a = sp.Symbol("mu", positive=True), sp.Symbol("alpha", positive=True)
    with mpmath.workdps(30):
        point = (mpmath.mpf(mu), mpmath.mpf(alpha))
        direct = GroupTradeoff.impl(point[0], k, point[1])  # type: ignore[misc]
        for f in (GroupTradeoff(m, k, a), GroupStep(m, k, a)):
            (unfolded,) = compile_exprs([m, a], [f.doit()])(*point)
            assert abs(unfolded - direct) <= mpmath.mpf(10) ** -25 * (1 + abs(direct))
