"""The audit of seed 004 (``shared/seeds/004_8163944e81e55ae4.txt``): Chinese lecture notes on
Gaussian differential privacy after Dong, Roth & Su, arXiv:1905.02383v3.

Every mathematical statement of the notes, section by section, with how it was checked and
the verdict; the errata among them.  The entries live in one module per group of sections:

* :mod:`.seed_004_review`: 一 (the (eps, delta)-DP recap) and 二 (trade-off functions);
* :mod:`.seed_004_fdp`: 三 (f-DP, f^S), the heading of 四, 4.1 (f_{eps,delta}), 4.4;
* :mod:`.seed_004_gaussian`: 4.2, 4.3 (the Gaussian mechanism and its proof), 4.5, 4.6;
* :mod:`.seed_004_composition`: 五, 5.1-5.3 (composition, the CLT, the approximation);
* :mod:`.seed_004_table`: 六 (the summary table).

Shared machinery (exact rational trade-off curves) is in :mod:`.seed_004_tools`.
"""

from __future__ import annotations

from derivations.audit import (
    seed_004_composition,
    seed_004_fdp,
    seed_004_gaussian,
    seed_004_review,
    seed_004_table,
)
from derivations.audit.seed_004_tools import SEED
from symbolic.audit import Entry

__all__ = ["ENTRIES", "SEED"]

ENTRIES: tuple[Entry, ...] = (
    seed_004_review.ENTRIES
    + seed_004_fdp.ENTRIES
    + seed_004_gaussian.ENTRIES
    + seed_004_composition.ENTRIES
    + seed_004_table.ENTRIES
)
