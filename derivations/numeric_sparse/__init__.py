"""NumericSparse: privacy (Theorem 3.27) and accuracy (Theorem 3.28) of Dwork & Roth 2014,
section 3.6.3 (seed 001).

NumericSparse(D, {f_i}, T, c, eps, delta) answers sensitivity-1 queries above a noisy
threshold with a Laplace-noised value (the algorithm and its constants are in
:mod:`numeric_checks.dp.sparse`).  Its proofs split the budget between the Sparse algorithm
(Theorems 3.25 and 3.26, cited) and the Laplace answers.

* :mod:`.privacy`: ``numeric-sparse-privacy-pure``, ``-approx-seed``, ``-approx``;
* :mod:`.accuracy`: ``numeric-sparse-accuracy-pure-seed``, ``-pure``, ``-approx-seed``,
  ``-approx``, and the stated alpha as numbers.
"""

from derivations.numeric_sparse import accuracy, privacy
from derivations.numeric_sparse.accuracy import (
    accuracy_approx,
    accuracy_approx_seed,
    accuracy_pure,
    accuracy_pure_seed,
    alpha_corrected,
    alpha_laplace_part,
    alpha_seed,
)
from derivations.numeric_sparse.privacy import privacy_approx, privacy_approx_seed, privacy_pure
from derivations.numeric_sparse.variables import ALPHA, BETA, DELTA, EPS, KQ, C

__all__ = [
    "ALPHA",
    "BETA",
    "DELTA",
    "DERIVATIONS",
    "EPS",
    "KQ",
    "C",
    "accuracy_approx",
    "accuracy_approx_seed",
    "accuracy_pure",
    "accuracy_pure_seed",
    "alpha_corrected",
    "alpha_laplace_part",
    "alpha_seed",
    "privacy_approx",
    "privacy_approx_seed",
    "privacy_pure",
]

DERIVATIONS = (*privacy.DERIVATIONS, *accuracy.DERIVATIONS)
