"""Composition of Gaussian trade-off functions, for every number k of them (Dong, Roth & Su,
arXiv:1905.02383v3, Corollary 3.3; seed 004, section 4.5):
``G_mu_1 (x) ... (x) G_mu_k = G_sqrt(mu_1^2 + ... + mu_k^2)``.

The proof is the rotation argument, for every k at once (the family ``mu[1..k]`` with a
symbolic length):

1. by the definitions of G_mu (the trade-off function of N(0, 1) against N(mu, 1)) and of
   the tensor product (the trade-off function of the product pairs, Dong, Roth & Su,
   Definition 3.1), the left side is T(N(0, I_k), N(mu, I_k)) (:class:`NormalShiftTradeoff`);
   Neyman-Pearson: the log likelihood ratio of N(mu, I_k) to N(0, I_k) at x is
   sum_i (mu_i x_i - mu_i^2/2), an increasing function of <mu, x>, so the most powerful
   tests are the half-spaces <mu, x> > c (:class:`HalfSpaceTest`).  The ratio is computed
   by SymPy from the normal densities, coordinate by coordinate, not assumed;
2. rotation invariance: <mu, X> is N(0, |mu|^2) under P and N(|mu|^2, |mu|^2) under Q, so
   the test of size alpha has c = |mu| Phi^{-1}(1 - alpha) and type II error
   Phi(Phi^{-1}(1 - alpha) - |mu|), with |mu|^2 = sum_i mu_i^2: G_|mu|.

Each of the three functions writes its part out symbolically in ``doit`` (which the tactics'
doit rung decides) and shares one numeric construction, :func:`gaussian_tensor_k`, which
integrates the last coordinate numerically and never uses the closed form: the spot checks of
the last step and of the conclusion at k = 1, 2, 3, ... compare that construction with
G_sqrt(sum mu_i^2).  At k = 2 this is the two-fold step G_a (x) G_b = G_sqrt(a^2 + b^2)
(the 2-D normal shift rotated onto one axis); the squares add because the variance of
<mu, X> is the sum of the squared coefficients.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import mpmath
import sympy as sp

from derivations.gaussian_dp import g, normal_density
from derivations.gdp_algebra.common import FAMILY, dong_roth_su
from derivations.symbols import ALPHA
from numeric_checks.dp.tradeoff import gaussian_tensor_k
from symbolic.derivation import Derivation
from symbolic.domains import Domain, Variable, parse_domain
from symbolic.families import Family, index_symbol
from symbolic.functions import NumericFunction, Phi, PhiInv
from symbolic.kit import by, chain

__all__ = [
    "MU_I",
    "GaussianTensorK",
    "HalfSpaceTest",
    "K",
    "NormalShiftTradeoff",
    "gdp_composition",
]

K = Variable("k", parse_domain("Z>=1"), "number of composed mechanisms", "k")
IX = index_symbol("i")
MU_I = Variable(
    "mu",
    Domain(lower=sp.Rational(1, 100), upper=sp.Integer(10), lower_open=False, scale="log"),
    "GDP parameter of mechanism i",
    r"\mu_{i}",
    family=Family("i", 1, K.symbol),
)


class _OverShifts(NumericFunction):
    """A quantity of the pair N(0, I_k) against N(mu, I_k): arguments ``(mu, k, alpha)``
    over a family ``mu`` of length ``k``, or at a numeric ``k`` the elements
    ``(mu_1, ..., mu_k, alpha)`` (which :meth:`eval` writes out, as an instance needs)."""

    impl = staticmethod(gaussian_tensor_k)

    @classmethod
    def eval(cls, *args: sp.Expr) -> sp.Expr | None:
        if _over_family(args) and sp.sympify(args[1]).is_Integer:
            base, k, alpha = args
            return cls(*[base[j] for j in range(1, int(k) + 1)], alpha)
        return None

    def _args_done(self, hints: Mapping[str, Any]) -> list[sp.Expr]:
        return [a.doit(**hints) if hints.get("deep", True) else a for a in self.args]

    def _latex(self, printer: Any) -> str:
        alpha = printer._print(self.args[-1])
        if _over_family(self.args):
            k = printer._print(self.args[1])
            return self.family_latex(k, alpha)
        return self.elements_latex([printer._print(m) for m in self.args[:-1]], alpha)

    def family_latex(self, k: str, alpha: str) -> str:
        raise NotImplementedError

    def elements_latex(self, mus: list[str], alpha: str) -> str:
        raise NotImplementedError


def _over_family(args: Sequence[Any]) -> bool:
    return len(args) == 3 and isinstance(args[0], sp.IndexedBase)


def _means(args: Sequence[sp.Expr]) -> tuple[sp.Expr, sp.Expr | None, sp.Expr]:
    """``(mean_i, k, alpha)`` in the family form (mean_i the element at the index ``i``),
    or ``(tuple of means, None, alpha)`` in the element form."""
    if _over_family(args):
        base, k, alpha = args
        return base[IX], k, alpha
    return sp.Tuple(*args[:-1]), None, args[-1]


def _total(term: Any, means: sp.Expr, k: sp.Expr | None) -> sp.Expr:
    """sum over the coordinates of ``term(mean)``: a Sum of length k, or written out."""
    if k is None:
        return sp.Add(*[term(m) for m in means])
    return sp.Sum(term(means), (IX, 1, k))


class GaussianTensorK(_OverShifts):
    """(G_mu_1 (x) ... (x) G_mu_k)(alpha).  ``doit``: by the definitions of G_mu and of the
    tensor product it is the trade-off function of the product pairs,
    :class:`NormalShiftTradeoff` (Dong, Roth & Su 2022, Definition 3.1)."""

    def doit(self, **hints: Any) -> sp.Expr:
        return NormalShiftTradeoff(*self._args_done(hints)).doit(**hints)

    def family_latex(self, k: str, alpha: str) -> str:
        factors = rf"G_{{\mu_{{1}}}} \otimes \dots \otimes G_{{\mu_{{{k}}}}}"
        return rf"\left({factors}\right)\left({alpha}\right)"

    def elements_latex(self, mus: list[str], alpha: str) -> str:
        factors = r" \otimes ".join(f"G_{{{m}}}" for m in mus)
        return rf"\left({factors}\right)\left({alpha}\right)"


def log_likelihood_ratio(mean: sp.Expr, x: sp.Symbol) -> sp.Expr:
    """log of the N(mean, 1) density over the N(0, 1) density at x, by SymPy from the
    densities (expanded: mean x - mean^2/2)."""
    ratio = sp.powsimp(normal_density(x - mean) / normal_density(x))
    return sp.expand(sp.expand_log(sp.log(ratio), force=True))


def half_space_direction(mean: sp.Expr) -> sp.Expr | None:
    """The coefficient of x_i in the log likelihood ratio of one coordinate, when that
    log ratio is affine in x_i (so the product's log ratio is <w, x> + const and, by
    Neyman-Pearson, the most powerful tests are the half-spaces <w, x> > c); else None."""
    x = sp.Dummy("x", real=True)
    llr = log_likelihood_ratio(mean, x)
    slope = sp.diff(llr, x)
    if slope.has(x) or sp.diff(llr, x, 2) != 0:
        return None
    return sp.simplify(slope)


class NormalShiftTradeoff(_OverShifts):
    """T(N(0, I_k), N(mu, I_k))(alpha).  ``doit`` (Neyman-Pearson): the log likelihood
    ratio, computed per coordinate, is <mu, x> - |mu|^2/2, increasing in <mu, x>, so the
    curve is that of the half-space tests :class:`HalfSpaceTest`; the call stays as it is
    when the computed direction is not mu."""

    def doit(self, **hints: Any) -> sp.Expr:
        args = self._args_done(hints)
        means, _, _ = _means(args)
        items = [means] if isinstance(means, sp.Indexed) else list(means)
        for m in items:
            w = half_space_direction(m)
            if w is None or sp.simplify(w - m) != 0:
                return self.func(*args)
        return HalfSpaceTest(*args).doit(**hints)

    def family_latex(self, k: str, alpha: str) -> str:
        return (
            rf"T\left(\mathcal{{N}}(0, I_{{{k}}}), \mathcal{{N}}(\mu, I_{{{k}}})\right)"
            rf"\left({alpha}\right)"
        )

    def elements_latex(self, mus: list[str], alpha: str) -> str:
        k = len(mus)
        mean = ", ".join(mus)
        return (
            rf"T\left(\mathcal{{N}}(0, I_{{{k}}}), \mathcal{{N}}(({mean}), I_{{{k}}})\right)"
            rf"\left({alpha}\right)"
        )


class HalfSpaceTest(_OverShifts):
    """The type II error under N(mu, I_k) of the test that rejects when <mu, X> > c, c
    chosen so that its type I error under N(0, I_k) is alpha.  ``doit`` (rotation
    invariance: <w, X> ~ N(<w, v>, |w|^2) for X ~ N(v, I_k)) writes it in closed form:
    c = mean_P + sd Phi^{-1}(1 - alpha), beta = Phi((c - mean_Q)/sd)."""

    def doit(self, **hints: Any) -> sp.Expr:
        args = self._args_done(hints)
        means, k, alpha = _means(args)
        variance = _total(lambda m: m**2, means, k)  # |w|^2 with w = mu
        mean_p = sp.S.Zero  # <w, 0>
        mean_q = _total(lambda m: m * m, means, k)  # <w, mu>
        # The algebra on placeholders, so that the sums stay whole: |mu|^2/|mu| is |mu|.
        sd, at_q = sp.Dummy("sd", positive=True), sp.Dummy("mean_q")
        threshold = mean_p + sd * PhiInv(1 - alpha)
        z = sp.expand((threshold - at_q) / sd)
        return Phi(z.xreplace({sd: sp.sqrt(variance), at_q: mean_q}))

    def family_latex(self, k: str, alpha: str) -> str:
        return (
            rf"\Pr_{{X \sim \mathcal{{N}}(\mu, I_{{{k}}})}}\left[\langle \mu, X \rangle "
            rf"\le c_{{{alpha}}}\right]"
        )

    def elements_latex(self, mus: list[str], alpha: str) -> str:
        mean = ", ".join(mus)
        return (
            rf"\Pr_{{X \sim \mathcal{{N}}(({mean}), I)}}\left[\langle ({mean}), X \rangle "
            rf"\le c_{{{alpha}}}\right]"
        )


def instance_points(rng: Any, dps: int, lengths: Mapping[str, int]) -> list[dict[str, Any]]:
    """mu_1..mu_k log-uniform in [1e-2, 10] (some equal, some one large among small ones),
    alpha log-uniform in [1e-12, 1/2] or near 1."""
    k = int(lengths["k"])
    out = []
    for j in range(POINTS_PER_INSTANCE):
        point: dict[str, Any] = {}
        same = mpmath.mpf(10) ** rng.uniform(-2, 0.8)
        for i in range(1, k + 1):
            mu = mpmath.mpf(10) ** rng.uniform(-2, 0.8)
            if j % 4 == 1:
                mu = same
            elif j % 4 == 2:
                mu = mpmath.mpf(5) if i == k else mpmath.mpf(10) ** rng.uniform(-2, -1)
            point[f"mu_{i}"] = mu
        a = mpmath.mpf(10) ** rng.uniform(-12, -0.3)
        point["alpha"] = a if j % 3 else 1 - a
        out.append(point)
    return out


POINTS_PER_INSTANCE = 3
"""Each point costs one numerical integral at 50 digits (about 60 ms): a few per length."""


def gdp_composition() -> Derivation:
    """Corollary 3.3 for every k: G_mu_1 (x) ... (x) G_mu_k = G_sqrt(mu_1^2 + ... + mu_k^2)."""
    a, k, mu = ALPHA.symbol, K.symbol, MU_I.base
    squares = sp.Sum(mu[IX] ** 2, (IX, 1, k))
    proof = (
        chain(GaussianTensorK(mu, k, a))
        .eq(
            HalfSpaceTest(mu, k, a),
            by.foundation(
                "neyman-pearson",
                "by the definitions, G_mu_1 (x) ... (x) G_mu_k is the trade-off function of "
                "N(0, I_k) against N(mu, I_k) (Definition 3.1); its log likelihood ratio is "
                "t - |mu|^2/2 with t = sum_i mu_i x_i, increasing in t, so the most powerful "
                "tests reject when t > c",
            ),
        )
        .eq(
            g(sp.sqrt(squares), a),
            by.foundation(
                "normal-rotation-invariance",
                "t = sum_i mu_i X_i is N(0, |mu|^2) under N(0, I_k) and N(|mu|^2, |mu|^2) "
                "under N(mu, I_k): size alpha at c = |mu| Phi^{-1}(1 - alpha), type II error "
                "Phi(Phi^{-1}(1 - alpha) - |mu|), which is G_m(alpha) at "
                "m = |mu| = sqrt(sum_i mu_i^2)",
            ),
        )
    )
    return proof.derive(
        id="gdp-composition",
        title="Composition of Gaussian trade-off functions",
        source=dong_roth_su("Corollary 3.3"),
        statement=(
            "G_mu1 (x) G_mu2 = G_sqrt(mu1^2 + mu2^2); by associativity, the composition of "
            "mu_i-GDP mechanisms is sqrt(mu_1^2 + ... + mu_n^2)-GDP."
        ),
        variables=(K, MU_I, ALPHA),
        family=FAMILY,
        instance_points=instance_points,
        search_budget=2,
    )
