"""Integrands compiled onto complex Arb balls for ``acb.integral``, with the analytic flag.

``acb.integral`` (python-flint; Johansson 2018, "Numerical integration in arbitrary-precision
ball arithmetic") evaluates the integrand on complex balls around pieces of the path and asks,
through its ``analytic`` flag, for a proof that the integrand is holomorphic on the ball: it
must return a non-finite ball where it is not.  So every function here that is not entire
checks it: ``Abs``, ``Max``, ``Min``, ``sign``, ``Heaviside``, ``floor``, ``ceiling`` and a
``Piecewise`` choice are analytic on a ball only where the real part of their argument (or
of the difference, or of the condition) has one sign, or one integer part, on the whole
ball; ``log``, ``sqrt`` and powers forward the flag to Arb's own branch-cut check; ``log1p``,
``loggamma`` and ``atan`` are continued only where they are cut-free.  Where a piece is not
shown analytic, the integrator falls back to the direct enclosure ``(b - a) f([a, b])`` on
smaller and smaller pieces (non-analytic evaluation: the real ball of each function), so a
kink costs bisection levels, never correctness: the breakpoints handed to the integrator
only save work.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

import sympy as sp
from flint import acb, arb

from numeric_checks.arb import methods
from symbolic.errors import Unsupported

__all__ = ["Analytic", "compile_integrand", "guarded_integral"]

_NAN = acb(arb.nan())


class Analytic:
    """The ``analytic`` flag of the evaluation in progress (read by the compiled integrand's
    non-entire functions; quadrature is not re-entrant, one integrand at a time)."""

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
    r = None if Analytic.on else _real_ball(z)
    return _NAN if r is None else acb(abs(r))


def _step(z: Any, at_zero: Any, low: int, high: int) -> Any:
    """A function equal to ``low`` left of 0 and ``high`` right of it (``at_zero`` at 0)."""
    z = acb(z)
    s = _side(z)
    if s:
        return acb(high if s > 0 else low)
    r = None if Analytic.on else _real_ball(z)
    if r is None:
        return _NAN
    return acb(arb(low).union(arb(high)).union(at_zero))


def _floor(z: Any, up: bool = False) -> Any:
    z = acb(z)
    lo, hi = z.real.lower(), z.real.upper()
    if not (lo.is_finite() and hi.is_finite()):
        return _NAN
    a, b = (lo.ceil(), hi.ceil()) if up else (lo.floor(), hi.floor())
    if a == b:
        return acb(a)  # one integer part on the whole ball: constant, so analytic
    if Analytic.on or not z.imag.is_zero():
        return _NAN
    return acb(a.union(b))


def _max2(a: Any, b: Any, pick_max: bool) -> Any:
    a, b = acb(a), acb(b)
    s = _side(a - b)
    if s:
        return a if (s > 0) == pick_max else b
    ra = None if Analytic.on else _real_ball(a)
    rb = None if Analytic.on else _real_ball(b)
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


def _select(*pairs: Any) -> Any:
    """A ``Piecewise``: ``pairs`` alternate a condition (a function returning +1 where it
    holds on the whole ball, -1 where it fails on it, 0 undecided) and a thunk of the value;
    the first branch whose condition holds, once every earlier one fails."""
    values: list[Any] = []
    for cond, value in zip(pairs[::2], pairs[1::2], strict=True):
        truth = cond()
        if truth > 0 and not values:
            return acb(value())
        if truth == 0:
            if Analytic.on:
                return _NAN
            values.append(acb(value()))
        elif truth > 0:
            values.append(acb(value()))
            break
    if not values or Analytic.on:
        return _NAN
    out = values[0]
    for v in values[1:]:
        if not (out.imag.is_zero() and v.imag.is_zero()):
            return _NAN
        out = acb(out.real.union(v.real))
    return out


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
    return lambda x: getattr(acb(x), name)(analytic=Analytic.on)


def _guarded(name: str) -> Callable[[Any], Any]:
    # Functions with branch cuts and no analytic option in python-flint: continued only on
    # balls whose real part stays where they are analytic (checked by the caller's table).
    def f(x: Any) -> Any:
        x = acb(x)
        if Analytic.on and not _CUT_FREE[name](x):
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
    "_log": _cut("log"),
    "_sqrt": _cut("sqrt"),
    "_pow": lambda x, y: (acb(y) * acb(x).log(analytic=Analytic.on)).exp(),
    "_ipow": lambda x, n: acb(x) ** n,  # acb's integer power is exact at 0 (arb's is NaN)
    "_phi": lambda x: (-acb(x) / acb(2).sqrt()).erfc() / 2,
    "_max": _fold(True),
    "_min": _fold(False),
    "_binomial": lambda n, k: (
        (acb(n) + 1).gamma() * (acb(k) + 1).rgamma() * (acb(n) - acb(k) + 1).rgamma()
    ),
    "_factorial": lambda x: (acb(x) + 1).gamma(),
    "_loggamma": _guarded("lgamma"),
    "_log1p": _guarded("log1p"),
    **methods(acb, exp="exp", gamma="gamma", expm1="expm1", erf="erf", erfc="erfc"),
    **methods(acb, tanh="tanh", sinh="sinh", cosh="cosh", sin="sin", cos="cos"),
    "_atan": _guarded("atan"),
    "_sign": lambda x: _step(x, arb(0), -1, 1),
    "_heaviside": lambda x, h=None: _step(x, arb(1) / 2 if h is None else acb(h).real, 0, 1),
    "_floor": _floor,
    "_ceiling": lambda x: _floor(x, up=True),
    "_select": _select,
    "_side": lambda x: _side(acb(x)),
}

_KNOWN = {
    "exp", "log", "Abs", "Max", "Min", "Phi", "erf", "erfc", "tanh", "sinh", "cosh", "sin",
    "cos", "atan", "binomial", "factorial", "gamma", "loggamma", "expm1", "log1p", "sign",
    "Heaviside", "floor", "ceiling", "Piecewise",
}  # fmt: skip


def _condition(cond: sp.Basic, names: dict[sp.Basic, str]) -> str:
    """Code of a function of no arguments: +1 where ``cond`` holds on the whole ball, -1
    where it fails on it, 0 otherwise."""
    from numeric_checks.arb import _code

    if cond is sp.true:
        return "lambda: 1"
    if cond is sp.false:
        return "lambda: -1"
    if isinstance(cond, sp.core.relational.Relational) and not isinstance(cond, sp.Eq | sp.Ne):
        diff = _code(sp.expand(cond.lhs - cond.rhs), names, True)
        # lhs - rhs > 0 (or >= 0) holds where its real part is positive, fails where negative;
        # a ball touching 0 is undecided (the boundary itself is a null set either way).
        sign = 1 if isinstance(cond, sp.StrictGreaterThan | sp.GreaterThan) else -1
        return f"lambda: {sign} * _side({diff})"
    raise Unsupported(f"no Arb quadrature for the Piecewise condition {cond}")


@lru_cache(maxsize=256)
def compile_integrand(args: tuple[sp.Symbol, ...], expr: sp.Expr) -> Callable[..., Any]:
    """A function of complex balls ``(x, *params) -> f`` for :data:`NAMESPACE`'s flag."""
    from numeric_checks.arb import _code, arguments, generated

    for node in sp.preorder_traversal(expr):
        if isinstance(node, sp.Sum | sp.Integral | sp.Derivative):
            raise Unsupported(f"no Arb quadrature for an integrand with {type(node).__name__}")
        if isinstance(node, sp.Function) and type(node).__name__ not in _KNOWN:
            raise Unsupported(f"no Arb quadrature for an integrand with {type(node).__name__}")
    names, lines = arguments(args)
    # Each Piecewise (innermost first) becomes a local computed by _select, so that a branch
    # is evaluated only where its condition may hold.
    pieces = sorted(expr.atoms(sp.Piecewise), key=lambda p: sp.count_ops(p))
    for i, node in enumerate(pieces):
        parts = []
        for value, cond in node.args:
            parts += [_condition(cond, names), f"lambda: {_code(value, names, True)}"]
        lines.append(f"    _pw{i} = _select({', '.join(parts)})")
        names[node] = f"_pw{i}"
    # Placeholders before cse, which would otherwise rewrite a Piecewise's insides.
    marks = {node: sp.Symbol(f"_pw{i}") for i, node in enumerate(pieces)}
    names.update({m: m.name for m in marks.values()})
    return generated(names, lines, [expr.xreplace(marks)], NAMESPACE, extended=True, single=True)


def guarded_integral(f: Callable[[Any, bool], Any], a: Any, b: Any, **options: Any) -> Any:
    """``acb.integral(f, a, b, **options)`` with Python exceptions kept out of Arb: an
    exception raised in the integrand (the budget's alarm, a bug) would come out of the C
    code as a ``SystemError``; it is held, the integrand returns NaN balls from then on (the
    integrator ends quickly), and the exception is raised again here."""
    held: list[BaseException] = []

    def safe(t: Any, analytic: bool) -> Any:
        if held:
            return _NAN
        try:
            return f(t, analytic)
        except BaseException as exc:  # re-raised below, after Arb has returned
            held.append(exc)
            return _NAN

    value = acb.integral(safe, a, b, **options)
    if held:
        raise held[0]
    return value
