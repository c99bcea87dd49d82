"""Spot checks of one relation ``lhs REL rhs`` over points, and counterexample search.

Deciding a point: the signed violation ``d`` (``lhs - rhs`` for ``<=``, ``|lhs - rhs|`` for ``=``)
is compared with a tolerance tied to the working precision, relative to the sides' magnitude.
A point that seems to violate is re-evaluated with more digits, and only a violation that
persists *and is stable* across precisions counts: rounding noise from cancellation shrinks as
digits are added, a real violation does not.  A strict relation that ties at every precision
is refuted only if SymPy shows the residual is exactly zero at the (exact, rational) point.

When no point violates, a local search climbs toward the worst violation from the closest
points; a violation found is shrunk to a simple point that shows it by itself.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

import mpmath
import sympy as sp

from numeric_checks.bridge import compile_exprs, evaluate, evaluate_many
from numeric_checks.sampling import Point, Sampler
from symbolic.errors import EvaluationError
from symbolic.relations import Relation
from symbolic.report import Counterexample, NumericEvidence
from symbolic.tactics import prove_zero
from symbolic.verdicts import Verdict

GUARD_DIGITS = 8
STABLE = mpmath.mpf("1e-6")
NEAR = mpmath.mpf("1e-10")  # relative gap below which a point is re-decided with more digits


class Status(Enum):
    OK = "ok"
    VIOLATED = "violated"
    TIE = "tie"
    UNDEFINED = "undefined"


@dataclass(frozen=True)
class PointResult:
    status: Status
    margin: Any  # relative signed violation (positive = violated); -inf when undefined
    lhs: Any = None
    rhs: Any = None
    note: str = ""


@dataclass(frozen=True)
class SpotOutcome:
    verdict: Verdict
    evidence: NumericEvidence
    counterexample: Counterexample | None
    ties: int = 0
    point: tuple[Any, ...] | None = None  # the counterexample's exact free-variable values


class RelationCheck:
    """A compiled relation over a sampler's space, deciding points at escalating precision."""

    def __init__(self, lhs: sp.Expr, relation: Relation, rhs: sp.Expr, sampler: Sampler):
        self.lhs, self.relation, self.rhs = lhs, relation, rhs
        self.sampler = sampler
        self.dps = sampler.dps
        self.symbols = sampler.symbols
        self.fn = compile_exprs(self.symbols, [lhs, rhs])
        self.evaluations = 0

    # -- one point, one precision ------------------------------------------------------------
    def _violation(
        self, values: Sequence[Any], dps: int, sides: Sequence[Any] | None = None
    ) -> tuple[Any, Any, Any, Any]:
        """(d, tol, lhs, rhs) at ``dps`` digits; d > tol means violated.  ``sides`` are the
        two sides already evaluated at ``dps`` (from a batch), if available."""
        self.evaluations += 1
        lhs, rhs = sides if sides is not None else evaluate(self.fn, values, dps)
        with mpmath.workdps(dps):
            if mpmath.isinf(lhs) or mpmath.isinf(rhs):
                d = _inf_violation(lhs, rhs, self.relation)
                return d, mpmath.mpf(0), lhs, rhs
            scale = max(abs(lhs), abs(rhs))
            tol = mpmath.mpf(10) ** (-(self.dps - GUARD_DIGITS)) * scale
            if self.relation is Relation.EQ:
                d = abs(lhs - rhs)
            elif self.relation.direction == 1:
                d = lhs - rhs
            else:
                d = rhs - lhs
            return d, tol, lhs, rhs

    def first_pass(self, points: Sequence[Point]) -> list[list[Any] | EvaluationError]:
        """Both sides at every point at the working precision, in one batch."""
        return evaluate_many(self.fn, [p.values for p in points], self.dps)

    def decide(
        self, values: Sequence[Any], first: list[Any] | EvaluationError | None = None
    ) -> PointResult:
        """Decide one point.

        A point is accepted at the working precision only when it holds clearly (by more
        than ``NEAR`` relative for an inequality, within the tolerance for an equality).
        Anything closer is re-decided with more digits, because rounding noise can hide a
        violation as easily as it can fake one: at 50 digits ``(exp(e) - 1)/e`` at
        ``e = 1e-30`` carries noise of 1e-20, far above a real gap of 1e-30.
        """
        if isinstance(first, EvaluationError):
            return PointResult(Status.UNDEFINED, -mpmath.inf, note=str(first))
        try:
            d, tol, lhs, rhs = self._violation(values, self.dps, first)
        except EvaluationError as exc:
            return PointResult(Status.UNDEFINED, -mpmath.inf, note=str(exc))
        scale = max(abs(lhs), abs(rhs))
        if self.relation is Relation.EQ and d <= tol:
            return PointResult(Status.OK, _relative(d, lhs, rhs), lhs, rhs)
        if self.relation is not Relation.EQ and d < -NEAR * scale:
            return PointResult(Status.OK, _relative(d, lhs, rhs), lhs, rhs)
        strict = self.relation.strict
        history = [d]
        for dps in (2 * self.dps + 10, 4 * self.dps + 20):
            try:
                d, tol, lhs, rhs = self._violation(values, dps)
            except EvaluationError as exc:
                return PointResult(Status.UNDEFINED, -mpmath.inf, note=str(exc))
            history.append(d)
            with mpmath.workdps(dps):
                tight = mpmath.mpf(10) ** (-(dps - GUARD_DIGITS)) * max(abs(lhs), abs(rhs))
                margin = _relative(d, lhs, rhs)
                if d < -tight or (d <= tol and not strict):
                    return PointResult(Status.OK, margin, lhs, rhs)
                # A violation counts only at the highest precision, stable against the
                # previous one: 1 - Phi(24.9) cancels to exactly 0 at 50 *and* 110 digits.
                if dps > 2 * self.dps + 10 and d > tol and abs(d - history[-2]) <= STABLE * abs(d):
                    return PointResult(Status.VIOLATED, margin, lhs, rhs)
        if strict and abs(d) <= tol:
            if self._exact_tie(values):
                return PointResult(
                    Status.VIOLATED, mpmath.mpf(0), lhs, rhs, "both sides are exactly equal here"
                )
            return PointResult(
                Status.TIE,
                mpmath.mpf(0),
                lhs,
                rhs,
                "equal to %d digits; exactness not shown" % (4 * self.dps),
            )
        # Still changing at 4x the digits: rounding noise around a tie, not evidence.
        return PointResult(Status.OK, mpmath.mpf(0), lhs, rhs, "tie within rounding")

    def _exact_tie(self, values: Sequence[Any]) -> bool:
        exact = {s: sp.Rational(*_as_ratio(v)) for s, v in zip(self.symbols, values, strict=True)}
        try:
            residual = (self.lhs - self.rhs).xreplace(exact)
            return prove_zero(residual) is not None
        except (TypeError, ValueError, RecursionError):
            return False

    def satisfies(self, values: Sequence[Any]) -> bool:
        return self.sampler.satisfies(values)


def confirm_with_evalf(
    lhs: sp.Expr,
    relation: Relation,
    rhs: sp.Expr,
    symbols: Sequence[sp.Symbol],
    values: Sequence[Any],
) -> bool | None:
    """Re-decide a point with SymPy's adaptive-precision evalf at the exact rational point
    (it raises its working precision through cancellation, as in 1 - Phi(24.9)).  True: the
    violation is confirmed; False: it dissolves; None: SymPy cannot evaluate the sides."""
    exact = {s: sp.Rational(*_as_ratio(v)) for s, v in zip(symbols, values, strict=True)}
    try:
        left = lhs.xreplace(exact).rewrite(sp.erfc)
        right = rhs.xreplace(exact).rewrite(sp.erfc)
        diff = (left - right).evalf(40, maxn=5000, strict=False)
        scale = max(abs(left.evalf(20)), abs(right.evalf(20)))
    except (TypeError, ValueError, ArithmeticError, RecursionError, AttributeError):
        return None
    if not (diff.is_number and diff.is_real and scale.is_number):
        return None
    tol = sp.Float(10) ** -30 * scale
    if relation is Relation.EQ:
        return bool(abs(diff) > tol)
    signed = diff if relation.direction == 1 else -diff
    return bool(signed >= -tol) if relation.strict else bool(signed > tol)


def _inf_violation(lhs: Any, rhs: Any, rel: Relation) -> Any:
    if rel is Relation.EQ:
        return mpmath.mpf(0) if lhs == rhs else mpmath.inf
    diff_sign = 0 if lhs == rhs else (1 if lhs > rhs else -1)
    if rel.direction == -1:
        diff_sign = -diff_sign
    return mpmath.inf if diff_sign > 0 or (diff_sign == 0 and rel.strict) else -mpmath.inf


def _search_margin(r: PointResult) -> Any:
    """Objective of the local search: the violation relative to ``1 + |sides|``.  Unlike the
    purely relative gap it still has a slope when one side is 0 (``0 <= g(x)``)."""
    if r.lhs is None or r.rhs is None:
        return -mpmath.inf
    scale = max(abs(r.lhs), abs(r.rhs))
    if mpmath.isinf(scale):
        return r.margin
    return r.margin * scale / (1 + scale)


def _relative(d: Any, lhs: Any, rhs: Any) -> Any:
    scale = max(abs(lhs), abs(rhs))
    if scale == 0 or mpmath.isinf(scale):
        return d if not mpmath.isinf(scale) else (mpmath.sign(d) if d != 0 else mpmath.mpf(0))
    return d / scale


def _as_ratio(v: Any) -> tuple[int, int]:
    man, exp = mpmath.mpf(v).man_exp
    if exp >= 0:
        return int(man) * 2 ** int(exp), 1
    return int(man), 2 ** int(-exp)


def fmt(v: Any, digits: int = 17) -> str:
    """A number as a short string (integers without a decimal point).  Never re-rounds the
    value to the ambient precision: ``mpmath.mpf(v)`` outside ``workdps`` would cut a
    50-digit value to a double."""
    if v is None:
        return "undefined"
    with mpmath.workdps(max(digits + 10, 30)):
        if not isinstance(v, mpmath.mpf):
            v = mpmath.mpf(v)
        if mpmath.isinf(v):
            return "oo" if v > 0 else "-oo"
        if v == mpmath.floor(v) and abs(v) < 10**15:
            return str(int(v))
        return mpmath.nstr(v, digits, strip_zeros=True)


def fmt_pair(lhs: Any, rhs: Any, max_digits: int) -> tuple[str, str]:
    """Both sides with enough digits that they visibly differ (when they do), in the same
    format, so that 1 + 1e-40 against 1 does not print as "1.0" against "1"."""
    if lhs is None or rhs is None or lhs == rhs:
        return fmt(lhs), fmt(rhs)
    digits = 20
    with mpmath.workdps(max_digits + 10):
        while True:
            a, b = mpmath.nstr(lhs, digits), mpmath.nstr(rhs, digits)
            if a != b or digits >= max_digits:
                return a, b
            digits = min(2 * digits, max_digits)


def complexity(v: Any) -> tuple[int, int]:
    """How simple ``v`` is to write: significant digits first (1 for 5e8, 9 for 500561346),
    then distance of the magnitude from 1 (1 is simpler than 0.1)."""
    with mpmath.workdps(40):
        a = abs(mpmath.mpf(v))
        text = mpmath.nstr(a, 30, strip_zeros=True).split("e")[0]
        digits = len(text.replace(".", "").strip("0")) or 1
        scale = 0 if a == 0 else abs(int(mpmath.floor(mpmath.log10(a))))
    return digits, scale


def spot_check(
    check: RelationCheck,
    points: Sequence[Point],
    *,
    search_budget: int = 300,
    seed: int = 0,
    display: Any = None,
) -> SpotOutcome:
    """Decide ``check`` on ``points``; if none violates, search for a violation; if one is
    found, shrink it.  ``display(values)`` maps a point to the variables shown to a user."""
    results: list[tuple[Point, PointResult]] = []
    for p, first in zip(points, check.first_pass(points), strict=True):
        results.append((p, check.decide(p.values, first)))
    violated = [(p, r) for p, r in results if r.status is Status.VIOLATED]
    searched = 0
    if not violated and search_budget > 0:
        found, searched = _local_search(check, results, search_budget, seed)
        if found is not None:
            violated = [found]
            results.append(found)
    undefined = sum(1 for _, r in results if r.status is Status.UNDEFINED)
    ties = sum(1 for _, r in results if r.status is Status.TIE)
    evaluated = len(results) - undefined + searched
    defined = [r.margin for _, r in results if r.status is not Status.UNDEFINED]
    worst = max(defined) if defined else None
    evidence = NumericEvidence(
        points=evaluated,
        digits=check.dps,
        undefined=undefined,
        worst_margin=("" if worst is None else f"relative gap {mpmath.nstr(worst, 3)}"),
        seed=seed,
    )
    if violated:
        point, result = min(violated, key=lambda pr: len(str(pr[0].values)))
        values, result = _shrink(check, point.values, result)
        show = (
            display(values)
            if display
            else {s.name: fmt(v) for s, v in zip(check.symbols, values, strict=True)}
        )
        lhs_text, rhs_text = fmt_pair(result.lhs, result.rhs, 4 * check.dps)
        cex = Counterexample(
            point=show, lhs=lhs_text, rhs=rhs_text, digits=check.dps, note=result.note
        )
        return SpotOutcome(Verdict.REFUTED, evidence, cex, ties, tuple(values))
    if evaluated == 0 or ties:
        return SpotOutcome(Verdict.UNDECIDED, evidence, None, ties)
    return SpotOutcome(Verdict.CHECKED, evidence, None, ties)


def _local_search(
    check: RelationCheck, results: Sequence[tuple[Point, PointResult]], budget: int, seed: int
) -> tuple[tuple[Point, PointResult] | None, int]:
    """Hill-climb toward the largest violation from the closest points found so far.
    Returns the violation found (or None) and how many valid points were evaluated."""
    rng = random.Random(seed + 7919)
    ranked = sorted(
        (pr for pr in results if pr[1].status is Status.OK),
        key=lambda pr: _search_margin(pr[1]),
        reverse=True,
    )
    starts = ranked[: max(1, min(6, len(ranked)))]
    if not starts:
        return None, 0
    evaluated = 0
    per_start = max(1, budget // len(starts))
    free = check.sampler.space.free
    for start, res in starts:
        values, margin = list(start.values), _search_margin(res)
        sigma = 1.0
        for _ in range(per_start):
            cand = list(values)
            i = rng.randrange(len(cand)) if cand else 0
            if not cand:
                break
            cand[i] = _perturb(cand[i], free[i].domain.kind, sigma, rng)
            if rng.random() < 0.3 and len(cand) > 1:
                j = rng.randrange(len(cand))
                cand[j] = _perturb(cand[j], free[j].domain.kind, sigma, rng)
            if not check.satisfies(cand):
                sigma = max(sigma * 0.7, 1e-6)
                continue
            r = check.decide(cand)
            evaluated += 1
            if r.status is Status.VIOLATED:
                return (Point(tuple(cand), "search"), r), evaluated
            if r.status is Status.OK and _search_margin(r) > margin:
                values, margin = cand, _search_margin(r)
                sigma = min(sigma * 1.5, 4.0)
            else:
                sigma = max(sigma * 0.85, 1e-6)
    return None, evaluated


def _perturb(v: Any, kind: str, sigma: float, rng: random.Random) -> Any:
    with mpmath.workdps(max(60, mpmath.mp.dps)):
        r = rng.random()
        if kind == "integer":
            if r < 0.5:
                return v + rng.choice((-1, 1)) * max(1, int(abs(v) * sigma * rng.random()))
            return mpmath.floor(v * mpmath.exp(rng.gauss(0, sigma)) + mpmath.mpf("0.5"))
        if r < 0.6:
            return v * mpmath.exp(rng.gauss(0, sigma))
        if r < 0.9:
            return v + rng.gauss(0, sigma) * max(abs(v), mpmath.mpf(1))
        return -v


def _simple_candidates(v: Any, kind: str, dps: int) -> list[Any]:
    with mpmath.workdps(dps):
        return _candidates(v, kind)


def _candidates(v: Any, kind: str) -> list[Any]:
    out = [mpmath.mpf(c) for c in (0, 1, -1, 2, "0.5", 10)]
    if True:
        out.append(mpmath.nint(v))
        if v != 0 and not mpmath.isinf(v):
            mag = mpmath.floor(mpmath.log10(abs(v)))
            for sig in (1, 2, 3):
                unit = mpmath.mpf(10) ** (mag - sig + 1)
                out.append(mpmath.nint(v / unit) * unit)
            out.append(mpmath.sign(v) * mpmath.mpf(10) ** mag)
            out.append(mpmath.sign(v) * mpmath.mpf(10) ** (mag + 1))
    if kind == "integer":
        out = [mpmath.nint(c) for c in out]
    # exact decimal values: rebuild from their short strings
    cleaned = []
    for c in out:
        s = mpmath.nstr(c, 4)
        cleaned.append(mpmath.mpf(s))
    return cleaned


def _shrink(
    check: RelationCheck, values: Sequence[Any], result: PointResult, passes: int = 3
) -> tuple[list[Any], PointResult]:
    """Replace coordinates by simpler numbers while the violation persists."""
    current = list(values)
    free = check.sampler.space.free
    for _ in range(passes):
        changed = False
        for i in range(len(current)):
            for c in _simple_candidates(current[i], free[i].domain.kind, check.dps):
                if c == current[i] or complexity(c) >= complexity(current[i]):
                    continue
                cand = list(current)
                cand[i] = c
                if not check.satisfies(cand):
                    continue
                r = check.decide(cand)
                if r.status is Status.VIOLATED:
                    current, result, changed = cand, r, True
                    break
        if not changed:
            break
    return current, result
