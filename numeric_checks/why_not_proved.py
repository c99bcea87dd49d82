"""What stands between a step and a proof: a record the report's evidence and short line
both read (never cut back out of the evidence's words)."""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from numeric_checks.decide import Records
from numeric_checks.stages import Link, SymbolicProof
from symbolic.functions import NumericFunction
from symbolic.relations import Relation
from symbolic.verdicts import Verdict

__all__ = ["Obstacle", "obstacle"]


@dataclass(frozen=True)
class Obstacle:
    """Why a step is not proved: ``reason`` in full, ``short`` in a few words."""

    reason: str
    short: str = ""

    def __post_init__(self) -> None:
        if not self.short:
            object.__setattr__(self, "short", self.reason)

    def evidence(self) -> str:
        """The words appended to the step's evidence."""
        return f"; why not proved: {self.reason}"


def obstacle(
    link: Link, verdict: Verdict, records: Records, proof: SymbolicProof | None = None
) -> Obstacle | None:
    """For a step not proved, what stands between it and a proof: a side condition the
    proof needs and the hypotheses do not give (any verdict), or for a ``checked`` step why
    it is neither proved nor certified; None otherwise."""
    if proof is not None and proof.conditional and verdict is not Verdict.PROVED:
        return Obstacle(proof.conditional)
    if verdict is not Verdict.CHECKED:
        return None
    atoms = link.lhs.atoms(sp.Function) | link.rhs.atoms(sp.Function)
    opaque = sorted({type(f).__name__ for f in atoms if isinstance(f, NumericFunction)})
    if opaque:
        verb = "is" if len(opaque) == 1 else "are"
        short = f"{', '.join(opaque)} {verb} computed numerically"
        return Obstacle(
            f"{short}, with no symbolic form the tactics reduce and no Arb enclosure", short
        )
    if link.relation is Relation.EQ:
        return Obstacle("no tactic reduced it, and certification encloses inequalities only")
    if records.certificate is None:
        return Obstacle("no rule proved it and it was not certified")
    return Obstacle("no rule proved it and the certificate does not cover the domain")
