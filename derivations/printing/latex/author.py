"""An author's own reasons for LaTeX text mode: their mathematics kept as mathematics, but
only when every token of it is known (:func:`symbolic.readers.latex.echo.echo`), so that a
reason can never run LaTeX code."""

from __future__ import annotations

import re

from derivations.printing.latex.prose import latex_text, prose_latex
from symbolic.readers.latex.echo import echo

__all__ = ["author_latex", "echoed_source"]


def author_latex(text: str) -> str:
    r"""A reason as its author wrote it, for LaTeX text mode: their ``$...$`` kept as
    mathematics, and a reason written in mathematics (a LaTeX chain's ``&& \max(p, q) \le 1``
    column) set as mathematics; the rest as prose.  Mathematics that :func:`echo` would not
    give back (a control word outside the reader's vocabulary, TeX's ``^^`` notation, a
    ``%``...) makes the whole reason escaped text instead.

    >>> author_latex(r"$e^\varepsilon \ge 1$")
    '$e^\\varepsilon \\ge 1$'
    >>> author_latex(r"\max(p_i, q_i) \le e^{\varepsilon/2} \min(p_i, q_i)")
    '$\\max(p_i, q_i) \\le e^{\\varepsilon/2} \\min(p_i, q_i)$'
    >>> author_latex(r"since $p \le q$ by the hypothesis")
    'since $p \\le q$ by the hypothesis'
    >>> author_latex(r"$\input{/etc/passwd}$")
    '\\$\\textbackslash{}input\\{/etc/passwd\\}\\$'
    >>> author_latex(r"since $^^5cinput{/etc/passwd}$")
    'since \\$\\textasciicircum{}\\textasciicircum{}5cinput\\{/etc/passwd\\}\\$'
    >>> author_latex("combine the exponentials")
    'combine the exponentials'
    """
    pieces = re.split(r"(?<!\\)\$", text)
    if len(pieces) > 1 and len(pieces) % 2 == 1:
        maths = [echo(m).tex for m in pieces[1::2]]
        if any(m is None for m in maths):
            return latex_text(text)
        return "".join(
            (f"${maths[i // 2]}$" if i % 2 else prose_latex(p) if p.strip() else p)
            for i, p in enumerate(pieces)
        )
    if re.search(r"\\[A-Za-z]", text) and "$" not in text:
        math = echo(text).tex
        return f"${math}$" if math is not None else latex_text(text)
    return prose_latex(text)


def echoed_source(source: str) -> tuple[str, str]:
    r"""An author's LaTeX of one expression (a step's side as they wrote it) for a
    document: ``(tex, "")`` when it may be copied, ``("", why not)`` otherwise, in which case
    the printer typesets the parsed expression.

    >>> echoed_source(r"e^{\varepsilon}\label{eq:1}")
    ('e^{\\varepsilon} ', '')
    >>> echoed_source(r"\input{/etc/passwd}")
    ('', "\\input, which is not in the reader's vocabulary")
    """
    if not source:
        return "", ""
    result = echo(source)
    return (result.tex, "") if result.tex is not None else ("", result.problem)
