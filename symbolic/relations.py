"""Relations of a chain and how they compose.

``=`` composes with anything; ``<`` with ``<=`` gives ``<``; a chain that mixes ``<=`` and ``>=``
proves nothing and is ill-formed.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum

import sympy as sp

from symbolic.errors import IllFormedDerivation, InvalidInput


class Relation(Enum):
    EQ = "="
    LE = "<="
    LT = "<"
    GE = ">="
    GT = ">"

    @classmethod
    def parse(cls, text: str) -> Relation:
        """Read ``=``, ``==``, ``<=``, ``<``, ``>=``, ``>``."""
        key = "=" if text.strip() == "==" else text.strip()
        for rel in cls:
            if rel.value == key:
                return rel
        raise InvalidInput(f"relation must be one of = == <= < >= >, got relation={text!r}")

    @property
    def direction(self) -> int:
        """+1 for <=/<, -1 for >=/>, 0 for =."""
        return {"=": 0, "<=": 1, "<": 1, ">=": -1, ">": -1}[self.value]

    @property
    def strict(self) -> bool:
        return self in (Relation.LT, Relation.GT)

    @property
    def latex(self) -> str:
        return {"=": "=", "<=": r"\le", "<": "<", ">=": r"\ge", ">": ">"}[self.value]

    def make(self, lhs: sp.Expr, rhs: sp.Expr) -> sp.Basic:
        """The SymPy relational ``lhs REL rhs`` (unevaluated)."""
        cls = {
            "=": sp.Eq,
            "<=": sp.LessThan,
            "<": sp.StrictLessThan,
            ">=": sp.GreaterThan,
            ">": sp.StrictGreaterThan,
        }[self.value]
        return cls(lhs, rhs, evaluate=False)

    def implies(self, other: Relation) -> bool:
        """Whether ``a self b`` implies ``a other b`` (``<`` implies ``<=``; ``=`` implies both)."""
        if self is other:
            return True
        if self is Relation.EQ:
            return other in (Relation.LE, Relation.GE)
        return (self, other) in ((Relation.LT, Relation.LE), (Relation.GT, Relation.GE))


def compose(relations: Iterable[Relation]) -> Relation:
    """Compose the relations of a chain ``e0 R1 e1 R2 ... en``.

    >>> compose([Relation.EQ, Relation.LE, Relation.LT]).value
    '<'
    """
    rels = list(relations)
    if not rels:
        raise IllFormedDerivation("a chain needs at least one step")
    directions = {r.direction for r in rels} - {0}
    if len(directions) > 1:
        raise IllFormedDerivation("chain mixes <= and >= steps: " + " ".join(r.value for r in rels))
    if not directions:
        return Relation.EQ
    up = directions.pop() == 1
    strict = any(r.strict for r in rels)
    if up:
        return Relation.LT if strict else Relation.LE
    return Relation.GT if strict else Relation.GE
