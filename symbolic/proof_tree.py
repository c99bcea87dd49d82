"""Typed proof trees: what the rule search proved, rule by rule (issue 42).

Each successful attempt of a rule is a :class:`ProofNode`: the rule family's id (a name of
:data:`symbolic.rule_names.RULE_FAMILIES`), the goal it proved, the subgoals its proof is
made of, the side conditions it discharged (a factor's positivity, a point inside a
function's domain) and the named facts it stated (:data:`symbolic.rules.lemmas.LEMMAS`,
handed to z3).  A step's proof is a :class:`ProofTree`: the relation checked, the nodes at
its top, and what the step's justification rests on (a catalog lemma, a named foundation).

The nodes are built by :mod:`symbolic.rules.registry` on the frames of the search, so a
rule tried and abandoned leaves no node, and a memoised subgoal reuses its subtree.  The
ids of a tree (:meth:`ProofTree.rule_ids`) are exactly ``StepResult.rules``.

>>> leaf = ProofNode("assumptions", "exp(eps) > 0")
>>> top = ProofNode("positive factor", "exp(eps)*x >= 0", (ProofNode("hypothesis", "x >= 0"),),
...                 (leaf,))
>>> tree = ProofTree("exp(eps)*x >= 0", (top,))
>>> sorted(tree.rule_ids())
['assumptions', 'hypothesis', 'positive factor']
>>> [n.rule for n in tree.leaves()]
['hypothesis', 'assumptions']
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sympy as sp

__all__ = ["Goal", "ProofNode", "ProofTree", "printed"]


class Goal:
    """A goal ``expr >= 0`` (``> 0``) as the search holds it, printed only when a proof
    that uses it is kept (printing every subgoal tried would cost more than trying it)."""

    __slots__ = ("expr", "strict")

    def __init__(self, expr: sp.Expr, strict: bool):
        self.expr = expr
        self.strict = strict

    def __str__(self) -> str:
        return f"{self.expr} {'>' if self.strict else '>='} 0"

    def __repr__(self) -> str:
        return f"Goal({self})"


@dataclass(frozen=True)
class ProofNode:
    """One rule applied in a proof, with the proofs it rests on."""

    rule: str
    """The rule family's id (what a step cites as ``by.rule(...)``)."""
    goal: str | Goal = ""
    """What it proved (``exp(eps) - 1 > 0``); empty where the rule's goal is not a single
    relation of the search (a rewrite of a sum, the reductions of the sum rules)."""
    subgoals: tuple[ProofNode, ...] = ()
    """The proofs of the goals it reduced its own to, in the order it found them."""
    side_conditions: tuple[ProofNode, ...] = ()
    """The proofs of what it needed besides (a factor positive, a value in [0, 1])."""
    lemmas: tuple[str, ...] = ()
    """The named facts it stated (``exp tangent``: ``exp(a) >= 1 + a``)."""
    also: tuple[str, ...] = ()
    """Further rule families applied in the same step (``linearity`` with a ``sum
    hypothesis``)."""

    def walk(self) -> Iterator[ProofNode]:
        """This node, then its subgoals' and side conditions' nodes, depth first."""
        yield self
        for child in (*self.subgoals, *self.side_conditions):
            yield from child.walk()

    def ids(self) -> set[str]:
        """The rule ids and named facts of this node alone."""
        return {self.rule, *self.also, *self.lemmas}


@dataclass(frozen=True)
class ProofTree:
    """A step's proof: the relation the search proved, the rules at its top, and what its
    justification rests on beyond the rules."""

    goal: str
    """The link as the search proved it (definitions unfolded, equalities substituted)."""
    proof: tuple[ProofNode, ...] = ()
    """The rule applications at the top (none for a proof by a tactic alone: SymPy's
    ``cancel`` or ``simplify`` reduced the two sides to one)."""
    lemmas: tuple[str, ...] = ()
    """The catalog lemma the step's justification cites (``lemma:kl-bound``)."""
    foundations: tuple[str, ...] = ()
    """The named foundation the justification cites."""

    def walk(self) -> Iterator[ProofNode]:
        for node in self.proof:
            yield from node.walk()

    def leaves(self) -> list[ProofNode]:
        """The nodes with neither subgoals nor side conditions, in the order found."""
        return [n for n in self.walk() if not (n.subgoals or n.side_conditions)]

    def rule_ids(self) -> frozenset[str]:
        """Every rule id and named fact of the tree: ``StepResult.rules`` as a set."""
        return frozenset(i for n in self.walk() for i in n.ids())


def printed(nodes: tuple[ProofNode, ...]) -> tuple[ProofNode, ...]:
    """``nodes`` with their goals printed (the records a report keeps and pickles: SymPy
    objects stay in the search).  A subtree shared by memoised subgoals is printed once."""
    done: dict[int, ProofNode] = {}

    def one(n: ProofNode) -> ProofNode:
        key = id(n)
        if key not in done:
            done[key] = replace(
                n,
                goal=str(n.goal),
                subgoals=tuple(one(c) for c in n.subgoals),
                side_conditions=tuple(one(c) for c in n.side_conditions),
            )
        return done[key]

    return tuple(one(n) for n in nodes)
