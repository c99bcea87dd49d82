"""From LaTeX names to the declared symbols.

A name is a letter, a Greek letter or ``\\mathrm{...}``, with an optional subscript and
primes.  It stands for the first declared name among its spellings: ``p_1`` and ``p_{1}`` are
``p1`` (or ``p_1``), ``f_x`` is ``fx``, ``\\varepsilon_0`` is ``eps0``, ``\\delta'`` is
``deltaprime`` (or ``delta_prime``).  A run of letters that is itself declared (``fx``,
``eps``) is that name; otherwise letters multiply (``kx`` is ``k*x``).  Undeclared ``e`` and
``E`` are Euler's number.

Inside ``\\sum_{i=1}^{3}``, ``p_i`` is indexed by the summation variable; the sum is written
out (``p1 + p2 + p3``) once its bounds are numbers, when the distribution is declared as the
symbols ``p1..pn``.

A declared *family* ``p`` (``p = "(0, 1) for i in 1..n"``, :mod:`symbolic.families`) is read
otherwise: ``p_i``, ``p_{i+1}``, ``p_3``, ``p_n`` are its elements ``p[i]``, ``p[i + 1]``, ...,
which stay symbolic under a sum or product of any length.  An element's index must be bound
(by ``\\sum``, ``\\prod`` or a hypothesis's ``\\forall i``), a number or a declared variable,
and must not leave the family's range; ``p`` without an index is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import pairwise

import sympy as sp
from sympy.core.function import AppliedUndef

from symbolic.errors import LatexError
from symbolic.families import Family
from symbolic.readers.latex.cursor import Cursor, Indexed, q
from symbolic.readers.latex.tokens import Tok
from symbolic.readers.latex.vocabulary import FUNCTION_WORDS, GREEK

__all__ = [
    "MAX_EXPANDED_TERMS",
    "MAX_NAME_LENGTH",
    "NameReader",
    "expand_indexed",
    "family_ranges",
    "outside",
]

MAX_EXPANDED_TERMS = 1_000
MAX_NAME_LENGTH = 64  # a longer run of letters is read letter by letter
_EULER = {"e": sp.E, "E": sp.E}
_UNSLASHED = frozenset({*FUNCTION_WORDS, "sqrt", "frac", "sum", "int", "Phi", "binom"})
_REMEDY = "declare it under [variables] or [defs], or map the LaTeX to a name in [latex]"


class NameReader(Cursor):
    """Reading names: letters, Greek letters, ``\\mathrm{..}``, subscripts, primes."""

    def declared(self, name: str) -> bool:
        return name in self.bound or name in self.symbols

    def letter_name(self, *, single: bool = False) -> sp.Expr:
        """A letter, or a declared run of letters and digits (``eps``, ``fx``, ``p1``)."""
        first = self.next()
        bases = (first.value,)
        if not single:
            j = self.i
            while (
                j < min(self.stop, self.i + MAX_NAME_LENGTH)
                and self.toks[j].kind in ("letter", "digit")
                and self.toks[j].pos == self.toks[j - 1].end
            ):
                j += 1
            run = self.text[first.pos : self.toks[j - 1].end]
            if j > self.i and self.declared(run):
                self.i = j
                bases = (run,)
            elif run.isalpha() and run in _UNSLASHED and not self.declared(first.value):
                raise self.fail(
                    f"{q(run)} without a backslash is a product of letters", first, f"write \\{run}"
                )
        fallback = _EULER.get(bases[0])
        return self.finish_name(bases, first, fallback)

    def greek_name(self, tok: Tok, fallback: sp.Expr | None = None) -> sp.Expr:
        return self.finish_name(GREEK[tok.value[1:]], tok, fallback)

    def finish_name(self, bases: tuple[str, ...], first: Tok, fallback: sp.Expr | None) -> sp.Expr:
        """Read the subscript and primes after a base name, and look the name up."""
        family = self.family_of(bases)
        if family is not None:
            return self.family_element(family, first)
        sub: str | tuple[sp.Expr, ...] = ""
        if self.is_char(self.peek(), "_"):
            self.next()
            sub = self.subscript(first)
        primes = 0
        while self.is_char(self.peek(), "'"):
            self.next()
            primes += 1
        fragment = self.fragment(first)
        if isinstance(sub, tuple):
            return self.indexed(bases, sub, first, primes)
        names = [b + sep + sub for b in bases for sep in (("", "_") if sub else ("",))]
        if primes:
            names = [n + sep + "prime" * primes for n in names for sep in ("", "_")]
        if sub or primes:
            fallback = None
        return self.lookup(names, first, fragment, fallback)

    # -- families (issue 24) -----------------------------------------------------------------
    def family_of(self, bases: tuple[str, ...]) -> str | None:
        """The declared family among the spellings of a name (a bound variable of that name
        hides it)."""
        for b in bases:
            if b in self.bound:
                return None
            if b in self.families:
                return b
        return None

    def family_element(self, name: str, first: Tok) -> sp.Expr:
        """``p_i``, ``p_{i+1}``, ``p_3``, ``w_{i,j}``: an element ``p[...]`` of the family
        ``name``; its indices are bound (by a sum, a product or a 'for all'), numbers, or
        declared variables."""
        family = self.families[name]
        underscore = self.peek()
        if not self.is_char(underscore, "_"):
            raise self.fail(
                f"the family {q(self.fragment(first))} is used without an index",
                first,
                f"write an element {name}_i inside \\sum_{{i=1}}^{{n}}, or end a hypothesis "
                "with \\forall i",
            )
        self.next()
        indices = self._family_indices(first, family)
        if self.is_char(self.peek(), "'"):
            raise self.fail("primes on a family element are not supported", first)
        arity = 1 if family.second is None else 2
        if len(indices) != arity:
            raise self.fail(
                f"{q(self.fragment(first))} has {len(indices)} index(es); the family {name} "
                f"has {arity} ({family.range_text()})",
                first,
            )
        target = self.symbols.get(name)
        base = target if isinstance(target, sp.IndexedBase) else sp.IndexedBase(target or name)
        element = base[indices]
        for k, (lo, hi) in enumerate(family_ranges(family)):
            if outside(indices[k], lo, hi):
                raise self.fail(
                    f"the index {indices[k]} of {q(self.fragment(first))} is outside the "
                    f"family's range {lo}..{hi}",
                    first,
                    f"index {name} by {lo}..{hi} only",
                )
        self.elements.append((element, family, first))
        return element

    def _family_indices(self, first: Tok, family: Family) -> tuple[sp.Expr, ...]:
        """The subscript after ``_`` as index expressions: ``{i,j}`` (or ``{ij}`` for a
        two-index family) is two, ``{i+1}`` one."""
        tok = self.peek()
        if tok is None:
            raise self.fail("a subscript is missing after '_'", first, "write p_i or p_{i+1}")
        start, end = self._subscript_span(tok)
        inner = self.toks[start:end]
        if not inner:
            raise self.fail("empty subscript '_{}'", first, "write p_i or p_{i+1}")
        for t in inner:
            name = self._index_name(t) if t.kind == "letter" else ""
            if name and not self.declared(name):
                raise self.fail(
                    f"the index {name} of {q(self.text[first.pos : inner[-1].end])} is not bound",
                    t,
                    f"use it inside \\sum_{{{name}=1}}^{{n}} or \\prod, or end the "
                    f"hypothesis with \\forall {name}",
                )
        letters = [t for t in inner if t.kind == "letter"]
        if family.second is not None and len(inner) == 2 and len(letters) == 2:
            # w_{ij}: two one-letter indices written together
            return tuple(self.bound.get(t.value, self.symbols.get(t.value)) for t in inner)  # type: ignore[misc]
        cuts = [start - 1] + [j for j in range(start, end) if self.is_char(self.toks[j], ",")]
        cuts.append(end)
        values: list[sp.Expr] = []
        saved = self.i
        for a, b in pairwise(cuts):
            if b == a + 1:
                raise self.fail("an empty index in a subscript", first, "write p_{i,j}")
            self.i = a + 1
            with self.limited(b), self.nested():
                values.append(self.expr())
                if not self.at_end():
                    raise self.fail("unexpected token in a subscript", self.peek())
        self.i = saved
        return tuple(values)

    def lookup(
        self, names: list[str], tok: Tok, fragment: str, fallback: sp.Expr | None = None
    ) -> sp.Expr:
        for n in names:
            if n in self.bound:
                return self.bound[n]
        for n in names:
            if n in self.symbols:
                return self.symbols[n]
        if fallback is not None:
            return fallback
        tried = f" (also tried {', '.join(map(q, names[1:]))})" if len(names) > 1 else ""
        remedy = _REMEDY
        call = self._call_text(tok)
        if call:
            argument = call[len(self.fragment(tok)) :]
            suggestion = names[0] + "".join(c for c in argument if c.isalnum())
            key = f"'{call}'" if "\\" in call else f'"{call}"'  # TOML: a literal string keeps \
            remedy += f', e.g. {key} = "{suggestion}"'
        origin = f" from {q(fragment)}" if fragment != names[0] else ""
        raise self.fail(f"undeclared name {q(names[0])}{origin}{tried}", tok, remedy)

    def _call_text(self, first: Tok) -> str:
        """``f(x)`` when the name at ``first`` is followed by a short bracketed argument."""
        if not self.is_char(self.peek(), "("):
            return ""
        depth = 0
        for j in range(self.i, min(self.stop, self.i + 20)):
            depth += self.is_char(self.toks[j], "(") - self.is_char(self.toks[j], ")")
            if depth == 0:
                return self.text[first.pos : self.toks[j].end]
        return ""

    def _subscript_span(self, tok: Tok) -> tuple[int, int]:
        """Consume the subscript starting at ``tok`` (a braced group or one token) and give
        the token range ``start..end`` of its contents."""
        self.next()
        if not self.is_char(tok, "{"):
            return self.i - 1, self.i
        start, depth = self.i, 1
        while self.i < self.stop and depth:
            t = self.toks[self.i]
            depth += self.is_char(t, "{") - self.is_char(t, "}")
            self.i += 1
        if depth:
            raise self.fail("unclosed '{' in a subscript", tok, "close it with '}'")
        return start, self.i - 1

    def subscript(self, base: Tok) -> str | tuple[sp.Expr, ...]:
        """The text of a subscript (``1``, ``x``, ``tot``), or, when it uses a summation
        index, its value(s) as expressions."""
        tok = self.peek()
        if tok is None:
            raise self.fail("a subscript is missing after '_'", base, "write p_1 or p_{12}")
        start, end = self._subscript_span(tok)
        inner = self.toks[start:end]
        if not inner:
            raise self.fail("empty subscript '_{}'", base, "write p_1 or drop the '_'")
        if any(self._index_name(t) in self.sum_bound for t in inner):
            return self._index_values(inner, start, end)
        return "".join(self._subscript_piece(t, base) for t in inner)

    def _index_name(self, tok: Tok) -> str:
        if tok.kind in ("letter", "named"):
            return tok.value if tok.kind == "letter" else tok.arg
        if tok.kind == "cs" and tok.value[1:] in GREEK:
            return GREEK[tok.value[1:]][0]
        return ""

    def _subscript_piece(self, tok: Tok, base: Tok) -> str:
        if tok.kind in ("letter", "digit"):
            return tok.value
        if tok.kind in ("named", "text"):
            return "".join(tok.arg.split())
        if tok.kind == "cs" and tok.value[1:] in GREEK:
            return GREEK[tok.value[1:]][0]
        if self.is_char(tok, ","):
            return ""
        raise self.fail(
            f"subscript {q(self.fragment(base))} is not a name",
            tok,
            "subscripts may hold letters, digits and Greek letters; map other names in [latex]",
        )

    def _index_values(self, inner: list[Tok], start: int, end: int) -> tuple[sp.Expr, ...]:
        """``p_{ij}`` is indexed by i and j; ``p_{i+1}`` by the value i + 1."""
        if all(t.kind in ("letter", "digit") or self._index_name(t) for t in inner):
            values: list[sp.Expr] = []
            for t in inner:
                name = self._index_name(t)
                if t.kind == "digit":
                    values.append(sp.Integer(int(t.value)))
                elif name in self.bound:
                    values.append(self.bound[name])
                else:
                    raise self.fail(f"index {q(name)} is not a summation variable", t)
            return tuple(values)
        saved = self.i
        self.i = start
        with self.limited(end), self.nested():
            value = self.expr()
            if not self.at_end():
                raise self.fail("unexpected token in a subscript", self.peek())
        self.i = saved
        return (value,)

    def indexed(
        self, bases: tuple[str, ...], index: tuple[sp.Expr, ...], tok: Tok, primes: int
    ) -> sp.Expr:
        if primes:
            raise self.fail("primes on an indexed name are not supported", tok)
        func = sp.Function(f"_latex_indexed_{len(self.placeholders)}")
        self.placeholders[func] = Indexed(bases, self.fragment(tok), self.line(tok.pos))
        value: sp.Expr = func(*index)
        return value


def family_ranges(family: Family) -> list[tuple[sp.Expr, sp.Expr]]:
    """The index ranges of a family, one per index."""
    ranges = [(family.lower, family.upper)]
    if family.second is not None:
        ranges.append((sp.sympify(family.second[1]), sp.sympify(family.second[2])))
    return ranges


def outside(index: sp.Expr, lower: sp.Expr, upper: sp.Expr) -> bool:
    """Whether ``index`` is shown to lie outside ``lower..upper`` (an index that cannot be
    compared, ``p_m`` in a family over ``1..n``, is left to the checks that instantiate)."""
    return bool((index - lower).is_negative or (upper - index).is_negative)


def _has_indexed(expr: sp.Basic, placeholders: dict[object, Indexed]) -> bool:
    return any(f.func in placeholders for f in expr.atoms(AppliedUndef))


def expand_indexed(
    expr: sp.Expr, placeholders: dict[object, Indexed], table: Mapping[str, sp.Expr]
) -> sp.Expr:
    """Write out the sums over indexed names and replace ``p_i`` at ``i = 2`` by ``p2``."""
    if not placeholders:
        return expr

    def walk(e: sp.Basic) -> sp.Basic:
        if not _has_indexed(e, placeholders):
            return e
        if isinstance(e, (sp.Sum, sp.Product)):
            var, lo, hi = e.limits[0]
            if not (lo.is_Integer and hi.is_Integer):
                info = next(placeholders[f.func] for f in e.function.atoms(AppliedUndef))
                raise LatexError(
                    f"the sum over {var} of {q(info.fragment)} needs numeric bounds, got "
                    f"{lo}..{hi} (line {info.line}); indexed names stand for declared symbols "
                    f"(p1, p2, ...): write \\sum_{{{var}=1}}^{{3}} or write the terms out",
                    info.line,
                    info.fragment,
                )
            if int(hi) - int(lo) + 1 > MAX_EXPANDED_TERMS:
                raise LatexError(f"a sum of more than {MAX_EXPANDED_TERMS} named terms")
            terms = (walk(e.function.xreplace({var: sp.Integer(k)})) for k in range(lo, hi + 1))
            return sp.Add(*terms) if isinstance(e, sp.Sum) else sp.Mul(*terms)
        return e.func(*(walk(a) for a in e.args))

    def resolve(call: sp.Expr) -> sp.Expr:
        info = placeholders[call.func]
        if not all(a.is_Integer for a in call.args):
            raise LatexError(
                f"{q(info.fragment)} is indexed by {', '.join(map(str, call.args))}, not a "
                f"number (line {info.line}); use it only inside a sum with numeric bounds",
                info.line,
                info.fragment,
            )
        parts = [str(int(a)) for a in call.args]
        names = [b + sep + sep.join(parts) for b in info.bases for sep in ("", "_")]
        for n in names:
            if n in table:
                return table[n]
        raise LatexError(
            f"undeclared name {q(names[0])} from {q(info.fragment)} (line {info.line}); {_REMEDY}",
            info.line,
            info.fragment,
        )

    walked = walk(expr)
    done: sp.Expr = walked.replace(
        lambda e: isinstance(e, AppliedUndef) and e.func in placeholders, resolve
    )
    return done
