"""The derivative rule: ``g >= 0`` on an interval from its value at an end and the sign of
its derivative (the classical proof of ``tanh x >= x - x**3/3``, Bernstein's
``(1 + x) log(1 + x) - x >= x**2/(2 + 2x/3)`` and their kind).

For a variable ``x`` with a lower bound ``a`` (a fact ``x >= a`` with ``a`` free of ``x``, or
the assumption ``x >= 0``) and optional upper bound ``b``:

* **forward**: ``g(a) >= 0`` and ``g'(x) >= 0`` on ``(a, b)`` give ``g >= 0`` on ``[a, b]``;
* **backward** (the symmetric form): ``g(b) >= 0`` and ``g'(x) <= 0`` on ``(a, b)``;
* an infinite end by SymPy's limit there: ``g' <= 0`` on ``(a, oo)`` and ``g -> L >= 0``
  give ``g >= L`` (the Mills ratio ``Phi(-x) <= phi(x)/x``);
* **split** at a stationary point (a real root of a factor of ``g'`` of degree at most 2 in
  ``x``, such as ``sqrt(2/pi)`` for the Chernoff bound ``Phi(-x) <= exp(-x**2/2)/2``), or
  at 0 when ``x`` has no bound, each piece by the forms above.

This is the mean value theorem, so ``g`` must be continuous on the closed interval and
differentiable inside: every denominator is proved nonzero, every ``log`` argument positive
and every fractional power's base positive on it, and only functions differentiable on their
domain may occur (:data:`SMOOTH`).  The subgoals use only the facts free of ``x`` and the
bounds of ``x`` (any point between ``a`` and a point of the domain then satisfies them), and
are proved by the rules, the decision procedure, or this rule again up to :data:`MAX_DEPTH`.
A goal ``f <= h`` with both sides positive and an exponential on one side is also tried as
``log f <= log h`` (``cosh x <= exp(x**2/2)`` is ``log cosh x <= x**2/2``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import sympy as sp

from symbolic.functions import Phi, expm1, log1p
from symbolic.rules.facts import Fact

MAX_DEPTH = 3
MAX_VARIABLES = 2
"""Variables tried as the one to differentiate in (the first two by name)."""
MAX_OPS = 80
MAX_SYMBOLS = 3
"""Larger goals are the catalog's many-symbol steps, where each failing subgoal search is
costly and the rule has never helped."""
MAX_ENDS = 2
"""Bounds of a variable tried as the end to start from."""
MAX_GOAL_OPS = 24
MAX_GOAL_SYMBOLS = 2
"""The largest goal the rule starts on (its subgoals may grow to :data:`MAX_OPS` and
:data:`MAX_SYMBOLS`): a cost cap.  The textbook inequalities users bring are small (at most
14 operations in 2 variables among the test suite's 42 claims); the catalog's steps that no
rule proves (3 or 4 variables, or 21 to 58 operations) cost the rule about 10 s each to fail
(classical-gaussian-mechanism 4 s -> 12 s), and they stay certified without it."""

Prove = Callable[[sp.Expr, bool, Sequence[Fact], int], str | None]
"""``prove(g, strict, facts, depth)``: the full search (rules, decision, this rule)."""

SMOOTH: tuple[type, ...] = (
    sp.exp,
    sp.log,
    sp.tanh,
    sp.cosh,
    sp.sinh,
    sp.atan,
    sp.sin,
    sp.cos,
    sp.erf,
    sp.erfc,
    Phi,
    expm1,
    log1p,
)


def derivative_rule(
    g: sp.Expr, strict: bool, facts: Sequence[Fact], depth: int, prove: Prove
) -> str | None:
    """A proof of ``g >= 0`` (``> 0``) by the derivative rule in one of its variables."""
    ops = sp.count_ops(g)
    if depth >= MAX_DEPTH or len(g.free_symbols) > MAX_SYMBOLS or ops > MAX_OPS:
        return None
    if depth == 0 and (ops > MAX_GOAL_OPS or len(g.free_symbols) > MAX_GOAL_SYMBOLS):
        return None
    # An integer variable is skipped: the subgoals would hold between its integers only if
    # proved without its integrality, which the rules may use.
    reals = (s for s in g.free_symbols if s.is_real and not s.is_integer)
    candidates = sorted(reals, key=str)[:MAX_VARIABLES]
    for x in candidates:
        if not _smooth(g, x):
            continue
        trace = _in_variable(g, x, strict, facts, depth, prove)
        if trace is not None:
            return trace
    return None


def _in_variable(
    g: sp.Expr, x: sp.Symbol, strict: bool, facts: Sequence[Fact], depth: int, prove: Prove
) -> str | None:
    free = [f for f in facts if x not in f.expr.free_symbols]
    lowers, uppers = _bounds(x, facts)
    # Between an end and a point of the domain, x need not have its sign assumption (the
    # end may be a bound such as y - 5 of a positive x): the subgoals are about a plain
    # real variable, with only the interval's bounds as facts.
    plain = sp.Symbol(x.name, real=True)
    g = g.xreplace({x: plain})
    x = plain
    dg = _tidy(sp.diff(g, x))
    if dg == 0 or sp.count_ops(dg) > MAX_OPS:
        return None
    far_up = uppers[0] if uppers else None
    far_down = lowers[0] if lowers else None

    def on(lo: Bound | None, hi: Bound | None) -> str | None:
        """g >= 0 on the interval from lo to hi (None: infinite), from either end."""
        ends: list[tuple[Bound, Bound | None, bool]] = []
        if lo is not None:
            ends.append((lo, hi, True))
        if hi is not None:
            ends.append((hi, lo, False))
        if lo is None:
            ends.append(((-sp.oo, True), hi, True))
        if hi is None:
            ends.append(((sp.oo, True), lo, False))
        for near, far, forward in ends:
            far_end = far if far is not None else (None, False)
            trace = _one_side(g, dg, x, near, far_end, forward, strict, free, depth, prove)
            if trace is not None:
                return trace
        return None

    # A root of g' inside the interval where g' changes sign defeats monotonicity on the
    # whole interval: the split there goes first (it is cheap when it works, and the whole
    # interval's failing search would spend the subgoal budget).
    splits = [sp.S.Zero] if not lowers and not uppers else []
    for r in [*_stationary(dg, x, far_down, far_up), *splits]:
        point: Bound = (r, False)
        left = on(far_down, point)
        if left is None:
            continue
        right = on(point, far_up)
        if right is not None:
            return f"split at {x} = {r}: {left}; and {right}"
    starts: list[Bound | None] = [*lowers[:MAX_ENDS]] or [None]
    for lower in starts:
        trace = on(lower, far_up)
        if trace is not None:
            return trace
    for upper in uppers[1:MAX_ENDS]:
        trace = on(far_down, upper)
        if trace is not None:
            return trace
    return None


MAX_LIMIT_OPS = 40
"""Limits at infinity are asked of SymPy only on goals this small (gruntz can be slow)."""


def _stationary(dg: sp.Expr, x: sp.Symbol, lo: Bound | None, hi: Bound | None) -> list[sp.Expr]:
    """Real roots of ``dg`` inside the interval, from its numerator's factors of degree at
    most 2 in ``x`` alone (``x - sqrt(2/pi)`` of the Gaussian Chernoff bound's slope)."""
    if sp.count_ops(dg) > MAX_LIMIT_OPS:
        return []
    try:
        numerator = sp.together(dg).as_numer_denom()[0]
        # Functions of x held as opaque symbols: factor_list expanded exp((x - 10001/2000)**2)
        # and ran for minutes; only factors polynomial in x alone are wanted anyway.
        held = {
            f: sp.Dummy()
            for f in numerator.atoms(sp.Function, sp.Pow)
            if f.has(x) and not f.is_polynomial(x)
        }
        _, factors = sp.factor_list(numerator.xreplace(held))
    except (sp.PolynomialError, TypeError, ValueError, NotImplementedError):
        return []
    out: list[sp.Expr] = []
    for f, _ in factors:
        if f.free_symbols != {x} or not f.is_polynomial(x):
            continue
        poly = sp.Poly(f, x)
        if poly.degree() > 2:
            continue
        for r in sp.roots(poly):
            if not (r.is_real and r.is_number):
                continue
            low, high = (b[0] if b is not None else None for b in (lo, hi))
            if low is not None and low.is_number and not (r - low).is_positive:
                continue
            if high is not None and high.is_number and not (high - r).is_positive:
                continue
            out.append(r)
    return out[:2]


def _one_side(
    g: sp.Expr,
    dg: sp.Expr,
    x: sp.Symbol,
    near: tuple[sp.Expr, bool],
    far: tuple[sp.Expr | None, bool],
    forward: bool,
    strict: bool,
    free: Sequence[Fact],
    depth: int,
    prove: Prove,
) -> str | None:
    """``g(end) >= 0`` and the derivative's sign towards the far end ``other`` (or
    infinity), open or closed as the facts say: the interval is closed at ``end``, where
    ``g`` must be continuous since its value there is used."""
    other, other_open = far
    end, end_open = near
    infinite = end in (sp.oo, -sp.oo)
    if infinite:
        # g monotone towards an infinite end is bounded by its limit there
        at_end = _limit(g, x, end)
        if at_end is None:
            return None
    else:
        at_end = g.subs(x, end)
    if at_end.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        return None
    closed = [*free] if infinite else [*free, _bound_fact(x, end, forward, False)]
    inside = [*free] if infinite else [*free, _bound_fact(x, end, forward, True)]
    if other is not None:
        closed.append(_bound_fact(x, other, not forward, other_open))
        inside.append(_bound_fact(x, other, not forward, other_open))
        ends_fact = (
            []
            if infinite
            else [Fact(other - end if forward else end - other, False, "the interval")]
        )
    else:
        ends_fact = []
    for need in _continuity(g):
        if prove(need, True, closed, depth + 1) is None:
            return None
    slope = dg if forward else -dg
    # g(end) > 0 with g' >= 0; or, when the end is not in the domain, g(end) >= 0 with
    # g' > 0 inside (at a closed end g(end) = 0 would break a strict goal).
    tries = ((True, False), (False, True)) if strict else ((False, False),)
    if strict and not end_open:
        tries = ((True, False),)
    for end_strict, slope_strict in tries:
        start = prove(at_end, end_strict, [*free, *ends_fact], depth + 1)
        if start is None:
            continue
        step = prove(slope, slope_strict, inside, depth + 1)
        if step is None:
            continue
        far_text = str(other) if other is not None else ("oo" if forward else "-oo")
        open_far = other is None or other_open
        near_mark = ("(" if infinite else "[") if forward else (")" if infinite else "]")
        if forward:
            where = f"{near_mark}{end}, {far_text}{')' if open_far else ']'}"
        else:
            where = f"{'(' if open_far else '['}{far_text}, {end}{near_mark}"
        sign = "<=" if not forward else ">="
        at = f"as {x} -> {end}, the limit" if infinite else f"at {x} = {end},"
        return (
            f"derivative rule in {x} on {where}: {at} {at_end} "
            f"{'>' if end_strict else '>='} 0 ({start}); d/d{x} = {dg} {sign} 0 ({step})"
        )
    return None


def _limit(g: sp.Expr, x: sp.Symbol, end: sp.Expr) -> sp.Expr | None:
    if sp.count_ops(g) > MAX_LIMIT_OPS:
        return None
    try:
        value = sp.limit(g, x, end)
    except (NotImplementedError, ValueError, TypeError, RecursionError, AttributeError):
        return None
    if value.has(sp.AccumBounds, sp.Limit) or x in value.free_symbols:
        return None
    return value


def _bound_fact(x: sp.Symbol, end: sp.Expr, lower: bool, strict: bool) -> Fact:
    expr = x - end if lower else end - x
    return Fact(expr, strict, f"{x} {'>' if lower else '<'}{'' if strict else '='} {end}")


Bound = tuple[sp.Expr | None, bool]
"""A bound of a variable and whether it is open (strict)."""


def _bounds(x: sp.Symbol, facts: Sequence[Fact]) -> tuple[list[Bound], list[Bound]]:
    """The lower and upper bounds of ``x`` among facts ``c x + r >= 0`` (``c`` a number,
    ``r`` free of ``x``) and its sign assumption, each with whether it is open: the
    tightest numeric bound first, then the symbolic ones."""
    lower: list[Bound] = [(sp.S.Zero, bool(x.is_positive))] if x.is_nonnegative else []
    upper: list[Bound] = [(sp.S.Zero, bool(x.is_negative))] if x.is_nonpositive else []
    for f in facts:
        e = sp.expand(f.expr)
        if x not in e.free_symbols:
            continue
        c = e.coeff(x, 1)
        rest = e - c * x
        if not c.is_number or c == 0 or x in rest.free_symbols:
            continue
        bound = (-rest / c, f.strict)
        if c > 0:
            lower.append(bound)
        else:
            upper.append(bound)

    def order(sign: int) -> Callable[[Bound], tuple[int, float]]:
        def key(b: Bound) -> tuple[int, float]:
            return (0, -sign * float(b[0])) if b[0].is_number else (1, 0.0)  # type: ignore[union-attr,arg-type]

        return key

    return sorted(lower, key=order(1)), sorted(upper, key=order(-1))


def variables(g: sp.Expr, max_symbols: int, max_ops: int) -> list[sp.Symbol]:
    """The real, non-integer variables of ``g`` by name, the ones an interval rule may work
    in; none when ``g`` has more than ``max_symbols`` symbols or ``max_ops`` operations (the
    rules' cost caps).  An integer variable is skipped: the subgoals would hold between its
    integers only if proved without its integrality, which the rules may use."""
    if len(g.free_symbols) > max_symbols or sp.count_ops(g) > max_ops:
        return []
    return sorted((s for s in g.free_symbols if s.is_real and not s.is_integer), key=str)


def interval_text(lo: Bound | None, hi: Bound | None) -> str:
    """An interval from its bounds, ``(a, b]``; a missing bound is infinite."""
    left = "(-oo" if lo is None else f"{'(' if lo[1] else '['}{lo[0]}"
    right = "oo)" if hi is None else f"{hi[0]}{')' if hi[1] else ']'}"
    return f"{left}, {right}"


def _smooth(g: sp.Expr, x: sp.Symbol) -> bool:
    """Every node with ``x`` is a sum, product, power or a function of :data:`SMOOTH`
    (differentiable where defined); a power with ``x`` in its exponent has a positive base.
    Anything else (Abs, Max, Piecewise, an integral) is refused."""
    for node in sp.preorder_traversal(g):
        if not isinstance(node, sp.Basic) or x not in node.free_symbols:
            continue
        if isinstance(node, sp.Symbol | sp.Add | sp.Mul):
            continue
        if isinstance(node, sp.Pow):
            if x in node.exp.free_symbols and not node.base.is_positive:
                return False
            continue
        if not isinstance(node, SMOOTH) or len(node.args) != 1:  # type: ignore[attr-defined]
            return False
    return True


def _continuity(g: sp.Expr) -> list[sp.Expr]:
    """Goals ``> 0`` that make ``g`` continuous and differentiable where they hold."""
    out: list[sp.Expr] = []
    for node in sp.preorder_traversal(g):
        if isinstance(node, sp.log | log1p):
            arg = node.args[0] if isinstance(node, sp.log) else 1 + node.args[0]
            if not arg.is_positive:
                out.append(arg)
        elif isinstance(node, sp.Pow) and node.free_symbols:
            b, e = node.args
            if b.is_positive:
                continue
            if e.is_Integer and e > 0:
                continue
            if e.is_Integer:
                # a denominator: nonzero; its square is positive exactly then
                out.append(b**2)
            else:
                out.append(b)
    return list(dict.fromkeys(out))


def _tidy(e: sp.Expr) -> sp.Expr:
    """``sinh(u)/cosh(u)`` as ``tanh(u)`` (the derivative of ``log cosh``), so that the
    tanh lemmas apply."""

    def fix(m: sp.Expr) -> sp.Expr:
        if not isinstance(m, sp.Mul):
            return m
        factors = list(m.args)
        for s in [f for f in factors if isinstance(f, sp.sinh)]:
            inv = sp.cosh(s.args[0]) ** -1
            if inv in factors:
                factors.remove(s)
                factors.remove(inv)
                factors.append(sp.tanh(s.args[0]))
        return sp.Mul(*factors)

    return e.replace(lambda n: isinstance(n, sp.Mul), fix)


def log_form(small: sp.Expr, big: sp.Expr) -> sp.Expr | None:
    """``log(big) - log(small)`` when an exponential makes it simpler, else None (the
    caller proves both sides positive first)."""
    if not (small.has(sp.exp) or big.has(sp.exp)):
        return None
    out = sp.expand_log(sp.log(big), force=False) - sp.expand_log(sp.log(small), force=False)
    return out if sp.count_ops(out) <= MAX_OPS else None
