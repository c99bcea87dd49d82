"""Running the registered experiments by name (the topic modules register on import)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from derivations.audit.experiments.base import RECHECK, REGISTRY, Result
from symbolic.errors import InvalidInput

__all__ = ["names", "recheck", "run", "topic"]


def recheck(
    name: str,
    params: Mapping[str, Any],
    witness: Sequence[Sequence[Fraction]],
    point: Mapping[str, Fraction],
) -> bool | None:
    """Decide experiment ``name``'s statement again at a printed witness, from scratch."""
    _load()
    if name not in RECHECK:
        raise InvalidInput(f"experiment {name!r} prints no witness to recheck")
    return RECHECK[name](params, witness, point)


def _load() -> None:
    # The topic modules register themselves on import.
    from derivations.audit.experiments import (  # noqa: F401
        composition,
        crossover,
        definitions,
        divergence,
        exact,
        finite,
        gdp,
        mechanisms,
        notions,
        sparse_algebra,
        sparse_exact,
        tradeoff,
    )


def names() -> dict[str, str]:
    """Experiment name -> its topic."""
    _load()
    return {n: t for n, (t, _, _) in REGISTRY.items()}


def topic(name: str) -> str:
    return names()[name]


def run(name: str, params: Mapping[str, Any]) -> Result:
    """Run the experiment ``name`` with ``params`` (unknown names and keys are bad input)."""
    _load()
    if name not in REGISTRY:
        raise InvalidInput(f"unknown experiment {name!r}; known: {sorted(REGISTRY)}")
    _, allowed, f = REGISTRY[name]
    unknown = set(params) - allowed
    if unknown:
        raise InvalidInput(f"experiment {name}: unknown parameter(s) {sorted(unknown)}")
    return f(params)
