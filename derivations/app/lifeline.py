"""Processes that end with the process that started them.

The command line forks a child that does the work, the child starts worker processes and
pdflatex.  When the parent is killed (a grader's ``timeout``, a closed terminal, SIGKILL),
nothing else would stop them: the checking child ran on to its own deadline, holding the
terminal's stdout, 41 s after ``timeout 8`` (issue 41).  On Linux the kernel can send a
process a signal when its parent ends (``prctl(PR_SET_PDEATHSIG)``); each process we start
asks for SIGKILL, so the chain parent -> child -> workers and pdflatex unwinds from the top.
A parent that died before the request was made is caught by comparing the parent's pid.
Elsewhere nothing is done here (the watchdog still kills the child's process group on
SIGTERM, SIGHUP and SIGINT).
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import signal
import sys
from typing import Any

__all__ = ["die_with_parent"]

_PR_SET_PDEATHSIG = 1
"""From <linux/prctl.h>."""


def _load_prctl() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return libc.prctl
    return None


_PRCTL = _load_prctl()
"""Loaded once, at import: :func:`die_with_parent` runs between fork and exec (a
``preexec_fn``), where loading a library is best avoided."""


def die_with_parent(parent: int | None = None, sig: int = signal.SIGKILL) -> bool:
    """Have the kernel send ``sig`` to this process when its parent ends; if the parent
    (pid ``parent``, when given) has ended already, end now.  True when the request was
    made (Linux), False where it cannot be."""
    prctl = _PRCTL
    if prctl is None:
        return False
    if prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0) != 0:
        return False
    if parent is not None and os.getppid() != parent:
        os.kill(os.getpid(), sig)  # the parent died before the request: as if it came now
    return True
