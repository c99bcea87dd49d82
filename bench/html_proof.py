"""One user's proof as a web page against ``verify`` of the same file (issue 29, item 6):
``html -o DIR FILE`` builds the proof's page and the catalog lemmas it cites, not the whole
catalog.  Printed, never asserted.

``python3 bench/html_proof.py [FILE]`` (default: the student's Laplace proof of
``docs/examples``); each command runs cold, in a fresh interpreter, and the CPU time is
that of the command and its worker processes (it moves less with other load than wall time).

Target: ``html FILE`` within a few seconds of ``verify FILE`` (it was 71 s against 3 s; on a
loaded machine, 511 s wall and 131 s CPU against 12 s and 5 s).
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT / "docs" / "examples" / "laplace_ratio_student.toml"


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cold(*args: str) -> tuple[float, float, str]:
    """``python3 -m derivations ARGS``: (wall s, CPU s, last line of stdout)."""
    cpu, wall = _cpu(), time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "derivations", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    lines = done.stdout.strip().splitlines()
    return time.perf_counter() - wall, _cpu() - cpu, lines[-1] if lines else done.stderr[-200:]


def main() -> None:
    proof = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    with tempfile.TemporaryDirectory(prefix="dpderive-bench-") as tmp:
        for label, args in (
            ("verify FILE", ("verify", str(proof))),
            ("html -o DIR FILE", ("html", "-o", str(Path(tmp) / "site"), str(proof))),
        ):
            wall, cpu, last = cold(*args)
            print(f"{label:<18} {wall:7.1f} s wall {cpu:7.1f} s CPU   {last[:70]}")


if __name__ == "__main__":
    main()
