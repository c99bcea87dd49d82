"""Running ``dpderive claim`` on a generated claim and judging its verdict against the truth.

The tool is driven as a user drives it: the claim's TOML is written to a file, read by
``load_claim`` and checked by ``check_claim`` (what ``dpderive claim FILE`` does, in-process
for speed).  Bad input (exit 2), an engine inconsistency (exit 4) and any other exception
are outcomes of their own, never lost.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import re
import resource
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

from numeric_checks import CheckOptions, check_claim
from numeric_checks.check import EngineInconsistency
from symbolic.errors import DpderiveError
from symbolic.readers.claim_files import load_claim

from .claims import FuzzClaim

PASSES = frozenset({"proved", "certified", "checked"})
SEEN = re.compile(r"suspect point|evaluator failure|\(the relation fails\)")
"""Evidence that the tool saw a violation it did not confirm."""


@dataclass(frozen=True)
class Outcome:
    """What the tool said: a verdict, ``bad input`` (exit 2), ``inconsistency`` (exit 4,
    a confirmed counterexample to a step the rules proved) or ``crash`` (any other
    exception: exit 4 from the CLI)."""

    verdict: str
    evidence: str
    seconds: float

    @property
    def saw_violation(self) -> bool:
        return bool(SEEN.search(self.evidence))


MEMORY_MB = 3072
"""The command line's address-space cap (``DPDERIVE_MEMORY_MB``'s default), applied around
each in-process check: ``tanh(exp(x**2))`` at x = 1e5 asks mpmath for a shift of 1e10 bits,
which the CLI turns into ``undecided`` and an uncapped process into a machine out of memory."""


@contextlib.contextmanager
def memory_cap(megabytes: int = MEMORY_MB) -> Iterator[None]:
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = megabytes * 1024 * 1024
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    lowered = soft == resource.RLIM_INFINITY or soft > cap
    if lowered:
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        if lowered:
            resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def run_tool(claim: FuzzClaim, options: CheckOptions, directory: str | None = None) -> Outcome:
    """Write ``claim`` as a TOML file and check it as ``dpderive claim`` does, in this process
    (under the CLI's memory cap; running out of memory is ``undecided``, as the CLI says)."""
    return _check_text(claim.toml(), options, directory)


GRACE = 15.0
"""Seconds past the budget after which :class:`Worker` stops a check: the CLI's watchdog
ends the command at the budget plus 3 s, ``undecided: budget spent``; the in-process budget
does not bound every stage (an exact tie check of the spot stage ran for minutes)."""


class Worker:
    """A process that checks claim files one by one, as the CLI's child process does:
    restarted when a check outlives its budget (``undecided``, as the CLI's watchdog makes
    it) or dies (GMP aborts the process on ``gamma(exp(x**2/2))`` at x = 1e30: ``crash``
    here, ``undecided`` from the CLI's watchdog, the end of a notebook in-process).  Spawned,
    not forked: the test runner's threads and locks stay behind."""

    def __init__(self, options: CheckOptions) -> None:
        self.options = options
        self._start()

    def _start(self) -> None:
        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe()
        self._proc = ctx.Process(target=_serve, args=(child, self.options), daemon=True)
        self._proc.start()
        child.close()

    def run(self, claim: FuzzClaim) -> Outcome:
        started = time.perf_counter()
        self._conn.send(claim.toml())
        if self._conn.poll(self.options.budget + GRACE):
            try:
                verdict, evidence, seconds = self._conn.recv()
                return Outcome(verdict, evidence, seconds)
            except EOFError:
                # The process died under the check (GMP aborts on a huge integer).
                code = self._proc.exitcode
                self.close()
                self._start()
                return Outcome(
                    "crash",
                    f"the checking process died (exit code {code}): dpderive claim would too",
                    time.perf_counter() - started,
                )
        self.close()
        self._start()
        return Outcome(
            "undecided",
            f"budget spent: stopped by the harness after {self.options.budget + GRACE:.0f} s "
            "(the CLI's watchdog says undecided, exit 3)",
            time.perf_counter() - started,
        )

    def close(self) -> None:
        if self._proc.is_alive():
            self._proc.kill()
        self._proc.join(5)


def _serve(conn: Connection, options: CheckOptions) -> None:
    while True:
        try:
            text = conn.recv()
        except EOFError:
            return
        outcome = _check_text(text, options)
        conn.send((outcome.verdict, outcome.evidence, outcome.seconds))


def _check_text(text: str, options: CheckOptions, directory: str | None = None) -> Outcome:
    handle, name = tempfile.mkstemp(suffix=".toml", prefix="fuzz-", dir=directory)
    started = time.perf_counter()
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as f:
            f.write(text)
        try:
            with memory_cap():
                result = check_claim(load_claim(Path(name)), options)
            verdict, evidence = result.verdict.value, result.evidence
        except MemoryError:
            verdict, evidence = "undecided", "memory limit reached (the CLI: undecided, exit 3)"
        except DpderiveError as exc:
            verdict, evidence = "bad input", str(exc)
        except EngineInconsistency as exc:
            verdict, evidence = "inconsistency", str(exc)
        except Exception as exc:  # the CLI would say "internal error", exit 4
            verdict, evidence = "crash", f"{type(exc).__name__}: {exc}"
    finally:
        os.unlink(name)
    return Outcome(verdict, evidence, time.perf_counter() - started)


def failure(claim: FuzzClaim, outcome: Outcome) -> str | None:
    """Why ``outcome`` is unsound for ``claim``, or None when it is allowed.

    A true claim must never be refuted (nor "inconsistent": that is a confirmed
    counterexample to it).  A false claim must never be proved or certified; ``checked`` is
    held against it when the documented sampling must see its counterexample (``findable``)
    or when the evidence says the tool saw a violation and let it pass."""
    v = outcome.verdict
    if claim.truth:
        if v in ("refuted", "inconsistency"):
            return f"true claim {v}"
        return None
    if v in ("proved", "certified"):
        return f"false claim {v}"
    if v == "checked" and outcome.saw_violation:
        return "false claim checked (violation seen)"
    if v == "checked" and claim.findable:
        return "false claim checked"
    return None


def signature(claim: FuzzClaim, outcome: Outcome, why: str) -> str:
    """One key per distinct finding: the failure, the class, the recipe's family and how
    the tool reached its verdict (the first clause of its evidence without numbers: the
    rule that proved it, "certified on x in", "suspect point ... no rigorous enclosure")."""
    family = claim.recipe.split("/")[0] + (" (LaTeX)" if claim.style is not None else "")
    return f"{why} | {claim.klass} | {family} | {mechanism(outcome)}"


def mechanism(outcome: Outcome) -> str:
    text = outcome.evidence
    if outcome.saw_violation:
        m = re.search(r"could not be confirmed because ([^:;(]*)", text)
        return "seen, not confirmed: " + (m.group(1).strip() if m else "?")
    first = re.split(r"[;:]", text, maxsplit=1)[0]
    first = re.sub(r"\[[^\]]*\]|[-+]?\d[\d.e+-]*", "", first)
    return " ".join(first.split())[:60]


def regression_toml(claim: FuzzClaim, outcome: Outcome, why: str) -> str:
    """The claim file of a finding, with the comment the regression test reads."""
    truth = "true" if claim.truth else "false"
    witness = ""
    if claim.witness is not None:
        witness = ", ".join(f"{k} = {v}" for k, v in claim.witness.items()) or "(no variables)"
    lines = [
        f"class: {claim.klass}",
        f"expected: {truth}",
        f"today: {outcome.verdict}",
        f"recipe: {claim.recipe}",
        f"finding: {why}",
    ]
    if witness:
        lines.append(f"witness: {witness}")
    if claim.why:
        lines.append(f"why: {claim.why}")
    return claim.toml("\n".join(lines))
