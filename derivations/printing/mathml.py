"""Mathematics for the HTML site as MathML Core, printed by SymPy.

Why MathML and not a vendored TeX renderer (KaTeX, MathJax): Chromium (since 109), Firefox
and Safari render MathML Core natively, so the site needs no JavaScript and no font files
for its formulas, works offline from ``file://`` and stays small; SymPy's presentation
printer (``sympy.printing.mathml``, W3C MathML 3 presentation markup) already prints every
expression of the catalog.  A vendored renderer would add ~300 kB of JavaScript and fonts
to every site and a second parser of our LaTeX.

Variables print under their reading names: a derivation's ``latex_name`` (``\\varepsilon_1``)
becomes the name SymPy's printer understands (``epsilon_1``, shown as ε with subscript 1);
names too rich for that (``\\Pr[\\mathcal{M}_1(x) = r_1]``) keep the plain symbol name,
which the variables table explains.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import sympy as sp
from markupsafe import Markup
from sympy.printing.latex import LatexPrinter
from sympy.printing.mathml import MathMLPresentationPrinter

from derivations.printing.latex import DerivationPrinter, as_written
from derivations.printing.latex_mathml import Untypeset
from derivations.printing.notation import is_ours, mathml_nodes
from symbolic.derivation import Derivation
from symbolic.relations import Relation

__all__ = ["MathPrinter", "display_names", "math_block", "relation_mathml"]

# The Greek letters SymPy's MathML printer knows by name (sympy.printing.conventions).
_GREEK = [
    *("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"),
    *("lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau", "upsilon", "phi"),
    *("chi", "psi", "omega"),
]
_LATEX_GREEK = {g: g for g in _GREEK} | {
    "varepsilon": "epsilon",
    "vartheta": "theta",
    "varphi": "phi",
    "varrho": "rho",
    "varsigma": "sigma",
}
_LATEX_GREEK |= {g.capitalize(): g.capitalize() for g in _GREEK}
_SIMPLE = re.compile(r"^\\?([A-Za-z]+)(?:_\{?([A-Za-z0-9]+)\}?)?$")
_RELATION = {
    Relation.EQ: "=",
    Relation.LE: "\u2264",
    Relation.LT: "<",
    Relation.GE: "\u2265",
    Relation.GT: ">",
}


def _reading_name(name: str, latex_name: str) -> str | None:
    """The SymPy-style name (``epsilon_1``) for a simple LaTeX name, ``f(x)`` for a one-letter
    function of a one-letter argument, else None.

    >>> _reading_name("eps1", r"\\varepsilon_{1}"), _reading_name("fx", "f(x)")
    ('epsilon_1', 'f(x)')
    >>> _reading_name("p", r"\\Pr[M(x) \\in S]") is None
    True
    """
    if re.fullmatch(r"[A-Za-z]\([A-Za-z]\)", latex_name.strip()):
        return latex_name.strip()  # f(x): one identifier, as the book writes it
    m = _SIMPLE.match(latex_name.strip())
    if m is None:
        return None
    base, sub = m.groups()
    if latex_name.strip().startswith("\\"):
        if base not in _LATEX_GREEK:
            return None
        base = _LATEX_GREEK[base]
    return f"{base}_{sub}" if sub else base


def display_names(d: Derivation | None) -> dict[str, str]:
    """Symbol name -> reading name for the variables of ``d`` (and ``eps*`` as epsilon,
    the catalog's convention, for names without a LaTeX name)."""
    out: dict[str, str] = {}
    if d is None:
        return out
    for v in d.variables:
        reading = _reading_name(v.name, v.latex_name) if v.latex_name else None
        if reading is None and re.fullmatch(r"eps\d*", v.name):
            reading = "epsilon" + (f"_{v.name[3:]}" if v.name[3:] else "")
        if reading is not None and reading != v.name:
            out[v.name] = reading
    return out


class MathPrinter(MathMLPresentationPrinter):
    """SymPy's presentation MathML printer, with symbols under their reading names."""

    def __init__(self, names: Mapping[str, str] | None = None, book: LatexPrinter | None = None):
        super().__init__({"order": "none"})
        self.names = dict(names or {})
        self.book = book or DerivationPrinter()
        """The book's printer for the derivation: our functions print in its notation."""

    def _print_Symbol(self, sym: sp.Symbol, style: str = "plain") -> Any:
        if sym.name in self.names:
            sym = sp.Symbol(self.names[sym.name])
        return super()._print_Symbol(sym, style=style)

    _print_Dummy = _print_Symbol

    def _print_Add(self, expr: sp.Add, order: str | None = None) -> Any:
        """A sum in the order the book prints it: as its author wrote it when built
        unevaluated, else SymPy's polynomial order (e^eps - 1, not -1 + e^eps)."""
        if order is None:
            order = "none" if as_written(expr) else "lex"
        return super()._print_Add(expr, order=order)

    def _print_Function(self, e: sp.Function) -> Any:
        """Our functions in the book's notation (``Pr[f(x) + Lap(b) = z]``, ``D(p || q)``),
        from the one notation table (:mod:`derivations.printing.notation`); SymPy's own as
        SymPy prints them."""
        if is_ours(e):
            try:
                return mathml_nodes(e, self.book, self.dom)
            except Untypeset:  # an argument the converter does not set (a Piecewise's cases)
                pass
        return super()._print_Function(e)

    def _print_ForAll(self, e: sp.Basic) -> Any:
        """A 'for all i' hypothesis: the relation, then its index range in words."""
        row = self.dom.createElement("mrow")
        row.appendChild(self._print(e.relation))
        space = self.dom.createElement("mspace")
        space.setAttribute("width", "1em")
        row.appendChild(space)
        words = self.dom.createElement("mtext")
        words.appendChild(self.dom.createTextNode("for all"))
        row.appendChild(words)
        gap = self.dom.createElement("mspace")
        gap.setAttribute("width", "0.3em")
        row.appendChild(gap)
        row.appendChild(self._print(e.index))
        member = self.dom.createElement("mo")
        member.appendChild(self.dom.createTextNode("∈"))
        row.appendChild(member)
        ends = self.dom.createElement("mrow")
        for part in ("{", e.lower, ", …, ", e.upper, "}"):
            if isinstance(part, str):
                mark = self.dom.createElement("mo")
                mark.appendChild(self.dom.createTextNode(part))
                ends.appendChild(mark)
            else:
                ends.appendChild(self._print(part))
        row.appendChild(ends)
        return row

    def inner(self, expr: sp.Basic) -> str:
        """The MathML of ``expr`` without the ``<math>`` element."""
        return str(self.doprint(expr))


def relation_mathml(relation: Relation) -> Markup:
    """A relation sign as a MathML operator."""
    return Markup("<mo>%s</mo>") % _RELATION[relation]


def math_block(inner: str, *, display: bool = False) -> Markup:
    """``inner`` MathML wrapped in a ``<math>`` element (HTML5 needs no namespace)."""
    attr = ' display="block"' if display else ""
    # The printer escapes every text node it writes, so its output is markup already.
    return Markup(f'<math class="m"{attr}>{inner}</math>')
