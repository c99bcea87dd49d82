"""The algebra of trade-off functions: composition, group privacy, (eps, delta) as a product,
the CLT functionals and the Berry-Esseen bound (Dong, Roth & Su, arXiv:1905.02383v3, Sec. 2.5
and Sec. 3; seed 004, sections 4.6, 5.1-5.3).

Every left side here is computed by an independent numeric construction from
``numeric_checks.dp.tradeoff``: a Neyman-Pearson curve of an explicitly built product of finite
distributions, a quadrature over the privacy loss of a product of Gaussians, or the literal
k-fold iterate of 1 - f.  Steps about them are ``checked``; the algebra after them is proved.
The seed's limit statements (k -> oo, n -> oo) are not finite claims; ``dpderive explain``
prints how close each limit is at finite k or n.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import mpmath
import sympy as sp

from derivations.gaussian_dp import g
from derivations.symbols import ALPHA, DELTA
from numeric_checks.dp.gaussian import tradeoff_gaussian
from numeric_checks.dp.tradeoff import (
    clt_parameters,
    eps_delta_pair,
    eps_power_pair,
    eps_tradeoff_power,
    functionals,
    gaussian_group,
    gaussian_tensor,
    group_tradeoff,
    laplace_tradeoff,
    tensor,
    tradeoff_curve,
)
from numeric_checks.mp import phi_inv
from symbolic.derivation import (
    Claim,
    Derivation,
    Justification,
    JustificationKind,
    Source,
    Step,
)
from symbolic.domains import Domain, Variable
from symbolic.functions import NumericFunction, Phi, PhiInv
from symbolic.relations import Relation

K = JustificationKind
DRS = "Dong, Roth & Su, Gaussian Differential Privacy"
ARXIV = "arXiv:1905.02383v3"
FAMILY = "Gaussian DP: the algebra of trade-off functions"


def _source(locator: str) -> Source:
    return Source(DRS, locator, ARXIV, seed="004")


def _mu_var(name: str, latex: str, top: int = 10) -> Variable:
    return Variable(
        name,
        Domain(lower=sp.Rational(1, 100), upper=sp.Integer(top), lower_open=False, scale="log"),
        "GDP parameter",
        latex,
    )


EPS = Variable(
    "eps",
    Domain(lower=sp.S.Zero, upper=sp.Integer(5), upper_open=False),
    "privacy parameter",
    r"\varepsilon",
)


def f_eps_delta(eps: sp.Expr, delta: sp.Expr, alpha: sp.Expr) -> sp.Expr:
    """f_{eps, delta}(alpha) = max{0, 1 - delta - e^eps alpha, e^-eps (1 - delta - alpha)}."""
    return sp.Max(
        0, 1 - delta - sp.exp(eps) * alpha, sp.exp(-eps) * (1 - delta - alpha), evaluate=False
    )


def _alpha_points(extra: Callable[[random.Random], dict[str, Any]], n: int) -> Any:
    """A point generator: alpha log-uniform in [1e-12, 1/2] or near 1, the rest from ``extra``."""

    def points(rng: random.Random, dps: int) -> list[dict[str, Any]]:
        out = []
        for i in range(n):
            a = mpmath.mpf(10) ** rng.uniform(-12, -0.3)
            out.append({"alpha": a if i % 3 else 1 - a, **extra(rng)})
        return out

    return points


# ---------------------------------------------------------------------------------------
# Composition of Gaussian trade-off functions


class GaussianTensor(NumericFunction):
    """(G_mu1 (x) G_mu2)(alpha), by quadrature over the privacy loss of the product."""

    nargs = 3
    impl = staticmethod(gaussian_tensor)
    latex_template = r"\left(G_{{{0}}} \otimes G_{{{1}}}\right)\left({2}\right)"


def gdp_composition() -> Derivation:
    m1, m2 = _mu_var("mu1", r"\mu_1"), _mu_var("mu2", r"\mu_2")
    a = ALPHA.symbol
    return Derivation(
        id="gdp-composition",
        title="Composition of Gaussian trade-off functions",
        source=_source("Corollary 3.3"),
        statement=(
            "G_mu1 (x) G_mu2 = G_sqrt(mu1^2 + mu2^2); by associativity, the composition of "
            "mu_i-GDP mechanisms is sqrt(mu_1^2 + ... + mu_n^2)-GDP."
        ),
        variables=(m1, m2, ALPHA),
        claim=Claim(
            GaussianTensor(m1.symbol, m2.symbol, a),
            Relation.EQ,
            g(sp.sqrt(m1.symbol**2 + m2.symbol**2), a),
        ),
        steps=(
            Step(
                Relation.EQ,
                g(sp.sqrt(m1.symbol**2 + m2.symbol**2), a),
                Justification(
                    "N(0, I) against N((mu1, mu2), I): the likelihood ratio depends on x only "
                    "through <x, mu>/|mu| ~ N(0, 1) against N(|mu|, 1)",
                    K.LEMMA,
                    lemma="rotation invariance of N(0, I)",
                ),
            ),
        ),
        family=FAMILY,
        points=_alpha_points(
            lambda r: {
                "mu1": mpmath.mpf(10) ** r.uniform(-2, 0.8),
                "mu2": mpmath.mpf(10) ** r.uniform(-2, 0.8),
            },
            6,
        ),
        # About a second a point (three 60-digit quadratures): a handful of points.
        search_budget=2,
    )


# ---------------------------------------------------------------------------------------
# Group privacy


class GroupTradeoff(NumericFunction):
    """1 - (1 - G_mu)^{o k}(alpha), the literal k-fold iterate."""

    nargs = 3
    impl = staticmethod(lambda mu, k, alpha: gaussian_group(mu, int(k), alpha))
    latex_template = r"\left[1 - (1 - G_{{{0}}})^{{\circ {1}}}\right]\left({2}\right)"


def _iterate(mu: Any, k: Any, alpha: Any) -> Any:
    """G_mu(1 - y) with y = [1 - (1 - G_mu)^{o (k - 1)}](alpha): one more application,
    evaluated as Phi(Phi^{-1}(y) - mu) so that a tiny y keeps its digits."""
    y = gaussian_group(mu, int(k) - 1, alpha)
    return mpmath.ncdf(phi_inv(y) - mu) if y > 0 else mpmath.mpf(0)


class GroupStep(NumericFunction):
    nargs = 3
    impl = staticmethod(_iterate)
    latex_template = (
        r"G_{{{0}}}\left(1 - \left[1 - (1 - G_{{{0}}})^{{\circ ({1} - 1)}}\right]({2})\right)"
    )


def laplace_limit_table() -> str:
    """The seed's limit: with eps = mu/k, 1 - (1 - f_{eps,0})^{o k} -> T(Lap(0,1), Lap(mu,1))."""
    lines = [
        "Seed 004, section 4.6: with eps = mu/k, 1 - (1 - f_{eps,0})^{o k} tends to",
        "T(Lap(0, 1), Lap(mu, 1)) as k -> oo.  Largest gap over 401 alphas in [0, 1]:",
        "",
        "  mu     k=1        k=2        k=5        k=20       k=100      k=400",
    ]
    grid = [mpmath.mpf(i) / 400 for i in range(401)]
    with mpmath.workdps(20):
        for mu in ("0.5", "1", "3"):
            m = mpmath.mpf(mu)
            cells = []
            for k in (1, 2, 5, 20, 100, 400):
                f = tradeoff_curve(eps_delta_pair(m / k, 0))
                gap = max(abs(group_tradeoff(f, k, a) - laplace_tradeoff(m, a)) for a in grid)
                cells.append(f"{mpmath.nstr(gap, 3):<11}")
            lines.append(f"  {mu:<6} {''.join(cells)}")
    lines += ["", "The gap falls roughly like 1/k^2: the limit is already close at small k."]
    return "\n".join(lines)


def gdp_group_privacy() -> Derivation:
    mu = _mu_var("mu", r"\mu", top=5)
    k = Variable(
        "k",
        Domain(
            "integer", lower=sp.Integer(2), upper=sp.Integer(20), lower_open=False, upper_open=False
        ),
        "group size",
        "k",
    )
    m, ks, a = mu.symbol, k.symbol, ALPHA.symbol
    inner = Phi(PhiInv(1 - a) - (ks - 1) * m)
    return Derivation(
        id="gdp-group-privacy",
        title="Group privacy of Gaussian DP: k mu-GDP for groups of k",
        source=_source("Sec. 2.5, group privacy"),
        statement=(
            "A mu-GDP mechanism is 1 - (1 - G_mu)^{o k}-DP for groups of size k, and "
            "1 - (1 - G_mu)^{o k} = G_{k mu}: it is k mu-GDP for groups of k.  Induction on k: "
            "the chain is the step from k - 1 to k."
        ),
        variables=(mu, k, ALPHA),
        claim=Claim(GroupTradeoff(m, ks, a), Relation.EQ, g(ks * m, a)),
        steps=(
            Step(
                Relation.EQ,
                GroupStep(m, ks, a),
                Justification(
                    "1 - (1 - f)^{o k} = f(1 - [1 - (1 - f)^{o (k - 1)}]): unfold the last "
                    "application",
                    K.DEFINITION,
                ),
            ),
            Step(
                Relation.EQ,
                Phi(PhiInv(sp.Add(1, -sp.Add(1, -inner, evaluate=False), evaluate=False)) - m),
                Justification(
                    "induction hypothesis: 1 - (1 - G_mu)^{o (k - 1)} = G_{(k - 1) mu}",
                    K.HYPOTHESIS,
                ),
            ),
            Step(
                Relation.EQ,
                Phi(PhiInv(1 - a) - (ks - 1) * m - m),
                Justification("Phi^{-1}(Phi(t)) = t", K.ALGEBRA),
            ),
            Step(Relation.EQ, g(ks * m, a), Justification("collect the mu's", K.ALGEBRA)),
        ),
        family=FAMILY,
        # Each point iterates Phi^{-1} up to 20 times at 50 digits (Newton): a sample, not 500.
        points=_alpha_points(
            lambda r: {
                "mu": mpmath.mpf(10) ** r.uniform(-2, 0.7),
                "k": mpmath.mpf(r.randint(2, 20)),
            },
            45,
        ),
        search_budget=20,
        appendix=laplace_limit_table,
    )


# ---------------------------------------------------------------------------------------
# (eps, delta) trade-offs as products


class EpsDeltaSplit(NumericFunction):
    """(f_{eps,0} (x) f_{0,delta})(alpha), from the product of the two 4-point pairs."""

    nargs = 3
    impl = staticmethod(
        lambda eps, delta, alpha: tradeoff_curve(
            tensor(eps_delta_pair(eps, 0), eps_delta_pair(0, delta))
        )(alpha)
    )
    latex_template = r"\left(f_{{{0}, 0}} \otimes f_{{0, {1}}}\right)\left({2}\right)"


UNIT = Domain(lower=sp.S.Zero, upper=sp.S.One, upper_open=False, scale="log")


def tradeoff_eps_delta_split() -> Derivation:
    e, d, a = EPS.symbol, DELTA.symbol, ALPHA.symbol
    return Derivation(
        id="tradeoff-eps-delta-split",
        title="f_{eps,delta} = f_{eps,0} (x) f_{0,delta}",
        source=_source("Sec. 3 (tensor products); seed 004 section 5.3"),
        statement=(
            "The (eps, delta) trade-off function is the tensor product of the pure eps one and "
            "the pure delta one: f_{eps,delta} = f_{eps,0} (x) f_{0,delta}."
        ),
        variables=(EPS, DELTA, ALPHA),
        claim=Claim(EpsDeltaSplit(e, d, a), Relation.EQ, f_eps_delta(e, d, a)),
        steps=(
            Step(
                Relation.EQ,
                f_eps_delta(e, d, a),
                Justification(
                    "Neyman-Pearson on the product: the outcomes only Q charges are rejected "
                    "first (beta drops by delta at alpha = 0), then the f_{eps,0} curve "
                    "scaled by 1 - delta",
                    K.LEMMA,
                    lemma="Neyman-Pearson lemma",
                ),
            ),
        ),
        family=FAMILY,
    )


class ZeroEpsTensor(NumericFunction):
    """(f_{0,delta1} (x) f_{0,delta2} (x) f_{0,delta3})(alpha), from the product pair."""

    nargs = 4
    impl = staticmethod(
        lambda d1, d2, d3, alpha: tradeoff_curve(
            tensor(eps_delta_pair(0, d1), eps_delta_pair(0, d2), eps_delta_pair(0, d3))
        )(alpha)
    )
    latex_template = (
        r"\left(f_{{0,{0}}} \otimes f_{{0,{1}}} \otimes f_{{0,{2}}}\right)\left({3}\right)"
    )


def tradeoff_zero_eps_composition() -> Derivation:
    ds = [Variable(f"delta{i}", UNIT, f"delta of mechanism {i}", rf"\delta_{i}") for i in (1, 2, 3)]
    d1, d2, d3 = (v.symbol for v in ds)
    a = ALPHA.symbol
    total = sp.Symbol("delta_tot", nonnegative=True)
    return Derivation(
        id="tradeoff-zero-eps-composition",
        title=(
            "f_{0,delta1} (x) f_{0,delta2} (x) f_{0,delta3} = "
            "f_{0, 1-(1-delta1)(1-delta2)(1-delta3)}"
        ),
        source=_source("Sec. 3; seed 004 section 5.3"),
        statement=(
            "Composing pure-delta trade-off functions multiplies the 'no leak' "
            "probabilities: f_{0,delta_1} (x) ... (x) f_{0,delta_n} = "
            "f_{0, 1 - (1 - delta_1)...(1 - delta_n)} (written for n = 3)."
        ),
        variables=(*ds, ALPHA),
        defs=((total, 1 - (1 - d1) * (1 - d2) * (1 - d3)),),
        claim=Claim(ZeroEpsTensor(d1, d2, d3, a), Relation.EQ, f_eps_delta(0, total, a)),
        steps=(
            Step(
                Relation.EQ,
                sp.Max(0, 1 - total - a, evaluate=False),
                Justification(
                    "the product pair leaks (Q alone charges it) unless every coordinate is "
                    "in its middle outcome, of probability (1 - delta1)(1 - delta2)(1 - delta3) "
                    "under both P and Q",
                    K.LEMMA,
                    lemma="Neyman-Pearson lemma",
                ),
            ),
            Step(
                Relation.EQ,
                f_eps_delta(0, total, a),
                Justification("f_{0,delta}(alpha) = max{0, 1 - delta - alpha}", K.DEFINITION),
            ),
        ),
        family=FAMILY,
    )


# ---------------------------------------------------------------------------------------
# The CLT functionals of f_{eps,0}


def _functional(name: str) -> Callable[[Any], Any]:
    return lambda eps: getattr(functionals(tradeoff_curve(eps_delta_pair(eps, 0))), name)


class KlFunctional(NumericFunction):
    nargs = 1
    impl = staticmethod(_functional("kl"))
    latex_template = r"\mathrm{{kl}}\left(f_{{{0}, 0}}\right)"


class Kappa2Functional(NumericFunction):
    nargs = 1
    impl = staticmethod(_functional("kappa2"))
    latex_template = r"\kappa_2\left(f_{{{0}, 0}}\right)"


class Kappa3Functional(NumericFunction):
    nargs = 1
    impl = staticmethod(_functional("kappa3"))
    latex_template = r"\kappa_3\left(f_{{{0}, 0}}\right)"


class Kappa3BarFunctional(NumericFunction):
    nargs = 1
    impl = staticmethod(_functional("kappa3_bar"))
    latex_template = r"\bar\kappa_3\left(f_{{{0}, 0}}\right)"


def _widths(e: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """Widths of the two linear pieces of f_{eps,0}: slope -e^eps on [0, w1], -e^-eps on
    [w1, 1]."""
    return 1 / (1 + sp.exp(e)), sp.exp(e) / (1 + sp.exp(e))


def _pieces(e: sp.Expr, h: Callable[[sp.Expr], sp.Expr]) -> sp.Expr:
    """int_0^1 h(log|f'(x)|) dx for f = f_{eps,0}, as two integrals over its pieces."""
    x = sp.Symbol("x", real=True)
    w1, _ = _widths(e)
    return sp.Add(sp.Integral(h(e), (x, 0, w1)), sp.Integral(h(-e), (x, w1, 1)), evaluate=False)


def _functional_derivation(
    did: str,
    title: str,
    lhs: Callable[[sp.Expr], sp.Expr],
    h: Callable[[sp.Expr], sp.Expr],
    sign: int,
    closed: Callable[[sp.Expr, sp.Expr, sp.Expr], sp.Expr],
    definition: str,
) -> Derivation:
    e = EPS.symbol
    w1, w2 = _widths(e)
    integral = _pieces(e, h)
    return Derivation(
        id=did,
        title=title,
        source=_source("Sec. 3, the functionals of the central limit theorem"),
        statement=f"For f = f_{{eps,0}}: {title}; {definition}.",
        variables=(EPS,),
        claim=Claim(lhs(e), Relation.EQ, closed(e, w1, w2)),
        steps=(
            Step(
                Relation.EQ,
                integral if sign > 0 else -integral,
                Justification(
                    "f_{eps,0} has slope -e^eps on [0, 1/(1+e^eps)] and -e^-eps on the rest",
                    K.DEFINITION,
                ),
            ),
            Step(Relation.EQ, closed(e, w1, w2), Justification("integrate", K.ALGEBRA)),
        ),
        family=FAMILY,
    )


def eps_tradeoff_kl() -> Derivation:
    return _functional_derivation(
        "eps-tradeoff-kl",
        "kl(f_{eps,0}) = eps (e^eps - 1)/(e^eps + 1)",
        KlFunctional,
        lambda t: t,
        -1,
        lambda e, w1, w2: e * (sp.exp(e) - 1) / (sp.exp(e) + 1),
        "kl(f) = -int_0^1 log|f'(x)| dx",
    )


def eps_tradeoff_kappa2() -> Derivation:
    return _functional_derivation(
        "eps-tradeoff-kappa2",
        "kappa_2(f_{eps,0}) = eps^2",
        Kappa2Functional,
        lambda t: t**2,
        1,
        lambda e, w1, w2: e**2,
        "kappa_2(f) = int_0^1 log^2|f'(x)| dx",
    )


def eps_tradeoff_kappa3() -> Derivation:
    return _functional_derivation(
        "eps-tradeoff-kappa3",
        "kappa_3(f_{eps,0}) = eps^3",
        Kappa3Functional,
        lambda t: sp.Abs(t) ** 3,
        1,
        lambda e, w1, w2: e**3,
        "kappa_3(f) = int_0^1 |log|f'(x)||^3 dx",
    )


def _kl_closed(e: sp.Expr) -> sp.Expr:
    return e * (sp.exp(e) - 1) / (sp.exp(e) + 1)


def eps_tradeoff_kappa3_bar() -> Derivation:
    e = EPS.symbol
    return _functional_derivation(
        "eps-tradeoff-kappa3-bar",
        "bar kappa_3(f_{eps,0}) = 8 eps^3 e^eps (1 + e^(2 eps))/(1 + e^eps)^4",
        Kappa3BarFunctional,
        lambda t: sp.Abs(t + _kl_closed(e)) ** 3,
        1,
        lambda e, w1, w2: 8 * e**3 * sp.exp(e) * (1 + sp.exp(2 * e)) / (1 + sp.exp(e)) ** 4,
        "bar kappa_3(f) = int_0^1 |log|f'(x)| + kl(f)|^3 dx",
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


def gdp_clt_berry_esseen(gamma_factor: sp.Expr = SEED_GAMMA_FACTOR) -> Derivation:
    """``gamma_factor`` is the seed's 0.56 (a mutation test changes it)."""
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
    kl = _kl_closed(e)
    k3bar = 8 * e**3 * sp.exp(e) * (1 + sp.exp(2 * e)) / (1 + sp.exp(e)) ** 4
    var = ns * (e**2 - kl**2)
    lower = Phi(PhiInv(1 - (a + gamma)) - mu) - gamma
    upper = Phi(PhiInv(1 - (a - gamma)) - mu) + gamma
    return Derivation(
        id="gdp-clt-berry-esseen",
        title="Berry-Esseen bound for the n-fold composition of f_{eps,0}",
        source=_source("Sec. 3, Berry-Esseen central limit theorem (Theorem 3.4 there)"),
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
            (mu, 2 * ns * kl / sp.sqrt(var)),
            (gamma, gamma_factor * ns * k3bar / var ** sp.Rational(3, 2)),
        ),
        claim=Claim(lower, Relation.LE, upper),
        steps=(
            Step(
                Relation.LE,
                EpsTensorPower(e, ns, a),
                Justification("Berry-Esseen, lower bound", K.LEMMA, lemma="Berry-Esseen"),
            ),
            Step(
                Relation.LE,
                upper,
                Justification("Berry-Esseen, upper bound", K.LEMMA, lemma="Berry-Esseen"),
            ),
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
    gdp_composition,
    gdp_group_privacy,
    tradeoff_eps_delta_split,
    tradeoff_zero_eps_composition,
    eps_tradeoff_kl,
    eps_tradeoff_kappa2,
    eps_tradeoff_kappa3,
    eps_tradeoff_kappa3_bar,
    gdp_clt_berry_esseen,
)
