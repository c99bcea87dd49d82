"""Registers the notebook displays of the data classes with :mod:`symbolic.notebook`
(imported by :mod:`derivations.printing`, hence by ``import symbolic``):
``Derivation._repr_latex_``, ``Derivation._repr_markdown_`` and
``DerivationReport._repr_markdown_`` and ``Chain._repr_latex_`` (the kit's chain); and
``str()`` of a report (the text report of ``dpderive check``) and of a step's record."""

from __future__ import annotations

from derivations.printing import evidence  # noqa: F401  (registers the evidence words)
from derivations.printing.latex import DerivationPrinter, display_latex
from derivations.printing.latex.text import latex_text
from derivations.printing.markdown import derivation_markdown, report_markdown
from derivations.printing.summary import step_summary
from derivations.printing.text import format_report
from symbolic.derivation import Derivation
from symbolic.kit import Chain
from symbolic.notebook import register
from symbolic.report import DerivationReport, StepResult

__all__: list[str] = []

register(Derivation, "text/latex", display_latex)
register(Derivation, "text/markdown", derivation_markdown)
register(DerivationReport, "text/markdown", report_markdown)
register(DerivationReport, "text/plain", format_report)
register(
    StepResult,
    "text/plain",
    lambda s: f"step {s.index} [{s.relation}] {s.verdict.value}: {step_summary(s)}",
)


def _chain_latex(c: Chain) -> str:
    p = DerivationPrinter()
    rows = [
        rf"{p._print(c.lhs) if i == 0 else ''} &{s.relation.latex} {p._print(s.expr)} "
        rf"&& \text{{{latex_text(s.justification.text)}}}"
        for i, s in enumerate(c.steps)
    ]
    return "$$\\begin{aligned}\n" + " \\\\\n".join(rows) + "\n\\end{aligned}$$"


register(Chain, "text/latex", _chain_latex)
