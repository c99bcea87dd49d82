"""Taylor coefficients of an expression on a whole interval at once (Arb power series).

The expression is compiled by the generator of :mod:`numeric_checks.arb` onto
python-flint's ``arb_series``: truncated power series whose coefficients are balls.  Evaluated
at ``x = X + t`` with ``X`` a ball, coefficient ``j`` encloses ``f^(j)(x0)/j!`` for *every*
``x0`` in ``X`` (each series operation is the interval extension of the operation on Taylor
coefficients), so one evaluation bounds a derivative over an interval: what the remainder of
the Euler-Maclaurin formula needs (:mod:`~numeric_checks.rigorous.euler_maclaurin`).

Functions that are not analytic (``Abs``, ``Max``, ``Min``, ``sign``, ``Heaviside``,
``floor``) are continued only where their branch is constant on the whole ball (the value's
ball excludes the kink); elsewhere the evaluation is refused (:class:`NotSmooth`), never
guessed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import sympy as sp
from flint import arb, arb_series, ctx

from numeric_checks.arb import methods
from numeric_checks.prepare import prepared
from numeric_checks.rigorous import work

__all__ = ["NotSmooth", "TaylorFn", "compile_taylor"]


class NotSmooth(ArithmeticError):
    """The expression is not shown smooth on the ball (a kink may lie inside)."""


def _value(x: Any) -> Any:
    return x.coeffs()[0] if isinstance(x, arb_series) else x


def _branch_sign(x: Any) -> int:
    v = _value(x)
    if v > 0:
        return 1
    if v < 0:
        return -1
    raise NotSmooth("a kink may lie in the ball")


def _abs(x: Any) -> Any:
    if not isinstance(x, arb_series):
        return abs(x)
    return x if _branch_sign(x) > 0 else -x


def _fold(pick_max: bool) -> Callable[..., Any]:
    def f(*xs: Any) -> Any:
        out = xs[0]
        for x in xs[1:]:
            if not isinstance(out, arb_series) and not isinstance(x, arb_series):
                out = out.max(x) if pick_max else out.min(x)
                continue
            s = _branch_sign(out - x)
            out = out if (s > 0) == pick_max else x
        return out

    return f


def _constant_branch(value: Callable[[int], Any]) -> Callable[..., Any]:
    def f(x: Any, *rest: Any) -> Any:
        return value(_branch_sign(x))

    return f


def _floor(x: Any, up: bool = False) -> Any:
    v = _value(x)
    lo, hi = v.lower(), v.upper()
    a, b = (lo.ceil(), hi.ceil()) if up else (lo.floor(), hi.floor())
    if a != b:
        raise NotSmooth("an integer part changes in the ball")
    return a


def _pow(x: Any, y: Any) -> Any:
    return (y * x.log()).exp()


NAMESPACE: dict[str, Any] = {
    "arb": arb,
    "abs": _abs,
    "_pow": _pow,
    "_ipow": lambda x, n: x**n,  # arb_series' integer power is exact at 0 (arb's is NaN)
    "_phi": lambda x: (-x / arb(2).sqrt()).erfc() / 2,
    "_max": _fold(True),
    "_min": _fold(False),
    "_binomial": lambda n, k: (n + 1).gamma() * (k + 1).rgamma() * (n - k + 1).rgamma(),
    "_factorial": lambda x: (x + 1).gamma(),
    "_expm1": lambda x: x.exp() - 1,
    "_log1p": lambda x: (1 + x).log(),
    "_tanh": lambda x: 1 - 2 / ((2 * x).exp() + 1),
    "_sinh": lambda x: (x.exp() - (-x).exp()) / 2,
    "_cosh": lambda x: (x.exp() + (-x).exp()) / 2,
    "_sign": _constant_branch(lambda s: arb(s)),
    "_heaviside": _constant_branch(lambda s: arb(1 if s > 0 else 0)),
    "_floor": _floor,
    "_ceiling": lambda x: _floor(x, up=True),
    # Series and balls alike: the value itself, no conversion.
    **methods(lambda x: x, exp="exp", log="log", sqrt="sqrt", gamma="gamma", loggamma="lgamma"),
    **methods(lambda x: x, erf="erf", erfc="erfc", sin="sin", cos="cos", atan="atan"),
}

TaylorFn = Callable[..., list[Any]]
"""``(x_ball, order, *params) -> [c_0, ..., c_order]``, ``c_j`` enclosing ``f^(j)/j!``."""


@lru_cache(maxsize=256)
def _compile(args: tuple[sp.Symbol, ...], expr: sp.Expr) -> Callable[..., Any]:
    from numeric_checks.arb import arguments, generated, refuse

    refuse([expr], "no Taylor enclosure for", (sp.Piecewise,))
    names, lines = arguments(args)
    return generated(names, lines, [expr], NAMESPACE, extended=True, single=True)


def compile_taylor(x: sp.Symbol, params: Sequence[sp.Symbol], expr: sp.Expr) -> TaylorFn:
    """The :data:`TaylorFn` of ``expr`` in ``x`` (see the module docstring).  Raises
    :class:`NotSmooth` at evaluation where a kink may lie in the ball."""
    fn = _compile((x, *params), prepared(expr))

    def taylor(at: Any, order: int, *values: Any) -> list[Any]:
        work.add(order)
        saved = ctx.cap
        ctx.cap = order + 1
        try:
            out = fn(arb_series([at, 1]), *values)
        except (ValueError, ZeroDivisionError) as exc:
            raise NotSmooth(str(exc)) from exc
        finally:
            ctx.cap = saved
        coeffs = list(out.coeffs()) if isinstance(out, arb_series) else [out]
        coeffs += [arb(0)] * (order + 1 - len(coeffs))
        if not all(c.is_finite() for c in coeffs):
            raise NotSmooth("a Taylor coefficient is not finite on the ball")
        return coeffs

    return taylor
