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

from symbolic.report import nearest_to_failing
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
