r"""An author's LaTeX typeset on the site as MathML, as they wrote it.

A student's page showed SymPy's reading of their proof (step 3 became β/2, ``\ln`` became
log) where they expect their own lines (issue 43).  The site has no TeX engine (it works
offline, without scripts for formulas: see :mod:`derivations.printing.mathml`), so the
author's LaTeX is translated here into MathML Core, token by token, never through SymPy: a
fraction stays the fraction they wrote, ``\ln`` stays ln.

The vocabulary is the reader's (:mod:`symbolic.readers.latex.vocabulary`: fractions, scripts,
roots, Greek letters, the function words, relations, delimiters with ``\left``/``\right``,
sums, products and integrals, ``\text``, ``\mathrm``, ``\operatorname``, spacing) plus the
symbols a book's prose uses (``\in``, ``\cdot``, ``\infty``, ``\otimes``...).  Anything else
raises :class:`Untypeset`, and the caller shows what was checked instead and says so: a
page never shows TeX source as if it were mathematics.  Every character of the author's
text reaches the page escaped (text nodes only; no attribute takes their text).

>>> latex_mathml(r"\le e^{|f_x - f_y|/(2b)}")[:32]
'<mo>≤</mo><msup><mi>e</mi><mrow>'
>>> latex_mathml(r"\frac{1}{2}")
'<mfrac><mn>1</mn><mn>2</mn></mfrac>'
"""

from __future__ import annotations

import re
from html import escape

from symbolic.readers.latex import vocabulary

__all__ = ["Untypeset", "latex_mathml", "latex_pieces", "plain_math"]


class Untypeset(ValueError):
    """A LaTeX fragment outside the vocabulary this module typesets."""


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


def _bare(commands: frozenset[str]) -> frozenset[str]:
    return frozenset(c.removeprefix("\\") for c in commands)


_TOKEN = re.compile(r"\\[A-Za-z]+\*?|\\.|\d+(?:\.\d+)?|\s+|.", re.S)

_GREEK = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ϵ", "varepsilon": "ε",
    "zeta": "ζ", "eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ",
    "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "varpi": "ϖ", "rho": "ρ",
    "varrho": "ϱ", "sigma": "σ", "varsigma": "ς", "tau": "τ", "upsilon": "υ", "phi": "ϕ",
    "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω", "ell": "ℓ",
}  # fmt: skip
_CAPITALS = {
    "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π",
    "Sigma": "Σ", "Upsilon": "Υ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
}  # fmt: skip
_FUNCTIONS = _words(
    "exp ln log lg sin cos tan sinh cosh tanh max min sup inf lim arg det Pr erf erfc"
)
_OPERATORS = {
    "le": "≤", "leq": "≤", "leqslant": "≤", "ge": "≥", "geq": "≥", "geqslant": "≥",
    "lt": "<", "gt": ">", "ne": "≠", "neq": "≠", "approx": "≈", "sim": "∼", "equiv": "≡",
    "to": "→", "mapsto": "↦", "in": "∈", "notin": "∉", "subset": "⊂", "subseteq": "⊆",
    "cup": "∪", "cap": "∩", "cdot": "·", "times": "×", "pm": "±", "mp": "∓", "circ": "∘",
    "otimes": "⊗", "oplus": "⊕", "mid": "∣", "|": "‖", "{": "{", "}": "}", "lbrace": "{",
    "rbrace": "}", "lbrack": "[", "rbrack": "]", "lvert": "|", "rvert": "|", "vert": "|",
    "lVert": "‖", "rVert": "‖", "Vert": "‖", "lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈",
    "rceil": "⌉", "langle": "⟨", "rangle": "⟩", "dots": "…", "ldots": "…", "cdots": "⋯",
    "infty": "∞", "forall": "∀", "exists": "∃", "partial": "∂", "nabla": "∇",
    "Rightarrow": "⇒", "implies": "⟹", "iff": "⟺", "setminus": "∖", "perp": "⊥",
    "bot": "⊥", "prime": "′", "%": "%", "&": "&", "#": "#", "_": "_", "backslash": "∖",
}  # fmt: skip
_LARGE = {"sum": "∑", "prod": "∏", "int": "∫", "bigcup": "⋃", "bigcap": "⋂"}
_SPACES = {",": "0.1667em", ":": "0.2222em", ";": "0.2778em", " ": "0.25em", "quad": "1em",
           "qquad": "2em", "!": "0em", ">": "0.2222em", "enspace": "0.5em"}  # fmt: skip
_DROPPED = _words(
    "displaystyle textstyle scriptstyle nonumber notag limits nolimits big Big bigg Bigg "
    "bigl bigr Bigl Bigr biggl biggr Biggl Biggr bigm Bigm allowbreak mathop middle "
    "hfill"
)
_VARIANTS = {
    "mathrm": "normal", "operatorname": "normal", "operatorname*": "normal",
    "mathit": "italic", "mathsf": "sans-serif", "mathbf": "bold", "boldsymbol": "bold-italic",
    "mathcal": "script", "mathnormal": "italic", "mathbb": "double-struck",
}  # fmt: skip
_ACCENTS = {"bar": "¯", "overline": "¯", "hat": "^", "widehat": "^", "tilde": "~", "vec": "→"}
# The reader's own command sets (:mod:`symbolic.readers.latex.vocabulary`), without their
# backslash: what it drops with its argument, reads as words, fractions and binomials.
_DROPPED_WITH_ARG = _bare(vocabulary.IGNORED_WITH_ARG)
_TEXT = _bare(vocabulary.TEXT_COMMANDS)
_FRACTIONS = _bare(vocabulary.FRACTIONS)
_BINOMIALS = _bare(vocabulary.BINOMIALS)
_MO_CHARS = set("+=<>,;:!/*?")
_OPENERS = {"(": ")", "[": "]", "\\{": "\\}", "\\lbrace": "\\rbrace", "\\lvert": "\\rvert",
            "\\lfloor": "\\rfloor", "\\lceil": "\\rceil", "\\langle": "\\rangle",
            "\\lVert": "\\rVert"}  # fmt: skip
_CLOSERS = set(_OPENERS.values())
_BARS = {"|", "\\vert"}
"""Bars that pair up as |x|.  ``\\|`` is no fence: between two laws it is the divergence's
separator, D(Y\\|Z), as the book's prose writes ``||``."""


def _fence(token: str) -> str:
    """A bracket, without the spacing Chromium gives an operator (set as the book sets it)."""
    mark = _OPERATORS.get(token[1:], token) if token.startswith("\\") else token
    return _text("mo", mark, lspace="0", rspace="0")


def _el(tag: str, *children: str, **attrs: str) -> str:
    attr = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in attrs.items())
    return f"<{tag}{attr}>{''.join(children)}</{tag}>"


def _text(tag: str, text: str, **attrs: str) -> str:
    return _el(tag, escape(text, quote=False), **attrs)


class _Reader:
    def __init__(self, source: str, lenient: bool = False):
        self.tokens = [t for t in _TOKEN.findall(source) if t]
        self.i = 0
        self.lenient = lenient
        """Prose: a run of mathematics may stop inside a bracket (``Pr[M_i(x)`` before a
        word): an unclosed bracket stays open, a lone closer is a sign."""

    def peek(self) -> str | None:
        """The next token that is not space.  ``\\left`` and ``\\right`` are dropped (the
        delimiter after them is the token), and so is the empty delimiter ``.`` after them."""
        sized = False
        while self.i < len(self.tokens):
            t = self.tokens[self.i]
            if t.isspace() or t in ("\\left", "\\right") or (sized and t == "."):
                sized = t in ("\\left", "\\right") or (sized and t.isspace())
                self.i += 1
                continue
            return t
        return None

    def take(self) -> str:
        t = self.peek()
        if t is None:
            raise Untypeset("the LaTeX ends too early")
        self.i += 1
        return t

    def raw_group(self) -> str:
        """The text of a braced argument, unread (``\\text{...}``, ``\\mathrm{...}``)."""
        if self.take() != "{":
            raise Untypeset("a command's argument must be braced")
        depth, out = 1, list[str]()
        while self.i < len(self.tokens):
            t = self.tokens[self.i]
            self.i += 1
            depth += (t == "{") - (t == "}")
            if depth == 0:
                return "".join(out)
            out.append(t)
        raise Untypeset("an unclosed brace")

    def argument(self) -> str:
        """One argument: a braced group, or a single token (``x^2``, ``\\frac12``)."""
        t = self.peek()
        if t == "{":
            self.take()
            return _row(self.sequence(until="}"))
        if t is not None and re.fullmatch(r"\d+", t):  # \frac12: one digit each
            self.take()
            if len(t) > 1:
                self.tokens.insert(self.i, t[1:])
            return _text("mn", t[0])
        return _row(self.atom())

    def sequence(self, until: str | None = None, stops: frozenset[str] = frozenset()) -> list[str]:
        """Items up to ``until`` (taken) or, left for the caller, one of ``stops``."""
        out: list[str] = []
        while True:
            t = self.peek()
            if t in stops:
                return out
            if t is None:
                if until is not None and not (self.lenient and until != "}"):
                    raise Untypeset(f"missing {until}")
                return out
            if t == until:
                self.take()
                return out
            if t in ("}",):
                raise Untypeset("an unmatched }")
            if t in _CLOSERS:
                if not self.lenient:
                    raise Untypeset(f"an unmatched {t}")
                self.take()
                out.append(_fence(t))
                continue
            if t in _BARS and until not in _BARS:
                out.append(self.bars(t))
                continue
            if t in _OPENERS:
                # A bracketed group is its own row, so that a sign first inside it is a
                # prefix (-|z - f_x|/b), spaced as one, not as a binary minus.
                self.take()
                close = _OPENERS.get(t, t)
                inner = self.sequence(until=close)
                fences = (_fence(t), _fence(close))
                out.append(_el("mrow", fences[0], _row(inner) if inner else "", fences[1]))
                continue
            if t in ("^", "_"):
                if not out:
                    out.append("<mrow></mrow>")
                if out[-1] == _APPLY and len(out) > 1:
                    # \max_i, \Pr_{X \sim P}: the scripts go on the word, before the
                    # application mark that follows it
                    out[-2:] = [self.scripts(out[-2]), _APPLY]
                else:
                    out[-1] = self.scripts(out[-1])
                continue
            if t == "'":  # primes: f', \delta''
                self.take()
                prime = "′"
                while self.peek() == "'":
                    self.take()
                    prime += "′"
                base = out.pop() if out else "<mrow></mrow>"
                out.append(_el("msup", base, _text("mo", prime)))
                continue
            out.extend(self.atom())

    def bars(self, bar: str) -> str:
        """``|x|`` as a group; a bar with no partner (E[C_i | C_1, ..., C_{i-1}]) is the
        conditional bar, a sign."""
        start, lenient = self.i, self.lenient
        self.take()
        self.lenient = False  # a partner is found, or this is no pair
        try:
            inner = self.sequence(until=bar)
        except Untypeset:
            self.i = start
            self.take()
            return _text("mo", "|")
        finally:
            self.lenient = lenient
        return _el("mrow", _fence(bar), _row(inner) if inner else "", _fence(bar))

    def scripts(self, base: str) -> str:
        sub = sup = None
        while self.peek() in ("^", "_"):
            mark = self.take()
            arg = self.argument()
            if mark == "^":
                if sup is not None:
                    raise Untypeset("a double superscript")
                sup = arg
            else:
                if sub is not None:
                    raise Untypeset("a double subscript")
                sub = arg
        if sub is not None and sup is not None:
            return _el("msubsup", base, sub, sup)
        if sub is not None:
            return _el("msub", base, sub)
        return _el("msup", base, sup or "")

    def atom(self) -> list[str]:
        t = self.take()
        if t == "{":
            return [_row(self.sequence(until="}"))]
        if t == "&" or t == "\\\\":
            return []  # alignment and line ends of an align* row: the row is one line here
        if re.fullmatch(r"\d+(\.\d+)?", t):
            return [_text("mn", t)]
        if re.fullmatch(r"[A-Za-z]", t):
            return [_text("mi", t)]
        if t == "-":
            return [_text("mo", "−")]
        if t == "/":  # a solidus sits close, as in a book: |f_x - f_y|/(2b)
            return [_text("mo", t, lspace="0.05em", rspace="0.05em")]
        if t in _MO_CHARS:
            return [_text("mo", t)]
        if t == ".":
            return [_text("mo", ".")]
        if t.startswith("\\"):
            return self.command(t[1:])
        if t == "~":
            return [_el("mspace", width="0.25em")]
        raise Untypeset(f"the character {t!r}")

    def cases(self) -> str:
        """``\\begin{cases} v & c \\\\ ... \\end{cases}`` (SymPy's Piecewise) as a brace
        before a table of rows, each a value and its condition."""
        rows: list[str] = []
        cells: list[str] = []
        while True:
            cell = self.sequence(stops=_CELL_ENDS)
            end = self.peek()
            if end is None:
                raise Untypeset("missing \\end{cases}")
            self.take()
            cells.append(_el("mtd", _row(cell) if cell else ""))
            if end != "&":
                if any(c != "<mtd></mtd>" for c in cells):
                    rows.append(_el("mtr", *cells))
                cells = []
            if end == "\\end":
                self.raw_group()
                table = _el("mtable", *rows, columnalign="left")
                return _el("mrow", _fence("{"), table)

    def command(self, word: str) -> list[str]:
        if word in _GREEK:
            return [_text("mi", _GREEK[word])]
        if word in _CAPITALS:
            return [_text("mi", _CAPITALS[word], mathvariant="normal")]
        if word in _FUNCTIONS:
            return [_text("mi", word), _APPLY]
        if word in _OPERATORS:
            return [_text("mo", _OPERATORS[word])]
        if word in _LARGE:
            return [_text("mo", _LARGE[word], largeop="true")]
        if word in _SPACES:
            return [_el("mspace", width=_SPACES[word])]
        if word in _DROPPED:
            return []
        if word in _DROPPED_WITH_ARG:
            self.raw_group()
            return []
        if word in _TEXT:
            return [_text("mtext", self.raw_group())]
        if word in _VARIANTS:
            name = self.raw_group().strip()
            if not re.fullmatch(r"[A-Za-z0-9 ]+", name):
                raise Untypeset(f"\\{word} of more than letters")
            fn = [_APPLY] if word.startswith("operatorname") else []
            return [_text("mi", name, mathvariant=_VARIANTS[word]), *fn]
        if word in _FRACTIONS:
            return [_el("mfrac", self.argument(), self.argument())]
        if word in _BINOMIALS:
            top, bottom = self.argument(), self.argument()
            frac = _el("mfrac", top, bottom, linethickness="0")
            return [_el("mrow", _text("mo", "("), frac, _text("mo", ")"))]
        if word == "begin":
            if self.raw_group().strip() != "cases":
                raise Untypeset("an environment other than cases")
            return [self.cases()]
        if word == "sqrt":
            if self.peek() == "[":
                self.take()
                index = _row(self.sequence(until="]"))
                return [_el("mroot", self.argument(), index)]
            return [_el("msqrt", self.argument())]
        if word in _ACCENTS:
            return [_el("mover", self.argument(), _text("mo", _ACCENTS[word]), accent="true")]
        raise Untypeset(f"\\{word}")


_CELL_ENDS = frozenset({"&", "\\\\", "\\end"})
"""What ends a cell of a ``cases`` environment: the next cell, row, or the end."""
_APPLY = _text("mo", "\u2061")
"""The invisible function application mark after a function's name (ln x, Pr[...])."""


def _row(items: list[str]) -> str:
    return items[0] if len(items) == 1 else _el("mrow", *items)


def latex_mathml(source: str) -> str:
    """The MathML (without ``<math>``) of the LaTeX fragment ``source`` as written; raises
    :class:`Untypeset` for what this module does not typeset."""
    reader = _Reader(source)
    items = reader.sequence()
    if not items:
        raise Untypeset("no mathematics")
    return "".join(items)


_OPENING = {"(", "[", "{", "⌊", "⌈", "⟨"}
_CLOSING = {")", "]", "}", "⌋", "⌉", "⟩"}
_BREAKS = {"+", "−", "=", "≤", "≥", "<", ">", "±", "·"}


def latex_pieces(source: str, also: str = "", lenient: bool = False) -> list[str]:
    """The MathML of ``source`` cut before each top-level ``+``, ``−``, relation or ``·``
    (outside brackets and ``|...|``), each piece to be its own ``<math>``: MathML has no
    line breaking, so a long line of the author's wraps between pieces on a narrow screen,
    as the site's chains do (:mod:`derivations.printing.breaking`).  ``also``: more signs
    to cut before (a formula inside a sentence may break before ``/`` or after a comma);
    ``lenient`` for a run of prose, which may leave a bracket open (see ``_Reader``).

    >>> len(latex_pieces(r"\\exp(-|t|/b)/(2b)", also="/"))
    2
    """
    items = _Reader(source, lenient).sequence()
    if not items:
        raise Untypeset("no mathematics")
    pieces: list[list[str]] = [[]]
    depth = bars = 0
    for item in items:
        m = re.fullmatch(r"<mo(?: [^>]*)?>(.*)</mo>", item)
        mark = m.group(1) if m else ""
        cut = mark in _BREAKS or (mark != "" and mark in also)
        if cut and depth == 0 and bars % 2 == 0 and pieces[-1]:
            pieces.append([])
        depth += (mark in _OPENING) - (mark in _CLOSING)
        bars += mark == "|"
        pieces[-1].append(item)
    return ["".join(p) for p in pieces if p]


def plain_math(source: str) -> str:
    """LaTeX this module does not typeset, as plain characters for a sentence: control
    words as their symbols (``\\le`` as ≤, ``\\varepsilon`` as ε), braces and script marks
    dropped.  The last resort of prose: never TeX source posing as mathematics."""
    words = _GREEK | _CAPITALS | _OPERATORS | {"mathrm": "", "text": "", "operatorname": ""}

    def symbol(m: re.Match[str]) -> str:
        word = m.group(1)
        return words.get(word, word if word in _FUNCTIONS else "")

    out = re.sub(r"\\([A-Za-z]+|.)", symbol, source)
    return re.sub(r"[{}^_]", "", out)
