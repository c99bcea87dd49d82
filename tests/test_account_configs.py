"""``dpderive account`` on 15 configurations from papers, each with a true and a false claim,
right against an independent computation (tests/account_reference.py: mpmath quadrature,
exact binomial sums, FFT privacy-loss grids; none of it calls dpderive's accounting code).

Sources of the configurations: the analytic Gaussian (Balle & Wang 2018, sigma = 1 and 0.7);
Gaussian DP compositions (Dong, Roth & Su 2022, mu = 1 from 16 rounds; 1000 rounds);
k-fold Laplace and randomized response (Kairouz, Oh & Viswanath 2015; Dwork & Roth 2014,
Sec. 3.5); DP-SGD (Abadi et al. 2016: q = 0.01, sigma = 1.1, 10^4 steps; Mironov, Talwar &
Zhang 2019: q in [1e-3, 0.1])."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pytest
from flint import arb, ctx

from derivations.accounting.assess import CITED, Claim, assess
from numeric_checks.accounting.mechanisms import Composition, Mechanism, Round
from tests import account_reference as ref


@dataclass(frozen=True)
class Config:
    name: str
    mechanism: Mechanism
    steps: int
    eps: float
    exact: bool  # the reference is exact (else an FFT grid within ~2%)
    true_factor: float  # the true claim: delta = truth * true_factor
    false_factor: float  # the false claim: delta = truth * false_factor

    def truth(self) -> float:
        m = self.mechanism
        if m.kind == "gaussian" and not m.sampled:
            return ref.gaussian_delta(math.sqrt(self.steps) / float(m.sigma), self.eps)
        if m.kind == "randomized_response":
            return ref.rr_delta(float(m.eps0), self.steps, self.eps)
        if m.kind == "laplace":
            return ref.laplace_delta_near(1 / float(m.scale), self.steps, self.eps)
        return ref.subsampled_gaussian_delta(float(m.sigma), float(m.q), self.steps, self.eps)


HAIR = 1e-9
G, L, R = "gaussian", "laplace", "randomized_response"
CONFIGS = (
    Config("gauss-analytic", Mechanism(G, sigma="1"), 1, 1.0, True, 1 + HAIR, 1 - HAIR),
    Config("gauss-analytic-0.7", Mechanism(G, sigma="0.7"), 1, 3.0, True, 1 + HAIR, 1 - HAIR),
    Config("gauss-16-rounds", Mechanism(G, sigma="4"), 16, 1.0, True, 1 + HAIR, 1 - HAIR),
    Config("gauss-1000-rounds", Mechanism(G, sigma="10"), 1000, 8.0, True, 1 + HAIR, 1 - HAIR),
    Config("laplace-10", Mechanism(L, scale="1"), 10, 5.0, False, 2.0, 0.98),
    Config("laplace-100", Mechanism(L, scale="10"), 100, 3.0, False, 1.3, 0.98),
    Config("laplace-1000", Mechanism(L, scale="20"), 1000, 4.0, False, 1.2, 0.98),
    Config("rr-10", Mechanism(R, eps0="1"), 10, 4.0, True, 1 + HAIR, 1 - HAIR),
    Config("rr-50", Mechanism(R, eps0="0.5"), 50, 6.0, True, 1 + HAIR, 1 - HAIR),
    Config("rr-1000", Mechanism(R, eps0="0.1"), 1000, 2.0, True, 1 + HAIR, 1 - HAIR),
    Config("dpsgd-abadi", Mechanism(G, sigma="1.1", q="0.01"), 10_000, 5.0, False, 6.0, 0.9),
    Config("dpsgd-q0.1", Mechanism(G, sigma="2", q="0.1"), 100, 1.0, False, 4.0, 0.9),
    Config("dpsgd-q0.05", Mechanism(G, sigma="1.5", q="0.05"), 1000, 2.5, False, 4.0, 0.9),
    Config("dpsgd-q0.001", Mechanism(G, sigma="1", q="0.001"), 10_000, 0.5, False, 80.0, 0.9),
    Config("dpsgd-q0.02", Mechanism(G, sigma="0.9", q="0.02"), 2000, 4.0, False, 6.0, 0.9),
)


@pytest.fixture(autouse=True)
def _precision() -> object:
    old = ctx.prec
    ctx.prec = 128
    yield
    ctx.prec = old


def _claim(eps: float, delta: float) -> Claim:
    return Claim("eps_delta", eps=arb(repr(eps)), delta=arb(repr(delta)))


@pytest.mark.parametrize("c", CONFIGS, ids=lambda c: c.name)
def test_configuration_true_and_false_claims(c: Config) -> None:
    truth = c.truth()
    comp = Composition((Round(c.mechanism, c.steps),))
    tol = 1e-9 if c.exact else 0.02
    # The rigorous bounds bracket the independent value.
    a = assess(comp, _claim(c.eps, truth))
    assert float(a.lower.delta.lower()) <= truth * (1 + tol), (truth, a.lower.delta)
    best = a.best_upper
    assert best is not None and float(best.delta.upper()) >= truth * (1 - tol), (truth, best)
    # A true claim holds, a false one is refuted.
    yes = assess(comp, _claim(c.eps, truth * c.true_factor))
    assert yes.verdict == "holds", yes.reason
    no = assess(comp, _claim(c.eps, truth * c.false_factor))
    assert no.verdict == "refuted", no.reason


def test_holds_names_its_basis_honestly() -> None:
    """A Gaussian composition holds through the catalog's GDP chain, which rests on a cited
    result (gdp-gaussian-mechanism); a subsampled one only by cited theorems (Renyi DP)."""
    g = assess(Composition((Round(Mechanism(G, sigma="4"), 16),)), _claim(1.0, 0.2))
    assert g.verdict == "holds" and g.basis == "from cited results"
    assert g.used is not None and "gdp-to-dp" in g.used.catalog
    s = assess(Composition((Round(Mechanism(G, sigma="2", q="0.1"), 100),)), _claim(1.0, 0.1))
    assert s.verdict == "holds" and s.basis == CITED
    lap = assess(Composition((Round(Mechanism(L, scale="10"), 100),)), _claim(6.0, 1e-5))
    assert lap.verdict == "holds" and lap.basis == "from foundations"
    assert lap.used is not None and lap.used.catalog == ("advanced-composition",)


def test_outside_the_catalogs_domain_is_cited() -> None:
    """mu = 25 lies outside gdp-to-dp's proved domain (mu <= 20): the bound still holds by the
    paper's corollary, and says so."""
    comp = Composition((Round(Mechanism(G, sigma="4"), 10_000),))
    a = assess(comp, _claim(450.0, 1e-5))
    assert a.verdict == "holds" and a.basis == CITED
    assert a.used is not None and any("2.13" in c for c in a.used.cited)


def test_heterogeneous_rounds_match_the_reference() -> None:
    comp = Composition((Round(Mechanism(G, sigma="4"), 50), Round(Mechanism(G, sigma="2"), 10)))
    mu = math.sqrt(50 / 16 + 10 / 4)
    truth = ref.gaussian_delta(mu, 2.0)
    assert assess(comp, _claim(2.0, truth * (1 + HAIR))).verdict == "holds"
    assert assess(comp, _claim(2.0, truth * (1 - HAIR))).verdict == "refuted"
    mixed = Composition((Round(Mechanism(L, scale="10"), 20), Round(Mechanism(R, eps0="0.2"), 20)))
    a = assess(mixed, _claim(2.0, 0.01))
    assert a.lower.delta.lower() <= a.best_upper.delta.upper()  # type: ignore[union-attr]


def test_gdp_claims_against_the_exact_mu() -> None:
    comp = Composition((Round(Mechanism(G, sigma="4"), 16),))  # exactly 1-GDP
    assert assess(comp, Claim("mu", mu=arb("1"))).verdict == "holds"
    assert assess(comp, Claim("mu", mu=arb("1.0001"))).verdict == "holds"
    assert assess(comp, Claim("mu", mu=arb("0.999"))).verdict == "refuted"
    # Randomized response with eps0 = 1 is not 0.5-GDP: its profile exceeds G_0.5's.
    rr = Composition((Round(Mechanism(R, eps0="1"), 1),))
    assert assess(rr, Claim("mu", mu=arb("0.5"))).verdict == "refuted"
    assert assess(rr, Claim("mu", mu=arb("3"))).verdict == "inconclusive"


@pytest.mark.parametrize("c", [CONFIGS[0], CONFIGS[2], CONFIGS[8]], ids=lambda c: c.name)
def test_eps_bounds_bracket_the_reference(c: Config) -> None:
    comp = Composition((Round(c.mechanism, c.steps),))
    delta = 1e-5
    m = c.mechanism
    if m.kind == "gaussian":
        mu = math.sqrt(c.steps) / float(m.sigma)
        eps_true = ref.eps_for(lambda e: ref.gaussian_delta(mu, e), delta)
    else:
        eps_true = ref.eps_for(lambda e: ref.rr_delta(float(m.eps0), c.steps, e), delta, 40.0)
    a = assess(comp, _claim(1.0, delta))
    assert a.lower.eps is not None and float(a.lower.eps.lower()) <= eps_true + 1e-9
    up = a.best_eps_upper
    assert up is not None and float(up.eps.upper()) >= eps_true - 1e-9
