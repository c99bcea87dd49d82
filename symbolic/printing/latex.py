r"""LaTeX for derivations and reports (Markdown for notebooks is in
:mod:`symbolic.printing.markdown`).

A :class:`DerivationPrinter` is SymPy's ``LatexPrinter`` taught two more types: it prints a
:class:`~symbolic.derivation.Derivation` as a statement with hypotheses and source followed by
an ``align*`` chain with each justification beside its step, and, when given a report, a
verdict badge per step.  Variables print under their readable names (``\varepsilon``,
``\Delta f``, ``f(x)``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import sympy as sp
from sympy.printing.latex import LatexPrinter

from symbolic.derivation import Derivation
from symbolic.printing.wording import (
    NOT_CHECKED,
    erratum_state,
    oracle_state,
    verdict_glossary,
    verdict_word,
)
from symbolic.report import Counterexample, DerivationReport, OracleResult, StepResult

__all__ = [
    "BOOK_PREAMBLE",
    "PREAMBLE",
    "DerivationPrinter",
    "catalog_book",
    "counterexample_note",
    "derivation_latex",
    "display_latex",
    "latex_text",
    "summary_table",
]

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


_UNICODE = {
    "∩": r"$\cap$",
    "∪": r"$\cup$",
    "≤": r"$\le$",
    "≥": r"$\ge$",
    "ε": r"$\varepsilon$",
    "δ": r"$\delta$",
    "α": r"$\alpha$",
    "β": r"$\beta$",
    "μ": r"$\mu$",
    "∞": r"$\infty$",
    "−": "-",
    "·": r"$\cdot$",
    "×": r"$\times$",
    "→": r"$\to$",
    "√": r"$\surd$",
    "⊆": r"$\subseteq$",
    "∈": r"$\in$",
    "′": "'",
    "…": r"\ldots{}",
    "Σ": r"$\Sigma$",
    "≡": r"$\equiv$",
    "⊥": r"$\bot$",
    "κ": r"$\kappa$",
    "≠": r"$\ne$",
}
_CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]+")


def _char(c: str) -> str:
    if c in _TEXT_ESCAPES:
        return _TEXT_ESCAPES[c]
    if c in _UNICODE:
        return _UNICODE[c]
    if ord(c) > 127:
        return f"[U+{ord(c):04X}]"  # never an input error in pdflatex
    return c


def latex_text(text: str) -> str:
    r"""Plain text for LaTeX text mode: specials escaped, ``<=``/``>=`` as math.

    >>> latex_text("|f(x) - f(y)| <= Delta_f & 5%")
    '|f(x) - f(y)| $\\le$ Delta\\_f \\& 5\\%'
    >>> latex_text("X ∩ D_i")
    'X $\\cap$ D\\_i'
    >>> latex_text("差分隐私 ⊆ √2")
    '[Chinese text] $\\subseteq$ $\\surd$2'
    """
    # pdflatex without CJK fonts cannot set Chinese: a quoted run is marked, not garbled.
    out = "".join(_char(c) for c in _CJK.sub("[Chinese text]", text))
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

    def _print_Derivation(
        self, d: Derivation, report: DerivationReport | None = None, heading: str = "paragraph"
    ) -> str:
        p = self.for_derivation(d)
        lines = [
            rf"\{heading}{{{latex_text(d.title)}}}",
            rf"{latex_text(str(d.source))}; \texttt{{{latex_text(d.id)}}}.",
            "",
        ]
        if d.erratum:
            lines.append(
                rf"\emph{{Erratum (kept as written, expected to be refuted):}} "
                rf"{latex_text(d.erratum)}"
            )
            lines.append("")
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
        if report is not None:
            lines.append(p._print_DerivationReport(report))
        return "\n".join(lines)

    def _print_StepResult(self, s: StepResult) -> str:
        """A step's verdict as a badge, for the chain's margin."""
        return rf"\fbox{{\scriptsize\textsf{{{verdict_word(s.verdict)}}}}}"

    def _print_OracleResult(self, o: OracleResult) -> str:
        state = oracle_state(o.agrees)
        text = rf"\textbf{{Oracle}} \texttt{{{latex_text(o.name)}}} {state}: {latex_text(o.detail)}"
        if o.counterexample:
            at = ", ".join(f"{k} = {v}" for k, v in o.counterexample.items())
            text += rf" (at {latex_text(at)})"
        if o.closest:
            text += rf"; closest to failing: {latex_text(o.closest)}"
        return text + "."

    def _print_DerivationReport(self, r: DerivationReport) -> str:
        """The evidence behind each badge: which tactic or rule, how many points at how many
        digits, which counterexample; then the conclusion and the oracle."""
        items = [
            rf"\item[Step {s.index}] {self._print_StepResult(s)} {latex_text(s.evidence)}"
            for s in r.steps
        ]
        items.append(
            rf"\item[Conclusion] {self._print_StepResult(r.conclusion)} "
            rf"{latex_text(r.conclusion.evidence)}"
        )
        if r.oracle is not None:
            items.append(rf"\item[Oracle] {self._print_OracleResult(r.oracle)}")
        verdict = rf"\textbf{{Verdict: {verdict_word(r.verdict)}}}"
        if r.erratum:
            verdict += f"; an erratum, {erratum_state(r.as_expected)}"
        return (
            verdict + "\n\\begin{description}\\small\n" + "\n".join(items) + "\n\\end{description}"
        )

    def chain(self, d: Derivation, report: DerivationReport | None = None) -> str:
        """The proof as an ``align*`` environment, one link per line.  Where the author wrote
        a step in LaTeX (a proof file), their own text is given back; a refuted step carries
        a footnote with its counterexample (numbered by the step)."""
        results: dict[int, StepResult] = {s.index: s for s in report.steps} if report else {}
        rows, notes = [], []
        for i, (left, rel, right, why) in enumerate(d.links(), start=1):
            step = d.steps[i - 1]
            head = (d.lhs_source or self._print(left)) if i == 1 else ""
            note = latex_text(why.text)
            if i in results:
                note += " " + self._print_StepResult(results[i])
                cex = results[i].counterexample
                if cex is not None:
                    note += rf"\footnotemark[{i}]"
                    notes.append(rf"\footnotetext[{i}]{{{counterexample_note(i, cex)}}}")
            # A parbox keeps long justifications from running off the page.
            rows.append(
                rf"{head} &{rel.latex} {step.source or self._print(right)} && "
                rf"\parbox[t]{{5.5cm}}{{\raggedright\small {note}}}"
            )
        body = " \\\\\n".join(rows)
        return "\\begin{align*}\n" + body + "\n\\end{align*}" + "".join("\n" + n for n in notes)

    def aligned(self, d: Derivation) -> str:
        """The chain as one ``aligned`` math block (for notebooks, where MathJax has no
        text-mode environments)."""
        p = self.for_derivation(d)
        rows = []
        for i, (left, rel, right, _) in enumerate(d.links(), start=1):
            head = p._print(left) if i == 1 else ""
            rows.append(rf"{head} &{rel.latex} {p._print(right)} && \text{{({i})}}")
        return "\\begin{aligned}\n" + " \\\\\n".join(rows) + "\n\\end{aligned}"


PREAMBLE = r"""\documentclass[11pt]{article}
\usepackage[T1]{fontenc}
\usepackage[utf8]{inputenc}
\usepackage{amsmath,amssymb}
\usepackage[margin=2cm]{geometry}
\allowdisplaybreaks
\begin{document}
"""

BOOK_PREAMBLE = r"""\documentclass[11pt]{report}
\usepackage[T1]{fontenc}
\usepackage[utf8]{inputenc}
\usepackage{amsmath,amssymb}
\usepackage[margin=2cm]{geometry}
\allowdisplaybreaks
\title{dpderive: the catalog of derivations}
\author{Generated by dpderive}
\date{}
\begin{document}
\maketitle
\tableofcontents
"""


def counterexample_note(index: int, cex: Counterexample) -> str:
    """A footnote's text: where step ``index`` fails and both sides' values there."""
    at = ", ".join(f"{k} = {v}" for k, v in cex.point.items())
    return (
        rf"Step {index} fails at {latex_text(at)}: the left side is {latex_text(cex.lhs)}, "
        rf"the right side {latex_text(cex.rhs)} ({cex.digits} digits)."
    )


def display_latex(d: Derivation) -> str:
    """The chain as display math, for a notebook (``Derivation._repr_latex_``)."""
    return "$$" + DerivationPrinter().aligned(d) + "$$"


def derivation_latex(
    d: Derivation, report: DerivationReport | None = None, *, standalone: bool = False
) -> str:
    """LaTeX of one derivation; ``standalone`` wraps it in a complete document."""
    body = DerivationPrinter()._print_Derivation(d, report)
    if standalone:
        return PREAMBLE + body + "\n\\end{document}\n"
    return body + "\n"


def summary_table(
    derivations: Sequence[Derivation], reports: Mapping[str, DerivationReport]
) -> str:
    """One row per derivation: id, source, verdict (``not checked`` without a report)."""
    rows = []
    for d in derivations:
        r = reports.get(d.id)
        verdict = verdict_word(r.verdict) if r else NOT_CHECKED
        if d.erratum:
            verdict += " (erratum)"
        rows.append(
            rf"\texttt{{{latex_text(d.id)}}} & {latex_text(d.source.locator)} & {verdict} \\"
        )
    return (
        "\\begin{tabular}{p{6.3cm}p{6.3cm}p{3.2cm}}\n\\hline\n"
        "\\textbf{id} & \\textbf{source} & \\textbf{verdict} \\\\\n\\hline\n"
        + "\n".join(rows)
        + "\n\\hline\n\\end{tabular}"
    )


def catalog_book(
    derivations: Sequence[Derivation],
    reports: Mapping[str, DerivationReport] | None = None,
    *,
    errata: str = "",
) -> str:
    """The whole catalog as one document: a table of contents, a summary table of the
    verdicts, a chapter per theorem family and a section per derivation, then ``errata``
    (the chapter "Errata in the sources", from :func:`symbolic.printing.audit.errata_latex`)."""
    reports = reports or {}
    parts = [
        BOOK_PREAMBLE,
        "\\chapter*{Summary of verdicts}",
        "\\addcontentsline{toc}{chapter}{Summary of verdicts}",
    ]
    parts.append(
        verdict_glossary() + "  An erratum is a statement kept as its source writes it and "
        "expected to be refuted."
    )
    parts.append("\n{\\small\n" + summary_table(derivations, reports) + "\n}")
    families: dict[str, list[Derivation]] = {}
    for d in derivations:
        families.setdefault(d.family or "Other", []).append(d)
    printer = DerivationPrinter()
    for family, members in families.items():
        parts.append(rf"\chapter{{{latex_text(family)}}}")
        for d in members:
            parts.append(printer._print_Derivation(d, reports.get(d.id), heading="section"))
    if errata:
        parts.append(errata)
    parts.append("\\end{document}\n")
    return "\n\n".join(parts)
