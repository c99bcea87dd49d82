"""What stands between a step and a proof: a record (:class:`symbolic.evidence.Obstacle`)
the report's evidence and short line both word (never cut back out of the evidence's
words)."""

from __future__ import annotations

import sympy as sp

from numeric_checks.decide import Records
from numeric_checks.stages import Link, SymbolicProof
from symbolic.evidence import Obstacle, ObstacleKind
from symbolic.functions import NumericFunction
from symbolic.relations import Relation
from symbolic.verdicts import Verdict

__all__ = ["Obstacle", "obstacle"]


def obstacle(
    link: Link, verdict: Verdict, records: Records, proof: SymbolicProof | None = None
) -> Obstacle | None:
    """For a step not proved, what stands between it and a proof: a side condition the
    proof needs and the hypotheses do not give (any verdict), or for a ``checked`` step why
    it is neither proved nor certified; None otherwise."""
    if proof is not None and proof.conditional and verdict is not Verdict.PROVED:
        return Obstacle(
            ObstacleKind.CONDITIONAL, names=(proof.unmet,), conditional=proof.conditional
        )
    if verdict is not Verdict.CHECKED:
        return None
    atoms = link.lhs.atoms(sp.Function) | link.rhs.atoms(sp.Function)
    opaque = sorted({type(f).__name__ for f in atoms if isinstance(f, NumericFunction)})
    if opaque:
        return Obstacle(ObstacleKind.OPAQUE, names=tuple(opaque))
    if link.relation is Relation.EQ:
        return Obstacle(ObstacleKind.EQUALITY)
    if records.certificate is None:
        return Obstacle(ObstacleKind.NOT_CERTIFIED)
    return Obstacle(ObstacleKind.CERTIFICATE_SHORT)
