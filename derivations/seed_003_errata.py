"""Errata of seed 003 kept as written (each expected to be refuted); the seed audit
(``derivations/audit/seed_003*.py``) points at them.

* ``parallel-composition-substitution-seed``: the seed's Theorem 4 (parallel composition)
  read with the seed's own neighbours, tuples differing in one entry.  Substituting that entry
  can move a record from part D_1 to part D_2, so both mechanisms see a different input; the
  seed's bound e^(max(eps_1, eps_2)) then fails, and the product of the two ratios is only
  bounded by e^(eps_1 + eps_2) (the chain of ``basic-composition``).  With add/remove
  neighbours only one part changes: ``parallel-composition``.
"""

from __future__ import annotations

import sympy as sp

from derivations.display import frac, product
from derivations.sources import SEED_003_NOTES
from symbolic.derivation import Derivation
from symbolic.domains import Domain, Variable, parse_domain
from symbolic.kit import by, chain

__all__ = ["DERIVATIONS", "parallel_composition_substitution_seed"]

FAMILY = "Errata of seed 003"
PROB = Domain(lower=sp.S.Zero, upper=sp.S.One, upper_open=False)


def _variables() -> tuple[Variable, ...]:
    eps = tuple(
        Variable(
            f"eps{i}", parse_domain("(0, oo)"), f"privacy parameter of M_{i}", rf"\varepsilon_{i}"
        )
        for i in (1, 2)
    )
    on_x = tuple(
        Variable(
            f"a{i}", PROB, f"Pr[M_{i}(x ∩ D_{i}) = r_{i}]", rf"\Pr[M_{i}(x \cap D_{i}) = r_{i}]"
        )
        for i in (1, 2)
    )
    on_y = tuple(
        Variable(
            f"b{i}", PROB, f"Pr[M_{i}(y ∩ D_{i}) = r_{i}]", rf"\Pr[M_{i}(y \cap D_{i}) = r_{i}]"
        )
        for i in (1, 2)
    )
    return (*eps, *on_x, *on_y)


def parallel_composition_substitution_seed() -> Derivation:
    """Theorem 4 of seed 003 with the seed's neighbours: an erratum."""
    variables = _variables()
    e1, e2, a1, a2, b1, b2 = (v.symbol for v in variables)
    proof = (
        chain(frac(a1 * a2, b1 * b2))
        .eq(product(frac(a1, b1), frac(a2, b2)), by.algebra("one ratio per part"))
        .le(
            sp.exp(sp.Max(e1, e2)),
            by.cite(
                SEED_003_NOTES.cite("Theorem 4 (parallel)"),
                "the seed's parallel composition: disjoint parts cost only the largest eps_i",
            ),
        )
    )
    return proof.derive(
        id="parallel-composition-substitution-seed",
        title="Parallel composition with substitution neighbours (as the seed states it)",
        source=SEED_003_NOTES.at("Theorem 4 (parallel), with the seed's neighbours", seed="003"),
        statement=(
            "x, y in X^n differ in one entry, whose value moves from part D_1 to part D_2, so "
            "M_1 and M_2 both see different inputs; each M_i is eps_i-DP.  Claimed: "
            "Pr[M(x) = (r_1, r_2)] <= e^(max(eps_1, eps_2)) Pr[M(y) = (r_1, r_2)]."
        ),
        variables=variables,
        hypotheses=(
            sp.LessThan(a1, sp.exp(e1) * b1),
            sp.LessThan(b1, sp.exp(e1) * a1),
            sp.LessThan(a2, sp.exp(e2) * b2),
            sp.LessThan(b2, sp.exp(e2) * a2),
        ),
        erratum=(
            "under the seed's substitution neighbours a record can move between parts, so "
            "both ratios can reach e^eps_i and the product reaches e^(eps_1 + eps_2) > "
            "e^(max eps_i); parallel-composition holds for add/remove neighbours"
        ),
        family=FAMILY,
    )


DERIVATIONS = (parallel_composition_substitution_seed,)
