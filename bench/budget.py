"""Every budget ends with evidence (issue 40): the time to refute each false variant of
``tests/claims/budget/`` (the advanced composition bound against the exact optimal
composition of Kairouz, Oh & Viswanath with k unbounded, and NumericSparse accuracy bounds
with a term dropped), their median, the true forms' verdicts, and ``check --all`` cold.
Printed, never asserted.

``python3 bench/budget.py`` runs the claims in-process (the time of ``check_claim``, which is
what the budget bounds; a cold command adds the interpreter's start-up, printed once) and
``check --all`` in a fresh interpreter; ``--no-catalog`` skips the latter.  ``--wide`` adds
every advanced-composition variant with ``eps`` over ``(0, 10]`` and ``(0, oo)`` (written
to a temporary directory from the claim files): false only where ``eps`` is of order
``1/sqrt(k)`` or ``10/sqrt(k)``, reached by the regime points (:mod:`numeric_checks.regimes`).
Each line gives wall and CPU seconds (the machine is shared: CPU is the steadier figure).

Targets (a 2-core machine): median time to refute a false variant under 2 s; ``check --all``
under 20 s wall."""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.set_int_max_str_digits(0)

from numeric_checks.check import check_claim  # noqa: E402
from numeric_checks.plan import CheckOptions  # noqa: E402
from symbolic.readers.claim_files import load_claim  # noqa: E402

CLAIMS = ROOT / "tests" / "claims" / "budget"
MEDIAN_TARGET_S = 2.0
ALL_TARGET_S = 20.0


def _claims(paths: list[Path], seed: int) -> tuple[list[float], list[float]]:
    walls, cpus = [], []
    for path in paths:
        d = load_claim(path)
        started, cpu = time.perf_counter(), time.process_time()
        result = check_claim(d, CheckOptions(budget=60.0, seed=seed))
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        false = "_false" in path.stem
        expect = "refuted" if false else "not refuted"
        print(
            f"{path.stem:48s} {seconds:6.2f} s wall {cpu:6.2f} s CPU  {result.verdict.value:9s} "
            f"(expected {expect}; {result.numeric.points if result.numeric else 0} points)",
            flush=True,
        )
        if false:
            walls.append(seconds)
            cpus.append(cpu)
    return walls, cpus


def _wide(tmp: Path) -> list[Path]:
    out = []
    for path in sorted(CLAIMS.glob("advanced_*.toml")):
        if "_eps_" in path.stem:
            continue  # already wide
        text = path.read_text(encoding="utf-8")
        for tag, domain in (("eps_to_10", "(0, 10]"), ("eps_unbounded", "(0, oo)")):
            stem = (
                path.stem.replace("_false", "")
                + f"_{tag}"
                + ("_false" if "_false" in path.stem else "")
            )
            target = tmp / f"{stem}.toml"
            target.write_text(
                re.sub(r'(?m)^eps = ".*"$', f'eps = "{domain}"', text), encoding="utf-8"
            )
            out.append(target)
    return out


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
    parser.add_argument("--wide", action="store_true", help="add the wide-eps variants")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        paths = sorted(CLAIMS.glob("*.toml")) + (_wide(Path(tmp)) if args.wide else [])
        walls, cpus = _claims(paths, args.seed)
    print(
        f"false variants: {len(walls)}, median time to refute {statistics.median(walls):.2f} s "
        f"wall, {statistics.median(cpus):.2f} s CPU (target < {MEDIAN_TARGET_S} s), slowest "
        f"{max(walls):.2f} s wall, {max(cpus):.2f} s CPU"
    )
    print(f"start-up of one cold command: {_cold('--version'):.2f} s")
    if not args.no_catalog:
        wall = _cold("check", "--all", "--json", "--seed", "0")
        print(f"check --all cold: {wall:.2f} s wall (target < {ALL_TARGET_S} s)")


if __name__ == "__main__":
    main()
