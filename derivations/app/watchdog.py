"""The command line's outer guard: a memory cap, a quiet closed pipe, and a deadline on the
whole command.

The checking stages keep their own deadline (:mod:`numeric_checks.budget`), but reading and
parsing the input, SymPy's simplification and precision setup ran before it started, and a
symbolic call it cannot interrupt could run past it (issue 27: nested powers, an exp tower
and ``--digits 100000`` each ran past 120 s under ``--budget 5``).  So :func:`entry` runs the
command in a forked child, in its own process group (worker processes included), and kills
the group when the whole budget plus :data:`GRACE` is spent: the command then ends with
``undecided: budget spent``, exit 3, naming the phase it was in.

All of this happens only in :func:`entry`, the console script and ``python -m derivations``:
never at import, so the Python kit, notebooks and the test suite run without these limits.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import math
import os
import resource
import select
import signal
import sys
import time
from collections.abc import Sequence

from derivations.app import phases
from derivations.app.exitcodes import EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_UNDECIDED
from derivations.app.phases import PIPE_EXIT, memory_limit_mb

GRACE = 3.0
"""Seconds past the budget for start-up and writing the report; the check's own deadline
(given what is left of the budget after parsing) normally ends it first."""
INT_DIGITS = 200_000
"""Python's cap on int/str conversions, raised from 4,300 so that ``10**5000`` is printed;
the parser's own limits (``symbolic.parsing.MAX_RESULT_DIGITS``) keep numbers below it."""
YOUNG_COLLECTION = 20_000
"""Allocations between collections of the youngest generation (Python's default is 700)."""


def tune_collector() -> None:
    """Fewer, cheaper cyclic garbage collections for one command's run.

    A check allocates millions of short-lived SymPy and mpmath objects, so with the default
    thresholds the collector ran about every 700 allocations and each full collection walked
    the ~66,000 objects of the imported modules again.  Freezing what is imported so far
    moves it out of the collector's sight (it lives until exit anyway), and a larger youngest
    generation makes collections rarer; garbage cycles are still collected.  Together about
    10% of the CPU time of kl-bound, numeric-sparse-privacy-approx and
    gdp-gaussian-mechanism.  Only here, in the console script: a test suite or a notebook
    calling the kit keeps Python's defaults, and nothing it creates is frozen."""
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION, 20, 20)


def cap_memory(megabytes: int) -> None:
    """Lower the address-space limit of this process (and the processes it starts) to
    ``megabytes``; never raise an existing lower limit."""
    if megabytes <= 0:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = megabytes * 1024 * 1024
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    if soft == resource.RLIM_INFINITY or soft > cap:
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


def deadline_seconds(args: argparse.Namespace, catalog_size: int) -> float | None:
    """The whole command's wall-clock bound, or None for verbs that check nothing: the
    budget (per derivation) times the rounds of ``--jobs`` workers, plus :data:`GRACE`."""
    budget = getattr(args, "budget", None)
    if budget is None:
        return None
    if getattr(args, "all", False):
        if getattr(args, "no_check", False):
            return None
        count = catalog_size
    else:
        ids = getattr(args, "ids", None)
        count = max(1, len(ids)) if isinstance(ids, list) else 1
    jobs = max(1, int(getattr(args, "jobs", 1) or 1))
    return float(budget) * math.ceil(count / jobs) + GRACE


def entry(argv: Sequence[str] | None = None) -> int:
    """``dpderive``: the command run under the limits above."""
    from derivations.app import cli

    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a closed pipe ends the command quietly
    sys.set_int_max_str_digits(INT_DIGITS)
    cap_memory(memory_limit_mb())
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = cli.build_parser().parse_args(argv)
    except SystemExit as exc:
        return int(exc.code) if isinstance(exc.code, int) else EXIT_BAD_INPUT
    from derivations.catalog import HOMES

    tune_collector()
    seconds = deadline_seconds(args, len(HOMES))
    if seconds is None or not hasattr(os, "fork"):
        return cli.main(argv)
    return _watched(argv, seconds, args)


def _watched(argv: list[str], seconds: float, args: argparse.Namespace) -> int:
    read_end, write_end = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:  # the child: the command itself
        os.close(read_end)
        os.setpgid(0, 0)
        phases.PHASE_FD = write_end
        code = EXIT_BAD_INPUT
        try:
            from derivations.app import cli

            code = cli.main(argv)
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            except BrokenPipeError:
                pass
            os._exit(code)
    os.close(write_end)
    with contextlib.suppress(OSError):
        os.setpgid(pid, pid)  # also here: no race with the child's own call
    seen: list[str] = []
    try:
        status = _wait(pid, started + seconds, read_end, seen)
    except KeyboardInterrupt:
        _kill_group(pid)
        print("dpderive: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        os.close(read_end)
    if status is None:
        _kill_group(pid)
        return _budget_spent(args, time.monotonic() - started, seen)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig == signal.SIGPIPE:
            return PIPE_EXIT
        print(
            f"dpderive: undecided: the check was stopped by signal {signal.Signals(sig).name} "
            f"while {_last(seen)} (out of memory? the limit is {memory_limit_mb()} MB, "
            "DPDERIVE_MEMORY_MB changes it)",
            file=sys.stderr,
        )
        return EXIT_UNDECIDED
    return os.waitstatus_to_exitcode(status)


def _wait(pid: int, until: float, phase_fd: int, phases: list[str]) -> int | None:
    """The child's wait status, or None if it is still running at ``until``; the phases it
    reports are collected on the way."""
    buffer = b""
    while True:
        _, status = os.waitpid(pid, os.WNOHANG)
        if _ != 0:
            return status
        left = until - time.monotonic()
        if left <= 0:
            return None
        ready, _w, _x = select.select([phase_fd], [], [], min(left, 0.05))
        if ready:
            chunk = os.read(phase_fd, 4096)
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            phases += [line.decode(errors="replace") for line in lines if line]


def _kill_group(pid: int) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(pid, sig)
        except ProcessLookupError:
            break
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            done, _ = os.waitpid(pid, os.WNOHANG)
            if done:
                return
            time.sleep(0.02)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


def _last(phases: list[str]) -> str:
    return phases[-1] if phases else "starting"


def _budget_spent(args: argparse.Namespace, elapsed: float, phases: list[str]) -> int:
    evidence = (
        f"budget spent: the whole command is bounded by --budget {args.budget:g} s (plus "
        f"{GRACE:g} s to start and report), and it was stopped after {elapsed:.1f} s while "
        f"{_last(phases)}; nothing was decided"
    )
    done = [p for p in phases[:-1]]
    if getattr(args, "json", False):
        json.dump({"verdict": "undecided", "evidence": evidence, "done": done}, sys.stdout)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(f"verdict: undecided\nevidence: {evidence}\n")
        if done:
            sys.stdout.write("done before: " + "; ".join(done) + "\n")
    sys.stdout.flush()
    return EXIT_UNDECIDED
