"""Verdicts and report records: what was decided about each step, and on what evidence.

The verdict vocabulary is fixed (``shared/DESIGN.md``); its meanings never blur:

* ``proved``: SymPy reduced the step, or checked rules did, under the declared assumptions;
* ``certified``: rigorous interval arithmetic showed the step on a stated bounded box;
* ``checked``: numeric sampling only (N points at D digits), no counterexample;
* ``refuted``: a point satisfying every hypothesis where the step is false;
* ``undecided``: nothing above could decide.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from symbolic.verdicts import Verdict


@dataclass(frozen=True)
class Counterexample:
    """A point satisfying every hypothesis where a relation fails, with both sides' values."""

    point: Mapping[str, str]
    lhs: str
    rhs: str
    digits: int
    note: str = ""

    def describe(self) -> str:
        where = ", ".join(f"{k} = {v}" for k, v in self.point.items())
        text = f"at {where}: lhs = {self.lhs}, rhs = {self.rhs} ({self.digits} digits)"
        return text + (f"; {self.note}" if self.note else "")


@dataclass(frozen=True)
class NumericEvidence:
    """What the spot check saw: points tried and evaluated, digits, worst margin."""

    points: int
    digits: int
    undefined: int = 0
    worst_margin: str = ""
    seed: int = 0

    def describe(self) -> str:
        text = f"{self.points} points at {self.digits} digits"
        if self.undefined:
            text += f" ({self.undefined} points where a side is undefined were skipped)"
        if self.worst_margin:
            text += f"; closest approach {self.worst_margin}"
        return text


@dataclass(frozen=True)
class StepResult:
    """The checking record of one link of a chain (or of a claim on its own)."""

    index: int
    lhs: str
    relation: str
    rhs: str
    justification: str
    verdict: Verdict
    evidence: str
    symbolic: str | None = None
    numeric: NumericEvidence | None = None
    counterexample: Counterexample | None = None

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["verdict"] = self.verdict.value
        return out


@dataclass(frozen=True)
class OracleResult:
    name: str
    description: str
    agrees: bool | None
    points: int
    detail: str
    counterexample: Mapping[str, str] | None = None
    closest: str | None = None
    """Detail of the agreeing point nearest to failing, when the oracle rates closeness."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class DerivationReport:
    """Everything decided about one derivation."""

    id: str
    title: str
    source: str
    verdict: Verdict
    steps: tuple[StepResult, ...]
    conclusion: StepResult
    oracle: OracleResult | None = None
    erratum: str | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def expected_refuted(self) -> bool:
        return self.erratum is not None

    def _repr_markdown_(self) -> str:
        from symbolic.latex import report_markdown

        return report_markdown(self)

    @property
    def as_expected(self) -> bool:
        """An erratum must be refuted; anything else must not be."""
        if self.expected_refuted:
            return self.verdict is Verdict.REFUTED
        return self.verdict is not Verdict.REFUTED

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "source": self.source,
            "verdict": self.verdict.value,
            "erratum": self.erratum,
            "expected_refuted": self.expected_refuted,
            "steps": [s.to_json() for s in self.steps],
            "conclusion": self.conclusion.to_json(),
            "oracle": self.oracle.to_json() if self.oracle else None,
            "notes": list(self.notes),
        }
