r"""Where a formula too wide for its line is cut: one walk of the expression tree, and one
packer of its pieces into lines, for the book and for the site.

A formula too wide for its line is broken where a book breaks it: before a top-level ``+``
or ``-`` of a sum, between the factors of a product (a continuation line opens with a
centre dot), between the arguments of ``max``/``min``, inside a parenthesised sum, and a
wide quotient as ``1/den`` times its numerator.  :func:`cut` finds these places from the
expression tree (never by cutting a string), and :func:`pack` packs the pieces into lines;
a :class:`Markup` says how a piece is printed and how wide it is: LaTeX and its estimate in
pt for the book (:mod:`derivations.printing.latex.layout`), MathML and its estimate in em for
the site (:mod:`derivations.printing.breaking`).  A markup may allow more cuts than the book's: the
site, whose lines are narrower, also cuts inside the bracket of a big-operator sum, between
the symbols of one of our functions in the book's notation, and between the arguments of
any function of several arguments.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal, Protocol, TypeVar

import sympy as sp
from sympy.printing.precedence import PRECEDENCE, precedence

__all__ = ["Markup", "Run", "Sign", "cut", "pack"]

P = TypeVar("P")
Sign = Literal["-", "+", ""]


class Markup(Protocol[P]):
    """How the pieces of a formula are printed and measured (``P``: the markup's piece, a
    run that stays on one line).  The first piece of a cut formula starts it, the others
    may start a continuation line."""

    sign_room: float
    """What the sign of a term takes from the width left for the term."""
    operator_room: float
    """What a big operator takes from the width left for the sum in its bracket."""

    def whole(self, expr: sp.Basic) -> P:
        """``expr`` as one piece."""

    def width(self, piece: P) -> float:
        """The estimated width of ``piece`` (in the unit of the budget)."""

    def ordered(self, expr: sp.Add) -> list[sp.Basic]:
        """The terms of a sum in the order they print."""

    def term(self, sign: Sign, first: P) -> P:
        """The first piece of a term of a sum behind its sign."""

    def bracket(self, pieces: list[P]) -> list[P]:
        """Parentheses around pieces that may end up on several lines."""

    def paren(self, piece: P) -> P:
        """Parentheses around a factor that stays on one line."""

    def reciprocal(self, den: sp.Basic) -> P:
        """``1/den``, put in front of the numerator of a wide quotient."""

    def ahead(self, front: P, first: P) -> P:
        """``front`` (a reciprocal, a big operator) before the first piece after it."""

    def negated(self, first: P) -> P:
        """The first factor of a product behind its coefficient ``-1``."""

    def continued(self, first: P) -> P:
        """The first piece of a later factor: a line it starts opens with a centre dot."""

    def call(self, expr: sp.Basic) -> str | None:
        """The function's name if a line may break between the arguments of ``expr``."""

    def opened(self, name: str, first: P) -> P:
        """The first piece of the first argument behind the function's name and ``(``."""

    def closed(self, last: P, final: bool) -> P:
        """The last piece of an argument followed by ``)`` (``final``) or a comma."""

    def notation(self, expr: sp.Basic, whole: P, budget: float) -> list[P] | None:
        """``expr`` cut as the markup's own notation allows, or None where it has none."""

    def operator(self, expr: sp.Sum) -> P | None:
        """``expr``'s big operator with its limits, if a line may break in its bracket."""


def cut(expr: sp.Basic, budget: float, markup: Markup[P]) -> list[P]:
    """``expr`` cut into pieces no wider than ``budget`` where the tree allows it (a piece
    that cannot be cut stays whole)."""
    whole = markup.whole(expr)
    if markup.width(whole) <= budget:
        return [whole]
    if isinstance(expr, sp.Add):
        return _sum(expr, budget, markup)
    if isinstance(expr, sp.Mul):
        num, den = sp.fraction(expr, exact=True)
        if den != 1:
            return _quotient(num, den, budget, markup) or [whole]
        return _product(expr, budget, markup)
    own = markup.notation(expr, whole, budget)
    if own is not None:
        return own
    name = markup.call(expr)
    if name is not None:
        return _arguments(expr, name, budget, markup)
    if isinstance(expr, sp.Sum) and isinstance(expr.function, sp.Add):
        operator = markup.operator(expr)
        if operator is not None:
            inner = markup.bracket(_sum(expr.function, budget - markup.operator_room, markup))
            return [markup.ahead(operator, inner[0]), *inner[1:]]
    return [whole]


def _sum(expr: sp.Add, budget: float, markup: Markup[P]) -> list[P]:
    out: list[P] = []
    for k, term in enumerate(markup.ordered(expr)):
        negative = term.could_extract_minus_sign()
        body = -term if negative else term
        sign: Sign = "-" if negative else ("+" if k else "")
        inner = cut(body, budget - markup.sign_room, markup)
        if body.is_Add:  # a sum inside a sum keeps its parentheses
            inner = markup.bracket(inner)
        out += [markup.term(sign, inner[0]), *inner[1:]]
    return out


def _quotient(num: sp.Basic, den: sp.Basic, budget: float, markup: Markup[P]) -> list[P] | None:
    """A wide quotient as ``1/den`` in front of its numerator, broken after it."""
    inner = cut(num, budget, markup)
    if len(inner) == 1:
        return None
    if num.is_Add:
        inner = markup.bracket(inner)
    return [markup.ahead(markup.reciprocal(den), inner[0]), *inner[1:]]


def _product(expr: sp.Mul, budget: float, markup: Markup[P]) -> list[P]:
    factors = list(expr.as_ordered_factors())  # the order the printers print
    negative = bool(factors) and factors[0] == -1
    if negative:
        factors = factors[1:]
    out: list[P] = []
    for k, factor in enumerate(factors):
        inner = cut(factor, budget, markup)
        if factor.is_Add and len(inner) > 1:
            inner = markup.bracket(inner)
        elif factor.is_Add or (len(inner) == 1 and precedence(factor) < PRECEDENCE["Mul"]):
            # a sum, or one piece that binds looser than a product, is parenthesised
            inner = [markup.paren(inner[0])]
        if k:
            lead = markup.continued(inner[0])
        else:
            lead = markup.negated(inner[0]) if negative else inner[0]
        out += [lead, *inner[1:]]
    return out


def _arguments(expr: sp.Basic, name: str, budget: float, markup: Markup[P]) -> list[P]:
    """``max(a, b)``: broken after the commas between the arguments."""
    out: list[P] = []
    args = list(expr.args)
    for k, arg in enumerate(args):
        inner = cut(arg, budget, markup)
        out += [markup.opened(name, inner[0]) if k == 0 else inner[0], *inner[1:]]
        out[-1] = markup.closed(out[-1], final=k == len(args) - 1)  # the comma ends its line
    return out


class Run(Protocol):
    """A piece as :func:`pack` reads it: how it follows the piece before it on a line
    (``joined``) and how it starts a line (``opening``: a factor's with its dot)."""

    @property
    def joined(self) -> str: ...

    @property
    def opening(self) -> str: ...


R = TypeVar("R", bound=Run)


def pack(
    pieces: Sequence[R],
    first: float,
    rest: float,
    width: Callable[[R], float],
    opening_width: Callable[[R], float],
    *,
    short: float | None = None,
    opens: bool = True,
) -> list[list[str]]:
    """Pieces packed greedily into lines, each a list of the pieces' ``joined`` forms but the
    first, which opens its line: the first line at most ``first`` wide, the others at most
    ``rest`` (a piece wider than its line gets a line of its own).  ``width`` measures a
    piece joined, ``opening_width`` one that starts a line.  ``short``: a line no wider than
    this share of its budget keeps the next piece, however wide (the site keeps a short start,
    a coefficient or ``+ k``, with what follows it).  ``opens``: the formula's first piece in
    its opening form (the book's) or as joined (the site's)."""
    lines: list[list[str]] = []
    current: list[str] = []
    used = 0.0
    for p in pieces:
        budget = first if not lines else rest
        w = width(p)
        if current and used + w > budget and (short is None or used > short * budget):
            lines.append(current)
            current, used = [p.opening], opening_width(p)
        else:
            current.append(p.opening if opens and not current else p.joined)
            used += w
    lines.append(current)
    return lines
