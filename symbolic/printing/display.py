"""Registers the notebook displays of the data classes with :mod:`symbolic.notebook`
(imported by :mod:`symbolic.printing`, hence by ``import symbolic``):
``Derivation._repr_latex_``, ``Derivation._repr_markdown_`` and
``DerivationReport._repr_markdown_``."""

from __future__ import annotations

from symbolic.derivation import Derivation
from symbolic.notebook import register
from symbolic.printing.latex import display_latex
from symbolic.printing.markdown import derivation_markdown, report_markdown
from symbolic.report import DerivationReport

__all__: list[str] = []

register(Derivation, "text/latex", display_latex)
register(Derivation, "text/markdown", derivation_markdown)
register(DerivationReport, "text/markdown", report_markdown)
