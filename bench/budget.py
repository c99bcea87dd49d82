"""Every budget ends with evidence (issue 40): the time to refute each false variant of
``tests/claims/budget/`` (the advanced composition bound against the exact optimal
composition of Kairouz, Oh & Viswanath with k unbounded, and NumericSparse accuracy bounds
with a term dropped), their median, the true forms' verdicts, and ``check --all`` cold.
Printed, never asserted.

``python3 bench/budget.py`` runs the claims in-process (the time of ``check_claim``, which is
what the budget bounds; a cold command adds the interpreter's start-up, printed once) and
``check --all`` in a fresh interpreter; ``--no-catalog`` skips the latter.

Targets (a 2-core machine): median time to refute a false variant under 2 s; ``check --all``
under 20 s wall."""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.set_int_max_str_digits(0)

from derivations.app.claims import load_claim  # noqa: E402
from numeric_checks.check import check_claim  # noqa: E402
from numeric_checks.plan import CheckOptions  # noqa: E402

CLAIMS = ROOT / "tests" / "claims" / "budget"
MEDIAN_TARGET_S = 2.0
ALL_TARGET_S = 20.0


def _claims(seed: int) -> list[float]:
    times = []
    for path in sorted(CLAIMS.glob("*.toml")):
        d = load_claim(path)
        started = time.perf_counter()
        result = check_claim(d, CheckOptions(budget=60.0, seed=seed))
        seconds = time.perf_counter() - started
        expect = "refuted" if path.stem.endswith("_false") else "not refuted"
        print(
            f"{path.stem:45s} {seconds:6.2f} s  {result.verdict.value:9s} (expected {expect}; "
            f"{result.numeric.points if result.numeric else 0} points)",
            flush=True,
        )
        if path.stem.endswith("_false"):
            times.append(seconds)
    return times


def _cold(*args: str) -> float:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "derivations", *args],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--no-catalog", action="store_true", help="skip check --all")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    times = _claims(args.seed)
    median = statistics.median(times)
    print(
        f"false variants: {len(times)}, median time to refute {median:.2f} s "
        f"(target < {MEDIAN_TARGET_S} s), slowest {max(times):.2f} s"
    )
    print(f"start-up of one cold command: {_cold('--version'):.2f} s")
    if not args.no_catalog:
        wall = _cold("check", "--all", "--json", "--seed", "0")
        print(f"check --all cold: {wall:.2f} s wall (target < {ALL_TARGET_S} s)")


if __name__ == "__main__":
    main()
