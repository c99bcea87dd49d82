"""Plain-text renderers: the reports of ``dpderive check``, ``claim`` and ``list``."""

from __future__ import annotations

from collections.abc import Sequence

from symbolic.derivation import Derivation
from symbolic.printing.wording import (
    erratum_state,
    oracle_state,
    scope_text,
    scoped_headline,
    verdict_word,
)
from symbolic.report import DerivationReport, StepResult
from symbolic.scope import Scope
from symbolic.verdicts import Verdict

__all__ = ["catalog_listing", "claim_text", "format_report", "proof_text", "summary"]


def format_report(r: DerivationReport) -> str:
    """A derivation's report as text: one line per step with its verdict and evidence."""
    lines = [f"{r.id}: {scoped_headline(r.verdict, r.scope, r.scope_note)}  {r.title}"]
    lines.append(f"  source: {r.source}")
    if r.scope:
        lines.append(f"  scope: {scope_text(r.scope, r.scope_note)}")
    if r.erratum:
        lines.append(f"  erratum ({erratum_state(r.as_expected)}): {r.erratum}")
    for s in r.steps:
        lines.append(f"  step {s.index} [{s.relation}] {verdict_word(s.verdict)}: {s.evidence}")
        if s.basis:
            lines.append(f"    {s.basis}")
    c = r.conclusion
    lines.append(f"  conclusion: {verdict_word(c.verdict)}: {c.evidence}")
    o = r.oracle
    if o:
        lines.append(f"  oracle {o.name}: {oracle_state(o.agrees)}: {o.detail}")
        if o.counterexample:
            lines.append(f"    at {o.counterexample}")
        if o.closest:
            lines.append(f"    closest to failing: {o.closest}")
    lines += [f"  note: {n}" for n in r.notes]
    return "\n".join(lines) + "\n\n"


_SCOPED = (Verdict.PROVED, Verdict.CERTIFIED)
"""The verdicts whose count the summary splits by scope: what they show, they show in
general or for an instance only."""


def summary(reports: Sequence[DerivationReport]) -> str:
    """One line counting the verdicts of ``reports`` (and the errata among them); proved and
    certified counts say how many hold in general and how many for an instance.

    Counts: "23 proved (15 in general, 8 for an instance)"."""
    counts: dict[str, int] = {}
    for r in reports:
        word = verdict_word(r.verdict)
        counts[word] = counts.get(word, 0) + 1
    errata = sum(1 for r in reports if r.erratum)
    text = ", ".join(
        f"{n} {v}" + _scope_split([r for r in reports if verdict_word(r.verdict) == v])
        for v, n in sorted(counts.items())
    )
    return (
        f"{len(reports)} derivation(s): {text}"
        + (f" ({errata} erratum/errata expected refuted)" if errata else "")
        + "\n"
    )


def _scope_split(reports: Sequence[DerivationReport]) -> str:
    """`` (15 in general, 8 for an instance)`` for reports of one scoped verdict."""
    if not reports or reports[0].verdict not in _SCOPED or not any(r.scope for r in reports):
        return ""
    general = sum(1 for r in reports if r.scope == "general")
    instance = sum(1 for r in reports if r.scope == "instance")
    parts = [f"{general} in general"] if general else []
    parts += [f"{instance} for an instance"] if instance else []
    return f" ({', '.join(parts)})"


def claim_text(d: Derivation, result: StepResult, scope: Scope | None = None) -> str:
    """The text report of ``dpderive claim``: the claim, its verdict (and what it covers)
    and the evidence."""
    lines = [f"claim: {d.claim}"]
    if d.title and d.title != d.statement and not d.title.startswith("claim from "):
        lines.append(f"title: {d.title}")
    if d.source.work != "claim file":
        lines.append(f"source: {d.source}")
    if d.statement:
        lines.append(f"statement: {d.statement}")
    lines.append(f"verdict: {verdict_word(result.verdict)}")
    if scope is not None:
        lines.append(f"scope: {scope_text(scope.scope, scope.note)}")
    lines.append(f"evidence: {result.evidence}")
    return "\n".join(lines) + "\n"


def catalog_listing(derivations: Sequence[Derivation]) -> str:
    """``dpderive list``: one line per derivation, id, title, source, errata marked."""
    width = max((len(d.id) for d in derivations), default=0)
    lines = [
        f"{d.id:<{width}}  {d.title}  ({d.source})" + ("  [erratum]" if d.erratum else "")
        for d in derivations
    ]
    return "".join(line + "\n" for line in lines)


def proof_text(d: Derivation, r: DerivationReport) -> str:
    """The report of ``dpderive verify``: the chain as written, a verdict per step, and the
    first failing step marked with its counterexample (both sides' values)."""
    lines = [f"{r.title}: {scoped_headline(r.verdict, r.scope, r.scope_note)}"]
    if r.scope:
        lines.append(f"  scope: {scope_text(r.scope, r.scope_note)}")
    lines.append(f"  claim: {d.claim}")
    first = r.first_failure
    for (left, rel, right, why), s in zip(d.links(), r.steps, strict=True):
        mark = ">>" if s.index == first else "  "
        lines.append(f"{mark}step {s.index}: {left}")
        lines.append(f"      {rel.value} {right}")
        if why.text:
            lines.append(f"      why: {why.text}")
        lines.append(f"      {verdict_word(s.verdict)}: {s.evidence}")
        if s.basis:
            lines.append(f"      {s.basis}")
        if s.index == first and s.counterexample is not None:
            cex = s.counterexample
            point = ", ".join(f"{k} = {v}" for k, v in cex.point.items())
            lines.append(f"      FIRST WRONG STEP: at {point}")
            lines.append(f"        left side  = {cex.lhs}")
            lines.append(f"        right side = {cex.rhs}")
    c = r.conclusion
    lines.append(f"  conclusion: {verdict_word(c.verdict)}: {c.evidence}")
    lines += [f"  note: {n}" for n in r.notes]
    return "\n".join(lines) + "\n"
