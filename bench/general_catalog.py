"""The catalog's theorems for every n (issue 24, item 4): the wall time of a cold
``check ID`` (a fresh interpreter, imports included) for each derivation proved for every
length.  Figures only, never asserted; run ``PYTHONPATH=. python3 bench/general_catalog.py``."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

GENERAL = (
    "kl-bound",
    "kl-bound-tight",
    "basic-composition-k",
    "naive-adaptive-composition",
    "exponential-mechanism",
    "parallel-composition",
    "tradeoff-zero-eps-composition",
    "gdp-group-privacy",
)


def run() -> dict[str, tuple[float, int]]:
    """Print and return ``{id: (wall seconds, exit code)}`` of a cold ``check ID``."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    figures: dict[str, tuple[float, int]] = {}
    for ident in GENERAL:
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "derivations", "check", ident],
            cwd=ROOT,
            env=env,
            capture_output=True,
            check=False,
        )
        wall = time.perf_counter() - started
        figures[ident] = (wall, done.returncode)
        print(f"{ident:32s} {wall:6.2f} s wall  exit {done.returncode}")
    return figures


if __name__ == "__main__":
    run()
