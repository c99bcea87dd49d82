"""The teaching view: a proof step by step for a learner.

For each step it says what the step does (rewrites without changing the value, or bounds
from above), why it holds (the justification) and how dpderive checked it (the verdict and
its evidence), so that a reader learns the proof and how much to trust each line.
"""

from __future__ import annotations

from derivations.printing.diagnosis import proof_diagnosis, sides_apart
from derivations.printing.records import reliance
from derivations.printing.terminal import visible
from derivations.printing.text import said
from derivations.printing.wording import oracle_state, scope_text, verdict_word
from symbolic.basis import BASIS_MEANING, NONE, basis_phrase
from symbolic.derivation import Derivation, JustificationKind
from symbolic.relations import Relation, compose
from symbolic.report import DerivationReport
from symbolic.verdicts import Verdict

__all__ = ["explain"]

_WHAT = {
    Relation.EQ: "rewrites the expression without changing its value",
    Relation.LE: "replaces the expression by one at least as large (an upper bound)",
    Relation.LT: "replaces the expression by a strictly larger one",
    Relation.GE: "replaces the expression by one at most as large (a lower bound)",
    Relation.GT: "replaces the expression by a strictly smaller one",
}
_CLAIMED = {
    Relation.EQ: "the same value, rewritten",
    Relation.LE: "an upper bound (an expression at least as large)",
    Relation.LT: "a strictly larger expression",
    Relation.GE: "a lower bound (an expression at most as large)",
    Relation.GT: "a strictly smaller expression",
}
"""What a refuted step set out to do: a lesson never says that a wrong step does it."""

_KIND = {
    JustificationKind.DEFINITION: "by definition",
    JustificationKind.ALGEBRA: "by algebra",
    JustificationKind.RULE: "by a named rule",
    JustificationKind.HYPOTHESIS: "by a hypothesis of the theorem",
    JustificationKind.LEMMA: "by a lemma",
    JustificationKind.CITE: "by a cited result",
    JustificationKind.FOUNDATION: "by a named foundation",
}


def explain(d: Derivation, report: DerivationReport | None = None, verbose: bool = False) -> str:
    """The proof of ``d`` as numbered, plain-text lessons: each step as its author wrote it
    (with its line) beside what was checked; the evidence's short line, or all of it
    (``verbose``)."""
    out = [f"{visible(d.title)}  ({d.id})", f"Source: {visible(str(d.source))}", ""]
    if d.erratum:
        out += [f"ERRATUM (the seed's statement, kept as written): {d.erratum}", ""]
    if d.statement:
        out += ["Statement:", f"  {visible(d.statement)}", ""]
    if d.instance:
        out += [f"Scope: the chain proves an instance of the statement, {d.instance}.", ""]
    out.append("Variables:")
    for v in d.variables:
        meaning = f": {visible(v.meaning)}" if v.meaning else ""
        if v.family is not None:
            index = ", ".join(str(i) for i in v.family.indices)
            where = f"{v.family.range_text()}"
            out.append(f"  {v.name}[{index}] in {v.domain} for {where}{meaning}")
            continue
        out.append(f"  {v.name} in {v.domain}{meaning}")
    if d.hypotheses:
        out.append("Hypotheses:")
        out += [f"  {h}" for h in d.hypotheses]
    if d.defs:
        out.append("Definitions:")
        out += [f"  {s} = {v}" for s, v in d.defs]
    out += ["", f"Claim:  {visible(str(d.claim))}", "", "Proof, step by step:"]
    results = {s.index: s for s in report.steps} if report else {}
    first = report.first_failure if report else None
    if report and (diagnosis := proof_diagnosis(report)):
        out += [f"In short: {diagnosis}.", ""]
    for i, ((left, rel, right, why), step) in enumerate(
        zip(d.links(), d.steps, strict=True), start=1
    ):
        wrong = i in results and results[i].verdict is Verdict.REFUTED
        if i == first:
            out.append(f">>> Step {i} is the first wrong step of this proof. <<<")
        if typed := step.as_typed():
            where = f" (line {step.line})" if step.line else ""
            out.append(f"Step {i}.  As you wrote it{where}:  {visible(typed)}")
            out.append(f"  Checked as:  {left}")
            out.append(f"    {rel.value} {right}")
        else:
            out.append(f"Step {i}.  {left}")
            out.append(f"    {rel.value} {right}")
        rules = f" ({', '.join(why.rules)})" if why.rules else ""
        lemma = f" [lemma {why.lemma}]" if why.lemma else ""
        cited = f" [{visible(why.citation)}]" if why.citation else ""
        cited += f" [foundation {why.foundation}]" if why.foundation else ""
        if wrong:
            # A refuted step does not do what it says and has no reason to hold: the lesson
            # gives the reason as the author's, then where it fails and by how much.
            cex = results[i].counterexample
            out.append(f"  What it claims: {_CLAIMED[rel]}; but the step is wrong.")
            reason = f"{_KIND[why.kind]}{rules}{lemma}{cited}: {visible(why.text)}"
            out.append(f"  The reason given ({reason}) does not hold here.")
            if cex is not None:
                point = ", ".join(f"{k} = {v}" for k, v in cex.point.items()) or "every point"
                apart = sides_apart(cex, rel.value)
                out.append(f"  Where it fails: at {point}" + (f", {apart}." if apart else "."))
        else:
            out.append(f"  What it does: {_WHAT[rel]}.")
            out.append(
                f"  Why it holds {_KIND[why.kind]}{rules}{lemma}{cited}: {visible(why.text)}."
            )
        if i in results:
            r = results[i]
            out.append(f"  How it was checked: {verdict_word(r.verdict)}: {said(r, verbose)}.")
            if r.basis:
                out.append(f"  What it rests on: {visible(r.basis)}.")
        out.append("")
    composed = compose(s.relation for s in d.steps)
    rels = " ".join(s.relation.value for s in d.steps)
    out.append(
        f"Putting it together: the relations {rels} compose to {composed.value}, "
        f"which gives the claim's {d.claim.relation.value}."
    )
    if report:
        out.append(f"Verdict: {verdict_word(report.verdict)} (the weakest step decides).")
        if report.scope:
            out.append(f"Scope: {scope_text(report.scope, report.scope_note)}.")
        if report.basis:
            phrase = visible(basis_phrase(report.basis, report.rests_on) or report.basis)
            out.append(f"Basis: {phrase} ({BASIS_MEANING.get(report.basis, '')}).")
        if report.rests_on:
            what = "It rests on" if report.basis != NONE else "Its chain leans on"
            out.append(f"{what}, transitively:")
            out += [f"  {r.kind} {visible(reliance(r))}" for r in report.rests_on]
        if report.oracle:
            o = report.oracle
            out.append(f"Independent oracle ({o.name}) {oracle_state(o.agrees)}: {o.detail}.")
            out.append(f"  It computes: {o.description}.")
    if d.appendix is not None:
        out += ["", d.appendix()]
    return "\n".join(out) + "\n"
