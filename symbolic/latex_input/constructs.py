"""The atoms of LaTeX mathematics: numbers, names, brackets, ``\\frac``, ``\\sqrt``,
``\\binom``, functions, ``\\sum``, ``\\int`` and ``cases``.

A function takes its argument in brackets (``\\ln(1/\\delta)``, ``\\Phi\\left(x\\right)``,
``\\max\\{a, b\\}``) or, without brackets, the implicit product that follows up to the next
function (``\\ln\\frac{p}{q}``, ``\\ln 2k``).  ``\\Phi^{-1}`` is the inverse normal CDF; any
other ``f^{-1}`` is refused as ambiguous.  ``\\sum_{i=1}^{n}`` and ``\\prod_{i=1}^{n}`` take
the product that follows as their body (with families, ``\\sum_{i}`` runs over the range of
the families it indexes by i); ``\\int_a^b ... \\,dt`` takes everything up to its differential.
"""

from __future__ import annotations

import sympy as sp

from symbolic.families import Family, index_symbol
from symbolic.functions import PhiInv
from symbolic.latex_input.cursor import q
from symbolic.latex_input.names import family_ranges, outside
from symbolic.latex_input.parser import ExprParser
from symbolic.latex_input.tokens import Tok
from symbolic.latex_input.vocabulary import (
    BINOMIALS,
    CONDITION_WORDS,
    DELIMITERS,
    FRACTIONS,
    FUNCTION_LETTERS,
    FUNCTION_WORDS,
    GREEK,
    OPERATOR_NAMES,
    OTHERWISE_WORDS,
    RELATIONS,
    Function,
)
from symbolic.parsing import MAX_LITERAL_FACTORIAL, reserved_message

__all__ = ["LatexParser"]

_OPENS = frozenset({"(", "[", "{", "\\left", "\\{", "\\lbrace", "\\lvert", "\\lfloor", "\\lceil"})
_CLOSES = frozenset({")", "]", "}", "\\right", "\\}", "\\rbrace", "\\rvert", "\\rfloor", "\\rceil"})
_INTEGRAND_ENDS = frozenset("+-)]},.;=<>|") | frozenset(RELATIONS) | _CLOSES
_INTEGRAND_ENDS |= frozenset({"\\cdot", "\\times"})
_SIZE_CHECKED = frozenset({"gamma", "Gamma", "loggamma", "lgamma", "B", "Beta"})
_MISPLACED = {
    "text": ("text inside an expression", "put a step's reason after && or \\quad"),
    "ref": ("a reference inside an expression", "put a step's reason after && or \\quad"),
    "amp": ("unexpected '&'", "'&' only aligns the rows of an align environment"),
    "rowsep": ("unexpected '\\\\'", "'\\\\' only separates the rows of an environment"),
    "end": ("unexpected \\end", "close only environments you opened"),
    "quad": ("unexpected spacing", "put a step's reason after && or \\quad\\text{...}"),
}


class LatexParser(ExprParser):
    """The full LaTeX expression parser."""

    def atom(self) -> sp.Expr:
        tok = self.peek()
        if tok is None:
            raise self.fail("an expression is missing", None, "complete the expression")
        kind = tok.kind
        if kind == "digit" or self.is_char(tok, "."):
            return self.number()
        if kind == "letter":
            return self.letter_name()
        if kind == "name":
            self.next()
            return self.lookup([tok.value], tok, tok.arg)
        if kind == "named":
            return self.named()
        if kind == "begin":
            return self.cases()
        if kind == "cs":
            return self.command(tok)
        if kind == "char":
            if tok.value in "([|":
                return self.group()
            if tok.value == "{":
                return self.braced()
            raise self.fail(f"unexpected {q(tok.value)}", tok, _char_remedy(tok.value))
        if kind == "bad":
            raise self.fail(tok.value, tok, "balance the braces")
        problem, remedy = _MISPLACED.get(kind, (f"unexpected {q(tok.value)}", ""))
        raise self.fail(problem, tok, remedy)

    def reject_rest(self) -> None:
        """Refuse what is left after an expression, with the remedy for that token."""
        tok = self.peek()
        if tok is None:
            return
        self.relation_at()  # an unsupported relation says so
        self.atom()  # a misplaced token says what it is
        raise self.fail(f"unexpected {q(tok.value)}", tok)

    def command(self, tok: Tok) -> sp.Expr:
        v, word = tok.value, tok.value[1:]
        if v == "\\left" or v in DELIMITERS:
            return self.group()
        if word in GREEK:
            self.next()
            if word in FUNCTION_LETTERS and not any(map(self.declared, GREEK[word])):
                return self.function(tok, *FUNCTION_LETTERS[word], word)
            return self.greek_name(tok, sp.pi if word == "pi" else None)
        if word in FUNCTION_WORDS:
            self.next()
            return self.function(tok, *FUNCTION_WORDS[word], word)
        if v in FRACTIONS or v in BINOMIALS:
            self.next()
            a, b = self.script(tok), self.script(tok)
            if v in FRACTIONS:
                return a / b
            self.check_size(tok, (a, b))
            return sp.binomial(a, b)
        if v == "\\sqrt":
            return self.root()
        if v in ("\\sum", "\\prod"):
            return self.big_sum(product=v == "\\prod")
        if v == "\\int":
            return self.integral()
        if v == "\\infty":
            self.next()
            return sp.oo
        if v in ("\\lim", "\\sup", "\\inf", "\\limsup", "\\liminf", "\\Pr"):
            raise self.fail(f"{v} is not supported", tok, "write it in SymPy syntax or expand it")
        raise self.fail(
            f"unknown control sequence {v}",
            tok,
            f'declare it in [latex] as "\\\\{word}" = "name" or write it in SymPy syntax',
        )

    def check_size(self, tok: Tok, args: tuple[sp.Expr, ...]) -> None:
        """Refuse literal arguments that SymPy would evaluate eagerly and for too long
        (``\\Gamma(10^6)`` is a number with millions of digits)."""
        for a in args:
            if a.is_number and a.is_finite and abs(a) > MAX_LITERAL_FACTORIAL:
                raise self.fail(f"{self.fragment(tok, tok)} of literal {a} is too large", tok)

    def group(self) -> sp.Expr:
        items, meaning, first = self.bracket()
        if len(items) > 1:
            raise self.fail(
                f"a list {q(self.fragment(first))} is not a value",
                first,
                "lists are only the arguments of \\max, \\min or \\operatorname{B}",
            )
        return _wrap(items[0], meaning)

    # -- functions ---------------------------------------------------------------------------
    def function(self, tok: Tok, func: Function, arities: tuple[int, ...], name: str) -> sp.Expr:
        power: sp.Expr | None = None
        base: sp.Expr | None = None
        while (nxt := self.peek()) is not None:
            if self.is_char(nxt, "^") and power is None:
                self.next()
                power = self.script(nxt)
                if power == -1 and name == "Phi" and func is not PhiInv:
                    func, power = PhiInv, None
                elif power == -1:
                    raise self.fail(
                        f"{self.fragment(tok)} is ambiguous",
                        tok,
                        f"write 1/{tok.value}(x), or the inverse function by name",
                    )
            elif self.is_char(nxt, "_") and name == "log" and base is None:
                self.next()
                base = self.script(nxt)
            elif self.is_char(nxt, "_"):
                over_set = func in (sp.Max, sp.Min)
                raise self.fail(
                    f"{self.fragment(tok, tok)} with a subscript is not supported",
                    nxt,
                    "write \\max\\{a, b\\}"
                    if over_set
                    else "write the function's argument in brackets",
                )
            else:
                break
        args = self.arguments(tok, arities, listed=func in (sp.Max, sp.Min))
        if name in _SIZE_CHECKED:
            self.check_size(tok, tuple(args))
        value = sp.log(args[0], base) if base is not None else func(*args)
        return value if power is None else self.raise_to(value, power, tok)

    def arguments(self, tok: Tok, arities: tuple[int, ...], *, listed: bool) -> list[sp.Expr]:
        """A function's arguments: a bracketed list, or (for a one-argument function that
        is not ``\\max``/``\\min``) the implicit product that follows."""
        nxt = self.peek()
        if self.is_char(nxt, "([|") or self.is_cs(nxt, "\\left", "\\{", "\\lbrace", "\\lvert"):
            items, meaning, first = self.bracket()
            if meaning != "group" and len(items) == 1:
                items = [_wrap(items[0], meaning)]
            if len(items) not in arities:
                raise self.fail(
                    f"{self.fragment(tok)} takes {arities[0]} argument(s), got {len(items)}",
                    first,
                )
            return items
        if 1 not in arities or listed:
            raise self.fail(
                f"{self.fragment(tok)} needs its arguments in brackets",
                tok,
                "write \\max\\{a, b\\} or \\operatorname{B}(a, b)",
            )
        if not self.starts_factor(nxt):
            raise self.fail(f"{self.fragment(tok)} needs an argument", tok, "write it as f(x)")
        saved, self.noparen = self.noparen, True
        try:
            value, _ = self.product()
        finally:
            self.noparen = saved
        return [value]

    def named(self) -> sp.Expr:
        """``\\operatorname{erf}``, ``\\mathrm{e}``, ``\\mathrm{tot}``, ``\\mathcal{M}``."""
        tok = self.next()
        key = "".join(tok.arg.split())
        operator = tok.value.startswith("\\operatorname")
        if key in OPERATOR_NAMES and (operator or not self.declared(key)):
            return self.function(tok, *OPERATOR_NAMES[key], key)
        if operator:
            raise self.fail(
                f"unknown operator {self.fragment(tok)}",
                tok,
                "known: " + ", ".join(sorted(OPERATOR_NAMES)) + "; or map it in [latex] to a name",
            )
        if key == "e" and not self.declared("e"):
            return sp.E
        if key == "d":
            raise self.fail("a differential outside an integral", tok, "write \\int_a^b f(t)\\,dt")
        if key.startswith("\\") and key[1:] in GREEK:
            return self.greek_name(Tok("cs", key, tok.pos, tok.end))
        return self.finish_name((key,), tok, None)

    def root(self) -> sp.Expr:
        tok = self.next()
        index: sp.Expr | None = None
        if self.is_char(self.peek(), "["):
            opener = self.next()
            if self.is_char(self.peek(), "]") or self.at_end():
                raise self.fail(
                    "empty index in \\sqrt[]", opener, "write \\sqrt{x} or \\sqrt[n]{x}"
                )
            with self.nested():
                index = self.expr()
            self.expect("]", "']'", opener)
        radicand = self.script(tok)
        return sp.sqrt(radicand) if index is None else sp.root(radicand, index)

    # -- sums and integrals ------------------------------------------------------------------
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
        """One namespace (symbolic.parsing): an index is never a constant's or function's
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

    # -- cases -------------------------------------------------------------------------------
    def cases(self) -> sp.Expr:
        begin = self.next()
        if begin.arg not in ("cases", "dcases"):
            raise self.fail(
                f"environment {q(begin.arg)} inside an expression", begin, "only cases is read here"
            )
        pieces: list[tuple[sp.Expr, sp.Basic]] = []
        while True:
            tok = self.peek()
            if tok is None:
                raise self.fail("\\begin{cases} without \\end{cases}", begin, "close it")
            if tok.kind == "end":
                self.next()
                break
            value = self.expr()
            if not self.is_kind(self.peek(), "amp"):
                raise self.fail(
                    "a case needs '& condition'",
                    tok,
                    "write 'a & x < 0 \\\\ b & \\text{otherwise}'",
                )
            amp = self.next()
            pieces.append((value, self.condition(amp)))
            if self.is_kind(self.peek(), "rowsep"):
                self.next()
        if not pieces:
            raise self.fail("empty cases", begin)
        return sp.Piecewise(*pieces)

    def condition(self, amp: Tok) -> sp.Basic:
        parts: list[sp.Basic] = []
        while (tok := self.peek()) is not None and tok.kind not in ("rowsep", "end"):
            if tok.kind == "text":
                word = tok.arg.strip().lower().rstrip(",.:;")
                if word not in OTHERWISE_WORDS | CONDITION_WORDS | {"and", ""}:
                    raise self.fail(f"{q(tok.arg)} in a condition is not understood", tok)
                self.next()
                if word in OTHERWISE_WORDS:
                    parts.append(sp.true)
                continue
            if self.is_char(tok, ",.;"):
                self.next()
                continue
            exprs, rels = self.relation_chain()
            if not rels:
                raise self.fail(
                    "a case condition must be a comparison", tok, "or write \\text{otherwise}"
                )
            parts += [r.make(a, b) for (r, _), a, b in zip(rels, exprs, exprs[1:], strict=False)]
        if not parts:
            raise self.fail("a case has no condition after '&'", amp, "write \\text{otherwise}")
        if sp.true in parts:
            return sp.true
        return parts[0] if len(parts) == 1 else sp.And(*parts)


def _wrap(value: sp.Expr, meaning: str) -> sp.Expr:
    wrap = {"abs": sp.Abs, "floor": sp.floor, "ceiling": sp.ceiling}.get(meaning)
    return value if wrap is None else wrap(value)


def _is_d(t: Tok) -> bool:
    return (t.kind == "letter" and t.value == "d") or (t.kind == "named" and t.arg == "d")


def _ends_integrand(t: Tok) -> bool:
    if t.kind in ("amp", "rowsep", "quad", "text", "end", "ref"):
        return True
    return t.kind in ("char", "cs") and t.value in _INTEGRAND_ENDS


def _char_remedy(char: str) -> str:
    return {
        ")": "remove it or open it with '('",
        "]": "remove it or open it with '['",
        "}": "remove it or open it with '{'",
        ",": "lists are only the arguments of \\max, \\min or \\operatorname{B}",
        "^": "write a base before '^'",
        "'": "primes belong to names: \\delta'",
    }.get(char, "remove it or write it in SymPy syntax")
