"""The audit of the five seed texts (``shared/seeds/``): every mathematical statement, as
written, with how it was checked and its verdict; the errata among them.

One module per seed file (``seed_000`` ... ``seed_004``), each with ``SEED`` (the file name)
and ``ENTRIES``.  The data model is :mod:`symbolic.audit`; the tests run every entry's check.
"""

from __future__ import annotations

from derivations.audit.registry import SEEDS, entries, errata, seed_names

__all__ = ["SEEDS", "entries", "errata", "seed_names"]
