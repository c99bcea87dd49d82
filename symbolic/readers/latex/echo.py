r"""What of an author's LaTeX may go back into a document: every token known, nothing TeX
could read differently from the reader.

A teacher runs ``dpderive latex`` on a student's proof and compiles it.  The reader reads
the student's LaTeX its own way, but pdflatex reads the echo TeX's way, and the two differ
wherever TeX has a trick the reader does not model (issue 41): ``^^5c`` is a backslash to
TeX, so ``^^5cinput{/etc/passwd}`` is ``\input``; ``^^7d`` closes a group, so the argument
of a ``\phantom`` the reader skipped unread can end early and leave the rest to TeX; a
``[latex]`` key is matched as raw text before any command is read; ``%`` hides a brace
from TeX but not from the reader.  So there are two guards:

- :func:`refuse_hazards`, on what the reader reads (a chain's environment, a LaTeX field, a
  ``[latex]`` key): TeX's ``^^`` notation, ``#`` and the primitives that read or write
  files, define macros or change how characters are read (:data:`FORBIDDEN`) are refused
  with the line they are on;
- :func:`echo`, on what a printer would copy into a document: the text is read again as
  TeX reads it (standard catcodes; our preamble changes none), and it is given back only
  when every character is printable ASCII and every control word is in :data:`ECHO_WORDS`,
  the reader's own vocabulary plus a few accents and fonts that ``[latex]`` keys use, with
  braces and environments balanced; the arguments of the commands the reader ignores
  (``\phantom``, ``\hspace``, ``\label``...) are left out.  Otherwise the printer typesets
  the parsed expression instead and says why (:func:`echo_problem`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from symbolic.errors import LatexError
from symbolic.readers.latex.tokens import group_end, line_of
from symbolic.readers.latex.vocabulary import (
    BINOMIALS,
    DELIMITERS,
    FRACTIONS,
    FUNCTION_WORDS,
    GREEK,
    IGNORED,
    IGNORED_WITH_ARG,
    NAME_COMMANDS,
    RELATIONS,
    SPACING_WORDS,
    TEXT_COMMANDS,
    UNSUPPORTED_RELATIONS,
)

__all__ = [
    "ECHO_WORDS",
    "FORBIDDEN",
    "Echo",
    "echo",
    "echo_problem",
    "refuse_hazards",
]


def _bare(words: frozenset[str] | set[str]) -> set[str]:
    return {w[1:] for w in words if re.fullmatch(r"\\[A-Za-z]+", w)}


FORBIDDEN = frozenset(
    """
    catcode lccode uccode sfcode mathcode delcode active csname endcsname string meaning
    input endinput include includeonly InputIfFileExists IfFileExists openin openout read
    readline write immediate closein closeout newread newwrite message typeout special
    shipout def edef gdef xdef let futurelet newcommand renewcommand providecommand
    DeclareRobustCommand DeclareMathOperator newenvironment renewenvironment expandafter
    noexpand unexpanded lowercase uppercase scantokens detokenize everyjob everypar
    everymath everydisplay everyhbox everyvbox everycr usepackage RequirePackage
    documentclass makeatletter makeatother verbatiminput lstinputlisting includegraphics
    directlua luaexec pdfprimitive pdffiledump pdfobj pdfximage pdfshellescape
    write18 jobname errmessage errhelp batchmode nonstopmode scrollmode errorstopmode
    """.split()  # noqa: SIM905  (a word list reads better as words)
)
r"""Control words refused wherever the reader reads LaTeX: TeX's input and output
(``\input``, ``\openout``, ``\write``...), macro definitions and expansion tricks
(``\def``, ``\let``, ``\csname``, ``\expandafter``, ``\scantokens``, ``\lowercase``...)
and catcode changes.  None of them means anything in a formula."""

_READER_WORDS = (
    set(GREEK)
    | set(FUNCTION_WORDS)
    | _bare(set(RELATIONS))
    | _bare(IGNORED)
    | _bare(IGNORED_WITH_ARG)
    | _bare(TEXT_COMMANDS)
    | _bare(NAME_COMMANDS)
    | _bare(SPACING_WORDS)
    | _bare(FRACTIONS)
    | _bare(BINOMIALS)
    | _bare(set(DELIMITERS))
    | _bare(UNSUPPORTED_RELATIONS)
    | set(
        """left right sqrt sum prod int infty cdot times ast div choose prime dots ldots cdots
        forall in colon begin end Pr exp ln log max min""".split()  # noqa: SIM905
    )
)
_TYPESETTING = set(
    """hat tilde bar overline underline vec dot ddot widehat widetilde check breve acute grave
    mathbb mathfrak mathtt ell hbar nabla partial star circ bullet otimes oplus cap cup
    setminus mid Vert lVert rVert langle rangle emptyset varnothing top bot mathscr
    lim sup inf limsup liminf det arg deg dim ker cos sin tan arctan cot sec csc ne neq
    approx sim simeq propto equiv cong ll gg to mapsto sharp flat natural wedge vee neg
    notin subset subseteq supset supseteq exists pm mp
    """.split()  # noqa: SIM905
) - {"mathscr"}  # \mathscr needs mathrsfs, which our preamble does not load

ECHO_WORDS = frozenset((_READER_WORDS | _TYPESETTING) - FORBIDDEN)
"""Control words (without the backslash) an echo may contain: the reader's vocabulary and
harmless accents, fonts and symbols defined by LaTeX, amssymb and mathtools."""

_TRANSLATED = {"erf": r"\operatorname{erf}", "erfc": r"\operatorname{erfc}", "lt": "<", "gt": ">"}
"""Words the reader knows that LaTeX does not define: written out in the echo."""
_ENVIRONMENTS = frozenset({"cases", "dcases"})
_CONTROL_SYMBOLS = frozenset(",;:!> {}|")
_DROPPED = _bare(IGNORED_WITH_ARG)
_STARRED = frozenset({"operatorname", "hspace"})
_TEXT_WORDS = frozenset({"quad", "qquad"})
_LETTER = re.compile(r"[A-Za-z]+")


@dataclass(frozen=True)
class Echo:
    """The outcome of :func:`echo`: the LaTeX to echo, or the reason it is not echoed."""

    tex: str | None
    problem: str = ""


def _hazard(text: str, start: int, end: int) -> tuple[int, str] | None:
    """The first hazard in ``text[start:end]`` read as TeX reads it: its position and what
    it is."""
    at = text.find("^^", start, end)
    first: tuple[int, str] | None = (at, "TeX's ^^ notation") if at >= 0 else None
    i = start
    while i < end and (first is None or i < first[0]):
        c = text[i]
        if c == "\\":
            m = _LETTER.match(text, i + 1, end)
            if m is None:
                i += 2  # a control symbol: \\ \{ \% ... (``\\input`` is \\ then letters)
                continue
            if m.group() in FORBIDDEN:
                return i, f"\\{m.group()}"
            i = m.end()
            continue
        if c == "#":
            return i, "'#' (a macro parameter)"
        i += 1
    return first


def refuse_hazards(
    text: str,
    where: str = "",
    line_offset: int = 0,
    start: int = 0,
    end: int | None = None,
    *,
    lines: bool = True,
) -> None:
    r"""Raise :class:`LatexError` naming the line when ``text[start:end]`` holds TeX's ``^^``
    notation, a ``#`` or a control word of :data:`FORBIDDEN`; without ``lines`` (a text that
    is no file's line) the message names no line.  Comments should be blanked first (a
    ``%`` comment is never echoed).

    >>> refuse_hazards(r"x \le 1")
    >>> refuse_hazards("x &\\le 1 \\\\\n & ^^5cinput{/etc/passwd}", "proof.tex")
    Traceback (most recent call last):
    ...
    symbolic.errors.LatexError: proof.tex: TeX's ^^ notation at line 2 is refused: it ...
    """
    found = _hazard(text, start, len(text) if end is None else end)
    if found is None:
        return
    pos, what = found
    line = line_of(text, pos) + line_offset
    head = f"{where}: " if where else ""
    at = f" at line {line}" if lines else ""
    raise LatexError(
        f"{head}{what}{at} is refused: it can make TeX read files, write files or define "
        "commands, and means nothing in a formula; remove it",
        line if lines else 0,
        text[pos : pos + 20],
    )


class _Refused(Exception):
    """Internal: why a text is not echoed."""


def _group_end(text: str, j: int) -> int:
    """The index after the balanced ``{...}`` group opening at ``text[j]``."""
    after = group_end(text, j)
    if after is not None:
        return after
    raise _Refused("an argument whose braces do not close")


def _skip_spaces(text: str, j: int) -> int:
    while j < len(text) and text[j] in " \t\n":
        j += 1
    return j


class _Reader:
    """One pass over the text as TeX reads it, building the echo."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.out: list[str] = []
        self.stack: list[str] = []  # "{" for a group, an environment's name, "text" for \text{
        self.sizes = 0  # \left minus \right

    def in_text(self) -> bool:
        return "text" in self.stack

    def in_environment(self) -> bool:
        return any(s in _ENVIRONMENTS for s in self.stack)

    def run(self) -> str:
        text, i = self.text, 0
        while i < len(text):
            c = text[i]
            if c == "\\":
                i = self.command(i)
            elif c == "{":
                self.stack.append("{")
                self.out.append(c)
                i += 1
            elif c == "}":
                if not self.stack or self.stack[-1] in _ENVIRONMENTS:
                    raise _Refused("a '}' that closes no group")
                self.stack.pop()
                self.out.append(c)
                i += 1
            elif c in "%#$":
                what = {"%": "a '%' (a TeX comment)", "#": "a '#'", "$": "a '$'"}[c]
                raise _Refused(what)
            elif c == "&" and not self.in_environment():
                raise _Refused("an '&' outside cases")
            elif c in "^_" and self.in_text():
                raise _Refused(f"a '{c}' inside \\text")
            else:
                self.out.append(c)
                i += 1
        if self.stack:
            raise _Refused("a group or environment that is not closed")
        if self.sizes:
            raise _Refused("\\left and \\right that do not pair")
        return "".join(self.out).replace("\t", " ")  # a tab is a space to TeX

    def command(self, i: int) -> int:
        text = self.text
        m = _LETTER.match(text, i + 1)
        if m is None:
            if i + 1 >= len(text):
                raise _Refused("a backslash at the end")
            symbol = text[i + 1]
            if symbol == "\\" and self.in_environment():
                self.out.append("\\\\")
                return i + 2
            if symbol in "\n\t":
                self.out.append("\\ ")  # TeX's control space, as the reader's spacing
                return i + 2
            if symbol not in _CONTROL_SYMBOLS or (self.in_text() and symbol in "!>|"):
                raise _Refused(f"the control symbol \\{symbol}")
            self.out.append(text[i : i + 2])
            return i + 2
        word, j = m.group(), m.end()
        if j < len(text) and text[j] == "*" and word in _STARRED:
            j += 1
        if word in _DROPPED:
            start = _skip_spaces(text, j)
            if start >= len(text) or text[start] != "{":
                raise _Refused(f"\\{word} without its {{...}} argument")
            self.out.append(" ")  # \alpha\phantom{..}x must not become \alphax
            return _group_end(text, start)
        if word not in ECHO_WORDS:
            raise _Refused(f"\\{word}, which is not in the reader's vocabulary")
        if self.in_text() and word not in _TEXT_WORDS:
            raise _Refused(f"\\{word} inside \\text")
        if word in ("begin", "end"):
            return self.environment(word, j)
        if word == "left":
            self.sizes += 1
        elif word == "right":
            self.sizes -= 1
        if "\\" + word in TEXT_COMMANDS or word == "mbox":
            start = _skip_spaces(text, j)
            if start >= len(text) or text[start] != "{":
                raise _Refused(f"\\{word} without its {{...}} argument")
            self.out.append(text[i:start] + "{")
            self.stack.append("text")
            return start + 1
        self.out.append(_TRANSLATED.get(word, text[i:j]))
        return j

    def environment(self, word: str, j: int) -> int:
        text = self.text
        m = re.compile(r"\s*\{([A-Za-z]+\*?)\}").match(text, j)
        if m is None or m.group(1) not in _ENVIRONMENTS:
            name = m.group(1) if m else "?"
            raise _Refused(f"the environment {name!r}")
        name = m.group(1)
        if word == "begin":
            self.stack.append(name)
        elif not self.stack or self.stack[-1] != name:
            raise _Refused(f"\\end{{{name}}} that closes no \\begin{{{name}}}")
        else:
            self.stack.pop()
        self.out.append(f"\\{word}{{{name}}}")
        return m.end()


def _character_problem(text: str) -> str:
    for c in text:
        if not (" " <= c <= "~" or c in "\n\t"):
            return f"the character U+{ord(c):04X}, outside printable ASCII"
    if "^^" in text:
        return "TeX's ^^ notation"
    return ""


def echo(text: str) -> Echo:
    r"""The author's LaTeX ``text`` as it may be copied into a document (the arguments of
    ignored commands left out, ``\erf`` written as ``\operatorname{erf}``), or ``None``
    with the reason.

    >>> echo(r"e^{\varepsilon} \hspace{1em} - 1").tex
    'e^{\\varepsilon}   - 1'
    >>> echo(r"x \phantom{^^7d\input{/etc/passwd}}").problem
    "TeX's ^^ notation"
    >>> echo(r"\input{/etc/passwd}").problem
    "\\input, which is not in the reader's vocabulary"
    >>> echo(r"x % }").problem
    "a '%' (a TeX comment)"
    >>> echo(r"\begin{cases} 1 & x < 0 \\ 0 & \text{otherwise} \end{cases}").tex
    '\\begin{cases} 1 & x < 0 \\\\ 0 & \\text{otherwise} \\end{cases}'
    """
    problem = _character_problem(text)
    if problem:
        return Echo(None, problem)
    try:
        return Echo(_Reader(text).run())
    except _Refused as exc:
        return Echo(None, str(exc))


def echo_problem(text: str) -> str:
    """Why ``text`` is not echoed ("" when it is)."""
    return echo(text).problem
