"""Gaussian differential privacy: from mu-GDP to (eps, delta)-DP.

Dong, Roth & Su, *Gaussian Differential Privacy*, arXiv:1905.02383v3, Corollary 2.13 (seed
004, section 4.5): a mechanism is mu-GDP iff it is (eps, delta(eps))-DP for all eps >= 0 with

    delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2).

``gdp-to-dp`` derives delta(eps) as the hockey-stick divergence of N(mu, 1) and N(0, 1):
the likelihood ratio exceeds e^eps exactly on {x > x*}, x* = eps/mu + mu/2, and the two
Gaussian integrals over that region give the formula.  The left side, delta(eps) of mu-GDP, is
defined symbolically as the integral of the density gap over {x : log(p/q) > eps} (SymPy solves
the region and integrates: every step is proved) and computed numerically, independently,
from the privacy-loss distribution (a quadrature in the loss variable); the oracle integrates
the hockey-stick in x, split at x*.  Both directions of the "iff" are
checked numerically in the tests (f_{eps, delta(eps)} <= G_mu, and their envelope is G_mu).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import mpmath
import sympy as sp

from derivations.sources import DONG_ROTH_SU
from numeric_checks.dp.gaussian import (
    profile_by_hockey_stick,
    profile_by_loss,
    profile_closed_form,
)
from symbolic.derivation import Derivation, Oracle, OracleOutcome
from symbolic.domains import Domain, Variable
from symbolic.functions import NumericFunction, Phi, PhiInv
from symbolic.kit import by, chain

FAMILY = "Dong, Roth & Su: Gaussian differential privacy"
# Each point costs several 50-digit quadratures: a grid over the magnitudes that matter.
MU_GRID = ("0.001", "0.05", "0.5", "1", "3", "20")
EPS_GRID = ("0", "0.5", "2", "10", "50")


def g(mu: sp.Expr, alpha: sp.Expr) -> sp.Expr:
    """G_mu(alpha) = Phi(Phi^{-1}(1 - alpha) - mu), the trade-off function of N(0, 1) against
    N(mu, 1) (Dong, Roth & Su, Sec. 2.2)."""
    return Phi(PhiInv(1 - alpha) - mu)


def normal_density(t: sp.Expr) -> sp.Expr:
    """The N(0, 1) density exp(-t^2/2)/sqrt(2 pi)."""
    return sp.exp(-(t**2) / 2) / sp.sqrt(2 * sp.pi)


class GaussianDelta(NumericFunction):
    """delta(eps) of mu-GDP: the hockey-stick divergence H_{e^eps}(N(mu, 1) || N(0, 1)) =
    int (p - e^eps q)_+ dx, the gap of the densities over the region where the likelihood
    ratio p/q exceeds e^eps (Dong, Roth & Su, Corollary 2.13; Balle & Wang 2018, Theorem 8).

    Numerically it is computed independently of that integral, from the privacy-loss
    distribution N(mu^2/2, mu^2) (:func:`profile_by_loss`).  Symbolically :meth:`doit`
    integrates the definition: SymPy expands the log-likelihood ratio log(p(x)/q(x)) to
    mu x - mu^2/2, :func:`rejection_threshold` solves the linear inequality for the region
    {x > x*}, and SymPy integrates the density gap over it.  So a step about it is
    decided by the ``doit`` tactic, and the spot checks still compare the two
    computations."""

    nargs = 2
    impl = staticmethod(profile_by_loss)
    latex_template = r"\delta_{{G_{{{0}}}}}\left({1}\right)"

    @classmethod
    def definition(cls, mu: sp.Expr, eps: sp.Expr) -> sp.Integral:
        """int over R of (p - e^eps q) 1{log(p/q) > eps}, p = N(mu, 1), q = N(0, 1)."""
        x = sp.Dummy("x", real=True)
        p, q = normal_density(x - mu), normal_density(x)
        return sp.Integral(
            sp.Piecewise((p - sp.exp(eps) * q, sp.log(p / q) > eps), (0, True)),
            (x, -sp.oo, sp.oo),
        )

    def doit(self, **hints: Any) -> sp.Expr:
        deep = hints.get("deep", True)
        mu, eps = (a.doit(**hints) if deep else a for a in self.args)
        x = sp.Dummy("x", real=True)
        p, q = normal_density(x - mu), normal_density(x)
        start = rejection_threshold(sp.log(p / q), x, eps)
        if start is None:  # mu of unknown sign: the region is not known to be a tail
            return self.func(mu, eps)
        integral = sp.Integral(p - sp.exp(eps) * q, (x, sp.expand(start), sp.oo))
        if not deep:
            return integral
        # Without Meijer G the erf antiderivative comes out in 1 s and in closed form;
        # SymPy's default path takes 6 s and returns a far longer expression.
        value = integral.doit(**{**hints, "meijerg": False})
        return value if not value.has(sp.Integral) else integral.doit(**hints)


def rejection_threshold(log_ratio: sp.Expr, x: sp.Symbol, eps: sp.Expr) -> sp.Expr | None:
    """x* with {x : log_ratio(x) > eps} = (x*, oo), when the log-likelihood ratio is
    a x + b with a > 0 (SymPy expands it; for two normals of equal variance it is linear,
    Dong, Roth & Su Sec. 2.2): then a x + b > eps iff x > (eps - b)/a.  None otherwise."""
    poly = sp.expand(sp.expand_log(log_ratio, force=True))
    if not poly.is_polynomial(x) or sp.degree(poly, x) != 1:
        return None
    a, b = poly.coeff(x, 1), poly.coeff(x, 0)
    if a.is_positive is not True:
        return None
    return (eps - b) / a


def _points(rng: random.Random, dps: int) -> list[dict[str, Any]]:
    out = [{"mu": mpmath.mpf(m), "eps": mpmath.mpf(e)} for m in MU_GRID for e in EPS_GRID]
    # a few random points besides the grid: each costs several 50-digit quadratures
    for _ in range(6):
        out.append(
            {"mu": mpmath.mpf(10) ** rng.uniform(-3, 1.3), "eps": mpmath.mpf(rng.uniform(0, 10))}
        )
    return out


def _oracle(values: Mapping[str, Any]) -> OracleOutcome:
    mu, eps = values["mu"], values["eps"]
    with mpmath.extradps(20):
        exact = profile_closed_form(mu, eps)
    by_x = profile_by_hockey_stick(mu, eps)
    digits = mpmath.inf if by_x == exact else -mpmath.log10(abs(by_x - exact) / exact)
    ok = digits >= 45
    return OracleOutcome(
        ok,
        f"hockey-stick in x agrees with the formula to {mpmath.nstr(digits, 3)} digits",
        {"digits": mpmath.nstr(digits, 4)},
    )


def gdp_to_dp() -> Derivation:
    mu = Variable(
        "mu",
        Domain(
            lower=sp.Rational(1, 1000),
            upper=sp.Integer(20),
            lower_open=False,
            upper_open=False,
            scale="log",
        ),
        "GDP parameter",
        r"\mu",
    )
    eps = Variable(
        "eps",
        Domain(lower=sp.S.Zero, upper=sp.Integer(50), lower_open=False, upper_open=False),
        "privacy parameter",
        r"\varepsilon",
    )
    m, e = mu.symbol, eps.symbol
    x = sp.Symbol("x", real=True)
    x_star = sp.Symbol("x_star", positive=True)

    phi = normal_density

    def tail(f: sp.Expr) -> sp.Integral:
        return sp.Integral(f, (x, x_star, sp.oo))

    proof = (
        chain(GaussianDelta(m, e))
        .eq(
            tail(phi(x - m) - sp.exp(e) * phi(x)),
            by.definition(
                "hockey-stick divergence of N(mu, 1) and N(0, 1): int (p - e^eps q)_+ dx "
                "over {x : p/q > e^eps}; the likelihood ratio exp(mu x - mu^2/2) exceeds "
                "e^eps exactly when x > x* = eps/mu + mu/2"
            ),
        )
        .eq(tail(phi(x - m)) - sp.exp(e) * tail(phi(x)), by.algebra("linearity of the integral"))
        .eq(
            (1 - Phi(x_star - m)) - sp.exp(e) * (1 - Phi(x_star)),
            by.algebra("Gaussian tail integrals"),
        )
        .eq(
            Phi(m - x_star) - sp.exp(e) * Phi(-x_star),
            by.algebra("symmetry: 1 - Phi(t) = Phi(-t)"),
        )
        .eq(
            Phi(-e / m + m / 2) - sp.exp(e) * Phi(-e / m - m / 2),
            by.definition("x* = eps/mu + mu/2"),
        )
    )
    return proof.derive(
        id="gdp-to-dp",
        title="Gaussian DP to (eps, delta)-DP",
        source=DONG_ROTH_SU.at("Corollary 2.13", seed="004"),
        statement=(
            "A mu-GDP mechanism is (eps, delta(eps))-DP for every eps >= 0, with "
            "delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2), the "
            "hockey-stick divergence of N(mu, 1) from N(0, 1)."
        ),
        variables=(mu, eps),
        defs=((x_star, e / m + m / 2),),
        oracle=Oracle(
            "gaussian-hockey-stick",
            "hockey-stick divergence of N(mu, 1) and N(0, 1) by quadrature in x, "
            "split at x* (must agree with the formula to >= 45 digits)",
            _oracle,
            # Each point is a 70-digit quadrature; it cross-checks the library's two
            # computations, which no mutant of the chain touches: a dozen points suffice.
            points=12,
        ),
        family=FAMILY,
        points=_points,
        search_budget=12,
    )


DERIVATIONS = (gdp_to_dp,)
