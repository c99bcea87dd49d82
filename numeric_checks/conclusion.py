"""A theorem's conclusion when its chain shows it: the verdict and the record that says so.

The chain's relations compose to the claim's (checked when the derivation is built), so the
conclusion is as strong as the chain's weakest link.  Its own check (sampling, with no
proof attempted once the chain is proved) is kept as a cross-check, without the "why not
proved" that a ``checked`` step carries: said of a proved conclusion it would contradict
the verdict (issue 29)."""

from __future__ import annotations

import dataclasses

from symbolic.evidence import Chain, words
from symbolic.report import Route, StepResult
from symbolic.verdicts import Verdict

__all__ = ["EngineInconsistency", "follows_from_chain"]

CHAIN = "text/x-chain"
"""How the chain shows the claim, in words (a format the printing layer registers)."""


class EngineInconsistency(RuntimeError):
    """Two routes of the engine decided the same thing the opposite ways: the rules proved a
    link that a rigorously confirmed counterexample refutes, two rigorous referees disagree
    on a point, a chain that shows the claim and a confirmed counterexample to the claim.
    One of the two is a bug of dpderive (the CLI reports it as an internal error, exit 4,
    both shown)."""


_SHOWN = (Verdict.PROVED, Verdict.CERTIFIED)
"""The chain's verdicts that show the claim (every step proved, or certified)."""


def follows_from_chain(conclusion: StepResult, chain: Verdict) -> StepResult:
    """``conclusion`` raised to the chain's verdict when the chain shows more than the
    conclusion's own check; unchanged otherwise.

    The chain and the conclusion's own check are two routes to the claim: a chain that
    shows it (every step proved, or certified on the whole domain) and a confirmed
    counterexample to it cannot both be right (:class:`EngineInconsistency`).  A suspect
    point of the conclusion's own check (a violation seen, not confirmed) is only outranked
    by a proof: a chain merely ``checked`` leaves the conclusion ``undecided``."""
    if conclusion.verdict is Verdict.REFUTED and chain in _SHOWN:
        raise EngineInconsistency(
            f"the chain shows the claim ({words(Chain(chain, ''), CHAIN)}), but the "
            f"conclusion checked on its own is refuted: {conclusion.evidence}"
        )
    if conclusion.verdict is Verdict.REFUTED or chain.rank <= conclusion.verdict.rank:
        return conclusion
    if conclusion.doubt is not None and chain is not Verdict.PROVED:
        return conclusion
    own = conclusion.decision if conclusion.decision is not None else conclusion.said
    return dataclasses.replace(
        conclusion,
        verdict=chain,
        said=Chain(chain, own, conclusion.said),
        route=Route.CHAIN,
        obstacle=None,  # the chain proves what the conclusion's own check did not
    )
