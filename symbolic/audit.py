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
    "RUBRIC",
    "AuditVerdict",
    "Entry",
    "Erratum",
    "ErratumKind",
    "Method",
    "NotCheckable",
    "NotErratum",
    "Outcome",
    "Role",
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
    """How much an erratum matters, most serious first (the order of every errata list);
    decided from the erratum's :class:`Role` by the rubric (``RUBRIC``)."""

    FALSE = "false"
    """A statement refuted under the seed's standing conventions (a theorem without a
    hypothesis it needs included)."""
    TYPO = "typo"
    """A symbol slip in a display; the intended reading is clear and proved."""
    GAP = "gap"
    """A proof step, written or silent, does not follow; the conclusion stands once the
    step is supplied."""
    WORDING = "wording"
    """An informal sentence that misleads; its intended point holds."""


_SEVERITY_OF_KIND = {
    ErratumKind.FALSE: Severity.FALSE,
    ErratumKind.TYPO: Severity.TYPO,
    ErratumKind.ILL_FORMED: Severity.TYPO,
    ErratumKind.MISSING_HYPOTHESIS: Severity.GAP,
    ErratumKind.INVALID_STEP: Severity.GAP,
}


class Role(Enum):
    """What the refuted text is: the severity rubric's input (``RUBRIC``).

    The rubric, applied by rule: a statement refuted under the seed's standing conventions is
    ``false``, unless it is a symbol slip whose intended reading is proved (then ``typo``);
    a proof step that does not follow while the proof's conclusion holds is a ``gap``; an
    informal framing sentence (no formula, no guarantee) whose intended point holds is
    ``wording``.  A missing hypothesis of a stated theorem is therefore ``false`` (the
    theorem as stated is refuted), of a proof step a ``gap``.  Orthogonal to the severity,
    ``Erratum.edge`` marks a failure seen only at degenerate parameters (outside the seed's
    realistic ranges: delta << 1/n, beta <= 0.1, eps <= 10)."""

    STATEMENT = "statement"
    """A theorem, claim, formula or definition as asserted (its use included)."""
    SLIP = "slip"
    """A wrong, unbound or clashing symbol (index, codomain, support, a sum for an integral,
    a reused name) whose intended reading is proved."""
    STEP = "step"
    """A step of a proof, written or silent, that does not follow as written; the proof's
    conclusion holds."""
    ASIDE = "aside"
    """An informal framing sentence (no formula, no guarantee) whose intended point holds."""


RUBRIC = {
    Role.STATEMENT: Severity.FALSE,
    Role.SLIP: Severity.TYPO,
    Role.STEP: Severity.GAP,
    Role.ASIDE: Severity.WORDING,
}
"""The severity rubric (``Role``'s docstring): role -> severity."""

_ROLES_OF_KIND = {
    ErratumKind.TYPO: {Role.SLIP},
    ErratumKind.ILL_FORMED: {Role.SLIP},
    ErratumKind.INVALID_STEP: {Role.STEP},
    ErratumKind.MISSING_HYPOTHESIS: {Role.STATEMENT, Role.STEP},
    ErratumKind.FALSE: {Role.STATEMENT, Role.ASIDE},
}


def rubric_problem(kind: ErratumKind, role: Role, severity: Severity | None) -> str | None:
    """Why an erratum's declared kind, role and severity break the rubric (None: they
    agree): the severity is the role's, and the kind fits the role (a typo is a slip, an
    invalid step a step)."""
    if role not in _ROLES_OF_KIND[kind]:
        allowed = ", ".join(sorted(r.value for r in _ROLES_OF_KIND[kind]))
        return f"kind {kind.value!r} is a {allowed}, not a {role.value}"
    if severity is not None and severity is not RUBRIC[role]:
        return f"a {role.value} is {RUBRIC[role].value!r} by the rubric, not {severity.value!r}"
    return None


class NotErratum(Enum):
    """The closed list of reasons why an entry whose own notes describe a failure in some
    reading is no erratum (``not_erratum = "reason: why"`` in the data)."""

    OUTSIDE_CONVENTIONS = "outside-conventions"
    """The failing reading needs parameters outside the seed's standing conventions."""
    COUNTED_ELSEWHERE = "counted-elsewhere"
    """The failure is another entry's erratum (its id is named): one problem, one erratum."""
    FIXED_BY_TEXT = "fixed-by-text"
    """The seed's own words (quoted in the reason) fix the reading that holds."""
    EXTRACTION = "extraction"
    """A typesetting artefact or misspelling of this copy (a lost subscript, display,
    parenthesis, glyph or letter) with one mathematical reading only, which holds."""
    UNCONFIRMED = "unconfirmed"
    """The failing reading is false by a theorem the audit does not check (its negation is
    universal), and no counterexample can confirm it: the entry's verdict is ``undecided``
    and its note names the theorem."""
    EVERY_READING_HOLDS = "every-reading-holds"
    """The display is ill-formed (an unbound or stray symbol), but every reading of it
    holds, as the entry's check shows: no reading is wrong."""


class NotCheckable(Enum):
    """The closed list of reasons why an entry is ``not checkable``
    (``why_not_checkable = "reason: why"`` in the data)."""

    DEFINITION = "definition"
    """A definition, or a set-up naming objects or hypotheses: it asserts no fact (its uses
    are checked against it)."""
    POINTER = "pointer"
    """A heading, an announcement, a transition or a reference to text, proof or figure
    elsewhere."""
    HISTORY = "history"
    """Attribution, citation, title, byline or a remark on the literature."""
    NOTATION = "notation"
    """A name or a notation, or a sentence with no mathematical content (an opinion)."""


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
    role: Role | None = None
    """What the refuted text is (the rubric's input; None for the Python-module seeds)."""
    edge: bool = False
    """The failure is seen only at degenerate parameters: the counterexample lies outside
    the seed's realistic ranges (``Role``'s docstring)."""
    edge_note: str = ""
    """Which parameters of the counterexample are degenerate (empty unless ``edge``)."""

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
    not_erratum: str = ""
    """Why a failure the entry's own notes describe is no erratum: a :class:`NotErratum`
    value, a colon, the reason."""
    not_checkable: NotCheckable | None = None
    """Why a ``not checkable`` entry is so (the closed list); None for the Python-module
    seeds."""

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
