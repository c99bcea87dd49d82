"""Issue 17's figures: the whole catalog cold (wall time, peak memory, the table per
derivation) and each headline theorem cold, each in a fresh interpreter as a user runs
them.  Printed, never asserted.  ``python3 bench/catalog.py`` runs this part alone."""

from __future__ import annotations

import json
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

from derivations.catalog import HEADLINE

ROOT = Path(__file__).resolve().parent.parent
_SECONDS = re.compile(r"checked in ([\d.]+) s")


def _cold(*args: str) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "derivations", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    return time.perf_counter() - started, done.stdout


def catalog(jobs: int | None = None) -> None:
    """``dpderive check --all --json`` cold: wall time, the largest process's peak memory
    (ru_maxrss of the waited-for descendants), and seconds per derivation from each report's
    own note (inside its worker, so they add up to about jobs x the wall time)."""
    extra = ["--jobs", str(jobs)] if jobs else []
    wall, out = _cold("check", "--all", "--json", *extra)
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    reports = json.loads(out)
    print(
        f"check --all{' --jobs ' + str(jobs) if jobs else ''}: {wall:.1f} s wall, "
        f"peak {peak_mb:.0f} MB (largest process), {len(reports)} derivations"
    )
    rows = []
    for r in reports:
        found = _SECONDS.search(" ".join(r["notes"]))
        rows.append((float(found.group(1)) if found else float("nan"), r["id"], r["verdict"]))
    for seconds, ident, verdict in sorted(rows, reverse=True):
        print(f"  {ident:40s} {verdict:10s} {seconds:7.2f} s")


def headline() -> None:
    """``dpderive check ID`` cold for each headline theorem (import included)."""
    for ident in HEADLINE:
        wall, _ = _cold("check", ident)
        print(f"check {ident}: {wall:.2f} s cold")


def run() -> None:
    print("\n== 7. The catalog and the headline theorems, cold (issue 17)")
    headline()
    catalog()


if __name__ == "__main__":
    run()
