"""The catalog's speed targets (issues 17, 23-25): the whole catalog cold (wall and CPU time,
peak memory, the table per derivation, slowest first) and each headline theorem cold, each in
a fresh interpreter as a user runs them.  Printed, never asserted.

``python3 bench/catalog.py`` runs this part alone; ``--repeat N`` runs each cold command N
times and prints every run (the machine is shared: the CPU time, user + system of the
command and its worker processes, moves less with other load than the wall time does).

Targets (a 2-core machine): ``check --all`` under 20 s wall (issues 23-25); ``check
kl-bound``, the every-n version, under 3 s wall (issue 24)."""

from __future__ import annotations

import argparse
import json
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from derivations.catalog import HEADLINE  # noqa: E402

_SECONDS = re.compile(r"checked in ([\d.]+) s")
ALL_TARGET_S = 20.0
KL_TARGET_S = 3.0


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _cold(*args: str) -> tuple[float, float, str]:
    """``python3 -m derivations ARGS`` in a fresh interpreter: (wall s, CPU s, stdout).  The
    CPU time is that of the command and every process it waited for (its workers)."""
    cpu = _children_cpu()
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "derivations", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    return time.perf_counter() - started, _children_cpu() - cpu, done.stdout


def _verdict(seconds: float, target: float) -> str:
    return "meets" if seconds < target else "misses"


def catalog(jobs: int | None = None, repeat: int = 1) -> None:
    """``dpderive check --all --json --seed 0`` cold: wall and CPU time, the largest
    process's peak memory (ru_maxrss of the waited-for descendants), and seconds per
    derivation from each report's own note (inside its worker, so they add up to about
    jobs x the wall time), slowest first."""
    extra = ["--jobs", str(jobs)] if jobs else []
    label = f"check --all{' --jobs ' + str(jobs) if jobs else ''}"
    reports: list[dict[str, object]] = []
    for run in range(repeat):
        wall, cpu, out = _cold("check", "--all", "--json", "--seed", "0", *extra)
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        reports = json.loads(out)
        print(
            f"{label} (run {run + 1}): {wall:.1f} s wall ({_verdict(wall, ALL_TARGET_S)} the "
            f"{ALL_TARGET_S:.0f} s target), {cpu:.1f} s CPU, peak {peak_mb:.0f} MB (largest "
            f"process), {len(reports)} derivations"
        )
    rows = []
    for r in reports:
        found = _SECONDS.search(" ".join(str(n) for n in r["notes"]))  # type: ignore[attr-defined]
        rows.append((float(found.group(1)) if found else float("nan"), r["id"], r["verdict"]))
    print("  per derivation (last run, seconds in its worker, slowest first):")
    for seconds, ident, verdict in sorted(rows, key=lambda row: -row[0]):
        print(f"  {ident:40s} {verdict:10s} {seconds:7.2f} s")


def kl_bound(repeat: int = 1) -> None:
    """``dpderive check kl-bound`` cold: the general (every-n) version, issue 24's target."""
    for run in range(repeat):
        wall, cpu, _ = _cold("check", "kl-bound", "--seed", "0")
        print(
            f"check kl-bound cold (run {run + 1}): {wall:.2f} s wall "
            f"({_verdict(wall, KL_TARGET_S)} the {KL_TARGET_S:.0f} s target), {cpu:.2f} s CPU"
        )


def headline() -> None:
    """``dpderive check ID`` cold for each headline theorem (import included)."""
    for ident in HEADLINE:
        wall, cpu, _ = _cold("check", ident)
        print(f"check {ident}: {wall:.2f} s cold, {cpu:.2f} s CPU")


def run(repeat: int = 1) -> None:
    print("\n== 7. The catalog and the headline theorems, cold (issues 17, 23-25)")
    kl_bound(repeat)
    headline()
    catalog(repeat=repeat)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs of each cold command")
    parser.add_argument("--only", choices=["all", "kl-bound"], help="just one of the two")
    ns = parser.parse_args()
    if ns.only == "all":
        catalog(repeat=ns.repeat)
    elif ns.only == "kl-bound":
        kl_bound(ns.repeat)
    else:
        run(ns.repeat)
