"""SymPy expressions compiled onto Arb balls (python-flint): rigorous enclosures.

An Arb ball is a midpoint and a radius; every operation returns a ball that contains the
exact result for every point of its input balls.  A residual whose ball lies entirely on one
side of zero therefore decides a relation for a whole box at once, and a ball that
straddles zero decides nothing (it is re-evaluated at higher precision, or the box split).

Compilation is once per expression list, with common subexpressions shared (``cse``), into
Python source over a fixed namespace of Arb operations.  Expressions outside what Arb can
enclose (opaque numeric functions, sums, integrals, PhiInv) raise :class:`Unsupported`.
Mpmath's ``iv`` module could not serve here: its erfc does not converge.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import sympy as sp
from flint import arb, ctx

from numeric_checks.prepare import prepared
from symbolic.binary_rationals import NotExact, binary_parts
from symbolic.errors import Unsupported
from symbolic.exact_numbers import NotEnclosable, rational_enclosure
from symbolic.functions import NumericFunction, Phi, PhiInv, expm1, log1p

ArbFn = Callable[..., list[Any]]


def _exp(x: Any) -> Any:
    return arb(x).exp()


def _log(x: Any) -> Any:
    return arb(x).log()


def _sqrt(x: Any) -> Any:
    return arb(x).sqrt()


def _ipow(x: Any, n: int) -> Any:
    """``x**n`` for an integer ``n``, by multiplication.  python-flint's ``arb ** int`` goes
    through ``arb_pow`` and gives a NaN ball whenever the base's ball holds 0 (the square of
    ``[0 +- 1e-39]`` is NaN): a side ``(x - 1/3)**2`` at x = 1/3 printed as "not finite",
    and no box crossing a zero of a base could be certified.  Such a ball's power is taken
    by repeated products, an even one clamped to its nonnegative part."""
    x = arb(x)
    if not x.contains(0) or not x.is_finite():
        return x**n  # Arb's own power, as before, where it is defined
    if n < 0:
        return 1 / _ipow(x, -n)
    even = n % 2 == 0
    result, base = arb(1), x
    while n:
        if n & 1:
            result = result * base
        n >>= 1
        if n:
            base = base * base
    # Arb's product of balls holding 0 reaches below 0; an even power does not.
    return result.nonnegative_part() if even else result


def _pow(x: Any, y: Any) -> Any:
    # x**y = exp(y log x) for x > 0; a ball reaching x <= 0 gives a NaN ball (undecided).
    return (arb(y) * arb(x).log()).exp()


def _phi(x: Any) -> Any:
    # Phi(x) = erfc(-x/sqrt(2))/2, accurate in the lower tail (erf would cancel there).
    return (-arb(x) / arb(2).sqrt()).erfc() / 2


def _binomial(n: Any, k: Any) -> Any:
    # gamma(n+1)/(gamma(k+1) gamma(n-k+1)) with 1/gamma (entire, Arb's rgamma): zero at
    # the poles, so binomial(3, 5) = 0 as SymPy and mpmath take it.
    n, k = arb(n), arb(k)
    return (n + 1).gamma() * (k + 1).rgamma() * (n - k + 1).rgamma()


def _phi_inv(p: Any) -> Any:
    """A rigorous ball of ``PhiInv(p)``: approximate roots for the ball's ends by mpmath's
    Newton iteration, then widened until Arb shows ``Phi(lo) < p_min`` and ``Phi(hi) >
    p_max``; since Phi increases strictly, the inverse of every point of ``p`` lies in
    ``[lo, hi]``.  NaN where that cannot be shown (``p`` reaching 0 or 1)."""
    import mpmath

    from numeric_checks.mp import phi_inv

    p = arb(p)
    if not (p > 0 and p < 1):
        return arb.nan()
    ends = []
    with mpmath.workprec(ctx.prec + 20):
        for end in (p.lower(), p.upper()):
            ends.append(arb(mpmath.nstr(phi_inv(mpmath.mpf(binary_parts(end))), ctx.prec)))
    lo, hi = ends
    gap = (abs(lo) + abs(hi) + 1) * arb(2) ** (20 - ctx.prec)
    for _ in range(8):
        if _phi(lo - gap) < p.lower() and _phi(hi + gap) > p.upper():
            return (lo - gap).union(hi + gap)
        gap *= 16
    return arb.nan()


def _sign(x: Any) -> Any:
    # The ball of every sign in x: exact where x excludes 0, else the hull with 0.
    x = arb(x)
    if x > 0:
        return arb(1)
    if x < 0:
        return arb(-1)
    if x.is_zero():
        return arb(0)
    return arb(-1 if x.lower() < 0 else 0).union(arb(1 if x.upper() > 0 else 0))


def _heaviside(x: Any, at_zero: Any = None) -> Any:
    # SymPy's Heaviside(0) is 1/2 unless given; the hull of the values x reaches.
    x = arb(x)
    half = arb(1) / 2 if at_zero is None else arb(at_zero)
    if x > 0:
        return arb(1)
    if x < 0:
        return arb(0)
    out = half
    if x.lower() < 0:
        out = out.union(arb(0))
    if x.upper() > 0:
        out = out.union(arb(1))
    return out


def _floor(x: Any, up: bool = False) -> Any:
    # The hull of the integer parts of the ball's ends (Arb's floor of a wide ball is
    # centred at 0).
    x = arb(x)
    lo, hi = x.lower(), x.upper()
    if not (lo.is_finite() and hi.is_finite()):
        return arb.nan()
    return lo.ceil().union(hi.ceil()) if up else lo.floor().union(hi.floor())


def _max(*xs: Any) -> Any:
    out = arb(xs[0])
    for x in xs[1:]:
        out = out.max(arb(x))
    return out


def _min(*xs: Any) -> Any:
    out = arb(xs[0])
    for x in xs[1:]:
        out = out.min(arb(x))
    return out


_UNARY = {
    sp.exp: "_exp",
    sp.log: "_log",
    sp.erf: "_erf",
    sp.erfc: "_erfc",
    sp.tanh: "_tanh",
    sp.sinh: "_sinh",
    sp.cosh: "_cosh",
    sp.sin: "_sin",
    sp.cos: "_cos",
    sp.atan: "_atan",
    sp.Abs: "abs",
    Phi: "_phi",
}

_EXTENDED_UNARY = {
    PhiInv: "_phi_inv",
    sp.factorial: "_factorial",
    sp.gamma: "_gamma",
    sp.loggamma: "_loggamma",
    expm1: "_expm1",
    log1p: "_log1p",
    sp.sign: "_sign",
    sp.floor: "_floor",
    sp.ceiling: "_ceiling",
}
"""Functions enclosed only for the confirmation of a counterexample (``extended=True``):
the certifier's branch-and-bound keeps to :data:`_UNARY`, so that its cost on the catalog
(and which steps it attempts) is what it was before confirmation needed them."""


def methods(convert: Callable[[Any], Any], **names: str) -> dict[str, Callable[[Any], Any]]:
    """Namespace entries ``_key: x -> convert(x).method()`` for ``key=method``: the functions
    each ball type (real, complex, power series) encloses by its own method of that name."""

    def call(method: str) -> Callable[[Any], Any]:
        return lambda x: getattr(convert(x), method)()

    return {f"_{key}": call(method) for key, method in names.items()}


NAMESPACE: dict[str, Any] = {
    "arb": arb,
    "abs": abs,
    "_exp": _exp,
    "_log": _log,
    "_sqrt": _sqrt,
    "_pow": _pow,
    "_ipow": _ipow,
    "_phi": _phi,
    "_max": _max,
    "_binomial": _binomial,
    "_phi_inv": _phi_inv,
    "_factorial": lambda x: (arb(x) + 1).gamma(),
    "_min": _min,
    "_sign": _sign,
    "_heaviside": _heaviside,
    "_floor": _floor,
    "_ceiling": lambda x: _floor(x, up=True),
    **methods(arb, gamma="gamma", loggamma="lgamma", expm1="expm1", log1p="log1p"),
    **methods(arb, erf="erf", erfc="erfc", tanh="tanh", sinh="sinh", cosh="cosh"),
    **methods(arb, sin="sin", cos="cos", atan="atan"),
}


def _code(e: sp.Basic, names: dict[sp.Basic, str], extended: bool = False) -> str:
    if e in names:
        return names[e]
    if e.is_Integer:
        return f"arb({int(e)})"
    if e.is_Rational:
        return f"(arb({int(e.p)}) / {int(e.q)})"
    if e.is_Float:
        man, exp = binary_parts(e)  # the exact binary value of the float
        return f"arb(({man}, {exp}))"
    if e is sp.pi:
        return "arb.pi()"
    if e is sp.E:
        return "arb.const_e()"
    if isinstance(e, sp.NumberSymbol):
        # EulerGamma, Catalan, GoldenRatio...: a ball over the checked rational enclosure.
        return _enclosure_code(e)
    if e.is_Add:
        return "(" + " + ".join(_code(a, names, extended) for a in e.args) + ")"
    if e.is_Mul:
        return "(" + " * ".join(_code(a, names, extended) for a in e.args) + ")"
    if e.is_Pow:
        base, expo = e.args
        b = _code(base, names, extended)
        if expo.is_Integer:
            return f"_ipow({b}, {int(expo)})"
        if expo == sp.S.Half:
            return f"_sqrt({b})"
        if expo == -sp.S.Half:
            return f"(1 / _sqrt({b}))"
        return f"_pow({b}, {_code(expo, names, extended)})"
    if extended and isinstance(e, sp.binomial):
        return (
            f"_binomial({_code(e.args[0], names, extended)}, {_code(e.args[1], names, extended)})"
        )
    if extended and isinstance(e, sp.Heaviside):
        return "_heaviside(" + ", ".join(_code(a, names, extended) for a in e.args) + ")"
    if isinstance(e, sp.Max | sp.Min):
        fn = "_max" if isinstance(e, sp.Max) else "_min"
        return f"{fn}(" + ", ".join(_code(a, names, extended) for a in e.args) + ")"
    if extended and isinstance(e, NumericFunction):
        from numeric_checks.dp.arb_functions import ARB_FUNCTIONS

        name = type(e).__name__
        if name not in ARB_FUNCTIONS:
            raise Unsupported(f"no rigorous enclosure for {name} in {e}")
        NAMESPACE.setdefault(f"_nf_{name}", ARB_FUNCTIONS[name])
        return f"_nf_{name}(" + ", ".join(_code(a, names, extended) for a in e.args) + ")"
    for cls, fn in (_UNARY | _EXTENDED_UNARY if extended else _UNARY).items():
        if isinstance(e, cls) and len(e.args) == 1:
            return f"{fn}({_code(e.args[0], names, extended)})"
    raise Unsupported(f"no rigorous enclosure for {type(e).__name__} in {e}")


def _enclosure_code(e: sp.Expr) -> str:
    """Arb source for a ball containing the constant ``e``: the union of the balls of the
    two ends of its checked rational enclosure (each division rounds outward)."""
    try:
        lo, hi = rational_enclosure(e)
    except NotEnclosable as exc:
        raise Unsupported(f"no rigorous enclosure for {e}: {exc}") from None
    ends = [f"(arb({int(r.p)}) / arb({int(r.q)}))" for r in (lo, hi)]
    return f"{ends[0]}.union({ends[1]})"


def refuse(exprs: Sequence[sp.Expr], what: str, kinds: tuple[type, ...] = ()) -> None:
    """Raise :class:`Unsupported` (``"{what} {kind}"``) for a sum, an integral, a derivative
    or one of ``kinds`` in ``exprs``: refused before any work."""
    for e in exprs:
        for node in sp.preorder_traversal(e):
            if isinstance(node, (sp.Sum, sp.Integral, sp.Derivative, *kinds)):
                raise Unsupported(f"{what} {type(node).__name__}")


def arguments(args: Sequence[sp.Symbol]) -> tuple[dict[sp.Basic, str], list[str]]:
    """The names of ``args`` in generated source and the source's first line."""
    names: dict[sp.Basic, str] = {a: f"_a{i}" for i, a in enumerate(args)}
    return names, [f"def _f({', '.join(names[a] for a in args)}):"]


def generated(
    names: dict[sp.Basic, str],
    lines: list[str],
    exprs: Sequence[sp.Expr],
    namespace: dict[str, Any],
    *,
    extended: bool,
    single: bool = False,
) -> Callable[..., Any]:
    """The function of the source ``lines`` (from :func:`arguments`) completed by the common
    subexpressions of ``exprs`` (``cse``) and their values, as a list (or the one value,
    ``single``), over ``namespace``: the real balls here, the complex balls of quadrature or
    the power series of Taylor enclosures."""
    replacements, reduced = sp.cse(list(exprs), symbols=sp.numbered_symbols("_t"))
    for sym, value in replacements:
        lines.append(f"    {sym.name} = {_code(value, names, extended)}")
        names[sym] = sym.name
    values = [_code(e, names, extended) for e in reduced]
    lines.append(f"    return {values[0]}" if single else f"    return [{', '.join(values)}]")
    scope: dict[str, Any] = dict(namespace)
    # The source is generated from SymPy trees by _code (numbers, fixed names): no user text.
    exec("\n".join(lines), scope)
    return scope["_f"]  # type: ignore[no-any-return]


@lru_cache(maxsize=512)
def _compile(
    args: tuple[sp.Symbol, ...], exprs: tuple[sp.Expr, ...], extended: bool = False
) -> ArbFn:
    refuse(exprs, "no rigorous enclosure for")
    names, lines = arguments(args)
    return generated(names, lines, exprs, NAMESPACE, extended=extended)


def compile_arb(
    args: Sequence[sp.Symbol], exprs: Sequence[sp.Expr], *, extended: bool = False
) -> ArbFn:
    """One function of Arb balls returning the enclosures of ``exprs``; ``extended`` also
    encloses factorials, gamma, binomials, expm1/log1p and the numeric functions of
    :mod:`numeric_checks.dp.arb_functions` (see :data:`_EXTENDED_UNARY`).

    >>> x = sp.Symbol("x", positive=True)
    >>> f = compile_arb([x], [sp.exp(x) - 1 - x])
    >>> ball = f(arb("0.5"))[0]
    >>> ball > 0
    True
    """
    return _compile(tuple(args), tuple(prepared(e) for e in exprs), extended)


def ball(lo: float, hi: float) -> Any:
    """The smallest Arb ball (at the current precision) containing [lo, hi]; binary floats
    convert exactly."""
    return arb(lo).union(arb(hi))


class precision:
    """Temporarily set Arb's working precision in bits."""

    def __init__(self, bits: int):
        self.bits = bits

    def __enter__(self) -> None:
        self.saved = ctx.prec
        ctx.prec = self.bits

    def __exit__(self, *exc: object) -> None:
        ctx.prec = self.saved


def exact_ball(value: Any) -> Any:
    """An mpmath number (or an int or float) as an exact Arb ball; a SymPy rational as the
    tightest ball around it."""
    if isinstance(value, sp.Rational):  # a derivation's own generated points
        return arb(int(value.p)) / int(value.q)  # exact unless q is not a power of 2
    exact = getattr(value, "exact", None)
    if isinstance(exact, sp.Expr):  # a coordinate standing for sqrt(2): its ball
        return compile_arb([], [exact])()[0]
    try:
        return arb(binary_parts(value))
    except NotExact:
        return arb.nan()  # inf or nan: a ball that decides nothing


def show(value: Any) -> str:
    """A ball as ``midpoint +- radius`` (``arb.str(n)`` would round the ball outward)."""
    return f"{value.mid().str(8, radius=False)} +- {value.rad().str(2, radius=False)}"
