"""Definite integrals by an antiderivative that is checked by differentiation.

``Integral(f, (x, a, b))`` is replaced by ``F(b) - F(a)`` (the fundamental theorem of
calculus) only when every premise of the theorem is established here, not taken from SymPy:

* ``F`` comes from SymPy's indefinite integration, but it is trusted only after
  ``simplify(diff(F, x) - f) == 0``;
* ``F`` is continuous on the whole real line, which is shown by its shape alone: it is built
  from ``x``, ``x``-free expressions, ``+``, ``*``, powers of ``x``-dependent bases with
  nonnegative integer exponents, powers of a positive ``x``-free base, and the functions in
  :data:`CONTINUOUS` (continuous on all of R).  Anything else is refused: ``log``,
  ``1/x``-like powers, ``sqrt`` of an ``x``-dependent term, ``Abs`` (split first, see below),
  ``Piecewise``: each may have a pole, a branch point or a jump inside the interval, where
  ``F(b) - F(a)`` is not the integral (``Integral(1/x**2, (x, -1, 1))`` is ``oo``, while
  ``-1/x`` evaluated at the ends gives ``-2``);
* a kink ``Abs(c1*x + c0)`` with a nonzero number ``c1`` is removed by splitting the interval
  at its root ``r``, only when the interval is ``(-oo, oo)`` or has numeric ends with
  ``a <= r <= b``, each piece with ``Abs`` replaced by the sign the argument has there; when
  the symbols' assumptions show ``r <= a`` (or ``r >= b``) there is no split, the argument
  has one sign on the whole interval;
* an infinite end is evaluated by ``sp.limit`` only when the limit is justified by structure
  (:func:`_signed_form`): every ``x``-dependent ``exp(g)`` has ``g`` of degree 1 or 2 in
  ``x`` whose leading coefficient has the decaying sign, shown from the symbols' assumptions
  or as a hypothesis' positive expression times a positive factor; every ``erf``, ``erfc``
  or ``atan`` argument is ``c*x + d`` with the sign of ``c`` known.  SymPy's limit with symbolic
  parameters may otherwise assume a sign silently.  The limit must be finite and free of
  ``Limit`` and ``AccumBounds``.

Nothing here says an equality is false: a premise that is not established leaves the
integral as it is.  The classical statement used is the fundamental theorem of calculus for
a continuous antiderivative (e.g. Apostol, *Calculus* I, 1967, Thm. 5.3), and for an
infinite end its improper-integral form with ``F`` having a finite limit there.
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy as sp
from sympy.integrals.manualintegrate import manualintegrate

from symbolic.errors import SYMPY_FAILURES

# Functions continuous on all of R (for real arguments).
CONTINUOUS: tuple[type[sp.Function], ...] = (
    sp.exp,
    sp.sin,
    sp.cos,
    sp.erf,
    sp.erfc,
    sp.sinh,
    sp.cosh,
    sp.tanh,
    sp.atan,
)

# Integrands and antiderivatives past these sizes are not tried: the rung must stay cheap
# next to the 30 s bound the caller puts on the symbolic stage of links with integrals.
MAX_INTEGRAND_OPS = 80
MAX_ANTIDERIVATIVE_OPS = 200
# Splits at kinks, each one doubling the number of pieces.
MAX_KINKS = 3


def by_antiderivative(residual: sp.Expr, positive: Sequence[sp.Expr] = ()) -> sp.Expr:
    """``residual`` with each one-variable definite integral replaced by ``F(b) - F(a)``
    (innermost first), simplified; ``residual`` unchanged if any integral is refused.

    >>> x = sp.Symbol("x", real=True)
    >>> by_antiderivative(sp.Integral(sp.exp(-x), (x, 0, sp.oo)) - 1)
    0
    >>> by_antiderivative(sp.Integral(1/x**2, (x, -1, 1)) + 2) == 0
    False
    """
    current = residual
    for _ in range(8):
        inner = [i for i in current.atoms(sp.Integral) if not i.function.has(sp.Integral)]
        if not inner:
            break
        for integral in inner:
            value = definite(integral, positive)
            if value is None:
                return residual
            current = current.xreplace({integral: value})
    if current.has(sp.Integral):
        return residual
    # erfc against the erf an antiderivative of a Gaussian brings: simplify misses it.
    expanded = sp.expand(current.rewrite(sp.erf) if current.has(sp.erfc) else current)
    return expanded if expanded == 0 else sp.simplify(expanded)


def definite(integral: sp.Integral, positive: Sequence[sp.Expr] = ()) -> sp.Expr | None:
    """The value of a definite ``integral`` by a checked, continuous antiderivative, or
    None when a premise is not established.  Of an iterated integral only the innermost
    variable is done (``sp.Integral`` would merge a nested integral back into one): the rest
    is left as an integral for the next round."""
    first, *rest = integral.limits
    if len(first) != 3:
        return None
    x, a, b = first
    if a.has(x) or b.has(x):
        return None
    value = _pieces(integral.function, x, a, b, tuple(positive), MAX_KINKS)
    if value is None or not rest:
        return value
    return sp.Integral(value, *rest)


def _pieces(
    f: sp.Expr, x: sp.Symbol, a: sp.Expr, b: sp.Expr, positive: tuple[sp.Expr, ...], kinks: int
) -> sp.Expr | None:
    if a == b:
        return sp.S.Zero
    abses = [e for e in f.atoms(sp.Abs) if e.has(x)]
    if not abses:
        return _one_piece(f, x, a, b, positive)
    if kinks <= 0:
        return None
    kink = abses[0]
    poly = sp.Poly(kink.args[0], x) if kink.args[0].is_polynomial(x) else None
    if poly is None or poly.degree() != 1:
        return None
    c1, c0 = poly.all_coeffs()
    if not (c1.is_number and c1.is_nonzero) or c0.has(x):
        return None
    root = -c0 / c1
    whole_line = a == -sp.oo and b == sp.oo
    inside = (
        a.is_number
        and b.is_number
        and root.is_number
        and bool(sp.Le(a, root)) is True
        and bool(sp.Le(root, b)) is True
    )
    arg = kink.args[0]
    # Left of the root the argument has the sign of -c1, right of it the sign of c1.
    left_sign, right_sign = (-1, 1) if c1.is_positive else (1, -1)
    # A root at or beyond an end, shown from the symbols' assumptions (t >= 0 in
    # Integral(exp(-Abs(x)), (x, t, oo))): the argument keeps one sign on the whole interval.
    if (a - root).is_nonnegative is True:
        return _pieces(f.xreplace({kink: right_sign * arg}), x, a, b, positive, kinks - 1)
    if (root - b).is_nonnegative is True:
        return _pieces(f.xreplace({kink: left_sign * arg}), x, a, b, positive, kinks - 1)
    if not (whole_line or inside):
        return None
    left = _pieces(f.xreplace({kink: left_sign * arg}), x, a, root, positive, kinks - 1)
    right = _pieces(f.xreplace({kink: right_sign * arg}), x, root, b, positive, kinks - 1)
    if left is None or right is None:
        return None
    return left + right


def _one_piece(
    f: sp.Expr, x: sp.Symbol, a: sp.Expr, b: sp.Expr, positive: tuple[sp.Expr, ...]
) -> sp.Expr | None:
    f = sp.powsimp(f)
    if sp.count_ops(f) > MAX_INTEGRAND_OPS or not derivative_shaped(f, x):
        return None
    F = antiderivative(f, x)
    if F is None:
        return None
    upper = _at(F, x, b, positive)
    lower = _at(F, x, a, positive)
    if upper is None or lower is None:
        return None
    return upper - lower


def derivative_shaped(f: sp.Expr, x: sp.Symbol) -> bool:
    """``f`` could be the derivative of an antiderivative this module accepts: its
    ``x``-dependent functions are in :data:`CONTINUOUS` and its ``x``-dependent bases carry
    integer exponents (``atan`` brings ``1/(1 + u**2)``).  The derivative of every accepted
    ``F`` has this shape, so the filter refuses nothing that could pass; it spares SymPy's
    integration of ``exp(-x**2)*log(1 + x**2)`` (19 s) whose answer would be refused.

    >>> x = sp.Symbol("x", real=True)
    >>> derivative_shaped(1/(1 + x**2), x), derivative_shaped(sp.log(1 + x**2), x)
    (True, False)
    """
    for call in f.atoms(sp.Function):
        if call.has(x) and not isinstance(call, CONTINUOUS):
            return False
    for p in f.atoms(sp.Pow):
        if not p.has(x):
            continue
        if p.exp.has(x):
            if p.base.has(x) or p.base.is_positive is not True:
                return False
        elif not p.exp.is_Integer:
            return False
    return True


def antiderivative(f: sp.Expr, x: sp.Symbol) -> sp.Expr | None:
    """An antiderivative of ``f`` that is continuous on R and whose derivative is ``f``
    (checked), or None.  Candidates: SymPy's manual integration, then ``integrate``; of a
    ``Piecewise`` answer each branch is a candidate of its own, and only the check decides
    (at parameter values where a branch's ``x``-free denominator vanishes, the branch and
    so the result are undefined, as with the ladder's ``cancel``)."""
    for make in (manualintegrate, sp.integrate):
        try:
            raw = make(f, x)
        except SYMPY_FAILURES:
            continue
        branches = [e for e, _ in raw.args] if isinstance(raw, sp.Piecewise) else [raw]
        for candidate in branches:
            candidate = sp.powsimp(candidate)
            if checked_antiderivative(candidate, f, x):
                return candidate
    return None


def checked_antiderivative(F: sp.Expr, f: sp.Expr, x: sp.Symbol) -> bool:
    """``F`` is continuous on R by its shape and ``F' = f`` by differentiation.

    >>> x = sp.Symbol("x", real=True)
    >>> checked_antiderivative(-sp.exp(-x), sp.exp(-x), x)
    True
    >>> checked_antiderivative(sp.exp(-x), sp.exp(-x), x)
    False
    >>> checked_antiderivative(-1/x, x**-2, x)
    False
    """
    if F.has(sp.Integral, sp.Piecewise) or sp.count_ops(F) > MAX_ANTIDERIVATIVE_OPS:
        return False
    if not continuous_everywhere(F, x):
        return False
    gap = sp.diff(F, x) - f
    if sp.expand(gap) == 0:
        return True
    return bool(sp.simplify(gap) == 0)


def continuous_everywhere(e: sp.Expr, x: sp.Symbol) -> bool:
    """``e`` is continuous in real ``x`` on all of R, shown by its shape (see the module
    docstring); False means not shown, not discontinuous."""
    if not e.has(x):
        return True
    if e == x:
        return True
    if isinstance(e, (sp.Add, sp.Mul)):
        return all(continuous_everywhere(t, x) for t in e.args)
    if isinstance(e, sp.Pow):
        base, power = e.args
        if not power.has(x):
            return bool(power.is_Integer and power >= 0) and continuous_everywhere(base, x)
        # c**g(x) = exp(g(x) log c) for a positive constant c.
        return not base.has(x) and base.is_positive is True and continuous_everywhere(power, x)
    if isinstance(e, CONTINUOUS):
        return all(continuous_everywhere(t, x) for t in e.args)
    return False


def _at(F: sp.Expr, x: sp.Symbol, end: sp.Expr, positive: tuple[sp.Expr, ...]) -> sp.Expr | None:
    if end not in (sp.oo, -sp.oo):
        if end.has(sp.oo, -sp.oo, sp.zoo, sp.nan) or end.is_finite is False:
            return None
        return F.subs(x, end)
    direction = 1 if end == sp.oo else -1
    G = F.rewrite(sp.exp) if F.has(sp.sinh, sp.cosh, sp.tanh) else F
    signed = _signed_form(G, x, direction, positive)
    if signed is None:
        return None
    form, back = signed
    try:
        value = sp.limit(form, x, end)
    except SYMPY_FAILURES:
        return None
    if value.has(sp.Limit, sp.AccumBounds, sp.oo, -sp.oo, sp.zoo, sp.nan, x):
        return None
    if value.is_finite is False:
        return None
    return value.xreplace(back)


def _signed_form(
    F: sp.Expr, x: sp.Symbol, direction: int, positive: tuple[sp.Expr, ...]
) -> tuple[sp.Expr, dict[sp.Expr, sp.Expr]] | None:
    """``F`` with each leading coefficient that decides a limit written as ``±u`` for a new
    positive symbol ``u``, and the map ``u -> |c|`` back; None unless every ``x``-dependent
    function in ``F`` is ``exp`` of a decaying argument or ``erf``/``erfc``/``atan`` of
    ``c*x + d`` with the sign of ``c`` known, the rest polynomial in ``x`` (which a decaying
    exponential dominates).  ``direction``: +1 at oo, -1 at -oo.

    The rewrite is exact (``u = |c|``), so the limit in ``u`` evaluated at ``|c|`` is the
    limit of ``F``; it spares ``sp.limit`` a sign it cannot decide or would assume."""
    swap: dict[sp.Expr, sp.Expr] = {}
    back: dict[sp.Expr, sp.Expr] = {}
    for call in F.atoms(sp.Function):
        if not call.has(x):
            continue
        if not isinstance(call, (sp.exp, sp.erf, sp.erfc, sp.atan)):
            return None
        poly = _poly(call.args[0], x)
        if poly is None:
            return None
        degree = poly.degree()
        lead = poly.LC()
        if isinstance(call, sp.exp):
            # Degree 1: g -> -oo needs direction * c < 0; degree 2: c < 0 either way.
            if degree not in (1, 2):
                return None
            wanted = -1 if degree == 2 else -direction
            if _sign(lead, positive) != wanted:
                return None
            sign = wanted
        else:
            if degree != 1:
                return None
            found = _sign(lead, positive)
            if found is None:
                return None
            sign = found
        u = sp.Dummy("u", positive=True)
        back[u] = sign * lead
        rest = poly.as_expr() - lead * x**degree
        swap[call] = call.func(sign * u * x**degree + rest)
    for p in F.atoms(sp.Pow):
        if p.has(x) and p.exp.has(x):
            return None
    return F.xreplace(swap), back


def _poly(g: sp.Expr, x: sp.Symbol) -> sp.Poly | None:
    g = sp.expand(g)
    if not g.is_polynomial(x):
        return None
    poly = sp.Poly(g, x)
    if any(c.has(x) for c in poly.all_coeffs()):
        return None
    return poly


def _sign(c: sp.Expr, positive: tuple[sp.Expr, ...]) -> int | None:
    """+1 or -1 when the sign of ``c`` is decided by the symbols' assumptions, or when
    ``±c`` is a hypothesis' positive expression times a factor positive by assumptions."""
    if c.is_positive is True:
        return 1
    if c.is_negative is True:
        return -1
    for p in positive:
        for sign in (1, -1):
            factor = sp.cancel(sign * c / p)
            if factor.is_positive is True:
                return sign
    return None
