"""Privacy accounting from first principles: the mechanisms of ``dpderive account``, their
per-step pairs of output laws, rigorous lower bounds on the privacy profile delta(eps) of a
composition (test events evaluated with Arb), and the upper bounds that rest on theorems the
catalog does not hold (Renyi DP, the optimal composition of pure DP, amplification by
subsampling), each labelled with its source.

The bounds that rest on catalog theorems are evaluated from the catalog's own formulas in
:mod:`derivations.accounting`; nothing here imports the catalog.
"""

from numeric_checks.accounting.mechanisms import (
    KINDS,
    Composition,
    Mechanism,
    Round,
)

__all__ = ["KINDS", "Composition", "Mechanism", "Round"]
