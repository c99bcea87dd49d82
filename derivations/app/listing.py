"""``dpderive list``: the catalog as a table within :data:`WIDTH` columns (id, family, a
short source, and the verdict when the catalog was checked), instead of one 200- to
330-character line per derivation (issue 29); and ``dpderive rules``, one line per name.

>>> short_source(Source("Dwork & Roth 2014, The Algorithmic Foundations", "Theorem 3.6", "FnT"))
'Dwork & Roth 2014, Thm. 3.6'
>>> short_source(Source("Dong, Roth & Su, Gaussian Differential Privacy", "Corollary 2.13"))
'Dong, Roth & Su, Cor. 2.13'
>>> short_family("Dwork & Roth, section 3.6: the sparse vector technique")
'sparse vector technique'
>>> fit("abcdefghij", 6)
'abc...'
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Mapping, Sequence
from typing import TextIO

from derivations.app.exitcodes import EXIT_OK
from symbolic.derivation import Derivation, Source
from symbolic.rule_names import rule_names
from symbolic.verdicts import Verdict

__all__ = ["WIDTH", "catalog_table", "fit", "run_rules", "short_family", "short_source"]

WIDTH = 100
"""The widest line of the table."""
FAMILY_WIDTH = 23
ERRATUM = " *"
"""Marks an erratum's id: a statement as a seed printed it, expected to be refuted."""


ABBREVIATIONS = (("Theorem ", "Thm. "), ("Corollary ", "Cor. "), ("Section ", "Sec. "))


def short_source(source: Source) -> str:
    """The work's authors and year and the locator (Theorem, Corollary abbreviated): the
    work's comma-separated parts up to the first with a year or an ``&`` ("Dong, Roth &
    Su"), else its first part."""
    parts = [p.strip() for p in source.work.split(",")]
    authors = parts[0]
    for i, part in enumerate(parts[:3]):
        if "&" in part or re.search(r"\b(1[89]|20)\d\d\b", part):
            authors = ", ".join(parts[: i + 1])
            break
    locator = source.locator.strip()
    for long, short in ABBREVIATIONS:
        locator = locator.replace(long, short)
    return ", ".join(p for p in (authors, locator) if p)


def short_family(family: str) -> str:
    """A family's topic: "Dwork & Roth, section 3.5: composition" is "composition",
    "Concentration: Hoeffding and Azuma" is "Concentration"; a leading "the" is dropped."""
    head, sep, tail = family.partition(": ")
    if sep:
        family = tail if any(w in head for w in ("section", "chapter", "&")) else head
    return family.removeprefix("the ")


def fit(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters, the cut marked with ``...``."""
    return text if len(text) <= width else text[: max(width - 3, 0)] + "..."


def catalog_table(
    derivations: Sequence[Derivation], verdicts: Mapping[str, Verdict] | None = None
) -> str:
    """The table of ``dpderive list``; the verdict column only with ``verdicts`` (an
    erratum's verdict is marked ``(erratum)``: refuted is what is expected of it)."""
    id_width = max([len("ID"), *(len(_id(d)) for d in derivations)])
    columns: list[tuple[str, int]] = [("ID", id_width)]
    if verdicts is not None:
        columns.append(("VERDICT", len("certified")))
    columns.append(("FAMILY", FAMILY_WIDTH))
    used = sum(w + 2 for _, w in columns)
    columns.append(("SOURCE", max(WIDTH - used, 10)))

    def row(cells: Sequence[str]) -> str:
        parts = [fit(c, w).ljust(w) for c, (_, w) in zip(cells, columns, strict=True)]
        return "  ".join(parts).rstrip()

    lines = [row([name for name, _ in columns])]
    for d in derivations:
        cells = [_id(d)]
        if verdicts is not None:
            v = verdicts.get(d.id)
            cells.append(v.value if v is not None else "-")
        cells += [short_family(d.family), short_source(d.source)]
        lines.append(row(cells))
    lines.append(f"{len(derivations)} derivations;{ERRATUM} an erratum (expected refuted)")
    if verdicts is None:
        lines.append("verdicts need a check: `dpderive list --check` (a minute) or `check ID`")
    return "".join(line + "\n" for line in lines)


def _id(d: Derivation) -> str:
    return d.id + ERRATUM if d.erratum else d.id


def run_rules(args: argparse.Namespace, out: TextIO) -> int:
    """``dpderive rules``: the names a step may cite, one line each (or a JSON object)."""
    names = rule_names()
    if args.json:
        json.dump(names, out, indent=2)
        out.write("\n")
        return EXIT_OK
    width = max(len(n) for n in names)
    out.write(f'{len(names)} rules a step may cite as by = "rule:NAME" (by.rule in Python):\n')
    for name, meaning in names.items():
        out.write(f"  {name.ljust(width)}  {meaning}\n")
    return EXIT_OK
