"""Symbolic Neyman-Pearson curves (issue 16): the trade-off steps of
``tradeoff-zero-eps-composition``, ``tradeoff-eps-delta-split`` and ``gdp-gaussian-mechanism``
are proved from a curve constructed from its definition; a changed constant is refuted and
not proved; the construction agrees with the numeric curves."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from derivations.catalog import get
from derivations.gaussian_mechanism import NormalPairTradeoff
from derivations.gdp_algebra.common import f_eps_delta
from derivations.gdp_algebra.np_symbolic import (
    Undecided,
    compare_ratios,
    curve_max,
    curve_piecewise,
    eps_delta_atoms,
    np_curve,
    tensor_atoms,
)
from derivations.gdp_algebra.products import EpsDeltaSplit, ZeroEpsTensor
from numeric_checks import CheckOptions, check_derivation
from numeric_checks.dp.tradeoff import FinitePair, tradeoff_curve
from symbolic.derivation import Derivation
from symbolic.functions import Phi, PhiInv
from symbolic.tactics import prove_zero
from symbolic.verdicts import Verdict

# The edge points alone refute each mutant: the fewest random points and no local search.
FAST = CheckOptions(points=10, search_budget=0, oracle=False, certify=False)


def _first_step_residual(did: str) -> sp.Expr:
    """lhs - rhs of step 1 with the derivation's definitions substituted (as the engine
    prepares it)."""
    d = get(did)
    subs = dict(d.defs)
    return (d.claim.lhs - d.steps[0].expr).subs(subs)


@pytest.mark.parametrize(
    "did", ["tradeoff-zero-eps-composition", "tradeoff-eps-delta-split", "gdp-gaussian-mechanism"]
)
def test_first_step_is_proved_by_the_doit_rung(did: str) -> None:
    assert prove_zero(_first_step_residual(did)) in (
        "doit+rewrite(erf)+expand",
        "doit+rewrite(erf)+Abs by sign+together",
        "doit+rewrite(erf)+simplify",
    )


def _zero_eps_two_factors() -> Derivation:
    """The last factor left out of the product (n - 1 factors for n)."""
    from derivations.gdp_algebra.zero_eps import DELTA_I, IX, N

    d = get("tradeoff-zero-eps-composition")
    total = d.defs[0][0]
    rest = sp.Product(1 - DELTA_I.base[IX], (IX, 1, N.symbol - 1))
    return d.replace(defs=((total, 1 - rest),))


def _eps_delta_double_eps() -> Derivation:
    d = get("tradeoff-eps-delta-split")
    e, dl, a = (d.symbols[n] for n in ("eps", "delta", "alpha"))
    wrong = sp.Max(0, 1 - dl - sp.exp(e) * a, sp.exp(-2 * e) * (1 - dl - a), evaluate=False)
    return d.with_step(0, expr=wrong)


def _gaussian_half_gap() -> Derivation:
    d = get("gdp-gaussian-mechanism")
    sigma, gap, a = d.defs[0][0], d.symbols["gap"], d.symbols["alpha"]
    return d.with_step(0, expr=Phi(PhiInv(1 - a) - gap / (2 * sigma)))


@pytest.mark.parametrize(
    "mutant", [_zero_eps_two_factors, _eps_delta_double_eps, _gaussian_half_gap]
)
def test_changed_constant_is_refuted_and_not_proved(mutant: Callable[[], Derivation]) -> None:
    d = mutant()
    step = check_derivation(d, FAST).steps[0]
    assert step.verdict is Verdict.REFUTED
    assert step.symbolic is None
    assert prove_zero((d.claim.lhs - d.steps[0].expr).subs(dict(d.defs))) is None


POINTS_30 = [("0.3", "1e-3", "0.01"), ("2", "0.25", "0.05"), ("0.7", "0.5", "0.2")]


def _agree(exact: sp.Expr, numeric: object) -> None:
    value = sp.N(exact, 30)
    assert abs(mpmath.mpf(str(value)) - numeric) <= mpmath.mpf(10) ** -25


@pytest.mark.parametrize("e, d, a", [*POINTS_30, ("1", "0.1", "0.9"), ("1", "0.1", "0.5")])
def test_eps_delta_split_doit_matches_impl(e: str, d: str, a: str) -> None:
    eps, delta, alpha = sp.symbols("eps delta alpha", positive=True)
    built = EpsDeltaSplit(eps, delta, alpha).doit()
    assert not built.has(EpsDeltaSplit)
    exact = built.subs({eps: sp.Rational(e), delta: sp.Rational(d), alpha: sp.Rational(a)})
    with mpmath.workdps(30):
        _agree(exact, EpsDeltaSplit.impl(mpmath.mpf(e), mpmath.mpf(d), mpmath.mpf(a)))


@pytest.mark.parametrize(
    "d1, d2, a", [("0.3", "1e-3", "0.01"), ("0.05", "0.25", "0.5"), ("0.1", "0.2", "0.9")]
)
def test_zero_eps_tensor_doit_matches_impl(d1: str, d2: str, a: str) -> None:
    ds = sp.symbols("d1:4", positive=True)
    alpha = sp.Symbol("alpha", positive=True)
    built = ZeroEpsTensor(*ds, alpha).doit()
    values = (sp.Rational(d1), sp.Rational(d2), sp.Rational(1, 7))
    exact = built.subs({**dict(zip(ds, values, strict=True)), alpha: sp.Rational(a)})
    with mpmath.workdps(30):
        got = ZeroEpsTensor.impl(*(mpmath.mpf(str(v)) for v in (*values, sp.Rational(a))))
        _agree(exact, got)


@pytest.mark.parametrize(
    "gap, sigma, a", [("0", "1", "0.3"), ("1.5", "0.5", "0.01"), ("3", "2", "0.9")]
)
def test_normal_pair_doit_matches_impl(gap: str, sigma: str, a: str) -> None:
    g = sp.Symbol("gap", nonnegative=True)
    s, alpha = sp.Symbol("sigma", positive=True), sp.Symbol("alpha", positive=True)
    built = NormalPairTradeoff(g, s, alpha).doit()
    assert not built.has(NormalPairTradeoff)
    point = {g: sp.Rational(gap), s: sp.Rational(sigma), alpha: sp.Rational(a)}
    # the quantile as erfinv, which SymPy evaluates (PhiInv has no evalf of its own)
    exact = built.subs(point).rewrite(sp.erfinv)
    with mpmath.workdps(30):
        _agree(exact, NormalPairTradeoff.impl(mpmath.mpf(gap), mpmath.mpf(sigma), mpmath.mpf(a)))


def test_constructions_stay_unevaluated_where_the_order_is_unknown() -> None:
    # eps of unknown sign: e^eps against e^-eps is not decided, so no curve is claimed
    eps, delta, alpha, gap = sp.symbols("eps delta alpha gap", real=True)
    assert isinstance(EpsDeltaSplit(eps, delta, alpha).doit(), EpsDeltaSplit)
    with pytest.raises(Undecided):
        compare_ratios(sp.exp(eps), sp.exp(-eps))
    # a shift of unknown sign: the threshold test {x > t} need not be most powerful
    assert isinstance(NormalPairTradeoff(gap, 1, sp.Rational(1, 3)).doit(), NormalPairTradeoff)


def test_a_different_pair_gives_a_different_curve() -> None:
    eps, delta, alpha = sp.symbols("eps delta alpha", positive=True)
    right = curve_max(
        np_curve(tensor_atoms(eps_delta_atoms(eps, 0), eps_delta_atoms(0, delta))), alpha
    )
    assert prove_zero(right - f_eps_delta(eps, delta, alpha)) is not None
    # the product with f_{2 eps, 0}: a different curve (the cheap rungs do not equate them;
    # the full ladder is run on the mutants above)
    other = curve_max(
        np_curve(tensor_atoms(eps_delta_atoms(2 * eps, 0), eps_delta_atoms(0, delta))), alpha
    )
    assert prove_zero(other - f_eps_delta(eps, delta, alpha), cheap=True) is None
    point = {eps: 1, delta: sp.Rational(1, 10), alpha: sp.Rational(1, 20)}
    assert sp.N((other - right).subs(point)) != 0


_PROBS = st.lists(st.integers(0, 6), min_size=2, max_size=5)


@settings(max_examples=30, deadline=None)
@given(_PROBS, _PROBS, st.fractions(0, 1))
def test_symbolic_curve_matches_numeric_curve(ps: list[int], qs: list[int], a: Fraction) -> None:
    # any finite pair with exact rational atoms: the symbolic construction (both forms, exact
    # rationals) equals the numeric Neyman-Pearson curve of numeric_checks.dp.tradeoff
    n = min(len(ps), len(qs))
    ps, qs = ps[:n], qs[:n]
    if sum(ps) == 0 or sum(qs) == 0:
        return
    p = [sp.Rational(x, sum(ps)) for x in ps]
    q = [sp.Rational(x, sum(qs)) for x in qs]
    curve = np_curve(list(zip(p, q, strict=True)))
    alpha = sp.Rational(a.numerator, a.denominator)
    x = sp.Symbol("x")
    with mpmath.workdps(30):
        numeric = tradeoff_curve(
            FinitePair.make([mpmath.mpf(v.p) / v.q for v in p], [mpmath.mpf(v.p) / v.q for v in q])
        )(mpmath.mpf(alpha.p) / alpha.q)
        for form in (curve_max(curve, x), curve_piecewise(curve, x)):
            value = sp.Rational(form.subs(x, alpha))
            assert abs(mpmath.mpf(value.p) / value.q - numeric) < mpmath.mpf(10) ** -25
