"""The convex-chord rule: on a bounded interval a convex function lies below its chord and a
concave one above it (e.g. Boyd & Vandenberghe 2004, section 3.1.1; Hardy, Littlewood &
Polya 1934, section 3.5).  It is the classical proof of ``e^eps - 1 <= 2 eps`` for
``eps`` in ``(0, 1]`` (the step of amplification by subsampling, Balle, Barthe & Gaboardi
2018, Theorem 9: ``e^eps - 1`` is convex, its chord from 0 to 1 is ``(e - 1) eps``, and
``e - 1 <= 2``), of Jordan's inequality ``sin x >= 2x/pi`` on ``[0, pi/2]`` and of
``tanh x >= tanh(1) x`` on ``[0, 1]``: claims whose sides touch at both ends of the
interval, where the first-order derivative rule fails (the slope changes sign inside) and
box certification cannot split down to the touching points.

For ``small <= big`` and a variable ``x`` with bounds ``a <= x <= b`` (the tightest bounds
the facts and the symbol's assumptions give; ``a`` and ``b`` may contain parameters):

* **concave gap**: ``h = big - small`` with ``h'' <= 0`` on ``(a, b)`` and continuous on
  ``[a, b]`` is concave there, so ``h(x) >= min(h(a), h(b))``; ``h(a) >= 0`` and
  ``h(b) >= 0`` give ``h >= 0``.  When ``big`` is linear in ``x`` this is "``small`` is
  convex: below its chord, and the chord is below ``big`` at both ends" (a linear ``big``
  minus the chord is linear, so its ends decide it); when ``small`` is linear, "``big`` is
  concave: above its chord".
* **chord of one side**: ``small'' >= 0`` gives ``small <= L`` with ``L`` the chord of
  ``small`` between ``a`` and ``b`` (for ``b > a``), and the subgoal ``big - L >= 0`` on
  ``[a, b]`` goes to the full search; the mirror with ``big'' <= 0``: ``L_big - small >= 0``.

The subgoals (the sign of the second derivative on the interval, the values at its ends,
the chord comparison) use only the facts free of ``x`` plus the interval's bounds, as the
derivative rule does (:mod:`.derivative`), and go to the same search: the rules, the
decision procedure, the derivative rules.  Continuity on the closed interval and twice
differentiability inside are proved, not assumed: only functions smooth on their domain
occur, every log argument and denominator is positive (nonzero) on ``[a, b]``, and a
fractional power's base is nonnegative on ``[a, b]`` and positive inside.

A strict goal needs one end strictly positive and every closed end where ``h`` is only
``>= 0`` refused: a concave ``h`` with ``h(a) > 0`` is positive on ``[a, b)``.
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy as sp

from symbolic.functions import log1p
from symbolic.rules.derivative import (
    MAX_OPS,
    Bound,
    Prove,
    _bound_fact,
    _bounds,
    _smooth,
    _tidy,
    interval_text,
    variables,
)
from symbolic.rules.facts import Fact
from symbolic.rules.samples import negative_somewhere

MAX_GOAL_OPS = 20
"""The largest gap the rule reads (a cost cap): users' one-line claims are at most 18
operations (tests/claims/user), and the catalog's Gaussian-mechanism step of 21 operations,
a Phi of logs where no chord helps, cost 3 s to fail (second derivatives of Phi evaluated
at sample points, subgoals on them)."""
MAX_SYMBOLS = 3
MAX_VARIABLES = 2
"""Variables tried (the first two by name that have bounds at both ends)."""

CONVEX = "convex"
CONCAVE = "concave"


def chord_rule(
    small: sp.Expr, big: sp.Expr, strict: bool, facts: Sequence[Fact], depth: int, prove: Prove
) -> str | None:
    """A proof of ``small <= big`` (``<``) by the convex-chord rule, or None."""
    small, big = sp.sympify(small), sp.sympify(big)
    gap = big - small
    tried = 0
    for x in variables(gap, MAX_SYMBOLS, MAX_GOAL_OPS):
        lowers, uppers = _bounds(x, facts)
        if not lowers or not uppers or not _smooth(gap, x):
            continue
        if tried >= MAX_VARIABLES:
            break
        tried += 1
        trace = _in_variable(small, big, x, lowers[0], uppers[0], strict, facts, depth, prove)
        if trace is not None:
            return trace
    return None


def _in_variable(
    small: sp.Expr,
    big: sp.Expr,
    x: sp.Symbol,
    lo: Bound,
    hi: Bound,
    strict: bool,
    facts: Sequence[Fact],
    depth: int,
    prove: Prove,
) -> str | None:
    a, b = lo[0], hi[0]
    if a is None or b is None or x in a.free_symbols | b.free_symbols:
        return None
    # Between the interval's ends x need not carry its sign assumption (a bound may be a
    # parameter): the subgoals are about a plain real variable with only the bounds.
    plain = sp.Symbol(x.name, real=True)
    small, big = small.xreplace({x: plain}), big.xreplace({x: plain})
    x = plain
    free = [f for f in facts if x.name not in {s.name for s in f.expr.free_symbols}]
    ordered = [*free, Fact(b - a, False, "the interval")]
    closed = [*free, _bound_fact(x, a, True, False), _bound_fact(x, b, False, False)]
    inside = [*free, _bound_fact(x, a, True, True), _bound_fact(x, b, False, True)]
    where = interval_text(lo, hi)
    gap = big - small
    if not _some_shape(small, big, gap, x, (lo, hi), inside):
        return None  # no second derivative of the right sign: nothing to spend subgoals on
    needs = _regularity(gap, x)
    if any(_fails_at_an_end(need, s, x, (a, b)) for need, s, on in needs if on == "closed"):
        return None
    for need, s, on in needs:
        if prove(need, s, closed if on == "closed" else inside, depth + 1) is None:
            return None
    trace = _concave_gap(small, big, gap, x, (lo, hi), strict, ordered, inside, depth, prove)
    if trace is not None:
        return f"chord rule in {x} on {where}: {trace}"
    if strict or prove(b - a, True, free, depth + 1) is None:
        return None
    for side, shape in ((small, CONVEX), (big, CONCAVE)):
        trace = _chord_of(side, shape, small, big, x, a, b, closed, inside, depth, prove)
        if trace is not None:
            return f"chord rule in {x} on {where}: {trace}"
    return None


def _some_shape(
    small: sp.Expr,
    big: sp.Expr,
    gap: sp.Expr,
    x: sp.Symbol,
    ends: tuple[Bound, Bound],
    inside: list[Fact],
) -> bool:
    """Whether the gap may be concave, or ``small`` convex, or ``big`` concave: a second
    derivative not clearly of the wrong sign at a sample point of the interval."""
    for e, sign in ((gap, -1), (small, 1), (big, -1)):
        if not e.has(x) or _linear(e, x):
            continue
        second = _second(e, x)
        if second is not None and not _negative(sign * second, inside, x, ends):
            return True
    return False


def _fails_at_an_end(need: sp.Expr, strict: bool, x: sp.Symbol, ends: tuple) -> bool:
    """A condition on the closed interval that is false at one of its ends (``p/q > 0`` at
    ``p = 0``): no proof on the interval can exist, and none is sought."""
    for end in ends:
        value = need.subs(x, end)
        if value.is_zero and strict:
            return True
        if value.is_negative or negative_somewhere(value, []):
            return True
    return False


def _concave_gap(
    small: sp.Expr,
    big: sp.Expr,
    gap: sp.Expr,
    x: sp.Symbol,
    ends: tuple[Bound, Bound],
    strict: bool,
    ordered: list[Fact],
    inside: list[Fact],
    depth: int,
    prove: Prove,
) -> str | None:
    """``gap'' <= 0`` inside and ``gap >= 0`` at both ends."""
    minus_second = _second(-gap, x)
    if minus_second is None or _negative(minus_second, inside, x, ends):
        return None
    values = [gap.subs(x, end) for end, _ in ends]
    if any(v.has(sp.nan, sp.zoo, sp.oo, -sp.oo) for v in values):
        return None
    if any(negative_somewhere(v, [(f.expr, f.strict) for f in ordered]) for v in values):
        return None
    shown = _ends(values, ends, strict, ordered, depth, prove)
    if shown is None:
        return None
    concave = prove(minus_second, False, inside, depth + 1)
    if concave is None:
        return None
    ends_text = "; ".join(
        f"at {x} = {end}: {value} {'>' if want else '>='} 0 ({got})"
        for end, value, want, got in shown
    )
    lo_text, hi_text = ends[0][0], ends[1][0]
    if _linear(big, x):
        head = f"{small} is convex on [{lo_text}, {hi_text}]: below its chord"
    elif _linear(small, x):
        head = f"{big} is concave on [{lo_text}, {hi_text}]: above its chord"
    else:
        head = f"{gap} is concave on [{lo_text}, {hi_text}]: at least its smaller end value"
    return (
        f"{head}; second derivative of the gap {-minus_second} <= 0 ({concave}); "
        f"the gap at the ends: {ends_text}"
    )


def _ends(
    values: list[sp.Expr],
    ends: tuple[Bound, Bound],
    strict: bool,
    ordered: list[Fact],
    depth: int,
    prove: Prove,
) -> list[tuple[sp.Expr, sp.Expr, bool, str]] | None:
    """The gap's values at the ends proved ``>= 0``; for a strict goal ``> 0`` at both, or
    ``> 0`` at one end and ``>= 0`` at the other if that one is open (a concave function
    positive at one end and nonnegative at the other is positive between them)."""
    patterns = [(False, False)]
    if strict:
        patterns = [(True, True)]
        patterns += [(True, False)] if ends[1][1] else []
        patterns += [(False, True)] if ends[0][1] else []
    proofs: dict[tuple[int, bool], str | None] = {}
    for pattern in patterns:
        out = []
        for i, want in enumerate(pattern):
            if (i, want) not in proofs:
                proofs[i, want] = prove(values[i], want, ordered, depth + 1)
            got = proofs[i, want]
            if got is None:
                break
            out.append((ends[i][0], values[i], want, got))
        else:
            return out
    return None


def _chord_of(
    side: sp.Expr,
    shape: str,
    small: sp.Expr,
    big: sp.Expr,
    x: sp.Symbol,
    a: sp.Expr,
    b: sp.Expr,
    closed: list[Fact],
    inside: list[Fact],
    depth: int,
    prove: Prove,
) -> str | None:
    """``side`` convex (concave) inside, replaced by its chord, and the remaining
    comparison with the other side on the closed interval."""
    if not side.has(x) or _linear(side, x):
        return None
    second = _second(side, x)
    if second is None:
        return None
    signed = second if shape == CONVEX else -second
    if _negative(signed, inside, x, None):
        return None
    chord = side.subs(x, a) + (side.subs(x, b) - side.subs(x, a)) * (x - a) / (b - a)
    if chord.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        return None
    rest = big - chord if shape == CONVEX else chord - small
    if negative_somewhere(rest, [(f.expr, f.strict) for f in closed]):
        return None
    shape_proof = prove(signed, False, inside, depth + 1)
    if shape_proof is None:
        return None
    compared = prove(rest, False, closed, depth + 1)
    if compared is None:
        return None
    where = "below" if shape == CONVEX else "above"
    other = big if shape == CONVEX else small
    return (
        f"{side} is {shape} on [{a}, {b}]: {where} its chord {chord} "
        f"(second derivative {second} {'>=' if shape == CONVEX else '<='} 0: {shape_proof}); "
        f"the chord against {other}: {rest} >= 0 ({compared})"
    )


def _second(e: sp.Expr, x: sp.Symbol) -> sp.Expr | None:
    d2 = _tidy(sp.diff(e, x, 2))
    if d2 == 0:
        return sp.S.Zero
    d2 = sp.together(d2)
    return d2 if sp.count_ops(d2) <= MAX_OPS else None


def _negative(
    g: sp.Expr, facts: list[Fact], x: sp.Symbol, ends: tuple[Bound, Bound] | None
) -> bool:
    """``g`` clearly negative at a sample point of the facts (the ends and midpoint of a
    numeric interval among them): the subgoal ``g >= 0`` is false, no search is spent."""
    extra: dict[sp.Symbol, list[sp.Expr]] = {}
    if ends is not None:
        (a, _), (b, _) = ends
        if a is not None and b is not None and a.is_number and b.is_number:
            extra[x] = [(a + b) / 2, (3 * a + b) / 4, (a + 3 * b) / 4]
    return negative_somewhere(g, [(f.expr, f.strict) for f in facts], extra)


def _linear(e: sp.Expr, x: sp.Symbol) -> bool:
    return sp.diff(e, x, 2) == 0


def _regularity(g: sp.Expr, x: sp.Symbol) -> list[tuple[sp.Expr, bool, str]]:
    """Goals ``(e, strict, where)`` making ``g`` continuous on the closed interval and twice
    differentiable inside: a log argument positive on it, a denominator nonzero (its square
    positive), a fractional power's base nonnegative on it and positive inside
    (``sqrt(x)`` on ``[0, 1]``: continuous at 0, smooth after)."""
    out: list[tuple[sp.Expr, bool, str]] = []
    for node in sp.preorder_traversal(g):
        if not isinstance(node, sp.Basic) or x not in node.free_symbols:
            continue
        if isinstance(node, sp.log):
            if not node.args[0].is_positive:
                out.append((node.args[0], True, "closed"))
        elif isinstance(node, sp.Pow):
            base, e = node.args
            if base.is_positive or (e.is_Integer and e > 0):
                continue
            if e.is_Integer:
                out.append((base**2, True, "closed"))
            elif e.is_positive:
                out += [(base, False, "closed"), (base, True, "inside")]
            else:
                out.append((base, True, "closed"))
        elif isinstance(node, log1p):
            out.append((1 + node.args[0], True, "closed"))
    return list(dict.fromkeys(out))
