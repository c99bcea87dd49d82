"""Claims with integrals and sums (issue 17): the time to decide each claim file of
``tests/claims`` that has one, and the median time to refute a false variant.  Figures
only, never asserted; the lead calls :func:`run` from ``bench/run.py``."""

from __future__ import annotations

import statistics
import time
from io import StringIO
from pathlib import Path

from derivations.app.cli import main

CLAIMS = Path(__file__).resolve().parent.parent / "tests" / "claims"
FAMILIES = (
    "laplace_variance",
    "laplace_mgf",
    "gaussian_hockey_stick",
    "gumbel_max",
    "discrete_gaussian_variance",
    "optimal_composition",
)


def time_claim(path: Path, budget: float = 60.0) -> tuple[float, int, float]:
    """Wall seconds, exit code and CPU seconds of ``dpderive claim path --budget budget``
    (CPU seconds are the figure to compare on a shared machine; in-process, so without
    the ~2 s of imports a fresh ``dpderive`` pays once)."""
    started, cpu = time.perf_counter(), time.process_time()
    code = main(["claim", str(path), "--json", "--budget", str(budget)], out=StringIO())
    return time.perf_counter() - started, code, time.process_time() - cpu


def run(budget: float = 60.0) -> dict[str, tuple[float, int]]:
    """Print and return ``{claim: (seconds, exit code)}`` and the median refutation time
    (wall, the target's figure, and CPU, the one to compare on a loaded machine)."""
    figures: dict[str, tuple[float, int]] = {}
    cpus: dict[str, float] = {}
    for family in FAMILIES:
        for variant in ("true", "false"):
            name = f"{family}_{variant}"
            seconds, code, cpu = time_claim(CLAIMS / f"{name}.toml", budget)
            figures[name], cpus[name] = (seconds, code), cpu
            print(f"{name:40s} {seconds:7.2f} s wall {cpu:7.2f} s CPU  exit {code}")
    refuted = [n for n, (_, c) in figures.items() if n.endswith("_false") and c == 1]
    if refuted:
        wall = statistics.median(figures[n][0] for n in refuted)
        cpu = statistics.median(cpus[n] for n in refuted)
        print(
            f"median time to refute a false variant: {wall:.2f} s wall, {cpu:.2f} s CPU "
            f"({len(refuted)} of {len(FAMILIES)} refuted)"
        )
    figures.update(issue_23(budget))
    return figures


ISSUE_23 = (
    "optimal_composition_unbounded_true",
    "optimal_composition_unbounded_false",
    "three_tight_false",
    "k_band_false",
)
"""Issue 23's claims: the optimal composition with k = "Z>=1" (true form and
sqrt(k ln(1/dp)/2) for sqrt(2 k ln(1/dp))), each to be decided within 60 s; a claim false
only where three hypotheses are tight together, and one false only on a band of k."""


def issue_23(budget: float = 60.0) -> dict[str, tuple[float, int]]:
    """Print and return ``{claim: (seconds, exit code)}`` for :data:`ISSUE_23`."""
    figures: dict[str, tuple[float, int]] = {}
    for name in ISSUE_23:
        seconds, code, cpu = time_claim(CLAIMS / f"{name}.toml", budget)
        figures[name] = (seconds, code)
        print(f"{name:40s} {seconds:7.2f} s wall {cpu:7.2f} s CPU  exit {code}")
    return figures


if __name__ == "__main__":
    run()
