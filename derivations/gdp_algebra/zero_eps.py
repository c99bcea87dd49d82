"""Composition of pure-delta trade-off functions, for every number n of them (Dong, Roth &
Su, arXiv:1905.02383v3, Sec. 3; seed 004, section 5.3):
``f_{0,delta_1} (x) ... (x) f_{0,delta_n} = f_{0, 1 - (1 - delta_1)...(1 - delta_n)}``.

The left side is the trade-off function of the product of the n finite pairs of
:func:`~.np_symbolic.eps_delta_atoms` at eps = 0, :class:`ZeroEpsTensorN`: numerically the
Neyman-Pearson curve of the explicit product pair (``impl``, at a numeric n); symbolically,
for every n at once, by **lumping the outcomes by likelihood ratio**.  When every atom of
every factor has likelihood ratio q/p in {0, 1, oo} (which :meth:`ZeroEpsTensorN.doit` reads
off the factor's atoms, never assumes), the ratio of a product outcome is the product of
its coordinates' ratios: 1 exactly when every coordinate's is 1 (mass ``prod_i c_i`` under P
and under Q, ``c_i`` the ratio-1 mass of factor i), otherwise 0, oo, or 0 * oo for an
outcome neither P nor Q charges.  The product pair is then the three-class pair (P-only,
common, Q-only), whose Neyman-Pearson curve is ``max(0, C - alpha)`` with ``C = prod_i c_i``:
the most powerful tests reject the Q-only outcomes first (no cost in alpha), then the
common ones.  A factor with another ratio (eps > 0) leaves the call unevaluated.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import mpmath
import sympy as sp

from derivations.gdp_algebra.common import FAMILY, dong_roth_su, f_eps_delta
from derivations.gdp_algebra.np_symbolic import Undecided, _classify, eps_delta_atoms
from derivations.symbols import ALPHA
from numeric_checks.dp.tradeoff import eps_delta_pair, tensor, tradeoff_curve
from symbolic.derivation import Derivation
from symbolic.domains import Domain, Variable, parse_domain
from symbolic.families import Family, index_symbol
from symbolic.functions import NumericFunction
from symbolic.kit import by, chain

__all__ = ["N", "ZeroEpsTensorN", "tradeoff_zero_eps_composition"]

N = Variable("n", parse_domain("Z>=1"), "number of composed trade-off functions", "n")
IX = index_symbol("i")
DELTA_I = Variable(
    "delta",
    Domain(lower=sp.S.Zero, upper=sp.S.One, upper_open=False, scale="log"),
    "delta_i of mechanism i",
    r"\delta_{i}",
    family=Family("i", 1, N.symbol),
)


def _numeric(*args: Any) -> Any:
    """The Neyman-Pearson curve of the explicit product of the pairs of f_{0, delta_i}."""
    *deltas, alpha = args
    return tradeoff_curve(tensor(*[eps_delta_pair(0, d) for d in deltas]))(alpha)


def common_mass(atoms: list[tuple[sp.Expr, sp.Expr]]) -> sp.Expr:
    """The mass (under P, equal under Q) of the atoms of likelihood ratio 1 of a pair whose
    every atom has ratio 0, 1 or oo and whose P and Q each total 1; :class:`Undecided`
    otherwise."""
    for k in (0, 1):
        if sp.simplify(sp.Add(*[a[k] for a in atoms]) - 1) != 0:
            raise Undecided("a factor's probabilities do not total 1")
    mass = sp.S.Zero
    for atom in atoms:
        kind = _classify(atom)
        if kind is None or kind.ratio is None or kind.ratio == 0:
            continue  # no mass, Q only, or P only
        if sp.simplify(kind.ratio - 1) != 0:
            raise Undecided(f"an atom of likelihood ratio {kind.ratio}, not 0, 1 or oo")
        mass += atom[0]
    return sp.expand(mass)


class ZeroEpsTensorN(NumericFunction):
    """(f_{0,delta_1} (x) ... (x) f_{0,delta_n})(alpha).  ``ZeroEpsTensorN(delta, n, alpha)``
    over a family ``delta`` of length ``n``; at a numeric ``n`` it writes itself out as
    ``ZeroEpsTensorN(delta_1, ..., delta_n, alpha)`` (an instance's elements)."""

    impl = staticmethod(_numeric)

    @classmethod
    def eval(cls, *args: sp.Expr) -> sp.Expr | None:
        if _over_family(args) and sp.sympify(args[1]).is_Integer:
            base, n, alpha = args
            return cls(*[base[k] for k in range(1, int(n) + 1)], alpha)
        return None

    def doit(self, **hints: Any) -> sp.Expr:
        args = [a.doit(**hints) if hints.get("deep", True) else a for a in self.args]
        if not _over_family(args):
            return self.func(*args)
        base, n, alpha = args
        try:
            c = common_mass(eps_delta_atoms(0, base[IX]))
        except Undecided:
            return self.func(*args)
        return sp.Max(0, sp.Product(c, (IX, 1, n)) - alpha)

    def _latex(self, printer: Any) -> str:
        alpha = printer._print(self.args[-1])
        if _over_family(self.args):
            n = printer._print(self.args[1])
            return (
                rf"\left(f_{{0,\delta_{{1}}}} \otimes \dots \otimes f_{{0,\delta_{{{n}}}}}"
                rf"\right)\left({alpha}\right)"
            )
        factors = r" \otimes ".join(f"f_{{0,{printer._print(d)}}}" for d in self.args[:-1])
        return rf"\left({factors}\right)\left({alpha}\right)"


def _over_family(args: Any) -> bool:
    return len(args) == 3 and isinstance(args[0], sp.IndexedBase)


def instance_points(rng: Any, dps: int, lengths: Mapping[str, int]) -> list[dict[str, Any]]:
    """delta_1..delta_n log-uniform in [1e-6, 1) (some at 1e-12, some near 1), alpha on
    both sides of the kink 1 - delta_total and near 0 and 1."""
    n = int(lengths["n"])
    out = []
    for k in range(30):
        point: dict[str, Any] = {}
        keep = mpmath.mpf(1)
        for i in range(1, n + 1):
            d = mpmath.mpf(10) ** rng.uniform(-6, -0.05)
            if k % 5 == 0:
                d = mpmath.mpf(10) ** -12 if i % 2 else 1 - mpmath.mpf(10) ** -6
            point[f"delta_{i}"] = d
            keep *= 1 - d
        u = mpmath.mpf(rng.random())
        point["alpha"] = [keep * u, keep + (1 - keep) * u, 10 ** -rng.uniform(3, 12)][k % 3]
        if not 0 < point["alpha"] < 1:
            point["alpha"] = mpmath.mpf("0.5")
        out.append(point)
    return out


def tradeoff_zero_eps_composition() -> Derivation:
    """f_{0,delta_1} (x) ... (x) f_{0,delta_n} = f_{0, 1 - prod_i (1 - delta_i)}, every n."""
    a, n = ALPHA.symbol, N.symbol
    keep = sp.Product(1 - DELTA_I.base[IX], (IX, 1, n))
    total = sp.Symbol("delta_tot", nonnegative=True)
    proof = (
        chain(ZeroEpsTensorN(DELTA_I.base, n, a))
        .eq(
            sp.Max(0, 1 - total - a, evaluate=False),
            by.foundation(
                "neyman-pearson",
                "lump the product's outcomes by likelihood ratio: 1 exactly when every "
                "coordinate is in its middle outcome, of probability prod_i (1 - delta_i) "
                "under both P and Q; the others only P or only Q charges",
            ),
        )
        .eq(
            f_eps_delta(0, total, a),
            by.definition("f_{0,delta}(alpha) = max{0, 1 - delta - alpha}"),
        )
    )
    return proof.derive(
        id="tradeoff-zero-eps-composition",
        title=("f_{0,delta_1} (x) ... (x) f_{0,delta_n} = f_{0, 1-(1-delta_1)...(1-delta_n)}"),
        source=dong_roth_su("Sec. 3; seed 004 section 5.3"),
        statement=(
            "Composing pure-delta trade-off functions multiplies the 'no leak' "
            "probabilities: for every n >= 1, f_{0,delta_1} (x) ... (x) f_{0,delta_n} = "
            "f_{0, 1 - (1 - delta_1)...(1 - delta_n)}."
        ),
        variables=(N, DELTA_I, ALPHA),
        defs=((total, 1 - keep),),
        family=FAMILY,
        instance_points=instance_points,
    )
