"""Precedence levels of LaTeX mathematics, by recursive descent.

::

    chain    := expr (REL expr)*
    expr     := signed (('+' | '-') signed)*
    signed   := ('+' | '-') signed | muldiv
    muldiv   := product (('\\cdot' | '\\times' | '*' | '/' | '\\div') signed-product)*
    product  := power power*                  implicit multiplication: 2\\varepsilon, k\\mu^2
    power    := atom ('!' | '^' script)*
    script   := '{' expr '}' | one digit | one letter | one command (e^\\varepsilon)

Implicit multiplication binds tighter than ``/``, so ``1/2k`` would be ``1/(2k)``; such a
division is refused as ambiguous (write ``\\frac{1}{2k}``) rather than guessed.
"""

from __future__ import annotations

import sympy as sp

from symbolic.errors import ExpressionError
from symbolic.readers.latex.cursor import q
from symbolic.readers.latex.names import NameReader
from symbolic.readers.latex.tokens import Tok
from symbolic.readers.latex.vocabulary import (
    CLOSERS,
    DELIMITERS,
    FUNCTION_LETTERS,
    FUNCTION_WORDS,
    RELATIONS,
    UNSUPPORTED_RELATIONS,
)
from symbolic.readers.syntax import MAX_LITERAL_FACTORIAL, checked_pow
from symbolic.relations import Relation

__all__ = ["ExprParser"]

_MUL = frozenset({"\\cdot", "\\times", "\\ast"})
_DIV = frozenset({"\\div"})
_STOPS = _MUL | _DIV | CLOSERS | frozenset(RELATIONS) | UNSUPPORTED_RELATIONS
_STOPS |= frozenset({"\\right", "\\choose", "\\in", "\\pm", "\\mp", "\\}", "\\rbrace"})
# Closers that close the same bracket.
_SAME_CLOSER = {"\\rbrace": "\\}", "\\rbrack": "]", "\\vert": "|", "\\rvert": "|"}
# Where an unparenthesised function argument (\ln x y) ends: before the next function.
_FUNCTION_STARTS = frozenset(
    ["\\" + w for w in (*FUNCTION_WORDS, *FUNCTION_LETTERS)] + ["\\sum", "\\int"]
)


class ExprParser(NameReader):
    """The operator levels; :meth:`atom` (numbers, names, brackets, functions) is added by
    :class:`~symbolic.readers.latex.constructs.LatexParser`."""

    # -- relations ---------------------------------------------------------------------------
    def relation_at(self) -> Relation | None:
        tok = self.peek()
        if tok is None or tok.kind not in ("char", "cs"):
            return None
        if tok.value in UNSUPPORTED_RELATIONS:
            raise self.fail(
                f"relation {tok.value} is not supported", tok, "use =, \\le, <, \\ge or >"
            )
        rel = RELATIONS.get(tok.value)
        after = self.peek(1)
        if rel is not None and tok.value in "<>" and self.is_char(after, "="):
            assert after is not None  # by is_char
            if after.pos == tok.end:
                word = "\\le" if tok.value == "<" else "\\ge"
                raise self.fail(f"{tok.value}= is not LaTeX", tok, f"write {word}")
        return rel

    def relation_chain(self) -> tuple[list[sp.Expr], list[tuple[Relation, Tok]]]:
        """``a REL b REL c ...``: the expressions and the relations between them."""
        exprs = [self.expr()]
        rels: list[tuple[Relation, Tok]] = []
        while (rel := self.relation_at()) is not None:
            tok = self.next()
            if self.at_end() or self.relation_at() is not None:
                raise self.fail(
                    f"nothing after {q(tok.value)}", tok, f"write an expression after {tok.value}"
                )
            rels.append((rel, tok))
            exprs.append(self.expr())
        return exprs, rels

    # -- arithmetic --------------------------------------------------------------------------
    def expr(self) -> sp.Expr:
        if self.at_end():
            raise self.fail("an expression is missing")
        terms = [self.signed()]
        while self.is_char(self.peek(), "+-"):
            op = self.next()
            if self.at_end():
                raise self.fail(f"nothing after {q(op.value)}", op, "complete the expression")
            rhs = self.signed()
            terms.append(rhs if op.value == "+" else -rhs)
        return sp.Add(*terms)

    def signed(self) -> sp.Expr:
        tok = self.peek()
        if self.is_char(tok, "-"):
            self.next()
            return -self.signed()
        if self.is_char(tok, "+"):
            self.next()
            return self.signed()
        if self.is_cs(tok, "\\pm", "\\mp"):
            raise self.fail(f"{tok.value if tok else ''} is not supported", tok, "write each sign")
        return self.muldiv()

    def muldiv(self) -> sp.Expr:
        result, _ = self.product()
        while (tok := self.peek()) is not None and (
            self.is_char(tok, "*/") or self.is_cs(tok, *_MUL, *_DIV)
        ):
            self.next()
            sign = sp.S.One
            while self.is_char(self.peek(), "+-"):
                sign = -sign if self.next().value == "-" else sign
            start = self.peek()
            if start is None:
                raise self.fail(f"nothing after {q(tok.value)}", tok, "complete the expression")
            operand, count = self.product()
            if tok.value in ("/", "\\div"):
                if count > 1:
                    frag = self.fragment(tok)
                    raise self.fail(
                        f"ambiguous division {q(frag)}",
                        tok,
                        "write \\frac{..}{..} or put the denominator in parentheses",
                    )
                result = result / (sign * operand)
            else:
                result = result * sign * operand
        return result

    def starts_factor(self, tok: Tok | None) -> bool:
        """Whether ``tok`` can begin a factor of an implicit product."""
        if tok is None:
            return False
        if tok.kind in ("digit", "letter", "name", "named", "begin"):
            return True
        if tok.kind == "char":
            if tok.value in "|":
                return self.bar_depth == 0
            return tok.value in "([{"
        if tok.kind != "cs" or tok.value in _STOPS:
            return False
        if tok.value == "\\vert":
            return self.bar_depth == 0
        return not (self.noparen and tok.value in _FUNCTION_STARTS)

    def product(self) -> tuple[sp.Expr, int]:
        factors = [self.power()]
        while self.starts_factor(self.peek()):
            factors.append(self.power())
        return sp.Mul(*factors), len(factors)

    def power(self) -> sp.Expr:
        base = self.atom()
        raised = False
        while (tok := self.peek()) is not None:
            if self.is_char(tok, "!"):
                self.next()
                base = self.factorial(base, tok)
            elif self.is_char(tok, "^"):
                if raised:
                    raise self.fail("double superscript", tok, "write {x^{a}}^{b} or x^{ab}")
                self.next()
                base = self.raise_to(base, self.script(tok), tok)
                raised = True
            elif self.is_char(tok, "_"):
                raise self.fail(
                    "a subscript here is not understood", tok, "subscripts belong to names: p_1"
                )
            else:
                break
        return base

    def raise_to(self, base: sp.Expr, exponent: sp.Expr, tok: Tok) -> sp.Expr:
        try:
            return checked_pow(base, exponent)
        except ExpressionError as exc:
            problem = str(exc).split(";")[0]
            raise self.fail(problem, tok, "write it with a variable or with exp/log") from None

    def factorial(self, value: sp.Expr, tok: Tok) -> sp.Expr:
        if value.is_number and value.is_finite and abs(value) > MAX_LITERAL_FACTORIAL:
            raise self.fail(f"factorial of literal {value} is too large to evaluate", tok)
        return sp.factorial(value)

    def script(self, op: Tok) -> sp.Expr:
        """The argument of ``^``, ``_`` or ``\\frac``: a braced group or a single token."""
        tok = self.peek()
        what = "an exponent" if op.value == "^" else f"an argument of {op.value}"
        if tok is None:
            raise self.fail(f"{what} is missing after {q(op.value)}", op, "write x^{2}")
        if self.is_char(tok, "{"):
            return self.braced()
        if tok.kind == "digit":
            self.next()
            return sp.Integer(int(tok.value))
        if tok.kind == "letter":
            return self.letter_name(single=True)
        if tok.kind in ("cs", "named", "name"):
            return self.atom()
        after = self.peek(1)
        shown = tok.value + (after.value if after is not None and after.pos == tok.end else "")
        raise self.fail(f"{what} needs braces", tok, f"write {op.value}{{{shown}}}")

    def number(self) -> sp.Expr:
        first = self.peek()
        assert first is not None  # atom() dispatches here on a digit or a dot
        j = self.i
        while j < self.stop:
            t = self.toks[j]
            if j > self.i and t.pos != self.toks[j - 1].end:
                break
            nxt = self.toks[j + 1] if j + 1 < self.stop else None
            if not (t.kind == "digit" or (self.is_char(t, ".") and nxt and nxt.kind == "digit")):
                break
            j += 1
        if j == self.i:
            raise self.fail("unexpected '.'", first)
        literal = self.text[first.pos : self.toks[j - 1].end]
        self.i = j
        self._refuse_e_notation(literal, first)
        return sp.Rational(literal)

    def _refuse_e_notation(self, literal: str, first: Tok) -> None:
        e, sign = self.peek(), self.peek(1)
        if (
            e is None
            or e.kind != "letter"
            or e.value not in "eE"
            or e.pos != self.toks[self.i - 1].end
        ):
            return
        j = self.i + (2 if self.is_char(sign, "+-") else 1)
        k = j
        while (
            k < self.stop
            and self.toks[k].kind == "digit"
            and self.toks[k].pos == self.toks[k - 1].end
        ):
            k += 1
        if k > j:
            frag = self.text[first.pos : self.toks[k - 1].end]
            power = "10^{" + frag[len(literal) + 1 :].lstrip("+") + "}"
            shown = power if literal == "1" else f"{literal} \\cdot {power}"
            raise self.fail(f"{q(frag)} is not LaTeX", first, f"write {shown}")

    # -- groups ------------------------------------------------------------------------------
    def braced(self) -> sp.Expr:
        """``{ expr }``, or ``{n \\choose k}``."""
        opener = self.next()
        if self.at_end():
            raise self.fail("unclosed '{'", opener, "close it with '}'")
        if self.is_char(self.peek(), "}"):
            raise self.fail("empty group '{}'", opener, "write an expression inside the braces")
        with self.nested():
            value = self.expr()
            if self.is_cs(self.peek(), "\\choose"):
                self.next()
                value = sp.binomial(value, self.expr())
        self.expect("}", "'}'", opener)
        return value

    def bracket(self) -> tuple[list[sp.Expr], str, Tok]:
        """``( a, b )``, ``\\left[ a \\right]``, ``|x|``, ``\\lvert x \\rvert``...: the
        items, what the brackets mean (group, abs, floor, ceiling) and the opening token."""
        first = self.next()
        sized = self.is_cs(first, "\\left")
        opener = self.next() if sized else first
        shown = self.fragment(first, opener)
        key = opener.value if opener.kind in ("char", "cs") else ""
        if key not in DELIMITERS:
            raise self.fail(
                f"unsupported delimiter {q(shown)}",
                first,
                "use \\left( \\right), \\left[ \\right], \\left| \\right| or \\left\\{ \\right\\}",
            )
        closer, meaning = DELIMITERS[key]
        expected = ("\\right" if sized else "") + closer
        items: list[sp.Expr] = []
        with self.nested(bar=key in ("|", "\\vert") and not sized):
            if self.at_end():
                raise self.fail(f"unclosed {q(shown)}", first, f"close it with {expected}")
            items.append(self.expr())
            while self.is_char(self.peek(), ","):
                self.next()
                items.append(self.expr())
        if sized:
            if not self.is_cs(self.peek(), "\\right"):
                raise self.fail(f"{shown} without \\right", first, f"close it with {expected}")
            self.next()
        close = self.peek()
        if close is None or close.kind not in ("char", "cs"):
            raise self.fail(f"unclosed {q(shown)}", first, f"close it with {expected}")
        if _SAME_CLOSER.get(close.value, close.value) != _SAME_CLOSER.get(closer, closer):
            raise self.fail(
                f"mismatched delimiters: {q(shown)} closed by {q(close.value)}",
                close,
                f"close it with {expected}",
            )
        self.next()
        return items, meaning, first
