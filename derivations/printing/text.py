"""Plain-text renderers: the reports of ``dpderive check``, ``claim`` and ``list``."""

from __future__ import annotations

from collections.abc import Sequence

from derivations.printing.diagnosis import proof_diagnosis, sides_apart
from derivations.printing.summary import step_summary
from derivations.printing.terminal import visible
from derivations.printing.wording import (
    erratum_state,
    oracle_state,
    scope_text,
    scoped_headline,
    verdict_word,
)
from symbolic.basis import BASES, NONE, Basis, basis_phrase
from symbolic.derivation import Derivation
from symbolic.report import DerivationReport, StepResult
from symbolic.scope import Scope
from symbolic.verdicts import Verdict

__all__ = [
    "as_written",
    "based_headline",
    "catalog_listing",
    "claim_text",
    "format_report",
    "proof_text",
    "said",
    "summary",
]


def based_headline(r: DerivationReport) -> str:
    """The verdict shouted, the instance it covers when it covers one, and what it rests on:
    ``PROVED outright``, ``PROVED from cited results: Azuma 1967 (unchecked)``."""
    # The phrase names what the proof rests on: a user's citation among them.
    phrase = visible(basis_phrase(r.basis, r.rests_on))
    head = scoped_headline(r.verdict, r.scope, r.scope_note)
    return f"{head} {phrase}" if phrase else head


def said(s: StepResult, verbose: bool = False) -> str:
    """A step's evidence as a report prints it: the short line, or all of it (``verbose``)."""
    return s.evidence if verbose else step_summary(s)


def as_written(s: StepResult) -> str:
    r"""The step as its author wrote it, with the line of their file when known:
    ``line 21: &\le e^{|f_x - f_y|/(2b)}``; a step typed in SymPy syntax only where SymPy's
    evaluation changed it on reading (empty otherwise)."""
    if not s.source:
        return ""
    where = f"line {s.line}: " if s.line else ""
    return f"{where}{visible(s.source)}"


def format_report(r: DerivationReport, verbose: bool = False) -> str:
    """A derivation's report as text: one line per step with its verdict and evidence (the
    short line; all of it when ``verbose``), and the step as its author wrote it."""
    lines = [f"{r.id}: {based_headline(r)}  {visible(r.title)}"]
    lines.append(f"  source: {visible(r.source)}")
    if r.scope:
        lines.append(f"  scope: {scope_text(r.scope, r.scope_note)}")
    if r.erratum:
        lines.append(f"  erratum ({erratum_state(r.as_expected)}): {r.erratum}")
    for s in r.steps:
        lines.append(
            f"  step {s.index} [{s.relation}] {verdict_word(s.verdict)}: {said(s, verbose)}"
        )
        if s.source:
            lines.append(f"    as written, {as_written(s)}")
        if s.basis:
            lines.append(f"    {visible(s.basis)}")
    c = r.conclusion
    lines.append(f"  conclusion: {verdict_word(c.verdict)}: {said(c, verbose)}")
    o = r.oracle
    if o:
        lines.append(f"  oracle {o.name}: {oracle_state(o.agrees)}: {o.detail}")
        if o.counterexample:
            lines.append(f"    at {o.counterexample}")
        if o.closest:
            lines.append(f"    closest to failing: {o.closest}")
    lines += [f"  note: {visible(n)}" for n in r.notes]
    return "\n".join(lines) + "\n\n"


_SCOPED = (Verdict.PROVED, Verdict.CERTIFIED)
"""The verdicts whose count the summary splits by scope: what they show, they show in
general or at an instance (or on a box) only."""


def summary(reports: Sequence[DerivationReport]) -> str:
    """One line counting the verdicts of ``reports`` (and the errata among them); proved and
    certified counts say how many hold in general and how many at an instance or on a box.

    Counts: "23 proved (15 in general, 8 at an instance or on a box; 12 outright, 3 from
    foundations, 8 from cited results)"."""
    counts: dict[str, int] = {}
    for r in reports:
        word = verdict_word(r.verdict)
        counts[word] = counts.get(word, 0) + 1
    errata = sum(1 for r in reports if r.erratum)
    text = ", ".join(
        f"{n} {v}" + _splits([r for r in reports if verdict_word(r.verdict) == v])
        for v, n in sorted(counts.items())
    )
    return (
        f"{len(reports)} derivation(s): {text}"
        + (f" ({errata} erratum/errata expected refuted)" if errata else "")
        + "\n"
    )


def _splits(reports: Sequence[DerivationReport]) -> str:
    """`` (15 in general, 8 at an instance or on a box; 12 outright, 11 from cited results)`` for
    reports of one scoped verdict (a proof): how many by scope, how many by basis."""
    if not reports or reports[0].verdict not in _SCOPED:
        return ""
    groups = [g for g in (_scope_split(reports), _basis_split(reports)) if g]
    return f" ({'; '.join(groups)})" if groups else ""


def _scope_split(reports: Sequence[DerivationReport]) -> str:
    if not any(r.scope for r in reports):
        return ""
    general = sum(1 for r in reports if r.scope == "general")
    instance = sum(1 for r in reports if r.scope == "instance")
    parts = [f"{general} in general"] if general else []
    parts += [f"{instance} at an instance or on a box"] if instance else []
    return ", ".join(parts)


def _basis_split(reports: Sequence[DerivationReport]) -> str:
    counts = {b: sum(1 for r in reports if r.basis == b) for b in BASES if b != NONE}
    return ", ".join(f"{n} {b}" for b, n in counts.items() if n)


def claim_text(
    d: Derivation,
    result: StepResult,
    scope: Scope | None = None,
    basis: Basis | None = None,
    *,
    verbose: bool = False,
) -> str:
    """The text report of ``dpderive claim``: the claim, its verdict (what it covers, what
    it rests on) and the evidence: one short line, or all of it with ``verbose``."""
    lines = [f"claim: {visible(str(d.claim))}"]
    if d.title and d.title != d.statement and not d.title.startswith("claim from "):
        lines.append(f"title: {visible(d.title)}")
    if d.source.work != "claim file":
        lines.append(f"source: {visible(str(d.source))}")
    if d.statement:
        lines.append(f"statement: {visible(d.statement)}")
    lines.append(f"verdict: {verdict_word(result.verdict)}")
    if scope is not None:
        lines.append(f"scope: {scope_text(scope.scope, scope.note)}")
    if basis is not None and basis.basis != NONE:
        lines.append(f"basis: {basis.basis}")
    if verbose:
        lines.append(f"evidence: {result.evidence}")
    else:
        # What the check noticed about the hypotheses stays in the short form too.
        notes = list(result.notes)
        lines.append("evidence: " + "; ".join([step_summary(result), *notes]))
    return "\n".join(lines) + "\n"


def catalog_listing(derivations: Sequence[Derivation]) -> str:
    """``dpderive list``: one line per derivation, id, title, source, errata marked."""
    width = max((len(d.id) for d in derivations), default=0)
    lines = [
        f"{d.id:<{width}}  {visible(d.title)}  ({visible(str(d.source))})"
        + ("  [erratum]" if d.erratum else "")
        for d in derivations
    ]
    return "".join(line + "\n" for line in lines)


def proof_text(d: Derivation, r: DerivationReport, verbose: bool = False) -> str:
    """The report of ``dpderive verify``: each step as its author wrote it (with its line in
    their file) beside what was checked, a verdict per step (the short line; all of the
    evidence when ``verbose``), and the first failing step marked with its counterexample
    (both sides' values)."""
    lines = [f"{visible(r.title)}: {based_headline(r)}"]
    # The claim and the proof told apart: a wrong step of a true claim is not a false claim.
    if diagnosis := proof_diagnosis(r):
        lines.append(f"  in short: {diagnosis}")
    if r.scope:
        lines.append(f"  scope: {scope_text(r.scope, r.scope_note)}")
    lines.append(f"  claim: {visible(str(d.claim))}")
    first = r.first_failure
    for (left, rel, right, why), s, step in zip(d.links(), r.steps, d.steps, strict=True):
        mark = ">>" if s.index == first else "  "
        if typed := step.as_typed():
            where = f" (line {step.line})" if step.line else ""
            lines.append(f"{mark}step {s.index}{where}, as written: {visible(typed)}")
            lines.append(f"      checked as: {left}")
        else:
            lines.append(f"{mark}step {s.index}: {left}")
        if s.index == 1 and d.lhs_written:
            lines.append(f"      (its left side as written: {visible(d.lhs_written)})")
        lines.append(f"      {rel.value} {right}")
        if why.text:
            lines.append(f"      why: {visible(why.text)}")
        lines.append(f"      {verdict_word(s.verdict)}: {said(s, verbose)}")
        if s.basis:
            lines.append(f"      {visible(s.basis)}")
        if s.index == first and s.counterexample is not None:
            cex = s.counterexample
            point = ", ".join(f"{k} = {v}" for k, v in cex.point.items())
            lines.append(f"      FIRST WRONG STEP: at {point}")
            lines.append(f"        left side  = {cex.lhs}")
            lines.append(f"        right side = {cex.rhs}")
            if apart := sides_apart(cex, s.relation):
                lines.append(f"        {apart}")
    c = r.conclusion
    lines.append(f"  conclusion: {verdict_word(c.verdict)}: {said(c, verbose)}")
    lines += [f"  note: {visible(n)}" for n in r.notes]
    return "\n".join(lines) + "\n"
