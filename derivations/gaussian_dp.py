"""Gaussian differential privacy: from mu-GDP to (eps, delta)-DP.

Dong, Roth & Su, *Gaussian Differential Privacy*, arXiv:1905.02383v3, Corollary 2.13 (seed
004, section 4.5): a mechanism is mu-GDP iff it is (eps, delta(eps))-DP for all eps >= 0 with

    delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2).

``gdp-to-dp`` derives delta(eps) as the hockey-stick divergence of N(mu, 1) and N(0, 1):
the likelihood ratio exceeds e^eps exactly on {x > x*}, x* = eps/mu + mu/2, and the two
Gaussian integrals over that region give the formula.  The left side, delta(eps) of mu-GDP, is
defined symbolically as the integral of the density gap over {x : log(p/q) > eps} (SymPy solves
the region, and checks the antiderivative by differentiation: every step is proved) and
computed numerically, independently, from the law of the privacy loss (its moment generating
function); the oracle integrates the hockey-stick in x, split at x*, by quadrature.  Both
directions of the "iff" are checked numerically in the tests (f_{eps, delta(eps)} <= G_mu,
and their envelope is G_mu).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import mpmath
import sympy as sp

from derivations.sources import DONG_ROTH_SU
from numeric_checks.dp.gaussian import (
    hockey_stick_normals,
    profile_by_loss_law,
    profile_closed_form,
)
from symbolic.derivation import Derivation, Oracle, OracleOutcome
from symbolic.domains import Domain, Variable
from symbolic.functions import NumericFunction, Phi, PhiInv
from symbolic.kit import by, chain

FAMILY = "Dong, Roth & Su: Gaussian differential privacy"
# Each point costs a few quadratures of the chain's integrals: a grid over the magnitudes
# that matter (both ends of each domain, and the middle), then a few random points (which
# land between, mu log-uniform over the domain).
MU_GRID = ("0.001", "0.5", "20")
EPS_GRID = ("0", "2", "50")


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

    Numerically it is computed independently of that integral, from the law of the privacy
    loss N(mu^2/2, mu^2) through its moment generating function (:func:`profile_by_loss_law`,
    exact and without quadrature; the tests compare it with the quadrature in the loss
    variable, :func:`profile_by_loss`, and the oracle with the hockey-stick in x).
    Symbolically :meth:`doit` integrates the definition: SymPy expands the log-likelihood
    ratio log(p(x)/q(x)) to mu x - mu^2/2, :func:`rejection_threshold` solves the linear
    inequality for the region {x > x*}, and the density gap is integrated over it with the
    antiderivative Phi(x - mu) - e^eps Phi(x), which SymPy checks by differentiation
    (:func:`gaussian_tail_integral`).  So a step about it is decided by the ``doit`` tactic,
    and the spot checks still compare the two computations."""

    nargs = 2
    impl = staticmethod(profile_by_loss_law)
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
        start = sp.expand(start)
        if not deep:
            return sp.Integral(p - sp.exp(eps) * q, (x, start, sp.oo))
        return gaussian_tail_integral(((sp.S.One, mu), (-sp.exp(eps), sp.S.Zero)), x, start)


def gaussian_tail_integral(
    terms: tuple[tuple[sp.Expr, sp.Expr], ...],
    x: sp.Symbol,
    start: sp.Expr,
    integrand: sp.Expr | None = None,
) -> sp.Expr:
    """int_start^oo integrand dx for integrand = sum_i c_i phi(x - s_i) (phi the N(0, 1)
    density; built from ``terms`` when not given), by the fundamental theorem of calculus:
    F(x) = sum_i c_i Phi(x - s_i) is the candidate antiderivative, SymPy checks
    F' = integrand (a failed check falls back to ``sp.integrate``), and the value is
    F(oo) - F(start), where each Phi(x - s_i) tends to Phi(oo) = 1 (s_i finite).  This
    replaces SymPy's integration from scratch (seconds a call) by a differentiation
    (milliseconds)."""
    if integrand is None:
        integrand = sp.Add(*(c * normal_density(x - s) for c, s in terms))
    antiderivative = sp.Add(*(c * Phi(x - s) for c, s in terms))
    at_infinity = [sp.expand(x - s).subs(x, sp.oo) for _, s in terms]
    checked = sp.expand(antiderivative.diff(x) - integrand) == 0
    if not checked or any(v is not sp.oo for v in at_infinity):
        # Without Meijer G the erf antiderivative comes out in 1 s and in closed form;
        # SymPy's default path takes 6 s and returns a far longer expression.
        integral = sp.Integral(integrand, (x, start, sp.oo))
        value = integral.doit(meijerg=False)
        return value if not value.has(sp.Integral) else integral.doit()
    limit = sp.Add(*(c for c, _ in terms))  # F(oo) = sum_i c_i Phi(oo)
    return limit - antiderivative.subs(x, start)


def normal_terms(f: sp.Expr, x: sp.Symbol) -> tuple[tuple[sp.Expr, sp.Expr], ...] | None:
    """``f`` as sum_i c_i phi(x - s_i), phi the N(0, 1) density: each term's exponent must be
    a quadratic in x with leading coefficient -1/2, completed to -(x - s)^2/2 + r (then
    c = (rest of the term) sqrt(2 pi) e^r).  None when a term is not of that form.  Only a
    proposal: :func:`gaussian_tail_integral` checks the antiderivative it gives."""
    out = []
    for term in sp.Add.make_args(sp.expand(f)):
        factors = sp.Mul.make_args(sp.powsimp(term))
        exponent = sp.Add(*(g.exp for g in factors if isinstance(g, sp.exp) and g.has(x)))
        rest = sp.Mul(*(g for g in factors if not (isinstance(g, sp.exp) and g.has(x))))
        poly = sp.expand(exponent)
        if rest.has(x) or not poly.is_polynomial(x) or sp.degree(poly, x) != 2:
            return None
        if poly.coeff(x, 2) != sp.Rational(-1, 2):
            return None
        s = poly.coeff(x, 1)
        r = sp.expand(poly + (x - s) ** 2 / 2)
        if r.has(x):
            return None
        out.append((rest * sp.sqrt(2 * sp.pi) * sp.exp(r), s))
    return tuple(out)


class NormalTail(sp.Integral):
    """An integral int_a^oo of a combination of shifted N(0, 1) densities, evaluated by
    :meth:`doit` through :func:`gaussian_tail_integral` (an antiderivative SymPy checks by
    differentiation) rather than by SymPy's integration from scratch; any other shape falls
    back to the plain integral.  It prints and evaluates numerically as an Integral."""

    def doit(self, **hints: Any) -> sp.Expr:
        if len(self.limits) == 1 and len(self.limits[0]) == 3 and hints.get("deep", True):
            x, a, b = self.limits[0]
            terms = normal_terms(self.function, x) if b is sp.oo else None
            if terms:
                return gaussian_tail_integral(terms, x, a.doit(**hints), self.function)
        return sp.Integral(self.function, *self.limits).doit(**hints)


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
    # a few random points besides the grid: each costs several quadratures
    for _ in range(4):
        out.append(
            {"mu": mpmath.mpf(10) ** rng.uniform(-3, 1.3), "eps": mpmath.mpf(rng.uniform(0, 10))}
        )
    return out


def _oracle(values: Mapping[str, Any]) -> OracleOutcome:
    """The hockey-stick in x by quadrature against the formula, and against the left side's
    own value (the loss law's closed form, ``GaussianDelta.impl``): both to >= 45 digits.

    The quadrature is :func:`hockey_stick_normals` (Balle & Wang 2018, Theorem 8: the
    hockey-stick divergence of N(mu, 1) and N(0, 1)): it finds the threshold x* by
    root-finding on the two log densities, not from the formula's eps/mu + mu/2, and
    integrates the density gap in a form that does not cancel, so a few guard digits do
    (0.14 s a point at 50 digits, against 0.27 s for the plain gap at 70)."""
    mu, eps = values["mu"], values["eps"]
    with mpmath.extradps(20):
        exact = profile_closed_form(mu, eps)
        by_law = profile_by_loss_law(mu, eps)
    by_x = hockey_stick_normals(mu, 1, eps)
    digits = min(_agreement(by_x, exact), _agreement(by_x, by_law))
    ok = digits >= 45
    return OracleOutcome(
        ok,
        f"hockey-stick in x agrees with the formula and with the loss law to "
        f"{mpmath.nstr(digits, 3)} digits",
        {"digits": mpmath.nstr(digits, 4)},
    )


def _agreement(value: Any, reference: Any) -> Any:
    """Correct significant digits of ``value`` against ``reference`` (> 0)."""
    return mpmath.inf if value == reference else -mpmath.log10(abs(value - reference) / reference)


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
        return NormalTail(f, (x, x_star, sp.oo))

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
            # Each point is a 55-65 digit quadrature (0.14 s); it cross-checks the library's
            # computations, which no mutant of the chain touches: half a dozen points.
            points=6,
        ),
        family=FAMILY,
        points=_points,
        search_budget=6,
    )


DERIVATIONS = (gdp_to_dp,)
