"""The audit of seed 002: Dwork & Roth 2014, section 3.5.1 (Chinese lecture notes):
KL divergence, max divergence and its delta-approximate version, Remark 3.1, statistical
distance, Lemmas 3.17-3.19, with the translator's supplement to the proof of Lemma 3.18.

The entries live in three modules (definitions, lemmas, supplement); their checks in
:mod:`derivations.audit.seed_002_definitions` and :mod:`derivations.audit.seed_002_lemmas`,
on the exact tools of :mod:`derivations.audit.seed_002_tools`.  Errata that are formulas have
catalog derivations in :mod:`derivations.seed_002_errata` (Lemma 3.17 (2)).
"""

from __future__ import annotations

from derivations.audit import (
    seed_002_entries_defs,
    seed_002_entries_lemmas,
    seed_002_entries_supplement,
)
from symbolic.audit import Entry

__all__ = ["ENTRIES", "SECTIONS", "SEED"]

SEED = "002_553a25f115af8388.txt"
SECTIONS = seed_002_entries_defs.SECTIONS

ENTRIES: tuple[Entry, ...] = (
    *seed_002_entries_defs.ENTRIES,
    *seed_002_entries_lemmas.LEMMA_3_17,
    *seed_002_entries_lemmas.LEMMA_3_18,
    *seed_002_entries_supplement.ENTRIES,
)
