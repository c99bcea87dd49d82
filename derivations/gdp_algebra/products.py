"""Tensor products of trade-off functions (Dong, Roth & Su, arXiv:1905.02383v3, Sec. 3;
seed 004, section 5.3); ``gdp-composition`` is in :mod:`.composition_k`.

* ``tradeoff-eps-delta-split``: f_{eps,delta} = f_{eps,0} (x) f_{0,delta};
* :class:`ZeroEpsTensor`: f_{0,delta1} (x) f_{0,delta2} (x) f_{0,delta3}, the explicit
  product of three pairs (``tradeoff-zero-eps-composition``, for every n, is in
  :mod:`.zero_eps`);

the two with the Neyman-Pearson curve of an explicitly built product of finite pairs,
numerically (``impl``, the spot checks) and symbolically (``doit``, :mod:`.np_symbolic`, so
that the equality tactics prove the step).
"""

from __future__ import annotations

import sympy as sp

from derivations.gdp_algebra.common import (
    EPS,
    FAMILY,
    dong_roth_su,
    f_eps_delta,
)
from derivations.gdp_algebra.np_symbolic import Atom, FinitePairTradeoff, eps_delta_atoms
from derivations.symbols import ALPHA, DELTA
from numeric_checks.dp.tradeoff import eps_delta_pair, tensor, tradeoff_curve
from symbolic.derivation import Derivation
from symbolic.domains import Domain
from symbolic.kit import by, chain


class EpsDeltaSplit(FinitePairTradeoff):
    """(f_{eps,0} (x) f_{0,delta})(alpha), from the product of the two 4-point pairs:
    numerically by ``impl``, symbolically by :meth:`doit` (the same product pair with
    SymPy probabilities, :mod:`.np_symbolic`)."""

    nargs = 3
    impl = staticmethod(
        lambda eps, delta, alpha: tradeoff_curve(
            tensor(eps_delta_pair(eps, 0), eps_delta_pair(0, delta))
        )(alpha)
    )
    latex_template = r"\left(f_{{{0}, 0}} \otimes f_{{0, {1}}}\right)\left({2}\right)"

    @classmethod
    def pairs(cls, *params: sp.Expr) -> list[list[Atom]]:
        eps, delta = params
        return [eps_delta_atoms(eps, 0), eps_delta_atoms(0, delta)]


UNIT = Domain(lower=sp.S.Zero, upper=sp.S.One, upper_open=False, scale="log")


def tradeoff_eps_delta_split() -> Derivation:
    """f_{eps,delta} = f_{eps,0} (x) f_{0,delta}, on the product of the two finite pairs."""
    e, d, a = EPS.symbol, DELTA.symbol, ALPHA.symbol
    proof = chain(EpsDeltaSplit(e, d, a)).eq(
        f_eps_delta(e, d, a),
        by.foundation(
            "neyman-pearson",
            "Neyman-Pearson on the product: the outcomes only Q charges are rejected "
            "first (beta drops by delta at alpha = 0), then the f_{eps,0} curve "
            "scaled by 1 - delta",
        ),
    )
    return proof.derive(
        id="tradeoff-eps-delta-split",
        title="f_{eps,delta} = f_{eps,0} (x) f_{0,delta}",
        source=dong_roth_su("Sec. 3 (tensor products); seed 004 section 5.3"),
        statement=(
            "The (eps, delta) trade-off function is the tensor product of the pure eps one and "
            "the pure delta one: f_{eps,delta} = f_{eps,0} (x) f_{0,delta}."
        ),
        variables=(EPS, DELTA, ALPHA),
        family=FAMILY,
    )


class ZeroEpsTensor(FinitePairTradeoff):
    """(f_{0,delta1} (x) f_{0,delta2} (x) f_{0,delta3})(alpha), from the product pair:
    numerically by ``impl``, symbolically by :meth:`doit` (:mod:`.np_symbolic`)."""

    nargs = 4
    impl = staticmethod(
        lambda d1, d2, d3, alpha: tradeoff_curve(
            tensor(eps_delta_pair(0, d1), eps_delta_pair(0, d2), eps_delta_pair(0, d3))
        )(alpha)
    )
    latex_template = (
        r"\left(f_{{0,{0}}} \otimes f_{{0,{1}}} \otimes f_{{0,{2}}}\right)\left({3}\right)"
    )

    @classmethod
    def pairs(cls, *params: sp.Expr) -> list[list[Atom]]:
        return [eps_delta_atoms(0, d) for d in params]
