"""Rigorous Arb enclosures of expressions with sums and integrals, at one point.

Used to confirm a counterexample (:mod:`numeric_checks.confirm`).  A ``Sum`` is enclosed as
the sum of its terms' balls, plus for an infinite range a proved tail bound: past the point
``N`` where the terms are negligible the term ratio ``t(k+1)/t(k)`` is written
``exp(A(k)) R(k)`` with ``A`` a polynomial and ``R = P/Q`` rational in ``k``; if every
coefficient of ``A(N+u) - A(N)`` in ``u`` is ``<= 0`` and ``rho Q(N+u) -+ P(N+u)`` have
nonnegative coefficients (``Q > 0``), then ``|t(k+1)/t(k)| <= r = exp(A(N)) rho < 1`` for
every ``k >= N`` and the tail is at most ``|t(N)|/(1 - r)`` (the ratio test with an explicit
bound, Knopp 1990, Theory and Application of Infinite Series, section 13).  A ``Sum`` or an
``Integral`` that cannot be enclosed so is evaluated by SymPy at the exact point (``doit``,
time-bounded) and its closed form substituted symbolically, so that what it shares with the
rest of the expression cancels exactly.  Anything else raises :class:`Unsupported`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import sympy as sp

from numeric_checks.budget import BudgetSpent, time_limit
from numeric_checks.prepare import prepared
from symbolic.errors import Unsupported

__all__ = ["CLOSED_FORM", "DOIT_SECONDS", "TERM_CAP", "enclose"]

CLOSED_FORM = "SymPy's closed form of "
"""How a note says a Sum or an Integral was replaced by SymPy's closed form at the point
(not a proved enclosure of the node: SymPy can be wrong, so a ruling that rests on it is
cross-checked against the sampled evaluation, :func:`numeric_checks.confirm.confirm_violation`)."""

TERM_CAP = 20_000
"""Terms enclosed one by one per ``Sum`` (a work count, so the outcome never depends on
the machine's load); a longer sum is enclosed through SymPy's closed form or not at all."""
DOIT_SECONDS = 20.0
"""Wall time SymPy may spend on one ``Sum``/``Integral`` at the exact point (the only
load-dependent bound here: an integral with no term-wise enclosure is confirmed through
SymPy's closed form or not at all)."""


def enclose(
    expr: sp.Expr,
    symbols: Sequence[sp.Symbol],
    balls: Sequence[Any],
    exact: dict[sp.Symbol, sp.Rational],
    notes: list[str] | None = None,
) -> Any:
    """The Arb ball of ``expr`` at ``balls`` (the values of ``symbols``; ``exact`` the same
    point as rationals, for SymPy), at the current Arb precision; ``notes`` collects how
    integrals were enclosed.  Raises :class:`Unsupported` where no rigorous enclosure is
    known."""
    from numeric_checks.arb import compile_arb

    expr = prepared(expr)
    nodes = _outermost(expr)
    if not nodes:
        return compile_arb(list(symbols), [expr], extended=True)(*balls)[0]
    closed: dict[sp.Basic, sp.Expr] = {}
    enclosed: list[tuple[sp.Expr, Any]] = []
    for node in nodes:
        # Only the node's free symbols: a declared variable that is also the node's bound
        # index (x in Integral(f(x), (x, a, b)), k in Sum(t(k), (k, 0, oo))) must not be
        # substituted into it, by the term-wise enclosure or by SymPy's closed form.
        free = node.free_symbols
        point = {s: v for s, v in exact.items() if s in free}
        try:
            enclosed.append((node, _enclose_node(node, symbols, balls, point, notes)))
        except Unsupported as exc:
            # SymPy's closed form at the point, substituted symbolically so that what it
            # shares with the rest cancels exactly (exp(x) - exp(x) at x = 1e30).
            form = _doit(node, tuple(sorted(point.items(), key=lambda kv: kv[0].name)))
            if form is None:
                raise Unsupported(f"{exc}, and SymPy finds no closed form at the point") from exc
            closed[node] = form
            if notes is not None:
                notes.append(f"{CLOSED_FORM}{_short(node)}")
    stand_ins = [sp.Symbol(f"_enclosed{i}") for i in range(len(enclosed))]
    reduced = expr.xreplace({n: s for (n, _), s in zip(enclosed, stand_ins, strict=True)})
    if closed:
        reduced = prepared(reduced.xreplace(closed).xreplace(exact))
    if _outermost(reduced):
        raise Unsupported("a Sum or an Integral is left after enclosing its parts")
    fn = compile_arb([*symbols, *stand_ins], [reduced], extended=True)
    return fn(*balls, *[b for _, b in enclosed])[0]


def _short(node: sp.Expr) -> str:
    text = str(node)
    return text if len(text) <= 60 else text[:57] + "..."


def _outermost(expr: sp.Expr) -> list[sp.Expr]:
    found: list[sp.Expr] = []

    def walk(e: sp.Basic) -> None:
        if isinstance(e, sp.Sum | sp.Product | sp.Integral):
            if e not in found:
                found.append(e)  # type: ignore[arg-type]
            return
        for a in e.args:
            walk(a)

    walk(expr)
    return found


_FAILED: dict[tuple[sp.Basic, tuple[Any, ...]], str] = {}
"""Sums whose term-by-term enclosure failed at a point (structural: the same at every
precision), so that the precision ladder does not retry 20 000 terms per rung."""


def _enclose_node(
    node: sp.Expr,
    symbols: Sequence[sp.Symbol],
    balls: Sequence[Any],
    exact: dict[sp.Symbol, sp.Rational],
    notes: list[str] | None = None,
) -> Any:
    if isinstance(node, sp.Integral):
        from numeric_checks.quadrature import integral_ball

        value, how = integral_ball(node, symbols, balls, exact)
        if notes is not None:
            notes.append(how)
        return value
    if not (isinstance(node, sp.Sum | sp.Product) and len(node.limits) == 1):
        raise Unsupported(f"no rigorous enclosure for {type(node).__name__} by terms")
    key = (node, tuple(sorted(exact.items(), key=lambda kv: kv[0].name)))
    if key in _FAILED:
        raise Unsupported(_FAILED[key])
    try:
        return _enclose_by_terms(node, symbols, balls, exact)
    except Unsupported as exc:
        if len(_FAILED) > 64:
            _FAILED.clear()
        _FAILED[key] = str(exc)
        raise


@lru_cache(maxsize=64)
def _doit(node: sp.Expr, point: tuple[tuple[sp.Symbol, sp.Rational], ...]) -> sp.Expr | None:
    try:
        with time_limit(DOIT_SECONDS):
            closed = node.xreplace(dict(point)).doit()
    except (BudgetSpent, TypeError, ValueError, NotImplementedError, RecursionError):
        return None
    except Exception:  # SymPy's integrators raise a zoo of types; a failure proves nothing
        return None
    if (
        not isinstance(closed, sp.Expr)
        or closed.has(sp.Sum, sp.Product, sp.Integral)
        or closed.free_symbols
    ):
        return None
    return closed


def _integer(value: Any) -> int | None:
    """An exact integer ball as an int (None otherwise)."""
    if value.rad() != 0 or not value.is_integer():
        return None
    return int(value.mid().unique_fmpz())


def _enclose_by_terms(
    node: sp.Sum | sp.Product,
    symbols: Sequence[sp.Symbol],
    balls: Sequence[Any],
    exact: dict[sp.Symbol, sp.Rational],
) -> Any:
    """A Sum's terms or a Product's factors enclosed one by one over a finite range; an
    infinite Sum's tail by a proved bound."""
    from flint import arb

    (k, a, b) = node.limits[0]
    term = node.function
    lo = None if a is sp.S.NegativeInfinity else _end(a, symbols, balls, exact, ceil=True)
    hi = None if b is sp.S.Infinity else _end(b, symbols, balls, exact, ceil=False)
    args = [*symbols, k]

    if _outermost(term):

        def t(i: int) -> Any:
            return enclose(term, args, [*balls, arb(i)], {**exact, k: sp.Integer(i)})

    else:
        from numeric_checks.arb import compile_arb

        fn = compile_arb(args, [prepared(term)], extended=True)

        def t(i: int) -> Any:
            return fn(*balls, arb(i))[0]

    # A Product's factors are multiplied the same way (an empty one is 1); no tail bound
    # is known for an infinite Product.
    product = isinstance(node, sp.Product)
    if lo is not None and hi is not None:
        if hi < lo:
            return arb(1) if product else arb(0)
        if hi - lo + 1 > TERM_CAP:
            what = "factors" if product else "terms"
            raise Unsupported(
                f"a {type(node).__name__} of {hi - lo + 1} {what} is too costly to enclose"
            )
        total = arb(1) if product else arb(0)
        for i in range(lo, hi + 1):
            total = total * t(i) if product else total + t(i)
        return total
    if product:
        raise Unsupported("no rigorous enclosure for an infinite Product")
    if lo is None and hi is None:
        right = _enclose_tail(term, k, 0, 1, t, exact)
        return right + _enclose_tail(term, k, -1, -1, t, exact)
    if lo is not None:
        return _enclose_tail(term, k, lo, 1, t, exact)
    assert hi is not None
    return _enclose_tail(term, k, hi, -1, t, exact)


def _end(
    e: sp.Expr,
    symbols: Sequence[sp.Symbol],
    balls: Sequence[Any],
    exact: dict[sp.Symbol, sp.Rational],
    *,
    ceil: bool,
) -> int:
    value = e.xreplace(exact)
    if not value.is_number or not value.is_finite:
        raise Unsupported(f"a Sum's bound {e} is not a finite number at the point")
    r = sp.ceiling(value) if ceil else sp.floor(value)
    if not r.is_Integer:
        raise Unsupported(f"a Sum's bound {e} is not an integer at the point")
    return int(r)


def _enclose_tail(
    term: sp.Expr,
    k: sp.Symbol,
    start: int,
    step: int,
    t: Any,
    exact: dict[sp.Symbol, sp.Rational],
) -> Any:
    """Terms from ``start`` in direction ``step`` to infinity: summed as balls up to the
    first ``N`` past the peak where the terms are negligible and the ratio bound of the
    module docstring holds there, plus ``[-B, B]`` with ``B = |t(N)|/(1 - r)``."""
    from flint import arb, ctx

    ratio = _ratio_parts(term, k, step, exact)
    total, i, previous = arb(0), start, None
    tiny = arb(2) ** (-ctx.prec - 10)
    for n in range(TERM_CAP):
        value = t(i)
        size = abs(value)
        settled = n >= 2 and previous is not None and size < previous and size <= tiny * abs(total)
        if settled and n % 16 == 0:
            r = _ratio_bound(ratio, k, i * step)
            if r is not None:
                bound = size.upper() / (1 - r)
                return total + arb(0, bound)
        total += value
        previous = size
        i += step
    raise Unsupported(f"no proved tail bound within {TERM_CAP} terms of an infinite Sum")


@dataclass(frozen=True)
class _Ratio:
    """``t(k+1)/t(k) = exp(A) R`` (in the direction summed): ``A`` polynomial, ``R = P/Q``."""

    a: sp.Poly
    p: sp.Poly
    q: sp.Poly


def _ratio_parts(
    term: sp.Expr, k: sp.Symbol, step: int, exact: dict[sp.Symbol, sp.Rational]
) -> _Ratio | None:
    f = term.xreplace(exact)
    if step == -1:
        f = f.xreplace({k: -k})
    try:
        with time_limit(DOIT_SECONDS):
            ratio = sp.powsimp(sp.combsimp(f.xreplace({k: k + 1}) / f), force=True)
            a_part, rest = sp.S.Zero, sp.S.One
            for factor in sp.Mul.make_args(ratio):
                if isinstance(factor, sp.exp):
                    a_part += factor.args[0]
                elif factor.is_Pow and factor.exp.has(k) and not factor.base.has(k):
                    a_part += factor.exp * sp.log(factor.base)
                else:
                    rest *= factor
            p, q = sp.fraction(sp.cancel(sp.together(rest)))
            return _Ratio(sp.Poly(sp.expand(a_part), k), sp.Poly(p, k), sp.Poly(q, k))
    except (BudgetSpent, sp.PolynomialError, TypeError, ValueError, RecursionError):
        return None
    except sp.polys.polyerrors.GeneratorsNeeded:
        return None


def _ratio_bound(ratio: _Ratio | None, k: sp.Symbol, n: int) -> Any:
    """An upper bound ``r < 1`` on ``|t(j+1)/t(j)|`` for every ``j >= n`` (None if not
    shown).  Coefficient signs are decided on Arb balls of the exact coefficients."""
    from flint import arb

    if ratio is None:
        return None
    u = sp.Symbol("u")
    shift = {k: n + u}
    try:
        a_shift = sp.Poly(sp.expand(ratio.a.as_expr().xreplace(shift)), u)
        p_shift = sp.Poly(sp.expand(ratio.p.as_expr().xreplace(shift)), u)
        q_shift = sp.Poly(sp.expand(ratio.q.as_expr().xreplace(shift)), u)
        a_coeffs = [enclose(c, [], [], {}) for c in a_shift.all_coeffs()]
        p_coeffs = [enclose(c, [], [], {}) for c in p_shift.all_coeffs()]
        q_coeffs = [enclose(c, [], [], {}) for c in q_shift.all_coeffs()]
    except (Unsupported, sp.PolynomialError, TypeError, ValueError):
        return None
    # A(n + u) - A(n): every coefficient of a positive power of u is <= 0.
    if not all(c <= 0 for c in a_coeffs[:-1]):
        return None
    if not all(c >= 0 for c in q_coeffs) or not q_coeffs[-1] > 0:
        if all(c <= 0 for c in q_coeffs) and q_coeffs[-1] < 0:
            q_coeffs = [-c for c in q_coeffs]
            p_coeffs = [-c for c in p_coeffs]
        else:
            return None
    rho = (abs(p_coeffs[-1]) / q_coeffs[-1]).upper() * (1 + arb(2) ** -20)
    width = max(len(p_coeffs), len(q_coeffs))
    pc = [arb(0)] * (width - len(p_coeffs)) + p_coeffs
    qc = [arb(0)] * (width - len(q_coeffs)) + q_coeffs
    for pi, qi in zip(pc, qc, strict=True):
        if not (rho * qi - pi >= 0 and rho * qi + pi >= 0):
            return None
    r = (a_coeffs[-1].exp() * rho).upper()
    return r if r < 1 else None
