"""What the HTML pages show, as plain data for the templates: a derivation with its chain,
each step's evidence, the oracle, the lemmas it rests on and the derivations resting on it.

The templates only lay these records out; every word about a verdict comes from
:mod:`derivations.printing.wording`, so the site says what the text and LaTeX reports say.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

from derivations.catalog import lookup
from derivations.printing.atoms import readable_atoms
from derivations.printing.breaking import math_lines, mathml_em
from derivations.printing.diagnosis import proof_diagnosis
from derivations.printing.latex import DerivationPrinter
from derivations.printing.latex_mathml import Untypeset, latex_pieces
from derivations.printing.mathml import MathPrinter, display_names, math_block, relation_mathml
from derivations.printing.notation import code_names
from derivations.printing.records import certificate, numeric
from derivations.printing.summary import step_summary
from derivations.printing.wording import (
    NOT_CHECKED,
    erratum_state,
    oracle_state,
    scope_text,
    verdict_word,
)
from symbolic.basis import (
    BASIS_MEANING,
    NONE,
    NOT_CHECKED_HERE,
    basis_of,
    basis_phrase,
    used_by,
)
from symbolic.derivation import Derivation, Step
from symbolic.domains import Variable
from symbolic.report import DerivationReport, StepResult
from symbolic.scope import INSTANCE
from symbolic.verdicts import Verdict

__all__ = ["Evidence", "Page", "StepRow", "evidence_of", "page_of", "users_of"]

HEAD_EM = 5.0
"""The widest first left side (in em, :func:`~derivations.printing.breaking.mathml_em`)
that stands beside the chain; the book moves one wider than 30% of its line to a line of
its own, the site one wider than a quarter of its expression column."""

CLAIM_EM = 38.0
"""The width in em of a line of the claim, across the page (at 1.25 em of 16 px, about
760 px: the page's column at 1024 px less its padding and a margin for the estimate)."""

Href = Callable[[str], str | None]
"""A derivation id -> the relative address of its page, or None when it has no page."""


@dataclass(frozen=True)
class Evidence:
    """A step's (or the conclusion's) check, field by field, for the expandable panel."""

    verdict: str
    summary: str
    symbolic: str | None
    basis: str
    numeric: str | None
    certificate: str | None
    box: tuple[tuple[str, str, str], ...]
    counterexample: tuple[tuple[str, str], ...]
    sides: tuple[str, str] | None
    counterexample_note: str
    referees: tuple[str, ...]
    detail: str = ""
    """The full evidence (``summary`` is its short line)."""


@dataclass(frozen=True)
class StepRow:
    """One link of the chain: ``left relation right``, why, and how it was checked."""

    index: int
    left: Markup | None
    relation: Markup
    right: Markup
    why: str
    kind: str
    rules: tuple[str, ...]
    lemma: tuple[str, str | None] | None
    citation: str | None
    evidence: Evidence | None
    foundation: str | None = None
    written: Markup | None = None
    """The step as its author wrote it (relation and right side), typeset from their LaTeX
    (or their SymPy text as code); None for a catalog step."""
    line: int = 0
    """The line of the author's file the step stands on (0 when unknown)."""
    written_note: str = ""
    """Why the author's LaTeX is not typeset (what was checked is shown instead)."""


@dataclass(frozen=True)
class Page:
    """Everything one derivation's page shows."""

    id: str
    title: str
    source: str
    seed: str
    family: str
    statement: str
    erratum: str | None
    verdict: str
    erratum_state: str | None
    variables: tuple[tuple[Markup, str, str, str], ...]
    hypotheses: tuple[Markup, ...]
    defs: tuple[tuple[Markup, Markup], ...]
    claim: Markup
    head: Markup | None
    """The chain's first left side when it is too wide to stand beside the chain (the
    first step's ``left`` is then None)."""
    steps: tuple[StepRow, ...]
    conclusion: Evidence | None
    oracle: dict[str, Any] | None
    lemmas: tuple[tuple[str, str | None], ...]
    used_by: tuple[tuple[str, str | None], ...]
    notes: tuple[str, ...]
    code: str = ""
    code_origin: str = ""
    plots: tuple[tuple[str, str, str], ...] = field(default_factory=tuple)
    scope: str = ""
    """``general`` or ``instance`` (see :mod:`symbolic.scope`); without a check, only a
    derivation's declared instance is known."""
    scope_text: str = ""
    """What the verdict covers, worded for the page."""
    basis: str = ""
    """What the verdict rests on (:mod:`symbolic.basis`); empty without a check."""
    basis_text: str = ""
    """The basis worded for the page (with what makes it so)."""
    basis_meaning: str = ""
    """What the basis means, in a few words."""
    rests_on: tuple[tuple[str, tuple[str, str | None], str], ...] = ()
    """(kind, (ref, href), verdict) of each lemma, foundation and cited result below the
    derivation, transitively."""
    authored: bool = False
    """A user's proof whose steps keep what the author wrote: the chain shows their lines
    (with line numbers) and what was checked beneath, in smaller type."""
    lhs_written: Markup | None = None
    """The chain's first expression as its author wrote it, typeset."""
    diagnosis: str = ""
    """The claim and the proof told apart
    (:func:`derivations.printing.diagnosis.proof_diagnosis`)."""


def evidence_of(s: StepResult) -> Evidence:
    """The evidence panel of one checked step."""
    cert, cex = s.certificate, s.counterexample
    box: tuple[tuple[str, str, str], ...] = ()
    if cert is not None:
        box = tuple((n, f"{lo:.6g}", f"{hi:.6g}") for n, (lo, hi) in cert.box.items())
    # z3's abstraction atoms (_exp0) put back as the terms they stand for (issue 43)
    return Evidence(
        verdict=verdict_word(s.verdict),
        summary=code_names(readable_atoms(step_summary(s))),
        detail=code_names(readable_atoms(s.evidence)),
        symbolic=code_names(readable_atoms(s.symbolic)) if s.symbolic else s.symbolic,
        basis=s.basis,
        numeric=code_names(readable_atoms(numeric(s.numeric))) if s.numeric else None,
        certificate=code_names(readable_atoms(certificate(cert))) if cert else None,
        box=box,
        counterexample=tuple(cex.point.items()) if cex else (),
        sides=(cex.lhs, cex.rhs) if cex else None,
        counterexample_note=(f"{cex.digits} digits" + (f"; {cex.note}" if cex.note else ""))
        if cex
        else "",
        referees=tuple(
            f"{r.kind.value}: "
            + {True: "violation stands", False: "dissolved", None: "could not evaluate"}[
                r.confirmed
            ]
            + (f" ({readable_atoms(r.detail)})" if r.detail else "")
            for r in s.referees
        ),
    )


def users_of(derivations: Sequence[Derivation]) -> dict[str, list[str]]:
    """Lemma id -> the ids of the derivations resting on it, transitively (``by.lemma``,
    through other lemmas)."""
    given = {d.id: d for d in derivations}
    return used_by(derivations, lambda i: given.get(i) or lookup(i))


def _oracle(r: DerivationReport | None) -> dict[str, Any] | None:
    if r is None or r.oracle is None:
        return None
    o = r.oracle
    return {
        "name": o.name,
        "description": o.description,
        "state": oracle_state(o.agrees),
        "agrees": o.agrees,
        "points": o.points,
        "detail": o.detail,
        "counterexample": list((o.counterexample or {}).items()),
        "closest": o.closest,
    }


def page_of(
    d: Derivation,
    report: DerivationReport | None,
    href: Href,
    users: Mapping[str, Sequence[str]],
) -> Page:
    """The page of ``d`` (with its check's verdicts when ``report`` is given)."""
    book = DerivationPrinter().for_derivation(d)
    p = MathPrinter(display_names(d), book)
    results = {s.index: s for s in report.steps} if report else {}
    # A wide first left side gets a row of its own, as the book sets it on a line of its
    # own: beside the chain it would widen the left column of every row.
    wide = mathml_em(p.inner(d.claim.lhs)) > HEAD_EM
    head = math_lines(d.claim.lhs, p, book) if wide else None
    rows = []
    for i, ((left, rel, right, why), step) in enumerate(
        zip(d.links(), d.steps, strict=True), start=1
    ):
        rows.append(
            StepRow(
                index=i,
                left=math_lines(left, p, book, HEAD_EM) if i == 1 and head is None else None,
                relation=math_block(str(relation_mathml(rel))),
                right=math_lines(right, p, book),
                why=why.text,
                kind=why.kind.value,
                rules=why.rules,
                lemma=(why.lemma, href(why.lemma)) if why.lemma else None,
                citation=why.citation,
                foundation=why.foundation,
                evidence=evidence_of(results[i]) if i in results else None,
                **_as_written(step),
            )
        )
    lemmas = tuple(dict.fromkeys(s.justification.lemma for s in d.steps if s.justification.lemma))
    rests_on, basis, basis_text = _basis(d, report, href)
    meaning = BASIS_MEANING.get(basis, "") if basis else ""
    scope = _scope(d, report)
    return Page(
        id=d.id,
        title=d.title,
        source=str(d.source),
        seed=d.source.seed,
        family=d.family or "Other",
        statement=d.statement,
        erratum=d.erratum,
        verdict=verdict_word(report.verdict) if report else NOT_CHECKED,
        erratum_state=erratum_state(report.as_expected) if report and d.erratum else None,
        variables=tuple(
            (math_block(p.inner(v.symbol)), v.name, _domain_text(v), v.meaning) for v in d.variables
        ),
        hypotheses=tuple(math_block(p.inner(h)) for h in d.hypotheses),
        defs=tuple((math_block(p.inner(s)), math_block(p.inner(v))) for s, v in d.defs),
        claim=math_lines(
            d.claim.lhs, p, book, CLAIM_EM, (str(relation_mathml(d.claim.relation)), d.claim.rhs)
        ),
        head=head,
        steps=tuple(rows),
        conclusion=evidence_of(report.conclusion) if report else None,
        oracle=_oracle(report),
        lemmas=tuple((lemma, href(lemma)) for lemma in lemmas if lemma),
        used_by=tuple((u, href(u)) for u in users.get(d.id, ())),
        notes=tuple(code_names(n) for n in report.notes) if report else (),
        scope=scope[0],
        scope_text=scope[1],
        basis=basis,
        basis_text=basis_text,
        basis_meaning=meaning,
        rests_on=rests_on,
        authored=any(s.source or s.written or s.line for s in d.steps),
        lhs_written=_typeset_written(d.lhs_source, d.lhs_written)[0],
        diagnosis=proof_diagnosis(report) if report else "",
    )


def _typeset_written(latex: str, sympy_text: str) -> tuple[Markup | None, str]:
    """What an author wrote, for the page: their LaTeX typeset as written (pieces that wrap,
    :func:`~derivations.printing.latex_mathml.latex_pieces`), their SymPy text as code, or
    None with the reason when their LaTeX is outside what the site typesets."""
    if latex:
        try:
            pieces = latex_pieces(latex)
        except Untypeset as exc:
            return None, f"your LaTeX is shown as checked ({exc} is not typeset here)"
        return Markup(" ".join(str(math_block(p)) for p in pieces)), ""
    if sympy_text:
        return Markup("<code>%s</code>") % sympy_text, ""
    return None, ""


def _as_written(step: Step) -> dict[str, Any]:
    """The StepRow fields of what the author wrote at ``step`` (its right side: the
    relation has its own column)."""
    written, note = _typeset_written(step.source, step.written)
    return {"written": written, "line": step.line, "written_note": note}


def _basis(
    d: Derivation, report: DerivationReport | None, href: Href
) -> tuple[tuple[tuple[str, tuple[str, str | None], str], ...], str, str]:
    """What the page lists under "rests on", the basis and its wording: the check's, or
    without one what the chain cites (lemmas "not checked")."""
    if report is not None and report.basis:
        relied, basis = report.rests_on, report.basis
    else:
        relied = basis_of(d, Verdict.UNDECIDED, lookup, lambda _: None).rests_on
        basis = ""
    rows = tuple(
        (
            r.kind,
            (r.ref, _reference(r.kind, r.ref, href)),
            NOT_CHECKED if r.verdict == NOT_CHECKED_HERE and report is None else r.verdict,
        )
        for r in relied
    )
    if not basis or basis == NONE:
        return rows, basis, "none, not a proof" if basis else ""
    return rows, basis, basis_phrase(basis, relied) or basis


def _scope(d: Derivation, report: DerivationReport | None) -> tuple[str, str]:
    """The page's scope and its wording: the check's, else the derivation's declared
    instance, else none (only a check says "general")."""
    if report is not None and report.scope:
        return report.scope, scope_text(report.scope, report.scope_note)
    if d.instance:
        return INSTANCE, scope_text(INSTANCE, d.instance)
    return "", ""


def _reference(kind: str, ref: str, href: Href) -> str | None:
    """Where a page links what it rests on: a lemma's page, a foundation's row on the
    graph page (pages sit one folder below the site's root); a cited result nowhere."""
    if kind == "lemma":
        return href(ref)
    if kind == "foundation":
        return f"../graph.html#foundation-{ref}"
    return None


def _domain_text(v: Variable) -> str:
    """A variable's domain as the page shows it; a family's with its index range."""
    if v.family is None:
        return str(v.domain)
    return f"{v.domain} for {v.family.range_text()}"
