"""The audit of seed 003 (``shared/seeds/003_dcd051e7843141d6.txt``): Chinese lecture notes on
differential privacy after Dwork & Roth 2014, chapter 3 and Appendix A: the definitions,
the max-divergence, the Laplace, Gaussian and exponential mechanisms, and composition.

Every statement of the notes, section by section, as written; the entries live in
:mod:`~derivations.audit.seed_003_defs` (title to sensitivity),
:mod:`~derivations.audit.seed_003_mech` (Laplace, exponential mechanism),
:mod:`~derivations.audit.seed_003_gauss` (Gaussian mechanism) and
:mod:`~derivations.audit.seed_003_comp` (composition), their checks in the ``*_checks_*``
modules beside them.
"""

from __future__ import annotations

from derivations.audit import seed_003_comp, seed_003_defs, seed_003_gauss, seed_003_mech
from symbolic.audit import Entry

__all__ = ["ENTRIES", "SEED"]

SEED = "003_dcd051e7843141d6.txt"

ENTRIES: tuple[Entry, ...] = (
    seed_003_defs.ENTRIES
    + seed_003_mech.LAPLACE_ENTRIES
    + seed_003_gauss.ENTRIES
    + seed_003_mech.EXPO_ENTRIES
    + seed_003_comp.ENTRIES
)
"""In the order of the seed: the Gaussian section sits between the Laplace and the exponential
mechanism."""
