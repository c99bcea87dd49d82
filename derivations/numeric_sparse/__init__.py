"""NumericSparse: privacy (Theorem 3.27) and accuracy (Theorem 3.28) of Dwork & Roth 2014,
section 3.6.3 (seed 001).

NumericSparse(D, {f_i}, T, c, eps, delta) answers sensitivity-1 queries above a noisy
threshold with a Laplace-noised value (the algorithm and its constants are in
:mod:`numeric_checks.dp.sparse`).  Its proofs split the budget between the Sparse algorithm
(Theorem 3.25, cited; Theorem 3.26, in the catalog: :mod:`.lemmas`) and the Laplace
answers.

* :mod:`.privacy`: ``numeric-sparse-privacy-pure``, ``-approx-seed``, ``-approx``;
* :mod:`.accuracy`: ``numeric-sparse-accuracy-pure-seed``, ``-pure``, ``-approx-seed``,
  ``-approx``, and the stated alpha as numbers;
* :mod:`.lemmas`: the accuracy lemmas they rest on, down to the Laplace tail and the union
  bound: ``above-threshold-accuracy`` (Theorem 3.24), ``sparse-accuracy-pure`` and
  ``-approx`` (Theorem 3.26), ``numeric-sparse-accuracy-bound-pure`` and ``-approx``.
"""

from derivations.numeric_sparse import accuracy, lemmas, privacy
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

DERIVATIONS = (*privacy.DERIVATIONS, *lemmas.DERIVATIONS, *accuracy.DERIVATIONS)
