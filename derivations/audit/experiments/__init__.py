"""Named experiments behind the seed audit, grouped by topic: finite-distribution search
(:mod:`.finite`), exact computation (:mod:`.exact`).  An audit entry names one with its
parameters (``experiment = "pure-composition"``, ``params = {...}``); the experiment returns
an engine verdict with its scope, never a verdict written by hand.

Verdicts keep the engine's meaning (``shared/DESIGN.md``): ``proved`` only where SymPy
reduced the statement symbolically for every value of its variables, ``checked`` for a
search that found no counterexample (its scope says where it looked), ``refuted`` with the
refuting values in ``point``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from symbolic.errors import InvalidInput
from symbolic.verdicts import Verdict

__all__ = ["Experiment", "Recheck", "Result", "names", "recheck", "register", "run", "topic"]


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

_REGISTRY: dict[str, tuple[str, frozenset[str], Experiment]] = {}
_RECHECK: dict[str, Recheck] = {}


def register(
    name: str, topic: str, params: tuple[str, ...] = (), recheck: Recheck | None = None
) -> Callable[[Experiment], Experiment]:
    """Register ``name`` under ``topic``, accepting the parameters ``params``; ``recheck``
    decides the statement at a witness the experiment printed (for the tests)."""

    def add(f: Experiment) -> Experiment:
        if name in _REGISTRY:
            raise ValueError(f"experiment {name!r} registered twice")
        _REGISTRY[name] = (topic, frozenset(params), f)
        if recheck is not None:
            _RECHECK[name] = recheck
        return f

    return add


def recheck(
    name: str,
    params: Mapping[str, Any],
    witness: Sequence[Sequence[Fraction]],
    point: Mapping[str, Fraction],
) -> bool | None:
    """Decide experiment ``name``'s statement again at a printed witness, from scratch."""
    _load()
    if name not in _RECHECK:
        raise InvalidInput(f"experiment {name!r} prints no witness to recheck")
    return _RECHECK[name](params, witness, point)


def _load() -> None:
    # The topic modules register themselves on import.
    from derivations.audit.experiments import (  # noqa: F401
        exact,
        finite,
        sparse_algebra,
        sparse_exact,
    )


def names() -> dict[str, str]:
    """Experiment name -> its topic."""
    _load()
    return {n: t for n, (t, _, _) in _REGISTRY.items()}


def topic(name: str) -> str:
    return names()[name]


def run(name: str, params: Mapping[str, Any]) -> Result:
    """Run the experiment ``name`` with ``params`` (unknown names and keys are bad input)."""
    _load()
    if name not in _REGISTRY:
        raise InvalidInput(f"unknown experiment {name!r}; known: {sorted(_REGISTRY)}")
    _, allowed, f = _REGISTRY[name]
    unknown = set(params) - allowed
    if unknown:
        raise InvalidInput(f"experiment {name}: unknown parameter(s) {sorted(unknown)}")
    return f(params)
