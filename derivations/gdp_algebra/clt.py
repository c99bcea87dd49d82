"""The central limit theorem of trade-off functions for f_{eps,0} (Dong, Roth & Su,
arXiv:1905.02383v3, Sec. 3; seed 004, sections 5.1-5.3).

* ``eps-tradeoff-kl``, ``-kappa2``, ``-kappa3``, ``-kappa3-bar``: the functionals of f_{eps,0}
  in closed form, the left sides summed over the exact Neyman-Pearson curve;
* ``gdp-clt-berry-esseen``: the Berry-Esseen bound for the n-fold composition, the left side
  the exact binomial curve of f_{eps,0}^{(x) n}; the seed's limits (n -> oo) as a table at
  finite n.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import mpmath
import sympy as sp

from derivations.gdp_algebra.common import EPS, FAMILY, dong_roth_su
from derivations.sources import DONG_ROTH_SU
from derivations.symbols import ALPHA
from numeric_checks.dp.gaussian import tradeoff_gaussian
from numeric_checks.dp.tradeoff import (
    clt_parameters,
    eps_delta_pair,
    eps_power_pair,
    eps_tradeoff_power,
    functionals,
    tradeoff_curve,
)
from symbolic.derivation import Derivation
from symbolic.domains import Domain, Variable
from symbolic.functions import NumericFunction, Phi, PhiInv
from symbolic.kit import by, chain


def _functional(name: str) -> Callable[[Any], Any]:
    return lambda eps: getattr(functionals(tradeoff_curve(eps_delta_pair(eps, 0))), name)


def _pair_atoms(e: sp.Expr) -> list[tuple[sp.Expr, sp.Expr]]:
    """The atoms (p_i, q_i) with p_i > 0 of the pair whose trade-off function is f_{eps,0}:
    P = (e^eps/(1+e^eps), 1/(1+e^eps)), Q the reverse (Dong, Roth & Su, Sec. 2.3; seed 004,
    section 4.1)."""
    hi, lo = 1 / (1 + sp.exp(-e)), 1 / (1 + sp.exp(e))
    return [(hi, lo), (lo, hi)]


class _AtomFunctional(NumericFunction):
    """A functional int_0^1 h(log|f'(x)|) dx of f = T(P, Q) = f_{eps,0}.  Numerically from
    the Neyman-Pearson curve (``impl``).  Symbolically (:meth:`doit`) as the finite sum
    over the atoms: the segment of the atom (p_i, q_i) has width p_i and |f'| = q_i/p_i, so
    the integral is sum_i p_i h(log(q_i/p_i)) (Dong, Roth & Su, Sec. 3), whatever the
    order of the segments."""

    nargs = 1

    @classmethod
    def integrand(cls, log_slope: sp.Expr, kl: sp.Expr) -> sp.Expr:
        raise NotImplementedError

    @staticmethod
    def atom_sum(e: sp.Expr, h: Callable[[sp.Expr], sp.Expr]) -> sp.Expr:
        # cancel() reduces each likelihood ratio to a power of e^eps, so that the sums the
        # tactics meet are in eps, not in logs of fractions of exponentials.
        return sp.Add(*(p * h(sp.log(sp.cancel(q / p))) for p, q in _pair_atoms(e)))

    def doit(self, **hints: Any) -> sp.Expr:
        (e,) = (a.doit(**hints) if hints.get("deep", True) else a for a in self.args)
        kl = -self.atom_sum(e, lambda t: t)
        return self.atom_sum(e, lambda t: type(self).integrand(t, kl))


class KlFunctional(_AtomFunctional):
    impl = staticmethod(_functional("kl"))
    latex_template = r"\mathrm{{kl}}\left(f_{{{0}, 0}}\right)"

    @classmethod
    def integrand(cls, log_slope: sp.Expr, kl: sp.Expr) -> sp.Expr:
        return -log_slope


class Kappa2Functional(_AtomFunctional):
    impl = staticmethod(_functional("kappa2"))
    latex_template = r"\kappa_2\left(f_{{{0}, 0}}\right)"

    @classmethod
    def integrand(cls, log_slope: sp.Expr, kl: sp.Expr) -> sp.Expr:
        return log_slope**2


class Kappa3Functional(_AtomFunctional):
    impl = staticmethod(_functional("kappa3"))
    latex_template = r"\kappa_3\left(f_{{{0}, 0}}\right)"

    @classmethod
    def integrand(cls, log_slope: sp.Expr, kl: sp.Expr) -> sp.Expr:
        return sp.Abs(log_slope) ** 3


class Kappa3BarFunctional(_AtomFunctional):
    impl = staticmethod(_functional("kappa3_bar"))
    latex_template = r"\bar\kappa_3\left(f_{{{0}, 0}}\right)"

    @classmethod
    def integrand(cls, log_slope: sp.Expr, kl: sp.Expr) -> sp.Expr:
        return sp.Abs(log_slope + kl) ** 3


def _pieces(e: sp.Expr, h: Callable[[sp.Expr], sp.Expr]) -> sp.Expr:
    """int_0^1 h(log|f'(x)|) dx for f = f_{eps,0}, as two integrals over its pieces: slope
    -e^eps on [0, 1/(1+e^eps)], -e^-eps on the rest."""
    x = sp.Symbol("x", real=True)
    w1 = 1 / (1 + sp.exp(e))
    return sp.Add(sp.Integral(h(e), (x, 0, w1)), sp.Integral(h(-e), (x, w1, 1)), evaluate=False)


_PIECEWISE = by.definition("f_{eps,0} has slope -e^eps on [0, 1/(1+e^eps)] and -e^-eps on the rest")


def _functional_fields(did: str, title: str, definition: str) -> dict[str, Any]:
    """The fields of the derivation of one functional of f_{eps,0} in closed form."""
    return {
        "id": did,
        "title": title,
        "source": dong_roth_su("Sec. 3, the functionals of the central limit theorem"),
        "statement": f"For f = f_{{eps,0}}: {title}; {definition}.",
        "variables": (EPS,),
        "family": FAMILY,
    }


def _kl_closed(e: sp.Expr) -> sp.Expr:
    return e * (sp.exp(e) - 1) / (sp.exp(e) + 1)


def _k3bar_closed(e: sp.Expr) -> sp.Expr:
    return 8 * e**3 * sp.exp(e) * (1 + sp.exp(2 * e)) / (1 + sp.exp(e)) ** 4


def eps_tradeoff_kl() -> Derivation:
    e = EPS.symbol
    proof = (
        chain(KlFunctional(e))
        .eq(-_pieces(e, lambda t: t), _PIECEWISE)
        .eq(_kl_closed(e), by.algebra("integrate"))
    )
    return proof.derive(
        **_functional_fields(
            "eps-tradeoff-kl",
            "kl(f_{eps,0}) = eps (e^eps - 1)/(e^eps + 1)",
            "kl(f) = -int_0^1 log|f'(x)| dx",
        )
    )


def eps_tradeoff_kappa2() -> Derivation:
    e = EPS.symbol
    proof = (
        chain(Kappa2Functional(e))
        .eq(_pieces(e, lambda t: t**2), _PIECEWISE)
        .eq(e**2, by.algebra("integrate"))
    )
    return proof.derive(
        **_functional_fields(
            "eps-tradeoff-kappa2",
            "kappa_2(f_{eps,0}) = eps^2",
            "kappa_2(f) = int_0^1 log^2|f'(x)| dx",
        )
    )


def eps_tradeoff_kappa3() -> Derivation:
    e = EPS.symbol
    proof = (
        chain(Kappa3Functional(e))
        .eq(_pieces(e, lambda t: sp.Abs(t) ** 3), _PIECEWISE)
        .eq(e**3, by.algebra("integrate"))
    )
    return proof.derive(
        **_functional_fields(
            "eps-tradeoff-kappa3",
            "kappa_3(f_{eps,0}) = eps^3",
            "kappa_3(f) = int_0^1 |log|f'(x)||^3 dx",
        )
    )


def eps_tradeoff_kappa3_bar() -> Derivation:
    e = EPS.symbol
    proof = (
        chain(Kappa3BarFunctional(e))
        .eq(_pieces(e, lambda t: sp.Abs(t + _kl_closed(e)) ** 3), _PIECEWISE)
        .eq(_k3bar_closed(e), by.algebra("integrate"))
    )
    return proof.derive(
        **_functional_fields(
            "eps-tradeoff-kappa3-bar",
            "bar kappa_3(f_{eps,0}) = 8 eps^3 e^eps (1 + e^(2 eps))/(1 + e^eps)^4",
            "bar kappa_3(f) = int_0^1 |log|f'(x)| + kl(f)|^3 dx",
        )
    )


# ---------------------------------------------------------------------------------------
# Berry-Esseen for n-fold f_{eps,0}


class EpsTensorPower(NumericFunction):
    """f_{eps,0}^{(x) n}(alpha), exactly (binomial Neyman-Pearson curve)."""

    nargs = 3
    impl = staticmethod(lambda eps, n, alpha: eps_tradeoff_power(eps, int(n), alpha))
    latex_template = r"f_{{{0}, 0}}^{{\otimes {1}}}\left({2}\right)"


def clt_table() -> str:
    """How close f_{eps,0}^{(x) n} with eps = mu/sqrt(n) is to its limit G_mu, against the
    Berry-Esseen gamma; and the (eps, delta) limit G_mu (x) f_{0, 1 - e^-delta}."""
    grid = [mpmath.mpf(i) / 1000 for i in range(1001)]
    lines = [
        "Seed 004, section 5.2/5.3 limits at finite n (mu = 1, largest gap over 1001 alphas):",
        "",
        "  n       eps=1/sqrt(n)  sup|f^n - G_1|   gamma (Berry-Esseen)   "
        "sup|f_{eps,delta/n}^n - G_1 (x) f_{0,1-e^-delta}| (delta = 0.1)",
    ]
    with mpmath.workdps(30):
        mu, delta = mpmath.mpf(1), mpmath.mpf("0.1")
        leak = 1 - mpmath.exp(-delta)
        for n in (1, 4, 16, 64, 256, 1024):
            eps = mu / mpmath.sqrt(n)
            curve = tradeoff_curve(eps_power_pair(eps, n))
            gap = max(abs(curve(a) - tradeoff_gaussian(mu, a)) for a in grid)
            parts = [functionals(tradeoff_curve(eps_delta_pair(eps, 0)))] * n
            _, gamma = clt_parameters(parts)
            # f_{eps, d}^n = f_{eps,0}^n (x) f_{0, 1 - (1 - d)^n}; against G_mu (x) f_{0,leak}
            kept = (1 - delta / n) ** n

            def approx(a: Any, kept: Any = kept, curve: Any = curve) -> Any:
                return kept * curve(a / kept) if a <= kept else mpmath.mpf(0)

            def limit(a: Any) -> Any:
                return (1 - leak) * tradeoff_gaussian(mu, a / (1 - leak)) if a <= 1 - leak else 0

            gap2 = max(abs(approx(a) - limit(a)) for a in grid)
            lines.append(
                f"  {n:<7} {mpmath.nstr(eps, 4):<14} {mpmath.nstr(gap, 4):<16} "
                f"{mpmath.nstr(gamma, 4):<22} {mpmath.nstr(gap2, 4)}"
            )
    lines += [
        "",
        "The gap falls like 1/n, faster than the Berry-Esseen gamma (1/sqrt(n)).  The last column",
        "uses f_{eps,delta}^n = f_{eps,0}^n (x) f_{0,1-(1-delta)^n} (tradeoff-eps-delta-split,",
        "tradeoff-zero-eps-composition) and (f (x) f_{0,d})(alpha) = (1-d) f(alpha/(1-d)).",
    ]
    return "\n".join(lines)


SEED_GAMMA_FACTOR = sp.Rational(56, 100)
"""The Berry-Esseen constant 0.56 of gamma, as Theorem 3.4 of Dong, Roth & Su states it."""


def gdp_clt_berry_esseen() -> Derivation:
    """Theorem 3.4 of Dong, Roth & Su for n copies of f_{eps,0}, against the exact curve."""
    n = Variable(
        "n",
        Domain(
            "integer",
            lower=sp.Integer(1),
            upper=sp.Integer(400),
            lower_open=False,
            upper_open=False,
        ),
        "number of composed mechanisms",
        "n",
    )
    eps = Variable(
        "eps",
        Domain(lower=sp.Rational(1, 100), upper=sp.Integer(2), lower_open=False, scale="log"),
        "eps of each mechanism",
        r"\varepsilon",
    )
    e, ns, a = eps.symbol, n.symbol, ALPHA.symbol
    mu = sp.Symbol("mu_n", positive=True)
    gamma = sp.Symbol("gamma_n", positive=True)
    var = ns * (e**2 - _kl_closed(e) ** 2)
    berry_esseen = DONG_ROTH_SU.cite("Theorem 3.4 (Berry-Esseen)")
    proof = (
        chain(Phi(PhiInv(1 - (a + gamma)) - mu) - gamma)
        .le(EpsTensorPower(e, ns, a), by.cite(berry_esseen, "Berry-Esseen, lower bound"))
        .le(
            Phi(PhiInv(1 - (a - gamma)) - mu) + gamma,
            by.cite(berry_esseen, "Berry-Esseen, upper bound"),
        )
    )
    return proof.derive(
        id="gdp-clt-berry-esseen",
        instance="for f_i = f_{eps,0} (every i) only",
        title="Berry-Esseen bound for the n-fold composition of f_{eps,0}",
        source=dong_roth_su("Sec. 3, Berry-Esseen central limit theorem (Theorem 3.4 there)"),
        statement=(
            "For f_1 = ... = f_n = f_{eps,0}, with mu = 2||kl||_1/sqrt(||kappa_2||_1 - "
            "||kl||_2^2) and gamma = 0.56 ||bar kappa_3||_1/(||kappa_2||_1 - ||kl||_2^2)^{3/2}: "
            "if gamma < 1/2 then G_mu(alpha + gamma) - gamma <= f_1 (x) ... (x) f_n(alpha) <= "
            "G_mu(alpha - gamma) + gamma for every alpha in [gamma, 1 - gamma]."
        ),
        variables=(eps, n, ALPHA),
        hypotheses=(
            sp.StrictLessThan(gamma, sp.Rational(1, 2)),
            sp.LessThan(gamma, a),
            sp.LessThan(a, 1 - gamma),
        ),
        defs=(
            (mu, 2 * ns * _kl_closed(e) / sp.sqrt(var)),
            (gamma, SEED_GAMMA_FACTOR * ns * _k3bar_closed(e) / var ** sp.Rational(3, 2)),
        ),
        family=FAMILY,
        points=_clt_points,
        search_budget=20,
        appendix=clt_table,
    )


def _clt_points(rng: random.Random, dps: int) -> list[dict[str, Any]]:
    out = []
    for _ in range(60):
        n = rng.choice((1, 2, 3, 5, 8, 13, 30, 60, 100, 200, 400))
        out.append(
            {
                "eps": mpmath.mpf(10) ** rng.uniform(-2, 0.3),
                "n": mpmath.mpf(n),
                "alpha": mpmath.mpf(rng.uniform(0, 1)),
            }
        )
    return out


DERIVATIONS = (
    eps_tradeoff_kl,
    eps_tradeoff_kappa2,
    eps_tradeoff_kappa3,
    eps_tradeoff_kappa3_bar,
    gdp_clt_berry_esseen,
)
