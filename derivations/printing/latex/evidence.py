r"""A verdict's marks in a LaTeX document: its badge, the engine's evidence as text for a
reader, and the footnote of a counterexample (issue 43: a refuted badge looked like a
proved one in print; the evidence showed ASCII eps, z3's atoms and SymPy's ``Abs``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from derivations.printing.atoms import readable_atoms
from derivations.printing.diagnosis import sides_apart
from derivations.printing.latex.prose import GREEK, latex_text
from derivations.printing.summary import step_summary
from derivations.printing.wording import verdict_word
from symbolic.report import Counterexample, StepResult
from symbolic.verdicts import Verdict

__all__ = [
    "counterexample_note",
    "counterexample_words",
    "evidence_latex",
    "evidence_text",
    "step_words",
    "verdict_badge",
]


def evidence_text(text: str) -> str:
    r"""The engine's evidence for text mode: its expressions are SymPy's strings without
    spaces (``_t*eps/(exp(2*eps) - 1)``), so a line may break after ``*``, ``/``, ``(``
    and ``=``.

    >>> evidence_text("H(t) = eps*exp(t)")
    'H(\\allowbreak{}t) =\\allowbreak{} eps*\\allowbreak{}exp(\\allowbreak{}t)'
    """
    # latex_text's output has none of these characters inside its own commands
    return re.sub(r"([*/(=])", r"\1\\allowbreak{}", latex_text(text))


_BADGE = {
    Verdict.PROVED: ("dpproved", r"$\checkmark$"),
    Verdict.CERTIFIED: ("dpcertified", r"$\checkmark$"),
    Verdict.CHECKED: ("dpchecked", r"$\approx$"),
    Verdict.REFUTED: ("dprefuted", r"$\times$"),
    Verdict.UNDECIDED: ("dpundecided", "?"),
}


def verdict_badge(verdict: Verdict) -> str:
    r"""``\dpbadge{dprefuted}{$\times$}{refuted}``: a verdict's colour, symbol and word."""
    colour, symbol = _BADGE[verdict]
    return rf"\dpbadge{{{colour}}}{{{symbol}}}{{{verdict_word(verdict)}}}"


def evidence_latex(text: str, names: Mapping[str, str]) -> str:
    r"""The engine's words for text mode, for a reader: z3's atoms put back as the terms
    they stand for (:func:`~derivations.printing.atoms.readable_atoms`), and the names of the
    variables (``names``: name -> LaTeX) and of Greek letters typeset (``eps`` as
    $\varepsilon$, ``fx`` as the author's $f_x$), where the book printed ASCII eps, beta
    and Delta (issue 43).

    >>> evidence_latex("at eps = 1, fx = 0 -> ok", {"fx": "f_{x}"})
    'at $\\varepsilon$ =\\allowbreak{} 1, $f_{x}$ =\\allowbreak{} 0 $\\to$ ok'
    """
    out = evidence_text(readable_atoms(text)).replace("-$>$", r"$\to$")
    known = dict(GREEK) | {n: latex for n, latex in names.items() if len(n) > 1 and latex}
    words = "|".join(re.escape(n) for n in sorted(known, key=len, reverse=True))
    return re.sub(rf"(?<![\\\w$])({words})(?![\w'$])", lambda m: f"${known[m.group(1)]}$", out)


def counterexample_words(index: int, cex: Counterexample, relation: str) -> str:
    """A footnote's words: where step ``index`` fails, both sides' values and how far apart
    they are (the ratio and the difference, issue 43)."""
    at = ", ".join(f"{k} = {v}" for k, v in cex.point.items())
    apart = sides_apart(cex, relation)
    return (
        f"Step {index} fails at {at}: the left side is {cex.lhs}, the right side {cex.rhs} "
        f"({cex.digits} digits)" + (f"; {apart}" if apart else "") + "."
    )


def counterexample_note(index: int, cex: Counterexample) -> str:
    """A footnote's text: where step ``index`` fails and both sides' values there."""
    at = ", ".join(f"{k} = {v}" for k, v in cex.point.items())
    return (
        rf"Step {index} fails at {latex_text(at)}: the left side is {latex_text(cex.lhs)}, "
        rf"the right side {latex_text(cex.rhs)} ({cex.digits} digits)."
    )


def step_words(s: StepResult, short: bool) -> str:
    """A step's evidence beside its badge: the short line (``short``, a user's handout) or
    all of it, without a leading verdict word, which the badge says already (the book
    printed "proved proved for every length", issue 43).

    >>> from symbolic.report import StepResult
    >>> step_words(StepResult(1, "a", "<=", "b", "", Verdict.PROVED, "proved for every n"), False)
    'for every n'
    """
    text = step_summary(s) if short else s.evidence
    word = verdict_word(s.verdict)
    if text.startswith((word + " ", word + ":")):
        return text[len(word) :].lstrip(" :")
    return text
