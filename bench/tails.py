"""Whole domains, not boxes (issue 26, item 4): every claim of ``tests/claims/user`` checked
in-process; prints how many are proved, certified on the whole domain (a core box plus
proved tails, or a box that is the domain), certified on a box only, or checked; the median
wall and CPU time of a claim certified with proved tails, and how much of it the tail
search took.  Figures only, never asserted.

``python3 bench/tails.py`` after; ``python3 bench/tails.py --no-tails`` before (the tail
search switched off, everything else the same)."""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
USER = ROOT / "tests" / "claims" / "user"


def run(tails: bool = True) -> None:
    sys.path.insert(0, str(ROOT))
    import numeric_checks.stages as stages
    from numeric_checks import CheckOptions, check_claim
    from symbolic.readers.claim_files import load_claim

    spent: list[float] = []
    original = stages.prove_tails

    def timed(*args: Any, **kw: Any) -> Any:
        started = time.perf_counter()
        try:
            return original(*args, **kw) if tails else None
        finally:
            spent.append(time.perf_counter() - started)

    stages.prove_tails = timed  # type: ignore[assignment]
    kinds: Counter[str] = Counter()
    with_tails: list[tuple[str, float, float, float]] = []
    for path in sorted(USER.glob("*.toml")):
        spent.clear()
        started, cpu = time.perf_counter(), time.process_time()
        result = check_claim(load_claim(path), CheckOptions())
        wall, used = time.perf_counter() - started, time.process_time() - cpu
        cert = result.certificate
        kind = result.verdict.value
        if kind == "certified" and cert is not None:
            kind += " (whole domain)" if cert.whole_domain else " (box only)"
            if cert.tails:
                with_tails.append((path.stem, wall, used, sum(spent)))
        kinds[kind] += 1
    total = sum(kinds.values())
    print(f"user claims: {total} ({'with' if tails else 'without'} the tail search)")
    for kind, n in sorted(kinds.items()):
        print(f"  {kind}: {n}")
    whole = kinds["proved"] + kinds["certified (whole domain)"]
    print(f"  proved or certified on the whole domain: {whole}/{total}")
    if with_tails:
        print(
            f"  certified with proved tails: {len(with_tails)}; median "
            f"{statistics.median(w for _, w, _, _ in with_tails):.2f} s wall, "
            f"{statistics.median(c for _, _, c, _ in with_tails):.2f} s CPU, of which the "
            f"tail search {statistics.median(t for *_, t in with_tails):.2f} s wall"
        )
        print("  " + ", ".join(f"{n} {w:.2f} s (tails {t:.2f} s)" for n, w, _, t in with_tails))


if __name__ == "__main__":
    run(tails="--no-tails" not in sys.argv[1:])
