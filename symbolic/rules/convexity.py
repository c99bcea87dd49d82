"""The concavity rule: a function concave on an interval lies above its chord there.

If ``H`` is twice differentiable on ``[lo, hi]`` with ``H'' <= 0`` there, then ``H`` is
concave and ``H(t) >= min(H(lo), H(hi))`` on ``[lo, hi]`` (a concave function attains its
minimum over an interval at an end; e.g. Boyd & Vandenberghe 2004, section 3.1).  So
``H(t) >= 0`` follows from ``H(lo) >= 0``, ``H(hi) >= 0`` and ``-H'' >= 0`` on the interval.

The rule finds ``H`` in the perspective form of an f-divergence (Csiszar 1967): a sum
``sum_i y_i H(x_i/y_i)`` with ``y_i > 0``, where the ratio ``r_i = x_i/y_i`` is the argument
of a log.  The terms containing ``r_i`` are grouped; a change of variable solves
``x_i = t y_i`` for one symbol of ``x_i``, and the group divided by ``y_i`` must become a
function of ``t`` (and of parameters).  The interval comes from facts linear in ``t``
(``x <= e^eps y`` gives ``t <= e^eps``).  This proves the chord step of the tight KL bound:
``r ln r`` is convex, so on ``[e^-eps, e^eps]`` it is below its chord.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sympy as sp

from symbolic.rules.facts import Context, Fact
from symbolic.rules.signs import is_zero, rest_nonnegative

if TYPE_CHECKING:
    from symbolic.rules.prover import Prover

CONVEXITY_MAX_DEPTH = 2  # the rule only this close to the root of a proof
MAX_RATIOS = 6
# Functions of t through which H may be built: smooth wherever their arguments are (log and
# non-integer powers are checked separately on the interval).
SMOOTH = (sp.exp, sp.log, sp.tanh, sp.sinh, sp.cosh, sp.atan, sp.erf)


def chord(prover: Prover, g: sp.Expr, strict: bool, depth: int) -> list[str] | None:
    """``g = sum_r y_r H_r(x_r/y_r) + rest >= 0`` with each ``H_r`` concave on an interval
    holding ``x_r/y_r`` and nonnegative at its ends."""
    if strict or depth > CONVEXITY_MAX_DEPTH or not g.has(sp.log):
        return None
    ratios = _ratios(g)
    if not ratios:
        return None
    groups: dict[sp.Expr, list[sp.Expr]] = {r: [] for r in ratios}
    rest: list[sp.Expr] = []
    for term in sp.Add.make_args(g):
        owners = [r for r in ratios if term.has(r)]
        if len(owners) == 1:
            groups[owners[0]].append(term)
        else:
            rest.append(term)
    trace = []
    for r, terms in groups.items():
        if not terms:
            continue
        shown = _concave_group(prover, r, sp.Add(*terms), depth)
        if shown is None:
            return None
        trace.append(shown)
    if not trace:
        return None
    left = rest_nonnegative(prover, rest, depth)
    if left is None:
        return None
    trace += left
    return ["concave in each ratio, nonnegative at the interval's ends: " + " ".join(trace)]


def _ratios(g: sp.Expr) -> list[sp.Expr]:
    """Quotients ``x/y`` (y not a number) that are arguments of logs in ``g``."""
    out = []
    for lg in sorted(g.atoms(sp.log), key=sp.default_sort_key):
        arg = lg.args[0]
        _, den = arg.as_numer_denom()
        if not den.is_number and arg not in out:
            out.append(arg)
    return out[:MAX_RATIOS]


def _concave_group(prover: Prover, r: sp.Expr, group: sp.Expr, depth: int) -> str | None:
    """``group = y H(x/y) >= 0`` by the concavity of ``H`` (None if not shown).

    ``x`` and ``y`` are first generalised to positive symbols ``X``, ``Y`` (by exact
    ``xreplace``, in the group and in the facts alike): what holds for every ``X, Y > 0``
    satisfying the replaced facts holds at ``X = x, Y = y``, which satisfy them.  Then
    ``X = t Y`` and the group divided by ``Y`` must be a function ``H`` of ``t``."""
    x, y = r.as_numer_denom()
    if not (prover.known_sign(x, True) and prover.known_sign(y, True)):
        return None
    big_x, big_y = sp.Dummy("X", positive=True), sp.Dummy("Y", positive=True)
    t = sp.Dummy("t", positive=True)
    general = {x: big_x, y: big_y}
    h = sp.expand(sp.expand(group.xreplace(general).subs(big_x, t * big_y)) / big_y)
    if h.has(big_x, big_y) or not h.has(t) or not _smooth(h, t):
        return None
    solved = _solve_linear(x, big_x, y.free_symbols)
    solved_y = _solve_linear(y, big_y, x.free_symbols)
    if solved is None or solved_y is None:
        return None
    lows, highs = _bounds(prover, {**solved, **solved_y}, big_x, big_y, t)
    for lo in lows:
        for hi in highs:
            shown = _concave_on(prover, h, t, lo, hi, depth)
            if shown is not None:
                return f"[{y} H({r}) with H(t) = {h}: {shown}]"
    return None


def _concave_on(
    prover: Prover, h: sp.Expr, t: sp.Dummy, lo: sp.Expr, hi: sp.Expr, depth: int
) -> str | None:
    """``H >= 0`` at ``lo`` and ``hi``, and ``H'' <= 0`` for ``t`` in ``[lo, hi]``."""
    for end in (lo, hi):
        value = h.subs(t, end)
        if not is_zero(prover, value) and prover.nonneg(value, False, depth + 1) is None:
            return None
    facts = [Fact(t - lo, False, f"t >= {lo}"), Fact(hi - t, False, f"t <= {hi}")]
    child = type(prover)(Context([*prover.ctx.facts, *facts]), prover.max_goals)
    minus_second = sp.together(-sp.diff(h, t, 2))
    sub = child.nonneg(minus_second, False, depth + 1)
    if sub is None:
        return None
    return f"H'' <= 0 on [{lo}, {hi}] ({' -> '.join(sub)}), H >= 0 at both ends"


def _bounds(
    prover: Prover,
    general: dict[sp.Expr, sp.Expr],
    big_x: sp.Dummy,
    big_y: sp.Dummy,
    t: sp.Dummy,
) -> tuple[list[sp.Expr], list[sp.Expr]]:
    """Lower and upper bounds of ``t = X/Y`` from facts that become ``A t + B >= 0`` with
    ``A`` of known sign, once one symbol of ``x`` and one of ``y`` are solved for ``X`` and
    ``Y`` (``general``: an exact change of variables, so a fact still holds at the point),
    and ``-B/A`` a number or a function of positive parameters (eps)."""
    lows: list[sp.Expr] = []
    highs: list[sp.Expr] = []
    for fact in prover.ctx.facts:
        replaced = fact.expr.subs(general, simultaneous=True)
        if not replaced.has(big_x):
            continue
        linear = sp.expand(replaced.subs(big_x, t * big_y))
        a, b = linear.coeff(t), linear.subs(t, 0)
        if a == 0 or a.has(t) or sp.expand(a * t + b - linear) != 0:
            continue
        bound = sp.simplify(-b / a)
        if bound.has(t, big_x, big_y) or not all(s.is_positive for s in bound.free_symbols):
            continue
        if a.is_positive:
            lows.append(bound)  # A t + B >= 0 with A > 0: t >= -B/A
        elif (-a).is_positive:
            highs.append(bound)
    # H is read for t > 0 (its logs): only a positive lower end will do.
    return [lo for lo in lows if lo.is_positive][:3], highs[:3]


def _solve_linear(e: sp.Expr, target: sp.Dummy, avoid: set[sp.Basic]) -> dict | None:
    """``{s: value}`` with ``e = target`` solved for a symbol ``s`` of ``e`` (not in
    ``avoid``) that ``e`` contains linearly with a numeric coefficient."""
    expanded = sp.expand(e)
    for s in sorted(expanded.free_symbols - avoid, key=str):
        coeff = expanded.coeff(s)
        if coeff == 0 or not coeff.is_number:
            continue
        value = (target - (expanded - coeff * s)) / coeff
        if sp.expand(expanded.subs(s, value) - target) == 0:
            return {s: value}
    return None


def _smooth(h: sp.Expr, t: sp.Dummy) -> bool:
    """``h`` is built from ``t`` by sums, products, integer powers and :data:`SMOOTH`
    functions, with every log argument and every base of a fractional or negative power
    containing ``t`` positive whenever ``t`` is (so, for ``t > 0``, twice differentiable)."""
    for node in sp.preorder_traversal(h):
        if not isinstance(node, sp.Basic) or not node.has(t):
            continue
        if isinstance(node, sp.Pow):
            if not (node.exp.is_integer and node.exp.is_nonnegative) and not _positive_in(
                node.base, t
            ):
                return False
        elif isinstance(node, sp.log):
            if not _positive_in(node.args[0], t):
                return False
        elif not isinstance(node, (*SMOOTH, sp.Add, sp.Mul, sp.Symbol)):
            return False  # another function of t (Abs, Max, floor, ...): not smooth
    return True


def _positive_in(e: sp.Expr, t: sp.Dummy) -> bool:
    """``e`` is positive whenever ``t`` is."""
    return bool(e.xreplace({t: sp.Dummy("tp", positive=True)}).is_positive)
