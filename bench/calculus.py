"""Rigorous calculus (issue 39): every claim of the corpus ``tests/calculus`` and every trial
proof of ``tests/calculus/proofs``, each in a fresh ``dpderive`` process as a user runs it;
prints per file the verdict, the exit code, the wall time and the peak memory (the RSS of
the child, ``ru_maxrss`` of ``os.wait4`` on it), then the counts (false claims
refuted with "confirmed by Arb", true ones proved, certified, checked) and the median and
maximum time and memory.  Figures only, never asserted (targets: every file under 30 s
and 1 GB).

``python3 bench/calculus.py [--jobs N] [PATTERN]``: ``PATTERN`` keeps the files whose path
contains it; ``--jobs`` runs that many at a time (a loaded machine inflates the times)."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "calculus"
TIMEOUT = 600


def files(pattern: str = "") -> list[tuple[str, Path]]:
    """``(kind, path)`` for the corpus: ``false``, ``true`` claims and ``proofs``."""
    out = []
    for kind in ("false", "true", "proofs"):
        for path in sorted((CORPUS / kind).glob("*.toml")):
            if pattern in str(path):
                out.append((kind, path))
    return out


def run_one(kind: str, path: Path) -> dict[str, object]:
    """One file in a child process: verdict, exit code, seconds, peak RSS in MB."""
    verb = "verify" if kind == "proofs" else "claim"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    command = [sys.executable, "-m", "derivations", verb, str(path), "--json", "--seed", "0"]
    started = time.perf_counter()
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    timer = threading.Timer(TIMEOUT, proc.kill)
    timer.start()
    assert proc.stdout is not None
    out = proc.stdout.read()
    # The child's own peak RSS: wait4 reports it per child (getrusage(RUSAGE_CHILDREN) is
    # the maximum over every child so far, which would smear one file's into the next).
    _, status, usage = os.wait4(proc.pid, 0)
    timer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - started
    rss = usage.ru_maxrss / 1024
    try:
        data = json.loads(out)
    except json.JSONDecodeError:
        data = {}
    if isinstance(data, list):
        data = data[0] if data else {}
    evidence = str(data.get("evidence", ""))
    if kind == "proofs":
        evidence = " ".join(str(s.get("evidence", "")) for s in data.get("steps", []))
    return {
        "kind": kind,
        "name": path.stem,
        "verdict": data.get("verdict", "error"),
        "exit": proc.returncode,
        "seconds": seconds,
        "rss_mb": rss,
        "arb": "confirmed by Arb" in evidence,
    }


def main(argv: list[str]) -> None:
    jobs = 1
    if "--jobs" in argv:
        at = argv.index("--jobs")
        jobs = int(argv[at + 1])
        argv = argv[:at] + argv[at + 2 :]
    pattern = argv[0] if argv else ""
    todo = files(pattern)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(lambda kp: run_one(*kp), todo))
    for r in results:
        print(
            f"{r['kind']:6s} {r['name']:42s} {r['verdict']:10s} exit {r['exit']}  "
            f"{r['seconds']:6.1f} s  {r['rss_mb']:6.0f} MB" + ("  (Arb)" if r["arb"] else "")
        )
    false = [r for r in results if r["kind"] == "false"]
    true = [r for r in results if r["kind"] == "true"]
    refuted = sum(1 for r in false if r["verdict"] == "refuted" and r["arb"])
    print(f"\nfalse claims: {len(false)}, refuted with 'confirmed by Arb': {refuted}")
    counts = Counter(str(r["verdict"]) for r in true)
    strong = counts["proved"] + counts["certified"]
    shown = ", ".join(f"{v} {n}" for v, n in sorted(counts.items()))
    print(f"true claims: {len(true)}, {shown}")
    if true:
        print(f"  proved or certified: {strong}/{len(true)} ({100 * strong / len(true):.0f}%)")
    proofs = [r for r in results if r["kind"] == "proofs"]
    for label, group in (("corpus", false + true), ("trial proofs", proofs)):
        if not group:
            continue
        times = [float(r["seconds"]) for r in group]  # type: ignore[arg-type]
        mems = [float(r["rss_mb"]) for r in group]  # type: ignore[arg-type]
        print(
            f"{label}: {len(group)} files; time median {statistics.median(times):.1f} s, "
            f"max {max(times):.1f} s; peak RSS median {statistics.median(mems):.0f} MB, "
            f"max {max(mems):.0f} MB"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
