"""An expression at an exact point, by SymPy: the first route to confirm a violation.

At a rational point SymPy evaluates much of what has no Arb enclosure, exactly: ``floor``,
``ceiling``, integer powers of ``-1``, ``sqrt`` of a negative number (``sqrt(-4)**2 = -4``, as
mpmath computes it through complex numbers), finite sums and products, rational functions,
``Piecewise``, ``Max``, ``Min``, ``Abs``.  :func:`exact_value` walks the expression bottom-up,
substituting the point and letting SymPy evaluate each node on numbers, so that the result
is a rational or a closed constant (``sqrt(2) - 1``, ``exp(1/3)``) whose sign an Arb ball then
decides rigorously (:mod:`numeric_checks.confirm`).

Exact arithmetic can build numbers too large to hold, so every node is bounded *before* it is
built: a rational raised to an integer power only when the result stays under
:data:`MAX_BITS` bits, integer functions that explode (``factorial``, ``binomial``, ``gamma``,
...) only at arguments up to :data:`MAX_INT_ARG`, finite sums and products only up to
:data:`MAX_TERMS` terms; any rational past :data:`MAX_BITS` bits stops the walk.  What cannot
be evaluated so (an infinite sum, an integral, a numeric function, an undefined value, a
non-real result) gives None with the reason: the other routes are then tried.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import sympy as sp

from numeric_checks.budget import BudgetSpent, work_limit
from symbolic.binary_rationals import NotExact, exact_rational

__all__ = ["EXACT_SECONDS", "MAX_BITS", "MAX_INT_ARG", "MAX_TERMS", "Exact", "exact_value"]

MAX_BITS = 1 << 16
"""Bits of a numerator or denominator past which an exact evaluation stops (65,536 bits:
about 20,000 digits, well beyond what a violation needs, well below what costs seconds)."""
MAX_ROOT_BITS = 4096
"""Bits of a rational whose fractional power is formed (SymPy looks for perfect powers)."""
MAX_INT_ARG = 3000
"""Largest integer argument of a function that builds large integers (``factorial(3000)``
has 9,131 digits)."""
MAX_TERMS = 2000
"""Terms of a finite ``Sum`` or ``Product`` added one by one."""
EXACT_SECONDS = 5.0
"""CPU time for one exact evaluation (a last resort: the bounds above come first; counted
in work, :func:`~numeric_checks.budget.work_limit`, so that it does not depend on the load)."""

# Functions whose value at numbers SymPy forms without building large integers: a symbolic
# constant (exp(1/3)), an exact rational of the argument's size (floor, Abs), a choice.
_SIZE_SAFE: tuple[type, ...] = (
    sp.floor,
    sp.ceiling,
    sp.frac,
    sp.Abs,
    sp.sign,
    sp.Max,
    sp.Min,
    sp.Heaviside,
    sp.KroneckerDelta,
    sp.Mod,
    sp.exp,
    sp.log,
    sp.sin,
    sp.cos,
    sp.tan,
    sp.sinh,
    sp.cosh,
    sp.tanh,
    sp.asin,
    sp.acos,
    sp.atan,
    sp.asinh,
    sp.acosh,
    sp.atanh,
    sp.erf,
    sp.erfc,
    sp.re,
    sp.im,
)
# Functions that build integers growing with their argument: allowed on small arguments.
_INTEGER_BUILDERS: tuple[type, ...] = (
    sp.factorial,
    sp.factorial2,
    sp.binomial,
    sp.gamma,
    sp.RisingFactorial,
    sp.FallingFactorial,
)


@dataclass(frozen=True)
class Exact:
    """The outcome: ``value`` a real SymPy number (None when it could not be formed) and,
    when None, ``why``."""

    value: sp.Expr | None
    why: str = ""


class _Stop(Exception):
    """The walk cannot go on (the message says why)."""


def exact_value(expr: sp.Expr, point: Mapping[sp.Symbol, sp.Expr]) -> Exact:
    """``expr`` at ``point`` (exact SymPy numbers: rationals or closed constants), evaluated
    by SymPy node by node under the size bounds of this module.

    >>> x = sp.Symbol("x")
    >>> exact_value(sp.ceiling(x) - sp.floor(x) - 1, {x: sp.Integer(5)}).value
    -1
    >>> exact_value((-1) ** sp.Symbol("n") + sp.sqrt(x) ** 2, {sp.Symbol("n"): sp.Integer(3),
    ...                                                         x: sp.Integer(-4)}).value
    -5
    >>> exact_value(x ** 100000, {x: sp.Rational(3, 2)}).why
    'the power (3/2)**100000 would have about 200000 bits'
    """
    try:
        with work_limit(EXACT_SECONDS):
            value = _Walk(dict(point)).walk(expr)
    except _Stop as exc:
        return Exact(None, str(exc))
    except BudgetSpent:
        return Exact(None, f"SymPy's exact evaluation took over {EXACT_SECONDS:.0f} s of work")
    except (TypeError, ValueError, ArithmeticError, RecursionError, NotImplementedError) as exc:
        return Exact(None, f"SymPy could not evaluate it ({type(exc).__name__})")
    if not isinstance(value, sp.Expr) or not value.is_number:
        return Exact(None, "SymPy left it unevaluated")
    if value.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        return Exact(None, "it is undefined or infinite there")
    if value.has(sp.Sum, sp.Product, sp.Integral, sp.Derivative):
        return Exact(None, "SymPy left a sum or an integral unevaluated")
    if value.is_extended_real is not True:
        if value.is_extended_real is False:
            return Exact(None, "it is not real there")
        return Exact(None, "SymPy could not show it is real there")
    return Exact(value)


class _Walk:
    def __init__(self, point: dict[sp.Symbol, sp.Expr]) -> None:
        self.point = point

    def walk(self, e: sp.Basic) -> sp.Basic:
        if isinstance(e, sp.Symbol):
            if e not in self.point:
                raise _Stop(f"{e} has no value at the point")
            return self.point[e]
        if isinstance(e, sp.Float):
            try:
                return exact_rational(e)
            except NotExact as exc:
                raise _Stop(str(exc)) from exc
        if e.is_Atom:
            return e
        if isinstance(e, sp.Piecewise):
            return self._piecewise(e)
        if isinstance(e, sp.Sum | sp.Product):
            return self._series(e)
        if isinstance(e, sp.Integral | sp.Derivative):
            raise _Stop(f"no exact value for a {type(e).__name__}")
        args = [self.walk(a) for a in e.args]
        if isinstance(e, sp.Pow):
            out = self._power(*args)
        elif isinstance(e, sp.Add | sp.Mul | sp.Rel | sp.logic.boolalg.Boolean):
            out = e.func(*args)
        elif isinstance(e, sp.Function | sp.Max | sp.Min):
            out = self._function(e, args)
        else:
            raise _Stop(f"no exact value for {type(e).__name__}")
        return _bounded(out)

    def _power(self, base: sp.Basic, exp: sp.Basic) -> sp.Basic:
        if isinstance(base, sp.Rational) and isinstance(exp, sp.Integer):
            if base in (0, 1, -1) or exp in (0, 1):
                return sp.Pow(base, exp)
            bits = abs(int(exp)) * max(int(base.p).bit_length(), int(base.q).bit_length())
            if bits > MAX_BITS:
                raise _Stop(f"the power ({base})**{exp} would have about {bits} bits")
        elif isinstance(base, sp.Rational) and isinstance(exp, sp.Rational):
            size = max(int(base.p).bit_length(), int(base.q).bit_length())
            if size > MAX_ROOT_BITS or abs(int(exp.p)) > MAX_TERMS or int(exp.q) > 64:
                raise _Stop(f"the power ({base})**({exp}) is too large to form exactly")
        elif isinstance(exp, sp.Integer) and abs(int(exp)) > MAX_BITS:
            raise _Stop(f"the power with exponent {exp} is too large to form exactly")
        return sp.Pow(base, exp)

    def _function(self, e: sp.Function, args: list[sp.Basic]) -> sp.Basic:
        if isinstance(e, _INTEGER_BUILDERS):
            for a in args:
                if not (isinstance(a, sp.Rational) and abs(a) <= MAX_INT_ARG):
                    raise _Stop(f"{type(e).__name__} of {a} is too large to form exactly")
        elif not isinstance(e, _SIZE_SAFE) and not _phi_family(e):
            raise _Stop(f"no exact value for {type(e).__name__}")
        return e.func(*args)

    def _piecewise(self, e: sp.Piecewise) -> sp.Basic:
        for expr, cond in e.args:
            truth = self.walk(cond)
            if truth is sp.true:
                return self.walk(expr)
            if truth is not sp.false:
                raise _Stop(f"the condition {cond} is not decided at the point")
        raise _Stop("no branch of the Piecewise holds at the point")

    def _series(self, e: sp.Sum | sp.Product) -> sp.Basic:
        if len(e.limits) != 1:
            raise _Stop("a sum over several indices")
        k, lo, hi = e.limits[0]
        lo, hi = self.walk(lo), self.walk(hi)
        if not (isinstance(lo, sp.Integer) and isinstance(hi, sp.Integer)):
            raise _Stop("a sum whose limits are not integers there (or an infinite one)")
        count = int(hi) - int(lo) + 1
        if count > MAX_TERMS:
            raise _Stop(f"a finite sum of {count} terms (more than {MAX_TERMS})")
        total: sp.Basic = sp.S.Zero if isinstance(e, sp.Sum) else sp.S.One
        saved = self.point.get(k)
        try:
            for i in range(int(lo), int(hi) + 1):
                self.point[k] = sp.Integer(i)
                term = self.walk(e.function)
                total = _bounded(total + term if isinstance(e, sp.Sum) else total * term)
        finally:
            if saved is None:
                self.point.pop(k, None)
            else:
                self.point[k] = saved
        return total


def _phi_family(e: sp.Function) -> bool:
    """The project's real functions with an algebraic ``eval`` (Phi, PhiInv, expm1, log1p):
    their values at numbers are symbolic constants, never large integers."""
    from symbolic.functions import NumericFunction, Phi, PhiInv, expm1, log1p

    return isinstance(e, Phi | PhiInv | expm1 | log1p) and not isinstance(e, NumericFunction)


def _bounded(value: sp.Basic) -> sp.Basic:
    if isinstance(value, sp.Rational):
        bits = max(int(value.p).bit_length(), int(value.q).bit_length())
        if bits > MAX_BITS:
            raise _Stop(f"an intermediate rational has {bits} bits (over {MAX_BITS})")
    return value
