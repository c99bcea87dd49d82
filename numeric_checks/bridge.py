"""The one bridge from SymPy expressions to mpmath functions.

Each expression is compiled once with ``lambdify(..., modules="mpmath", cse=True)`` through
:class:`DpMpmathPrinter`, which fixes what SymPy's stock printer gets wrong for us: ``Sum`` is
summed in mpmath numbers (the stock printer iterates Python ints, so ``1/k**2`` is a float),
``Phi``/``PhiInv``, ``expm1``/``log1p``, ``LambertW`` and ``binomial`` map to mpmath, sums
go through :mod:`numeric_checks.sums` and integrals through :mod:`numeric_checks.integrals`
(an integral in the function's arguments alone is remembered per point and precision, so
links that share it run its quadrature once:
:func:`~numeric_checks.remembered_integrals.remembered_integral`).
Precision is never set here; callers wrap evaluation in
``mpmath.workdps``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from typing import Any

import mpmath
import sympy as sp
from sympy.printing.pycode import MpmathPrinter

from numeric_checks.bounded_exp import bounded_exp, guarded_exp
from numeric_checks.hoisting import hoisted
from numeric_checks.integrals import IntegralShape, analyse, integrate
from numeric_checks.mp import phi_inv
from numeric_checks.prepare import prepared
from numeric_checks.remembered_integrals import remembered_integral
from numeric_checks.renamed_symbols import renamed
from numeric_checks.rigorous.values import enclosed_value, nested_kinks, or_enclosed
from numeric_checks.rigorous.values import register as register_enclosure
from numeric_checks.sums import (
    binomial_walk,
    product_finite,
    sum_finite,
    sum_infinite,
    sum_range,
)
from symbolic.errors import EvaluationError
from symbolic.functions import NumericFunction


def _lazy(thunk: Callable[[], Any]) -> Any:
    """A thunk's value, or 0 where it is undefined (a sum's centre is only a hint)."""
    try:
        return thunk()
    except (ArithmeticError, ValueError, TypeError):
        return 0


class DpMpmathPrinter(MpmathPrinter):
    """SymPy's mpmath printer with Sum, Phi and PhiInv done in mpmath."""

    def __init__(self, settings: dict[str, Any]) -> None:
        super().__init__(settings)
        self.cse_back: list[tuple[sp.Symbol, sp.Expr]] = []
        """The common subexpressions hoisted out of the expression being printed, in
        order: an integrand is analysed with them substituted back (see :meth:`_shape`)."""
        self.integrands = 0
        """How many integrands enclose what is being printed (``exp`` there is guarded)."""
        self.args: frozenset[sp.Symbol] = frozenset()
        """The compiled function's arguments: an integral in these alone is remembered."""
        self.hoisted = 0
        """How many integrand constants have been named (:mod:`numeric_checks.hoisting`)."""

    def _original(self, expr: sp.Expr) -> sp.Expr:
        """``expr`` with the hoisted subexpressions substituted back (later ones first,
        since they may use earlier ones)."""
        for sym, value in reversed(self.cse_back):
            if expr.has(sym):
                expr = expr.xreplace({sym: value})
        return expr

    def _shape(self, inner: sp.Expr, var: sp.Symbol) -> IntegralShape:
        # Analysed on the original integrand, never its CSE form: the CSE symbols carry no
        # assumptions, so the hockey-stick kink of Max(0, x0*exp(..) - exp(..)) (found by
        # the positive-difference rule on the original) fell to a time-bounded solve that a
        # loaded machine lost, and the quadrature then failed at most points.
        return analyse(self._original(inner), var)

    def _registered(self, expr: sp.Expr) -> str:
        """``key, (values, ...)``: the node registered for numeric_checks.rigorous.values,
        with its free symbols' values in scope where it is evaluated."""
        original = self._original(expr)
        free = tuple(sorted(original.free_symbols, key=sp.default_sort_key))
        values = "".join(f"{self._print(v)}, " for v in free)
        return f"{register_enclosure(original, free)}, ({values})"

    def _fallback(self, expr: sp.Expr) -> str:
        """A thunk of the node's value from its Arb enclosure: what a sum or an integral
        falls back on where mpmath gives up."""
        return f"lambda: enclosed_value({self._registered(expr)})"

    def _print_Sum(self, expr: sp.Sum) -> str:
        # One compiled term, summed in one pass (numeric_checks.sums): never term-by-term
        # symbolic evaluation, and infinite ranges with a tail bound instead of nsum.
        body = self._print(expr.function)
        inner = expr.function
        fallback = self._fallback(expr) if len(expr.limits) == 1 else "None"
        # Innermost first: in Sum(f, (j, 1, k), (k, 1, n)) the first range is the inner one
        # and may use the outer index k, so it is wrapped first (reversed, k was unbound).
        for var, a, b in expr.limits:
            v = self._print(var)
            if a.is_infinite or b.is_infinite:
                centres = self._shape(inner, var).kinks
                centre = self._print(centres[0]) if centres else "0"
                body = (
                    f"sum_infinite(lambda {v}: {body}, {self._print(a)}, {self._print(b)}, "
                    f"_lazy(lambda: {centre}), {fallback})"
                )
            else:
                body = (
                    f"sum_finite(lambda {v}: {body}, {self._print(a)}, {self._print(b)}, "
                    f"{fallback})"
                )
            inner = sp.Sum(inner, (var, a, b))
        return f"({body})"

    def _print_Product(self, expr: sp.Product) -> str:
        # A product of symbolic length left unevaluated at an instance (Product(exp(eps),
        # (i, 1, k)) at k = 3): its factors one by one, as a finite sum's terms.
        body = self._print(expr.function)
        for var, a, b in expr.limits:  # innermost first, as in _print_Sum
            a_, b_ = self._print(a), self._print(b)
            body = f"product_finite(lambda {self._print(var)}: {body}, {a_}, {b_})"
        return f"({body})"

    def _print_exp(self, expr: sp.Expr) -> str:
        if self.integrands:
            # Quadrature nodes reach far into the tails (bounded_exp.guarded_exp).
            return f"guarded_exp({self._print(expr.args[0])})"
        return f"bounded_exp({self._print(expr.args[0])})"

    def _print_Integral(self, expr: sp.Integral) -> str:
        # Split at the kinks, scaled to the integrand's width (numeric_checks.integrals);
        # kinks and widths are thunks: undefined at a point, they only lose a breakpoint.
        self.integrands += 1
        try:
            function, named = hoisted(expr.function, expr.free_symbols, self._hoist_symbol)
            body = self._print(function)
            constants = [(self._print(sym), self._print(value)) for sym, value in named]
        finally:
            self.integrands -= 1
        inner, single = expr.function, len(expr.limits) == 1
        for var, a, b in reversed(expr.limits):
            shape = self._shape(inner, var)
            kinks = [f"lambda: {self._print(k)}" for k in shape.kinks]
            if single:  # kinks inside kinks, found numerically at the point
                where = f"{self._registered(expr)}, {self._print(a)}, {self._print(b)}"
                kinks.append(f"*nested_kinks({where})")
            body = (
                f"integrate(lambda {self._print(var)}: {body}, {self._print(a)}, "
                f"{self._print(b)}, [{', '.join(kinks)}], lambda: "
                f"{self._print(shape.left_width)}, lambda: {self._print(shape.right_width)}, "
                f"lambda {self._print(var)}: {self._print(shape.rate)})"
            )
            inner = sp.Integral(inner, (var, a, b))
        if single:
            # Where the quadrature does not converge, the integral's Arb enclosure gives the
            # value (numeric_checks.rigorous.values), or nothing does.
            body = f"or_enclosed(lambda: {body}, {self._fallback(expr)})"
        if constants:
            # The integrand's parts free of the integration variables are computed once per
            # quadrature, not once per node (exp(eps) and 1/sqrt(2 pi) in a hockey-stick
            # integrand): bound as the parameters of a lambda called with their values.
            names = ", ".join(name for name, _ in constants)
            values = ", ".join(value for _, value in constants)
            body = f"(lambda {names}: {body})({values})"
        original = self._original(expr)
        free = sorted(original.free_symbols, key=sp.default_sort_key)
        if self.integrands or not set(free) <= self.args:
            return body
        # The same integral at the same point and precision is the same quadrature: the
        # links of a chain share their integrals (gdp-to-dp's steps 1-3 share each of
        # three), so its value is remembered, keyed by the integral in its original form.
        key = sp.srepr(original)  # exact: assumptions and dummy indices included
        values = "".join(f"{self._print(v)}, " for v in free)
        return f"remembered_integral({key!r}, ({values}), lambda: {body})"

    def _hoist_symbol(self) -> sp.Symbol:
        self.hoisted += 1
        return sp.Symbol(f"_c{self.hoisted}")

    def _print_Phi(self, expr: sp.Expr) -> str:
        return f"{self._module_format('mpmath.ncdf')}({self._print(expr.args[0])})"

    def _print_PhiInv(self, expr: sp.Expr) -> str:
        return f"phi_inv({self._print(expr.args[0])})"

    def _print_expm1(self, expr: sp.Expr) -> str:
        return f"{self._module_format('mpmath.expm1')}({self._print(expr.args[0])})"

    def _print_log1p(self, expr: sp.Expr) -> str:
        return f"{self._module_format('mpmath.log1p')}({self._print(expr.args[0])})"

    def _print_LambertW(self, expr: sp.Expr) -> str:
        # The principal branch; below -1/e its value is complex, which to_real refuses.
        args = ", ".join(self._print(a) for a in expr.args)
        return f"{self._module_format('mpmath.lambertw')}({args})"

    def _print_binomial(self, expr: sp.Expr) -> str:
        # The stock printer goes through gamma, which has poles where binomial is 0
        # (binomial(3, 5)); mpmath.binomial takes the limit, and binomial_walk uses it
        # except between a sum's consecutive terms (the recurrence, numeric_checks.sums).
        n, k = (self._print(a) for a in expr.args)
        return f"binomial_walk({n}, {k})"

    def _print_Function(self, expr: sp.Expr) -> str:
        # SymPy dispatches Function subclasses only on their own name (or a *Base), so the
        # numeric functions are recognised here rather than by a _print_NumericFunction.
        if isinstance(expr, NumericFunction):
            args = ", ".join(self._print(a) for a in expr.args)
            return f"numeric_{type(expr).__name__}({args})"
        return super()._print_Function(expr)

    def _print_Max(self, expr: sp.Expr) -> str:
        return "max(" + ", ".join(self._print(a) for a in expr.args) + ")"

    def _print_Min(self, expr: sp.Expr) -> str:
        return "min(" + ", ".join(self._print(a) for a in expr.args) + ")"


_NAMESPACE = {
    "remembered_integral": remembered_integral,
    "phi_inv": phi_inv,
    "sum_range": sum_range,
    "sum_finite": sum_finite,
    "product_finite": product_finite,
    "sum_infinite": sum_infinite,
    "integrate": integrate,
    "guarded_exp": guarded_exp,
    "bounded_exp": bounded_exp,
    "binomial_walk": binomial_walk,
    "_lazy": _lazy,
    "enclosed_value": enclosed_value,
    "or_enclosed": or_enclosed,
    "nested_kinks": nested_kinks,
}


def _printer() -> DpMpmathPrinter:
    return DpMpmathPrinter(
        {
            "fully_qualified_modules": False,
            "inline": True,
            "allow_unknown_functions": False,
            "user_functions": {},
        }
    )


def _cse_ignoring(
    exprs: tuple[sp.Expr, ...], printer: DpMpmathPrinter
) -> Callable[..., Any] | bool:
    """CSE that never hoists a subexpression of an Integral's or Sum's bound variable out of
    its lambda (which would raise NameError at evaluation).  The hoisted subexpressions are
    handed to ``printer``, which analyses integrands in their original form."""
    bound = {v for e in exprs for op in e.atoms(sp.Integral, sp.Sum) for v in op.variables}
    if not bound:
        return True

    def cse(xs: Any) -> Any:
        replacements, reduced = sp.cse(xs, ignore=tuple(bound))
        printer.cse_back = list(replacements)
        return replacements, reduced

    return cse


@cache
def _memoised(cls: type) -> Callable[..., Any]:
    """The numeric function's implementation with its values remembered per precision: a
    claim and its first step often share a side that costs a quadrature per point."""
    impl = cls.impl  # type: ignore[attr-defined]

    @lru_cache(maxsize=4096)
    def at(prec: int, *args: Any) -> Any:
        return impl(*args)

    def call(*args: Any) -> Any:
        return at(mpmath.mp.prec, *args)

    return call


@lru_cache(maxsize=4096)
def _compile(args: tuple[sp.Symbol, ...], exprs: tuple[sp.Expr, ...]) -> Callable[..., Any]:
    args, exprs = renamed(args, exprs)
    namespace = dict(_NAMESPACE)
    for e in exprs:
        for f in e.atoms(NumericFunction):
            namespace[f"numeric_{type(f).__name__}"] = _memoised(type(f))  # type: ignore[arg-type]
    printer = _printer()
    printer.args = frozenset(args)
    return sp.lambdify(
        list(args),
        list(exprs),
        modules=[namespace, "mpmath"],
        printer=printer,
        cse=_cse_ignoring(exprs, printer),
        docstring_limit=0,
    )


def compile_exprs(args: Sequence[sp.Symbol], exprs: Sequence[sp.Expr]) -> Callable[..., list[Any]]:
    """Compile several expressions sharing subexpressions into one function of ``args``.

    >>> x = sp.Symbol("x")
    >>> f = compile_exprs([x], [sp.Sum(1 / sp.Symbol("k", integer=True)**2,
    ...                               (sp.Symbol("k", integer=True), 1, x))])
    >>> with mpmath.workdps(30):
    ...     print(f(mpmath.mpf(3))[0])
    1.36111111111111111111111111111
    """
    return _compile(tuple(args), tuple(prepared(e) for e in exprs))


_MPF = mpmath.mpf
# What an expression raises where it is undefined (log of 0, overflowing gamma, a quadrature
# that does not converge): the point is undefined, not the program broken.
UNDEFINED_ERRORS = (
    ZeroDivisionError,
    ValueError,
    OverflowError,
    TypeError,
    ArithmeticError,
    mpmath.libmp.NoConvergence,
)
_NAN = mpmath.libmp.fnan


def to_real(value: Any) -> Any:
    """An mpmath real, or raise :class:`EvaluationError` for complex/NaN values."""
    if type(value) is _MPF:  # the common case, kept cheap: this runs once per side per point
        if value._mpf_ == _NAN:
            raise EvaluationError("NaN")
        return value
    if isinstance(value, mpmath.mpc):
        if value.imag != 0:
            raise EvaluationError(f"complex value {value}")
        return to_real(value.real)
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, int | float):
        return to_real(_MPF(value))
    if isinstance(value, _MPF):
        return to_real(_MPF(value))
    if isinstance(value, mpmath.ctx_mp_python._constant):
        # A side that is a bare constant (``E``, ``pi``): its value at the current precision.
        return to_real(+value)
    raise EvaluationError(f"not a real number: {value!r}")


def _argument(v: Any, prec: int) -> Any:
    """A point's coordinate as an mpmath number at ``prec`` bits: a coordinate standing
    for an exact number (:class:`~numeric_checks.exact_points.ExactMpf`) is taken at this
    precision, so that more digits sharpen the point as well as the arithmetic."""
    at = getattr(v, "at", None)
    if at is not None and getattr(v, "exact", None) is not None:
        return at(prec)
    return _MPF(v)


def evaluate(fn: Callable[..., list[Any]], values: Sequence[Any], dps: int) -> list[Any]:
    """Evaluate a compiled function at ``dps`` digits; undefined values raise
    :class:`EvaluationError`.  The precision is restored afterwards (set and reset by hand:
    ``workdps`` costs a sizeable share of a 20 us evaluation)."""
    ctx = mpmath.mp
    old = ctx.prec
    ctx.dps = dps
    try:
        args = [v if type(v) is _MPF else _argument(v, ctx.prec) for v in values]
        raw = fn(*args)
        return [to_real(v) for v in raw]
    except EvaluationError:
        raise
    except UNDEFINED_ERRORS as exc:
        raise EvaluationError(f"{type(exc).__name__}: {exc}") from None
    finally:
        ctx.prec = old


def evaluate_many(
    fn: Callable[..., list[Any]], points: Sequence[Sequence[Any]], dps: int
) -> list[list[Any] | EvaluationError]:
    """Evaluate at many points under one precision setting (the spot check's first pass).
    A point whose value is undefined yields its :class:`EvaluationError` instead of a list.
    Points must hold mpmath numbers already (the sampler's always do)."""
    ctx = mpmath.mp
    old = ctx.prec
    ctx.dps = dps
    out: list[list[Any] | EvaluationError] = []
    append = out.append
    try:
        prec = ctx.prec
        for values in points:
            try:
                raw = fn(*[v if type(v) is _MPF else _argument(v, prec) for v in values])
                append([to_real(v) for v in raw])
            except EvaluationError as exc:
                append(exc)
            except UNDEFINED_ERRORS as exc:
                append(EvaluationError(f"{type(exc).__name__}: {exc}"))
    finally:
        ctx.prec = old
    return out
