"""The command line's outer guard: a memory cap, a quiet closed pipe, and a deadline on the
whole command.

The checking stages keep their own deadline (:mod:`numeric_checks.budget`), but reading and
parsing the input, SymPy's simplification and precision setup ran before it started, and a
symbolic call it cannot interrupt could run past it (issue 27: nested powers, an exp tower
and ``--digits 100000`` each ran past 120 s under ``--budget 5``).  So :func:`entry` runs the
command in a forked child, in its own process group (worker processes included), and kills
the group when the whole budget plus :data:`GRACE` is spent: the command then ends with
``undecided: budget spent``, exit 3, naming the phase it was in.

Every verb runs so (issue 41): a verb without ``--budget`` is bounded by
:data:`FIXED_SECONDS`, and a command that learns how much it will do (the lemmas a check
pulls in, the pages of a site) tells the parent (:func:`derivations.app.phases.expect`).
The child dies with the parent (:mod:`derivations.app.lifeline`); the parent treats SIGTERM
and SIGHUP like SIGINT (the child's group killed, exit 128 plus the signal); a child ended by
a signal (an abort inside GMP) is an internal error, exit 4; with ``--json`` the parent keeps
the child's stdout until it ends and prints one JSON document whatever happened; and the
child's scratch folder (where pdflatex builds) is removed by the parent.

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
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Sequence

from derivations.app import phases
from derivations.app.exitcodes import (
    EXIT_BAD_INPUT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_UNDECIDED,
)
from derivations.app.lifeline import die_with_parent
from derivations.app.phases import PIPE_EXIT, html_seconds, memory_limit_mb
from derivations.printing.terminal import visible

GRACE = 3.0
"""Seconds past the budget for start-up and writing the report; the check's own deadline
(given what is left of the budget after parsing) normally ends it first."""
INT_DIGITS = 200_000
"""Python's cap on int/str conversions, raised from 4,300 so that ``10**5000`` is printed;
the parser's own limits (``symbolic.readers.syntax.MAX_RESULT_DIGITS``) keep numbers below it."""
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


FIXED_SECONDS = 120.0
"""The bound of a verb that checks nothing (``list``, ``rules``, ``audit``, ``errata``,
``plot``, ``latex --all --no-check``...): each takes a few seconds."""


def deadline_seconds(args: argparse.Namespace, catalog_size: int) -> float:
    """The whole command's wall-clock bound, before the command knows what it will do: the
    budget (per derivation) times the rounds of ``--jobs`` workers, plus what ``html`` builds,
    plus :data:`GRACE`; :data:`FIXED_SECONDS` for a verb that checks nothing.  Once the
    command knows its work (the lemmas a check pulls in, the pages of a site) it says so
    (:func:`derivations.app.phases.expect`) and that replaces this first guess."""
    budget = getattr(args, "budget", None)
    checks = not getattr(args, "no_check", False)
    if budget is None or (not checks and args.command != "html"):
        return FIXED_SECONDS + GRACE
    targets = getattr(args, "ids", None)
    if targets is None:
        targets = getattr(args, "targets", None)
    if getattr(args, "all", False) or (args.command == "html" and not targets):
        count = catalog_size
    else:
        count = max(1, len(targets)) if isinstance(targets, list) else 1
    jobs = max(1, int(getattr(args, "jobs", 1) or 1))
    seconds = float(budget) * math.ceil(count / jobs) if checks else 0.0
    if args.command == "html":
        seconds += html_seconds(count)
    return seconds + GRACE


def entry(argv: Sequence[str] | None = None) -> int:
    """``dpderive``: the command run under the limits above."""
    from derivations.app import cli, failures

    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a closed pipe ends the command quietly
    sys.set_int_max_str_digits(INT_DIGITS)
    cap_memory(memory_limit_mb())
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = cli.build_parser().parse_args(argv)
    except failures.UsageError as exc:
        return failures.usage_failed(exc, argv, sys.stdout)
    except SystemExit as exc:
        return int(exc.code) if isinstance(exc.code, int) else EXIT_BAD_INPUT
    from derivations.catalog import HOMES

    tune_collector()
    if not hasattr(os, "fork"):
        return cli.main(argv)
    return _watched(argv, deadline_seconds(args, len(HOMES)), args)


class _Stopped(Exception):
    """The parent received SIGTERM or SIGHUP."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_ENDING = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def _stop(signum: int, frame: object) -> None:
    _ignore_more()
    raise _Stopped(signum)


def _ignore_more() -> None:
    """Once the command is ending, a second signal must not interrupt the cleanup."""
    for sig in _ENDING:
        signal.signal(sig, signal.SIG_IGN)


def _watched(argv: list[str], seconds: float, args: argparse.Namespace) -> int:
    """Run the command in a forked child and wait for it: its exit code, or the verdict
    ``undecided: budget spent`` when it runs out of time.  The child's scratch folder (where
    pdflatex builds) is removed here whatever happened to the child; with ``--json`` the
    child's stdout is kept until it ends, so that what is printed is one JSON document
    whatever it printed or however it ended."""
    wants_json = getattr(args, "json", False)
    scratch = tempfile.mkdtemp(prefix="dpderive-")
    read_end, write_end = os.pipe()
    captured = os.open(os.path.join(scratch, "stdout"), os.O_RDWR | os.O_CREAT, 0o600)
    sys.stdout.flush()
    sys.stderr.flush()
    started = time.monotonic()
    parent = os.getpid()
    # Before the fork: a SIGTERM between the fork and the handler would leave the folder.
    handlers = {sig: signal.signal(sig, _stop) for sig in (signal.SIGTERM, signal.SIGHUP)}
    handlers[signal.SIGINT] = signal.getsignal(signal.SIGINT)
    pid = os.fork()
    if pid == 0:  # the child: the command itself
        _child(argv, parent, scratch, read_end, write_end, captured if wants_json else None)
    os.close(write_end)
    with contextlib.suppress(OSError):
        os.setpgid(pid, pid)  # also here: no race with the child's own call
    seen: list[str] = []
    try:
        try:
            status = _wait(pid, started, seconds, read_end, seen)
        except KeyboardInterrupt:
            _ignore_more()
            _kill_group(pid)
            return _ended_by(signal.SIGINT, wants_json)
        except _Stopped as stop:
            _kill_group(pid)
            return _ended_by(stop.signum, wants_json)
        if status is None:
            _kill_group(pid)
            return _budget_spent(args, time.monotonic() - started, seen)
        if os.WIFSIGNALED(status):
            return _crashed(os.WTERMSIG(status), seen, wants_json)
        code = os.waitstatus_to_exitcode(status)
        if wants_json:
            return _relay_json(captured, code)
        return code
    finally:
        os.close(read_end)
        os.close(captured)
        shutil.rmtree(scratch, ignore_errors=True)
        for sig, handler in handlers.items():
            signal.signal(sig, handler)


def _child(
    argv: list[str],
    parent: int,
    scratch: str,
    read_end: int,
    write_end: int,
    captured: int | None,
) -> None:
    """The forked child: it dies with the parent, builds in the parent's scratch folder,
    reports its phases on ``write_end`` and, with ``--json``, writes its stdout to
    ``captured``.  Never returns."""
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)  # the parent's handlers are the parent's
    os.close(read_end)
    os.setpgid(0, 0)
    die_with_parent(parent)
    tempfile.tempdir = scratch
    os.environ["TMPDIR"] = scratch
    phases.PHASE_FD = write_end
    if captured is not None:
        os.dup2(captured, sys.stdout.fileno())
    code = EXIT_BAD_INPUT
    try:
        from derivations.app import cli

        code = cli.main(argv)
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (BrokenPipeError, OSError):
            pass
        os._exit(code)


def _wait(pid: int, started: float, seconds: float, phase_fd: int, seen: list[str]) -> int | None:
    """The child's wait status, or None if it is still running at its deadline (``seconds``
    after ``started``, or what the child says it expects plus :data:`GRACE`); the phases it
    reports are collected on the way."""
    buffer = b""
    until = started + seconds
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done != 0:
            return status
        left = until - time.monotonic()
        if left <= 0:
            return None
        ready, _w, _x = select.select([phase_fd], [], [], min(left, 0.05))
        if ready:
            chunk = os.read(phase_fd, 4096)
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in (raw.decode(errors="replace") for raw in lines if raw):
                if line.startswith(phases.EXPECT):
                    with contextlib.suppress(ValueError):
                        expected = float(line[len(phases.EXPECT) :])
                        until = started + min(expected, MAX_EXPECTED) + GRACE
                else:
                    seen.append(line)


MAX_EXPECTED = 7 * 86_400.0
"""What a command may say it expects at most (a week: the largest budget times a catalog)."""


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
    # A phase names the user's file: shown as the text reports show it.
    return visible(phases[-1]) if phases else "starting"


def _json_line(data: dict[str, object]) -> None:
    with contextlib.suppress(OSError):
        json.dump(data, sys.stdout)
        sys.stdout.write("\n")
        sys.stdout.flush()


def _ended_by(signum: int, wants_json: bool) -> int:
    """The command stopped by SIGINT, SIGTERM or SIGHUP: the child's process group killed,
    a line on stderr, the shell's exit code (128 plus the signal's number)."""
    name = signal.Signals(signum).name
    message = "interrupted" if signum == signal.SIGINT else f"stopped by {name}"
    with contextlib.suppress(OSError):
        print(f"dpderive: {message}", file=sys.stderr)
    if wants_json:
        _json_line({"error": message, "exit": 128 + signum})
    return EXIT_INTERRUPTED if signum == signal.SIGINT else 128 + signum


def _crashed(signum: int, phases_seen: list[str], wants_json: bool) -> int:
    """The child ended by a signal it did not catch: a closed pipe ends quietly; anything
    else (an abort inside GMP, a segmentation fault, a kill from outside) is a bug of ours."""
    if signum == signal.SIGPIPE:
        return PIPE_EXIT
    name = signal.Signals(signum).name
    hint = (
        " (killed from outside: the system's out-of-memory killer?)"
        if signum == signal.SIGKILL
        else ""
    )
    message = (
        f"internal error: the command crashed with signal {name}{hint} while "
        f"{_last(phases_seen)}; please report it with the command that caused it"
    )
    with contextlib.suppress(OSError):
        print(f"dpderive: {message}", file=sys.stderr)
    if wants_json:
        _json_line({"error": message, "exit": EXIT_INTERNAL})
    return EXIT_INTERNAL


def _relay_json(captured: int, code: int) -> int:
    """Print what the child printed when it is one JSON document, else a JSON error."""
    os.lseek(captured, 0, os.SEEK_SET)
    chunks = []
    while chunk := os.read(captured, 1 << 20):
        chunks.append(chunk)
    text = b"".join(chunks).decode(errors="replace")
    try:
        json.loads(text)
    except ValueError:
        message = (
            "internal error: the command's output was not JSON "
            f"({len(text)} characters, exit {code}); please report it with the command that "
            "caused it"
        )
        with contextlib.suppress(OSError):
            print(f"dpderive: {message}", file=sys.stderr)
        _json_line({"error": message, "exit": EXIT_INTERNAL})
        return EXIT_INTERNAL
    with contextlib.suppress(OSError):
        sys.stdout.write(text)
        sys.stdout.flush()
    return code


def _budget_spent(args: argparse.Namespace, elapsed: float, phases: list[str]) -> int:
    budget = getattr(args, "budget", None)
    bound = (
        f"bounded by --budget {budget:g} s (plus {GRACE:g} s to start and report)"
        if budget is not None
        else f"bounded by {FIXED_SECONDS:g} s"
    )
    evidence = (
        f"budget spent: the whole command is {bound}, and it was stopped after "
        f"{elapsed:.1f} s while {_last(phases)}; nothing was decided"
    )
    done = [visible(p) for p in phases[:-1]]
    if getattr(args, "json", False):
        json.dump({"verdict": "undecided", "evidence": evidence, "done": done}, sys.stdout)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(f"verdict: undecided\nevidence: {evidence}\n")
        if done:
            sys.stdout.write("done before: " + "; ".join(done) + "\n")
    sys.stdout.flush()
    return EXIT_UNDECIDED
