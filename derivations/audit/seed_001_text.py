"""Seed 001 as a text: its file name, number and only heading, and the entry builder the
audit modules share (every entry of this seed sits under the one heading)."""

from __future__ import annotations

from collections.abc import Callable

from symbolic.audit import AuditVerdict, Entry, Erratum, Method, Outcome

__all__ = ["NUMBER", "SECTION", "SEED", "entry"]

SEED = "001_54051e4141c9a46f.txt"
NUMBER = "001"
SECTION = "3.6.3 数值稀疏算法"
"""The seed's only heading: Dwork & Roth 2014, section 3.6.3 (NumericSparse)."""


def entry(
    short: str,
    *,
    quote: str,
    claim: str,
    method: Method,
    verdict: AuditVerdict,
    detail: str,
    check: Callable[[], Outcome] | None = None,
    derivations: tuple[str, ...] = (),
    erratum: Erratum | None = None,
    readings: str = "",
) -> Entry:
    """An entry of seed 001 with id ``seed-001-<short>``."""
    return Entry.of(
        NUMBER,
        short,
        section=SECTION,
        quote=quote,
        claim=claim,
        method=method,
        verdict=verdict,
        detail=detail,
        check=check,
        derivations=derivations,
        erratum=erratum,
        readings=readings,
    )
