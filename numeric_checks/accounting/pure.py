"""Upper bounds for compositions of pure DP mechanisms that rest on theorems the catalog
cites but does not prove.

* The optimal composition of k eps0-DP mechanisms (Kairouz, Oh & Viswanath 2015, "The
  composition theorem for differential privacy", Theorem 3.3, delta = 0): the k-fold
  composition is (eps, delta_k(eps))-DP with delta_k(eps) = sum_l max(0, C(k, l)
  (p^(k-l) q^l - e^eps p^l q^(k-l))), p = e^eps0/(1 + e^eps0), q = 1 - p; it is attained by
  randomized response.
* Amplification by Poisson subsampling (Li, Qardaji & Su 2012, Theorem 1; Balle, Barthe &
  Gaboardi 2018, Theorem 8): an eps0-DP mechanism run on a Poisson sample of rate q is
  log(1 + q (e^eps0 - 1))-DP for adding or removing a record.
"""

from __future__ import annotations

from flint import arb

from numeric_checks.dp.arb_functions import optimal_delta


def amplified(eps0: arb, q: arb) -> arb:
    """log(1 + q (e^eps0 - 1)) (Balle, Barthe & Gaboardi 2018, Theorem 8)."""
    return (1 + q * (eps0.exp() - 1)).log()


def kov_delta(k: int, eps0: arb, eps: arb) -> arb:
    """delta_k(eps) of the optimal composition (Kairouz, Oh & Viswanath 2015, Thm. 3.3)."""
    return optimal_delta(arb(k), eps0, arb(0), eps)  # type: ignore[no-any-return]
