r"""How wide a formula will be on the page, and where to break one that is too wide.

pdflatex is not at hand while printing (and is slow), so widths are estimated from the
LaTeX string: glyphs of Computer Modern at 11 pt, binary and relation spacing of
TeX's math (The TeXbook, chapter 18: medium space around ``+``, thick space around ``=``),
fractions as wide as their wider part, scripts at 70% (The TeXbook, Appendix G: script
style).  The estimate errs on the wide side; the book's test reads pdflatex's log to check
that no line is overfull.

A formula too wide for its line is broken where a book breaks it: before a top-level ``+``
or ``-`` of a sum, between the factors of a product (continued with ``\cdot``), between the
arguments of ``max``/``min``, and inside a parenthesised sum (the parentheses become
``\Bigl( ... \Bigr)``, which, unlike ``\left ... \right``, may span lines).  The pieces are
computed from the expression tree, never by cutting the string, by the walk the site shares
(:func:`derivations.printing.cuts.cut`) with the book's markup (:class:`_LaTeX`).

>>> round(math_width(r"\frac{8 \varepsilon}{9} + \frac{c}{2}"))
37
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import reduce

import sympy as sp

from derivations.printing.cuts import Sign, cut, pack

__all__ = [
    "NOTE_WIDTHS",
    "Link",
    "Piece",
    "align_chain",
    "fill",
    "math_width",
    "pieces",
    "text_width",
    "widest_unbreakable",
]

_BODY_PT = 11.0
_SAFETY = 1.08  # the estimate runs a few percent short on nested scripts (measured)
_CHAR = {"letter": 5.9, "digit": 5.5, "upper": 8.0}
_SYMBOLS = {
    r"\varepsilon": 4.7,
    r"\cdot": 8.6,
    r"\le": 14.0,
    r"\ge": 14.0,
    r"\leq": 14.0,
    r"\geq": 14.0,
    r"\ne": 14.0,
    r"\to": 16.0,
    r"\in": 12.0,
    r"\int": 14.0,
    r"\sum": 16.0,
    r"\infty": 11.0,
    r"\,": 1.8,
    r"\;": 3.1,
    r"\quad": 11.0,
    r"\qquad": 22.0,
    r"\!": -1.8,
    r"\limits": 0.0,
    r"\left": 0.0,
    r"\right": 0.0,
    r"\middle": 0.0,
    r"\Bigl": 0.0,
    r"\Bigr": 0.0,
    r"\bar": 0.0,
    r"\dots": 14.0,
    r"\otimes": 14.0,
    r"\circ": 6.0,
    r"\|": 5.6,
    r"\{": 5.5,
    r"\}": 5.5,
}
_WORDS = ("operatorname", "mathrm", "text", "textsf", "mathcal", "mathbf", "texttt")
_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|[{}^_]|\s+|.")


def _size(level: int) -> float:
    """Math style level (0 display, 1 text, 2 script, 3 scriptscript) to a size factor."""
    return (1.0, 1.0, 0.73, 0.6)[min(level, 3)]


def _group(tokens: list[str], i: int) -> tuple[list[str], int]:
    """The tokens of the group starting at ``tokens[i]`` (braced or single) and the index
    after it."""
    while i < len(tokens) and tokens[i].isspace():
        i += 1
    if i >= len(tokens):
        return [], i
    if tokens[i] != "{":
        return [tokens[i]], i + 1
    depth, j = 0, i
    while j < len(tokens):
        depth += (tokens[j] == "{") - (tokens[j] == "}")
        if depth == 0:
            return tokens[i + 1 : j], j + 1
        j += 1
    return tokens[i + 1 :], len(tokens)


def _width(tokens: list[str], level: int) -> float:
    f = _size(level)
    total, i = 0.0, 0
    while i < len(tokens):
        t = tokens[i]
        i += 1
        if t.isspace() or t in "{}":
            continue
        if t == r"\frac":
            num, i = _group(tokens, i)
            den, i = _group(tokens, i)
            total += max(_width(num, level + 1), _width(den, level + 1)) + 2.4 * f
        elif t == r"\sqrt":
            arg, i = _group(tokens, i)
            total += _width(arg, level) + 9.0 * f
        elif t in ("^", "_"):
            arg, i = _group(tokens, i)
            total += _width(arg, max(level, 1) + 1)
        elif t[1:] in _WORDS:
            arg, i = _group(tokens, i)
            total += len("".join(arg)) * (5.0 if t[1:].startswith("text") else 5.6) * f
        elif t in _SYMBOLS:
            total += _SYMBOLS[t] * (f if t not in (r"\le", r"\ge", r"\cdot") else 1.0)
        elif t.startswith("\\") and len(t) > 2:
            name = t[1:]
            # \ln, \max, ...: roman letters and a thin space; \alpha, \Phi ...: one glyph
            known_ops = ("log", "ln", "exp", "max", "min", "tanh", "sinh", "cosh", "Pr")
            total += (len(name) * 5.0 + 1.8) * f if name in known_ops else 6.5 * f
        elif t in "+-" and level <= 1:
            total += 13.0
        elif t in "=<>" and level <= 1:
            total += 14.0
        elif t == ",":
            total += (3.1 + 1.8) * f
        elif t in "()[]|/":
            # after \left or \right the delimiter grows with what it encloses
            grown = i >= 2 and tokens[i - 2] in (r"\left", r"\right", r"\middle")
            total += (6.5 if grown else 4.3) * f
        elif t.isdigit():
            total += _CHAR["digit"] * f
        elif t.isupper():
            total += _CHAR["upper"] * f
        else:
            total += _CHAR["letter"] * f * (1.5 if t in "+-=<>" else 1.0)
    return total


def math_width(latex: str, display: bool = True) -> float:
    """Estimated width in pt of ``latex`` set as (display) math at 11 pt."""
    return _width(_TOKEN.findall(latex), 0 if display else 1) * _SAFETY


def text_width(text: str, size_pt: float = _BODY_PT) -> float:
    """Estimated width in pt of LaTeX text (``$...$`` parts measured as math)."""
    width = 0.0
    for k, part in enumerate(re.split(r"(?<!\\)\$", text)):
        if k % 2:
            width += math_width(part, display=False) * size_pt / _BODY_PT
        else:
            plain = re.sub(r"\\[A-Za-z]+\{?|[{}]", "", part)
            width += len(plain) * 0.46 * size_pt
    return width


@dataclass(frozen=True)
class Piece:
    """A run of a formula that stays on one line: ``joined`` follows the previous piece on
    its line, ``opening`` starts a continuation line (``+ b`` in both; ``\\,b`` and
    ``\\cdot b`` for a factor)."""

    joined: str
    opening: str


Printer = Callable[[sp.Basic], str]


class _LaTeX:
    """The book's markup for :func:`~derivations.printing.cuts.cut`: LaTeX, measured by
    :func:`math_width`; parentheses that may span lines are ``\\Bigl( ... \\Bigr)``."""

    sign_room = 14.0  # a binary operator with its medium spaces
    operator_room = 0.0  # the book keeps a big operator's bracket whole

    def __init__(self, show: Printer, ordered: Callable[[sp.Add], list[sp.Basic]]):
        self.show = show
        self.ordered = ordered

    def whole(self, expr: sp.Basic) -> Piece:
        text = self.show(expr)
        return Piece(text, text)

    def width(self, piece: Piece) -> float:
        return math_width(piece.joined)

    def term(self, sign: Sign, first: Piece) -> Piece:
        head = f"{sign} {first.joined}".strip()
        return Piece(head, head)

    def bracket(self, inner: list[Piece]) -> list[Piece]:
        head = Piece(r"\Bigl(" + inner[0].joined, r"\Bigl(" + inner[0].opening)
        if len(inner) == 1:
            return [Piece(head.joined + r"\Bigr)", head.opening + r"\Bigr)")]
        last = inner[-1]
        tail = Piece(last.joined + r"\Bigr)", last.opening + r"\Bigr)")
        return [head, *inner[1:-1], tail]

    def paren(self, p: Piece) -> Piece:
        return Piece(rf"\left({p.joined}\right)", rf"\left({p.opening}\right)")

    def reciprocal(self, den: sp.Basic) -> Piece:
        front = rf"\frac{{1}}{{{self.show(den)}}}"
        return Piece(front, front)

    def ahead(self, front: Piece, first: Piece) -> Piece:
        head = f"{front.joined} {first.joined}"
        return Piece(head, head)

    def negated(self, first: Piece) -> Piece:
        return Piece("-" + first.joined, "-" + first.joined)

    def continued(self, first: Piece) -> Piece:
        return Piece(first.joined, r"\cdot " + first.joined)

    def call(self, expr: sp.Basic) -> str | None:
        if isinstance(expr, (sp.Max, sp.Min)):
            return r"\max" if isinstance(expr, sp.Max) else r"\min"
        return None  # the book's notation of other functions has no argument list to break

    def opened(self, name: str, first: Piece) -> Piece:
        return Piece(name + r"\Bigl(" + first.joined, name + r"\Bigl(" + first.opening)

    def closed(self, last: Piece, final: bool) -> Piece:
        tail = r"\Bigr)" if final else ","
        return Piece(last.joined + tail, last.opening + tail)

    def notation(self, expr: sp.Basic, whole: Piece, budget: float) -> list[Piece] | None:
        return None

    def operator(self, expr: sp.Sum) -> Piece | None:
        return None


def pieces(
    expr: sp.Basic,
    budget: float,
    show: Printer,
    ordered: Callable[[sp.Add], list[sp.Basic]],
) -> list[Piece]:
    """``expr`` cut into pieces no wider than ``budget`` where the tree allows it (a piece
    that cannot be cut stays whole), by the walk the site shares
    (:func:`derivations.printing.cuts.cut`)."""
    return cut(expr, budget, _LaTeX(show, ordered))


def fill(parts: list[Piece], first: float, rest: float) -> list[str]:
    """Pieces packed greedily into lines (:func:`~derivations.printing.cuts.pack`): the
    first line at most ``first`` wide, the others at most ``rest`` (a piece wider than its
    line gets a line of its own)."""
    lines = pack(
        parts, first, rest, lambda p: math_width(p.joined), lambda p: math_width(p.opening)
    )
    return [reduce(lambda line, run: f"{line} {run}".strip(), runs[1:], runs[0]) for runs in lines]


@dataclass(frozen=True)
class Link:
    """One step of a chain to lay out: its relation, how to cut its expression for a given
    width, and its justification (LaTeX text, "" for none)."""

    relation: str
    parts: Callable[[float], list[Piece]]
    note: str


NOTE_WIDTHS = (115.0, 140.0, 165.0)
"""Widths in pt tried for the justification column (about 4 to 5.8 cm)."""
_GAP = 16.0  # \minalignsep (10 pt) between a formula and its justification, and slack
_REL = 14.0  # a relation with its thick spaces
_INDENT = 22.0  # \qquad before a continuation line
_NOTE_PT = 10.0  # justifications are \small


def widest_unbreakable(text: str, size_pt: float = _NOTE_PT) -> float:
    """The widest run of ``text`` that TeX cannot break: a word, or a piece of an inline
    formula between the relations and binary operators where TeX may break it."""
    widest = 0.0
    for k, part in enumerate(re.split(r"(?<!\\)\$", text)):
        if k % 2:
            chunks = re.split(r"\s(?:[+=<>-]|\\le|\\ge|\\leq|\\geq)\s", part)
            widths = [math_width(c, display=False) * size_pt / _BODY_PT for c in chunks]
        else:
            widths = [text_width(w, size_pt) for w in part.split()]
        widest = max([widest, *widths])
    return widest


def _note_cell(note: str, width: float) -> str:
    if text_width(note, _NOTE_PT) <= width:
        return rf"\text{{\small {note}}}"
    return rf"\parbox[t]{{{width:.0f}pt}}{{\raggedright\small {note}}}"


def _row_height(body: str) -> float:
    return 26.0 if r"\frac" in body or r"\sum" in body else 16.0


def _note_height(note: str, width: float) -> float:
    # words do not fill a ragged line: count 15% more lines than the bare width needs
    lines = -(-text_width(note, _NOTE_PT) * 1.15 // width) if width else 0
    return 12.5 * lines + 6.0


def _layout(
    head: str,
    head_parts: Callable[[float], list[Piece]],
    links: Sequence[Link],
    width: float,
    note_w: float,
    moved: bool,
) -> tuple[list[str], float]:
    """The rows of one layout and its estimated height."""
    rows: list[str] = []
    height = 0.0
    if moved:
        # The first left side on a line of its own, the relations indented under it; zero
        # width (\mathrlap) so that it does not widen the first column.
        lhs_lines = fill(head_parts(width), width, width - _INDENT)
        back = rf"\hspace{{-{_INDENT:.0f}pt}}"
        rows.append(rf"\hspace{{{_INDENT:.0f}pt}} &\mathrlap{{{back}{lhs_lines[0]}}}")
        rows += [rf"&\mathrlap{{{back}\qquad {{}}{line}}}" for line in lhs_lines[1:]]
        height += sum(_row_height(x) for x in lhs_lines)
        col1 = _INDENT
    else:
        col1 = math_width(head)
    beside = width - col1 - (note_w + _GAP if note_w else 0.0)
    wide = width - col1
    for k, link in enumerate(links):
        lines = fill(link.parts(beside - _REL), beside - _REL, beside - _INDENT)
        if max(math_width(x) for x in lines) > beside:
            lines = fill(link.parts(wide - _REL), wide - _REL, wide - _INDENT)
        bodies = [f"{link.relation} {lines[0]}"] + [rf"\qquad {{}}{x}" for x in lines[1:]]
        placed = False
        step_height = 0.0
        for j, body in enumerate(bodies):
            lead = head if (k == 0 and j == 0 and not moved) else ""
            cell = rf"\mathrlap{{{{}}{body}}}" if note_w and math_width(body) > beside else body
            note = ""
            if link.note and not placed and math_width(body) <= beside:
                note, placed = _note_cell(link.note, note_w), True
                step_height = max(step_height, _note_height(link.note, note_w) - 10.0)
            rows.append(f"{lead} &{cell}" + (f" && {note}" if note else ""))
            step_height = step_height if j else 0.0
        lines_height = sum(_row_height(x) for x in bodies)
        if link.note and not placed:
            rows.append(rf"&&& {_note_cell(link.note, note_w)}")
            lines_height += _note_height(link.note, note_w)
        height += max(lines_height, step_height)
    return rows, height


def align_chain(
    head: str,
    head_parts: Callable[[float], list[Piece]],
    links: Sequence[Link],
    width: float,
) -> str:
    """A chain ``head R1 e1 R2 e2 ...`` as rows of a display, justifications beside the
    steps.  Of the layouts (the first left side on its own line or not, each width of the
    justification column) the one estimated shortest on the page is taken, so that a long
    chain stays on one page.  An expression is broken to fit beside its justification; only a
    piece that cannot be broken further is set over the justification column
    (``\\mathrlap``), its justification moving to the next line."""
    notes = any(link.note for link in links)
    longest = max(text_width(x.note, _NOTE_PT) for x in links)
    # a column narrower than a formula that cannot break would overflow
    floor = max(widest_unbreakable(x.note) for x in links) + 8.0
    widths = [max(floor, min(w, longest)) for w in NOTE_WIDTHS]
    candidates = [
        (moved, w)
        for moved in (False, True)
        for w in (sorted(set(widths)) if notes else [0.0])
        if moved or math_width(head) <= 0.3 * width
    ]
    best: tuple[float, bool, list[str]] | None = None
    for moved, note_w in candidates:
        rows, height = _layout(head, head_parts, links, width, note_w, moved)
        if best is None or height < best[0] - 1.0:
            best = (height, moved, rows)
    assert best is not None
    _, moved, rows = best
    # flalign*: the chain flush left and the justifications flush right, so that a moved
    # left side starts at the margin whatever the width of the rest.
    env = "flalign*" if moved or notes else "align*"
    if moved and not notes:
        rows[0] += " &&"  # flalign* centres a single column pair: add an empty second
    return f"\\begin{{{env}}}\n" + " \\\\\n".join(rows) + f"\n\\end{{{env}}}"
