r"""LaTeX for derivations and reports.

A :class:`DerivationPrinter` is SymPy's ``LatexPrinter`` taught two more types: it prints a
:class:`~symbolic.derivation.Derivation` as a statement with hypotheses and source followed by
an ``align*`` chain with each justification beside its step, and, when given a report, a
verdict badge per step.  Variables print under their readable names (``\varepsilon``,
``\Delta f``, ``f(x)``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import sympy as sp
from sympy.printing.latex import LatexPrinter

from symbolic.derivation import Derivation
from symbolic.report import DerivationReport, StepResult

_TEXT_ESCAPES = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def latex_text(text: str) -> str:
    r"""Plain text for LaTeX text mode: specials escaped, ``<=``/``>=`` as math.

    >>> latex_text("|f(x) - f(y)| <= Delta_f & 5%")
    '|f(x) - f(y)| $\\le$ Delta\\_f \\& 5\\%'
    """
    out = "".join(_TEXT_ESCAPES.get(c, c) for c in text)
    out = out.replace("<=", r"$\le$").replace(">=", r"$\ge$")
    return re.sub(r"(?<![\\$])([<>])", r"$\1$", out)


class DerivationPrinter(LatexPrinter):
    """LaTeX printer for expressions, derivations and reports of dpderive."""

    printmethod = "_latex"

    def __init__(self, names: Mapping[str, str] | None = None):
        self.names = dict(names or {})
        super().__init__({"symbol_names": {}})

    def for_derivation(self, d: Derivation) -> DerivationPrinter:
        names = {v.name: v.latex_name for v in d.variables if v.latex_name}
        names.update(self.names)
        return DerivationPrinter(names)

    def _print_Symbol(self, expr: sp.Symbol, style: str = "plain") -> str:
        if expr.name in self.names:
            return self.names[expr.name]
        return super()._print_Symbol(expr, style=style)

    def _print_Derivation(self, d: Derivation, report: DerivationReport | None = None) -> str:
        p = self.for_derivation(d)
        lines = [
            rf"\paragraph{{{latex_text(d.title)}}} ({latex_text(str(d.source))}; "
            rf"\texttt{{{latex_text(d.id)}}})"
        ]
        if d.erratum:
            lines.append(
                rf"\emph{{Erratum (kept as written, expected to be refuted):}} "
                rf"{latex_text(d.erratum)}"
            )
        if d.statement:
            lines.append(latex_text(d.statement))
        lines.append(r"\begin{itemize}")
        domains = ", ".join(rf"${p._print(v.symbol)} \in {v.domain.latex()}$" for v in d.variables)
        lines.append(rf"\item Variables: {domains}.")
        if d.hypotheses:
            hyps = ", ".join(f"${p._print(h)}$" for h in d.hypotheses)
            lines.append(rf"\item Hypotheses: {hyps}.")
        if d.defs:
            defs = ", ".join(f"${p._print(s)} = {p._print(v)}$" for s, v in d.defs)
            lines.append(rf"\item Definitions: {defs}.")
        claim = (
            rf"{p._print(d.claim.lhs)} {d.claim.relation.latex} "
            rf"{p._print(d.claim.rhs)}"
        )
        lines.append(rf"\item Claim: ${claim}$.")
        lines.append(r"\end{itemize}")
        lines.append(p.chain(d, report))
        return "\n".join(lines)

    def chain(self, d: Derivation, report: DerivationReport | None = None) -> str:
        """The proof as an ``align*`` environment, one link per line."""
        results: dict[int, StepResult] = {s.index: s for s in report.steps} if report else {}
        rows = []
        for i, (left, rel, right, why) in enumerate(d.links(), start=1):
            head = self._print(left) if i == 1 else ""
            note = latex_text(why.text)
            if i in results:
                note += rf" \textbf{{[{results[i].verdict.value}]}}"
            # A parbox keeps long justifications from running off the page.
            rows.append(
                rf"{head} &{rel.latex} {self._print(right)} && "
                rf"\parbox[t]{{5.5cm}}{{\raggedright\small {note}}}"
            )
        body = " \\\\\n".join(rows)
        return "\\begin{align*}\n" + body + "\n\\end{align*}"


PREAMBLE = r"""\documentclass[11pt]{article}
\usepackage[T1]{fontenc}
\usepackage[utf8]{inputenc}
\usepackage{amsmath,amssymb}
\usepackage[margin=2cm]{geometry}
\allowdisplaybreaks
\begin{document}
"""


def derivation_latex(
    d: Derivation, report: DerivationReport | None = None, *, standalone: bool = False
) -> str:
    """LaTeX of one derivation; ``standalone`` wraps it in a complete document."""
    body = DerivationPrinter()._print_Derivation(d, report)
    if standalone:
        return PREAMBLE + body + "\n\\end{document}\n"
    return body + "\n"
