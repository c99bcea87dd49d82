"""Which rule families a proof used, recorded by id while the search runs.

A step may cite a rule (``by.rule("convexity")``); the report says whether the proof went
through it.  That used to be decided by looking for the cited name in the proof's trace,
which failed whenever a rule's trace words differ from its family's name (the chord rule
writes "concave on [a, b]: above its chord", so a step citing ``convexity`` and proved by
it read "proved another way", issue 42).  Now every rule family has one id, the name of
:data:`symbolic.rule_names.RULE_FAMILIES` a step cites, and the search credits the ids of
the rules whose results the final proof is made of.

Credits follow the search's own structure: each attempt of a rule runs in a *frame*; the
subgoals it proves credit their rules to that frame; when the attempt succeeds the frame's
ids and the rule's own id pass to the frame around it, and when it fails they are dropped.
So a rule tried and abandoned is never counted, however much of its subgoals it proved.

On the same frames the search builds the proof's tree (:mod:`symbolic.proof_tree`): a
frame collects the nodes of the subgoals proved inside it, the nodes of the side
conditions it discharged, and the ids its rule credited itself; an attempt that succeeds
becomes one node holding them, one that fails leaves nothing.  An attempt with no id of its
own that credits none (a dispatcher trying rules in turn) passes its nodes up unchanged.

>>> def inner():
...     return attempt("hypothesis", lambda: "h")
>>> def failing():
...     inner()
...     return None
>>> with frame() as used:
...     _ = attempt("termwise", failing)
...     _ = attempt("triangle inequality", inner)
>>> sorted(used.ids())
['hypothesis', 'triangle inequality']
>>> [(n.rule, [c.rule for c in n.subgoals]) for n in close(used).nodes]
[('triangle inequality', ['hypothesis'])]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import TypeVar

from symbolic.proof_tree import Goal, ProofNode

__all__ = ["Closed", "Frame", "attempt", "close", "credit", "frame", "pass_up", "side_condition"]

T = TypeVar("T")


class Frame:
    """What one attempt has shown so far: the ids its rule credited itself (``own``), the
    named facts it stated, and the nodes of the subgoals and side conditions it proved."""

    __slots__ = ("lemmas", "nodes", "own", "side")

    def __init__(self) -> None:
        self.own: list[str] = []
        self.lemmas: list[str] = []
        self.nodes: list[ProofNode] = []
        self.side: list[ProofNode] = []

    def ids(self) -> set[str]:
        """Every rule id and named fact credited in this frame, its nodes' included."""
        found = {*self.own, *self.lemmas}
        for node in (*self.nodes, *self.side):
            for n in node.walk():
                found |= n.ids()
        return found


_FRAMES: list[Frame] = []
"""The open frames, innermost last (a proof search runs in one thread of one process)."""


def credit(*ids: str, lemmas: Sequence[str] = ()) -> None:
    """Count ``ids`` as the rules the innermost open attempt applied, and ``lemmas`` as the
    named facts it stated (nothing when no attempt is open: a rule called outside a
    recorded search)."""
    if _FRAMES:
        _FRAMES[-1].own.extend(ids)
        _FRAMES[-1].lemmas.extend(lemmas)


@dataclass(frozen=True)
class Closed:
    """What a succeeded attempt hands to the attempt around it: proof nodes, the nodes of
    side conditions no rule of its own took, and named facts likewise."""

    nodes: tuple[ProofNode, ...] = ()
    side: tuple[ProofNode, ...] = ()
    lemmas: tuple[str, ...] = ()

    def top(self) -> tuple[ProofNode, ...]:
        """Every node, the side conditions' after the proof's (a proof's top level)."""
        return (*self.nodes, *self.side)


def pass_up(closed: Closed) -> None:
    """Hand a proof to the innermost open attempt: that of a frame its caller closed, or a
    memoised proof used again (its rules are then used again too)."""
    if _FRAMES:
        _FRAMES[-1].nodes.extend(closed.nodes)
        _FRAMES[-1].side.extend(closed.side)
        _FRAMES[-1].lemmas.extend(closed.lemmas)


@contextmanager
def frame() -> Iterator[Frame]:
    """A frame of its own: what is credited inside it is not passed on to the frames
    around it (the caller decides whether the attempt succeeded, see :func:`close`)."""
    used = Frame()
    _FRAMES.append(used)
    try:
        yield used
    finally:
        _FRAMES.pop()


def close(used: Frame, rule_id: str | None = None, goal: str | Goal = "") -> Closed:
    """What a succeeded attempt's frame makes: one node of its rule (``rule_id``, else the
    first id it credited itself) over its subgoals and side conditions; with no rule, its
    nodes as they are (a lone node without a goal takes ``goal``)."""
    own = list(dict.fromkeys([*((rule_id,) if rule_id else ()), *used.own]))
    if own:
        node = ProofNode(
            own[0],
            goal,
            tuple(used.nodes),
            tuple(used.side),
            tuple(dict.fromkeys(used.lemmas)),
            tuple(own[1:]),
        )
        return Closed((node,))
    nodes = tuple(used.nodes)
    if goal != "" and len(nodes) == 1 and nodes[0].goal == "":
        nodes = (replace(nodes[0], goal=goal),)
    return Closed(nodes, tuple(used.side), tuple(used.lemmas))


def attempt(
    rule_id: str | None, run: Callable[..., T | None], *args: object, goal: str | Goal = ""
) -> T | None:
    """``run(*args)`` in a frame of its own; on success (a result that is not None) its
    node, of ``rule_id`` when given, passes to the enclosing frame (see :func:`close`)."""
    with frame() as used:
        result = run(*args)
    if result is not None:
        pass_up(close(used, rule_id, goal))
    return result


def side_condition(run: Callable[..., T | None], *args: object) -> T | None:
    """``run(*args)``, a side condition of the innermost attempt: on success (a result that
    is neither None nor False) its proof's nodes pass up as the attempt's side conditions,
    not its subgoals."""
    with frame() as used:
        result = run(*args)
    if result is not None and result is not False:
        closed = close(used)
        pass_up(Closed(side=closed.top(), lemmas=closed.lemmas))
    return result
