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

import math
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
    once (vectorised over runs, sequential over queries), and count accuracy failures.

    Each comparison draws one uniform U instead of the query's Laplace noise: with nu ~
    Lap(s) (s the query scale) and z the run's threshold, nu >= z - f iff U >= F(z - f),
    F the Laplace distribution function: F(d) = e^(d/s)/2 for d < 0, 1 - e^(-d/s)/2 for
    d >= 0.  So the query is answered iff A or (z >= f and B), with A: U 2e^(-z/s) >=
    e^(-f/s) (U >= F when z < f) and B: (1 - U) 2e^(z/s) <= e^(f/s) (U >= F when z >= f),
    A implying B (e^(d/s)/2 >= 1 - e^(-d/s)/2 for every d, as cosh >= 1).  The per-run
    factors e^(-z/s), e^(z/s) change only where the threshold is redrawn, so a comparison
    is a few multiplications in preallocated arrays (no logarithm, no new array per query: numpy
    spends more on fresh arrays of 20000 doubles than on the arithmetic).  Likewise an
    answer's noise |Lap(b)| exceeds alpha iff its uniform is below q/2 or above 1 - q/2,
    q = e^(-alpha/b).  numpy draws Laplace noise by this same inverse distribution function
    from one uniform each, so a seed gives the runs it gave when the noise was drawn,
    up to rounding at the boundaries of the events."""
    if len(values) != p.k:
        raise InvalidInput(f"stream has {len(values)} queries, expected k = {p.k}")
    if runs < 1:
        raise InvalidInput(f"runs must be >= 1, got runs={runs}")
    rng = np.random.default_rng(seed)
    s1, s_query, b = float(p.threshold_scale), float(2 * p.threshold_scale), float(p.answer_scale)
    alpha = float(alpha)
    off_half = math.exp(-alpha / b) / 2  # Pr[Lap(b) > alpha] = Pr[Lap(b) < -alpha]

    def factors(threshold: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return 2 * np.exp(-threshold / s_query), 2 * np.exp(threshold / s_query)

    threshold = rng.laplace(0.0, s1, runs)
    down, up = factors(threshold)
    count = np.zeros(runs, dtype=np.int64)
    active = np.ones(runs, dtype=bool)
    halted_early = np.zeros(runs, dtype=bool)
    answer_off = np.zeros(runs, dtype=bool)
    missed = np.zeros(runs, dtype=bool)
    uniform, scratch = np.empty(runs), np.empty(runs)
    answered, other = np.empty(runs, dtype=bool), np.empty(runs, dtype=bool)
    above = np.empty(runs, dtype=bool)
    last = p.k - 1
    for i, f in enumerate(values):
        # e^(-f/s) clipped to [e^-700, e^700]: past that the clip changes a comparison only
        # for U below 1e-300, which a double uniform on [0, 1) never is (its step is 2^-53).
        scale = math.exp(min(700.0, max(-700.0, -float(f) / s_query)))
        rng.random(out=uniform)
        np.multiply(uniform, down, out=scratch)
        np.greater_equal(scratch, scale, out=answered)
        np.subtract(1.0, uniform, out=scratch)
        np.multiply(scratch, up, out=scratch)
        np.less_equal(scratch, 1 / scale, out=other)
        np.greater_equal(threshold, f, out=above)  # z >= f: the second test decides
        np.logical_and(other, above, out=other)
        np.logical_or(answered, other, out=answered)
        np.logical_and(answered, active, out=answered)
        if f > alpha:
            np.greater(active, answered, out=other)  # active and not answered: bottom
            np.logical_or(missed, other, out=missed)
        idx = np.flatnonzero(answered)
        if idx.size:
            # The answer's noise and the fresh threshold are drawn only where an answer is.
            u = rng.random(idx.size)
            off = (u < off_half) | (u > 1 - off_half)
            answer_off[idx[off]] = True
            fresh = rng.laplace(0.0, s1, idx.size)
            threshold[idx] = fresh
            down[idx], up[idx] = factors(fresh)
            count[idx] += 1
            done = idx[count[idx] == p.c]
            if done.size:
                active[done] = False
                if i < last:
                    halted_early[done] = True
                if not active.any():
                    break  # every run has halted: the rest of the stream draws nothing
    fail = halted_early | answer_off | missed
    failures = int(np.count_nonzero(fail))
    lo, hi = clopper_pearson(failures, runs, confidence)
    by_event = {
        "halted_early": int(np.count_nonzero(halted_early)),
        "answer_off": int(np.count_nonzero(answer_off)),
        "missed_above": int(np.count_nonzero(missed)),
    }
    return SimulationResult(stream, runs, failures, by_event, lo, hi, confidence)
