r"""User text made safe for a terminal: every character that moves the cursor, changes the
colours, reorders the line or hides itself is shown as an escape instead.

A title, a statement, a reason, a file name or an expression as typed is printed among our
own words (``verdict: refuted``).  Printed raw, ``ESC[1A ESC[2K`` erases a line already on
screen, ``ESC[8m`` hides text, ``ESC]8;;URL ESC\`` makes a hyperlink, a carriage return or
backspaces overwrite what came before, a newline starts a report line of the author's making
and a right-to-left override turns ``REFUTED`` around (issue 41).  So every text printer
passes the user's strings through :func:`visible` (newlines shown as ``\n``) and the command
line passes its whole text output through :func:`visible_lines` (newlines kept).

What is escaped: the C0 and C1 control characters and DEL, Unicode's format characters
(bidirectional embeddings, overrides and isolates, zero-width spaces and joiners, the byte
order mark, soft hyphens), line and paragraph separators, and surrogates (a file name that
is not UTF-8).  A backslash is left alone: LaTeX is full of them, and an escape spelled by
hand (``\x1b`` typed as four characters) is as harmless as any other text.

>>> visible("REFUTED\x1b[1A\x1b[2KPROVED")
'REFUTED\\x1b[1A\\x1b[2KPROVED'
>>> visible("a\nb\rc\u202ed")
'a\\nb\\rc\\u202ed'
>>> visible_lines("line 1\nline\x082")
'line 1\nline\\x082'
>>> visible(r"e^{\varepsilon} \le 1")
'e^{\\varepsilon} \\le 1'
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

__all__ = ["MAX_LINE", "shortened", "visible", "visible_lines"]

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


@lru_cache(maxsize=4096)
def _shown(c: str) -> str:
    """``c`` itself, or its escape when it is a control, format, separator or surrogate."""
    code = ord(c)
    if 0x20 <= code < 0x7F:
        return c
    if c in _NAMED:
        return _NAMED[c]
    if code < 0x20:
        return f"\\x{code:02x}"
    if 0x7F <= code < 0xA0:
        # As JSON spells it too: a JSON document printed with its non-ASCII characters kept
        # (the audit's) stays valid JSON once DEL or a C1 control is shown so.
        return f"\\u{code:04x}"
    if code < 0xA0:
        return c
    if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp", "Co", "Cn"):
        return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"
    return c


def _escape(text: str, keep: str) -> str:
    if text.isascii() and text.isprintable():
        return text  # the common case, kept cheap
    return "".join(c if c in keep else _shown(c) for c in text)


def visible(text: str) -> str:
    """``text`` on one line, every control and invisible character shown as an escape."""
    return _escape(str(text), "")


def visible_lines(text: str) -> str:
    """``text`` with its newlines kept and every other control or invisible character
    shown as an escape: the last guard on what the command line prints."""
    return _escape(str(text), "\n")


MAX_LINE = 2_000
"""Characters of a message printed whole; a longer one keeps its head and tail."""


def shortened(text: str, limit: int = MAX_LINE) -> str:
    """``text`` cut in the middle when longer than ``limit``, saying how much was left out:
    an error names the problem at its start and the remedy at its end, and a 10 KB line
    quoted in between is no help on a terminal.

    >>> shortened("head " + "x" * 100 + " tail", 30)
    'head xxxxxxxxxx [... 80 characters left out ...] xxxxxxxxxx tail'
    """
    if len(text) <= limit:
        return text
    keep = max(limit // 2, 1)
    head, tail = text[:keep], text[len(text) - (limit - keep) :]
    left_out = len(text) - len(head) - len(tail)
    return f"{head} [... {left_out} characters left out ...] {tail}"
