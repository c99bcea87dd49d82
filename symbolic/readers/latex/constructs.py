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

from symbolic.functions import PhiInv
from symbolic.readers.latex.cursor import q
from symbolic.readers.latex.sums import SumReader
from symbolic.readers.latex.tokens import Tok
from symbolic.readers.latex.vocabulary import (
    BINOMIALS,
    CONDITION_WORDS,
    DELIMITERS,
    FRACTIONS,
    FUNCTION_LETTERS,
    FUNCTION_WORDS,
    GREEK,
    OPERATOR_NAMES,
    OTHERWISE_WORDS,
    Function,
)
from symbolic.readers.syntax import MAX_LITERAL_FACTORIAL
from symbolic.vocabulary import arity_text

__all__ = ["LatexParser"]

_SIZE_CHECKED = frozenset({"gamma", "Gamma", "loggamma", "lgamma", "B", "Beta"})
_MISPLACED = {
    "text": ("text inside an expression", "put a step's reason after && or \\quad"),
    "ref": ("a reference inside an expression", "put a step's reason after && or \\quad"),
    "amp": ("unexpected '&'", "'&' only aligns the rows of an align environment"),
    "rowsep": ("unexpected '\\\\'", "'\\\\' only separates the rows of an environment"),
    "end": ("unexpected \\end", "close only environments you opened"),
    "quad": ("unexpected spacing", "put a step's reason after && or \\quad\\text{...}"),
}


class LatexParser(SumReader):
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
                raise self.fail(arity_text(self.fragment(tok), arities, len(items)), first)
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


def _char_remedy(char: str) -> str:
    return {
        ")": "remove it or open it with '('",
        "]": "remove it or open it with '['",
        "}": "remove it or open it with '{'",
        ",": "lists are only the arguments of \\max, \\min or \\operatorname{B}",
        "^": "write a base before '^'",
        "'": "primes belong to names: \\delta'",
    }.get(char, "remove it or write it in SymPy syntax")
