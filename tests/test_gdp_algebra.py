"""The algebra of trade-off functions (Dong, Roth & Su, Sec. 2.5 and 3; seed 004 sections
4.6, 5.1-5.3): each derivation holds, a mutated version is refuted, a weaker one is not."""

from __future__ import annotations

from collections.abc import Callable

import mpmath
import pytest
import sympy as sp

from derivations.catalog import get
from derivations.gaussian_dp import g
from derivations.gdp_algebra import clt_table, f_eps_delta, laplace_limit_table
from derivations.gdp_algebra.clt import SEED_GAMMA_FACTOR
from derivations.gdp_algebra.composition_k import (
    IX as COMP_IX,
)
from derivations.gdp_algebra.composition_k import (
    MU_I,
    GaussianTensorK,
    K,
    half_space_direction,
    log_likelihood_ratio,
)
from derivations.gdp_algebra.zero_eps import DELTA_I, IX, N
from numeric_checks import CheckOptions, check_derivation
from numeric_checks.dp.tradeoff import gaussian_tensor_k
from numeric_checks.mp import phi_inv
from symbolic.derivation import Derivation
from symbolic.relations import Relation
from symbolic.report import DerivationReport
from symbolic.verdicts import Verdict

from .conftest import on_the_catalog_worker, sym, weaker

# Refutation is numeric only (the tactics and rules never say "false"), so the mutant and
# weaker-variant checks skip the symbolic stage: on gdp-clt-berry-esseen the rules spend
# ~30 s failing on the links through the opaque tensor power.
FAST = CheckOptions(points=60, search_budget=40, oracle=False, certify=False, symbolic=False)
# gdp-composition's left side is two trapezoidal sums a point (~40 ms at 30 digits)
TENSOR = CheckOptions(dps=30, search_budget=2, oracle=False, certify=False)

IDS = [
    "gdp-group-privacy",
    "tradeoff-eps-delta-split",
    "tradeoff-zero-eps-composition",
    "eps-tradeoff-kl",
    "eps-tradeoff-kappa2",
    "eps-tradeoff-kappa3",
    "eps-tradeoff-kappa3-bar",
    "gdp-clt-berry-esseen",
]


# The functionals' left sides are sums over the atoms of the f_{eps,0} pair (doit): proved.
FUNCTIONAL_IDS = {
    "eps-tradeoff-kl",
    "eps-tradeoff-kappa2",
    "eps-tradeoff-kappa3",
    "eps-tradeoff-kappa3-bar",
}
PROVED_IDS = FUNCTIONAL_IDS | {
    # symbolic Neyman-Pearson curve of the product pair (doit): proved
    "tradeoff-eps-delta-split",
    "tradeoff-zero-eps-composition",
}


@on_the_catalog_worker
@pytest.mark.parametrize("did", IDS)
def test_derivation_holds(did: str, catalog_reports: dict[str, DerivationReport]) -> None:
    r = catalog_reports[did]
    # gdp-group-privacy: proved by induction on k (tests/test_induction.py)
    proved = did in PROVED_IDS or did == "gdp-group-privacy"
    expected = Verdict.PROVED if proved else Verdict.CHECKED
    assert r.verdict is expected, [s.evidence for s in r.steps]
    # everything after the numeric first step is proved
    if did not in ("gdp-clt-berry-esseen",):
        assert all(s.verdict is Verdict.PROVED for s in r.steps[-1:]) or did.startswith("trade")


@on_the_catalog_worker
def test_gdp_composition_is_proved_for_every_k(
    catalog_reports: dict[str, DerivationReport],
) -> None:
    r = catalog_reports["gdp-composition"]
    assert r.verdict is Verdict.PROVED, [s.evidence for s in r.steps]
    assert all("for every length" in (s.evidence or "") for s in r.steps)
    assert r.scope == "general" and "k >= 1" in (r.scope_note or "")


def _gdp_composition_mutant(rhs: Callable[[sp.Expr, sp.Expr], sp.Expr]) -> Derivation:
    """gdp-composition with G_sqrt(sum mu_i^2) replaced by G_{rhs(mu_i, i)} in the claim
    and the last step."""
    d = get("gdp-composition")
    mu, k, a = MU_I.base, K.symbol, d.symbols["alpha"]
    wrong = g(rhs(mu[COMP_IX], k), a)
    return d.with_step(len(d.steps) - 1, expr=wrong)


@pytest.mark.parametrize(
    "rhs",
    [
        # sqrt(sum mu_i): the mu's not squared
        lambda m, k: sp.sqrt(sp.Sum(m, (COMP_IX, 1, k))),
        # sum mu_i (mu_1 + mu_2 at k = 2): the mu's added instead of their squares
        lambda m, k: sp.Sum(m, (COMP_IX, 1, k)),
    ],
    ids=["sqrt-sum-mu", "sum-mu"],
)
def test_gdp_composition_mutants_are_refuted(rhs: Callable[[sp.Expr, sp.Expr], sp.Expr]) -> None:
    r = check_derivation(_gdp_composition_mutant(rhs), TENSOR)
    assert r.verdict is Verdict.REFUTED
    assert r.steps[-1].verdict is Verdict.REFUTED and r.steps[0].verdict is Verdict.PROVED
    assert r.steps[-1].counterexample is not None and "k = " in (r.steps[-1].evidence or "")


def test_gdp_composition_two_fold_is_the_rotated_plane() -> None:
    # k = 2: the symbolic half-plane test and the numeric construction (one coordinate
    # integrated) agree, and both differ from the mu_1 + mu_2 mutant.
    m1, m2, a = sp.Rational(1, 2), sp.Integer(2), sp.Rational(1, 10)
    closed = GaussianTensorK(m1, m2, a).doit()
    assert closed == g(sp.sqrt(m1**2 + m2**2), a)
    with mpmath.workdps(30):
        numeric = gaussian_tensor_k(m1, m2, a)
        z = phi_inv(1 - mpmath.mpf(a))
        assert abs(numeric - mpmath.ncdf(z - mpmath.sqrt(mpmath.mpf(17) / 4))) < 1e-25
        assert abs(numeric - mpmath.ncdf(z - mpmath.mpf(5) / 2)) > 1e-3


def test_gdp_composition_half_space_needs_an_affine_log_ratio() -> None:
    # The Neyman-Pearson unfolding reads the test's direction off the log likelihood ratio:
    # one coordinate's is affine with slope mu (so the test is a half-space).
    mu = sp.Symbol("mu", positive=True)
    assert half_space_direction(mu) == mu
    x = sp.Symbol("x", real=True)
    assert sp.expand(log_likelihood_ratio(mu, x) - (mu * x - mu**2 / 2)) == 0


@pytest.mark.parametrize("did", sorted(FUNCTIONAL_IDS))
def test_functional_doit_matches_the_curve(did: str) -> None:
    # the symbolic atom sum (doit) and the Neyman-Pearson curve (impl) agree at a point
    lhs = get(did).claim.lhs
    e = lhs.args[0]
    for value in ("0.01", "1", "4"):
        point = sp.Rational(value)
        exact = sp.N(lhs.doit().subs(e, point), 30)
        numeric = type(lhs).impl(mpmath.mpf(value))
        assert abs(float(exact) - float(numeric)) <= 1e-12 * max(1.0, abs(float(exact)))


def _berry_esseen_with_constant(constant: sp.Expr) -> Derivation:
    """gdp-clt-berry-esseen with the constant 0.56 of gamma replaced by ``constant``."""
    d = get("gdp-clt-berry-esseen")
    scale = constant / SEED_GAMMA_FACTOR
    return d.replace(defs=tuple((s, v * scale if s.name == "gamma_n" else v) for s, v in d.defs))


def _delta_i() -> sp.Expr:
    return DELTA_I.base[IX]


def _mutant(did: str) -> Derivation:
    d = get(did)
    s = d.symbols
    if did == "gdp-group-privacy":
        # Two points: an iterate up to k = 20 costs 20 Newton inversions at 50 digits, and
        # G_{sqrt(k) mu} is far from G_{k mu} at any k >= 2.
        return d.with_step(len(d.steps) - 1, expr=g(sp.sqrt(s["k"]) * s["mu"], s["alpha"])).replace(
            points=lambda rng, dps: [
                {"mu": mpmath.mpf("0.7"), "k": mpmath.mpf(3), "alpha": mpmath.mpf("0.25")},
                {"mu": mpmath.mpf("1.5"), "k": mpmath.mpf(5), "alpha": mpmath.mpf("0.01")},
            ]
        )
    if did == "tradeoff-eps-delta-split":
        return d.with_step(0, expr=f_eps_delta(s["eps"], 2 * s["delta"], s["alpha"]))
    if did == "tradeoff-zero-eps-composition":
        # 1 - prod(1 - delta_i) read as sum delta_i (the union bound, not the product)
        total = d.defs[0][0]
        return d.replace(defs=((total, sp.Sum(_delta_i(), (IX, 1, N.symbol))),))
    if did == "eps-tradeoff-kl":
        return d.with_step(len(d.steps) - 1, expr=s["eps"] * sp.tanh(s["eps"]))
    if did == "eps-tradeoff-kappa2":
        return d.with_step(len(d.steps) - 1, expr=s["eps"] ** 2 / 2)
    if did == "eps-tradeoff-kappa3":
        return d.with_step(len(d.steps) - 1, expr=s["eps"] ** 2)
    if did == "eps-tradeoff-kappa3-bar":
        e = s["eps"]
        return d.with_step(
            len(d.steps) - 1, expr=4 * e**3 * sp.exp(e) * (1 + sp.exp(2 * e)) / (1 + sp.exp(e)) ** 4
        )
    assert did == "gdp-clt-berry-esseen"
    return _berry_esseen_with_constant(sp.Rational(56, 10000))


@pytest.mark.parametrize("did", IDS)
def test_mutant_is_refuted(did: str) -> None:
    r = check_derivation(_mutant(did), FAST)
    assert r.verdict is Verdict.REFUTED


WEAKER: dict[str, Callable[[], Derivation]] = {
    "gdp-group-privacy": lambda: weaker(
        get("gdp-group-privacy"),
        Relation.GE,
        g(
            (sym("gdp-group-privacy", "k") + 1) * sym("gdp-group-privacy", "mu"),
            sym("gdp-group-privacy", "alpha"),
        ),
    ),
    "tradeoff-zero-eps-composition": lambda: weaker(
        get("tradeoff-zero-eps-composition"),
        Relation.GE,
        sp.Max(
            0,
            1
            - sp.Sum(_delta_i(), (IX, 1, N.symbol))
            - sym("tradeoff-zero-eps-composition", "alpha"),
            evaluate=False,
        ),
    ),
    "gdp-clt-berry-esseen": lambda: _berry_esseen_with_constant(sp.Rational(112, 100)),
}


@pytest.mark.parametrize("name", sorted(WEAKER))
def test_weaker_variant_is_not_refuted(name: str) -> None:
    assert check_derivation(WEAKER[name](), FAST).verdict is not Verdict.REFUTED


def test_limit_tables_say_how_close() -> None:
    text = laplace_limit_table()
    assert "k=400" in text and "1/k^2" in text
    rows = [line.split() for line in clt_table().splitlines() if line.strip()[:1].isdigit()]
    gaps = [float(r[2]) for r in rows]
    gammas = [float(r[3]) for r in rows]
    assert gaps == sorted(gaps, reverse=True) and all(
        a < b for a, b in zip(gaps, gammas, strict=True)
    )
