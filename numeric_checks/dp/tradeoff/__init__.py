"""Trade-off functions as exact numeric objects (Dong, Roth & Su, arXiv:1905.02383v3, Sec. 2-3).

For distributions P and Q, T(P, Q)(alpha) = inf{beta_phi : alpha_phi <= alpha}, with
alpha_phi = E_P[phi] and beta_phi = 1 - E_Q[phi] (seed 004, section 2).

* :mod:`.finite`: Neyman-Pearson curves of finite pairs, their tensor products, the pairs of
  f_{eps, delta} and of its n-fold product;
* :mod:`.shift`: location families (Gaussian, Laplace);
* :mod:`.normal_product`: G_mu1 (x) G_mu2 from the definition, a one-dimensional integral
  over one coordinate by the trapezoidal rule on the line;
* :mod:`.group`: the group-privacy iterate 1 - (1 - f)^{o k};
* :mod:`.properties`: sampled checks of the four properties of a trade-off function;
* :mod:`.clt`: the functionals kl, kappa_2, kappa_3, bar kappa_3 and the Berry-Esseen
  (mu, gamma).

The public names of all six are re-exported here.
"""

from numeric_checks.dp.tradeoff.clt import Functionals, clt_parameters, functionals
from numeric_checks.dp.tradeoff.finite import (
    Curve,
    FinitePair,
    convex_minorant,
    dominates,
    eps_delta_pair,
    eps_power_pair,
    eps_tradeoff_power,
    identity_pair,
    inverse,
    tensor,
    tradeoff_curve,
)
from numeric_checks.dp.tradeoff.group import gaussian_group, group_tradeoff, group_tradeoff_grid
from numeric_checks.dp.tradeoff.normal_product import gaussian_tensor, gaussian_tensor_k, normal_mix
from numeric_checks.dp.tradeoff.properties import Violation, tradeoff_violations
from numeric_checks.dp.tradeoff.shift import (
    gaussian_tradeoff_by_shift,
    laplace_tradeoff,
    shift_tradeoff,
)

__all__ = [
    "Curve",
    "FinitePair",
    "Functionals",
    "Violation",
    "clt_parameters",
    "convex_minorant",
    "dominates",
    "eps_delta_pair",
    "eps_power_pair",
    "eps_tradeoff_power",
    "functionals",
    "gaussian_group",
    "gaussian_tensor",
    "gaussian_tensor_k",
    "gaussian_tradeoff_by_shift",
    "group_tradeoff",
    "group_tradeoff_grid",
    "identity_pair",
    "inverse",
    "laplace_tradeoff",
    "normal_mix",
    "shift_tradeoff",
    "tensor",
    "tradeoff_curve",
    "tradeoff_violations",
]
