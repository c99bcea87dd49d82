"""The seed audit's data files (``data/seed_NNN.toml``), read and validated.

A data file declares the seed (number, file name, default section, and ``headings``: how
the seed marks a heading, when not by a number), its standing
conventions (``[conventions]``: parameter name -> interval, e.g. ``eps = "[0, oo)"``) and
its entries.  Each entry has an id key, the quote in the original language, the claim in
English, readings and a note, and either a ``check`` or a ``why_not_checkable``.  A check
names exactly one of: ``catalog`` (an id or a list of ids, optionally a ``step``), ``claim``
or ``proof`` (a file next to the data, as ``dpderive claim``/``verify`` read it), or
``experiment`` with ``params`` (:mod:`derivations.audit.experiments`).  No verdict is
written in a data file: it is the check's result.

An entry that is wrong as written carries ``[entries.erratum]`` (severity, kind, what is
wrong, the correction and the checks that show the correction holds); the counterexample
is the check's own output.  Merged duplicates list the ids they absorbed as ``aliases``.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from symbolic.audit import (
    ErratumKind,
    NotCheckable,
    NotErratum,
    Role,
    Severity,
    rubric_problem,
)
from symbolic.errors import InvalidInput

__all__ = [
    "DATA",
    "REALISTIC",
    "CheckSpec",
    "Convention",
    "EntrySpec",
    "ErratumSpec",
    "SeedSpec",
    "data_seeds",
    "load_seed",
]

DATA = Path(__file__).resolve().parent / "data"

_SEED_KEYS = {"seed", "file", "section", "headings", "conventions", "realistic", "entries"}
_ENTRY_KEYS = {
    "key",
    "section",
    "quote",
    "claim",
    "readings",
    "note",
    "check",
    "why_not_checkable",
    "not_erratum",
    "erratum",
}
_CHECK_KINDS = ("catalog", "claim", "proof", "experiment")
_CHECK_KEYS = {*_CHECK_KINDS, "step", "params"}
_ERRATUM_KEYS = {
    "id",
    "same_as",
    "severity",
    "kind",
    "wrong",
    "correction",
    "as_written",
    "corrected",
    "correction_checks",
    "aliases",
    "role",
}
REALISTIC = {
    "eps": "[0, 10]",
    "delta": "[0, 1/100]",
    "delta_p": "[0, 1/100]",
    "beta": "[0, 1/10]",
}
"""The realistic ranges of the seeds' parameters (issue 44): eps <= 10, delta << 1/n
(at most 1/100), beta <= 0.1.  A seed's ``[realistic]`` table adds to them; a
counterexample outside them is flagged ``edge``."""
_REASON = re.compile(r"^([a-z-]+):\s*(\S.*)$", re.S)
NUMBERED = r"^\d+(?:\.\d+)+\s+\S.*$"
"""Numbered headings (``3.5.1 合成``), the default."""
_INTERVAL = re.compile(r"^([\[(])\s*(-oo|[-0-9/.]+)\s*,\s*(oo|[-0-9/.]+)\s*([\])])$")


@dataclass(frozen=True)
class Convention:
    """A standing convention of a seed: ``name`` ranges over an interval."""

    name: str
    low: Fraction | None
    high: Fraction | None
    closed_low: bool
    closed_high: bool

    def admits(self, x: Fraction) -> bool:
        if self.low is not None and (x < self.low or (x == self.low and not self.closed_low)):
            return False
        return not (
            self.high is not None and (x > self.high or (x == self.high and not self.closed_high))
        )

    def show(self) -> str:
        lo = "-oo" if self.low is None else str(self.low)
        hi = "oo" if self.high is None else str(self.high)
        left, right = "[" if self.closed_low else "(", "]" if self.closed_high else ")"
        return f"{self.name} in {left}{lo}, {hi}{right}"


@dataclass(frozen=True)
class CheckSpec:
    """What an entry (or a correction) runs: ``kind`` is catalog/claim/proof/experiment."""

    kind: str
    target: tuple[str, ...]
    step: int | None = None
    params: Mapping[str, Any] = field(default_factory=dict)

    def label(self) -> str:
        """``catalog:ID[,ID]``, ``catalog:ID#step``, ``claim:FILE``, ``experiment:NAME``."""
        text = f"{self.kind}:{','.join(self.target)}"
        return text + (f"#step-{self.step}" if self.step is not None else "")


@dataclass(frozen=True)
class ErratumSpec:
    id: str
    """The erratum's id (the entry's unless the data gives one: ids stay stable)."""
    severity: Severity
    kind: ErratumKind
    wrong: str
    correction: str
    correction_checks: tuple[CheckSpec, ...]
    as_written: str | None = None
    corrected: str | None = None
    aliases: tuple[str, ...] = ()
    same_as: str | None = None
    """The id of the erratum this one repeats (one problem at another place): listed
    there as an alias, not on its own."""
    role: Role = Role.STATEMENT
    """What the refuted text is; its severity follows by the rubric (:class:`Role`)."""


@dataclass(frozen=True)
class EntrySpec:
    id: str
    section: str
    quote: str
    claim: str
    readings: str = ""
    note: str = ""
    check: CheckSpec | None = None
    why_not_checkable: str = ""
    not_erratum: str = ""
    erratum: ErratumSpec | None = None

    @property
    def not_checkable_reason(self) -> NotCheckable | None:
        """The closed-list reason of a ``not checkable`` entry (validated on load)."""
        m = _REASON.match(self.why_not_checkable)
        return NotCheckable(m[1]) if m else None

    @property
    def not_erratum_reason(self) -> NotErratum | None:
        m = _REASON.match(self.not_erratum)
        return NotErratum(m[1]) if m else None


@dataclass(frozen=True)
class SeedSpec:
    seed: str
    file: str
    conventions: Mapping[str, Convention]
    entries: tuple[EntrySpec, ...]
    directory: Path
    headings: str = NUMBERED
    realistic: Mapping[str, Convention] = field(default_factory=dict)
    """The realistic ranges (``REALISTIC`` and the seed's ``[realistic]`` table)."""
    """How the seed marks its headings: a regular expression matched at the start of a
    line, whose first group that matched (else the whole match) is the section name."""

    def heading(self, line: str) -> str | None:
        """The section that ``line`` of the seed opens, if it is a heading."""
        m = re.match(self.headings, line.strip())
        if m is None:
            return None
        return next((g for g in m.groups() if g is not None), m.group(0)).strip()


def _table(value: object, where: str, allowed: set[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InvalidInput(f"{where}: expected a table, got {value!r}")
    unknown = set(value) - allowed
    if unknown:
        raise InvalidInput(f"{where}: unknown key(s) {sorted(unknown)}; allowed: {sorted(allowed)}")
    return value


def _text(table: Mapping[str, Any], key: str, where: str, default: str | None = None) -> str:
    value = table.get(key, default)
    if not isinstance(value, str) or (default is None and not value.strip()):
        raise InvalidInput(f"{where}: {key!r} must be a non-empty string")
    return value


def _bound(text: str) -> Fraction | None:
    return None if text in ("oo", "-oo") else Fraction(text)


def _convention(name: str, text: object) -> Convention:
    m = _INTERVAL.match(str(text))
    if m is None:
        raise InvalidInput(f"convention {name}: an interval like '[0, oo)', got {text!r}")
    return Convention(name, _bound(m[2]), _bound(m[3]), m[1] == "[", m[4] == "]")


def convention_for(name: str, conventions: Mapping[str, Convention]) -> Convention | None:
    """The convention a parameter falls under: ``eps1``, ``eps_2`` -> ``eps``."""
    return conventions.get(name) or conventions.get(re.sub(r"_?\d+$", "", name))


def _check(value: object, where: str, conventions: Mapping[str, Convention]) -> CheckSpec:
    table = _table(value, where, _CHECK_KEYS)
    kinds = [k for k in _CHECK_KINDS if k in table]
    if len(kinds) != 1:
        raise InvalidInput(f"{where}: name exactly one of {_CHECK_KINDS}, got {kinds}")
    kind = kinds[0]
    raw = table[kind]
    target = tuple(raw) if isinstance(raw, list) else (raw,)
    if not target or not all(isinstance(t, str) and t for t in target):
        raise InvalidInput(f"{where}: {kind} must name a string or a list of strings")
    step = table.get("step")
    if step is not None and (kind != "catalog" or len(target) != 1 or not isinstance(step, int)):
        raise InvalidInput(f"{where}: 'step' needs one catalog id and an integer")
    params = dict(table.get("params", {}))
    if params and kind != "experiment":
        raise InvalidInput(f"{where}: 'params' belong to an experiment")
    # The conventions apply to every check: a searched range must lie inside them.
    for name, (lo, hi) in dict(params.get("ranges", {})).items():
        c = convention_for(name, conventions)
        if c is not None and not (c.admits(Fraction(lo)) and c.admits(Fraction(hi))):
            raise InvalidInput(f"{where}: range {name} in [{lo}, {hi}] leaves {c.show()}")
    return CheckSpec(kind, target, step, params)


def _erratum(
    value: object, where: str, conventions: Mapping[str, Convention], entry_id: str
) -> ErratumSpec:
    table = _table(value, where, _ERRATUM_KEYS)
    checks = table.get("correction_checks", [])
    if not isinstance(checks, list) or not checks:
        raise InvalidInput(f"{where}: 'correction_checks' must list at least one check")
    try:
        severity = Severity(_text(table, "severity", where))
        kind = ErratumKind(_text(table, "kind", where))
        role = Role(_text(table, "role", where))
    except ValueError as exc:
        raise InvalidInput(f"{where}: {exc}") from None
    problem = rubric_problem(kind, role, severity)
    if problem is not None:
        raise InvalidInput(f"{where}: breaks the severity rubric: {problem}")
    return ErratumSpec(
        id=table.get("id", entry_id),
        severity=severity,
        kind=kind,
        wrong=_text(table, "wrong", where),
        correction=_text(table, "correction", where),
        correction_checks=tuple(
            _check(c, f"{where} correction {i + 1}", conventions) for i, c in enumerate(checks)
        ),
        as_written=table.get("as_written"),
        corrected=table.get("corrected"),
        aliases=tuple(table.get("aliases", ())),
        same_as=table.get("same_as"),
        role=role,
    )


def _reason(text: str, reasons: type[NotCheckable] | type[NotErratum], where: str) -> str:
    """``text`` when it opens with a reason of the closed list ``reasons`` and a colon."""
    m = _REASON.match(text)
    known = [r.value for r in reasons]
    if m is None or m[1] not in known:
        raise InvalidInput(f"{where}: open with one of {known} and a colon, got {text[:40]!r}")
    return text


def load_seed(path: Path) -> SeedSpec:
    """Read one seed's data file; malformed data is :class:`InvalidInput` naming the place."""
    with path.open("rb") as handle:
        data = _table(tomllib.load(handle), str(path), _SEED_KEYS)
    seed = _text(data, "seed", str(path))
    default_section = _text(data, "section", str(path))
    conventions = {
        k: _convention(k, v)
        for k, v in _table(
            data.get("conventions", {}), "conventions", set(data.get("conventions", {}))
        ).items()
    }
    out = []
    for i, raw in enumerate(data.get("entries", [])):
        where = f"{path.name} entry {i + 1}"
        table = _table(raw, where, _ENTRY_KEYS)
        key = _text(table, "key", where)
        where = f"{path.name} {key}"
        check = table.get("check")
        why = table.get("why_not_checkable", "")
        if (check is None) == (not why):
            raise InvalidInput(f"{where}: give a check or why_not_checkable, exactly one")
        if why:
            _reason(why, NotCheckable, f"{where} why_not_checkable")
        if table.get("not_erratum"):
            _reason(table["not_erratum"], NotErratum, f"{where} not_erratum")
        erratum = table.get("erratum")
        out.append(
            EntrySpec(
                id=f"seed-{seed}-{key}",
                section=_text(table, "section", where, default_section),
                quote=_text(table, "quote", where),
                claim=_text(table, "claim", where),
                readings=_text(table, "readings", where, ""),
                note=_text(table, "note", where, ""),
                check=None if check is None else _check(check, where, conventions),
                why_not_checkable=why,
                not_erratum=_text(table, "not_erratum", where, ""),
                erratum=None
                if erratum is None
                else _erratum(erratum, where, conventions, f"seed-{seed}-{key}"),
            )
        )
    headings = _text(data, "headings", str(path), NUMBERED)
    try:
        re.compile(headings)
    except re.error as exc:
        raise InvalidInput(f"{path.name}: 'headings' is not a regular expression: {exc}") from None
    realistic = {k: _convention(k, v) for k, v in REALISTIC.items()}
    realistic.update(
        {
            k: _convention(k, v)
            for k, v in _table(
                data.get("realistic", {}), "realistic", set(data.get("realistic", {}))
            ).items()
        }
    )
    return SeedSpec(
        seed,
        _text(data, "file", str(path)),
        conventions,
        tuple(out),
        path.parent,
        headings,
        realistic,
    )


def data_seeds() -> dict[str, Path]:
    """Seed number -> its data file, for the seeds kept as data."""
    return {p.stem.removeprefix("seed_"): p for p in sorted(DATA.glob("seed_*.toml"))}
