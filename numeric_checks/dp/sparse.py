"""NumericSparse (Dwork & Roth 2014, Algorithm 3 of section 3.6.3): simulation and exact
failure probabilities of (alpha, beta)-accuracy.

The algorithm, with queries of sensitivity 1 and T the threshold:

* delta = 0: eps1 = 8 eps/9, eps2 = 2 eps/9, sigma(e) = 2c/e;
* delta > 0: eps1 = sqrt(512)/(sqrt(512)+1) eps, eps2 = 2/(sqrt(512)+1) eps,
  sigma(e) = sqrt(32 c ln(2/delta))/e.

Draw T_hat = T + Lap(sigma(eps1)).  For each query: if f_i(D) + Lap(2 sigma(eps1)) >= T_hat,
output a_i = f_i(D) + Lap(sigma(eps2)), count it and redraw T_hat; else output bottom.
Halt after c answers.

Accuracy (Def 3.10 of the book, as the seed states it): except with probability beta, the
algorithm does not halt before f_k, every numeric answer is within alpha of f_i(D), and every
bottom is on a query with f_i(D) <= T + alpha.  :func:`simulate` estimates the probability
that this fails, per event, with an exact Clopper-Pearson bound; :func:`exact_failure`
computes it exactly for short streams (one integral over each threshold draw), and
:func:`answer_error_probability` is the exact chance that m numeric answers are not all
within alpha.

The algorithm only sees f_i(D) - T, so every stream here has T = 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np

from numeric_checks.dp.stats import clopper_pearson
from numeric_checks.mp import quad_relative
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
        eps, delta = mpmath.mpf(eps), mpmath.mpf(delta)
        if not (mpmath.isfinite(eps) and eps > 0):
            raise InvalidInput(f"eps must be > 0, got eps={eps}")
        if not 0 <= delta < 1:
            raise InvalidInput(f"delta must be in [0, 1), got delta={delta}")
        if int(c) != c or c < 1:
            raise InvalidInput(f"c must be a whole number >= 1, got c={c}")
        if int(k) != k or k < c:
            raise InvalidInput(f"k must be a whole number >= c = {int(c)}, got k={k}")
        return cls(eps, delta, int(c), int(k))

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


def check_beta(beta: Any) -> Any:
    beta = mpmath.mpf(beta)
    if not 0 < beta < 1:
        raise InvalidInput(f"beta must be in (0, 1), got beta={beta}")
    return beta


def alpha_seed(p: SparseParams, beta: Any) -> Any:
    """alpha of Theorem 3.28 as the seed states it."""
    beta = check_beta(beta)
    logs = mpmath.log(p.k) + mpmath.log(4 * p.c / beta)
    if p.delta == 0:
        return 9 * p.c * logs / p.eps
    return logs * mpmath.sqrt(p.c * mpmath.log(2 / p.delta)) * (ROOT512 + 1) / p.eps


def alpha_laplace_part(p: SparseParams, beta: Any) -> Any:
    """The alpha at which c Laplace answers are all within alpha except with probability
    beta/2 (union bound): sigma(eps2) ln(2c/beta)."""
    beta = check_beta(beta)
    return p.answer_scale * mpmath.log(2 * p.c / beta)


def alpha_corrected(p: SparseParams, beta: Any) -> Any:
    """max(Sparse part, Laplace part): the alpha the seed's own proof supports."""
    return max(alpha_seed(p, beta), alpha_laplace_part(p, beta))


def answer_error_probability(p: SparseParams, alpha: Any, answers: int) -> Any:
    """Exact Pr[some of `answers` numeric answers is off by more than alpha]."""
    q = mpmath.exp(-mpmath.mpf(alpha) / p.answer_scale)
    return -mpmath.expm1(answers * mpmath.log1p(-q))


# -- query streams -------------------------------------------------------------------------


@dataclass(frozen=True)
class Stream:
    """Values f_i(D) - T of a query stream, with the name of its construction."""

    name: str
    values: tuple[float, ...]
    description: str


def near_count(values: Sequence[float], alpha: float, before_last: bool) -> int:
    """|{i : f_i(D) >= T - alpha}| (over i < k if ``before_last``)."""
    body = values[:-1] if before_last else values
    return sum(1 for v in body if v >= -alpha)


def streams(p: SparseParams, alpha: float, hypothesis: str, seed: int = 0) -> list[Stream]:
    """Adversarial and random streams satisfying the theorem's hypothesis.

    ``hypothesis="seed"``: L(T) = |{i : f_i(D) >= T - alpha}| <= c, as the seed states.
    ``hypothesis="last"``: at most c - 1 of f_1..f_{k-1} are >= T - alpha (so the c-th
    answer, if any, can only be due on f_k).  Every stream of the second kind is also one
    of the first; "front-loaded" is of the first kind only (when k > c).
    """
    if hypothesis not in ("seed", "last"):
        raise InvalidInput(f"unknown hypothesis {hypothesis!r}")
    c, k = p.c, p.k
    noise = float(2 * p.threshold_scale)
    far = alpha + 60 * noise  # answered except with probability ~exp(-30)
    below = -alpha * (1 + 1e-9)  # just below T - alpha: does not count towards L(T)
    out: list[Stream] = []

    def spread(n_special: int, special: float, filler: float, last: float) -> tuple[float, ...]:
        # n_special values among the first k - 1 positions, evenly spaced, then `last`.
        vals = [filler] * (k - 1)
        for j in range(n_special):
            vals[(j * (k - 1)) // max(n_special, 1)] = special
        return (*vals, last)

    out.append(
        Stream(
            "last-high",
            (far,) * (c - 1) + (below,) * (k - c) + (far,),
            f"{c - 1} far above T, {k - c} just below T - alpha, the last far above",
        )
    )
    out.append(
        Stream(
            "edge-above",
            spread(c - 1, alpha * (1 + 1e-9), below, alpha * (1 + 1e-9)),
            f"{c} queries just above T + alpha (bottom there fails), the rest just below T - alpha",
        )
    )
    out.append(
        Stream(
            "edge-below",
            spread(c - 1, -alpha, below, -alpha),
            f"{c} queries at T - alpha, the rest just below: answers here are allowed, "
            "early halting is not",
        )
    )
    rng = np.random.default_rng(seed)
    near_positions = set(rng.choice(k - 1, size=min(c - 1, k - 1), replace=False).tolist())
    vals = [
        float(rng.uniform(-alpha, far)) if i in near_positions else float(rng.uniform(-far, below))
        for i in range(k - 1)
    ]
    vals.append(float(rng.uniform(-alpha, far)))
    out.append(
        Stream("random", tuple(vals), f"random values, {c} of them in [T - alpha, far above]")
    )
    if hypothesis == "seed" and k > c:
        out.append(
            Stream(
                "front-loaded",
                (far,) * c + (below,) * (k - c),
                f"{c} queries far above T, then {k - c} just below T - alpha",
            )
        )
    return out


# -- simulation ----------------------------------------------------------------------------


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


# -- exact probabilities for short streams -------------------------------------------------


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


# -- assessment against beta ---------------------------------------------------------------

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
    beta = check_beta(beta)
    alpha = mpmath.mpf(alpha)
    if not (mpmath.isfinite(alpha) and alpha > 0):
        raise InvalidInput(f"alpha must be > 0, got alpha={alpha}")
    runs = runs if runs is not None else default_runs(p.k)
    out: list[Assessment] = []
    for idx, s in enumerate(streams(p, float(alpha), hypothesis, seed=seed + p.k + 7919 * p.c)):
        if p.k <= exact_up_to_k:
            rate = exact_failure(p, s.values, alpha)
            margin = 1 + mpmath.mpf(10) ** -12
            holds = not rate > beta * margin
            detail = (
                f"stream {s.name}: exact failure probability {mpmath.nstr(rate, 4)} vs "
                f"beta = {mpmath.nstr(beta, 4)}"
            )
            out.append(Assessment(s, holds, detail, float(rate / beta), exact=rate))
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
        if strict_lower > beta:
            holds: bool | None = False
            detail += f"; lower bound at confidence 1 - 2e-6: {mpmath.nstr(strict_lower, 4)}"
        elif r.upper <= beta:
            holds = True
        else:
            holds = None
        out.append(Assessment(s, holds, detail, float(r.upper / beta), simulation=r))
    return out
