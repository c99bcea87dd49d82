"""What a sampled violation that was not confirmed is: dismissed (an evaluator failure) or a
suspect point, and the words the evidence uses for it (:mod:`numeric_checks.decide`)."""

from __future__ import annotations

from symbolic.report import RefereeRecord

__all__ = ["dismissed", "suspect_note"]


def dismissed(ruling: RefereeRecord | None) -> bool:
    """A rigorous referee showed the relation *holds* at the sampled point (an evaluator
    failure).  Not when its ruling rests on a numeric function valued by its own routine
    with no proved error bound (two unproved evaluations disagreeing settle nothing), nor
    when another route decided the point the other way (``conflict``)."""
    return (
        ruling is not None
        and ruling.confirmed is False
        and not ruling.conflict
        and not ruling.unbounded
    )


def suspect_note(
    where: str, ruling: RefereeRecord | None, evalf: RefereeRecord | None = None
) -> str:
    """What the evidence says of a sampled violation that was not confirmed."""
    if ruling is not None and dismissed(ruling):
        return (
            f"evaluator failure: a sampled violation {where} is not one (the relation "
            f"holds there, shown {ruling.how()}: {ruling.detail})"
        )
    if ruling is not None and ruling.confirmed is False:
        why = (
            f"its re-evaluation {ruling.how()} finds the relation holds there "
            f"({ruling.detail}), which is no proved bound either"
        )
    elif ruling is not None and ruling.detail:
        why = ruling.detail
    else:
        why = "no rigorous referee ran"
    text = f"suspect point {where}: could not be confirmed because {why}"
    if evalf is not None and evalf.confirmed is False:
        text += "; the violation dissolved under SymPy's adaptive-precision evalf"
    return text
