"""Spot checks of a relation over many points, the search for a counterexample, and its
shrinking to a simple point that shows the violation by itself.

When no point violates, a local search climbs toward the worst violation from the closest
points.  A counterexample is shown only after the shown point itself is re-verified (see
:func:`shown_counterexample`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

import mpmath

from numeric_checks.budget import (
    EXPENSIVE_BOUNDARY_POINTS,
    EXPENSIVE_CORNER_POINTS,
    EXPENSIVE_EDGE_POINTS,
    EXPENSIVE_RANDOM_POINTS,
    EXPENSIVE_SEARCH,
    BudgetSpent,
    remaining,
    spent,
    time_limit,
)
from numeric_checks.local_search import local_search
from numeric_checks.point_cost import CostModel, describe_cost
from numeric_checks.points import (
    PointResult,
    RelationCheck,
    Status,
    fmt,
    fmt_pair,
)
from numeric_checks.regimes import EXPENSIVE_REGIME_POINTS
from numeric_checks.sampling import Point
from numeric_checks.shrink import Display, shown_counterexample
from symbolic.report import Counterexample, NumericEvidence
from symbolic.verdicts import Verdict

__all__ = ["MIN_CHECKED_POINTS", "SpotOutcome", "spot_check"]

MIN_CHECKED_POINTS = 20
"""Distinct defined points (evaluated where both sides have a value, search steps included)
that a ``checked`` verdict needs (fewer only where the domain is a finite set of integers
with fewer points, each checked): fewer, and sampling is no evidence for a claim over a domain, so
the step is ``undecided`` (issue 38: a Stirling bound for n in [10^26, 10^27] had been
``checked`` on one point, the others too costly to evaluate)."""


@dataclass(frozen=True)
class SpotOutcome:
    verdict: Verdict
    evidence: NumericEvidence
    counterexample: Counterexample | None
    ties: int = 0
    point: tuple[Any, ...] | None = None  # the counterexample's exact free-variable values
    budget_spent: bool = False
    """The wall-clock budget ran out before every point was decided."""
    distinct: int | None = None
    """Distinct points among ``evidence.points`` (None: not counted, take them all)."""
    ties_left: bool = False
    """Points where the equality agreed only within the working precision were not re-decided
    with more digits, because a proof settles the link (see :func:`spot_check`)."""
    unshrunk: tuple[tuple[Any, ...], Counterexample] | None = None
    """The violation as found, before shrinking (when the shown point is a shrunk one): the
    counterexample shown instead if the shrunk point cannot be confirmed rigorously."""
    nearest_values: tuple[Any, ...] | None = None
    """The free variables' values at the defined point nearest to failing (None when no
    point was defined): where a strict relation's sides may touch
    (:mod:`numeric_checks.interior_ties`)."""


def spot_check(
    check: RelationCheck,
    points: Sequence[Point],
    *,
    search_budget: int | Callable[[], int] = 300,
    seed: int = 0,
    display: Display | None = None,
    settled: Callable[[], bool] | None = None,
    early_search: int = 0,
) -> SpotOutcome:
    """Decide ``check`` on ``points``; if none violates, search for a violation; if one is
    found, shrink it.  ``display(values, digits)`` maps a point to the variables shown to a
    user (the free variables and any solved for by an equality hypothesis).
    ``search_budget`` may be a function, called only when no point violates (the caller
    then decides how hard to search, e.g. less for a link already proved).

    ``early_search``: evaluations of the local search run *before* ``search_budget()`` is
    asked (issue 40: asking it runs the symbolic proof, which on a long sum could spend
    the whole budget before the search had looked at all); the search then continues
    with what is left of the budget it returns.  The split is a count, not a time, so the
    verdict does not depend on the machine's load.

    Every point where an equality agrees only within the working precision's tolerance is
    re-decided with more digits (issue 38: ``x + 10**-45 = x`` agrees to all 50 digits),
    except when ``settled()``, asked after ``search_budget()``, says a proof settles the link:
    then its sampling is a cross-check, and the re-evaluation (a second evaluation of each
    point, costly for numeric functions) would add nothing to the verdict."""
    started = time.monotonic()
    costs = CostModel(check.symbols, (check.lhs, check.rhs))
    if not costs.estimable:
        # Regime points reach k = 10^6: only where their cost is known (gdp-clt-berry-esseen's
        # EpsTensorPower at n = 10^6 spent its whole budget on them).
        points = [p for p in points if p.origin != "regime"]
    if check.expensive:
        points = thinned(points)
        if costs.varies:
            # Cheapest first (a stable sort: the order of kinds is kept within a cost):
            # a budget spent on a few costly points has still evaluated every cheap one.
            points = sorted(points, key=lambda p: _cost_rank(costs.cost(p.values)))
    results: list[tuple[Point, PointResult]] = []
    cut = False
    work = 0.0
    # Cheap links are evaluated in one batch; expensive ones one point at a time, so that a
    # spent budget stops between points.
    firsts = None if check.expensive else check.first_pass(points)
    for i, p in enumerate(points):
        if spent():
            cut = True
            break
        try:
            # SIGALRM-bounded: one quadrature of exp(-exp(-x)) far out can run for hours.
            with time_limit(remaining()) if check.expensive else nullcontext():
                first = check.first_pass([p])[0] if firsts is None else firsts[i]
                decided = check.decide(p.values, first, keep=True, defer=settled is not None)
                results.append((p, decided))
                work += costs.cost(p.values) if costs.varies else costs.fixed
        except BudgetSpent:
            cut = True
            break
        if results[-1][1].status is Status.VIOLATED and check.expensive:
            break  # one counterexample decides; the rest would cost a quadrature each
    violated = [(p, r) for p, r in results if r.status is Status.VIOLATED]
    searched: list[tuple[Any, ...]] = []
    nearest: tuple[Point, PointResult] | None = None
    budget = 0
    ties_left = False
    if not violated and not cut and early_search > 0:
        early = min(early_search, EXPENSIVE_SEARCH) if check.expensive else early_search
        try:
            with time_limit(remaining()):
                found, searched, nearest = local_search(check, results, early, seed)
        except BudgetSpent:
            found, cut = None, True
        if found is not None:
            violated = [found]
            results.append(found)
        else:
            early_search = early
    else:
        early_search = 0
    if not violated and not cut:
        budget = search_budget() if callable(search_budget) else search_budget
        if check.expensive:
            budget = min(budget, EXPENSIVE_SEARCH)
        budget -= early_search
        if any(r.deferred for _, r in results):
            if settled is not None and settled():
                ties_left = True
            else:
                try:
                    results, cut = _redecide_ties(check, results)
                except BudgetSpent:
                    cut = True
                violated = [(p, r) for p, r in results if r.status is Status.VIOLATED]
                if violated or cut:
                    budget = 0
    if budget > 0:
        try:
            with time_limit(remaining()):
                # A second seed: the early slice's first steps are not walked again.
                found, more, closer = local_search(
                    check, results, budget, seed + (1 if early_search else 0)
                )
        except BudgetSpent:
            found, more, closer, cut = None, [], None, True
        searched += more
        nearest = _nearer(nearest, closer)
        if found is not None:
            violated = [found]
            results.append(found)
    undefined = sum(1 for _, r in results if r.status is Status.UNDEFINED)
    ties = sum(1 for _, r in results if r.status is Status.TIE)
    evaluated = len(results) - undefined + len(searched)
    # Distinct points: 300 evaluations at the two points where a claim is defined are two.
    distinct = {p.values for p, r in results if r.status is not Status.UNDEFINED}
    distinct.update(searched)
    defined = [(r.margin, p) for p, r in results if r.status is not Status.UNDEFINED]
    if nearest is not None:
        defined.append((nearest[1].margin, nearest[0]))
    worst, worst_at = max(defined, key=lambda mp: mp[0]) if defined else (None, None)
    reached = {id(p) for p, _ in results}
    untried = [p for p in points if id(p) not in reached]
    stopped = ""
    if cut or spent():
        stopped = "stopped by the budget"
    if evaluated == 0 and not violated:
        stopped = _why_none(costs, untried, stopped)
    evidence = NumericEvidence(
        points=evaluated,
        digits=check.dps,
        undefined=undefined,
        margin="" if worst is None else mpmath.nstr(worst, 3),
        seed=seed,
        relation=check.relation.value,
        tried=len(results) + len(searched),
        untried=len(untried),
        cost=describe_cost(work) if costs.varies or costs.fixed > 1 else "",
        seconds=round(time.monotonic() - started, 2),
        nearest_point=None if worst_at is None else _shown(check, worst_at.values, display),
        stopped=stopped,
        worst_margin_value=None if worst is None else float(worst),
    )
    if violated:
        point, decided = min(violated, key=lambda pr: len(str(pr[0].values)))
        values, result, show, note = shown_counterexample(check, point.values, decided, display)
        lhs_text, rhs_text = fmt_pair(result.lhs, result.rhs, 4 * check.dps)
        notes = "; ".join(n for n in (result.note, note) if n)
        cex = Counterexample(point=show, lhs=lhs_text, rhs=rhs_text, digits=check.dps, note=notes)
        unshrunk = None
        if list(values) != list(point.values):
            shown = (
                display(point.values, check.dps)
                if display is not None
                else {
                    s.name: fmt(v, check.dps)
                    for s, v in zip(check.symbols, point.values, strict=True)
                }
            )
            lhs_found, rhs_found = fmt_pair(decided.lhs, decided.rhs, 4 * check.dps)
            unshrunk = (
                tuple(point.values),
                Counterexample(
                    point=shown,
                    lhs=lhs_found,
                    rhs=rhs_found,
                    digits=check.dps,
                    note="shown as found: its shrunk form could not be confirmed",
                ),
            )
        return SpotOutcome(Verdict.REFUTED, evidence, cex, ties, tuple(values), unshrunk=unshrunk)
    if evaluated == 0 or ties or cut or spent():
        return SpotOutcome(
            Verdict.UNDECIDED,
            evidence,
            None,
            ties,
            budget_spent=cut or spent(),
            ties_left=ties_left,
        )
    return SpotOutcome(
        Verdict.CHECKED,
        evidence,
        None,
        ties,
        ties_left=ties_left,
        distinct=len(distinct),
        nearest_values=None if worst_at is None else tuple(worst_at.values),
    )


def _nearer(
    a: tuple[Point, PointResult] | None, b: tuple[Point, PointResult] | None
) -> tuple[Point, PointResult] | None:
    """The one of two searched points nearer to failing (larger margin)."""
    if a is None or b is None:
        return a or b
    return b if b[1].margin > a[1].margin else a


def _cost_rank(terms: float) -> int:
    """A cost's order of magnitude (points within a factor of 10 keep their order)."""
    return 10**9 if math.isinf(terms) else int(math.log10(max(terms, 1.0)))


def _why_none(costs: CostModel, untried: Sequence[Point], stopped: str) -> str:
    """Why a run evaluated no point, for its report: the budget stopped it before the
    cheapest point, with that point's cost, or every point tried was undefined."""
    if untried and costs.varies:
        cheapest = min(costs.cost(p.values) for p in untried)
        return (
            f"{stopped or 'stopped'} before any point was evaluated; the cheapest point "
            f"left would cost {describe_cost(cheapest)}"
        )
    if untried:
        return f"{stopped or 'stopped'} before any point was evaluated"
    return stopped or "no point tried was defined"


def _shown(check: RelationCheck, values: Sequence[Any], display: Display | None) -> dict[str, str]:
    if display is not None:
        return dict(display(values, 10))
    return {s.name: fmt(v, 10) for s, v in zip(check.symbols, values, strict=True)}


def _redecide_ties(
    check: RelationCheck, results: list[tuple[Point, PointResult]]
) -> tuple[list[tuple[Point, PointResult]], bool]:
    """The deferred ties decided with more digits (see :meth:`RelationCheck.decide`);
    the flag: the budget ran out first."""
    out: list[tuple[Point, PointResult]] = []
    for p, r in results:
        if r.deferred:
            if spent():
                return out + [(q, s) for q, s in results[len(out) :]], True
            with time_limit(remaining()) if check.expensive else nullcontext():
                r = check.decide(p.values, keep=True)
            if r.status is Status.VIOLATED and check.expensive:
                out.append((p, r))
                return out + [(q, s) for q, s in results[len(out) :]], False
        out.append((p, r))
    return out, False


def thinned(points: Sequence[Point]) -> list[Point]:
    """The points an expensive link is decided on, each kind capped by a fixed count (so
    the choice never depends on time): the first random and edge points, the first corners
    (every variable at the same edge: on a symmetric box they are near-copies of one point,
    ten of them at u1 = u2 = 5 for the Gumbel claim), and hypothesis-boundary points (where
    a wrong constant shows) spread evenly over the hypotheses and variables they were drawn
    for, instead of all of them (24 for the Laplace MGF, each a diverging quadrature)."""
    by_origin: dict[str, list[Point]] = {}
    for p in points:
        by_origin.setdefault(p.origin, []).append(p)
    boundary = by_origin.pop("boundary", [])
    stride = -(-len(boundary) // EXPENSIVE_BOUNDARY_POINTS) if boundary else 1
    chosen = (
        by_origin.pop("edge", [])[:EXPENSIVE_EDGE_POINTS]
        + by_origin.pop("corner", [])[:EXPENSIVE_CORNER_POINTS]
        + boundary[::stride]
    )
    random_pts = by_origin.pop("random", [])[:EXPENSIVE_RANDOM_POINTS]
    chosen += by_origin.pop("regime", [])[:EXPENSIVE_REGIME_POINTS]
    rest = [p for group in by_origin.values() for p in group]
    return chosen + rest + random_pts
