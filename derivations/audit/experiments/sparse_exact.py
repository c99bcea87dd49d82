"""Exact computation, numeric: probabilities of NumericSparse (seed 001, Dwork & Roth 2014
section 3.6.3) at stated parameters.

Probabilities of NumericSparse (Algorithm 3 of the book, which the seed does not print; its
parameters are :class:`numeric_checks.dp.sparse.SparseParams`) computed exactly with mpmath:
the chance of a bottom on one query, the exact failure probability of (alpha, beta)-accuracy
on short streams (:func:`numeric_checks.dp.sparse.exact_failure`), and a rigorous lower bound
on the privacy loss of the numeric answers for very large eps.  Each function returns an
:class:`~symbolic.audit.Outcome`; registered as an experiment, a failure is ``refuted`` at
the stated point (the seed's parameters, checked against its conventions) and a success is
``checked`` on the instances computed, never more.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import mpmath

from derivations.audit.experiments.base import Result, register
from derivations.numeric_sparse import alpha_seed
from numeric_checks.dp.sparse import SparseParams, answer_error_probability, assess, exact_failure
from numeric_checks.mp import quad_relative
from symbolic.audit import Outcome
from symbolic.verdicts import Verdict

__all__ = [
    "accuracy_corrected_hypothesis",
    "bottom_above_threshold",
    "bottom_probability",
    "laplace_step_approx_as_written",
    "large_eps_privacy_violation",
    "summary_as_written",
]

DPS = 30
BETA = mpmath.mpf("0.05")


def bottom_probability(x: Any, s1: Any) -> tuple[Any, Any]:
    """Pr[a = bottom] for one query with f(D) - T = x >= 0 and a fresh threshold:
    Pr[x + Lap(2 s1) < Lap(s1)], by quadrature and in closed form
    (4 e^{-x/(2 s1)} - e^{-x/s1})/6 (the tail of a difference of two Laplace variables)."""
    x, s1 = mpmath.mpf(x), mpmath.mpf(s1)

    def integrand(z: Any) -> Any:
        t = z - x  # the query noise must fall below t
        cdf = mpmath.exp(t / (2 * s1)) / 2 if t < 0 else 1 - mpmath.exp(-t / (2 * s1)) / 2
        return mpmath.exp(-abs(z) / s1) / (2 * s1) * cdf

    quad = quad_relative(integrand, [-mpmath.inf, 0, x, mpmath.inf])
    closed = (4 * mpmath.exp(-x / (2 * s1)) - mpmath.exp(-x / s1)) / 6
    return quad, closed


def _agree(a: Any, b: Any) -> bool:
    return bool(abs(a - b) <= mpmath.mpf(10) ** (-DPS + 5) * max(abs(a), abs(b)))


def bottom_above_threshold() -> Outcome:
    """The seed's proof: 'for all a_i = bottom: f_i(D) <= T' holds with probability
    1 - beta/2.  One query (k = c = 1) at f_1(D) = T + 1 (allowed: L(T) = 1 <= c)."""
    with mpmath.workdps(DPS):
        rows = []
        holds = True
        for delta in (0, mpmath.mpf("0.1")):
            p = SparseParams.make(1, delta, 1, 1)
            quad, closed = bottom_probability(1, p.threshold_scale)
            if not _agree(quad, closed):
                return Outcome(None, f"quadrature {quad} and closed form {closed} disagree")
            holds = holds and not closed > BETA / 2
            rows.append(
                f"delta = {mpmath.nstr(delta, 3)}: Pr[a_1 = bottom] = {mpmath.nstr(closed, 6)} "
                f"(quadrature and closed form agree) > beta/2 = {mpmath.nstr(BETA / 2, 3)}"
            )
    return Outcome(
        holds,
        "eps = 1, beta = 0.05, k = c = 1, f_1(D) = T + 1: a bottom on a query above T is "
        "not rare; " + "; ".join(rows),
    )


def laplace_step_approx_as_written() -> Outcome:
    """The seed's proof, delta > 0: the numeric answers are within alpha with probability
    1 - beta/2 'by the accuracy of the Laplace mechanism'.  Exactly, k = c = 1."""
    with mpmath.workdps(DPS):
        rows, holds = [], True
        for eps, delta in ((1, mpmath.mpf("0.1")), (mpmath.mpf("0.1"), mpmath.mpf("1e-6"))):
            p = SparseParams.make(eps, delta, 1, 1)
            alpha = alpha_seed(p, BETA)
            prob = answer_error_probability(p, alpha, 1)
            holds = holds and not prob > BETA / 2
            rows.append(
                f"eps = {mpmath.nstr(eps, 3)}, delta = {mpmath.nstr(delta, 3)}: alpha = "
                f"{mpmath.nstr(alpha, 6)}, Pr[|a_1 - f_1(D)| > alpha] = {mpmath.nstr(prob, 6)}"
            )
    return Outcome(
        holds,
        "k = c = 1, beta = 0.05 (beta/2 = 0.025): "
        + "; ".join(rows)
        + " (= (4ck/beta)^(-1/(2 sqrt 2)), free of eps and delta)",
    )


def summary_as_written() -> Outcome:
    """'At most c answers above T + alpha' suffices?  c = 1, k = 2, f_1(D) = T (not above
    T + alpha), f_2(D) = T + 2 alpha: exact failure probability of Def 3.10."""
    with mpmath.workdps(DPS):
        rows, holds = [], True
        for delta in (0, mpmath.mpf("0.1")):
            p = SparseParams.make(1, delta, 1, 2)
            alpha = alpha_seed(p, BETA)
            fail = exact_failure(p, (0, 2 * alpha), alpha)
            holds = holds and not fail > BETA
            rows.append(
                f"delta = {mpmath.nstr(delta, 3)}: alpha = {mpmath.nstr(alpha, 6)}, exact "
                f"failure probability {mpmath.nstr(fail, 6)}"
            )
    return Outcome(
        holds,
        "eps = 1, beta = 0.05, c = 1, k = 2, stream (T, T + 2 alpha): one query above "
        "T + alpha; the query at T is answered about half the time and the algorithm halts "
        "before f_2, which is then never answered; " + "; ".join(rows) + " > beta",
    )


def accuracy_corrected_hypothesis(delta: Any = 0) -> Outcome:
    """(alpha, beta)-accuracy under the corrected hypothesis |{i < k : f_i(D) >= T - alpha}|
    <= c - 1, exactly (k <= 3) on the adversarial and random streams of
    :func:`numeric_checks.dp.sparse.streams`; for delta > 0 with alpha sqrt(8) times the
    seed's."""
    delta = mpmath.mpf(delta)
    rows, holds = [], True
    configs = ((mpmath.mpf("0.5"), 2, 3),) if delta == 0 else ((1, 1, 2), (mpmath.mpf("0.5"), 2, 3))
    with mpmath.workdps(15):  # exact quadrature; the margins to beta are wide
        for eps, c, k in configs:
            p = SparseParams.make(eps, delta, c, k)
            alpha = alpha_seed(p, BETA) * (1 if delta == 0 else mpmath.sqrt(8))
            results = assess(p, alpha, BETA, "last")
            holds = holds and all(a.holds for a in results)
            worst = max(results, key=lambda a: a.score)
            rows.append(f"eps = {mpmath.nstr(eps, 3)}, c = {c}, k = {k}: {worst.detail}")
    return Outcome(
        holds,
        f"delta = {mpmath.nstr(delta, 3)}, beta = 0.05, exact failure probabilities (15 "
        "digits) on 4 streams each; worst: " + "; ".join(rows),
    )


def large_eps_privacy_violation() -> Outcome:
    """Theorem 3.27 for delta > 0 at eps = 1e5, delta = 1/2, c = 10^4.

    Neighbours D, D' and c sensitivity-1 queries with f_i(D) = T + 1, f_i(D') = T.  Event S:
    the first c queries are all answered and the log-likelihood ratio of the c numeric
    answers is at least eps' = eps + 50.  Then Pr[M(D') in S] <= e^{-eps'} and
    Pr[M(D) in S] >= p_D (1 - h): p_D = Pr[all c answered] >= 1 - c q with
    q <= e^{-1/(4 s1)}/2 + e^{-1/(2 s1)}/2, and h = exp(-2 (c m - eps')^2 / (c (2 eps0)^2))
    bounds Pr[sum of the c losses < eps'] (Hoeffding: each loss lies in [-eps0, eps0] and
    has mean m = eps0 + e^{-eps0} - 1, the KL divergence of Laplace answers).
    """
    with mpmath.workdps(DPS):
        eps, delta, c = mpmath.mpf(10) ** 5, mpmath.mpf(1) / 2, 10**4
        p = SparseParams.make(eps, delta, c, c)
        s1, eps0 = p.threshold_scale, 1 / p.answer_scale
        q = mpmath.exp(-1 / (4 * s1)) / 2 + mpmath.exp(-1 / (2 * s1)) / 2
        p_d = 1 - c * q
        m = eps0 + mpmath.exp(-eps0) - 1
        eps_prime = eps + 50
        if c * m <= eps_prime:
            return Outcome(None, "the mean loss does not exceed eps'; no bound")
        h = mpmath.exp(-2 * (c * m - eps_prime) ** 2 / (c * (2 * eps0) ** 2))
        lower = p_d * (1 - h) - mpmath.exp(eps - eps_prime)
        return Outcome(
            not lower > delta,
            f"eps = 1e5, delta = 1/2, c = k = 10^4, f_i(D) = T + 1, f_i(D') = T: each answer "
            f"is eps0 = {mpmath.nstr(eps0, 6)}-DP, c eps0 = {mpmath.nstr(c * eps0, 6)}; "
            f"expected total loss c m = {mpmath.nstr(c * m, 8)} > eps' = eps + 50; "
            f"Pr[all answered] >= 1 - {mpmath.nstr(c * q, 3)}, Hoeffding h = "
            f"{mpmath.nstr(h, 3)}; Pr[M(D) in S] - e^eps Pr[M(D') in S] >= 1 - "
            f"{mpmath.nstr(1 - lower, 3)} > delta = 0.5",
        )


def _fraction(x: Any) -> Any:
    return mpmath.mpf(x.numerator) / x.denominator


def _bottom_at(point: Mapping[str, Fraction]) -> bool | None:
    """The closed form of Pr[a_1 = bottom] at the point against beta/2."""
    with mpmath.workdps(DPS):
        p = SparseParams.make(_fraction(point["eps"]), _fraction(point["delta"]), 1, 1)
        _, closed = bottom_probability(_fraction(point["x"]), p.threshold_scale)
        return not closed > _fraction(point["beta"]) / 2


def _laplace_at(point: Mapping[str, Fraction]) -> bool | None:
    """Pr[|Lap(sigma(eps2))| > alpha] for one answer is (4ck/beta)^(-1/(2 sqrt 2)) exactly
    (alpha over the answer scale is ln(4ck/beta)/(2 sqrt 2)); against beta/2."""
    with mpmath.workdps(DPS):
        beta = _fraction(point["beta"])
        c, k = int(point["c"]), int(point["k"])
        closed = c * (4 * c * k / beta) ** (-1 / (2 * mpmath.sqrt(2)))
        return not closed > beta / 2


def _summary_at(point: Mapping[str, Fraction]) -> bool | None:
    with mpmath.workdps(DPS):
        p = SparseParams.make(_fraction(point["eps"]), _fraction(point["delta"]), 1, 2)
        beta = _fraction(point["beta"])
        alpha = alpha_seed(p, beta)
        return not exact_failure(p, (0, 2 * alpha), alpha) > beta


def _privacy_at(point: Mapping[str, Fraction]) -> bool | None:
    return large_eps_privacy_violation().holds


_POINTS: dict[str, tuple[dict[str, Fraction], Callable[[Mapping[str, Fraction]], bool | None]]] = {
    "bottom-above-threshold": (
        {
            "eps": Fraction(1),
            "beta": Fraction(1, 20),
            "c": Fraction(1),
            "k": Fraction(1),
            "delta": Fraction(0),
            "x": Fraction(1),
        },
        _bottom_at,
    ),
    "laplace-step-approx-as-written": (
        {
            "eps": Fraction(1),
            "delta": Fraction(1, 10),
            "beta": Fraction(1, 20),
            "c": Fraction(1),
            "k": Fraction(1),
        },
        _laplace_at,
    ),
    "summary-as-written": (
        {
            "eps": Fraction(1),
            "delta": Fraction(0),
            "beta": Fraction(1, 20),
            "c": Fraction(1),
            "k": Fraction(2),
        },
        _summary_at,
    ),
    "large-eps-privacy-violation": (
        {"eps": Fraction(10**5), "delta": Fraction(1, 2), "c": Fraction(10**4)},
        _privacy_at,
    ),
}
"""The refuting experiments: the point each prints (the first parameters it reports) and
an independent decision at that point, from the printed values alone (for the tests)."""

_REFUTING: dict[str, Callable[[], Outcome]] = {
    "bottom-above-threshold": bottom_above_threshold,
    "laplace-step-approx-as-written": laplace_step_approx_as_written,
    "summary-as-written": summary_as_written,
    "large-eps-privacy-violation": large_eps_privacy_violation,
}


def _numeric(name: str, f: Callable[[], Outcome], scope: str) -> None:
    point, decide = _POINTS.get(name, ({}, None))

    def run(_: Mapping[str, Any]) -> Result:
        o = f()
        shown = ", ".join(f"{k} = {v}" for k, v in point.items())
        if o.holds is False:
            return Result(Verdict.REFUTED, "instance: a witness", f"at {shown}: {o.detail}", point)
        verdict = Verdict.CHECKED if o.holds else Verdict.UNDECIDED
        return Result(verdict, scope, o.detail)

    def recheck(
        _: Mapping[str, Any], __: Sequence[Sequence[Fraction]], at: Mapping[str, Fraction]
    ) -> bool | None:
        return None if decide is None else decide(at)

    register(name, "exact computation", (), recheck if decide else None)(run)


for _name, _f in _REFUTING.items():
    _numeric(_name, _f, "instance: the parameters printed")


def _corrected(delta: str) -> Callable[[], Outcome]:
    return lambda: accuracy_corrected_hypothesis(delta)


_numeric(
    "accuracy-corrected-pure",
    _corrected("0"),
    "instance: delta = 0, eps = 0.5, c = 2, k = 3; 4 streams, exact failure probabilities",
)
_numeric(
    "accuracy-corrected-approx",
    _corrected("0.1"),
    "instance: delta = 0.1, (eps, c, k) in {(1, 1, 2), (0.5, 2, 3)}; 4 streams each",
)
