"""The catalog: every derivation, by id.  One theorem family per module; each module lists
its derivation builders in ``DERIVATIONS``.

Modules are imported lazily: ``dpderive check laplace-ratio`` imports and builds only
:mod:`derivations.laplace_ratio`, not every family (their imports, numpy among them, were
about half of a cold check's start-up).  :data:`HOMES` says where each id lives; it is only
a shortcut: an id it does not list (or lists wrongly) is found by building the whole
catalog, so a derivation added without an entry is still found, just later.
"""

from __future__ import annotations

import importlib
from collections.abc import Container
from functools import cache
from types import ModuleType

from symbolic.derivation import Derivation
from symbolic.errors import IllFormedDerivation, InvalidInput

__all__ = [
    "HEADLINE",
    "HOMES",
    "IDS",
    "MODULE_NAMES",
    "catalog",
    "family_module",
    "get",
    "lookup",
]

# The five headline theorems of the mission (NumericSparse accuracy in both forms).
HEADLINE = (
    "laplace-ratio",
    "kl-bound",
    "advanced-composition",
    "numeric-sparse-accuracy-pure",
    "numeric-sparse-accuracy-approx",
    "gdp-to-dp",
)

MODULE_NAMES = (
    "laplace_ratio",
    "laplace_tail",
    "kl_bound",
    "composition",
    "composition_approx",
    "concentration",
    "approx_decomposition",
    "advanced_composition",
    "numeric_sparse",
    "gaussian_dp",
    "gaussian_mechanism",
    "gdp_algebra",
    "exponential_mechanism",
    "seed_002_errata",
    "seed_003_errata",
)
"""The family modules of :mod:`derivations`, in catalog order."""

HOMES: dict[str, str] = {
    "laplace-ratio": "laplace_ratio",
    "laplace-tail": "laplace_tail",
    "kl-bound": "kl_bound",
    "kl-bound-tight": "kl_bound",
    "kl-tight-below-seed": "kl_bound",
    "gibbs-inequality": "kl_bound",
    "hoeffding-chord": "concentration",
    "hoeffding-lemma": "concentration",
    "azuma-inequality": "concentration",
    "approx-dp-good-part-ratio": "approx_decomposition",
    "approx-dp-good-part-below": "approx_decomposition",
    "approx-dp-good-part-mass": "approx_decomposition",
    "approx-composition-cost": "approx_decomposition",
    "advanced-composition": "advanced_composition",
    "azuma-binomial": "advanced_composition",
    **{
        f"numeric-sparse-{kind}": "numeric_sparse"
        for kind in (
            "privacy-pure",
            "privacy-approx-seed",
            "privacy-approx",
            "accuracy-pure-seed",
            "accuracy-pure",
            "accuracy-approx-seed",
            "accuracy-approx",
            "accuracy-bound-pure",
            "accuracy-bound-approx",
        )
    },
    "above-threshold-accuracy": "numeric_sparse",
    "sparse-accuracy-pure": "numeric_sparse",
    "sparse-accuracy-approx": "numeric_sparse",
    "gdp-to-dp": "gaussian_dp",
    "exponential-mechanism": "exponential_mechanism",
}
"""Derivation id -> its module, for the ids checked alone most often (the headline
theorems); any other id is found through the whole catalog."""


def family_module(name: str) -> ModuleType:
    """The family module ``name`` of :data:`MODULE_NAMES`, imported."""
    return importlib.import_module(f"derivations.{name}")


@cache
def _family(name: str) -> dict[str, Derivation]:
    """The derivations of one family module, by id (built once per process)."""
    out: dict[str, Derivation] = {}
    for build in family_module(name).DERIVATIONS:
        d = build()
        if d.id in out:
            raise IllFormedDerivation(f"duplicate derivation id {d.id!r} in derivations.{name}")
        out[d.id] = d
    return out


@cache
def catalog() -> dict[str, Derivation]:
    """Every derivation, in catalog order (this imports every family module)."""
    out: dict[str, Derivation] = {}
    for name in MODULE_NAMES:
        for d in _family(name).values():
            if d.id in out:
                raise IllFormedDerivation(f"duplicate derivation id {d.id!r} in derivations.{name}")
            out[d.id] = d
    return out


def get(derivation_id: str) -> Derivation:
    home = HOMES.get(derivation_id)
    if home is not None:
        found = _family(home).get(derivation_id)
        if found is not None:
            return found
    table = catalog()
    if derivation_id not in table:
        raise InvalidInput(
            f"unknown derivation id {derivation_id!r}; known ids: {', '.join(sorted(table))}"
        )
    return table[derivation_id]


def lookup(derivation_id: str) -> Derivation | None:
    """The catalog derivation ``derivation_id``, or None when there is none (the lemma
    lookup of :mod:`symbolic.basis`)."""
    try:
        return get(derivation_id)
    except InvalidInput:
        return None


class _Ids(Container[str]):
    """The catalog's ids as a container that builds nothing until asked: ``id in IDS``
    looks the id up (its family module alone when :data:`HOMES` places it)."""

    def __contains__(self, derivation_id: object) -> bool:
        return isinstance(derivation_id, str) and lookup(derivation_id) is not None


IDS: Container[str] = _Ids()
"""What a proof file's ``lemma:ID`` may cite (a proof that cites no lemma builds nothing)."""


def __getattr__(name: str) -> tuple[ModuleType, ...]:
    """``MODULES``, the family modules themselves, imported on first use (PEP 562)."""
    if name == "MODULES":
        return tuple(family_module(n) for n in MODULE_NAMES)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
