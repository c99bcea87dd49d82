"""The book's LaTeX: the printer of derivations and reports (:mod:`.printer`), the widths
and line breaks of its formulas (:mod:`.layout`), the preambles (:mod:`.preamble`), the
catalog's ASCII prose typeset (:mod:`.prose`), text mode (:mod:`.text`), an author's own
reasons (:mod:`.author`) and a verdict's marks (:mod:`.evidence`)."""

from derivations.printing.latex.printer import (
    DerivationPrinter,
    as_written,
    catalog_book,
    derivation_latex,
    display_latex,
    latex_id,
    summary_table,
)

__all__ = [
    "DerivationPrinter",
    "as_written",
    "catalog_book",
    "derivation_latex",
    "display_latex",
    "latex_id",
    "summary_table",
]
