"""AboveThreshold (Dwork & Roth 2014, Algorithm 1 of section 3.6): a vectorised simulation
of its accuracy failures (Definition 3.9), for the oracle of Theorem 3.24.

AboveThreshold(D, {f_i}, T, eps) draws T_hat = T + Lap(2/eps); for each query it draws
nu_i = Lap(4/eps) and, if f_i(D) + nu_i >= T_hat, outputs top and halts, else outputs bottom.
It is (alpha, beta)-accurate if, except with probability at most beta, it does not halt
before f_k, every top is on a query with f_i(D) >= T - alpha and every bottom on a query
with f_i(D) <= T + alpha.  The theorem's stated alpha is not used here: it is a parameter.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from numeric_checks.dp.stats import clopper_pearson
from symbolic.errors import InvalidInput

__all__ = ["AboveThresholdRun", "hardest_stream", "simulate_above_threshold"]


@dataclass(frozen=True)
class AboveThresholdRun:
    """Failures of ``runs`` runs, with an exact Clopper-Pearson interval on the rate."""

    runs: int
    failures: int
    lower: Any
    upper: Any
    confidence: float


def hardest_stream(k: int, alpha: float) -> tuple[float, ...]:
    """f_i(D) - T for the hypothesis of Theorem 3.24 at its edge: the first k - 1 queries at
    T - alpha (halting on any of them is a failure), the last just above T + alpha (bottom
    on it is a failure)."""
    if k < 1:
        raise InvalidInput(f"k must be >= 1, got k={k}")
    return (*([-alpha] * (k - 1)), alpha * (1 + 1e-12) + 1e-300)


def simulate_above_threshold(
    eps: float,
    values: Sequence[float],
    alpha: float,
    runs: int,
    seed: int = 0,
    confidence: float = 0.999,
) -> AboveThresholdRun:
    """Run AboveThreshold ``runs`` times on ``values`` (f_i(D) - T) and count the runs that
    are not alpha-accurate."""
    if not eps > 0 or runs < 1 or not values:
        raise InvalidInput(f"need eps > 0, runs >= 1 and a query, got {eps}, {runs}, {values}")
    rng = np.random.default_rng(seed)
    f = np.asarray(values, dtype=float)
    threshold = rng.laplace(0.0, 2.0 / eps, (runs, 1))
    above = f + rng.laplace(0.0, 4.0 / eps, (runs, f.size)) >= threshold
    halted = above.any(axis=1)
    first = np.where(halted, above.argmax(axis=1), f.size)  # the query it halts on
    early = first < f.size - 1
    wrong_top = halted & (f[np.minimum(first, f.size - 1)] < -alpha)
    # Bottom is output on every query before the first top (all of them if it never halts).
    answered_bottom = np.arange(f.size) < first[:, None]
    wrong_bottom = (answered_bottom & (f > alpha)).any(axis=1)
    failures = int(np.count_nonzero(early | wrong_top | wrong_bottom))
    lo, hi = clopper_pearson(failures, runs, confidence)
    return AboveThresholdRun(runs, failures, lo, hi, confidence)
