"""The catalog: every derivation, by id.  One theorem family per module; each module lists
its derivation builders in ``DERIVATIONS``."""

from __future__ import annotations

from functools import cache

from derivations import (
    advanced_composition,
    composition,
    exponential_mechanism,
    gaussian_dp,
    gaussian_mechanism,
    gdp_algebra,
    kl_bound,
    laplace_ratio,
    numeric_sparse,
    seed_002_errata,
    seed_003_errata,
)
from symbolic.derivation import Derivation
from symbolic.errors import IllFormedDerivation, InvalidInput

MODULES = (
    laplace_ratio,
    kl_bound,
    composition,
    advanced_composition,
    numeric_sparse,
    gaussian_dp,
    gaussian_mechanism,
    gdp_algebra,
    exponential_mechanism,
    seed_002_errata,
    seed_003_errata,
)


@cache
def catalog() -> dict[str, Derivation]:
    out: dict[str, Derivation] = {}
    for module in MODULES:
        for build in module.DERIVATIONS:
            d = build()
            if d.id in out:
                raise IllFormedDerivation(f"duplicate derivation id {d.id!r} in {module.__name__}")
            out[d.id] = d
    return out


def get(derivation_id: str) -> Derivation:
    table = catalog()
    if derivation_id not in table:
        raise InvalidInput(
            f"unknown derivation id {derivation_id!r}; known ids: {', '.join(sorted(table))}"
        )
    return table[derivation_id]
