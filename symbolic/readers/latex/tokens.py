"""Cut LaTeX into tokens that remember where they came from.

The tokenizer never fails: what it cannot read becomes a ``bad`` token (an unbalanced brace
after ``\\text``), and unknown commands are ordinary ``cs`` tokens, so that the parser can say
which fragment is wrong and on which line.  Spacing, style and numbering commands are
dropped here; ``\\quad`` is kept because it may introduce a step's reason.

>>> [(t.kind, t.value) for t in tokenize(r"2\\,\\varepsilon_{1} \\le \\text{ok}")]
[('digit', '2'), ('cs', '\\\\varepsilon'), ('char', '_'), ('char', '{'), ('digit', '1'), \
('char', '}'), ('cs', '\\\\le'), ('text', '\\\\text')]
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from symbolic.readers.latex.vocabulary import (
    IGNORED,
    IGNORED_WITH_ARG,
    NAME_COMMANDS,
    REFERENCE_COMMANDS,
    SPACING_WORDS,
    TEXT_COMMANDS,
)

__all__ = ["Tok", "blank_comments", "group_end", "line_of", "name_patterns", "tokenize"]

_WORD = re.compile(r"\\[A-Za-z]+\*?")
_KEY_PIECE = re.compile(r"\\[A-Za-z]+|\\.|\s+|.", re.S)
_COMMENT = re.compile(r"(?<![\\])((?:\\\\)*)%[^\n]*")
r"""A comment as TeX reads it: a ``%`` after an even number of backslashes (``\\%`` ends a
row and starts a comment; ``\%`` is a percent sign)."""
_ROWSEP_TAIL = re.compile(r"\*?(\s*\[[^\]\n]*\])?")
_STARRED = NAME_COMMANDS | REFERENCE_COMMANDS | IGNORED_WITH_ARG


@dataclass(frozen=True)
class Tok:
    """One token: ``kind`` (digit, letter, char, cs, text, named, ref, begin, end, amp, rowsep,
    quad, name, bad), its ``value`` (the character or command), its span in the text, and
    ``arg``: the braced argument of ``\\text``, ``\\mathrm``, ``\\begin``..., or for a ``name``
    token (a fragment of the user's ``names`` map) the LaTeX it replaced."""

    kind: str
    value: str
    pos: int
    end: int
    arg: str = ""


def line_of(text: str, pos: int) -> int:
    """The 1-based line of ``text`` that holds position ``pos``."""
    return text.count("\n", 0, pos) + 1


def blank_comments(text: str) -> str:
    """``text`` with every ``%`` comment replaced by spaces (positions and lines kept).

    >>> blank_comments("a % note\\nb")
    'a       \\nb'
    >>> row_end = chr(92) * 2  # a row's end, then a comment
    >>> blank_comments("x " + row_end + "% note") == "x " + row_end + " " * 6
    True
    """
    return _COMMENT.sub(lambda m: m.group(1) + " " * (len(m.group()) - len(m.group(1))), text)


def _key_pattern(key: str) -> str:
    """A regex for a fragment of the names map that tolerates spacing: ``f(x)`` matches
    ``f( x )``, ``\\Delta f`` matches ``\\Delta  f`` but not ``\\Deltaf``."""
    out: list[str] = []
    prev_word = False
    for piece in _KEY_PIECE.findall(key.strip()):
        if piece.isspace():
            continue
        if out:
            out.append(r"\s+" if prev_word and piece[0].isalpha() else r"\s*")
        out.append(re.escape(piece))
        prev_word = re.fullmatch(r"\\[A-Za-z]+", piece) is not None
    if prev_word:
        out.append(r"(?![A-Za-z])")
    return "".join(out)


def name_patterns(names: Mapping[str, str] | None) -> list[tuple[re.Pattern[str], str, str]]:
    """The user's names map as (pattern, name, fragment), longest fragment first."""
    if not names:
        return []
    keys = sorted((k for k in names if k.strip()), key=lambda k: (-len(k.strip()), k))
    return [(re.compile(_key_pattern(k)), names[k], k) for k in keys]


def group_end(text: str, j: int, end: int | None = None) -> int | None:
    """The index after the balanced ``{...}`` group opening at ``text[j]`` (escaped braces
    skipped), or None when it does not close before ``end``."""
    end = len(text) if end is None else end
    depth, k = 0, j
    while k < end:
        c = text[k]
        if c == "\\":
            k += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return k + 1
        k += 1
    return None


def _group(text: str, j: int, end: int) -> tuple[str, int] | None:
    """The balanced ``{...}`` group at ``j`` (after spaces): its content and the index after
    it, or None when there is no group or it is not closed."""
    while j < end and text[j] in " \t\n":
        j += 1
    if j >= end or text[j] != "{":
        return None
    after = group_end(text, j, end)
    return None if after is None else (text[j + 1 : after - 1], after)


def _single(text: str, j: int, end: int) -> tuple[str, int] | None:
    """A one-character (or one-command) argument, as in ``\\mathrm d``."""
    while j < end and text[j] in " \t\n":
        j += 1
    if j >= end:
        return None
    m = _WORD.match(text, j)
    return (m.group(), m.end()) if m else (text[j], j + 1)


def tokenize(
    text: str,
    names: Mapping[str, str] | None = None,
    start: int = 0,
    end: int | None = None,
    *,
    patterns: list[tuple[re.Pattern[str], str, str]] | None = None,
) -> list[Tok]:
    """Tokens of ``text[start:end]``, with positions in ``text``."""
    stop = len(text) if end is None else end
    pats = patterns if patterns is not None else name_patterns(names)
    out: list[Tok] = []
    i = start
    while i < stop:
        c = text[i]
        if c in " \t\r\n~":
            i += 1
            continue
        if c == "%":
            nl = text.find("\n", i, stop)
            i = stop if nl < 0 else nl
            continue
        matched = next(((p, n, k) for p, n, k in pats if p.match(text, i, stop)), None)
        if matched is not None:
            m = matched[0].match(text, i, stop)
            assert m is not None  # matched just above
            out.append(Tok("name", matched[1], i, m.end(), matched[2]))
            i = m.end()
            continue
        if c == "\\":
            i = _command(text, i, stop, out)
        elif c.isdigit():
            out.append(Tok("digit", c, i, i + 1))
            i += 1
        elif c.isascii() and c.isalpha():
            out.append(Tok("letter", c, i, i + 1))
            i += 1
        elif c == "&":
            out.append(Tok("amp", c, i, i + 1))
            i += 1
        else:
            out.append(Tok("char", c, i, i + 1))
            i += 1
    return out


def _command(text: str, i: int, stop: int, out: list[Tok]) -> int:
    """Read the command at ``text[i] == '\\'``, append its token (if any), return the index
    after it."""
    m = _WORD.match(text, i, stop)
    if m is None:
        word = text[i : i + 2]
        j = i + len(word)
    else:
        word, j = m.group(), m.end()
        if word.endswith("*") and word not in _STARRED:
            word, j = word[:-1], j - 1
    if word == "\\\\":
        tail = _ROWSEP_TAIL.match(text, j, stop)
        j = tail.end() if tail else j
        out.append(Tok("rowsep", word, i, j))
        return j
    if word in IGNORED or word == "\\":
        return j
    if word in SPACING_WORDS:
        out.append(Tok("quad", word, i, j))
        return j
    if word == "\\prime":
        out.append(Tok("char", "'", i, j))
        return j
    braced = word in TEXT_COMMANDS or word in REFERENCE_COMMANDS or word in IGNORED_WITH_ARG
    if braced or word in ("\\begin", "\\end") or word in NAME_COMMANDS:
        arg = _group(text, j, stop)
        if arg is None and word in NAME_COMMANDS:
            arg = _single(text, j, stop)
        if arg is None:
            out.append(Tok("bad", f"{word} needs a {{...}} argument", i, j))
            return j
        content, j = arg
        if word in IGNORED_WITH_ARG:
            return j
        kind = (
            "text"
            if word in TEXT_COMMANDS
            else "ref"
            if word in REFERENCE_COMMANDS
            else word[1:]
            if word in ("\\begin", "\\end")
            else "named"
        )
        out.append(Tok(kind, word, i, j, content.strip()))
        return j
    out.append(Tok("cs", word, i, j))
    return j
