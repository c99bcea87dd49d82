"""Inequalities users bring (issue 26): each claim of ``tests/claims/user`` checked
in-process; prints the verdict counts, the median wall and CPU time of a proved claim
(goal: under 1 s) and the slowest ones.  Figures only, never asserted.

Run alone with ``python3 bench/user_steps.py [REPO]``: with another checkout's path (say
the main branch's) it imports that checkout's engine instead, which is how the before and
after figures of the issue were taken on the same claims."""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter
from pathlib import Path

USER = Path(__file__).resolve().parent.parent / "tests" / "claims" / "user"


def run() -> dict[str, tuple[str, float]]:
    """Print and return ``{claim: (verdict, seconds)}``."""
    from numeric_checks import CheckOptions, check_claim
    from symbolic.readers.claim_files import load_claim

    figures: dict[str, tuple[str, float]] = {}
    cpu_proved: list[float] = []
    for path in sorted(USER.glob("*.toml")):
        started, cpu = time.perf_counter(), time.process_time()
        result = check_claim(load_claim(path), CheckOptions())
        seconds = time.perf_counter() - started
        figures[path.stem] = (result.verdict.value, seconds)
        if result.verdict.value == "proved":
            cpu_proved.append(time.process_time() - cpu)
    counts = Counter(v for v, _ in figures.values())
    decided = counts["proved"] + counts["certified"]
    print(f"user claims: {len(figures)}; " + ", ".join(f"{k} {n}" for k, n in counts.items()))
    print(f"  proved or certified: {decided}/{len(figures)}")
    proved = [s for v, s in figures.values() if v == "proved"]
    if proved:
        print(
            f"  median time of a proved claim: {statistics.median(proved):.2f} s wall, "
            f"{statistics.median(cpu_proved):.2f} s CPU (goal < 1 s)"
        )
    slowest = sorted(figures.items(), key=lambda kv: -kv[1][1])[:5]
    print("  slowest: " + ", ".join(f"{n} {v} {s:.2f} s" for n, (v, s) in slowest))
    return figures


if __name__ == "__main__":
    root = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else USER.parent.parent.parent
    sys.path.insert(0, str(root))
    run()
