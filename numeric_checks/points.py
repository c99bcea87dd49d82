"""Deciding one relation ``lhs REL rhs`` at one point, at escalating precision.

Deciding a point: the signed violation ``d`` (``lhs - rhs`` for ``<=``, ``|lhs - rhs|`` for ``=``)
is compared with a tolerance tied to the working precision, relative to the sides' magnitude.
A point that seems to violate is re-evaluated with more digits, and only a violation that
persists *and is stable* across precisions counts: rounding noise from cancellation shrinks as
digits are added, a real violation does not.  A strict relation that ties at every precision
is refuted only if SymPy shows the residual is exactly zero at the (exact, rational) point.

Each side is compiled on its own and its values at the plan's points are kept per plan
(:class:`SideValues`): the links of a chain share sides, so each side is evaluated once per
point and precision, not once per link that has it.

The search over many points and the shrinking of a counterexample are in
:mod:`numeric_checks.search`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

import mpmath
import sympy as sp

from numeric_checks.bridge import compile_exprs, evaluate, evaluate_many
from numeric_checks.budget import EXPENSIVE_DPS, expensive
from numeric_checks.exact_eval import exact_value
from numeric_checks.exact_points import exact_number
from numeric_checks.sampling import Point, Sampler
from symbolic.errors import EvaluationError
from symbolic.exact_numbers import evaluable
from symbolic.exact_numbers import exact_sign as constant_sign
from symbolic.relations import Relation
from symbolic.tactics import prove_zero

JUMPS = (sp.floor, sp.ceiling, sp.frac, sp.sign, sp.Heaviside, sp.Piecewise, sp.Mod)
"""Functions whose value jumps: decided exactly at coordinates standing for exact numbers."""
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
    deferred: bool = False
    """An equality agreeing within the working precision's tolerance, not yet re-decided
    with more digits (``decide(..., defer=True)``)."""


Side = Callable[..., list[Any]]
"""One side of a relation, compiled (:func:`~numeric_checks.bridge.compile_exprs`)."""


class SideValues:
    """The values of compiled sides at a plan's points, per precision, shared by the links
    of that plan: link i's right side is link i+1's left side, and the conclusion's sides are
    the chain's ends, so a side is evaluated once per point and precision instead of once per
    link that has it (a chain of k links: k + 1 sides evaluated, not 2k + 2).  The values are
    those the compiled side gives at that point and precision, whoever asks first: the
    evaluation is deterministic, so reusing them changes no decision.

    Entries are keyed by the identities of the compiled side (``compile_exprs`` returns the
    same function for the same expression) and of the point's values tuple (the plan's points
    are the same tuples for every link); each entry holds both objects, so neither identity
    can be reused while the entry stands.  Only the plan's points are kept: the local search
    and the shrinking visit points no other link visits."""

    def __init__(self) -> None:
        self._values: dict[tuple[int, int, int], tuple[Side, tuple[Any, ...], Any]] = {}

    def __len__(self) -> int:
        return len(self._values)

    def get(self, fn: Side, values: tuple[Any, ...], dps: int) -> Any:
        """The value remembered (or the :class:`EvaluationError` it raised), else None."""
        entry = self._values.get((id(fn), id(values), dps))
        if entry is None or entry[0] is not fn or entry[1] is not values:
            return None
        return entry[2]

    def put(self, fn: Side, values: tuple[Any, ...], dps: int, value: Any) -> None:
        self._values[(id(fn), id(values), dps)] = (fn, values, value)


class RelationCheck:
    """A compiled relation over a sampler's space, deciding points at escalating precision.
    ``shared``: where the values of its sides at the plan's points are kept (see
    :class:`SideValues`); None: nothing is kept."""

    def __init__(
        self,
        lhs: sp.Expr,
        relation: Relation,
        rhs: sp.Expr,
        sampler: Sampler,
        shared: SideValues | None = None,
    ):
        self.lhs, self.relation, self.rhs = lhs, relation, rhs
        self.sampler = sampler
        self.symbols = sampler.symbols
        # Each side on its own, so that links sharing a side share its compiled function
        # (compiled once) and its values (evaluated once per point, see SideValues).
        self.sides = (compile_exprs(self.symbols, [lhs]), compile_exprs(self.symbols, [rhs]))
        self.shared = shared
        # Every evaluation of an integral or a long sum is a quadrature or thousands of
        # terms: such links are decided at fewer digits with a shorter escalation ladder
        # (30 -> 50 -> 70 instead of 50 -> 110 -> 220), which still separates rounding
        # noise from a violation, and on fewer points (numeric_checks.search).
        self.expensive = expensive(lhs, rhs)
        self.dps = min(sampler.dps, EXPENSIVE_DPS) if self.expensive else sampler.dps
        self.ladder = (
            (self.dps + 20, 2 * self.dps + 10)
            if self.expensive
            else (2 * self.dps + 10, 4 * self.dps + 20)
        )
        # Functions that jump: at a coordinate standing for an exact number (a boundary
        # x = sqrt(2)) no precision decides ceiling(x**2), SymPy does (issue 38).
        self.jumps = lhs.has(*JUMPS) or rhs.has(*JUMPS)

    # -- one point, one precision ------------------------------------------------------------
    def _side(self, fn: Side, values: Sequence[Any], dps: int, keep: bool) -> Any:
        """One side at one point; with ``keep`` (a plan point) its value is looked up in and
        kept in the shared values.  Raises :class:`EvaluationError` where it is undefined."""
        if keep and self.shared is not None and isinstance(values, tuple):
            value = self.shared.get(fn, values, dps)
            if value is None:
                try:
                    value = evaluate(fn, values, dps)[0]
                except EvaluationError as exc:
                    value = exc
                self.shared.put(fn, values, dps, value)
        else:
            value = evaluate(fn, values, dps)[0]
        if isinstance(value, EvaluationError):
            raise value
        return value

    def _violation(
        self,
        values: Sequence[Any],
        dps: int,
        sides: Sequence[Any] | None = None,
        keep: bool = False,
    ) -> tuple[Any, Any, Any, Any]:
        """(d, tol, lhs, rhs) at ``dps`` digits; d > tol means violated.  ``sides`` are the
        two sides already evaluated at ``dps`` (from a batch), if available; ``keep``: the
        point is one of the plan's (see :meth:`_side`)."""
        if sides is not None:
            lhs, rhs = sides
        else:
            lhs = self._side(self.sides[0], values, dps, keep)
            rhs = self._side(self.sides[1], values, dps, keep)
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
        """Both sides at every point at the working precision, in one batch per side (only
        the values not already in the shared ones are computed, then kept there).  A point
        where a side is undefined yields that side's :class:`EvaluationError` (the left
        side's when both are)."""
        lhs, rhs = (self._many(fn, points) for fn in self.sides)
        return [
            a if isinstance(a, EvaluationError) else b if isinstance(b, EvaluationError) else [a, b]
            for a, b in zip(lhs, rhs, strict=True)
        ]

    def _many(self, fn: Side, points: Sequence[Point]) -> list[Any]:
        """One side at every point at the working precision: a value or an error each."""
        shared = self.shared
        if shared is None:
            found: list[Any] = [None] * len(points)
        else:
            found = [shared.get(fn, p.values, self.dps) for p in points]
        missing = [i for i, v in enumerate(found) if v is None]
        if missing:
            fresh = evaluate_many(fn, [points[i].values for i in missing], self.dps)
            for i, v in zip(missing, fresh, strict=True):
                value = v if isinstance(v, EvaluationError) else v[0]
                found[i] = value
                if shared is not None:
                    shared.put(fn, points[i].values, self.dps, value)
        return found

    def decide(
        self,
        values: Sequence[Any],
        first: list[Any] | EvaluationError | None = None,
        *,
        keep: bool = False,
        quick: bool = False,
        defer: bool = False,
    ) -> PointResult:
        """Decide one point.

        A point is accepted at the working precision only when an inequality holds clearly
        (by more than ``NEAR`` relative).  Anything closer -- every equality, and every tie
        of an inequality -- is re-decided with more digits, because rounding noise can hide
        a violation as easily as it can fake one: at 50 digits ``(exp(e) - 1)/e`` at
        ``e = 1e-30`` carries noise of 1e-20, far above a real gap of 1e-30, and
        ``x + 10**-45 = x`` agrees to all 50 digits while false everywhere.  At each rung of
        the ladder the point passes only within that rung's own rounding (``tight``), and a
        gap above it that is stable across the last two rungs is a violation.
        ``keep``: ``values`` is one of the plan's points (its sides' values are shared with
        the other links, :class:`SideValues`).  ``quick``: a step of the local search, which
        climbs toward a violation: an equality agreeing within the working precision's
        tolerance is a step that found nothing, not evidence, and is not re-decided (every
        plan point is).  ``defer``: such an equality is returned ``deferred``, for the
        caller to re-decide unless a proof settles the link (:func:`numeric_checks.search.
        spot_check`).
        """
        if isinstance(first, EvaluationError):
            return PointResult(Status.UNDEFINED, -mpmath.inf, note=str(first))
        if self.jumps and any(getattr(v, "exact", None) is not None for v in values):
            decided = self._decide_exactly(values)
            if decided is not None:
                return decided
        try:
            d, tol, lhs, rhs = self._violation(values, self.dps, first, keep)
        except EvaluationError as exc:
            return PointResult(Status.UNDEFINED, -mpmath.inf, note=str(exc))
        scale = max(abs(lhs), abs(rhs))
        if self.relation is not Relation.EQ and d < -NEAR * scale:
            return PointResult(Status.OK, _relative(d, lhs, rhs), lhs, rhs)
        if (quick or defer) and self.relation is Relation.EQ and d <= tol:
            margin = _relative(d, lhs, rhs)
            return PointResult(Status.OK, margin, lhs, rhs, deferred=defer and not quick)
        strict = self.relation.strict
        history = [d]
        for dps in self.ladder:
            try:
                d, tol, lhs, rhs = self._violation(values, dps, keep=keep)
            except EvaluationError as exc:
                return PointResult(Status.UNDEFINED, -mpmath.inf, note=str(exc))
            history.append(d)
            with mpmath.workdps(dps):
                tight = mpmath.mpf(10) ** (-(dps - GUARD_DIGITS)) * max(abs(lhs), abs(rhs))
                margin = _relative(d, lhs, rhs)
                # A non-strict inequality's tie on the wrong side (0 < d <= tight) climbs
                # to the next rung: E summed at 30 digits is 5e-46 below E, within the
                # 50-digit rung's rounding (weak-e-series-digits was checked).  Equalities
                # agree within rounding at every point; they pass here as before.
                settled = d <= 0 or self.relation is Relation.EQ or dps == self.ladder[-1]
                if d < -tight or (d <= tight and not strict and settled):
                    return PointResult(Status.OK, margin, lhs, rhs)
                # A violation counts only at the highest precision, stable against the
                # previous one: 1 - Phi(24.9) cancels to exactly 0 at 50 *and* 110 digits.
                if dps == self.ladder[-1] and d > tight and abs(d - history[-2]) <= STABLE * abs(d):
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
                "equal to %d digits; exactness not shown" % self.ladder[-1],
            )
        # Still changing at 4x the digits: rounding noise around a tie, not evidence.
        return PointResult(Status.OK, mpmath.mpf(0), lhs, rhs, "tie within rounding")

    def _decide_exactly(self, values: Sequence[Any]) -> PointResult | None:
        """The point decided by SymPy at its exact coordinates (:mod:`numeric_checks.
        exact_eval`), the residual's sign shown exactly or by an Arb ball; None where that
        cannot be done (the numeric ladder then decides)."""
        from numeric_checks.confirm import exact_sign  # python-flint, on demand

        try:
            point = {s: exact_number(v) for s, v in zip(self.symbols, values, strict=True)}
        except ValueError:
            return None
        sides = [exact_value(side, point).value for side in (self.lhs, self.rhs)]
        if sides[0] is None or sides[1] is None:
            return None
        sign = exact_sign(sides[0] - sides[1])
        if sign is None:
            return None
        # Phi and our other functions through SymPy's own (sp.N leaves Phi(1) as it is).
        shown = [sp.N(evaluable(v), self.dps + 10) for v in sides]
        if not all(isinstance(v, sp.Float) for v in shown):
            return None
        lhs, rhs = (mpmath.mpf(v._mpf_) for v in shown)
        held = {
            Relation.EQ: sign == 0,
            Relation.LE: sign <= 0,
            Relation.LT: sign < 0,
            Relation.GE: sign >= 0,
            Relation.GT: sign > 0,
        }[self.relation]
        if held:
            return PointResult(Status.OK, _relative(-abs(lhs - rhs), lhs, rhs), lhs, rhs)
        margin = _relative(abs(lhs - rhs), lhs, rhs)
        return PointResult(Status.VIOLATED, margin, lhs, rhs, "decided exactly by SymPy here")

    def _exact_tie(self, values: Sequence[Any]) -> bool:
        """The sides are equal at the exact point.  A constant residual is decided by its
        checked enclosure first (``constant_sign``: a nonzero one at once, a zero by SymPy's
        zero test and rewriting): the tactics' ladder on ``tanh(a) - tanh(b)`` at two
        rationals of 60 digits rewrote both in ``exp`` and ran for minutes."""
        try:
            exact = {s: exact_number(v) for s, v in zip(self.symbols, values, strict=True)}
            residual = (self.lhs - self.rhs).xreplace(exact)
            if residual.is_number and not residual.has(sp.Sum, sp.Product, sp.Integral):
                return constant_sign(residual) == 0
            return prove_zero(residual) is not None
        except (TypeError, ValueError, RecursionError, ArithmeticError):  # NotExact: ValueError
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
    try:
        exact = {s: exact_number(v) for s, v in zip(symbols, values, strict=True)}
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


def _relative(d: Any, lhs: Any, rhs: Any) -> Any:
    scale = max(abs(lhs), abs(rhs))
    if scale == 0 or mpmath.isinf(scale):
        return d if not mpmath.isinf(scale) else (mpmath.sign(d) if d != 0 else mpmath.mpf(0))
    return d / scale


def fmt(v: Any, digits: int = 17) -> str:
    """A number as a short string (integers without a decimal point).  Never re-rounds the
    value to the ambient precision: ``mpmath.mpf(v)`` outside ``workdps`` would cut a
    50-digit value to a double."""
    if v is None:
        return "undefined"
    exact = getattr(v, "exact", None)
    if exact is not None:  # a coordinate standing for an exact number: shown as it
        return str(exact)
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
