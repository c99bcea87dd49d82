"""The verdict vocabulary (``shared/DESIGN.md``); its meanings never blur.

* ``proved``: SymPy reduced the step, or checked rules did, under the declared assumptions;
* ``certified``: rigorous interval arithmetic showed the step on its whole domain (a box
  that is the domain, or a box and every region outside it proved);
* ``checked``: numeric sampling only (N points at D digits, N at least 20), no violation
  seen;
* ``refuted``: a point satisfying every hypothesis where the step is false, confirmed;
* ``undecided``: nothing above could decide -- among others, a violation seen and not
  confirmed (a suspect point), which is never ``checked``.

This module imports nothing of ours, so every layer (data, engine, printing) can use it.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum

__all__ = ["Verdict", "weakest"]


class Verdict(Enum):
    PROVED = "proved"
    CERTIFIED = "certified"
    CHECKED = "checked"
    UNDECIDED = "undecided"
    REFUTED = "refuted"

    @property
    def rank(self) -> int:
        """Strength: higher is stronger; ``refuted`` is the weakest of all."""
        return {"proved": 4, "certified": 3, "checked": 2, "undecided": 1, "refuted": 0}[self.value]


def weakest(verdicts: Iterable[Verdict]) -> Verdict:
    """The weakest verdict (refuted anywhere means refuted).

    >>> weakest([Verdict.PROVED, Verdict.CHECKED]).value
    'checked'
    """
    vs = list(verdicts)
    if not vs:
        return Verdict.UNDECIDED
    return min(vs, key=lambda v: v.rank)
