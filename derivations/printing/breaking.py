r"""Long sides of a chain broken into lines for the site, where the book breaks them.

The book's LaTeX (:mod:`derivations.printing.latex.layout`) cuts a formula too wide for its
line from the expression tree: before a top-level ``+`` or ``-`` of a sum, between the
factors of a product (a continuation line opens with ``·``), between the arguments of
``max``/``min``, inside a parenthesised sum, and a wide quotient as ``1/den`` times its
numerator.  The site cuts at the same places by the same walk
(:func:`derivations.printing.cuts.cut`), printed by its own markup (:class:`_MathML`), and,
since its lines are narrower than the book's, also inside the bracket of a big-operator sum
``Σ (a + b)``; it packs the pieces into lines by an estimate of their width, so that at
1024 px and wider no line needs a scroll bar.

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
from dataclasses import dataclass

import sympy as sp
from markupsafe import Markup, escape

from derivations.printing.cuts import Sign, cut, pack
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
    opens with ``·``); ``width`` is the estimate of ``joined`` in em."""

    joined: str
    opening: str
    width: float


def _mo(sign: str) -> str:
    return f"<mo>{sign}</mo>"


class _MathML:
    """The site's markup for :func:`~derivations.printing.cuts.cut`: MathML, measured by
    :func:`mathml_em`, for one derivation (its printers know its variables' names)."""

    sign_room = 1.0
    operator_room = 3.0

    def __init__(self, mathml: MathPrinter, latex: DerivationPrinter):
        self.mathml = mathml
        self.ordered = latex.ordered  # the order of a sum's terms, the book's

    def whole(self, expr: sp.Basic) -> Piece:
        inner = self.mathml.inner(expr)
        return Piece(inner, inner, mathml_em(inner))

    def width(self, piece: Piece) -> float:
        return piece.width

    def term(self, sign: Sign, first: Piece) -> Piece:
        mark = {"-": _mo("\u2212"), "+": _mo("+"), "": ""}[sign]
        head = mark + first.joined
        return Piece(head, head, first.width + (1.0 if sign else 0.0))

    def bracket(self, inner: list[Piece]) -> list[Piece]:
        first, last = inner[0], inner[-1]
        if len(inner) == 1:
            body = _mo("(") + first.joined + _mo(")")
            return [Piece(body, _mo("(") + first.opening + _mo(")"), first.width + 0.8)]
        head = Piece(_mo("(") + first.joined, _mo("(") + first.opening, first.width + 0.4)
        tail = Piece(last.joined + _mo(")"), last.opening + _mo(")"), last.width + 0.4)
        return [head, *inner[1:-1], tail]

    def paren(self, piece: Piece) -> Piece:
        return self.bracket([piece])[0]

    def reciprocal(self, den: sp.Basic) -> Piece:
        front = f"<mfrac><mn>1</mn>{self.mathml.inner(den)}</mfrac>"
        return Piece(front, front, mathml_em(front))

    def ahead(self, front: Piece, first: Piece) -> Piece:
        head = front.joined + first.joined
        return Piece(head, head, front.width + first.width)

    def negated(self, first: Piece) -> Piece:
        minus = _mo("\u2212")
        return Piece(minus + first.joined, minus + first.opening, first.width)

    def continued(self, first: Piece) -> Piece:
        return Piece(first.joined, _mo("\u00b7") + first.joined, first.width)

    def call(self, expr: sp.Basic) -> str | None:
        """``max(a, b)``, ``beta(a, b)``: broken after the commas between the arguments.
        Our functions print in the book's notation (Pr[f(x) + Lap(b) = z]), cut by
        :meth:`notation`."""
        if isinstance(expr, (sp.Max, sp.Min)):
            return "max" if isinstance(expr, sp.Max) else "min"
        if isinstance(expr, sp.Function) and len(expr.args) > 1:
            return str(self.mathml.mathml_tag(expr))
        return None

    def opened(self, name: str, first: Piece) -> Piece:
        lead = f"<mi>{escape(name)}</mi>{_mo('(')}"
        lead_em = 0.5 * len(name) + 0.55
        return Piece(lead + first.joined, lead + first.opening, first.width + lead_em)

    def closed(self, last: Piece, final: bool) -> Piece:
        tail = _mo(")") if final else _mo(",")
        return Piece(last.joined + tail, last.opening + tail, last.width + 0.4)

    def notation(self, expr: sp.Basic, whole: Piece, budget: float) -> list[Piece] | None:
        """One of our functions in the book's notation (``G_mu(1 - [...](alpha))``), too
        wide for its line: cut between the symbols of its MathML, opening a bracketed group
        where one alone is too wide, as a line of the book would break."""
        if not is_ours(expr):
            return None
        try:
            root = ET.fromstring(_ENTITY.sub("", whole.joined))
        except ET.ParseError:  # markup the estimate cannot read: kept whole
            return [whole]
        out: list[Piece] = []
        for node in _flat(root, budget):
            text = ET.tostring(node, encoding="unicode")
            out.append(Piece(text, text, _em(node)))
        return out or [whole]

    def operator(self, expr: sp.Sum) -> Piece | None:
        """``Σ_{i=1}^{n} (a + b)``: the operator with its limits opens the bracket, the
        terms are cut as a sum."""
        operator = self.mathml.inner(sp.Sum(sp.Symbol("x"), *expr.limits))
        # the printed operator with limits, without its dummy body
        operator = operator[: operator.rindex("</munderover>") + len("</munderover>")]
        operator = operator.removeprefix("<mrow>")
        return Piece(operator, operator, mathml_em(operator))


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


def lines_of(pieces: list[Piece], first: float, rest: float) -> list[list[str]]:
    """Pieces packed greedily into lines (each a list of MathML pieces) by the book's packer
    (:func:`~derivations.printing.cuts.pack`): the first line at most ``first`` wide, the
    others at most ``rest``; a short start (a coefficient, "+ k") stays with the wide piece
    that follows it, and the formula's first piece starts it as written, not as a
    continuation."""
    return pack(pieces, first, rest, lambda p: p.width, lambda p: p.width, short=0.2, opens=False)


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
    markup = _MathML(mathml, latex)
    # Cut finer than the lines are packed: on a wide screen the pieces join again into the
    # same lines, on a narrow one a line can still wrap between them.
    fine = min(width, PIECE_EM)
    pieces = cut(expr, fine, markup)
    if then is not None:
        relation, right = then
        rest = cut(right, fine, markup)
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
