"""Group privacy of Gaussian DP (Dong, Roth & Su, arXiv:1905.02383v3, Sec. 2.5; seed 004,
section 4.6): ``gdp-group-privacy``, the left side the literal k-fold iterate of 1 - G_mu,
and the seed's Laplace limit as a table at finite k."""

from __future__ import annotations

from typing import Any

import mpmath
import sympy as sp

from derivations.gaussian_dp import g
from derivations.gdp_algebra.common import FAMILY, alpha_points, dong_roth_su, mu_variable
from derivations.symbols import ALPHA
from numeric_checks.dp.tradeoff import (
    eps_delta_pair,
    gaussian_group,
    group_tradeoff,
    laplace_tradeoff,
    tradeoff_curve,
)
from numeric_checks.mp import phi_inv
from symbolic.derivation import Derivation
from symbolic.domains import Domain, Variable
from symbolic.functions import NumericFunction, Phi, PhiInv
from symbolic.kit import by, chain


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
    mu = mu_variable("mu", r"\mu", top=5)
    k = Variable(
        "k",
        Domain(
            "integer", lower=sp.Integer(2), upper=sp.Integer(20), lower_open=False, upper_open=False
        ),
        "group size",
        "k",
    )
    m, ks, a = mu.symbol, k.symbol, ALPHA.symbol
    g_before = Phi(PhiInv(1 - a) - (ks - 1) * m)  # G_{(k - 1) mu}(alpha)
    proof = (
        chain(GroupTradeoff(m, ks, a))
        .eq(
            GroupStep(m, ks, a),
            by.definition(
                "1 - (1 - f)^{o k} = f(1 - [1 - (1 - f)^{o (k - 1)}]): unfold the last application"
            ),
        )
        .eq(
            Phi(PhiInv(sp.Add(1, -sp.Add(1, -g_before, evaluate=False), evaluate=False)) - m),
            by.hypothesis("induction hypothesis: 1 - (1 - G_mu)^{o (k - 1)} = G_{(k - 1) mu}"),
        )
        .eq(Phi(PhiInv(1 - a) - (ks - 1) * m - m), by.algebra("Phi^{-1}(Phi(t)) = t"))
        .eq(g(ks * m, a), by.algebra("collect the mu's"))
    )
    return proof.derive(
        id="gdp-group-privacy",
        title="Group privacy of Gaussian DP: k mu-GDP for groups of k",
        source=dong_roth_su("Sec. 2.5, group privacy"),
        statement=(
            "A mu-GDP mechanism is 1 - (1 - G_mu)^{o k}-DP for groups of size k, and "
            "1 - (1 - G_mu)^{o k} = G_{k mu}: it is k mu-GDP for groups of k.  Induction on k: "
            "the chain is the step from k - 1 to k."
        ),
        variables=(mu, k, ALPHA),
        family=FAMILY,
        # Each point iterates Phi^{-1} up to 20 times at 50 digits (Newton): a sample, not 500.
        points=alpha_points(
            lambda r: {
                "mu": mpmath.mpf(10) ** r.uniform(-2, 0.7),
                "k": mpmath.mpf(r.randint(2, 20)),
            },
            45,
        ),
        search_budget=20,
        appendix=laplace_limit_table,
    )
