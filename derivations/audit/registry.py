"""Every audit entry by seed, and the errata among them."""

from __future__ import annotations

import dataclasses
from functools import cache

from derivations.audit.spec import DATA, data_seeds, load_seed
from symbolic.audit import Entry, Erratum, Severity, severity_of
from symbolic.errors import InvalidInput

__all__ = ["SEEDS", "entries", "errata", "seed_names"]

SEEDS = ("000", "001", "002", "003", "004")
"""The seed files, by their number (``shared/seeds/NNN_*.txt``)."""


@cache
def _data(seed: str) -> tuple[str, tuple[Entry, ...]]:
    """A seed's file name and entries (verdicts from the stored results)."""
    from derivations.audit.run import entries_of, read_results  # the engine: only on use

    path = data_seeds().get(seed)
    if path is None:
        raise InvalidInput(f"seed {seed} has no data file in {DATA}")
    spec = load_seed(path)
    return spec.file, entries_of(spec, read_results(spec))


def seed_names() -> dict[str, str]:
    """Seed number -> its file name."""
    return {seed: _data(seed)[0] for seed in SEEDS}


@cache
def _all() -> tuple[Entry, ...]:
    out = [e for seed in SEEDS for e in _data(seed)[1]]
    ids = [e.id for e in out]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise InvalidInput(f"audit entry ids repeat: {dupes}")
    return tuple(out)


def entries(seed: str | None = None) -> tuple[Entry, ...]:
    """The audit entries of one seed (by number or file name), or of all seeds."""
    if seed is None:
        return _all()
    names = seed_names()
    number = next((n for n, f in names.items() if seed in (n, f, f.split("_")[0])), None)
    if number is None:
        known = ", ".join(f"{n} ({f})" for n, f in names.items()) or "none yet"
        raise InvalidInput(f"unknown seed {seed!r}; audited seeds: {known}")
    return tuple(e for e in _all() if e.seed == number)


def errata() -> tuple[tuple[Entry, Erratum], ...]:
    """Every erratum with the entry it belongs to, most severe first (``Severity``'s
    order), in seed order within a severity."""
    rank = {s: i for i, s in enumerate(Severity)}
    found = [(e, e.erratum) for e in _all() if e.erratum is not None]
    # One problem, one erratum: a merged duplicate is listed as an alias of its first id.
    merged: dict[str, list[str]] = {}
    for _, x in found:
        if x.same_as is not None:
            merged.setdefault(x.same_as, []).append(x.id)
    known = {x.id for _, x in found}
    unknown = sorted(set(merged) - known)
    if unknown:
        raise InvalidInput(f"errata merged into unknown ids: {unknown}")
    kept = [
        (e, dataclasses.replace(x, aliases=(*x.aliases, *merged.get(x.id, ()))))
        for e, x in found
        if x.same_as is None
    ]
    return tuple(sorted(kept, key=lambda ex: rank[severity_of(ex[1])]))
