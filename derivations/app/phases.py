"""What the command line tells its watchdog (:mod:`derivations.app.watchdog`): the phase it
is in, and the limits it runs under."""

from __future__ import annotations

import contextlib
import os
import signal

DEFAULT_MEMORY_MB = 3072
"""Address-space cap of the command and its workers (MB; ``DPDERIVE_MEMORY_MB`` changes it,
0 removes it).  A catalog check peaks below 0.5 GB of address space with python-flint, z3
and numpy loaded; ``x**(10**9)`` once took 8 GB."""
PIPE_EXIT = 128 + signal.SIGPIPE

PHASE_FD: int | None = None
"""Set in the watched child: where :func:`phase` writes."""


def phase(text: str) -> None:
    """Tell the watching parent what the command is doing (shown if the budget runs out)."""
    if PHASE_FD is not None:
        with contextlib.suppress(OSError):
            os.write(PHASE_FD, (text.replace("\n", " ")[:200] + "\n").encode())


EXPECT = "\x01expect "
"""Marks a line of :func:`expect` among the phases."""


def expect(seconds: float) -> None:
    """Tell the watching parent how long the command's work may take from its start, once
    the command knows what it will do (how many derivations it checks, how many pages it
    builds): the parent's deadline becomes that plus its grace."""
    if PHASE_FD is not None:
        with contextlib.suppress(OSError):
            os.write(PHASE_FD, f"{EXPECT}{seconds:.3f}\n".encode())


HTML_PAGE_SECONDS = 0.5
HTML_SECONDS = 30.0
"""What ``html`` may take besides its checks: the plots, and each page it builds (the whole
catalog without checks takes about 7 s)."""


def html_seconds(pages: int) -> float:
    """What ``html`` may take to build ``pages`` pages and the plots, besides its checks."""
    return HTML_SECONDS + HTML_PAGE_SECONDS * pages


def memory_limit_mb() -> int:
    raw = os.environ.get("DPDERIVE_MEMORY_MB", "")
    try:
        return int(raw) if raw.strip() else DEFAULT_MEMORY_MB
    except ValueError:
        return DEFAULT_MEMORY_MB
