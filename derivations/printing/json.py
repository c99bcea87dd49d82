"""JSON renderers: the ``--json`` objects of ``dpderive check``, ``claim`` and ``list``
(public interfaces: fields are added, never renamed or removed).

Records are converted generically (:func:`jsonable`): a dataclass becomes an object of its
fields, an enum its value, recursively, so that a field added to a record appears in the
JSON without touching this module.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any

from derivations.printing.diagnosis import proof_diagnosis
from derivations.printing.summary import step_summary
from symbolic.basis import Basis
from symbolic.derivation import Derivation
from symbolic.report import DerivationReport, StepResult
from symbolic.scope import Scope

__all__ = [
    "catalog_json",
    "claim_json",
    "jsonable",
    "proof_json",
    "report_json",
    "step_json",
]

# The historical key order of a report's object; fields added later follow these.
_REPORT_ORDER = (
    "id",
    "title",
    "source",
    "verdict",
    "erratum",
    "expected_refuted",
    "steps",
    "conclusion",
    "oracle",
    "notes",
)


def jsonable(value: Any) -> Any:
    """``value`` as plain JSON data: dataclasses as objects of their fields (in field
    order), enums as their values, mappings as objects, tuples, lists and sets as arrays,
    anything else that JSON cannot hold as its ``str``.

    >>> from symbolic.verdicts import Verdict
    >>> jsonable({"v": Verdict.PROVED, "box": (1.5, 2)})
    {'v': 'proved', 'box': [1.5, 2]}
    """
    names = getattr(type(value), "JSON", None)
    if names is not None and dataclasses.is_dataclass(value):
        # A record whose words are read from its data (a step's evidence, the sample's
        # nearest point): the JSON keeps its historical fields, in their order.
        return {name: jsonable(getattr(value, name)) for name in names}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: jsonable(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if f.metadata.get("json", True)
        }
    if isinstance(value, Enum):
        return jsonable(value.value)
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((jsonable(v) for v in value), key=str)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def report_json(r: DerivationReport) -> dict[str, Any]:
    """The object of one derivation in ``dpderive check --json``."""
    fields = jsonable(r)
    fields["expected_refuted"] = r.expected_refuted
    # The short line beside the full evidence (added; ``evidence`` keeps all of it).
    for step, record in zip(fields["steps"], r.steps, strict=True):
        step["summary"] = step_summary(record)
    fields["conclusion"]["summary"] = step_summary(r.conclusion)
    ordered = {key: fields.pop(key) for key in _REPORT_ORDER if key in fields}
    return ordered | fields


def proof_json(r: DerivationReport) -> dict[str, Any]:
    """The ``--json`` object of ``dpderive verify``: one element of ``check --json`` plus
    ``first_failure`` (the 1-based index of the first refuted step, or null) and
    ``diagnosis`` (the claim's own verdict and the first wrong step in one sentence, empty
    when no step is refuted)."""
    return report_json(r) | {"first_failure": r.first_failure, "diagnosis": proof_diagnosis(r)}


def step_json(s: StepResult) -> dict[str, Any]:
    """A step's record as JSON (every field of :class:`StepResult`, and ``summary``)."""
    out: dict[str, Any] = jsonable(s)
    out["summary"] = step_summary(s)
    return out


def claim_json(
    statement: str, result: StepResult, scope: Scope | None = None, basis: Basis | None = None
) -> dict[str, Any]:
    """The ``--json`` object of ``dpderive claim`` (``scope`` and ``scope_note`` say what
    the verdict covers, see :mod:`symbolic.scope`; ``basis`` and ``rests_on`` what it rests
    on, see :mod:`symbolic.basis`)."""
    cex = result.counterexample
    scoped = {"scope": scope.scope, "scope_note": scope.note} if scope is not None else {}
    if basis is not None:
        scoped |= {"basis": basis.basis, "rests_on": jsonable(basis.rests_on)}
    return {
        "verdict": jsonable(result.verdict),
        "counterexample": dict(cex.point) if cex else None,
        "lhs_value": cex.lhs if cex else None,
        "rhs_value": cex.rhs if cex else None,
        "points": result.numeric.points if result.numeric else 0,
        "digits": result.numeric.digits if result.numeric else 0,
        "evidence": result.evidence,
        "summary": step_summary(result),
        "symbolic": result.symbolic,
        "suspect": result.suspect,
        "statement": statement,
        "claim": f"{result.lhs} {result.relation} {result.rhs}",
        # What sampling did (issue 40): points tried and not reached, their cost, seconds,
        # the smallest margin and the point nearest to failing, why it stopped.
        "sampling": jsonable(result.numeric) if result.numeric else None,
        # The typed records (issue 42): the rules the proof is made of and the side
        # conditions it needed, the certificate, the referees (method, bits), how the
        # verdict was reached and what stands between the claim and a proof.
        "rules": list(result.rules),
        "side_conditions": jsonable(result.side_conditions),
        "certificate": jsonable(result.certificate),
        "referees": jsonable(result.referees),
        "route": jsonable(result.route),
        "why_not_proved": result.why_not_proved,
        "notes": list(result.notes),
        "cases": jsonable(result.cases),
        # The proof as a tree of rule applications (issue 42): each node's rule id, goal,
        # subgoals, side conditions and named facts; its ids are ``rules``.
        "proof_tree": jsonable(result.proof_tree),
    } | scoped


def catalog_json(derivations: Sequence[Derivation]) -> list[dict[str, Any]]:
    """The rows of ``dpderive list --json``: id, title, source, family, erratum."""
    return [
        {
            "id": d.id,
            "title": d.title,
            "source": str(d.source),
            "family": d.family,
            "erratum": d.erratum,
        }
        for d in derivations
    ]
