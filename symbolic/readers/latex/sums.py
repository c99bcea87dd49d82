"""Sums, products and integrals of LaTeX mathematics: ``\\sum_{i=1}^{n}``,
``\\prod_{i=1}^{n}``, ``\\int_a^b ... \\,dt``.

A sum or product takes the product that follows as its body, binding its index; with
declared families (:mod:`symbolic.families`) its body's elements ``p_i`` stay symbolic, the
range of each is checked against the family's, and ``\\sum_{i}`` runs over the range of the
families it indexes by i.  An integral takes everything up to its differential.
"""

from __future__ import annotations

import sympy as sp

from symbolic.families import Family, index_symbol
from symbolic.readers.latex.names import family_ranges, outside
from symbolic.readers.latex.parser import ExprParser
from symbolic.readers.latex.tokens import Tok
from symbolic.readers.latex.vocabulary import RELATIONS
from symbolic.readers.syntax import reserved_message

__all__ = ["SumReader"]

_OPENS = frozenset({"(", "[", "{", "\\left", "\\{", "\\lbrace", "\\lvert", "\\lfloor", "\\lceil"})
_CLOSES = frozenset({")", "]", "}", "\\right", "\\}", "\\rbrace", "\\rvert", "\\rfloor", "\\rceil"})
_INTEGRAND_ENDS = frozenset("+-)]},.;=<>|") | frozenset(RELATIONS) | _CLOSES
_INTEGRAND_ENDS |= frozenset({"\\cdot", "\\times"})


class SumReader(ExprParser):
    """``\\sum``, ``\\prod`` and ``\\int``: their limits, index and body."""

    def limits(self, tok: Tok, *, indexed: bool) -> tuple[sp.Expr, sp.Expr, str]:
        """The ``_`` and ``^`` limits after ``\\sum``/``\\int`` (either order), and for a sum
        its index."""
        lo, hi, name = self.limits_or_index(tok, indexed=indexed)
        if lo is None or hi is None:
            raise self.fail(f"{tok.value} needs both limits", tok, "write \\sum_{i=1}^{n} ...")
        return lo, hi, name

    def limits_or_index(
        self, tok: Tok, *, indexed: bool
    ) -> tuple[sp.Expr | None, sp.Expr | None, str]:
        """As :meth:`limits`, but a sum may give its index alone (``\\sum_{i}``: over the
        range of the families it indexes), when families are declared: then both limits
        are None."""
        lo: sp.Expr | None = None
        hi: sp.Expr | None = None
        name = ""
        for _ in range(2):
            nxt = self.peek()
            if self.is_char(nxt, "_") and lo is None and not name:
                self.next()
                if indexed and self.families and self._index_alone():
                    braced = self.is_char(self.peek(), "{")
                    name = self._index_name(self.toks[self.i + braced])
                    self.i += 3 if braced else 1
                    continue
                name, lo = self.sum_lower(tok) if indexed else ("", self.script(tok))
            elif self.is_char(nxt, "^") and hi is None:
                self.next()
                hi = self.script(tok)
        if indexed and name and lo is None:
            if hi is not None:
                raise self.fail(
                    f"{tok.value}_{{{name}}} with an upper limit but no start",
                    tok,
                    f"write {tok.value}_{{{name}=1}}^{{n}}",
                )
            return None, None, name
        if lo is None or hi is None:
            if indexed:
                raise self.fail(
                    f"{tok.value} needs both limits", tok, f"write {tok.value}_{{i=1}}^{{n}} ..."
                )
            raise self.fail(
                "indefinite integrals are not supported", tok, "write \\int_a^b f(t)\\,dt"
            )
        return lo, hi, name

    def sum_lower(self, tok: Tok) -> tuple[str, sp.Expr]:
        opener, var = self.peek(), self.peek(1)
        name = self._index_name(var) if var is not None else ""
        if not (self.is_char(opener, "{") and name and self.is_char(self.peek(2), "=")):
            raise self.fail(
                f"{tok.value} needs an index and its start", tok, "write \\sum_{i=1}^{n}"
            )
        assert opener is not None  # by is_char
        self.i += 3
        with self.nested():
            lo = self.expr()
        self.expect("}", "'}'", opener)
        return name, lo

    def _index_alone(self) -> bool:
        """After ``_``: a lone index, ``{i}`` or ``i``, with no ``=`` start."""
        first = self.peek()
        if self.is_char(first, "{"):
            name, close = self.peek(1), self.peek(2)
            return name is not None and bool(self._index_name(name)) and self.is_char(close, "}")
        return first is not None and first.kind == "letter"

    def big_sum(self, *, product: bool = False) -> sp.Expr:
        """``\\sum_{i=1}^{n}`` or ``\\prod_{i=1}^{n}`` and the product that follows; with
        families, ``\\sum_{i}`` runs over the range of the families its body indexes by i."""
        tok = self.next()
        lo, hi, name = self.limits_or_index(tok, indexed=True)
        self._check_index(name, tok)
        if name in self.sum_bound:
            raise self.fail(
                f"the index {name} is bound twice", tok, "give the inner sum another index"
            )
        var = index_symbol(name)
        what = "product" if product else "sum"
        if self.at_end() or not self.starts_factor(self.peek()):
            raise self.fail(f"the {what} has no body", tok, f"write {tok.value}_{{i=1}}^{{n}} a_i")
        mark = len(self.elements)
        with self.binding(name, var, index=True):
            body = self.signed()
        used = [(e, f, t) for e, f, t in self.elements[mark:] if var in e.free_symbols]
        if lo is None or hi is None:
            lo, hi = self._range_of(var, used, tok)
        for element, family, at in used:
            for index, (flo, fhi) in zip(element.indices, family_ranges(family), strict=False):
                if var not in index.free_symbols:
                    continue
                ends = (index.xreplace({var: lo}), index.xreplace({var: hi}))
                if any(outside(x, flo, fhi) for x in ends):
                    raise self.fail(
                        f"the element {element} leaves the family's range {flo}..{fhi} "
                        f"for {name} in {lo}..{hi}",
                        at,
                        f"index the family by {flo}..{fhi} only",
                    )
        cls = sp.Product if product else sp.Sum
        return cls(body, (var, lo, hi))

    def _range_of(
        self, var: sp.Symbol, used: list[tuple[sp.Indexed, Family, Tok]], tok: Tok
    ) -> tuple[sp.Expr, sp.Expr]:
        """The range of ``\\sum_{i}``: that of the families indexed by i itself (one)."""
        ranges = {
            (flo, fhi)
            for element, family, _ in used
            for index, (flo, fhi) in zip(element.indices, family_ranges(family), strict=False)
            if index == var
        }
        if len(ranges) != 1:
            found = "no family element" if not ranges else "families of different ranges"
            raise self.fail(
                f"{tok.value}_{{{var}}} indexes {found} by {var}",
                tok,
                f"give the range: {tok.value}_{{{var}=1}}^{{n}}",
            )
        ((lo, hi),) = ranges
        return lo, hi

    def _check_index(self, name: str, tok: Tok) -> None:
        """One namespace (symbolic.readers.syntax): an index is never a constant's or function's
        name (a declared name may be an index: inside, it is the bound variable)."""
        message = reserved_message(name)
        if message is not None:
            raise self.fail(f"the index of {tok.value}: {message}", tok)

    def integral(self) -> sp.Expr:
        tok = self.next()
        lo, hi, _ = self.limits(tok, indexed=False)
        d_index, name, after = self.differential(tok)
        self._check_index(name, tok)
        var = sp.Symbol(name, real=True)
        with self.binding(name, var), self.limited(d_index), self.nested():
            if self.at_end():
                raise self.fail("the integral has no integrand", tok, "write \\int_a^b f(t)\\,dt")
            body = self.expr()
            if not self.at_end():
                raise self.fail("unexpected token in the integrand", self.peek())
        self.i = after
        return sp.Integral(body, (var, lo, hi))

    def differential(self, tok: Tok) -> tuple[int, str, int]:
        """Where the integrand ends: the first ``dt`` (or ``\\mathrm{d}t``) outside brackets
        followed by an end of term."""
        depth = 0
        for j in range(self.i, self.stop):
            t = self.toks[j]
            key = t.value if t.kind in ("char", "cs") else t.kind
            if key in _OPENS or t.kind == "begin":
                depth += 1
            elif key in _CLOSES or t.kind == "end":
                depth -= 1
                if depth < 0:
                    break
            elif depth == 0 and _is_d(t) and j + 1 < self.stop:
                name = self._index_name(self.toks[j + 1])
                after = self.toks[j + 2] if j + 2 < self.stop else None
                if name and (after is None or _is_d(after) or _ends_integrand(after)):
                    return j, name, j + 2
        raise self.fail("the integral has no differential", tok, "write \\int_a^b f(t)\\,dt")


def _is_d(t: Tok) -> bool:
    return (t.kind == "letter" and t.value == "d") or (t.kind == "named" and t.arg == "d")


def _ends_integrand(t: Tok) -> bool:
    if t.kind in ("amp", "rowsep", "quad", "text", "end", "ref"):
        return True
    return t.kind in ("char", "cs") and t.value in _INTEGRAND_ENDS
