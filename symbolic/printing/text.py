"""Plain-text renderers: the reports of ``dpderive check``, ``claim`` and ``list``."""

from __future__ import annotations

from collections.abc import Sequence

from symbolic.derivation import Derivation
from symbolic.printing.wording import erratum_state, headline, oracle_state, verdict_word
from symbolic.report import DerivationReport, StepResult

__all__ = ["catalog_listing", "claim_text", "format_report", "proof_text", "summary"]


def format_report(r: DerivationReport) -> str:
    """A derivation's report as text: one line per step with its verdict and evidence."""
    lines = [f"{r.id}: {headline(r.verdict)}  {r.title}", f"  source: {r.source}"]
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


def summary(reports: Sequence[DerivationReport]) -> str:
    """One line counting the verdicts of ``reports`` (and the errata among them)."""
    counts: dict[str, int] = {}
    for r in reports:
        word = verdict_word(r.verdict)
        counts[word] = counts.get(word, 0) + 1
    errata = sum(1 for r in reports if r.erratum)
    text = ", ".join(f"{n} {v}" for v, n in sorted(counts.items()))
    return (
        f"{len(reports)} derivation(s): {text}"
        + (f" ({errata} erratum/errata expected refuted)" if errata else "")
        + "\n"
    )


def claim_text(d: Derivation, result: StepResult) -> str:
    """The text report of ``dpderive claim``: the claim, its verdict and the evidence."""
    lines = [f"claim: {d.claim}"]
    if d.statement:
        lines.append(f"statement: {d.statement}")
    lines.append(f"verdict: {verdict_word(result.verdict)}")
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
    lines = [f"{r.title}: {headline(r.verdict)}", f"  claim: {d.claim}"]
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
