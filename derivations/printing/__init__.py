"""Every printer of dpderive in one home: plain text (:mod:`.text`), Markdown
(:mod:`.markdown`), LaTeX (:mod:`.latex`), JSON (:mod:`.json`) and the teaching view
(:mod:`.explain`), all worded by :mod:`.wording` (one wording per verdict and state).

Printing imports the data (derivations, reports); the data never import printing.  Importing
this package registers the notebook displays (``_repr_latex_``, ``_repr_markdown_``) through
:mod:`.display`.
"""

from __future__ import annotations

from derivations.printing import display  # noqa: F401  (registers the notebook displays)
from derivations.printing.explain import explain
from derivations.printing.json import catalog_json, claim_json, jsonable, report_json
from derivations.printing.latex import DerivationPrinter, catalog_book, derivation_latex
from derivations.printing.markdown import derivation_markdown, report_markdown
from derivations.printing.text import catalog_listing, claim_text, format_report, summary

__all__ = [
    "DerivationPrinter",
    "catalog_book",
    "catalog_json",
    "catalog_listing",
    "claim_json",
    "claim_text",
    "derivation_latex",
    "derivation_markdown",
    "explain",
    "format_report",
    "jsonable",
    "report_json",
    "report_markdown",
    "summary",
]
