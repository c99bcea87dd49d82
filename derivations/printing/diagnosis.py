"""What a checked proof means for its author: the claim and the proof, told apart.

A proof with one wrong step of a true claim is ``refuted`` (the weakest step decides), while
its conclusion, checked on its own, may be proved: a headline REFUTED beside a conclusion
"proved" left the reader to join them (issue 43).  This module words the join: "your claim
holds (proved on its own); step 2 of your proof is wrong: at k = 1 the left side, 2, is
twice the right, 1".  How far off a wrong step is comes from its counterexample's two
values (the ratio of the sides and their difference), so a student sees whether they lost
a factor of two or a rounding.

>>> from symbolic.report import Counterexample
>>> sides_apart(Counterexample({"k": "1"}, "2.0", "1.0", 50), "<=")
'the left side, 2, is twice the right, 1 (a difference of 1)'
>>> sides_apart(Counterexample({}, "0.5", "1", 50), ">=")
'the left side, 0.5, is half the right, 1 (a difference of -0.5)'
"""

from __future__ import annotations

from fractions import Fraction

from derivations.printing.terminal import visible
from symbolic.report import Counterexample, DerivationReport
from symbolic.verdicts import Verdict

__all__ = ["claim_phrase", "proof_diagnosis", "side_value", "sides_apart"]

_NAMED_RATIOS = (
    (2.0, "twice"),
    (3.0, "three times"),
    (4.0, "four times"),
    (10.0, "ten times"),
    (0.5, "half"),
    (1 / 3, "a third of"),
    (0.25, "a quarter of"),
)
"""Ratios a reader names rather than reads: "twice the right", not "2 times"."""


def side_value(text: str) -> float | None:
    """A side's value as the counterexample prints it (``2.7182818284590452354``, ``1/3``,
    ``-0.5``), as a float; None when it is no plain number (``oo``, an interval)."""
    try:
        return float(text)
    except ValueError:
        pass
    try:
        return float(Fraction(text.strip()))
    except (ValueError, ZeroDivisionError):
        return None


def _number(x: float) -> str:
    """Six significant digits, no trailing zeros: enough to see how far apart two sides
    are (the counterexample itself keeps every certain digit)."""
    return f"{x:.6g}"


def _times(ratio: float) -> str:
    for value, word in _NAMED_RATIOS:
        if abs(ratio - value) <= 1e-9 * value:
            return word
    return f"{_number(ratio)} times"


def sides_apart(cex: Counterexample, relation: str) -> str:
    """How far apart the two sides of a wrong step are at its counterexample: their ratio
    (when both are positive or both negative) and their difference; empty when a side is no
    plain number.  ``relation`` is accepted for symmetry with the checker's records (the
    wording is the same whichever way the relation failed)."""
    del relation  # the sides are named, so the sentence reads the same for every relation
    lhs, rhs = side_value(cex.lhs), side_value(cex.rhs)
    if lhs is None or rhs is None:
        return ""
    left, right = _number(lhs), _number(rhs)
    difference = f"a difference of {_number(lhs - rhs)}"
    if rhs != 0 and lhs * rhs > 0:
        return f"the left side, {left}, is {_times(lhs / rhs)} the right, {right} ({difference})"
    return f"the left side is {left} and the right {right} ({difference})"


def claim_phrase(verdict: Verdict) -> str:
    """What the conclusion's own check says about the author's claim, in their words."""
    return {
        Verdict.PROVED: "your claim holds (proved on its own)",
        Verdict.CERTIFIED: "your claim holds (certified on its own)",
        Verdict.CHECKED: "your claim looks true (checked by sampling only, not proved)",
        Verdict.REFUTED: "your claim is false (refuted on its own)",
        Verdict.UNDECIDED: "whether your claim holds is undecided",
    }[verdict]


def proof_diagnosis(r: DerivationReport) -> str:
    """One sentence joining the claim's verdict and the proof's first wrong step: "your
    claim holds (proved on its own); step 2 of your proof is wrong: at eps = 1, ... the
    left side, 2.71828, is 1.64872 times the right, 1.64872 (a difference of 1.07)".
    Empty when no step is refuted (the headline then says it all)."""
    first = r.first_failure
    if first is None:
        return ""
    step = r.steps[first - 1]
    wrong = f"step {first} of your proof is wrong"
    cex = step.counterexample
    if cex is not None:
        point = ", ".join(f"{k} = {v}" for k, v in cex.point.items())
        apart = sides_apart(cex, step.relation)
        where = f"at {point}" if point else "at every point"
        wrong += f": {where}, {apart}" if apart else f": it fails {where}"
    return visible(f"{claim_phrase(r.conclusion.verdict)}; {wrong}")
