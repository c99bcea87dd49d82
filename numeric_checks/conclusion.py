"""A theorem's conclusion when its chain shows it: the verdict and the words that say so.

The chain's relations compose to the claim's (checked when the derivation is built), so the
conclusion is as strong as the chain's weakest link.  Its own check (sampling, with no
proof attempted once the chain is proved) is kept as a cross-check, without the "why not
proved" that a ``checked`` step carries: said of a proved conclusion it would contradict
the verdict (issue 29)."""

from __future__ import annotations

import dataclasses

from symbolic.report import Route, StepResult
from symbolic.verdicts import Verdict

__all__ = ["EngineInconsistency", "follows_from_chain", "own_check"]


class EngineInconsistency(RuntimeError):
    """Two routes of the engine decided the same thing the opposite ways: the rules proved a
    link that a rigorously confirmed counterexample refutes, two rigorous referees disagree
    on a point, a chain that shows the claim and a confirmed counterexample to the claim.
    One of the two is a bug of dpderive (the CLI reports it as an internal error, exit 4,
    both shown)."""


_HOW = {
    Verdict.PROVED: "every step is proved",
    Verdict.CERTIFIED: "every step is proved or certified",
}


def own_check(decided: str) -> str:
    """What the conclusion's own check found, in the words of its decision (its record's
    ``decided``: the evidence without why it is not proved).

    >>> own_check("numeric only, no counterexample: 9 points at 50 digits")
    'sampled on its own, no counterexample: 9 points at 50 digits'
    >>> own_check("checked at n = 1..4 (49 points or more each)")
    'checked on its own at n = 1..4 (49 points or more each)'
    """
    own = decided
    for prefix, lead in (
        ("numeric only", "sampled on its own"),
        ("checked at ", "checked on its own at "),
    ):
        if own.startswith(prefix):
            return lead + own[len(prefix) :]
    return "on its own: " + own


def follows_from_chain(conclusion: StepResult, chain: Verdict) -> StepResult:
    """``conclusion`` raised to the chain's verdict when the chain shows more than the
    conclusion's own check; unchanged otherwise.

    The chain and the conclusion's own check are two routes to the claim: a chain that
    shows it (every step proved, or certified on the whole domain) and a confirmed
    counterexample to it cannot both be right (:class:`EngineInconsistency`).  A suspect
    point of the conclusion's own check (a violation seen, not confirmed) is only outranked
    by a proof: a chain merely ``checked`` leaves the conclusion ``undecided``."""
    if conclusion.verdict is Verdict.REFUTED and chain in _HOW:
        raise EngineInconsistency(
            f"the chain shows the claim ({_HOW[chain]}), but the conclusion checked on its "
            f"own is refuted: {conclusion.evidence}"
        )
    if conclusion.verdict is Verdict.REFUTED or chain.rank <= conclusion.verdict.rank:
        return conclusion
    if conclusion.suspect and chain is not Verdict.PROVED:
        return conclusion
    how = _HOW.get(chain, f"its weakest step is {chain.value}")
    own = own_check(conclusion.decided or conclusion.evidence)
    return dataclasses.replace(
        conclusion,
        verdict=chain,
        evidence=f"follows from the chain: {how}; also {own}",
        route=Route.CHAIN,
        chain=how,
        head=f"follows from the chain: {how}",
        why_not_proved="",  # the chain proves what the conclusion's own check did not
        why_short="",
    )
