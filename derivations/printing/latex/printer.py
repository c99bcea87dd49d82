r"""LaTeX for derivations and reports (Markdown for notebooks is in
:mod:`derivations.printing.markdown`).

A :class:`DerivationPrinter` is SymPy's ``LatexPrinter`` taught two more types: it prints a
:class:`~symbolic.derivation.Derivation` as its statement (the author's prose with its
mathematics typeset, then the formal statement generated from the variables, hypotheses and
claim) followed by the proof as an ``align*`` chain: one numbered step per line with its
justification beside it, long right-hand sides broken across lines
(:mod:`derivations.printing.latex.layout`), and, when given a report, a verdict badge per step
and a list of the evidence referring to the step numbers.  Variables print under their
readable names (``\varepsilon``, ``\Delta f``, ``f(x)``); sums built unevaluated print their
terms in the order the author wrote them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import sympy as sp
from sympy.printing.latex import LatexPrinter

from derivations.printing.diagnosis import proof_diagnosis
from derivations.printing.latex.author import author_latex, echoed_source
from derivations.printing.latex.evidence import (
    counterexample_note,
    counterexample_words,
    evidence_latex,
    evidence_text,
    step_words,
    verdict_badge,
)
from derivations.printing.latex.layout import Link, Piece, align_chain, pieces
from derivations.printing.latex.preamble import BADGE_FALLBACK, BOOK_PREAMBLE, PREAMBLE
from derivations.printing.latex.prose import latex_text, prose_latex
from derivations.printing.wording import (
    NOT_CHECKED,
    erratum_state,
    oracle_state,
    scope_text,
    verdict_glossary,
    verdict_word,
)
from symbolic.basis import BASIS_MEANING, FROM_CITED, FROM_FOUNDATIONS, NONE, OUTRIGHT, basis_phrase
from symbolic.derivation import USER_PROOF_ID, Derivation
from symbolic.domains import Variable
from symbolic.report import DerivationReport, OracleResult, StepResult

__all__ = [
    "BOOK_PREAMBLE",
    "PREAMBLE",
    "TEXT_WIDTH",
    "DerivationPrinter",
    "as_written",
    "catalog_book",
    "counterexample_note",
    "derivation_latex",
    "display_latex",
    "evidence_text",
    "latex_id",
    "latex_text",
    "summary_table",
]

TEXT_WIDTH = 470.0
"""The width in pt a chain may take: A4 with 2 cm margins is 481 pt, less a margin for
the error of the width estimate."""


def latex_id(ident: str) -> str:
    r"""A derivation id in typewriter type that may break after its hyphens (``\path``
    of url.sty with the ``hyphens`` option).

    >>> latex_id("kl-bound")
    '\\path{kl-bound}'
    """
    return rf"\path{{{ident}}}"


def _unevaluated(expr: sp.Basic) -> bool:
    """Whether ``expr`` holds a node built with ``evaluate=False`` (one that evaluation would
    change)."""
    for node in sp.preorder_traversal(expr):
        if isinstance(node, (sp.Add, sp.Mul, sp.Pow)) and node.func(*node.args) != node:
            return True
    return False


def as_written(expr: sp.Add) -> bool:
    """Whether a sum was written by its author (built unevaluated, or holding unevaluated
    terms) rather than produced by SymPy, whose canonical order is no one's."""
    try:
        rebuilt = sp.Add(*expr.args)
        return rebuilt.args != expr.args or any(_unevaluated(a) for a in expr.args)
    except (TypeError, ValueError):
        return False


class DerivationPrinter(LatexPrinter):
    """LaTeX printer for expressions, derivations and reports of dpderive."""

    def __init__(
        self,
        names: Mapping[str, str] | None = None,
        width: float = TEXT_WIDTH,
        indexed: Mapping[str, str] | None = None,
        *,
        author: bool = True,
    ):
        self.names = dict(names or {})
        self.width = width
        self.author = author  # the author's own LaTeX given back where echo() allows it
        self.indexed = dict(indexed or {})
        r"""Families whose LaTeX name writes their index (``\Pr[M_{i}(x) = r_{i}]``): the
        family's name -> the index's name, put in place where an element prints."""
        # ln as the books write it (Dwork & Roth write ln, not log)
        super().__init__({"symbol_names": {}, "ln_notation": True})

    def for_derivation(self, d: Derivation) -> DerivationPrinter:
        names = {v.name: v.latex_name for v in d.variables if v.latex_name}
        names.update(self.names)
        indexed = {
            v.name: v.family.index
            for v in d.variables
            if v.family is not None
            and v.family.second is None
            and "{" + v.family.index + "}" in (v.latex_name or "")
        }
        return DerivationPrinter(names, self.width, indexed, author=self.author)

    def _print_Indexed(self, expr: sp.Indexed) -> str:
        name = expr.base.label.name
        if name in self.indexed and name in self.names and len(expr.indices) == 1:
            # Pr[M_1(x) = r_1], not Pr[M_i(x) = r_i]_1: the index written where it belongs.
            index = "{" + self._print(expr.indices[0]) + "}"
            return self.names[name].replace("{" + self.indexed[name] + "}", index)
        return str(super()._print_Indexed(expr))

    def _print_Symbol(self, expr: sp.Symbol, style: str = "plain") -> str:
        if expr.name in self.names:
            return self.names[expr.name]
        return super()._print_Symbol(expr, style=style)

    def _print_Add(self, expr: sp.Add, order: str | None = None) -> str:
        # An unevaluated sum keeps the author's order (8 eps/9 + c/sigma, not c/sigma + ...);
        # an evaluated one prints in SymPy's polynomial order (e^eps - 1, not -1 + e^eps).
        if order is None and as_written(expr):
            order = "none"
        return str(super()._print_Add(expr, order=order))

    def ordered(self, expr: sp.Basic) -> list[sp.Basic]:
        """The terms of a sum in the order they print."""
        order = "none" if as_written(expr) else None
        return list(self._as_ordered_terms(expr, order=order))

    def pieces(self, expr: sp.Basic, budget: float) -> list[Piece]:
        """``expr`` cut where a line may break (see :func:`~.layout.pieces`)."""
        return pieces(expr, budget, self._print, self.ordered)

    def _print_Derivation(
        self, d: Derivation, report: DerivationReport | None = None, heading: str = "paragraph"
    ) -> str:
        p = self.for_derivation(d)
        ident = "" if d.id == USER_PROOF_ID else f"; {latex_id(d.id)}"
        lines = [
            rf"\{heading}{{{prose_latex(d.title)}}}",
            # A user's proof has no catalog id to give ("proof" ended the line, issue 29).
            rf"{{\raggedright {prose_latex(str(d.source))}{ident}.\par}}",
            "",
        ]
        if d.erratum:
            lines += [
                rf"\emph{{Erratum (kept as written, expected to be refuted):}} "
                rf"{prose_latex(d.erratum)}",
                "",
            ]
        if d.statement:
            statement = prose_latex(d.statement)
            lines += [rf"{{\raggedright\textbf{{Statement.}} {statement}\par}}", ""]
        if d.instance:
            scope = prose_latex(
                f"the proof below covers an instance of the statement, {d.instance}."
            )
            lines += [rf"{{\raggedright\textbf{{Scope.}} {scope}\par}}", ""]
        lines.append(p.formal_statement(d))
        lines += ["", r"\noindent\textbf{Proof.}"]
        lines.append(p.chain(d, report))
        if report is not None:
            lines.append(p._print_DerivationReport(report))
        return "\n".join(lines)

    def _domain(self, v: Variable) -> str:
        r"""``$x \in D$``; for a family ``$p_{i} \in D$ for $i \in \{1, \dots, n\}$``."""
        if v.family is None:
            return rf"${self._print(v.symbol)} \in {v.domain.latex()}$"
        f = v.family
        element = self._print(v.base[f.indices])
        ranges = [(f.index_symbol, f.lower, f.upper)]
        if f.second is not None:
            ranges.append((f.indices[1], sp.sympify(f.second[1]), sp.sympify(f.second[2])))
        over = ", ".join(
            rf"${self._print(i)} \in \{{{self._print(lo)}, \dots, {self._print(hi)}\}}$"
            for i, lo, hi in ranges
        )
        return rf"${element} \in {v.domain.latex()}$ for {over}"

    def formal_statement(self, d: Derivation) -> str:
        """The statement generated from the derivation's data: for the variables in their
        domains, under the hypotheses and definitions, the claim (displayed, broken if
        long)."""
        domains = ", ".join(self._domain(v) for v in d.variables)
        # ragged: a line of inline formulas cannot stretch like words can
        text = rf"{{\raggedright\textbf{{Formally.}} For {domains}"
        if d.hypotheses:
            text += " such that " + ", ".join(f"${self._print(h)}$" for h in d.hypotheses)
        if d.defs:
            defs = ", ".join(f"${self._print(s)} = {self._print(v)}$" for s, v in d.defs)
            text += rf", where {defs}"
        claim = Link(d.claim.relation.latex, self._parts(d.claim.rhs), "")
        lhs = self._print(d.claim.lhs)
        return text + ":\\par}\n" + align_chain(lhs, self._parts(d.claim.lhs), [claim], self.width)

    def _print_StepResult(self, s: StepResult) -> str:
        """A step's verdict as a badge, for the chain's margin: its colour and its symbol
        (``\\dpbadge`` of the preamble), so that refuted never looks like proved."""
        return verdict_badge(s.verdict)

    def _evidence(self, text: str) -> str:
        """The engine's words for a reader, with this derivation's names (issue 43)."""
        return evidence_latex(text, self.names)

    def _print_OracleResult(self, o: OracleResult, named: bool = True) -> str:
        """The oracle's line (``named`` False under an "Oracle" label: no "Oracle Oracle")."""
        state = oracle_state(o.agrees)
        lead = r"\textbf{Oracle} " if named else ""
        text = rf"{lead}\texttt{{{latex_text(o.name)}}} {state}: {self._evidence(o.detail)}"
        if o.counterexample:
            at = ", ".join(f"{k} = {v}" for k, v in o.counterexample.items())
            text += rf" (at {self._evidence(at)})"
        if o.closest:
            text += rf"; closest to failing: {self._evidence(o.closest)}"
        return text + "."

    def _print_DerivationReport(self, r: DerivationReport) -> str:
        """The evidence behind each badge, under the step numbers of the chain: which tactic
        or rule, how many points at how many digits, which counterexample; then the
        conclusion and the oracle."""
        # A user's proof is a handout: each step's short line, not SymPy's rule trace.
        user = r.id == USER_PROOF_ID
        items = [
            rf"\item[Step ({s.index})] {self._print_StepResult(s)} "
            + self._evidence(step_words(s, user))
            for s in r.steps
        ]
        items.append(
            rf"\item[Conclusion] {self._print_StepResult(r.conclusion)} "
            rf"{self._evidence(step_words(r.conclusion, user))}"
        )
        if r.oracle is not None:
            items.append(rf"\item[Oracle] {self._print_OracleResult(r.oracle, named=False)}")
        verdict = rf"\textbf{{Verdict: {verdict_word(r.verdict)}}}"
        if r.scope:
            verdict += ", " + self._evidence(scope_text(r.scope, r.scope_note))
        phrase = basis_phrase(r.basis, r.rests_on)
        if phrase:
            verdict += "; " + latex_text(phrase)
        if r.erratum:
            verdict += f"; an erratum, {erratum_state(r.as_expected)}"
        if diagnosis := proof_diagnosis(r):
            verdict += "\n\n\\noindent\\textbf{In short:} " + self._evidence(diagnosis) + "."
        return (
            verdict
            + "\n\\begin{description}\\small\\raggedright\n"
            + "\n".join(items)
            + "\n\\end{description}"
        )

    def chain(self, d: Derivation, report: DerivationReport | None = None) -> str:
        """The proof as an ``align*`` environment: step ``(i)`` with its justification (and
        badge) beside it.  Where the author wrote a step in LaTeX (a proof file), their own
        text is given back; a refuted step carries a footnote with its counterexample."""
        results: dict[int, StepResult] = {s.index: s for s in report.steps} if report else {}
        steps: list[Link] = []
        notes: list[str] = []
        echoed = echoed_source if self.author else _not_echoed
        head_source, head_problem = echoed(d.lhs_source)
        for i, (_, rel, right, why) in enumerate(d.links(), start=1):
            source, problem = echoed(d.steps[i - 1].source)
            reason = author_latex(why.text) if self.author else latex_text(why.text)
            note = rf"({i})~{reason}"
            problem = problem or (head_problem if i == 1 else "")
            if problem:
                # Said where the reader looks for the line's reason: the author's LaTeX
                # was read, but is not copied into the document (issue 41).
                note += " " + latex_text(f"[your LaTeX not shown: {problem}]")
            if i in results:
                note += " " + self._print_StepResult(results[i])
                cex = results[i].counterexample
                if cex is not None:
                    # numbered from 1, not by the step (issue 43: a lone footnote 2)
                    mark = len(notes) + 1
                    note += rf"\footnotemark[{mark}]"
                    where = self._evidence(counterexample_words(i, cex, rel.value))
                    notes.append(rf"\footnotetext[{mark}]{{{where}}}")
            steps.append(Link(rel.latex, self._parts(right, source), note))
        head = head_source or self._print(d.claim.lhs)
        chain = align_chain(head, self._parts(d.claim.lhs, head_source), steps, self.width)
        return chain + "".join("\n" + n for n in notes)

    def _parts(self, expr: sp.Basic, source: str = "") -> Callable[[float], list[Piece]]:
        """How to cut ``expr`` for a line of a given width; an author's own LaTeX is kept
        whole."""
        if source:
            return lambda _budget: [Piece(source, source)]
        return lambda budget: self.pieces(expr, budget)

    def aligned(self, d: Derivation) -> str:
        """The chain as one ``aligned`` math block (for notebooks, where MathJax has no
        text-mode environments)."""
        p = self.for_derivation(d)
        rows = []
        for i, (left, rel, right, _) in enumerate(d.links(), start=1):
            head = p._print(left) if i == 1 else ""
            rows.append(rf"{head} &{rel.latex} {p._print(right)} && \text{{({i})}}")
        return "\\begin{aligned}\n" + " \\\\\n".join(rows) + "\n\\end{aligned}"


def display_latex(d: Derivation) -> str:
    """The chain as display math, for a notebook (``Derivation._repr_latex_``)."""
    return "$$" + DerivationPrinter().aligned(d) + "$$"


def _not_echoed(source: str) -> tuple[str, str]:
    return "", ""


def derivation_latex(
    d: Derivation,
    report: DerivationReport | None = None,
    *,
    standalone: bool = False,
    author: bool = True,
) -> str:
    """LaTeX of one derivation; ``standalone`` wraps it in a complete document; without
    ``author``, nothing of the author's own LaTeX is given back (every line typeset from the
    expressions as read, every reason as text)."""
    body = DerivationPrinter(author=author)._print_Derivation(d, report)
    if standalone:
        return PREAMBLE + body + "\n\\end{document}\n"
    # A fragment with badges goes into someone else's document: the badge macro with it.
    return (BADGE_FALLBACK + "\n" if report is not None else "") + body + "\n"


def summary_table(
    derivations: Sequence[Derivation], reports: Mapping[str, DerivationReport]
) -> str:
    """One row per derivation: id, source, verdict (``not checked`` without a report), as a
    ``longtable`` that breaks across pages with its header repeated."""
    rows = []
    for d in derivations:
        r = reports.get(d.id)
        verdict = verdict_word(r.verdict) if r else NOT_CHECKED
        if r is not None and r.scope == "instance":
            verdict += " (instance)"
        if r is not None and r.basis and r.basis != NONE:
            verdict += f", {r.basis}"
        if d.erratum:
            verdict += " (erratum)"
        rows.append(rf"{latex_id(d.id)} & {prose_latex(d.source.locator)} & {verdict} \\")
    head = r"\textbf{id} & \textbf{source} & \textbf{verdict} \\"
    return (
        "\\begin{longtable}{@{}>{\\raggedright}p{5.6cm}>{\\raggedright}p{7.4cm}"
        ">{\\raggedright\\arraybackslash}p{3cm}@{}}\n"
        f"\\toprule\n{head}\n\\midrule\n\\endfirsthead\n"
        f"\\toprule\n{head}\n\\midrule\n\\endhead\n"
        "\\bottomrule\n\\endlastfoot\n" + "\n".join(rows) + "\n\\end{longtable}"
    )


def catalog_book(
    derivations: Sequence[Derivation],
    reports: Mapping[str, DerivationReport] | None = None,
    *,
    errata: str = "",
) -> str:
    """The whole catalog as one document: a table of contents, a summary table of the
    verdicts, a chapter per theorem family and a section per derivation, then ``errata``
    (the chapter "Errata in the sources", from :func:`derivations.printing.audit.errata_latex`).
    Compile it until the contents settle (:func:`derivations.app.pdflatex.compile_pdf`
    runs pdflatex until a pass changes neither the .aux nor the .toc); quotes in Chinese
    need the CJKutf8 package and its Song font (``\\zh`` of :data:`PREAMBLE`)."""
    reports = reports or {}
    parts = [
        BOOK_PREAMBLE,
        "\\chapter*{Summary of verdicts}",
        "\\addcontentsline{toc}{chapter}{Summary of verdicts}",
    ]
    parts.append(
        verdict_glossary() + "  An erratum is a statement kept as its source writes it and "
        "expected to be refuted.  What a proof rests on, transitively: "
        + "; ".join(
            f"\\emph{{{b}}}, {BASIS_MEANING[b]}" for b in (OUTRIGHT, FROM_FOUNDATIONS, FROM_CITED)
        )
        + "."
    )
    parts.append("{\\small\n" + summary_table(derivations, reports) + "\n}")
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
