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

>>> def inner():
...     credit("hypothesis")
...     return "h"
>>> def failing():
...     inner()
...     return None
>>> with frame() as used:
...     _ = attempt("termwise", failing)
...     _ = attempt("triangle inequality", inner)
>>> sorted(used)
['hypothesis', 'triangle inequality']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

__all__ = ["attempt", "credit", "frame"]

T = TypeVar("T")

_FRAMES: list[set[str]] = []
"""The open frames, innermost last (a proof search runs in one thread of one process)."""


def credit(*ids: str) -> None:
    """Count ``ids`` as used by the innermost open attempt (nothing when none is open:
    a rule called outside a recorded search)."""
    if _FRAMES:
        _FRAMES[-1].update(ids)


@contextmanager
def frame() -> Iterator[set[str]]:
    """A frame of its own: the ids credited inside it, not passed on to the frames around
    it (the caller decides whether the attempt succeeded)."""
    used: set[str] = set()
    _FRAMES.append(used)
    try:
        yield used
    finally:
        _FRAMES.pop()


def attempt(rule_id: str | None, run: Callable[..., T | None], *args: object) -> T | None:
    """``run(*args)`` in a frame of its own; on success (a result that is not None) its
    credits, and ``rule_id`` when given, pass to the enclosing frame."""
    with frame() as used:
        result = run(*args)
    if result is not None:
        credit(*used, *((rule_id,) if rule_id else ()))
    return result
