"""The one walk that cuts long formulas (issue 42), seen through a plain-text markup, and
the book and the site cutting at the same places through it."""

from __future__ import annotations

import sympy as sp

from derivations.printing.cuts import Sign, cut, pack

Plain = tuple[str, str]  # (joined, opening)


class _Text:
    """A markup of plain text, one unit of width per character: the walk's cut points
    without either printer's spacing."""

    sign_room = 2.0
    operator_room = 4.0

    def whole(self, expr: sp.Basic) -> Plain:
        return (str(expr), str(expr))

    def width(self, piece: Plain) -> float:
        return float(len(piece[0]))

    def ordered(self, expr: sp.Add) -> list[sp.Basic]:
        return list(expr.as_ordered_terms())

    def term(self, sign: Sign, first: Plain) -> Plain:
        head = f"{sign} {first[0]}".strip()
        return (head, head)

    def bracket(self, pieces: list[Plain]) -> list[Plain]:
        if len(pieces) == 1:
            return [self.paren(pieces[0])]
        (j, o), (lj, lo) = pieces[0], pieces[-1]
        return [("(" + j, "(" + o), *pieces[1:-1], (lj + ")", lo + ")")]

    def paren(self, piece: Plain) -> Plain:
        return (f"({piece[0]})", f"({piece[1]})")

    def reciprocal(self, den: sp.Basic) -> Plain:
        return (f"1/({den})", f"1/({den})")

    def ahead(self, front: Plain, first: Plain) -> Plain:
        return (f"{front[0]} {first[0]}", f"{front[0]} {first[0]}")

    def negated(self, first: Plain) -> Plain:
        return ("-" + first[0], "-" + first[1])

    def continued(self, first: Plain) -> Plain:
        return (first[0], "* " + first[0])

    def call(self, expr: sp.Basic) -> str | None:
        return type(expr).__name__.lower() if isinstance(expr, (sp.Max, sp.Min)) else None

    def opened(self, name: str, first: Plain) -> Plain:
        return (f"{name}({first[0]}", f"{name}({first[1]})")

    def closed(self, last: Plain, final: bool) -> Plain:
        tail = ")" if final else ","
        return (last[0] + tail, last[1] + tail)

    def notation(self, expr: sp.Basic, whole: Plain, budget: float) -> list[Plain] | None:
        return None

    def operator(self, expr: sp.Sum) -> Plain | None:
        return ("Sum", "Sum") if expr.limits else None


a, b, c, d, x = sp.symbols("a b c d x", positive=True)


def _joined(expr: sp.Basic, budget: float) -> list[str]:
    return [p[0] for p in cut(expr, budget, _Text())]


def test_a_formula_that_fits_stays_whole() -> None:
    assert _joined(a + b * c - d, 100.0) == [str(a + b * c - d)]


def test_the_cut_points_of_the_book() -> None:
    """Before each sign of a sum, between factors (a continuation opens with the dot),
    after the commas of max, inside a parenthesised sum, a quotient as 1/den in front."""
    assert _joined(a + b - d, 1.0) == ["a", "+ b", "- d"]
    # a term is measured without the room its sign takes (2 here): b*c (3) fits 5, not 3
    assert _joined(a + b * c, 5.0) == ["a", "+ b*c"]
    assert _joined(a + b * c, 3.0) == ["a", "+ b", "c"]
    nested = sp.Add(a, sp.Add(b, c, evaluate=False), evaluate=False)  # as an author wrote it
    assert _joined(nested, 1.0) == ["a", "+ (b", "+ c)"]
    assert cut((a + b) * c * x, 1.0, _Text()) == [
        ("c", "c"),
        ("x", "* x"),
        ("(a", "* (a"),
        ("+ b)", "+ b)"),
    ]
    assert _joined(sp.Max(a + b, c), 1.0) == ["max(c,", "a", "+ b)"]
    assert _joined((a + b) / (c + d), 1.0) == ["1/(c + d) (a", "+ b)"]
    assert cut(-a * b, 1.0, _Text()) == [("-a", "-a"), ("b", "* b")]


def test_a_big_operator_is_cut_only_where_the_markup_allows() -> None:
    i = sp.Symbol("i", integer=True)
    total = sp.Sum(a * i + b, (i, 1, 9))
    assert _joined(total, 1.0) == ["Sum (a", "i", "+ b)"]

    class _NoSums(_Text):
        def operator(self, expr: sp.Sum) -> Plain | None:
            return None

    assert [p[0] for p in cut(total, 1.0, _NoSums())] == [str(total)]


def test_the_book_and_the_site_cut_at_the_same_places() -> None:
    """Issue 42: one walk.  Forced to cut everywhere (budget 0), the book's LaTeX and the
    site's MathML of a catalog formula come in as many pieces, continuation lines opening
    alike (a dot for a factor), wherever the site has no cut of its own (our functions'
    notation, a big operator's bracket, the arguments of other functions)."""
    from derivations.app.html.model import display_names
    from derivations.catalog import get
    from derivations.printing.breaking import _MathML
    from derivations.printing.latex import DerivationPrinter
    from derivations.printing.mathml import MathPrinter
    from derivations.printing.notation import is_ours

    def site_only(s: sp.Basic) -> bool:
        several = isinstance(s, sp.Function) and len(s.args) > 1
        return is_ours(s) or isinstance(s, sp.Sum) or (several and not isinstance(s, sp.Max))

    d = get("numeric-sparse-accuracy-bound-approx")
    book = DerivationPrinter().for_derivation(d)
    site = _MathML(MathPrinter(display_names(d), book), book)
    exprs = [right for _, _, right, _ in d.links()] + [d.claim.lhs, d.claim.rhs]
    exprs = [e for e in exprs if not any(site_only(s) for s in sp.preorder_traversal(e))]
    assert sum(len(book.pieces(e, 0.0)) > 2 for e in exprs) >= 2
    for e in exprs:
        tex, mathml = book.pieces(e, 0.0), cut(e, 0.0, site)
        assert len(tex) == len(mathml)
        dots = [p.opening.startswith(r"\cdot") for p in tex]
        assert dots == [p.opening.startswith("<mo>\u00b7</mo>") for p in mathml]
        signs = [p.joined[:1] in "+-" for p in tex]
        assert signs == [p.joined.startswith(("<mo>+", "<mo>\u2212")) for p in mathml]


class _Run:
    def __init__(self, text: str, width: float) -> None:
        self.joined, self.opening, self.width = text, "* " + text, width


def _pack(
    runs: list[_Run], budget: float, short: float | None = None, opens: bool = True
) -> list[list[str]]:
    return pack(runs, budget, budget, _width, _width, short=short, opens=opens)


def _width(run: _Run) -> float:
    return run.width


def test_one_packer_with_the_book_and_the_site_policies() -> None:
    """The book and the site pack by one greedy packer (issue 42); what differs is policy:
    the formula's first piece as opening (the book) or as written (the site), and whether a
    short start stays with the wide piece after it (the site)."""
    small = [_Run(f"a{k}", 4.0) for k in range(5)]
    assert _pack(small, 10.0) == [["* a0", "a1"], ["* a2", "a3"], ["* a4"]]
    assert _pack(small, 10.0, opens=False)[0] == ["a0", "a1"]
    wide = [_Run("c", 1.0), _Run("W", 50.0), _Run("d", 1.0)]
    assert _pack(wide, 10.0) == [["* c"], ["* W"], ["* d"]]  # a piece too wide: its own line
    assert _pack(wide, 10.0, short=0.2) == [["* c", "W"], ["* d"]]
    assert _pack(wide, 2.0, short=0.2) == [["* c"], ["* W"], ["* d"]]  # c is 50% of 2
