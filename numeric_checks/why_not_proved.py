"""What stands between a step and a proof, in the words appended to its evidence."""

from __future__ import annotations

import sympy as sp

from numeric_checks.decide import Records
from numeric_checks.stages import Link, SymbolicProof
from symbolic.functions import NumericFunction
from symbolic.relations import Relation
from symbolic.verdicts import Verdict

__all__ = ["why_not_proved"]


def why_not_proved(
    link: Link, verdict: Verdict, records: Records, proof: SymbolicProof | None = None
) -> str:
    """For a step not proved, what stands between it and a proof (appended to its
    evidence): a side condition the proof needs and the hypotheses do not give (any
    verdict), or for a ``checked`` step why it is neither proved nor certified."""
    if proof is not None and proof.conditional and verdict is not Verdict.PROVED:
        return f"; why not proved: {proof.conditional}"
    if verdict is not Verdict.CHECKED:
        return ""
    atoms = link.lhs.atoms(sp.Function) | link.rhs.atoms(sp.Function)
    opaque = sorted({type(f).__name__ for f in atoms if isinstance(f, NumericFunction)})
    if opaque:
        verb = "is" if len(opaque) == 1 else "are"
        return (
            f"; why not proved: {', '.join(opaque)} {verb} computed numerically, with no "
            "symbolic form the tactics reduce and no Arb enclosure"
        )
    if link.relation is Relation.EQ:
        return (
            "; why not proved: no tactic reduced it, and certification encloses inequalities only"
        )
    if records.certificate is None:
        return "; why not proved: no rule proved it and it was not certified"
    return "; why not proved: no rule proved it and the certificate does not cover the domain"
