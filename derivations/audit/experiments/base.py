"""The experiments' shared vocabulary: what an experiment returns and how one registers
(the topic modules import this; :mod:`derivations.audit.experiments` runs them)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from numeric_checks.dp.finite_search import last_coverage
from symbolic.verdicts import Verdict

__all__ = ["RECHECK", "REGISTRY", "Experiment", "Recheck", "Result", "register", "unrefuted"]


@dataclass(frozen=True)
class Result:
    """What a check found: the verdict, its scope (``general`` or ``instance: ...``), the
    evidence, and for a refutation the values of the seed's parameters at the refuting
    point (checked against the seed's standing conventions)."""

    verdict: Verdict
    scope: str
    evidence: str
    point: Mapping[str, Fraction] = field(default_factory=dict)
    witness: tuple[tuple[Fraction, ...], ...] = ()
    """The refuting distributions (laws on finitely many outcomes), exact."""


Experiment = Callable[[Mapping[str, Any]], Result]
Recheck = Callable[
    [Mapping[str, Any], Sequence[Sequence[Fraction]], Mapping[str, Fraction]], "bool | None"
]
"""Whether the statement holds at a printed witness (params, distributions, point)."""

REGISTRY: dict[str, tuple[str, frozenset[str], Experiment]] = {}
RECHECK: dict[str, Recheck] = {}


def register(
    name: str, topic: str, params: tuple[str, ...] = (), recheck: Recheck | None = None
) -> Callable[[Experiment], Experiment]:
    """Register ``name`` under ``topic``, accepting the parameters ``params``; ``recheck``
    decides the statement at a witness the experiment printed (for the tests)."""

    def add(f: Experiment) -> Experiment:
        if name in REGISTRY:
            raise ValueError(f"experiment {name!r} registered twice")
        REGISTRY[name] = (topic, frozenset(params), f)
        if recheck is not None:
            RECHECK[name] = recheck
        return f

    return add


def unrefuted(name: str, scope: str, evidence: str) -> Result:
    """A finite search's result when it found no counterexample: ``checked``, saying how often
    an implication's premise held; ``undecided`` when no example ever met one (the search
    tested nothing: every example satisfied the implication vacuously)."""
    cov = last_coverage()
    if cov.vacuous:
        return Result(
            Verdict.UNDECIDED,
            scope,
            f"{name}: vacuous search: no premise certainly held in the {cov.implications} "
            "examples that evaluated one, so none tested the conclusion",
        )
    return Result(Verdict.CHECKED, scope, evidence + cov.describe())
