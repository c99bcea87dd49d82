"""The algebra of trade-off functions: composition, group privacy, (eps, delta) as a product,
the CLT functionals and the Berry-Esseen bound (Dong, Roth & Su, arXiv:1905.02383v3, Sec. 2.5
and Sec. 3; seed 004, sections 4.6, 5.1-5.3).

Every left side here is computed by an independent numeric construction from
``numeric_checks.dp.tradeoff``: a Neyman-Pearson curve of an explicitly built product of finite
distributions, the most powerful test of a product of Gaussians integrated over one
coordinate, or the literal k-fold iterate of 1 - f.  Where a symbolic form is built too (the
functionals of f_{eps,0} as finite sums over the atoms of its pair, the Neyman-Pearson curves
of finite products, one unfolding of the iterate) the steps are proved by the tactics' doit
rung, with the numeric construction as the spot check; the others are ``checked``.
The seed's limit statements (k -> oo, n -> oo) are not finite claims; ``dpderive explain``
prints how close each limit is at finite k or n.

* :mod:`.composition_k`: ``gdp-composition`` for every number k of mechanisms (rotation
  of the k-dimensional normal shift);
* :mod:`.products`: tensor products (``tradeoff-eps-delta-split``,
  ``tradeoff-zero-eps-composition``);
* :mod:`.group`: group privacy (``gdp-group-privacy``);
* :mod:`.clt`: the CLT functionals of f_{eps,0} and the Berry-Esseen bound.
"""

from derivations.gdp_algebra.clt import (
    clt_table,
    eps_tradeoff_kappa2,
    eps_tradeoff_kappa3,
    eps_tradeoff_kappa3_bar,
    eps_tradeoff_kl,
    gdp_clt_berry_esseen,
)
from derivations.gdp_algebra.common import f_eps_delta
from derivations.gdp_algebra.composition_k import gdp_composition
from derivations.gdp_algebra.group import gdp_group_privacy, laplace_limit_table
from derivations.gdp_algebra.products import tradeoff_eps_delta_split
from derivations.gdp_algebra.zero_eps import tradeoff_zero_eps_composition

__all__ = [
    "DERIVATIONS",
    "clt_table",
    "eps_tradeoff_kappa2",
    "eps_tradeoff_kappa3",
    "eps_tradeoff_kappa3_bar",
    "eps_tradeoff_kl",
    "f_eps_delta",
    "gdp_clt_berry_esseen",
    "gdp_composition",
    "gdp_group_privacy",
    "laplace_limit_table",
    "tradeoff_eps_delta_split",
    "tradeoff_zero_eps_composition",
]

# The catalog order of the single module this package was.
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
