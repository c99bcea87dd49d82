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
    group_tradeoff_grid,
    laplace_tradeoff,
    tradeoff_curve,
)
from numeric_checks.mp import phi_inv
from symbolic.derivation import Derivation
from symbolic.domains import Domain, Variable
from symbolic.functions import NumericFunction, Phi, PhiInv
from symbolic.induction import Induction
from symbolic.kit import by, chain


def _group(mu: Any, k: Any, alpha: Any) -> Any:
    """[1 - (1 - G_mu)^{o k}](alpha) for a whole number k >= 0; k = 0 is the empty iterate
    (the identity), 1 - alpha, so that the unfolding below holds at k = 1 too."""
    if int(k) == 0:
        return 1 - mpmath.mpf(alpha)
    return gaussian_group(mu, int(k), alpha)


def _unfold_once(mu: sp.Expr, k: sp.Expr, alpha: sp.Expr) -> sp.Expr | None:
    """The definition of the iterate, one application: 1 - (1 - f)^{o k} =
    f(1 - [1 - (1 - f)^{o (k - 1)}]) with f = G_mu (Dong, Roth & Su 2022, Sec. 2.5, where
    group privacy iterates 1 - f), as G_mu(1 - GroupTradeoff(mu, k - 1, alpha)); None where
    k is not known to be a whole number >= 1 (then the call stays unevaluated).

    One application only: the k - 1 instance is left unevaluated, so ``doit`` terminates
    for a symbolic k (repeated ``doit`` on a whole number k ends at k = 1, where
    (1 - f)^{o 1} = 1 - f gives f(alpha) itself)."""
    if not (k.is_integer and k.is_positive):
        return None
    if k == 1:
        return g(mu, alpha)
    return g(mu, 1 - GroupTradeoff(mu, k - 1, alpha))


def _doit_args(f: sp.Function, hints: dict[str, Any]) -> list[sp.Expr]:
    return [a.doit(**hints) if hints.get("deep", True) else a for a in f.args]


class GroupTradeoff(NumericFunction):
    """1 - (1 - G_mu)^{o k}(alpha), the literal k-fold iterate.  Numerically the iterate
    itself; symbolically :meth:`doit` unfolds its last application (:func:`_unfold_once`)."""

    nargs = 3
    impl = staticmethod(_group)
    latex_template = r"\left[1 - (1 - G_{{{0}}})^{{\circ {1}}}\right]\left({2}\right)"

    def doit(self, **hints: Any) -> sp.Expr:
        mu, k, alpha = _doit_args(self, hints)
        if k == 0:
            return 1 - alpha  # the empty iterate is the identity
        unfolded = _unfold_once(mu, k, alpha)
        return self.func(mu, k, alpha) if unfolded is None else unfolded


def _iterate(mu: Any, k: Any, alpha: Any) -> Any:
    """G_mu(1 - y) with y = [1 - (1 - G_mu)^{o (k - 1)}](alpha): one more application,
    evaluated as Phi(Phi^{-1}(y) - mu) so that a tiny y keeps its digits."""
    y = _group(mu, int(k) - 1, alpha)
    return mpmath.ncdf(phi_inv(y) - mu) if y > 0 else mpmath.mpf(0)


class GroupStep(NumericFunction):
    """G_mu(1 - [1 - (1 - G_mu)^{o (k - 1)}](alpha)): the iterate with its last application
    written out.  Numerically one application of G_mu to the (k - 1)-fold iterate;
    symbolically :meth:`doit` is that definition, G_mu(1 - GroupTradeoff(mu, k - 1, alpha))."""

    nargs = 3
    impl = staticmethod(_iterate)
    latex_template = (
        r"G_{{{0}}}\left(1 - \left[1 - (1 - G_{{{0}}})^{{\circ ({1} - 1)}}\right]({2})\right)"
    )

    def doit(self, **hints: Any) -> sp.Expr:
        mu, k, alpha = _doit_args(self, hints)
        if not (k.is_integer and k.is_positive):
            return self.func(mu, k, alpha)
        return g(mu, 1 - GroupTradeoff(mu, k - 1, alpha))


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
            limit = [float(laplace_tradeoff(m, a)) for a in grid]
            cells = []
            for k in (1, 2, 5, 20, 100, 400):
                f = tradeoff_curve(eps_delta_pair(m / k, 0))
                # the iterate over the whole grid per step, in doubles (three digits shown)
                got = group_tradeoff_grid(f, k, grid)
                gap = max(abs(x - y) for x, y in zip(got, limit, strict=True))
                cells.append(f"{mpmath.nstr(mpmath.mpf(gap), 3):<11}")
            lines.append(f"  {mu:<6} {''.join(cells)}")
    lines += ["", "The gap falls roughly like 1/k^2: the limit is already close at small k."]
    return "\n".join(lines)


def gdp_group_privacy() -> Derivation:
    mu = mu_variable("mu", r"\mu", top=5)
    # Every group size k >= 2 (k = 1 is mu-GDP itself, the base case): the induction covers
    # them all; the points sample k up to 20, where the iterate's 50 digits still last.
    k = Variable("k", Domain("integer", lower=sp.Integer(2), lower_open=False), "group size", "k")
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
        # The chain is the step k - 1 -> k; the base case k = 1, 1 - (1 - G_mu)(alpha) =
        # G_mu(alpha), is checked by the engine (GroupTradeoff(mu, 1, alpha) unfolds to it).
        induction=Induction("k", base=1),
    )
