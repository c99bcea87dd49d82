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

from derivations.sources import SEED_003_NOTES
from symbolic.derivation import Derivation
from symbolic.domains import REAL, Domain, Variable
from symbolic.kit import by, chain

__all__ = ["DERIVATIONS", "parallel_composition_substitution_seed"]

FAMILY = "Errata of seed 003"
EPS_RANGE = Domain(lower=sp.S.Zero, upper=sp.Integer(5), upper_open=False)


def _variables() -> tuple[Variable, ...]:
    eps = tuple(
        Variable(f"eps{i}", EPS_RANGE, f"privacy parameter of M_{i}", rf"\varepsilon_{i}")
        for i in (1, 2)
    )
    losses = tuple(
        Variable(
            f"L{i}",
            REAL,
            f"privacy loss of M_{i} at r_{i}: "
            f"ln(Pr[M_{i}(x ∩ D_{i}) = r_{i}]/Pr[M_{i}(y ∩ D_{i}) = r_{i}])",
            rf"L_{i}",
        )
        for i in (1, 2)
    )
    return (*eps, *losses)


def parallel_composition_substitution_seed() -> Derivation:
    """Theorem 4 of seed 003 with the seed's neighbours: an erratum."""
    variables = _variables()
    e1, e2, l1, l2 = (v.symbol for v in variables)
    proof = (
        chain(sp.Mul(sp.exp(l1), sp.exp(l2), evaluate=False))
        .eq(
            sp.exp(l1 + l2),
            by.algebra("the pair's probability ratio is the product of the parts' ratios"),
        )
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
        instance="for 2 parts only",
        title="Parallel composition with substitution neighbours (as the seed states it)",
        source=SEED_003_NOTES.at("Theorem 4 (parallel), with the seed's neighbours", seed="003"),
        statement=(
            "x, y in X^n differ in one entry, whose value moves from part D_1 to part D_2, so "
            "M_1 and M_2 both see different inputs; M_i is eps_i-DP, so its privacy loss L_i at "
            "any output obeys |L_i| <= eps_i.  Claimed: Pr[M(x) = (r_1, r_2)] <= "
            "e^(max(eps_1, eps_2)) Pr[M(y) = (r_1, r_2)]."
        ),
        variables=variables,
        hypotheses=(sp.LessThan(sp.Abs(l1), e1), sp.LessThan(sp.Abs(l2), e2)),
        erratum=(
            "under the seed's substitution neighbours a record can move between parts, so "
            "both losses can reach eps_i and the pair's loss reaches eps_1 + eps_2 > "
            "max eps_i; parallel-composition holds for add/remove neighbours"
        ),
        family=FAMILY,
    )


DERIVATIONS = (parallel_composition_substitution_seed,)
