"""The audit of the five seed texts (``shared/seeds/``): every mathematical statement, as
written, with how it was checked and its verdict; the errata among them.

Each seed is data: ``data/seed_NNN.toml``, read by :mod:`.spec`; its checks (catalog
derivations, claim and proof files, the named experiments of :mod:`.experiments`) are run by
:mod:`.run`, and their results stored in ``data/seed_NNN.results.json``, which is what
``dpderive audit`` reads.  The data model is :mod:`symbolic.audit`; the contract test re-runs
every check.
"""

from __future__ import annotations

from derivations.audit.registry import SEEDS, entries, errata, seed_names

__all__ = ["SEEDS", "entries", "errata", "seed_names"]
