"""Rigorous enclosures of one-dimensional integrals at a point: Arb's quadrature
(``acb.integral``, python-flint) on a finite range, plus a proved bound on each infinite
tail.  Used to confirm a counterexample (:mod:`numeric_checks.enclose`).

*Finite range.* ``acb.integral`` (Johansson 2018, "Numerical integration in arbitrary-precision
ball arithmetic", ICMS) returns a ball containing the integral as long as the integrand it is
given is honest about analyticity: asked for ``f`` on a complex ball with ``analytic=True``,
it must return a non-finite ball unless ``f`` is analytic there.  The integrand is compiled
from the SymPy tree onto ``acb`` with that contract: ``log``, ``sqrt`` and real powers forward
the flag (their branch cuts), and ``Abs``, ``Max`` and ``Min`` are continued analytically only
where the sign of what they compare is decided on the whole ball (``Abs(g) = g`` where
``Re g > 0``); elsewhere they give a non-finite ball when asked for analyticity and, on the
real segment (direct evaluation), the real ball of the exact value.

*Infinite tails.* Past ``T > 0`` (after ``x -> -x`` for a lower tail) the integrand is
bounded structurally by a sum of envelopes ``c y^m exp(p(y))`` (``p`` a polynomial):
``|a + b| <= |a| + |b|``, ``|Max(a, b)| <= |a| + |b|``, ``|Phi|, |erf|, |tanh|, |sin|,
|cos| <= 1``, ``|erfc| <= 2``, ``exp(q + r) <= exp(q)`` for ``r = -c exp(h) <= 0``, and
``-c exp(h) <= -c (1 + h + h^2/2)`` for ``h`` affine and nonnegative past ``T`` (since
``e^z >= 1 + z + z^2/2`` for ``z >= 0``).  For one envelope, if every coefficient of a
positive power of ``u`` in ``p'(T + u)`` is ``<= 0`` (``p'`` nonincreasing past ``T``) and
``a = -(m/T + p'(T)) > 0``, then ``(m log y + p(y))' <= -a`` for ``y >= T``, so
``y^m e^{p(y)} <= T^m e^{p(T)} e^{-a (y - T)}`` and the tail is at most ``c T^m e^{p(T)}/a``.
The tail's ball is ``[-B, B]`` with ``B`` the sum of these bounds.  Where an envelope
cannot be built or does not decay, :class:`Unsupported` is raised and no enclosure is
claimed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import sympy as sp
from flint import acb, arb, ctx

from numeric_checks.prepare import prepared
from symbolic.errors import Unsupported
from symbolic.functions import Phi

__all__ = ["integral_ball"]

EVAL_LIMIT = 200_000
"""Integrand evaluations per finite piece (a work count, never a clock): past it Arb returns
the (wider, still rigorous) ball it has."""
TAIL_STARTS = tuple(2**j for j in range(41))
"""Candidate truncation points ``T`` of an infinite range: the first whose tail bound is
below ``2^-(prec/2)`` (the quadrature's goal) is taken, else the one with the smallest
bound."""


_NAN = acb(arb.nan())


class _Analytic:
    """The ``analytic`` flag of the evaluation in progress (read by the compiled integrand's
    branch-cut functions; quadrature is not re-entrant, one integrand at a time)."""

    on = False


def _real_ball(z: Any) -> Any:
    return z.real if z.imag.is_zero() else None


def _side(z: Any) -> int:
    """+1 / -1 where ``Re z`` is decided positive / negative on the whole ball, else 0."""
    if z.real > 0:
        return 1
    if z.real < 0:
        return -1
    return 0


def _abs(z: Any) -> Any:
    z = acb(z)
    s = _side(z)
    if s:
        return z if s > 0 else -z
    r = None if _Analytic.on else _real_ball(z)
    return _NAN if r is None else acb(abs(r))


def _max2(a: Any, b: Any, pick_max: bool) -> Any:
    a, b = acb(a), acb(b)
    s = _side(a - b)
    if s:
        return a if (s > 0) == pick_max else b
    ra = None if _Analytic.on else _real_ball(a)
    rb = None if _Analytic.on else _real_ball(b)
    if ra is None or rb is None:
        return _NAN
    return acb(ra.max(rb) if pick_max else ra.min(rb))


def _fold(pick_max: bool) -> Callable[..., Any]:
    def f(*xs: Any) -> Any:
        out = acb(xs[0])
        for x in xs[1:]:
            out = _max2(out, x, pick_max)
        return out

    return f


class _Numbers:
    """Stands in for ``arb`` in the code :mod:`numeric_checks.arb` generates."""

    def __call__(self, v: Any) -> Any:
        return acb(v)

    @staticmethod
    def pi() -> Any:
        return acb.pi()

    @staticmethod
    def const_e() -> Any:
        return acb(arb.const_e())


def _cut(name: str) -> Callable[[Any], Any]:
    return lambda x: getattr(acb(x), name)(analytic=_Analytic.on)


def _guarded(name: str) -> Callable[[Any], Any]:
    # Functions with branch cuts and no analytic option in python-flint: continued only on
    # balls whose real part stays where they are analytic (checked by the caller's table).
    def f(x: Any) -> Any:
        x = acb(x)
        if _Analytic.on and not _CUT_FREE[name](x):
            return _NAN
        return getattr(x, name)()

    return f


_CUT_FREE: dict[str, Callable[[Any], bool]] = {
    "log1p": lambda x: bool(x.real > -1),
    "lgamma": lambda x: bool(x.real > 0),
    "atan": lambda x: bool(abs(x.imag) < 1),
}

NAMESPACE: dict[str, Any] = {
    "arb": _Numbers(),
    "abs": _abs,
    "_exp": lambda x: acb(x).exp(),
    "_log": _cut("log"),
    "_sqrt": _cut("sqrt"),
    "_pow": lambda x, y: (acb(y) * acb(x).log(analytic=_Analytic.on)).exp(),
    "_phi": lambda x: (-acb(x) / acb(2).sqrt()).erfc() / 2,
    "_max": _fold(True),
    "_min": _fold(False),
    "_binomial": lambda n, k: (
        (acb(n) + 1).gamma() * (acb(k) + 1).rgamma() * (acb(n) - acb(k) + 1).rgamma()
    ),
    "_factorial": lambda x: (acb(x) + 1).gamma(),
    "_gamma": lambda x: acb(x).gamma(),
    "_loggamma": _guarded("lgamma"),
    "_expm1": lambda x: acb(x).expm1(),
    "_log1p": _guarded("log1p"),
    "_erf": lambda x: acb(x).erf(),
    "_erfc": lambda x: acb(x).erfc(),
    "_tanh": lambda x: acb(x).tanh(),
    "_sinh": lambda x: acb(x).sinh(),
    "_cosh": lambda x: acb(x).cosh(),
    "_sin": lambda x: acb(x).sin(),
    "_cos": lambda x: acb(x).cos(),
    "_atan": _guarded("atan"),
}


@lru_cache(maxsize=128)
def _compile(args: tuple[sp.Symbol, ...], expr: sp.Expr) -> Callable[..., Any]:
    from numeric_checks.arb import _code  # the same generator as the real-ball bridge

    for node in sp.preorder_traversal(expr):
        if isinstance(node, sp.Sum | sp.Integral | sp.Derivative | sp.Piecewise):
            raise Unsupported(f"no Arb quadrature for an integrand with {type(node).__name__}")
        if isinstance(node, sp.Function) and type(node).__name__ not in _KNOWN:
            raise Unsupported(f"no Arb quadrature for an integrand with {type(node).__name__}")
    replacements, (reduced,) = sp.cse([expr], symbols=sp.numbered_symbols("_t"))
    names = {a: f"_a{i}" for i, a in enumerate(args)}
    lines = [f"def _f({', '.join(names[a] for a in args)}):"]
    for sym, value in replacements:
        lines.append(f"    {sym.name} = {_code(value, names, True)}")
        names[sym] = sym.name
    lines.append(f"    return {_code(reduced, names, True)}")
    scope: dict[str, Any] = dict(NAMESPACE)
    # Generated from a SymPy tree by numeric_checks.arb._code (numbers, fixed names only).
    exec("\n".join(lines), scope)
    return scope["_f"]  # type: ignore[no-any-return]


_KNOWN = {
    "exp", "log", "Abs", "Max", "Min", "Phi", "erf", "erfc", "tanh", "sinh", "cosh", "sin",
    "cos", "atan", "binomial", "factorial", "gamma", "loggamma", "expm1", "log1p",
}  # fmt: skip


def integral_ball(
    node: sp.Integral,
    symbols: Sequence[sp.Symbol],
    balls: Sequence[Any],
    exact: dict[sp.Symbol, sp.Rational],
) -> tuple[Any, str]:
    """The Arb ball of ``node`` (one variable) at the point (``balls`` the values of
    ``symbols``, ``exact`` the same point as rationals), at the current Arb precision, and
    how it was obtained.  Raises :class:`Unsupported` where no rigorous enclosure is known."""
    from numeric_checks.arb import compile_arb

    if len(node.limits) != 1 or len(node.limits[0]) != 3:
        raise Unsupported("Arb quadrature encloses one-variable definite integrals only")
    x, a, b = node.limits[0]
    integrand = prepared(node.function)
    params = [s for s in symbols if s != x]
    values = [v for s, v in zip(symbols, balls, strict=True) if s != x]
    f = _compile((x, *params), integrand)
    fixed = [acb(v) for v in values]

    def g(t: Any, analytic: bool) -> Any:
        _Analytic.on = bool(analytic)
        try:
            return f(t, *fixed)
        except (ValueError, ZeroDivisionError, ArithmeticError):
            return _NAN
        finally:
            _Analytic.on = False

    def end(e: sp.Expr) -> Any:
        if e in (sp.S.Infinity, sp.S.NegativeInfinity):
            return None
        if e.free_symbols - set(symbols):
            raise Unsupported(f"an integration bound {e} is not a number at the point")
        ball = compile_arb(list(symbols), [e], extended=True)(*balls)[0]
        if not ball.is_finite():
            raise Unsupported(f"an integration bound {e} is not finite at the point")
        return ball

    lo, hi = end(a), end(b)
    if lo is not None and hi is not None:
        return _finite(g, lo, hi), "Arb quadrature (acb.integral)"
    point = {s: v for s, v in exact.items() if s != x}
    body = node.function.xreplace(point)
    tails = []
    if hi is None:
        start = 1 if lo is None else int(lo.upper().ceil().unique_fmpz()) + 1
        t_hi, bound_hi = _tail(body, x, 1, max(start, 1))
        tails.append(bound_hi)
    if lo is None:
        start = 1 if hi is None else int((-hi).upper().ceil().unique_fmpz()) + 1
        t_lo, bound_lo = _tail(body, x, -1, max(start, 1))
        tails.append(bound_lo)
    left = arb(-t_lo) if lo is None else lo
    right = arb(t_hi) if hi is None else hi
    core = _finite(g, left, right)
    total = sum(tails, arb(0))
    shown = total.upper().str(3, radius=False)
    how = f"Arb quadrature (acb.integral) with proved tail bound(s) {shown}"
    return core + arb(0, total.upper()), how


def _finite(g: Callable[[Any, bool], Any], lo: Any, hi: Any) -> Any:
    # Half the working precision as the goal: a violation is decided long before, and a
    # kink (Max, Abs) costs bisection levels in proportion to the goal's bits; the ladder
    # of precisions tightens it where a ball straddles zero.
    goal = arb(2) ** (-(ctx.prec // 2))
    value = acb.integral(g, acb(lo), acb(hi), rel_tol=goal, abs_tol=goal, eval_limit=EVAL_LIMIT)
    if not value.is_finite():
        raise Unsupported("Arb quadrature gave no finite enclosure")
    # The integrand is real on the real segment: the imaginary part is rounding only.
    return value.real


@dataclass(frozen=True)
class _Envelope:
    """``c y^m exp(p(y))``, and ``h`` affine with ``h(T) >= 0`` required for it to hold."""

    c: sp.Expr
    m: int
    p: sp.Expr
    needs: tuple[sp.Expr, ...] = ()


def _tail(body: sp.Expr, x: sp.Symbol, direction: int, least: int) -> tuple[int, Any]:
    """A truncation point ``T >= least`` and a proved bound on ``|int_T^oo body(direction
    y) dy|`` (see the module docstring)."""
    y = sp.Dummy("y", positive=True)
    envelopes = _envelope(prepared(body.xreplace({x: direction * y})), y)
    best: tuple[int, Any] | None = None
    goal = arb(2) ** (-(ctx.prec // 2))
    for t in TAIL_STARTS:
        if t < least:
            continue
        bound = _bound_at(envelopes, y, t)
        if bound is None:
            continue
        if best is None or bound < best[1]:
            best = (t, bound)
        if bound < goal:
            break
    if best is None:
        raise Unsupported("no proved bound on an infinite integral's tail")
    return best


def _const(e: sp.Expr) -> Any:
    """The Arb ball of a constant expression at the current precision."""
    from numeric_checks.arb import compile_arb

    return compile_arb([], [e], extended=True)()[0]


def _bound_at(envelopes: list[_Envelope], y: sp.Symbol, t: int) -> Any:
    total = arb(0)
    for env in envelopes:
        if env.c == 0:
            continue
        try:
            for h in env.needs:
                if not _const(h.xreplace({y: t})) >= 0:
                    return None
            poly = sp.Poly(env.p, y)
            if poly.degree() < 1:
                return None  # no decay
            coeffs = [_const(c) for c in poly.all_coeffs()]  # highest first
            c = _const(env.c)
        except (Unsupported, sp.PolynomialError):
            return None
        slope = _shifted_derivative(coeffs, arb(t))
        if not all(s <= 0 for s in slope[1:]):
            return None
        rate = -(arb(env.m) / t + slope[0])
        if not rate > 0:
            return None
        value = _horner(coeffs, arb(t))
        total += abs(c) * arb(t) ** env.m * value.exp() / rate
    return total if total.is_finite() else None


def _horner(coeffs: list[Any], t: Any) -> Any:
    out = arb(0)
    for c in coeffs:
        out = out * t + c
    return out


def _shifted_derivative(coeffs: list[Any], t: Any) -> list[Any]:
    """The coefficients of ``p'(t + u)`` in ``u``, lowest first (``coeffs`` of ``p``,
    highest first)."""
    n = len(coeffs) - 1
    deriv = [coeffs[i] * (n - i) for i in range(n)]  # p', highest first
    d = len(deriv) - 1
    out = []
    for j in range(d + 1):
        # coefficient of u^j in sum_i a_i (t + u)^i = sum_i a_i C(i, j) t^(i-j)
        s = arb(0)
        for i in range(j, d + 1):
            s += deriv[d - i] * math.comb(i, j) * t ** (i - j)
        out.append(s)
    return out


def _envelope(e: sp.Expr, y: sp.Symbol) -> list[_Envelope]:
    """Envelopes whose sum bounds ``|e(y)|`` for ``y >= T`` (under their ``needs``)."""
    if not e.has(y):
        return [_Envelope(sp.Abs(e), 0, sp.S.Zero)]
    if e == y:
        return [_Envelope(sp.S.One, 1, sp.S.Zero)]
    if e.is_Add or isinstance(e, sp.Max | sp.Min):
        return [env for a in e.args for env in _envelope(a, y)]
    if isinstance(e, sp.Abs):
        return _envelope(e.args[0], y)
    if e.is_Mul:
        out = [_Envelope(sp.S.One, 0, sp.S.Zero)]
        for a in e.args:
            out = [_times(u, v) for u in out for v in _envelope(a, y)]
            if len(out) > 64:
                raise Unsupported("too many envelope terms")
        return out
    if e.is_Pow:
        base, expo = e.args
        if expo.is_Integer and 1 <= int(expo) <= 8:
            return _envelope(sp.Mul(*([base] * int(expo)), evaluate=False), y)
        if not base.has(y) and base.is_positive:
            return _envelope(sp.exp(expo * sp.log(base)), y)
        raise Unsupported(f"no tail envelope for {e}")
    if isinstance(e, sp.exp):
        return [_exp_envelope(e.args[0], y)]
    if isinstance(e, Phi | sp.erf | sp.tanh | sp.sin | sp.cos):
        return [_Envelope(sp.S.One, 0, sp.S.Zero)]
    if isinstance(e, sp.erfc):
        return [_Envelope(sp.Integer(2), 0, sp.S.Zero)]
    raise Unsupported(f"no tail envelope for {type(e).__name__}")


def _times(u: _Envelope, v: _Envelope) -> _Envelope:
    return _Envelope(u.c * v.c, u.m + v.m, sp.expand(u.p + v.p), u.needs + v.needs)


def _exp_envelope(g: sp.Expr, y: sp.Symbol) -> _Envelope:
    kept: list[sp.Expr] = []
    needs: list[sp.Expr] = []
    for term in sp.Add.make_args(sp.expand(g)):
        if term.is_polynomial(y):
            kept.append(term)
            continue
        c, rest = term.as_independent(y, as_Add=False)
        if not (isinstance(rest, sp.exp) and c.is_negative):
            raise Unsupported(f"no tail envelope for exp({g})")
        h = sp.expand(rest.args[0])
        if h.is_polynomial(y) and sp.degree(h, y) == 1 and sp.Poly(h, y).LC().is_positive:
            # -c e^h <= -c (1 + h + h^2/2) once h >= 0: what makes exp(-e^y) decay.
            kept.append(c * (1 + h + h**2 / 2))
            needs.append(h)
        # otherwise -c e^h <= 0: dropped
    return _Envelope(sp.S.One, 0, sp.expand(sp.Add(*kept)), tuple(needs))
