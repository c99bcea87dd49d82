"""Side conditions as data: what a step's proof needs beyond its rules, and how it was met.

A tactic that cancels ``(x**2 - 1)/(x - 1)`` to ``x + 1``, a rule that takes the log of both
sides, an equality hypothesis solved for ``y`` by dividing by ``x``: each is right only where
something holds (``x - 1 != 0``, both sides positive, ``x != 0``).  That something is a
:class:`SideCondition`, recorded with the step, and a step is ``proved`` only when every one
is *discharged*: shown under the hypotheses and the domains, by the same rules that prove
steps.  An undischarged one is shown ("proved where x - 1 != 0") and the step is left to the
numeric layers: an expression undefined somewhere in the domain is not proved there
(issue 38, "side conditions are data").

:func:`definedness` lists what makes an expression a real number at every point: nonzero
denominators, positive arguments of ``log`` and of powers with a symbolic exponent,
nonnegative bases of fractional powers, ``[0, 1]`` for the argument of ``PhiInv``, positive
arguments of ``gamma``, ``loggamma`` and (shifted by one) ``factorial``, and the real branch
of ``lambertw``.
:func:`discharge` tries each against the facts.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

import sympy as sp

from symbolic.exact_numbers import exact_sign
from symbolic.functions import Phi, PhiInv, log1p

if TYPE_CHECKING:
    from symbolic.rules.facts import Fact

__all__ = [
    "SideCondition",
    "covered",
    "defined_on",
    "definedness",
    "discharge",
    "typed_conditions",
    "undischarged",
    "where_text",
]

Kind = Literal["nonzero", "positive", "nonnegative", "integer", "holds"]


@dataclass(frozen=True)
class SideCondition:
    """``expr`` must be nonzero (``> 0``, ``>= 0``) wherever the step is claimed, and for
    every index of the sums it lies in (``given``: their ranges, ``i >= 1`` and ``i <= n``);
    ``need`` says which operation asks for it; ``discharged_by`` how it was shown (None: it
    was not)."""

    kind: Kind
    expr: sp.Expr
    need: str
    discharged_by: str | None = None
    given: tuple[sp.Basic, ...] = ()
    exact: bool = True
    """The expression has no value where the condition fails (a denominator at 0, a log at
    0); False for a condition that is only sufficient (``gamma`` at a negative
    non-integer, a power with a symbolic exponent at a negative base, have values)."""

    @property
    def discharged(self) -> bool:
        return self.discharged_by is not None

    def relation(self) -> str:
        """The condition as a relation a reader can check: ``x*y != 0``, ``i - 1 != 0 for
        1 <= i <= n``."""
        where = f" for {' and '.join(map(str, self.given))}" if self.given else ""
        if self.kind == "integer":
            return f"{self.expr} is an integer{where}"
        if self.kind == "holds":
            return f"{self.expr} holds{where}"
        op = {"nonzero": "!=", "positive": ">", "nonnegative": ">="}[self.kind]
        return f"{self.expr} {op} 0{where}"

    def describe(self) -> str:
        how = f" ({self.discharged_by})" if self.discharged_by else " (not shown)"
        return f"{self.relation()} for {self.need}{how}"


def definedness(expr: sp.Basic) -> list[SideCondition]:
    """What makes ``expr`` a finite real number: one condition per denominator, log
    argument, fractional power's base and power with a symbolic exponent (deduplicated;
    constants whose sign is decided exactly are dropped when they hold).  Inside a sum or
    product the condition must hold at every index of its range, which it is given; inside
    an integral, at every point strictly between its ends (an integrable singularity such
    as ``1/sqrt(t)`` at an end is no undefined point of the claim, a pole inside is: SymPy
    integrates ``1/(t - x)**2`` over ``(0, 2x)`` to ``-2/x`` across it).  A sum
    or product over a finite range needs its length ``hi - lo + 1 >= 0`` (see
    :func:`_may_reverse`), and each finite end an integer by its assumptions: a reversed
    range and an end between two integers are where SymPy and the checker disagree."""
    out: dict[tuple[str, sp.Expr, tuple[sp.Basic, ...]], SideCondition] = {}

    def add(
        kind: Kind, e: sp.Expr, need: str, given: tuple[sp.Basic, ...], exact: bool = True
    ) -> None:
        if kind == "holds":
            if e is sp.true:
                return
        elif kind == "integer":
            if e.is_integer:
                return
        elif not e.free_symbols and exact_sign(e) in _HOLDS[kind]:
            return
        bound = {g.lhs for g in given}
        used = tuple(g for g in given if g.lhs in e.free_symbols) if bound & e.free_symbols else ()
        key = (kind, e, used)
        if key not in out:
            out[key] = SideCondition(kind, e, need, given=used, exact=exact)

    def walk(node: sp.Basic, given: tuple[sp.Basic, ...]) -> None:
        if isinstance(node, sp.Integral):
            inner = given
            for limit in node.limits:
                for end in limit[1:]:
                    walk(end, given)
                inner = (*inner, *_integration_range(limit))
            walk(node.function, inner)
            return
        if isinstance(node, sp.Sum | sp.Product):
            # The first limit is the innermost: its ends may read the indices of the later
            # (outer) limits, over their ranges.
            ranges = [_index_range(limit) for limit in node.limits]
            for j, limit in enumerate(node.limits):
                outer = (*given, *(r for pair in ranges[j + 1 :] for r in pair))
                for end in limit[1:]:
                    walk(end, outer)
                if len(limit) == 3 and _may_reverse(limit[1], limit[2]):
                    add("nonnegative", limit[2] - limit[1] + 1, _RANGE_NEED.format(node), outer)
                for end in limit[1:]:
                    if not end.has(sp.oo, -sp.oo, sp.zoo):
                        add("integer", end, _END_NEED.format(node), outer)
            walk(node.function, (*given, *(r for pair in ranges for r in pair)))
            return
        _conditions(node, lambda kind, e, need, exact=True: add(kind, e, need, given, exact))
        for arg in node.args:
            walk(arg, given)

    walk(sp.sympify(expr), ())
    return list(out.values())


_RANGE_NEED = (
    "the range of {} (the checker reads a reversed range as empty; SymPy and the rules read "
    "it by Karr's convention, as minus the sum over the gap)"
)


_END_NEED = (
    "the end of {} (the checker sums over the integers between the ends; SymPy's closed "
    "forms take an end that is not an integer as if it were one: Sum(1, (k, 1, x)) = x)"
)


def _integration_range(limit: tuple[sp.Basic, ...]) -> tuple[sp.Basic, ...]:
    """Where the integration variable of ``limit = (t, lo, hi)`` runs: strictly between
    the ends (an integrable singularity at an end, ``1/sqrt(t)`` on ``(0, 1)``, is no
    condition), in whichever order they come; nothing for a limit without ends."""
    if len(limit) != 3:
        return ()
    t, lo, hi = limit
    if lo is sp.S.Infinity or hi is sp.S.NegativeInfinity:  # a reversed range
        lo, hi = hi, lo
    ends = []
    if lo is not sp.S.NegativeInfinity:
        ends.append(sp.StrictGreaterThan(t, lo, evaluate=False))
    if hi is not sp.S.Infinity:
        ends.append(sp.StrictLessThan(t, hi, evaluate=False))
    if len(ends) < 2 or (hi - lo).is_nonnegative:
        return tuple(ends)
    if (lo - hi).is_nonnegative:
        return sp.StrictGreaterThan(t, hi, evaluate=False), sp.StrictLessThan(t, lo, evaluate=False)
    # Ends of unknown order: t strictly between them either way.
    return (
        sp.StrictGreaterThan(t, sp.Min(lo, hi), evaluate=False),
        sp.StrictLessThan(t, sp.Max(lo, hi), evaluate=False),
    )


def _index_range(limit: tuple[sp.Basic, ...]) -> tuple[sp.Basic, ...]:
    """``i >= lo`` and ``i <= hi`` for a limit ``(i, lo, hi)``; nothing for one without ends."""
    if len(limit) != 3:
        return ()
    i, lo, hi = limit
    return sp.GreaterThan(i, lo, evaluate=False), sp.LessThan(i, hi, evaluate=False)


def _may_reverse(lo: sp.Expr, hi: sp.Expr) -> bool:
    """Whether the range ``lo..hi`` has two finite ends, so that its length ``hi - lo + 1``
    may be negative (a constant length that is not is dropped by ``add``).  There the two
    readings of a sum part: the checker's (every numeric evaluation, the referees' exact and
    Arb sums) sums over no index, SymPy's ``doit`` and the sum rules follow Karr (1981,
    "Summation in finite terms", JACM 28(2), Def. 3: ``Sum(f, (i, a, b)) = -Sum(f, (i, b +
    1, a - 1))`` for ``b < a - 1``), under which ``Sum(1, (i, 1, k)) = k`` and a termwise
    bound reverses.  Both agree where the length is at least 0, so that is the condition of
    a proof."""
    return not any(e.has(sp.oo, -sp.oo, sp.zoo) for e in (lo, hi))


def typed_conditions(typed: sp.Basic, read: sp.Basic) -> tuple[SideCondition, ...]:
    """The conditions :func:`definedness` finds in ``typed`` (an expression as its author
    typed it, built unevaluated) and not in ``read`` (the same as SymPy's automatic
    evaluation read it): ``x/x`` is read as ``1``, ``exp(log(x))`` as ``x``,
    ``sqrt(1 - x)**2`` as ``1 - x``, and the sides so read are defined where the typed ones
    are not.  Each condition's expression is evaluated (it is a number's sign to show)."""
    have = definedness(read)
    out: list[SideCondition] = []
    for c in definedness(typed):
        c = replace(c, expr=_evaluated(c.expr), given=tuple(_evaluated(g) for g in c.given))
        if c in out or _holds_outright(c) or any(_covers(r, c) for r in have):
            continue
        out.append(c)
    return tuple(out)


def covered(c: SideCondition, by: Sequence[SideCondition]) -> bool:
    """Whether one of ``by`` asks as much as ``c`` (see :func:`_covers`)."""
    return any(_covers(r, c) for r in by)


def _covers(r: SideCondition, c: SideCondition) -> bool:
    """``r`` asks at least what ``c`` asks, over the same index ranges: the same condition,
    or for ``c`` a nonzero condition, a nonzero or positive one on the same factors (``s !=
    0`` covers ``2*s**2 != 0``), or ``r`` on a positive multiple of ``c``'s expression."""
    if r.given != c.given:
        return False
    if r.kind == c.kind and r.expr == c.expr:
        return True
    if c.kind == "nonzero" and r.kind in ("nonzero", "positive"):
        return _zeros(r.expr) == _zeros(c.expr)
    if c.kind in ("positive", "nonnegative") and r.kind in (c.kind, "positive"):
        ratio = c.expr / r.expr
        return bool(ratio.is_number and ratio.is_positive)
    return False


def _zeros(e: sp.Expr) -> frozenset[sp.Basic]:
    """The factors of ``e`` that can vanish (its numbers and positive powers left out):
    ``2*s**2`` and ``s`` vanish together."""
    out = set()
    for f in sp.Mul.make_args(e):
        if f.is_number:
            continue
        if f.is_Pow and f.exp.is_Integer and f.exp > 0:
            f = f.base
        out.add(f)
    return frozenset(out)


def _holds_outright(c: SideCondition) -> bool:
    """A condition true by its own expression: ``True``, an integer, a constant whose exact
    sign is right (``x > 0`` on a positive ``x`` evaluates to ``True``)."""
    if c.kind == "holds":
        return c.expr is sp.true
    if c.kind == "integer":
        return bool(c.expr.is_integer)
    return not c.expr.free_symbols and exact_sign(c.expr) in _HOLDS[c.kind]


def _evaluated(e: sp.Basic) -> sp.Basic:
    """``e`` rebuilt node by node with SymPy's evaluation on (an unevaluated ``1 - x`` as the
    ``-x + 1`` every other condition holds); a sum or an integral is rebuilt, not done."""
    if not isinstance(e, sp.Basic) or not e.args:
        return e
    return e.func(*[_evaluated(a) for a in e.args])


def _conditions(node: sp.Basic, add: Callable[..., None]) -> None:
    """The conditions ``node`` itself puts on its arguments (``add(kind, expr, need,
    exact=True)``)."""
    if isinstance(node, sp.Pow):
        base, exp = node.args
        if exp.is_number and exp.is_negative:
            add("nonzero", base, f"the denominator of {node}")
        if exp.is_number and exp.is_Rational and not exp.is_Integer:
            add("positive" if exp.is_negative else "nonnegative", base, f"the root {node}")
        elif not exp.is_number and exp.is_integer:
            # An integer power of any real base: (-1)**(2*n) is 1 (only a negative
            # exponent asks the base to be nonzero).
            if exp.is_nonnegative is not True:
                add("nonzero", base, f"the power {node}", exact=False)
        elif not exp.is_number:
            add("positive", base, f"the power {node}", exact=False)
    elif isinstance(node, sp.log):
        add("positive", node.args[0], f"the logarithm {node}")
    elif isinstance(node, log1p):
        add("positive", 1 + node.args[0], f"the logarithm {node}")
    elif isinstance(node, sp.gamma | sp.loggamma):
        add("positive", node.args[0], f"{node} (poles at 0, -1, -2, ...)", exact=False)
    elif isinstance(node, sp.beta):
        # Gamma(a) Gamma(b) / Gamma(a + b): poles where a or b is 0, -1, -2, ... (SymPy's
        # assumptions call beta(a, b) finite for a >= 0, b > 0; a * beta(a, b) was proved
        # equal to Gamma(a + 1) Gamma(b) / Gamma(a + b) on a in [0, 1]).
        for arg in node.args:
            add("positive", arg, f"{node} (poles at 0, -1, -2, ... in each argument)", exact=False)
    elif isinstance(node, sp.Piecewise) and node.args[-1].cond is not sp.true:
        # No default branch: undefined where no condition holds (SymPy calls
        # Piecewise((x**2, x > 0)) nonnegative on [-1, 1], where it has no value at x <= 0).
        add("holds", sp.Or(*(c for _, c in node.args)), f"{node} (a branch must apply)")
    elif isinstance(node, sp.factorial):
        add("positive", node.args[0] + 1, f"{node} (poles at -1, -2, ...)", exact=False)
    elif isinstance(node, sp.LambertW) and len(node.args) == 1:
        add("nonnegative", node.args[0] + sp.exp(-1), f"the real branch of {node}")
    elif isinstance(node, PhiInv):
        # [0, 1], its ends included: PhiInv(0) = -oo and PhiInv(1) = oo are the values the
        # rules take there (monotonicity of PhiInv, Phi(PhiInv(p) - mu) at p = 1).
        add("nonnegative", node.args[0], f"the inverse normal CDF {node}")
        add("nonnegative", 1 - node.args[0], f"the inverse normal CDF {node}")


def discharge(
    conditions: Iterable[SideCondition], facts: Sequence[Fact]
) -> tuple[SideCondition, ...]:
    """Each condition with ``discharged_by`` set where the rules show it from ``facts`` (the
    hypotheses and domains), left unset where they do not."""
    return tuple(_discharge_one(c, facts) for c in conditions)


_HOLDS: dict[str, tuple[int, ...]] = {
    "nonzero": (-1, 1),
    "positive": (1,),
    "nonnegative": (0, 1),
    "integer": (),
    "holds": (),
}
"""The exact signs of a constant that satisfy each kind of condition."""


def _discharge_one(c: SideCondition, facts: Sequence[Fact]) -> SideCondition:
    if c.discharged:
        return c
    if c.given:
        from symbolic.rules.facts import fact_from_relation  # the rules import our users

        ranges = [f for g in c.given for f in fact_from_relation(g, f"range {g}")]
        facts = [*facts, *ranges]
    if c.kind == "integer":
        # No fact says a variable is an integer: only its domain does (its assumptions).
        return replace(c, discharged_by="an integer by the assumptions") if c.expr.is_integer else c
    if c.kind == "holds":
        return _discharge_disjunction(c, facts)
    expr = _normal(c.expr)
    if not expr.free_symbols:
        return replace(c, discharged_by="exactly") if exact_sign(expr) in _HOLDS[c.kind] else c
    if c.kind == "nonnegative" and isinstance(expr, Phi):
        # Phi maps the extended reals into [0, 1] (PhiInv's arguments are held to [0, 1]).
        return replace(c, discharged_by="Phi takes its values in [0, 1]")
    if c.kind != "nonnegative" and _positive_integral(expr):
        return replace(c, discharged_by="the integral of a positive function over a range")
    indexed = _on_index_range(expr, c.given)
    if indexed is not None:
        holds = {"nonzero": indexed.is_nonzero, "positive": indexed.is_positive}.get(
            c.kind, indexed.is_nonnegative
        )
        if holds is True:
            return replace(c, discharged_by="sign from the index's range (an integer >= its start)")
    nonzero = c.kind == "nonzero"
    goals = [(expr, True), (-expr, True)] if nonzero else [(expr, c.kind == "positive")]
    for cheap in (True, False):  # the cheap search first: most conditions are signs
        for goal, strict in goals:
            trace = _prove_sign(goal, strict, tuple(facts), cheap)
            if trace is not None:
                return replace(c, discharged_by=trace)
    return c


def _discharge_disjunction(c: SideCondition, facts: Sequence[Fact]) -> SideCondition:
    """A condition ``c1 | c2 | ...`` (relations) holds everywhere where one of them is shown
    from the facts (each relation as the rules' facts, every one proved)."""
    from symbolic.rules.facts import fact_from_relation  # the rules import our users

    for part in sp.Or.make_args(c.expr):
        goals = fact_from_relation(part, "")
        if not goals:
            continue
        traces = [_prove_sign(g.expr, g.strict, tuple(facts), False) for g in goals]
        if all(t is not None for t in traces):
            return replace(c, discharged_by=f"{part}: " + "; ".join(map(str, traces)))
    return c


def _positive_integral(e: sp.Expr) -> bool:
    """``e`` is an integral over one variable of a function positive by the variables'
    assumptions, over a range whose start is certainly below its end: positive (or
    infinite, which the integral's own evaluation reports)."""
    if not isinstance(e, sp.Integral) or len(e.limits) != 1 or len(e.limits[0]) != 3:
        return False
    _, lo, hi = e.limits[0]
    if e.function.is_positive is not True:
        return False
    if lo is sp.S.NegativeInfinity or hi is sp.S.Infinity:
        return lo is not sp.S.Infinity and hi is not sp.S.NegativeInfinity
    return bool((hi - lo).is_positive)


def _on_index_range(e: sp.Expr, given: tuple[sp.Basic, ...]) -> sp.Expr | None:
    """``e`` with each sum or product index whose range starts at a nonnegative integer
    replaced by a SymPy symbol that is a nonnegative (or positive) integer, so that its
    assumptions decide signs such as ``factorial(k) != 0`` for ``k >= 0``; None when no
    index is so bounded.  Sound: the indices of a Sum or Product are integers, and the
    range's start bounds them below."""
    swap: dict[sp.Basic, sp.Basic] = {}
    for g in given:
        if (
            isinstance(g, sp.GreaterThan)
            and isinstance(g.lhs, sp.Symbol)
            and g.lhs in e.free_symbols
        ):
            start = g.rhs
            if start.is_Integer and start >= 0:
                # positive=False would say "zero": the assumption is given only when it holds.
                extra = {"positive": True} if start >= 1 else {}
                swap[g.lhs] = sp.Dummy(str(g.lhs), integer=True, nonnegative=True, **extra)
    return e.xreplace(swap) if swap else None


def _normal(e: sp.Expr) -> sp.Expr:
    """``e`` expanded, each ``1 - Phi(a)`` written ``Phi(-a)`` (an identity, by the symmetry
    of the normal density), so that ``1 - Phi(a) >= 0`` is a sign the assumptions give."""
    e = sp.expand(e)
    if not isinstance(e, sp.Add):
        return e
    terms = list(e.args)
    for t in list(terms):
        if isinstance(-t, Phi) and sp.S.One in terms:
            terms.remove(t)
            terms.remove(sp.S.One)
            terms.append(Phi(-(-t).args[0]))
    return sp.Add(*terms)


@functools.lru_cache(maxsize=1024)
def _prove_sign(goal: sp.Expr, strict: bool, facts: tuple[Fact, ...], cheap: bool) -> str | None:
    """``goal > 0`` (``>= 0``) by the variables' assumptions, else by the rules (memoised:
    the links of one derivation ask the same conditions under the same facts)."""
    if goal.is_positive if strict else goal.is_nonnegative:
        return "sign from the variables' assumptions"
    from symbolic.relations import Relation  # the rules import this module's users
    from symbolic.rules import Context, prove_relation

    rel = Relation.GT if strict else Relation.GE
    try:
        return prove_relation(goal, rel, sp.S.Zero, Context(list(facts)), cheap=cheap)
    except (TypeError, ValueError, RecursionError, NotImplementedError, AttributeError):
        return None


def defined_on(facts: Sequence[Fact], *sides: sp.Basic) -> tuple[SideCondition, ...]:
    """The definedness conditions of ``sides``, each discharged under ``facts`` where the
    rules show it."""
    needed = [c for side in sides for c in definedness(side)]
    return discharge(dict.fromkeys(needed), facts)


def undischarged(conditions: Iterable[SideCondition]) -> list[SideCondition]:
    return [c for c in conditions if not c.discharged]


def where_text(conditions: Iterable[SideCondition]) -> str:
    """``x - 1 != 0 and y > 0``: the conditions a conditional proof needs."""
    return " and ".join(dict.fromkeys(c.relation() for c in conditions))
