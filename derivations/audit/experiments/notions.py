"""Claims that one privacy notion protects better than another (issue 44): checked for
whether the two notions define the same class of mechanisms.  "g-DP protects better than
f-DP" would be shown by a mechanism that is f-DP and not g-DP; when the search finds none,
the two classes may coincide, which a finite search cannot confirm: the verdict is then
``undecided``, with the search's coverage as evidence, never ``refuted`` or ``checked``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from derivations.audit.experiments.base import REGISTRY, Result, register
from symbolic.verdicts import Verdict

__all__ = ["notion_better"]


@register("fs-protects-better", "finite-distribution search", ("outcomes", "draws"))
def notion_better(params: Mapping[str, Any]) -> Result:
    """'f^S-DP protects better than f-DP': a mechanism f-DP (both orders of a pair of
    neighbours, the seed's symmetric neighbour relation) that is not f^S-DP would show it;
    the search is that of ``fdp-symmetrization``."""
    _, _, search = REGISTRY["fdp-symmetrization"]
    found = search(dict(params))
    if found.verdict is Verdict.REFUTED:
        return Result(
            Verdict.CHECKED,
            found.scope,
            f"an f-DP pair that is not f^S-DP, so f^S-DP is the stronger notion: {found.evidence}",
        )
    return Result(
        Verdict.UNDECIDED,
        found.scope,
        "no mechanism that is f-DP and not f^S-DP was found, so the search cannot show that "
        "f^S-DP protects better; that the two notions define the same class (every f-DP "
        "mechanism is f^S-DP, Dong, Roth & Su 2019, Proposition 2.4) is a universal statement "
        f"no search confirms.  The search: {found.evidence}",
    )
