"""The seed audit as data: one entry per mathematical statement of a seed text, and the
errata among them.

An entry records where the statement is (seed file, section heading, a short quote in the
original language), what it claims (in English), how it is checked, the recorded verdict and
the evidence.  Its ``check`` re-runs the check; the tests run every check and fail when the
recorded verdict is not what the check gives, so the published audit cannot drift from the
mathematics.  A statement false as written carries an :class:`Erratum`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from symbolic.errors import IllFormedDerivation

__all__ = [
    "AuditVerdict",
    "Entry",
    "Erratum",
    "ErratumKind",
    "Method",
    "Outcome",
    "Severity",
    "severity_of",
]

_ID = re.compile(r"^seed-\d{3}-[a-z0-9]+(-[a-z0-9]+)*$")


class AuditVerdict(Enum):
    """The verdict vocabulary of ``shared/DESIGN.md``, plus "not checkable"."""

    PROVED = "proved"
    CERTIFIED = "certified"
    CHECKED = "checked"
    REFUTED = "refuted"
    UNDECIDED = "undecided"
    NOT_CHECKABLE = "not checkable"
    """Not a mathematical statement, or too vague to check; the entry says why."""


class Method(Enum):
    """How a statement is checked."""

    DERIVATION = "derivation"
    """A catalog derivation (its id in ``Entry.derivations``) or a proof/claim file."""
    EXACT = "exact computation"
    SIMULATION = "simulation"
    FINITE_SEARCH = "finite-distribution search"
    SYMBOLIC = "symbolic"
    """SymPy (or the rules) on the statement itself."""
    NONE = "none"
    """Not checkable (the entry's detail says why)."""


class ErratumKind(Enum):
    TYPO = "typo"
    """A typo that changes the mathematics."""
    FALSE = "false"
    """A false claim."""
    MISSING_HYPOTHESIS = "missing hypothesis"
    INVALID_STEP = "invalid step"
    """A step that does not follow (the conclusion may still be true)."""
    ILL_FORMED = "ill-formed"
    """A display that does not parse as mathematics (unbound index, mismatched support)."""


class Severity(Enum):
    """How much an erratum matters, most serious first (the order of every errata list)."""

    FALSE = "false"
    """A stated theorem or claim is false as written."""
    TYPO = "typo"
    """A displayed formula is wrong, but the intended one is clear and true."""
    GAP = "gap"
    """A step or hypothesis is missing; the conclusion stands once it is supplied."""
    WORDING = "wording"
    """An informal sentence that misleads."""


_SEVERITY_OF_KIND = {
    ErratumKind.FALSE: Severity.FALSE,
    ErratumKind.TYPO: Severity.TYPO,
    ErratumKind.ILL_FORMED: Severity.TYPO,
    ErratumKind.MISSING_HYPOTHESIS: Severity.GAP,
    ErratumKind.INVALID_STEP: Severity.GAP,
}


def severity_of(x: Erratum) -> Severity:
    """The erratum's severity: the one its data declares, else the one its kind implies
    (seeds whose entries are still Python modules declare none)."""
    return x.severity if x.severity is not None else _SEVERITY_OF_KIND[x.kind]


@dataclass(frozen=True)
class Outcome:
    """What a check found: ``holds`` is True, False or None (could not decide)."""

    holds: bool | None
    detail: str


@dataclass(frozen=True)
class Erratum:
    """A statement false as written: what is wrong, a counterexample with numbers (both
    sides' values), the correction, and the derivations as written and corrected."""

    id: str
    kind: ErratumKind
    wrong: str
    counterexample: str
    correction: str
    as_written: str | None = None
    corrected: str | None = None
    check_correction: Callable[[], Outcome] | None = field(default=None, compare=False)
    """Re-checks the correction (must hold)."""
    severity: Severity | None = None
    aliases: tuple[str, ...] = ()
    """Ids of errata merged into this one (the same problem at another place)."""
    same_as: str | None = None
    """Set on a merged duplicate: the id of the erratum it repeats (listed there only)."""

    def __post_init__(self) -> None:
        if not _ID.match(self.id):
            raise IllFormedDerivation(f"an erratum id is seed-NNN-kebab-case, got {self.id!r}")


@dataclass(frozen=True)
class Entry:
    """One audited statement of a seed text."""

    id: str
    seed: str
    section: str
    quote: str
    claim: str
    method: Method
    verdict: AuditVerdict
    detail: str
    check: Callable[[], Outcome] | None = field(default=None, compare=False)
    """Re-runs the check; None only for ``not checkable`` entries and for entries whose
    check is a catalog derivation (``derivations``), which the catalog's tests run."""
    derivations: tuple[str, ...] = ()
    erratum: Erratum | None = None
    readings: str = ""
    """Where the text is ambiguous: which readings were checked."""
    check_spec: str = ""
    """What was run, for entries kept as data: ``catalog:ID``, ``claim:FILE``,
    ``proof:FILE``, ``experiment:NAME`` (empty for the Python-module seeds)."""
    scope: str = ""
    """``general`` or ``instance: ...``, from the check (empty where nothing was run)."""
    basis: str = ""
    """The basis of a catalog or proof-file verdict (``symbolic.basis``)."""
    notes: str = ""
    """What a check teaches beyond the verdict, e.g. a refutation outside the seed's
    standing conventions (not an erratum)."""

    @classmethod
    def of(cls, seed: str, key: str, **fields: Any) -> Entry:
        """The entry of seed ``seed`` with id ``seed-<seed>-<key>``; ``fields`` are the rest."""
        return cls(id=f"seed-{seed}-{key}", seed=seed, **fields)

    def __post_init__(self) -> None:
        if not _ID.match(self.id):
            raise IllFormedDerivation(f"an entry id is seed-NNN-kebab-case, got {self.id!r}")
        if not self.id.startswith(f"seed-{self.seed}-"):
            raise IllFormedDerivation(f"{self.id}: the id does not name its seed {self.seed}")
        if (self.erratum is not None) != (self.verdict is AuditVerdict.REFUTED):
            raise IllFormedDerivation(
                f"{self.id}: an entry is refuted exactly when it carries an erratum"
            )
        if self.verdict is AuditVerdict.NOT_CHECKABLE and not self.detail:
            raise IllFormedDerivation(f"{self.id}: say why the statement is not checkable")
