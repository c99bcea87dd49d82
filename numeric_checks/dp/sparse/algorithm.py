"""NumericSparse (Dwork & Roth 2014, Algorithm 3 of section 3.6.3): its parameters and a
vectorised simulation.

The algorithm, with queries of sensitivity 1 and T the threshold:

* delta = 0: eps1 = 8 eps/9, eps2 = 2 eps/9, sigma(e) = 2c/e;
* delta > 0: eps1 = sqrt(512)/(sqrt(512)+1) eps, eps2 = 2/(sqrt(512)+1) eps,
  sigma(e) = sqrt(32 c ln(2/delta))/e.

Draw T_hat = T + Lap(sigma(eps1)).  For each query: if f_i(D) + Lap(2 sigma(eps1)) >= T_hat,
output a_i = f_i(D) + Lap(sigma(eps2)), count it and redraw T_hat; else output bottom.
Halt after c answers.

Accuracy (Def 3.10 of the book, as the seed states it): except with probability beta, the
algorithm does not halt before f_k, every numeric answer is within alpha of f_i(D), and every
bottom is on a query with f_i(D) <= T + alpha.  :func:`simulate` counts the runs in which
this fails, per event, with an exact Clopper-Pearson bound.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np

from numeric_checks.dp.stats import clopper_pearson
from numeric_checks.validate import check_eps_delta, check_whole
from symbolic.errors import InvalidInput

ROOT512 = mpmath.sqrt(512)
EVENTS = ("halted_early", "answer_off", "missed_above")


@dataclass(frozen=True)
class SparseParams:
    """Validated parameters of NumericSparse(D, {f_i}, T, c, eps, delta) on k queries."""

    eps: Any
    delta: Any
    c: int
    k: int

    @classmethod
    def make(cls, eps: Any, delta: Any, c: Any, k: Any) -> SparseParams:
        eps, delta = check_eps_delta(eps, delta, eps_zero=False, delta_open="upper")
        c = check_whole("c", c)
        return cls(eps, delta, c, check_whole("k", k, minimum=c, minimum_name="c"))

    def _sigma(self, e: Any) -> Any:
        if self.delta == 0:
            return 2 * self.c / e
        return mpmath.sqrt(32 * self.c * mpmath.log(2 / self.delta)) / e

    @property
    def eps1(self) -> Any:
        return 8 * self.eps / 9 if self.delta == 0 else ROOT512 / (ROOT512 + 1) * self.eps

    @property
    def eps2(self) -> Any:
        return 2 * self.eps / 9 if self.delta == 0 else 2 / (ROOT512 + 1) * self.eps

    @property
    def threshold_scale(self) -> Any:
        """Scale of the threshold noise; the query noise has twice this scale."""
        return self._sigma(self.eps1)

    @property
    def answer_scale(self) -> Any:
        return self._sigma(self.eps2)


@dataclass(frozen=True)
class SimulationResult:
    stream: str
    runs: int
    failures: int
    by_event: dict[str, int]
    lower: Any
    upper: Any
    confidence: float

    @property
    def rate(self) -> float:
        return self.failures / self.runs


def simulate(
    p: SparseParams,
    values: Sequence[float],
    alpha: float,
    runs: int,
    seed: int = 0,
    confidence: float = 0.999,
    stream: str = "custom",
) -> SimulationResult:
    """Run NumericSparse ``runs`` times on the stream ``values`` (f_i(D) - T), all runs at
    once (vectorised over runs, sequential over queries), and count accuracy failures."""
    if len(values) != p.k:
        raise InvalidInput(f"stream has {len(values)} queries, expected k = {p.k}")
    if runs < 1:
        raise InvalidInput(f"runs must be >= 1, got runs={runs}")
    rng = np.random.default_rng(seed)
    s1, s_query, b = float(p.threshold_scale), float(2 * p.threshold_scale), float(p.answer_scale)
    alpha = float(alpha)
    threshold = rng.laplace(0.0, s1, runs)
    count = np.zeros(runs, dtype=np.int64)
    active = np.ones(runs, dtype=bool)
    halted_early = np.zeros(runs, dtype=bool)
    answer_off = np.zeros(runs, dtype=bool)
    missed = np.zeros(runs, dtype=bool)
    last = p.k - 1
    for i, f in enumerate(values):
        answered = active & (f + rng.laplace(0.0, s_query, runs) >= threshold)
        idx = np.flatnonzero(answered)
        if f > alpha:
            missed |= active & ~answered
        if idx.size:
            # The answer's noise and the fresh threshold are drawn only where an answer is.
            off = np.abs(rng.laplace(0.0, b, idx.size)) > alpha
            answer_off[idx[off]] = True
            threshold[idx] = rng.laplace(0.0, s1, idx.size)
            count[idx] += 1
            done = idx[count[idx] == p.c]
            active[done] = False
            if i < last:
                halted_early[done] = True
    fail = halted_early | answer_off | missed
    failures = int(np.count_nonzero(fail))
    lo, hi = clopper_pearson(failures, runs, confidence)
    by_event = {
        "halted_early": int(np.count_nonzero(halted_early)),
        "answer_off": int(np.count_nonzero(answer_off)),
        "missed_above": int(np.count_nonzero(missed)),
    }
    return SimulationResult(stream, runs, failures, by_event, lo, hi, confidence)
