"""The check plan of a derivation: everything its steps share, built once and frozen.

A plan holds the options, the variables' space (equality hypotheses solved and substituted),
the sampler, the points every step is spot-checked on, the facts the inequality rules may
use, the compiled definitions (for oracles and for showing solved variables) and the box
certification works on.  The stages (:mod:`numeric_checks.stages`) read it; nothing writes
to it but the memo of its links' side values (:class:`~numeric_checks.points.SideValues`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

import sympy as sp

from numeric_checks.bridge import compile_exprs, evaluate
from numeric_checks.budget import DEFAULT_BUDGET
from numeric_checks.certify import Box
from numeric_checks.needles import ladder_points, needle_points
from numeric_checks.points import SideValues, fmt
from numeric_checks.regimes import regime_points
from numeric_checks.sampling import Point, Sampler
from numeric_checks.search import MIN_CHECKED_POINTS, SpotOutcome
from numeric_checks.touch_points import touch_points
from symbolic.derivation import Derivation
from symbolic.domains import Variable
from symbolic.errors import EmptyDomain, EvaluationError, InvalidInput
from symbolic.exact_numbers import compare, float_above, float_below
from symbolic.hypotheses import Space, build_space, rules_facts
from symbolic.relations import Relation
from symbolic.rules import Context, Fact, fact_from_relation

__all__ = ["CheckOptions", "CheckPlan", "make_plan", "rules_context"]


@dataclass(frozen=True)
class CheckOptions:
    """How hard to look: random points, digits, seed, search budget, what to run."""

    points: int = 200
    dps: int = 50
    seed: int = 0
    search_budget: int = 300
    symbolic: bool = True
    oracle: bool = True
    certify: bool = True
    budget: float = DEFAULT_BUDGET
    """Wall-clock seconds per claim or derivation (a last-resort guard, see
    :mod:`numeric_checks.budget`); steps it stops are ``undecided: budget spent``."""
    min_points: int = MIN_CHECKED_POINTS
    """Defined points a ``checked`` step needs (an instance of a family sets 1: the general
    mode applies the minimum to all its lengths together)."""

    def __post_init__(self) -> None:
        if not self.budget > 0:
            raise InvalidInput(f"budget must be > 0 seconds, got budget={self.budget}")
        if self.points < 1:
            raise InvalidInput(f"points must be >= 1, got points={self.points}")
        if self.dps < 15:
            raise InvalidInput(f"dps must be >= 15, got dps={self.dps}")


@dataclass(frozen=True)
class CheckPlan:
    """What every step of one derivation is checked against (see the module docstring)."""

    derivation: Derivation
    options: CheckOptions
    space: Space
    sampler: Sampler
    points: tuple[Point, ...]
    context: Context
    box: Box
    box_is_whole_domain: bool
    hypotheses: tuple[tuple[sp.Expr, bool], ...]
    """Each inequality hypothesis as ``(h, strict)`` meaning ``h >= 0`` (``> 0``)."""
    defs_fn: Callable[..., list[Any]] | None
    solved_fn: Callable[..., list[Any]] | None
    identically_true: tuple[str, ...] = ()
    """Hypotheses that hold identically once the definitions are substituted."""

    @property
    def finite_size(self) -> int | float:
        """How many points the domains hold: finite only when every free variable is an
        integer of a bounded domain (infinity otherwise)."""
        size = 1
        for v in self.space.free:
            dom = v.domain
            if dom.kind != "integer" or not (dom.lower.is_finite and dom.upper.is_finite):
                return math.inf
            size *= max(int(dom.upper) - int(dom.lower) + 1, 0)
        return size

    side_values: SideValues = field(default_factory=SideValues, compare=False, repr=False)
    """The values of the links' sides at the points, shared by the links (each side is
    evaluated once per point and precision): with :attr:`spot_outcomes`, the plan's mutable
    part, memos of work that changes no decision."""
    spot_outcomes: dict[tuple[sp.Expr, Relation, sp.Expr], SpotOutcome] = field(
        default_factory=dict, compare=False, repr=False
    )
    """The spot check of each relation checked so far (prepared sides and relation): a
    relation checked twice on the same points is checked once (the conclusion of a one-link
    chain is its link), see :func:`numeric_checks.stages.spot_stage`."""

    @property
    def symbols(self) -> tuple[sp.Symbol, ...]:
        return self.space.free_symbols

    @property
    def search_budget(self) -> int:
        return min(self.options.search_budget, self.derivation.search_budget or 10**9)

    def prepare(self, expr: sp.Basic) -> sp.Expr:
        """An expression in the free variables only: defs, definitions, solved equalities."""
        return self.space.substitute(self.derivation.expand_defs(expr))

    def display(self, values: Sequence[Any], digits: int = 17) -> dict[str, str]:
        """A point as a user reads it: the free variables, then those solved for."""
        shown = {v.name: fmt(x, digits) for v, x in zip(self.space.free, values, strict=True)}
        if self.solved_fn is not None:
            try:
                solved = evaluate(self.solved_fn, values, self.options.dps)
                shown.update(
                    {
                        v.name: fmt(x, digits)
                        for (v, _), x in zip(self.space.solved, solved, strict=True)
                    }
                )
            except EvaluationError:
                pass
        return shown

    def full_point(self, point: Point, dps: int | None = None) -> dict[str, Any]:
        """All variables and definitions at a point, as mpmath numbers (what oracles get),
        at ``dps`` digits (default: the plan's)."""
        dps = dps or self.options.dps
        out: dict[str, Any] = dict(
            zip((v.name for v in self.space.free), point.values, strict=True)
        )
        if self.solved_fn is not None:
            values = evaluate(self.solved_fn, point.values, dps)
            out.update({v.name: x for (v, _), x in zip(self.space.solved, values, strict=True)})
        if self.defs_fn is not None:
            values = evaluate(self.defs_fn, point.values, dps)
            out.update(
                {sym.name: x for (sym, _), x in zip(self.derivation.defs, values, strict=True)}
            )
        return out


def _difference(d: Derivation, space: Space, link: tuple[Any, ...]) -> sp.Expr:
    """A link's ``lhs - rhs`` in the space's symbols (definitions substituted)."""
    left, _, right, _ = link
    return space.substitute(d.expand_defs(left)) - space.substitute(d.expand_defs(right))


def make_plan(d: Derivation, options: CheckOptions) -> CheckPlan:
    """Build the plan of ``d``: raises :class:`~symbolic.errors.EmptyDomain` when no point
    satisfies the domains and hypotheses (refuse, don't weaken)."""
    expanded = [d.expand_defs(h) for h in d.hypotheses]
    for original, h in zip(d.hypotheses, expanded, strict=True):
        if h is sp.false:
            raise EmptyDomain(
                f"the hypothesis {original} is false once the definitions are substituted, "
                "so the hypotheses are contradictory"
            )
    identically_true = tuple(
        str(o) for o, h in zip(d.hypotheses, expanded, strict=True) if h is sp.true
    )
    space = build_space(d.variables, expanded)
    sampler = Sampler(space, seed=options.seed, dps=options.dps)
    if d.points is not None:
        # The derivation samples its own domain (edges and boundaries included); generic
        # draws would almost never satisfy its hypotheses.
        points = sampler.generated_points(d.points)
    else:
        points = (
            sampler.random_points(options.points)
            + sampler.edge_points()
            + ladder_points(sampler)
            + sampler.boundary_points()
            + needle_points(sampler)
            + touch_points(sampler, [_difference(d, space, link) for link in d.links()])
            + regime_points(sampler, options.seed)
        )
    # Worked out on first use: an instance's plan (no proof, no certificate) never reads it.
    context = Context(_LazyFacts(lambda: rules_context(space.inequalities, space.free).facts))
    prepare = lambda e: space.substitute(d.expand_defs(e))  # noqa: E731
    defs_fn = compile_exprs(space.free_symbols, [prepare(v) for _, v in d.defs]) if d.defs else None
    solved_fn = (
        compile_exprs(space.free_symbols, [e for _, e in space.solved]) if space.solved else None
    )
    box, whole, ends = certification_box(d, space)
    hypotheses = ends + tuple(
        (f.expr, f.strict) for h in space.inequalities for f in fact_from_relation(h, "hypothesis")
    )
    return CheckPlan(
        derivation=d,
        options=options,
        space=space,
        sampler=sampler,
        points=tuple(points),
        context=context,
        box=box,
        box_is_whole_domain=whole,
        hypotheses=hypotheses,
        defs_fn=defs_fn,
        solved_fn=solved_fn,
        identically_true=identically_true,
    )


class _LazyFacts(Sequence[Fact]):
    """A sequence of facts computed on first access (by ``compute``), then kept."""

    def __init__(self, compute: Callable[[], Sequence[Fact]]) -> None:
        self._compute: Callable[[], Sequence[Fact]] | None = compute
        self._facts: Sequence[Fact] = ()

    def _all(self) -> Sequence[Fact]:
        if self._compute is not None:
            self._facts, self._compute = tuple(self._compute()), None
        return self._facts

    def __len__(self) -> int:
        return len(self._all())

    @overload
    def __getitem__(self, i: int) -> Fact: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Fact]: ...
    def __getitem__(self, i: int | slice) -> Fact | Sequence[Fact]:
        return self._all()[i]

    def __iter__(self) -> Iterator[Fact]:
        return iter(self._all())


def rules_context(inequalities: Sequence[sp.Basic], variables: Sequence[Variable]) -> Context:
    """The facts the rules may use: the inequalities and the variables' domains."""
    facts = rules_facts(inequalities, variables)
    # A fact the symbols' assumptions already give (eps > 0 for a positive eps) only widens
    # the rules' search.
    return Context(
        [f for f in facts if not (f.expr.is_positive if f.strict else f.expr.is_nonnegative)]
    )


def certification_box(
    d: Derivation, space: Space
) -> tuple[Box, bool, tuple[tuple[sp.Expr, bool], ...]]:
    """The box certification works on, whether it covers the whole domain, and the domain
    ends the certifier must hold as hypotheses: the derivation's ``certify_box`` where
    given, else each domain's finite ends, with open ends cut by 1e-6 (relative) and
    infinite ends at +-5.  A closed end that is no binary float (``1/3``, ``log(3)``) is
    rounded outward, so that the box contains the domain; the box then reaches a little past
    it, and the end is returned as a hypothesis (``log(3) - x >= 0``) so that nothing is
    refuted there (issue 38)."""
    names, lows, highs, whole = [], [], [], True
    ends: list[tuple[sp.Expr, bool]] = []
    given = dict(d.certify_box or {})
    for v in space.free:
        dom = v.domain
        if v.name in given:
            lo, hi = (float(x) for x in given[v.name])
        else:
            lo = float_below(dom.lower) if dom.lower.is_finite else -5.0
            hi = float_above(dom.upper) if dom.upper.is_finite else 5.0
            if dom.lower.is_finite and dom.lower_open:
                lo = max(lo + 1e-6 * max(1.0, abs(lo)), float_above(dom.lower))
            if dom.upper.is_finite and dom.upper_open:
                hi = min(hi - 1e-6 * max(1.0, abs(hi)), float_below(dom.upper))
        if dom.lower.is_finite and compare(sp.Rational(lo), dom.lower) == -1:
            ends.append((v.symbol - dom.lower, dom.lower_open))
        if dom.upper.is_finite and compare(sp.Rational(hi), dom.upper) == 1:
            ends.append((dom.upper - v.symbol, dom.upper_open))
        covers = bool(
            dom.lower.is_finite
            and dom.upper.is_finite
            and compare(sp.Rational(lo), dom.lower) in (-1, 0)
            and compare(sp.Rational(hi), dom.upper) in (0, 1)
        )
        whole = whole and covers
        names.append(v.name)
        lows.append(lo)
        highs.append(hi)
    integer = tuple(v.domain.kind == "integer" for v in space.free)
    return Box(tuple(names), tuple(lows), tuple(highs), integer), whole, tuple(ends)
