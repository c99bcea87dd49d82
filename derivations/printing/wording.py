"""One wording for each verdict and each state, shared by every renderer (text, Markdown,
LaTeX, the teaching view): a reader sees the same word for the same thing everywhere.

>>> verdict_word(Verdict.PROVED), headline(Verdict.REFUTED)
('proved', 'REFUTED')
>>> [oracle_state(a) for a in (True, False, None)]
['agrees', 'DISAGREES', 'undecided']
>>> erratum_state(False)
'NOT refuted (unexpected)'
"""

from __future__ import annotations

from symbolic.verdicts import Verdict

__all__ = [
    "NOT_CHECKED",
    "VERDICT_MEANING",
    "accuracy_state",
    "erratum_state",
    "headline",
    "nearest_to_failing",
    "oracle_state",
    "scope_text",
    "scoped_headline",
    "verdict_glossary",
    "verdict_word",
]

NOT_CHECKED = "not checked"
"""In place of a verdict when no check was run."""

VERDICT_MEANING = {
    Verdict.PROVED: "symbolically or by checked rules",
    Verdict.CERTIFIED: "rigorous interval arithmetic on a stated box",
    Verdict.CHECKED: "numeric sampling only",
    Verdict.REFUTED: "with a counterexample",
    Verdict.UNDECIDED: "",
}
"""What each verdict rests on, in a few words (the glossary of a document)."""

_ORACLE_STATE = {True: "agrees", False: "DISAGREES", None: "undecided"}
_ERRATUM_STATE = {True: "refuted as expected", False: "NOT refuted (unexpected)"}
_ACCURACY_STATE = {True: "within beta", False: "EXCEEDS beta", None: "undecided"}


def verdict_word(verdict: Verdict) -> str:
    """The verdict as one lower-case word (also its JSON value)."""
    return verdict.value


def headline(verdict: Verdict) -> str:
    """The verdict shouted, for the first line of a report."""
    return verdict.value.upper()


def scope_text(scope: str, note: str) -> str:
    """What a verdict covers, as one phrase (empty when no scope was computed).

    A verdict resting on a certificate short of the domain is scoped by its box: "on the
    box ..." says so, where "for an instance" read as "at one point" (issue 43).

    >>> scope_text("instance", "for n = 3 outcomes only")
    'at the instance n = 3 outcomes only'
    >>> scope_text("instance", "on the box eps in [1e-06, 5]")
    'on the box eps in [1e-06, 5]'
    >>> scope_text("general", "for all eps > 0")
    'in general: for all eps > 0'
    """
    if not scope:
        return ""
    if scope != "instance":
        return f"in general: {note}" if note else "in general"
    if not note:
        return "at an instance"
    if note.startswith("on the box") or note.startswith("on a box"):
        return note
    return "at the instance " + note.removeprefix("for ")


def scoped_headline(verdict: Verdict, scope: str, note: str) -> str:
    """The headline, followed by the instance it covers when it covers only one.

    >>> scoped_headline(Verdict.PROVED, "instance", "for n = 3 outcomes only")
    'PROVED (for n = 3 outcomes only)'
    >>> scoped_headline(Verdict.PROVED, "general", "for all eps > 0")
    'PROVED'
    """
    if scope == "instance":
        return f"{headline(verdict)} ({note or 'at an instance'})"
    return headline(verdict)


def oracle_state(agrees: bool | None) -> str:
    """How an oracle's independent computation relates to the derivation's conclusion."""
    return _ORACLE_STATE[agrees]


def erratum_state(as_expected: bool) -> str:
    """Whether an erratum (a statement expected to be refuted) was refuted."""
    return _ERRATUM_STATE[as_expected]


def accuracy_state(holds: bool | None) -> str:
    """Whether a simulated failure rate stays within beta (``dpderive sparse``)."""
    return _ACCURACY_STATE[holds]


def verdict_glossary() -> str:
    """One sentence naming every verdict with what it rests on.

    >>> verdict_glossary()[:60]
    'Verdicts: proved (symbolically or by checked rules), certifi'
    """
    order = (Verdict.PROVED, Verdict.CERTIFIED, Verdict.CHECKED, Verdict.REFUTED)
    named = [f"{verdict_word(v)} ({VERDICT_MEANING[v]})" for v in order]
    return "Verdicts: " + ", ".join(named) + f", {verdict_word(Verdict.UNDECIDED)}."


def _percent(share: float) -> str:
    """A share as a percentage with three significant digits (``8.58%``, ``1.6e-109%``)."""
    value = abs(share) * 100
    return f"{value:.3g}%"


def nearest_to_failing(margin: float, relation: str, digits: int) -> str:
    """The sampled point nearest to failing, in words.  ``margin`` is the signed gap the
    sampler keeps per point: ``lhs - rhs`` for ``<=``/``<``, ``rhs - lhs`` for ``>=``/``>``
    and ``|lhs - rhs|`` for ``=``, each divided by the larger side, ``max(|lhs|, |rhs|)``
    (positive: the relation fails there); this is its largest value over the points.
    A gap within half the working digits reads as the sides meeting (a tie, or rounding).

    >>> nearest_to_failing(-0.0858, "<=", 50)
    'nearest to failing: lhs is 8.58% below rhs'
    >>> nearest_to_failing(-0.25, ">=", 50)
    'nearest to failing: lhs is 25% above rhs'
    >>> nearest_to_failing(1.6e-111, "<=", 50)
    'nearest to failing: the sides are equal to 25 digits at some point'
    >>> nearest_to_failing(7.2e-43, "=", 50)
    'largest difference between the sides: 7.2e-41% of the larger side'
    >>> nearest_to_failing(0.0, "=", 50)
    'the sides agree at every point to all 50 digits'
    >>> nearest_to_failing(0.5, "<", 50)
    'worst point: lhs is 50% above rhs (the relation fails)'
    """
    if relation == "=":
        if margin == 0:
            return f"the sides agree at every point to all {digits} digits"
        return f"largest difference between the sides: {_percent(margin)} of the larger side"
    if abs(margin) <= 10.0 ** -(digits // 2):
        return f"nearest to failing: the sides are equal to {digits // 2} digits at some point"
    upper = relation in ("<=", "<")
    if margin < 0:
        where = "below" if upper else "above"
        return f"nearest to failing: lhs is {_percent(margin)} {where} rhs"
    where = "above" if upper else "below"
    return f"worst point: lhs is {_percent(margin)} {where} rhs (the relation fails)"
