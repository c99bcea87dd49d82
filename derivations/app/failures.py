"""How the command line says that it failed: one line on stderr (the user's text in it
shown escaped, a very long one cut), and with ``--json`` the JSON document
``{"error": MESSAGE, "exit": CODE}`` on stdout, so that ``--json`` always prints JSON
(issue 41); and :class:`VisibleOutput`, the last guard on what a report prints."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from derivations.app.exitcodes import EXIT_BAD_INPUT
from derivations.printing.terminal import shortened, visible, visible_lines

__all__ = [
    "UsageError",
    "VisibleOutput",
    "failed",
    "say_error",
    "usage_failed",
    "wants_json",
    "write_json",
]


class UsageError(Exception):
    """A command line argparse cannot read: its usage line and the message."""

    def __init__(self, usage: str, message: str) -> None:
        super().__init__(message)
        self.usage = usage
        self.message = message


def write_json(data: Any, out: TextIO) -> None:
    json.dump(data, out, indent=2)
    out.write("\n")


def wants_json(argv: Sequence[str] | None) -> bool:
    """Whether the command line asks for JSON (looked at before, or without, parsing it)."""
    words = list(sys.argv[1:] if argv is None else argv)
    return "--json" in words[: words.index("--")] if "--" in words else "--json" in words


def say_error(message: str, prefix: str = "dpderive: error: ") -> None:
    """One line on stderr: the message's controls shown as escapes (it quotes file names
    and the user's text) and a very long one cut in the middle."""
    print(prefix + shortened(visible(message)), file=sys.stderr)


def failed(message: str, code: int, json_wanted: bool, out: TextIO, prefix: str = "error: ") -> int:
    """Say why the command failed on stderr and, with ``--json``, as the JSON document
    ``{"error": ..., "exit": ...}`` on stdout; return ``code``."""
    say_error(message, prefix="dpderive: " + prefix)
    if json_wanted:
        write_json({"error": shortened(message), "exit": code}, out)
    return code


def usage_failed(exc: UsageError, argv: Sequence[str] | None, out: TextIO) -> int:
    """A command line that cannot be read: its usage and the message, exit 2."""
    sys.stderr.write(visible_lines(exc.usage))
    return failed(exc.message, EXIT_BAD_INPUT, wants_json(argv), out)


class VisibleOutput:
    """A text stream that shows every control character written to it as an escape,
    newlines apart (:func:`derivations.printing.terminal.visible_lines`): the last guard on
    what a report prints, behind the printers' own escaping of each user string."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        return self.stream.write(visible_lines(text))

    def flush(self) -> None:
        self.stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)
