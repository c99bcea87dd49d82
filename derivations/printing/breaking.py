r"""Long sides of a chain broken into lines for the site, where the book breaks them.

The book's LaTeX (:mod:`derivations.printing.latex_layout`) cuts a formula too wide for its
line from the expression tree: before a top-level ``+`` or ``-`` of a sum, between the
factors of a product (a continuation line opens with ``·``), between the arguments of
``max``/``min``, inside a parenthesised sum, and a wide quotient as ``1/den`` times its
numerator.  The site cuts at the same places (and, since its lines are narrower than the
book's, also inside the bracket of a big-operator sum ``Σ (a + b)``) and packs the pieces
into lines by an estimate of their width, so that at 1024 px and wider no line needs a
scroll bar.

The estimate is taken on the MathML itself (:func:`mathml_em`), in em: glyphs of a
serif math font, the operator dictionary's spaces around binary operators and relations
(MathML Core, appendix B: 0.2222 em and 0.2778 em), fractions as wide as their wider
part, scripts at 71% (``math-depth`` scaling).  The book's estimate works on LaTeX names,
which are not what the site prints (``\Pr[\mathcal{M}_1(x) = r_1]`` is one symbol there).

Each piece of a line is its own ``<math>`` element, so a window narrower than the lines
were packed for wraps between pieces, never inside one and never behind a scroll bar.
MathML Core has no automatic line breaking (Chromium breaks no formula), which is why the
cut is made here.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass

import sympy as sp
from markupsafe import Markup, escape
from sympy.printing.precedence import PRECEDENCE, precedence

from derivations.printing.latex import DerivationPrinter
from derivations.printing.mathml import MathPrinter
from derivations.printing.notation import is_ours

__all__ = ["LINE_EM", "PIECE_EM", "Piece", "lines_of", "math_lines", "mathml_em"]

LINE_EM = 20.0
"""The width in em of a line of a chain's side on the site.  At 1024 px the expression
column is about 420 px wide beside the justification column (site.css), and the chain's
formulas are set at 1.15 em of 16 px (18.4 px): 22.9 em, less a margin for the error of
the estimate."""

PIECE_EM = 11.0
"""The widest piece (in em) cut where the tree allows it: what a phone's column can hold
(the stacked layout of site.css below 1000 px sets the chain at 1 em)."""

_SCRIPT = 0.71
_SPACED = {"+": 0.44, "-": 0.44, "\u2212": 0.44, "=": 0.56, "<": 0.56, ">": 0.56}
_SPACED |= {"\u2264": 0.56, "\u2265": 0.56, "\u00b7": 0.44, "\u2297": 0.44, "\u2208": 0.56}
_NARROW = {"(": 0.39, ")": 0.39, "[": 0.28, "]": 0.28, "|": 0.28, ",": 0.28, ".": 0.28}
_NARROW |= {"{": 0.5, "}": 0.5, "\u2016": 0.5}
_ENTITY = re.compile(r"&(?!#|lt;|gt;|amp;|quot;|apos;)[A-Za-z]+;")  # zero-width operators


def _text_em(tag: str, text: str) -> float:
    if tag == "mo":
        if len(text) == 1 and text in _SPACED:
            return 0.56 + _SPACED[text]
        if text in ("\u2211", "\u220f", "\u222b"):
            return 1.1
        return sum(_NARROW.get(c, 0.6) for c in text)
    if tag == "mi" and len(text) > 1:
        return 0.5 * len(text) + 0.15  # an upright name (log, max): roman letters
    if tag == "mn":
        return 0.5 * len(text)
    return sum(_NARROW.get(c, 0.58) for c in text)


def _em(node: ET.Element) -> float:
    tag = node.tag
    kids = list(node)
    if tag in ("mi", "mn", "mo", "mtext"):
        return _text_em(tag, "".join(node.itertext()))
    if tag == "mspace":
        width = node.get("width", "0em")
        return float(width[:-2]) if width.endswith("em") else 0.3
    if tag == "mfrac":
        return max(_em(k) for k in kids) + 0.25
    if tag in ("msub", "msup"):
        return _em(kids[0]) + _SCRIPT * _em(kids[1]) + 0.05
    if tag == "msubsup":
        return _em(kids[0]) + _SCRIPT * max(_em(kids[1]), _em(kids[2])) + 0.05
    if tag in ("munder", "mover", "munderover"):
        return max([_em(kids[0]), *(_SCRIPT * _em(k) for k in kids[1:])])
    if tag in ("msqrt", "mroot"):
        return _em(kids[0]) + 1.0 if tag == "mroot" else sum(_em(k) for k in kids) + 1.0
    return sum(_em(k) for k in kids)


def mathml_em(inner: str) -> float:
    """Estimated width in em of MathML ``inner`` (presentation markup, no ``<math>``).

    >>> round(mathml_em("<mrow><mi>a</mi><mo>+</mo><mfrac><mn>1</mn><mn>23</mn></mfrac></mrow>"), 2)
    2.83
    """
    root = ET.fromstring("<mrow>" + _ENTITY.sub("", inner) + "</mrow>")
    return _em(root)


@dataclass(frozen=True)
class Piece:
    """A run of a formula that stays on one line, in MathML (without ``<math>``):
    ``joined`` follows the previous piece on its line, ``opening`` starts a line (a factor
    opens with ``·``); ``width`` is the estimate of ``joined`` in pt."""

    joined: str
    opening: str
    width: float


def _mo(sign: str) -> str:
    return f"<mo>{sign}</mo>"


class _Cutter:
    """Cuts one derivation's expressions (its printers know its variables' names)."""

    def __init__(self, mathml: MathPrinter, latex: DerivationPrinter):
        self.mathml = mathml
        self.latex = latex  # for the order of a sum's terms, the book's

    def whole(self, expr: sp.Basic) -> Piece:
        inner = self.mathml.inner(expr)
        return Piece(inner, inner, mathml_em(inner))

    def pieces(self, expr: sp.Basic, budget: float) -> list[Piece]:
        """``expr`` cut into pieces no wider than ``budget`` where the tree allows it, as
        :func:`derivations.printing.latex_layout.pieces` cuts it for the book."""
        whole = self.whole(expr)
        if whole.width <= budget:
            return [whole]
        if isinstance(expr, sp.Add):
            return self._sum(expr, budget)
        if isinstance(expr, sp.Mul):
            num, den = sp.fraction(expr, exact=True)
            if den != 1:
                return self._quotient(num, den, budget) or [whole]
            return self._product(expr, budget)
        if is_ours(expr):
            return self._notation(whole, budget)
        if isinstance(expr, (sp.Max, sp.Min)) or (
            isinstance(expr, sp.Function) and len(expr.args) > 1
        ):
            # Our functions print in the book's notation (Pr[f(x) + Lap(b) = z]), which
            # has no argument list to break after: whole, as the book sets them.
            return self._arguments(expr, budget)
        if isinstance(expr, sp.Sum) and isinstance(expr.function, sp.Add):
            return self._big_sum(expr, budget)
        return [whole]

    def _notation(self, whole: Piece, budget: float) -> list[Piece]:
        """One of our functions in the book's notation (``G_mu(1 - [...](alpha))``), too
        wide for its line: cut between the symbols of its MathML, opening a bracketed group
        where one alone is too wide, as a line of the book would break."""
        try:
            root = ET.fromstring(_ENTITY.sub("", whole.joined))
        except ET.ParseError:  # markup the estimate cannot read: kept whole
            return [whole]
        out: list[Piece] = []
        for node in _flat(root, budget):
            text = ET.tostring(node, encoding="unicode")
            out.append(Piece(text, text, _em(node)))
        return out or [whole]

    def _big_sum(self, expr: sp.Sum, budget: float) -> list[Piece]:
        """``Σ_{i=1}^{n} (a + b)``: the operator with its limits opens the bracket, the
        terms are cut as a sum."""
        operator = self.mathml.inner(sp.Sum(sp.Symbol("x"), *expr.limits))
        # the printed operator with limits, without its dummy body
        operator = operator[: operator.rindex("</munderover>") + len("</munderover>")]
        operator = operator.removeprefix("<mrow>")
        inner = _bracket(self._sum(expr.function, budget - 3.0))
        head = operator + inner[0].joined
        return [Piece(head, head, mathml_em(operator) + inner[0].width), *inner[1:]]

    def _sum(self, expr: sp.Add, budget: float) -> list[Piece]:
        out: list[Piece] = []
        for k, term in enumerate(self.latex.ordered(expr)):
            negative = term.could_extract_minus_sign()
            body = -term if negative else term
            sign = _mo("\u2212") if negative else (_mo("+") if k else "")
            inner = self.pieces(body, budget - 1.0)
            if body.is_Add:  # a sum inside a sum keeps its parentheses
                inner = _bracket(inner)
            head = sign + inner[0].joined
            out.append(Piece(head, head, inner[0].width + (1.0 if sign else 0.0)))
            out.extend(inner[1:])
        return out

    def _quotient(self, num: sp.Basic, den: sp.Basic, budget: float) -> list[Piece] | None:
        """A wide quotient as ``1/den`` in front of its numerator, broken after it."""
        inner = self.pieces(num, budget)
        if len(inner) == 1:
            return None
        if num.is_Add:
            inner = _bracket(inner)
        front = f"<mfrac><mn>1</mn>{self.mathml.inner(den)}</mfrac>"
        head = front + inner[0].joined
        return [Piece(head, head, mathml_em(front) + inner[0].width), *inner[1:]]

    def _product(self, expr: sp.Mul, budget: float) -> list[Piece]:
        factors = list(expr.as_ordered_factors())
        coeff = ""
        if factors and factors[0] == -1:
            coeff, factors = _mo("\u2212"), factors[1:]
        out: list[Piece] = []
        for k, factor in enumerate(factors):
            inner = self.pieces(factor, budget)
            # a sum, or one piece that binds looser than a product, is parenthesised
            if factor.is_Add or (len(inner) == 1 and precedence(factor) < PRECEDENCE["Mul"]):
                inner = _bracket(inner)
            lead = inner[0]
            if k == 0:
                out.append(Piece(coeff + lead.joined, coeff + lead.opening, lead.width))
            else:
                out.append(Piece(lead.joined, _mo("\u00b7") + lead.joined, lead.width))
            out.extend(inner[1:])
        return out

    def _arguments(self, expr: sp.Function, budget: float) -> list[Piece]:
        """``max(a, b)``, ``beta(a, b)``: broken after the commas between the arguments,
        as the book breaks max and min."""
        if isinstance(expr, (sp.Max, sp.Min)):
            name = "max" if isinstance(expr, sp.Max) else "min"
        else:
            name = self.mathml.mathml_tag(expr)
        out: list[Piece] = []
        args = list(expr.args)
        for k, arg in enumerate(args):
            inner = self.pieces(arg, budget)
            lead = f"<mi>{escape(name)}</mi>{_mo('(')}" if k == 0 else ""
            tail = _mo(")") if k == len(args) - 1 else _mo(",")  # the comma ends its line
            first = inner[0]
            lead_em = 0.5 * len(name) + 0.55 if k == 0 else 0.0
            out.append(Piece(lead + first.joined, lead + first.opening, first.width + lead_em))
            out.extend(inner[1:])
            last = out[-1]
            out[-1] = Piece(last.joined + tail, last.opening + tail, last.width + 0.4)
        return out


def _flat(node: ET.Element, budget: float) -> list[ET.Element]:
    """The children of an ``mrow`` to cut between: an ``mrow`` child wider than ``budget``
    (a bracketed group) is opened into its own children, recursively."""
    if node.tag != "mrow":
        return [node]
    out: list[ET.Element] = []
    for child in node:
        wide = child.tag == "mrow" and _em(child) > budget
        out += _flat(child, budget) if wide else [child]
    return out


def _bracket(inner: list[Piece]) -> list[Piece]:
    """Parentheses around pieces that may end up on several lines."""
    first, last = inner[0], inner[-1]
    if len(inner) == 1:
        body = _mo("(") + first.joined + _mo(")")
        return [Piece(body, _mo("(") + first.opening + _mo(")"), first.width + 0.8)]
    head = Piece(_mo("(") + first.joined, _mo("(") + first.opening, first.width + 0.4)
    tail = Piece(last.joined + _mo(")"), last.opening + _mo(")"), last.width + 0.4)
    return [head, *inner[1:-1], tail]


def lines_of(pieces: list[Piece], first: float, rest: float) -> list[list[str]]:
    """Pieces packed greedily into lines (each a list of MathML pieces): the first line at
    most ``first`` wide, the others at most ``rest`` (a piece wider than its line gets a
    line of its own), as :func:`derivations.printing.latex_layout.fill` packs the book's."""
    lines: list[list[str]] = []
    current: list[str] = []
    width = 0.0
    for p in pieces:
        budget = first if not lines else rest
        # a short start (a coefficient, "+ k") stays with the wide piece that follows it
        if current and width + p.width > budget and width > 0.2 * budget:
            lines.append(current)
            current, width = [p.opening], p.width
        else:
            # the formula's first piece as it starts the formula, not as a continuation
            current.append(p.joined if current or not lines else p.opening)
            width += p.width
    lines.append(current)
    return lines


def math_lines(
    expr: sp.Basic,
    mathml: MathPrinter,
    latex: DerivationPrinter,
    width: float = LINE_EM,
    then: tuple[str, sp.Basic] | None = None,
) -> Markup:
    """``expr`` as the site shows a side of a chain: one ``<span class="line">`` per line
    of the book's kind of breaking (continuation lines indented by the stylesheet), each
    piece its own ``<math>`` so that a narrow window wraps between pieces.  ``then``, a
    relation (MathML) and a right side, continues the formula (a claim: lhs <= rhs)."""
    cut: Callable[[sp.Basic, float], list[Piece]] = _Cutter(mathml, latex).pieces
    # Cut finer than the lines are packed: on a wide screen the pieces join again into the
    # same lines, on a narrow one a line can still wrap between them.
    fine = min(width, PIECE_EM)
    pieces = cut(expr, fine)
    if then is not None:
        relation, right = then
        rest = cut(right, fine)
        joined = relation + rest[0].joined
        pieces += [Piece(joined, joined, 1.1 + rest[0].width), *rest[1:]]
    lines = lines_of(pieces, width, width - 2.0)  # continuation lines indented
    out = []
    for k, line in enumerate(lines):
        maths = "".join(f'<math class="m">{piece}</math> ' for piece in line).rstrip()
        cls = "line" if k == 0 else "line cont"
        out.append(f'<span class="{cls}">{maths}</span>')
    # Every text node was escaped by the printers: this is markup already.
    return Markup("".join(out))
