"""Markdown for notebooks: a derivation with its chain as display math, a report as a table
of steps."""

from __future__ import annotations

from derivations.printing.latex import DerivationPrinter
from derivations.printing.summary import step_summary
from derivations.printing.wording import erratum_state, oracle_state, scope_text, verdict_word
from symbolic.derivation import Derivation
from symbolic.report import DerivationReport

__all__ = ["derivation_markdown", "report_markdown"]


def _cell(text: str) -> str:
    r"""``text`` safe inside a table cell.

    >>> _cell("a | b")
    'a \\| b'
    """
    return text.replace("|", "\\|").replace("\n", " ")


def derivation_markdown(d: Derivation) -> str:
    """Markdown with the chain as display math, for notebooks."""
    lines = [f"**{d.title}** ({d.source}; `{d.id}`)", ""]
    if d.erratum:
        lines += [f"*Erratum (expected to be refuted):* {d.erratum}", ""]
    if d.statement:
        lines += [d.statement, ""]
    lines += ["$$", DerivationPrinter().aligned(d), "$$", ""]
    lines += [f"{i}. {why.text}" for i, (*_, why) in enumerate(d.links(), start=1)]
    return "\n".join(lines) + "\n"


def report_markdown(r: DerivationReport) -> str:
    """A report as a Markdown table of steps, for notebooks."""
    lines = [f"**{r.id}**: **{verdict_word(r.verdict)}** ({_cell(r.title)})", ""]
    if r.scope:
        lines += [f"*Scope:* {_cell(scope_text(r.scope, r.scope_note))}", ""]
    if r.erratum:
        lines += [f"*Erratum ({erratum_state(r.as_expected)}):* {_cell(r.erratum)}", ""]
    lines += ["| step | relation | verdict | evidence |", "| --- | --- | --- | --- |"]
    for s in (*r.steps, r.conclusion):
        name = str(s.index) if s.index else "conclusion"
        verdict = verdict_word(s.verdict)
        # The short line: a table cell of 400 characters is unreadable (print(report) or
        # report.steps[i].evidence has all of it).
        lines.append(f"| {name} | `{s.relation}` | {verdict} | {_cell(step_summary(s))} |")
    if r.oracle is not None:
        state = oracle_state(r.oracle.agrees)
        lines += ["", f"Oracle `{r.oracle.name}` {state}: {_cell(r.oracle.detail)}"]
    return "\n".join(lines) + "\n"
