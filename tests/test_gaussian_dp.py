"""GDP -> (eps, delta) conversion (Dong, Roth & Su, Corollary 2.13, arXiv:1905.02383v3)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from derivations.catalog import get
from derivations.gaussian_dp import (
    GaussianDelta,
    NormalTail,
    normal_density,
    normal_terms,
    rejection_threshold,
)
from numeric_checks import CheckOptions, check_derivation
from numeric_checks.dp.gaussian import (
    envelope,
    hockey_stick_normals,
    profile_by_hockey_stick,
    profile_by_loss,
    profile_by_loss_law,
    profile_closed_form,
    tradeoff_eps_delta,
    tradeoff_gaussian,
)
from symbolic.derivation import Claim, Derivation, Justification, Source, Step
from symbolic.errors import InvalidInput
from symbolic.functions import Phi
from symbolic.relations import Relation
from symbolic.report import DerivationReport
from symbolic.verdicts import Verdict

from .conftest import on_the_catalog_worker

D = get("gdp-to-dp")
mu, eps = D.symbols["mu"], D.symbols["eps"]


# Every mu of the grid with two or three eps, every eps with two or more mu, both corners of
# the domain's small-mu edge (x* = 5e4 at eps = 50): 14 of the 35 pairs of the full grid,
# each costing three quadratures at 55-70 digits.
ORACLE_PAIRS = [
    ("0.001", "0"),
    ("0.001", "2"),
    ("0.001", "50"),
    ("0.01", "0.5"),
    ("0.01", "10"),
    ("0.05", "2"),
    ("0.05", "50"),
    ("0.5", "0"),
    ("0.5", "10"),
    ("1", "0.5"),
    ("1", "50"),
    ("3", "2"),
    ("20", "0"),
    ("20", "10"),
]


@pytest.mark.parametrize(("m", "e"), ORACLE_PAIRS)
def test_oracle_agrees_to_45_digits(m: str, e: str) -> None:
    with mpmath.workdps(50):
        # One binary mu for all: at x* = 5e4 delta moves by x*^2 = 2.5e9 times a relative
        # change of mu, so a string read at 50 and at 70 digits gives two different deltas.
        mv, ev = mpmath.mpf(m), mpmath.mpf(e)
        with mpmath.extradps(20):
            exact = profile_closed_form(mv, ev)
        for value in (
            hockey_stick_normals(mv, 1, ev),  # the derivation's oracle
            profile_by_hockey_stick(mv, ev),
            profile_by_loss(mv, ev),
            profile_by_loss_law(mv, ev),
        ):
            assert abs(value / exact - 1) < mpmath.mpf(10) ** -45


def test_underflow_regime_is_resolved() -> None:
    # delta ~ 1e-352 at mu = 0.05, eps = 2: far below double precision
    with mpmath.workdps(50):
        with mpmath.extradps(20):  # the closed form cancels ~3 digits here
            d = profile_closed_form("0.05", 2)
        assert mpmath.mpf("1e-353") < d < mpmath.mpf("1e-351")
        assert abs(profile_by_hockey_stick("0.05", 2) / d - 1) < mpmath.mpf(10) ** -45


@on_the_catalog_worker
def test_derivation_verdicts(catalog_reports: dict[str, DerivationReport]) -> None:
    r = catalog_reports[D.id]
    assert [s.verdict for s in r.steps] == [Verdict.PROVED] * 5, [s.evidence for s in r.steps]
    assert "doit" in r.steps[0].evidence and "doit" in r.steps[1].evidence
    assert r.verdict is Verdict.PROVED and r.oracle is not None and r.oracle.agrees is True


def test_profile_definition_integrates_to_the_closed_form() -> None:
    # GaussianDelta.doit: region {log(p/q) > eps} solved, the density gap integrated there
    value = GaussianDelta(mu, eps).doit()
    assert not value.has(sp.Integral, GaussianDelta)
    for m, e in (("0.5", "0"), ("1", "2"), ("3", "0.5")):
        with mpmath.workdps(40):
            at = value.subs({mu: sp.Rational(m), eps: sp.Rational(e)})
            got = sp.N(at.rewrite(sp.erfc), 40)  # Phi has no evalf of its own
            want = profile_closed_form(m, e)
            assert abs(mpmath.mpf(str(got)) / want - 1) < mpmath.mpf(10) ** -30


@pytest.mark.parametrize(
    ("integrand", "start"),
    [
        (normal_density(sp.Symbol("y", real=True) - 2) * 3, sp.Rational(1, 2)),
        (sp.exp(-(sp.Symbol("y", real=True) ** 2) / 2 + sp.Symbol("y", real=True)), -1),
        (sp.exp(-(sp.Symbol("y", real=True) ** 2)), 0),  # variance 1/2: falls back
        (sp.exp(-sp.Symbol("y", real=True)), 1),  # not Gaussian: falls back
    ],
)
def test_normal_tail_matches_the_integral(integrand: sp.Expr, start: sp.Expr) -> None:
    # NormalTail.doit (checked antiderivative) against SymPy's own integration, numerically
    y = sp.Symbol("y", real=True)
    fast = NormalTail(integrand, (y, start, sp.oo)).doit()
    slow = sp.Integral(integrand, (y, start, sp.oo)).doit()
    assert not fast.has(sp.Integral)
    got, want = (sp.N(v.rewrite(sp.erfc), 30) for v in (fast, slow))
    assert abs(got - want) <= 1e-25 * abs(want)


def test_normal_terms_refuses_what_is_not_a_shifted_normal() -> None:
    y = sp.Symbol("y", real=True)
    assert normal_terms(sp.exp(-(y**2)), y) is None
    assert normal_terms(y * normal_density(y), y) is None
    assert normal_terms(sp.exp(-(y**3)), y) is None
    assert normal_terms(5 * normal_density(y - mu), y) == ((5, mu),)


def test_profile_of_unknown_sign_stays_unevaluated() -> None:
    t = sp.Symbol("t", real=True)  # mu of unknown sign: the region need not be a tail
    assert GaussianDelta(t, eps).doit() == GaussianDelta(t, eps)


@given(
    a=st.fractions(min_value=Fraction(1, 100), max_value=100),
    b=st.fractions(min_value=-100, max_value=100),
    e=st.fractions(min_value=0, max_value=50),
    x=st.fractions(min_value=-1000, max_value=1000),
)
@settings(max_examples=200, deadline=None)
def test_rejection_threshold_is_the_region(
    a: Fraction, b: Fraction, e: Fraction, x: Fraction
) -> None:
    # soundness: a x + b > eps iff x > x*, on random rational instances
    t = sp.Symbol("t", real=True)
    ra, rb, re_, rx = (sp.Rational(v.numerator, v.denominator) for v in (a, b, e, x))
    star = rejection_threshold(sp.log(sp.exp(ra * t + rb)), t, re_)
    assert star is not None
    assert bool(ra * rx + rb > re_) == bool(rx > star)


def test_rejection_threshold_refuses_what_is_not_a_tail() -> None:
    t = sp.Symbol("t", real=True)
    assert rejection_threshold(-2 * t + 1, t, eps) is None  # decreasing: a left tail
    assert rejection_threshold(t**2 - 1, t, eps) is None  # two-sided region
    assert rejection_threshold(mu * t, t, eps) is not None  # mu > 0 is declared


def _likelihood_step(rhs: sp.Expr) -> Derivation:
    """The likelihood-ratio link delta(eps) = rhs alone, rhs a variant of the tail integral."""
    return Derivation(
        id="gdp-region-variant",
        title="variant",
        source=Source("test", "mutant"),
        variables=D.variables,
        defs=D.defs,
        claim=Claim(GaussianDelta(mu, eps), Relation.EQ, rhs),
        steps=(Step(Relation.EQ, rhs, Justification("variant")),),
        points=D.points,
    )


_X = sp.Symbol("x", real=True)
_XS = next(s for s, _ in D.defs)
_WEIGHT = sp.exp(eps)


def _gap_tail(start: sp.Expr, weight: sp.Expr = _WEIGHT, shift: sp.Expr = mu) -> sp.Expr:
    return sp.Integral(normal_density(_X - shift) - weight * normal_density(_X), (_X, start, sp.oo))


REGION_MUTANTS: dict[str, sp.Expr] = {
    "threshold eps/mu + mu": _gap_tail(eps / mu + mu),
    "weight e^(eps/2)": _gap_tail(_XS, weight=sp.exp(eps / 2)),
    "shift 2 mu": _gap_tail(_XS, shift=2 * mu),
}


@pytest.mark.parametrize("name", sorted(REGION_MUTANTS))
def test_likelihood_step_mutants_refuted(name: str) -> None:
    r = check_derivation(_likelihood_step(REGION_MUTANTS[name]), CheckOptions(search_budget=12))
    assert r.verdict is Verdict.REFUTED and r.steps[0].counterexample is not None


def test_a_wrong_tail_integral_in_the_chain_is_refuted_by_quadrature() -> None:
    # The chain's link 3 with the N(mu, 1) tail shifted by 2 mu: its left side, the two
    # integrals, is evaluated by quadrature (remembered by the bridge for the links that
    # share them), never by SymPy's closed form, so the wrong closed form must fail.
    x_star = next(s for s, _ in D.defs)
    wrong = (1 - Phi(x_star - 2 * mu)) - sp.exp(eps) * (1 - Phi(x_star))
    claim = Claim(D.steps[1].expr, Relation.EQ, wrong)
    variant = Derivation(
        id="gdp-tail-variant",
        title="variant",
        source=Source("test", "mutant"),
        variables=D.variables,
        defs=D.defs,
        claim=claim,
        steps=(Step(Relation.EQ, wrong, Justification("variant")),),
        points=D.points,
    )
    r = check_derivation(variant, CheckOptions(search_budget=12))
    assert r.verdict is Verdict.REFUTED and r.steps[0].counterexample is not None


@pytest.mark.parametrize("a", ["0.01", "0.1", "0.3", "0.7"])
@pytest.mark.parametrize("m", ["0.5", "2"])
def test_both_directions_of_the_iff(a: str, m: str) -> None:
    with mpmath.workdps(30):
        g = tradeoff_gaussian(m, a)
        # mu-GDP => (eps, delta(eps))-DP for all eps: f_{eps, delta(eps)} <= G_mu
        for e in ("0", "0.3", "1", "3"):
            f = tradeoff_eps_delta(e, profile_closed_form(m, e), a)
            assert f <= g * (1 + mpmath.mpf(10) ** -20)
        # and G_mu is their upper envelope over eps
        assert abs(envelope(m, a) - g) < mpmath.mpf(10) ** -12


def _formula_claim(rhs: sp.Expr) -> Derivation:
    # The chain's last link (closed forms only, no quadrature): Phi(mu - x*) - e^eps Phi(-x*)
    # with x* = eps/mu + mu/2, against a variant of the published formula.
    x_star = next(s for s, _ in D.defs)
    lhs = Phi(mu - x_star) - sp.exp(eps) * Phi(-x_star)
    return Derivation(
        id="gdp-formula-variant",
        title="variant",
        source=Source("test", "mutant"),
        variables=D.variables,
        defs=D.defs,
        claim=Claim(lhs, Relation.EQ, rhs),
        steps=(Step(Relation.EQ, rhs, Justification("variant")),),
        points=D.points,
    )


RIGHT = Phi(-eps / mu + mu / 2) - sp.exp(eps) * Phi(-eps / mu - mu / 2)
MUTANTS: dict[str, sp.Expr] = {
    "Phi arguments swapped": Phi(-eps / mu - mu / 2) - sp.exp(eps) * Phi(-eps / mu + mu / 2),
    "mu/2 -> mu": Phi(-eps / mu + mu) - sp.exp(eps) * Phi(-eps / mu - mu),
    "e^eps -> e^(eps/2)": Phi(-eps / mu + mu / 2) - sp.exp(eps / 2) * Phi(-eps / mu - mu / 2),
    "sign of the first mu/2": Phi(-eps / mu - mu / 2) - sp.exp(eps) * Phi(-eps / mu - mu / 2),
    "sign of the second mu/2": Phi(-eps / mu + mu / 2) - sp.exp(eps) * Phi(-eps / mu + mu / 2),
    "plus for minus": Phi(-eps / mu + mu / 2) + sp.exp(eps) * Phi(-eps / mu - mu / 2),
    "e^-eps": Phi(-eps / mu + mu / 2) - sp.exp(-eps) * Phi(-eps / mu - mu / 2),
    "eps*mu for eps/mu": Phi(-eps * mu + mu / 2) - sp.exp(eps) * Phi(-eps * mu - mu / 2),
    "2 eps/mu": Phi(-2 * eps / mu + mu / 2) - sp.exp(eps) * Phi(-2 * eps / mu - mu / 2),
    "mu/4": Phi(-eps / mu + mu / 4) - sp.exp(eps) * Phi(-eps / mu - mu / 4),
    "first term alone": Phi(-eps / mu + mu / 2),
    "halved": RIGHT / 2,
}


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_conversion_mutants_refuted(name: str) -> None:
    r = check_derivation(_formula_claim(MUTANTS[name]), CheckOptions(search_budget=60))
    assert r.verdict is Verdict.REFUTED and r.steps[0].counterexample is not None


def test_right_formula_as_a_claim_is_proved() -> None:
    r = check_derivation(_formula_claim(RIGHT), CheckOptions(search_budget=60))
    assert r.verdict is Verdict.PROVED


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: profile_closed_form(0, 1), "mu must be > 0"),
        (lambda: profile_by_loss(-1, 1), "mu must be > 0"),
        (lambda: tradeoff_gaussian(1, 1.5), "alpha must be in [0, 1]"),
        (lambda: tradeoff_gaussian(1, -0.1), "alpha must be in [0, 1]"),
        (lambda: tradeoff_eps_delta(-1, 0, 0.5), "need eps >= 0"),
    ],
)
def test_bad_parameters(call: Callable[[], object], fragment: str) -> None:
    with pytest.raises(InvalidInput) as info:
        call()
    assert fragment in str(info.value)
