"""The audit of seed 001 (``shared/seeds/001_54051e4141c9a46f.txt``): Chinese lecture notes
on Dwork & Roth 2014, section 3.6.3, NumericSparse, sentence by sentence.

The entries are split by part of the text: :mod:`.seed_001_privacy` (the introduction and
Theorem 3.27), :mod:`.seed_001_accuracy` (Definition 3.10, Theorem 3.28 and its proof) and
:mod:`.seed_001_summary` (the closing discussion).  Their checks live in
:mod:`.seed_001_algebra` (SymPy) and :mod:`.seed_001_exact` (exact probabilities with mpmath).
"""

from __future__ import annotations

from derivations.audit import seed_001_accuracy, seed_001_privacy, seed_001_summary
from derivations.audit.seed_001_text import SECTION, SEED
from symbolic.audit import Entry

__all__ = ["ENTRIES", "SECTION", "SEED"]

ENTRIES: tuple[Entry, ...] = (
    *seed_001_privacy.ENTRIES,
    *seed_001_accuracy.ENTRIES,
    *seed_001_summary.ENTRIES,
)
