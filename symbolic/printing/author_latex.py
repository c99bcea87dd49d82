"""An author's own reasons for LaTeX text mode: their mathematics kept as mathematics, but
only when it uses commands from a known list, so that a reason can never run LaTeX code."""

from __future__ import annotations

import re

from symbolic.latex_input.vocabulary import GREEK
from symbolic.printing.latex_prose import latex_text, prose_latex

__all__ = ["author_latex"]


_SAFE_COMMANDS = frozenset(
    """
    le leq ge geq ne neq lt gt cdot times div frac tfrac dfrac sqrt sum prod int ln log exp
    max min sup inf lim left right bigl bigr Bigl Bigr mid quad qquad infty partial to mapsto
    in notin subset subseteq supset supseteq cup cap setminus mathrm mathbf mathcal mathbb
    operatorname text textrm Pr Phi lvert rvert lVert rVert lfloor rfloor lceil rceil binom
    approx sim simeq propto pm mp ldots cdots dots prime forall exists sinh cosh tanh erf
    erfc arctan tan sin cos det mathsf displaystyle tilde hat bar overline underline vec
    langle rangle
    """.split()  # noqa: SIM905  (a word list reads better as words)
)
"""Control sequences an author's mathematics may use in a reason that is typeset as
mathematics; a reason with any other (``\\input``, ``\\write``, a macro of their own) is set
as escaped text instead, so that a reason can never run LaTeX code."""


def _safe_math(text: str) -> bool:
    """``text`` uses only known control sequences (and Greek letters) and balanced braces."""
    depth = 0
    for ch in text.replace("\\{", "").replace("\\}", ""):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth < 0:
            return False
    if depth:
        return False
    names = re.findall(r"\\([A-Za-z]+)", text)
    return all(n in _SAFE_COMMANDS or n in GREEK for n in names) and "%" not in text


def author_latex(text: str) -> str:
    r"""A reason as its author wrote it, for LaTeX text mode: their ``$...$`` kept as
    mathematics, and a reason written in mathematics (a LaTeX chain's ``&& \max(p, q) \le 1``
    column) set as mathematics; the rest as prose.  Mathematics with a control sequence
    outside a known list is escaped as text instead (see :data:`_SAFE_COMMANDS`).

    >>> author_latex(r"$e^\varepsilon \ge 1$")
    '$e^\\varepsilon \\ge 1$'
    >>> author_latex(r"\max(p_i, q_i) \le e^{\varepsilon/2} \min(p_i, q_i)")
    '$\\max(p_i, q_i) \\le e^{\\varepsilon/2} \\min(p_i, q_i)$'
    >>> author_latex(r"since $p \le q$ by the hypothesis")
    'since $p \\le q$ by the hypothesis'
    >>> author_latex(r"$\input{/etc/passwd}$")
    '\\$\\textbackslash{}input\\{/etc/passwd\\}\\$'
    >>> author_latex("combine the exponentials")
    'combine the exponentials'
    """
    pieces = re.split(r"(?<!\\)\$", text)
    if len(pieces) > 1 and len(pieces) % 2 == 1:
        if not all(_safe_math(m) for m in pieces[1::2]):
            return latex_text(text)
        return "".join(
            (f"${p}$" if i % 2 else prose_latex(p) if p.strip() else p)
            for i, p in enumerate(pieces)
        )
    if re.search(r"\\[A-Za-z]", text) and "$" not in text:
        return f"${text}$" if _safe_math(text) else latex_text(text)
    return prose_latex(text)
