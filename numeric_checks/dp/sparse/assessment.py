"""How often NumericSparse fails (alpha, beta)-accuracy, against beta: exact failure
probabilities for short streams (one integral over each threshold draw), the simulation for
longer ones, and :func:`assess`, which decides each stream of :mod:`.streams`.

The alpha is the caller's: the stated alpha of Theorem 3.28 lives in its derivation
(:mod:`derivations.numeric_sparse`), never here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import mpmath

from numeric_checks.dp.sparse.algorithm import SimulationResult, SparseParams, simulate
from numeric_checks.dp.sparse.streams import Stream, streams
from numeric_checks.dp.stats import clopper_pearson
from numeric_checks.mp import quad_relative
from numeric_checks.validate import check_positive, check_probability
from symbolic.errors import InvalidInput


def answer_error_probability(p: SparseParams, alpha: Any, answers: int) -> Any:
    """Exact Pr[some of `answers` numeric answers is off by more than alpha]."""
    q = mpmath.exp(-mpmath.mpf(alpha) / p.answer_scale)
    return -mpmath.expm1(answers * mpmath.log1p(-q))


def _laplace_cdf(x: Any, scale: Any) -> Any:
    if x < 0:
        return mpmath.exp(x / scale) / 2
    return 1 - mpmath.exp(-x / scale) / 2


def exact_failure(p: SparseParams, values: Sequence[Any], alpha: Any) -> Any:
    """Exact probability that (alpha, beta)-accuracy fails on the stream ``values``.

    Between two answers the threshold is one draw z; given z the queries are independent, so
    the chance that the next answer falls on query j is one integral over z of a product of
    Laplace distribution functions.  A dynamic programme over (position, answers so far)
    adds up the successful paths.  O(k^2) integrals: meant for k <= ~8.
    """
    if len(values) != p.k:
        raise InvalidInput(f"stream has {len(values)} queries, expected k = {p.k}")
    k, c = p.k, p.c
    f = [mpmath.mpf(v) for v in values]
    alpha = mpmath.mpf(alpha)
    s1 = p.threshold_scale
    sq = 2 * s1
    within = 1 - mpmath.exp(-alpha / p.answer_scale)  # one answer is within alpha
    bad_bottom = [v > alpha for v in f]

    def integral(start: int, stop: int, answer_at: int | None) -> Any:
        # Pr[queries start..stop-1 are all bottom (and, if answer_at, it is answered)].
        if any(bad_bottom[start:stop]):
            return mpmath.mpf(0)
        members = list(range(start, stop)) + ([answer_at] if answer_at is not None else [])
        if not members:
            return mpmath.mpf(1)

        def integrand(z: Any) -> Any:
            out = mpmath.exp(-abs(z) / s1) / (2 * s1)
            for idx in range(start, stop):
                out *= _laplace_cdf(z - f[idx], sq)
            if answer_at is not None:
                out *= 1 - _laplace_cdf(z - f[answer_at], sq)
            return out

        cuts = sorted({mpmath.mpf(0), *(f[m] for m in members)})
        return quad_relative(integrand, [-mpmath.inf, *cuts, mpmath.inf])

    success: dict[tuple[int, int], Any] = {}
    for start in range(k, -1, -1):
        for m in range(c - 1, -1, -1):
            total = integral(start, k, None)
            for j in range(start, k):
                if m + 1 == c and j < k - 1:
                    continue  # the c-th answer before f_k: halted early
                after = 1 if (m + 1 == c or j == k - 1) else success[(j + 1, m + 1)]
                total += integral(start, j, j) * within * after
            success[(start, m)] = total
    return 1 - success[(0, 0)]


REFUTE_CONFIDENCE = 1 - 2e-6
"""A failure rate refutes only if its lower bound at this confidence exceeds beta: with ~100
(point, stream) tests in a check, a false refutation has probability about 1e-4."""
REPORT_CONFIDENCE = 0.999
MAX_RUNS, MIN_RUNS, RUN_BUDGET = 20000, 2000, 2_000_000
"""Default simulation runs per stream: RUN_BUDGET // k, within [MIN_RUNS, MAX_RUNS]."""


def default_runs(k: int) -> int:
    return min(MAX_RUNS, max(MIN_RUNS, RUN_BUDGET // k))


@dataclass(frozen=True)
class Assessment:
    """One stream's failure probability against beta: ``holds`` is True (upper bound, or the
    exact value, at most beta), False (lower bound, or the exact value, above beta) or None."""

    stream: Stream
    holds: bool | None
    detail: str
    score: float
    simulation: SimulationResult | None = None
    exact: Any = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "stream": self.stream.name,
            "description": self.stream.description,
            "holds": self.holds,
            "detail": self.detail,
        }
        if self.simulation is not None:
            r = self.simulation
            out.update(
                runs=r.runs,
                failures=r.failures,
                by_event=r.by_event,
                rate=r.rate,
                lower=float(r.lower),
                upper=float(r.upper),
                confidence=r.confidence,
            )
        if self.exact is not None:
            out["exact_failure_probability"] = mpmath.nstr(self.exact, 15)
        return out


def assess(
    p: SparseParams,
    alpha: Any,
    beta: Any,
    hypothesis: str,
    *,
    runs: int | None = None,
    seed: int = 0,
    exact_up_to_k: int = 3,
) -> list[Assessment]:
    """Every stream of :func:`streams` for ``hypothesis``, simulated (or, for k up to
    ``exact_up_to_k``, computed exactly) and compared with beta."""
    beta = check_probability("beta", beta, open_ends="both")
    alpha = check_positive("alpha", alpha)
    runs = runs if runs is not None else default_runs(p.k)
    out: list[Assessment] = []
    for idx, s in enumerate(streams(p, float(alpha), hypothesis, seed=seed + p.k + 7919 * p.c)):
        if p.k <= exact_up_to_k:
            rate = exact_failure(p, s.values, alpha)
            margin = 1 + mpmath.mpf(10) ** -12
            exact_holds = not rate > beta * margin
            detail = (
                f"stream {s.name}: exact failure probability {mpmath.nstr(rate, 4)} vs "
                f"beta = {mpmath.nstr(beta, 4)}"
            )
            out.append(Assessment(s, exact_holds, detail, float(rate / beta), exact=rate))
            continue
        r = simulate(
            p,
            s.values,
            float(alpha),
            runs,
            seed=seed + idx + 101 * p.k + 7919 * p.c,
            confidence=REPORT_CONFIDENCE,
            stream=s.name,
        )
        events = ", ".join(f"{n} {m}" for n, m in r.by_event.items())
        detail = (
            f"stream {s.name}: {r.failures}/{r.runs} runs fail ({events}); rate "
            f"{r.rate:.4g}, {REPORT_CONFIDENCE:.1%} interval [{mpmath.nstr(r.lower, 4)}, "
            f"{mpmath.nstr(r.upper, 4)}] vs beta = {mpmath.nstr(beta, 4)}"
        )
        strict_lower, _ = clopper_pearson(r.failures, r.runs, REFUTE_CONFIDENCE)
        holds: bool | None
        if strict_lower > beta:
            holds = False
            detail += f"; lower bound at confidence 1 - 2e-6: {mpmath.nstr(strict_lower, 4)}"
        elif r.upper <= beta:
            holds = True
        else:
            holds = None
        out.append(Assessment(s, holds, detail, float(r.upper / beta), simulation=r))
    return out
