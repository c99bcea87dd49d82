"""Sums over integer ranges (finite, half-lines, all of Z) as Arb balls, for every parameter
in a box.

The range is cut at the kinks of the summand (zeros of the arguments of ``Abs``, ``sign``,
``Heaviside``, ``Max``/``Min`` differences; :func:`numeric_checks.integrals.analyse`, taken at
the box's midpoint): the few integers next to a kink are summed term by term, and each piece
between them is one smooth stretch.  On a piece the mass is located first (the largest term,
found by doubling and bisection on the terms' sizes at the box's midpoint: a Poisson law at
lam = 10^6 peaks a million terms out), then a window ``[L, R]`` around it grows by doublings
until what lies outside is bounded by a proved inequality below the goal:

* an infinite side: the ratio test with an explicit bound (:mod:`~numeric_checks.rigorous.
  ratios`) or a geometric envelope (:mod:`~numeric_checks.rigorous.envelopes`), on the
  summand with its kinks resolved on the ray;
* a finite side: the same bounds, which bound the longer, infinite, sum of absolute values.

Inside the window the terms are summed as balls when there are at most :data:`DIRECT` of
them; a wider window (the discrete Gaussian at sigma = 10^6) is summed by the Euler-Maclaurin
formula with a proved remainder (:mod:`~numeric_checks.rigorous.euler_maclaurin`), after
summing directly a head of terms where the derivatives are too large.  Where none of this
holds, :class:`Unsupported` says which part failed and why.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import sympy as sp
from flint import acb, arb

from numeric_checks.arb import compile_arb
from numeric_checks.prepare import prepared
from numeric_checks.rigorous import work
from numeric_checks.rigorous.envelopes import tail_bound
from numeric_checks.rigorous.euler_maclaurin import euler_maclaurin
from numeric_checks.rigorous.quadrature import TAIL_VARIABLE, _reflected, box_goal
from numeric_checks.rigorous.ratios import range_ratio, ratio_function, ratio_test
from numeric_checks.rigorous.signs import resolve
from numeric_checks.rigorous.taylor import compile_taylor
from symbolic.errors import Unsupported

__all__ = ["DIRECT", "TERM_CAP", "WideEnd", "sum_ball"]

DIRECT = 2048
"""Terms summed one by one in a window before Euler-Maclaurin is tried."""
TERM_CAP = 100_000
"""Terms summed one by one at most, where Euler-Maclaurin does not apply (a work count)."""
REFRESH = 64
"""Terms between two direct evaluations when terms are summed by their ratio."""
DOUBLINGS = 200
"""How far a window grows: up to ``2^200`` terms from the peak."""
KINK_MARGIN = 2
"""Integers on either side of a kink summed term by term."""
BOUND_TRIES = 8
"""Doublings past the point where the terms are negligible at which a tail bound is still
sought before the side is given up."""
"""Integers on either side of a kink summed term by term."""


class WideEnd(ArithmeticError):
    """A bound of the sum is not one integer on the box (it depends on a wide parameter):
    no enclosure on this box, though a smaller one may have one."""


def sum_ball(
    node: sp.Sum,
    symbols: Sequence[sp.Symbol],
    balls: Sequence[Any],
    compiler: Callable[[Sequence[sp.Symbol], Sequence[sp.Expr]], Any] | None = None,
) -> tuple[Any, str]:
    """The Arb ball of ``node`` (one index) for every value of ``symbols`` in ``balls``, at
    the current precision, and how it was obtained.  ``compiler`` compiles the term (one
    that encloses sums and integrals inside it, from
    :mod:`~numeric_checks.rigorous.calculus`; the extended Arb bridge by default)."""
    if len(node.limits) != 1:
        raise Unsupported("a Sum over several indices is not enclosed")
    k, a, b = node.limits[0]
    params = tuple(s for s in symbols if s != k)
    values = tuple(v for s, v in zip(symbols, balls, strict=True) if s != k)
    lo = None if a is sp.S.NegativeInfinity else _end(a, params, values, ceil=True)
    hi = None if b is sp.S.Infinity else _end(b, params, values, ceil=False)
    if lo is not None and hi is not None and hi < lo:
        return arb(0), "an empty sum"
    terms = _Terms(prepared(node.function), k, params, values, compiler)
    total, hows = arb(0), set()
    for u, v in terms.pieces(lo, hi):
        value, how = terms.piece(u, v)
        total += value
        hows.add(how)
    return total, "; ".join(sorted(hows))


def _end(e: sp.Expr, params: Sequence[sp.Symbol], values: Sequence[Any], *, ceil: bool) -> int:
    if e.free_symbols - set(params):
        raise Unsupported(f"a Sum's bound {e} is not a number at the point")
    ball = compile_arb(list(params), [e], extended=True)(*values)[0]
    if not ball.is_finite():
        raise Unsupported(f"a Sum's bound {e} is not finite at the point")
    lo, hi = ball.lower(), ball.upper()
    ends = (lo.ceil(), hi.ceil()) if ceil else (lo.floor(), hi.floor())
    if ends[0] != ends[1]:
        raise WideEnd(f"a Sum's bound {e} is not one integer on the box")
    return int(ends[0].unique_fmpz())


class _Terms:
    """The summand with the box fixed: its terms, kinks, peak, tails and windows."""

    def __init__(
        self,
        term: sp.Expr,
        k: sp.Symbol,
        params: tuple[sp.Symbol, ...],
        values: tuple,
        compiler: Callable[[Sequence[sp.Symbol], Sequence[sp.Expr]], Any] | None = None,
    ) -> None:
        self.term, self.k, self.params, self.values = term, k, params, values
        if compiler is None:
            self.fn = compile_arb([*params, k], [term], extended=True)
        else:
            self.fn = compiler((*params, k), (term,))
        self.mids = [arb(v.mid()) for v in values]
        self.goal = box_goal(values)

    def t(self, i: int) -> Any:
        work.add()
        return self.fn(*self.values, arb(i))[0]

    def size(self, i: int) -> float:
        """``log2 |t(i)|`` at the box's midpoint (-inf where 0 or undefined)."""
        try:
            v = abs(self.fn(*self.mids, arb(i))[0])
        except (ValueError, ZeroDivisionError, ArithmeticError):
            return float("-inf")
        if not v.is_finite() or not v > 0:
            return float("-inf")
        return float(v.log().mid()) / 0.6931471805599453

    def direct(self, u: int, v: int) -> Any:
        """``t(u) + ... + t(v)`` as balls: each term from the one before by the simplified
        ratio ``t(k + 1) = t(k) (t(k + 1)/t(k))`` (a few operations instead of a gamma
        function), evaluated afresh every :data:`REFRESH` terms and wherever the ratio is
        not finite (a zero term), so that the balls stay narrow."""
        ratio = None
        if v - u >= REFRESH and not self.term.has(sp.Sum, sp.Integral, sp.Product):
            ratio = ratio_function(self.term, self.k, 1, self.params)
        total, previous = arb(0), None
        for i in range(u, v + 1):
            value = None
            if previous is not None and ratio is not None and (i - u) % REFRESH:
                work.add()
                step = ratio(*self.values, arb(i - 1))[0]
                if step.is_finite():
                    value = previous * step
            if value is None:
                value = self.t(i)
            total += value
            previous = value
        return total

    # -- where the mass is -----------------------------------------------------------------

    def pieces(self, lo: int | None, hi: int | None) -> list[tuple[int | None, int | None]]:
        """The range cut at its kinks: ``[u, v]`` pieces, the integers next to each kink a
        piece of their own."""
        from numeric_checks.rigorous.quadrature import _breakpoint_fn

        cuts: set[int] = set()
        fn = _breakpoint_fn(self.term, self.k, self.params)
        found = fn(*self.mids) if fn is not None else []
        for c in found:
            if c.is_finite() and abs(c.mid()) < 2**62:
                f = int(c.mid().floor().unique_fmpz())
                cuts.update(range(f - KINK_MARGIN + 1, f + KINK_MARGIN + 1))
        inside = sorted(c for c in cuts if (lo is None or c >= lo) and (hi is None or c <= hi))
        out: list[tuple[int | None, int | None]] = []
        start = lo
        for c in inside:
            if start is None or c > start:
                out.append((start, c - 1))
            out.append((c, c))
            start = c + 1
        if hi is None or start is None or start <= hi:
            out.append((start, hi))
        return out

    def peak(self, u: int | None, v: int | None) -> int:
        """The index of the largest term of ``[u, v]`` at the box's midpoint: uphill from the
        start by doubling steps, then bisection (the terms this is for rise to one peak and
        fall: Poisson, binomial and Gaussian weights)."""
        start = u if u is not None else v if v is not None else 0
        for step in (1, -1):
            end = v if step > 0 else u

            def growing(i: int, step: int = step) -> bool:
                return _inside(i + step, u, v) and self.size(i + step) > self.size(i)

            if not growing(start):
                continue
            near, reach = start, 1
            far = start
            for _ in range(DOUBLINGS):
                far = start + step * reach
                if not _inside(far, u, v):
                    assert end is not None
                    far = end
                    break
                if not growing(far):
                    break
                near, reach = far, 2 * reach
            while abs(far - near) > 1:
                mid = (near + far) // 2
                if growing(mid):
                    near = mid
                else:
                    far = mid
            return far
        return start

    # -- the piece as a whole ----------------------------------------------------------------

    def piece(self, u: int | None, v: int | None) -> tuple[Any, str]:
        if u is not None and v is not None and v - u < DIRECT:
            return self.direct(u, v), "terms summed as Arb balls"
        p = self.peak(u, v)
        scale = arb(2) ** int(max(self.size(p), -(10**6)))
        target = self.goal * scale
        left, left_tail = self._side(p, u, -1, target)
        right, right_tail = self._side(p, v, 1, target)
        window, how = self._window(left, right, target)
        tails = left_tail + right_tail
        if tails.is_zero():
            return window, how
        return window + arb(0).union(tails).union(-tails), how + " with proved tail bounds"

    def _side(self, p: int, end: int | None, step: int, target: Any) -> tuple[int, Any]:
        """The window's end on one side of the peak and the proved bound on what lies beyond
        it (0 when the window reaches ``end``)."""
        reach = 1
        why = "no tail bound"
        floor = float(target.log().mid()) / 0.6931471805599453
        tries = 0
        for _ in range(DOUBLINGS):
            edge = p + step * reach
            if end is not None and (edge - end) * step >= 0:
                return end, arb(0)
            reach *= 2
            if self.size(edge) > floor:
                continue  # no bound can be below the goal while the terms are not
            bound, why = self._beyond(edge, step, end)
            if bound is not None and bound < target:
                return edge - step, bound
            tries += 1
            if tries > BOUND_TRIES:
                break  # the terms are negligible here and still no bound: none will come
        side = "upper" if step > 0 else "lower"
        raise Unsupported(f"no proved bound on the {side} tail of the Sum: {why}")

    def _beyond(self, edge: int, step: int, end: int | None) -> tuple[Any | None, str]:
        """A bound on ``sum |t(k)|`` for ``k`` from ``edge`` on, in direction ``step`` (up
        to ``end`` where it is finite)."""
        start = arb(edge)
        if end is not None:
            # A finite stretch: the ratio over the stretch only, kinks resolved on it.
            ball = arb(edge).union(arb(end))
            try:
                smooth = resolve(self.term, self.k, 0, self.params, self.values, ball)
            except Unsupported:
                smooth = None
            if smooth is not None:
                r = range_ratio(smooth, self.k, step, self.params, self.values, edge, end - step)
                if r is not None:
                    return abs(self.t(edge)).upper() / (1 - r), ""
        try:
            smooth = resolve(self.term, self.k, step, self.params, self.values, start)
        except Unsupported as exc:
            return None, str(exc)
        test = ratio_test(smooth, self.k, step, self.params)
        if test is not None:
            r = test.bound(self.values, start)
            if r is not None:
                return abs(self.t(edge)).upper() / (1 - r), ""
        if step * edge > 0:
            y = TAIL_VARIABLE
            try:
                env = tail_bound(_reflected(smooth, self.k, step), y, self.params)
                bound = env.bound(self.values, arb(step * edge), discrete=True)
            except Unsupported as exc:
                return None, str(exc)
            if bound is not None:
                return bound, ""
        return None, "neither the ratio test nor a geometric envelope holds"

    def _window(self, left: int, right: int, target: Any) -> tuple[Any, str]:
        if right - left < DIRECT:
            return self.direct(left, right), "terms summed as Arb balls"
        affordable = right - left < TERM_CAP
        head = 0
        while head < DIRECT and left + head < right:
            # Where the terms could be summed one by one, one cheap attempt only: a term
            # whose Taylor balls blow up (a Poisson weight, lam^k/k!) never gets there.
            found = self._euler_maclaurin(left + head, right, target, cheap=affordable)
            if found is None and affordable:
                break
            if found is not None:
                how = "Euler-Maclaurin with a proved remainder"
                if head:
                    how += f" after {head} terms summed as Arb balls"
                return self.direct(left, left + head - 1) + found, how
            head = 64 if head == 0 else 2 * head
        if right - left < TERM_CAP:
            return self.direct(left, right), "terms summed as Arb balls"
        raise Unsupported(
            f"a Sum whose mass spreads over {right - left + 1} terms, where Euler-Maclaurin's "
            "remainder is not shown small"
        )

    def _euler_maclaurin(self, a: int, b: int, target: Any, *, cheap: bool) -> Any | None:
        from numeric_checks.rigorous.integrands import compile_integrand, guarded_integral
        from numeric_checks.rigorous.quadrature import eval_limit

        try:
            taylor = compile_taylor(self.k, self.params, self.term)
            f = compile_integrand((self.k, *self.params), self.term)
        except Unsupported:
            return None
        fixed = [acb(v) for v in self.values]

        def integrand(x: Any, analytic: bool) -> Any:
            from numeric_checks.rigorous.integrands import Analytic

            work.add()
            Analytic.on = bool(analytic)
            try:
                return f(x, *fixed)
            finally:
                Analytic.on = False

        def integral(lo: int, hi: int) -> Any:
            value = guarded_integral(
                integrand, acb(lo), acb(hi), rel_tol=self.goal, abs_tol=target,
                eval_limit=eval_limit(self.goal),
            )  # fmt: skip
            if not value.is_finite():
                raise Unsupported("Arb quadrature gave no finite enclosure of a Sum's integral")
            return value.real

        return euler_maclaurin(taylor, integral, a, b, self.values, target, cheap=cheap)


def _inside(i: int, u: int | None, v: int | None) -> bool:
    return (u is None or i >= u) and (v is None or i <= v)
