"""The audit of the five seed texts (``shared/seeds/``): every mathematical statement, as
written, with how it was checked and its verdict; the errata among them.

A seed is either data (``data/seed_NNN.toml``, read by :mod:`.spec`; its checks run by
:mod:`.run`, catalog derivations, claim/proof files and the named experiments of
:mod:`.experiments`; verdicts stored in ``data/seed_NNN.results.json``) or, for the seeds not
converted yet, a Python module ``seed_NNN`` with ``SEED`` (the file name) and ``ENTRIES``.
The data model is :mod:`symbolic.audit`; the tests run every entry's check.
"""

from __future__ import annotations

from derivations.audit.registry import SEEDS, entries, errata, seed_names

__all__ = ["SEEDS", "entries", "errata", "seed_names"]
