"""Renderers of the seed audit: the audit table and the errata list, as text, Markdown,
LaTeX and JSON (``dpderive audit``, ``dpderive errata``, ``docs/audit.md``,
``docs/errata.md`` and the book's "Errata in the sources" chapter).

The JSON fields are documented in the README and stable: a script can diff two versions.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from derivations.printing.latex import latex_id
from derivations.printing.latex.prose import prose_latex
from derivations.printing.latex.text import latex_text
from symbolic.audit import RUBRIC, AuditVerdict, Entry, Erratum, Severity, severity_of

__all__ = [
    "audit_json",
    "audit_markdown",
    "audit_text",
    "counts",
    "errata_json",
    "errata_latex",
    "errata_markdown",
    "errata_text",
]

ORDER = tuple(AuditVerdict)


def counts(entries: Sequence[Entry]) -> dict[str, int]:
    """Entries per verdict, in the vocabulary's order (zeros included), and the total."""
    c = Counter(e.verdict for e in entries)
    out = {v.value: c.get(v, 0) for v in ORDER}
    out["total"] = len(entries)
    return out


def _erratum_json(e: Entry, x: Erratum) -> dict[str, Any]:
    return {
        "id": x.id,
        "entry": e.id,
        "seed": e.seed,
        "section": e.section,
        "quote": e.quote,
        "kind": x.kind.value,
        "severity": severity_of(x).value,
        "aliases": list(x.aliases),
        "claim": e.claim,
        "wrong": x.wrong,
        "counterexample": x.counterexample,
        "correction": x.correction,
        "as_written": x.as_written,
        "corrected": x.corrected,
        "check": e.check_spec,
        "scope": e.scope,
        "basis": e.basis,
        "role": x.role.value if x.role else None,
        "edge": x.edge,
        "edge_note": x.edge_note,
    }


def audit_json(entries: Sequence[Entry], seeds: Mapping[str, str]) -> dict[str, Any]:
    """``dpderive audit --json``: per seed its file, counts and entries."""
    out: dict[str, Any] = {"counts": counts(entries), "seeds": []}
    for seed, name in seeds.items():
        mine = [e for e in entries if e.seed == seed]
        out["seeds"].append(
            {
                "seed": seed,
                "file": name,
                "counts": counts(mine),
                "entries": [
                    {
                        "id": e.id,
                        "section": e.section,
                        "quote": e.quote,
                        "claim": e.claim,
                        "method": e.method.value,
                        "verdict": e.verdict.value,
                        "detail": e.detail,
                        "readings": e.readings,
                        "derivations": list(e.derivations),
                        "erratum": e.erratum.id if e.erratum else None,
                        "severity": severity_of(e.erratum).value if e.erratum else None,
                        "check": e.check_spec,
                        "scope": e.scope,
                        "basis": e.basis,
                        "notes": e.notes,
                        "not_erratum": e.not_erratum,
                        "not_checkable": e.not_checkable.value if e.not_checkable else None,
                        "edge": e.erratum.edge if e.erratum else None,
                    }
                    for e in mine
                ],
            }
        )
    return out


def errata_json(errata: Sequence[tuple[Entry, Erratum]]) -> list[dict[str, Any]]:
    """``dpderive errata --json``: one object per erratum."""
    return [_erratum_json(e, x) for e, x in errata]


def _count_line(c: Mapping[str, int]) -> str:
    parts = [f"{n} {v}" for v, n in c.items() if v != "total" and n]
    return f"{c['total']} statements: " + ", ".join(parts)


def audit_text(entries: Sequence[Entry], seeds: Mapping[str, str]) -> str:
    lines = [f"audit of {len(seeds)} seed file(s): {_count_line(counts(entries))}", ""]
    for seed, name in seeds.items():
        mine = [e for e in entries if e.seed == seed]
        lines.append(f"seed {seed} ({name}): {_count_line(counts(mine))}")
        for e in mine:
            mark = f"  [{e.erratum.id}]" if e.erratum else ""
            lines.append(f"  {e.id:<44} {e.verdict.value:<14} {e.claim}{mark}")
        lines.append("")
    return "\n".join(lines)


def severity_counts(errata: Sequence[tuple[Entry, Erratum]]) -> dict[str, int]:
    """Errata per severity, most severe first (zeros included)."""
    c = Counter(severity_of(x) for _, x in errata)
    return {s.value: c.get(s, 0) for s in Severity}


def _label(x: Erratum) -> str:
    """Severity, then the kind where it says more (``gap; missing hypothesis``), and
    ``edge`` for a failure at degenerate parameters only."""
    severity = severity_of(x).value
    label = severity if x.kind.value == severity else f"{severity}; {x.kind.value}"
    return label + ("; edge" if x.edge else "")


RUBRIC_TEXT = (
    "Severity, by rule from what the refuted text is: a statement refuted under the seed's "
    "standing conventions is false (a theorem missing a hypothesis it needs included), "
    "unless it is a symbol slip whose intended reading is proved: then typo; a proof step, "
    "written or silent, that does not follow while the conclusion holds is a gap; an "
    "informal framing sentence whose intended point holds is wording.  Edge marks a failure "
    "seen only at degenerate parameters (outside delta << 1/n, beta <= 0.1, eps <= 10)."
)
"""The severity rubric in words (:class:`symbolic.audit.Role`), for every errata list."""
assert len(RUBRIC) == len(Severity)  # every severity has its role in the rubric


def _severity_line(errata: Sequence[tuple[Entry, Erratum]]) -> str:
    return ", ".join(f"{n} {s}" for s, n in severity_counts(errata).items())


def _edge_count(errata: Sequence[tuple[Entry, Erratum]]) -> int:
    return sum(x.edge for _, x in errata)


def errata_text(errata: Sequence[tuple[Entry, Erratum]]) -> str:
    lines = [
        f"{len(errata)} errata ({_severity_line(errata)}; {_edge_count(errata)} edge)",
        "",
    ]
    for e, x in errata:
        lines += [
            f"{x.id} ({_label(x)}) seed {e.seed}, {e.section}",
            f"  quote: {e.quote}",
            f"  wrong: {x.wrong}",
            f"  counterexample: {x.counterexample}",
            f"  correction: {x.correction}",
        ]
        if x.edge:
            lines.append(f"  edge: only at degenerate parameters ({x.edge_note})")
        if x.aliases:
            lines.append(f"  also at: {', '.join(x.aliases)}")
        refs = ", ".join(
            f"{k} {v}" for k, v in (("as written", x.as_written), ("corrected", x.corrected)) if v
        )
        if refs:
            lines.append(f"  derivations: {refs}")
        lines.append("")
    return "\n".join(lines)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def audit_markdown(entries: Sequence[Entry], seeds: Mapping[str, str]) -> str:
    """``docs/audit.md``: every statement of every seed, with its check and verdict."""
    lines = [
        "# Audit of the seed texts",
        "",
        "Generated by `python3 -m derivations.audit.docs` from `derivations/audit/`; do not edit.",
        "Every mathematical statement of each seed file, as written: where it is, what it claims,",
        "how it was checked and the verdict (`not checkable` entries say why).",
        "",
        f"Overall: {_count_line(counts(entries))}.",
        "",
        "| seed | statements | " + " | ".join(v.value for v in ORDER) + " |",
        "| --- | --- | " + " | ".join("---" for _ in ORDER) + " |",
    ]
    for seed in seeds:
        c = counts([e for e in entries if e.seed == seed])
        lines.append(
            f"| {seed} | {c['total']} | " + " | ".join(str(c[v.value]) for v in ORDER) + " |"
        )
    for seed, name in seeds.items():
        lines += ["", f"## Seed {seed} (`{name}`)", ""]
        lines += ["| id | section | quote | claim | method | verdict | evidence |"]
        lines += ["| --- | --- | --- | --- | --- | --- | --- |"]
        for e in (e for e in entries if e.seed == seed):
            verdict = e.verdict.value + (f" ([{e.erratum.id}](errata.md))" if e.erratum else "")
            evidence = e.detail + (f" Readings: {e.readings}" if e.readings else "")
            if e.scope:
                evidence += f" Scope: {e.scope}." + (f" Basis: {e.basis}." if e.basis else "")
            if e.notes:
                evidence += f" Note: {e.notes}"
            if e.derivations:
                evidence += " Derivations: " + ", ".join(f"`{d}`" for d in e.derivations) + "."
            lines.append(
                f"| `{e.id}` | {_cell(e.section)} | {_cell(e.quote)} | {_cell(e.claim)} | "
                f"{e.method.value} | {verdict} | {_cell(evidence)} |"
            )
    return "\n".join(lines) + "\n"


def errata_markdown(errata: Sequence[tuple[Entry, Erratum]]) -> str:
    """``docs/errata.md``: every place where a seed text is wrong, why, a counterexample,
    and the correction."""
    lines = [
        "# Errata in the seed texts",
        "",
        "Generated by `python3 -m derivations.audit.docs` from `derivations/audit/`; do not edit.",
        "",
        f"{len(errata)} errata: {_severity_line(errata)}, most severe first; "
        f"{_edge_count(errata)} edge.",
        "",
        RUBRIC_TEXT,
        "",
        "| id | seed | severity | kind | edge | what is wrong |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    lines += [
        f"| `{x.id}` | {e.seed} | {severity_of(x).value} | {x.kind.value} | "
        f"{'edge' if x.edge else ''} | {_cell(x.wrong)} |"
        for e, x in errata
    ]
    for e, x in errata:
        lines += [
            "",
            f"## `{x.id}` ({_label(x)})",
            "",
            f"- Seed {e.seed}, {e.section}: \u201c{e.quote}\u201d",
            f"- Claims: {e.claim}",
            f"- What is wrong: {x.wrong}",
            f"- Counterexample: {x.counterexample}",
            f"- Correction: {x.correction}",
        ]
        if x.edge:
            lines.append(f"- Edge: only at degenerate parameters ({x.edge_note})")
        if x.aliases:
            lines.append(f"- Also at: {', '.join(f'`{a}`' for a in x.aliases)}")
        if x.as_written or x.corrected:
            lines.append(
                f"- Derivations: as written `{x.as_written or '-'}`, corrected "
                f"`{x.corrected or '-'}`"
            )
    return "\n".join(lines) + "\n"


def _quote_latex(text: str) -> str:
    r"""A seed's words as written, for LaTeX text mode: Chinese set in Chinese, LaTeX source
    shown as source, with break points after its closing braces, brackets and signs (a
    quoted ``\frac{...}{...}`` is one long word that no line could hold).

    >>> _quote_latex("合成定理 x=1")
    '\\zh{合成定理} x=\\allowbreak{}1'
    """
    return re.sub(r"(\\\}|[=,;\])\]])", r"\1\\allowbreak{}", latex_text(text))


def errata_latex(errata: Sequence[tuple[Entry, Erratum]]) -> str:
    """The book's chapter "Errata in the sources" (text mode): each entry with its place in
    the seed and its words there, as written (in Chinese where the seed is: what a reader
    searches the source for), then what is wrong, a counterexample and the correction, the
    ASCII mathematics typeset.  Ragged right: the entries hold long formulas that a
    justified line could not stretch around."""
    parts = [
        r"\chapter{Errata in the sources}",
        latex_text(
            f"{len(errata)} statements of the seed texts are wrong as written "
            f"({_severity_line(errata)}), listed most severe first. Each was refuted with a "
            "counterexample and corrected; the full audit is in docs/audit.md."
        ),
        "",
        # No hyphenation: a hyphen at a line break (T1's slot 127) gave the text font of a
        # bitmap-font build a ToUnicode map that garbled pdftotext's reading of every page.
        r"{\hyphenpenalty=10000\exhyphenpenalty=10000 " + latex_text(RUBRIC_TEXT) + r"\par}",
        r"\begin{description}\raggedright",
    ]
    for e, x in errata:
        parts.append(
            rf"\item[{latex_id(x.id)}] ({latex_text(_label(x))}, seed {e.seed}, "
            rf"{latex_text(e.section)}) \emph{{The seed:}} ``{_quote_latex(e.quote)}''\\ "
            rf"{prose_latex(x.wrong)} \emph{{Counterexample:}} {prose_latex(x.counterexample)} "
            rf"\emph{{Correction:}} {prose_latex(x.correction)}"
            + (
                rf" \emph{{Also at:}} {', '.join(latex_id(a) for a in x.aliases)}."
                if x.aliases
                else ""
            )
        )
    parts.append(r"\end{description}")
    return "\n".join(parts)
