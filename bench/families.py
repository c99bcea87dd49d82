"""Claims over indexed families in general mode (issue 24): the time to decide each
``tests/claims/family_*.toml`` (instances at n = 1..8, 12, 20, 40).  Figures only, never
asserted; run ``PYTHONPATH=. python3 bench/families.py``."""

from __future__ import annotations

import time
from io import StringIO
from pathlib import Path

from derivations.app.cli import main

CLAIMS = Path(__file__).resolve().parent.parent / "tests" / "claims"


def run(budget: float = 120.0) -> dict[str, tuple[float, float, int]]:
    """Print and return ``{claim: (wall seconds, CPU seconds, exit code)}``."""
    figures: dict[str, tuple[float, float, int]] = {}
    for path in sorted(CLAIMS.glob("family_*.toml")):
        started, cpu = time.perf_counter(), time.process_time()
        code = main(["claim", str(path), "--json", "--budget", str(budget)], out=StringIO())
        wall, used = time.perf_counter() - started, time.process_time() - cpu
        figures[path.stem] = (wall, used, code)
        print(f"{path.stem:32s} {wall:6.2f} s wall {used:6.2f} s CPU  exit {code}")
    return figures


if __name__ == "__main__":
    run()
