"""One notation for every function of dpderive, in the book and on the site.

Each function of the engine and the catalog (``LaplaceMechanismPDF``, ``GaussianDelta``,
``KL``, ``Phi``, ...) is written three ways, all from one place, its class:

* **plain text** -- its name with its arguments, ``LaplaceMechanismPDF(z, f(x), b)``, as a
  claim file types it and as text and JSON reports print it (SymPy's ``str``);
* **LaTeX** -- the book's notation, its ``latex_template`` or ``_latex``
  (``\\Pr[f(x) + \\mathrm{Lap}(b) = z]``);
* **MathML** -- the site's, converted from that same LaTeX by the site's one converter
  (:mod:`derivations.printing.latex_mathml`, which also typesets an author's own lines), so
  that the site can never print a function otherwise than the book (issue 42: on 17 pages
  the site showed ``1/LaplaceMechanismPDF(z, f(y), b)`` where the book printed Pr[...]).

:func:`notation_table` lists every function with its three forms, for the documentation and
the tests.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from xml.dom import minidom

import sympy as sp
from markupsafe import Markup
from sympy.printing.latex import LatexPrinter

from derivations.printing.latex_mathml import latex_mathml

__all__ = [
    "OURS",
    "Notation",
    "code_names",
    "function_names",
    "is_ours",
    "latex_mathml",
    "mathml_nodes",
    "notation_table",
]

OURS = ("symbolic", "derivations", "numeric_checks")
"""The packages whose functions have a notation of their own."""


def is_ours(e: sp.Basic) -> bool:
    """``e`` is an application of one of our functions (not one of SymPy's)."""
    return isinstance(e, sp.Function) and (type(e).__module__ or "").split(".")[0] in OURS


def mathml_nodes(e: sp.Function, book: LatexPrinter, dom: minidom.Document) -> minidom.Element:
    """``e`` as the book prints it (``book``: the derivation's LaTeX printer, so that its
    arguments read under their LaTeX names), as an ``mrow`` of ``dom``."""
    parsed = minidom.parseString(f"<mrow>{latex_mathml(book._print(e))}</mrow>").documentElement
    assert parsed is not None  # a parsed document has its element
    return dom.importNode(parsed, True)


@dataclass(frozen=True)
class Notation:
    """One function's three forms, at sample arguments."""

    name: str
    plain: str
    latex: str
    mathml: str


def _ours(cls: type) -> list[type]:
    found: list[type] = []
    sub: type
    for sub in cls.__subclasses__():
        # Bases (DefinedFunction, a family's functional) name no function of their own.
        mine = (sub.__module__ or "").split(".")[0] in OURS and not sub.__name__.startswith("_")
        if mine and not sub.__subclasses__():
            found.append(sub)
        found += _ours(sub)
    return found


def function_names() -> list[str]:
    """The names of our functions now imported (their plain-text form's head)."""
    return sorted({cls.__name__ for cls in _ours(sp.Function)})


def code_names(text: str) -> Markup:
    """``text`` escaped for HTML, with our functions' names set as code: in a sentence of
    evidence (``OptimalDelta is computed numerically``) a name is the identifier a claim
    file types, not mathematics, and it reads as one.

    >>> from symbolic.functions import Phi
    >>> str(code_names("Phi is computed numerically; x < 1"))
    '<code>Phi</code> is computed numerically; x &lt; 1'
    """
    names = function_names()
    escaped = Markup.escape(text)
    if not names:
        return escaped
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b")
    return Markup(pattern.sub(r"<code>\1</code>", str(escaped)))


def notation_table(book: LatexPrinter | None = None) -> list[Notation]:
    """Every function of the imported modules of ours, with its plain, LaTeX and MathML
    forms at symbolic arguments ``a, b, c, ...`` (as many as it takes)."""
    from derivations.printing.latex import DerivationPrinter

    printer = book or DerivationPrinter()
    rows: dict[str, Notation] = {}
    for cls in _ours(sp.Function):
        nargs = getattr(cls, "nargs", None)
        counts = sorted(nargs) if isinstance(nargs, (set, frozenset, sp.FiniteSet)) else [1]
        count = int(counts[0]) if counts else 1
        args = sp.symbols("a b c d e f g h")[:count]
        try:
            e = cls(*args, evaluate=False)
            latex = printer._print(e)
            rows[cls.__name__] = Notation(cls.__name__, str(e), latex, latex_mathml(latex))
        except (TypeError, ValueError, IndexError, AttributeError):
            continue  # a function that needs arguments of a shape (a family): see its pages
    return [rows[k] for k in sorted(rows)]
