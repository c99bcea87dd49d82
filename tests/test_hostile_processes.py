"""The command line's processes under a hostile world (issue 41): children that die with
their parent (SIGTERM, SIGHUP, SIGKILL), a crashed child reported as an internal error with
JSON, GMP's aborts bounded away, every verb under the watchdog (``explain`` and ``html``
included), input that is not a regular file refused at once, and the build folder removed
whatever happens.

Each test runs ``python -m derivations`` as a user would, with an environment variable
that marks its processes, so that what is left after the parent ends can be found in
``/proc`` whatever its process group or parent.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from derivations.app import phases
from derivations.app.cli import VERBS, build_parser, main
from derivations.app.phases import html_seconds
from derivations.app.watchdog import GRACE, deadline_seconds
from derivations.catalog import HOMES

ROOT = Path(__file__).resolve().parent.parent
needs_proc = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")


class Run:
    """``python -m derivations ARGV`` with its processes marked."""

    def __init__(self, *argv: str, env: dict[str, str] | None = None) -> None:
        self.mark = f"DPDERIVE_TEST_MARK={uuid.uuid4().hex}".encode()
        key, value = self.mark.decode().split("=")
        environ = {**os.environ, "PYTHONPATH": str(ROOT), key: value, **(env or {})}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "derivations", *argv],
            cwd=ROOT,
            env=environ,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )

    def marked(self) -> dict[int, int]:
        """The live processes carrying the mark: pid -> parent pid."""
        out = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                if self.mark not in Path(f"/proc/{entry}/environ").read_bytes():
                    continue
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if fields[0] != "Z":  # a zombie has ended; only its parent has not reaped it
                out[int(entry)] = int(fields[1])
        return out

    def wait_for(self, count: int, seconds: float = 30.0) -> dict[int, int]:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            found = self.marked()
            if len(found) >= count:
                return found
            time.sleep(0.05)
        raise AssertionError(f"fewer than {count} processes after {seconds} s: {found}")

    def child(self) -> int:
        """The forked child doing the work (the marked process whose parent is ours)."""
        found = self.wait_for(2)
        return next(pid for pid, ppid in found.items() if ppid == self.proc.pid)

    def finish(self, seconds: float = 60.0) -> tuple[int, str, str]:
        out, err = self.proc.communicate(timeout=seconds)
        return self.proc.returncode, out.decode(errors="replace"), err.decode(errors="replace")

    def none_left_within(self, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if not self.marked():
                return True
            time.sleep(0.05)
        return not self.marked()

    def cleanup(self) -> None:
        for pid in self.marked():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()
        self.proc.communicate()


@contextlib.contextmanager
def running(*argv: str, env: dict[str, str] | None = None) -> Iterator[Run]:
    run = Run(*argv, env=env)
    try:
        yield run
    finally:
        run.cleanup()


@needs_proc
@pytest.mark.parametrize(
    ("sig", "code"),
    [
        (signal.SIGTERM, 128 + signal.SIGTERM),
        (signal.SIGHUP, 128 + signal.SIGHUP),
        (signal.SIGKILL, -9),
    ],
)
def test_no_child_outlives_the_parent(sig: int, code: int) -> None:
    """A grader's ``timeout`` (SIGTERM), a closed terminal (SIGHUP) or SIGKILL: the parent,
    its child and the child's worker processes are all gone within 2 s."""
    with running("check", "--all", "--jobs", "2", "--points", "24") as run:
        run.wait_for(4)  # the parent, the child and its two workers
        run.proc.send_signal(sig)
        returned, _, err = run.finish()
        assert returned == code, err
        assert run.none_left_within(2.0), run.marked()
        if sig != signal.SIGKILL:
            assert f"stopped by {signal.Signals(sig).name}" in err


@needs_proc
def test_a_crashed_child_is_an_internal_error_with_json() -> None:
    """The child ended by a signal (as GMP's abort ends it): exit 4, "please report", the
    signal named, and with --json one JSON document on stdout."""
    with running("check", "kl-bound", "--json") as run:
        os.kill(run.child(), signal.SIGABRT)
        code, out, err = run.finish()
    assert code == 4, err
    report = json.loads(out)
    assert report["exit"] == 4 and "SIGABRT" in report["error"]
    assert "please report" in report["error"] and "please report" in err


@pytest.mark.parametrize(
    "claim",
    [
        '[claim]\nlhs = "2**(2**(2**n))"\nrelation = ">="\nrhs = "n"\n[variables]\n'
        'n = "Z in [1, 10]"\n',
        '[claim]\nlhs = "e40"\nrelation = ">="\nrhs = "x"\n[variables]\nx = "(0, 1)"\n'
        '[defs]\ne0 = "x"\n' + "".join(f'e{k} = "exp(e{k - 1})"\n' for k in range(1, 41)),
    ],
    ids=["power-tower", "exp-chain-40"],
)
def test_gmp_payloads_end_with_a_verdict_and_json(claim: str, tmp_path: Path) -> None:
    """Both aborted the child inside GMP: now the integers and magnitudes are bounded before
    they are built, and the claim gets a verdict (both are true)."""
    path = tmp_path / "claim.toml"
    path.write_text(claim)
    with running(
        "claim", str(path), "--json", "--points", "24", "--search", "24", "--budget", "20"
    ) as run:
        code, out, err = run.finish(seconds=60)
    assert code in (0, 3), err
    report = json.loads(out)
    assert report["verdict"] in ("proved", "certified", "checked", "undecided"), report
    assert "please report" not in err + out


@needs_proc
def test_explain_is_bounded_by_its_budget() -> None:
    """``explain`` runs under the watchdog: a child that makes no progress (stopped here)
    is killed at its budget plus the grace, with the verdict budget spent."""
    started = time.monotonic()
    with running("explain", "kl-bound", "--budget", "1") as run:
        os.kill(run.child(), signal.SIGSTOP)
        code, out, _ = run.finish()
        assert run.none_left_within(2.0)
    assert code == 3 and "budget spent" in out
    assert time.monotonic() - started < 1 + GRACE + 20


@pytest.mark.parametrize("verb", ["claim", "verify", "explain", "latex"])
def test_a_fifo_is_refused_at_once(verb: str, tmp_path: Path) -> None:
    fifo = tmp_path / "proof.toml"
    os.mkfifo(fifo)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main([verb, str(fifo)], out=io.StringIO()) == 2
    assert "not a regular file" in err.getvalue()
    for other in ("/dev/zero", str(tmp_path)):
        with contextlib.redirect_stderr(io.StringIO()):
            assert main(["claim", other], out=io.StringIO()) == 2


def test_every_verb_has_a_bound() -> None:
    minimal = {
        "check": ["kl-bound"],
        "claim": ["x.toml"],
        "latex": ["kl-bound"],
        "explain": ["kl-bound"],
        "verify": ["x.toml"],
        "plot": ["composition", "-o", "x.png"],
        "sparse": ["--eps", "1", "--beta", "0.1", "--c", "1", "--k", "2"],
        "html": ["-o", "site"],
        "account": ["x.toml"],
    }
    for verb in VERBS:
        args = build_parser().parse_args([verb.name, *minimal.get(verb.name, [])])
        seconds = deadline_seconds(args, len(HOMES))
        assert 0 < seconds < 10**6, verb.name
    explain = build_parser().parse_args(["explain", "kl-bound", "--budget", "5"])
    assert deadline_seconds(explain, len(HOMES)) == 5 + GRACE


def test_the_html_bound_counts_what_it_builds(tmp_path: Path) -> None:
    """``html --budget 5`` on the whole catalog was killed after 8 s: its bound counted one
    derivation.  It counts every check and every page, and the command says so once it
    knows them."""
    args = build_parser().parse_args(["html", "-o", str(tmp_path), "--budget", "5", "-j", "2"])
    first = deadline_seconds(args, len(HOMES))
    assert first >= 5 * ((len(HOMES) + 1) // 2) + html_seconds(len(HOMES))
    read_end, write_end = os.pipe()
    phases.PHASE_FD = write_end
    try:
        argv = ["html", "-o", str(tmp_path / "site"), "--no-check", "--no-plots"]
        assert main(argv, out=io.StringIO()) == 0
    finally:
        phases.PHASE_FD = None
        os.close(write_end)
    said = os.read(read_end, 1 << 16).decode()
    os.close(read_end)
    expected = [
        float(line[len(phases.EXPECT) :])
        for line in said.splitlines()
        if line.startswith(phases.EXPECT)
    ]
    pages = len(list((tmp_path / "site" / "theorems").glob("*.html")))
    assert expected and expected[0] >= html_seconds(pages) and pages > len(HOMES)


@needs_proc
def test_the_build_folder_is_removed_when_the_command_is_killed(tmp_path: Path) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    target = tmp_path / "book.pdf"
    with running(
        "latex", "--all", "--no-check", "-o", str(target), env={"TMPDIR": str(scratch)}
    ) as run:
        deadline = time.monotonic() + 30
        while (
            not list(scratch.glob("dpderive-*/dpderive-*/doc.tex")) and time.monotonic() < deadline
        ):
            time.sleep(0.05)
        assert list(scratch.glob("dpderive-*")), "no build folder appeared"
        run.proc.send_signal(signal.SIGTERM)
        code, _, _ = run.finish()
        assert code == 128 + signal.SIGTERM
        assert run.none_left_within(2.0)
    assert list(scratch.iterdir()) == [] and not target.exists()
