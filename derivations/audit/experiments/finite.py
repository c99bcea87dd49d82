"""Finite-distribution search: statements about every pair (or tuple) of output laws,
searched over distributions on a few outcomes with :mod:`numeric_checks.dp.finite_search`
(edge cases, then Hypothesis draws, each decided exactly with Arb balls).

A search that finds nothing is evidence on the searched instances (``checked``, scope
``instance``); one that finds a counterexample has re-verified it at four times the
precision (``refuted``, with the distributions as the witness).  Since any pair of laws is
the output of some mechanism on two neighbouring databases, the searched statements
quantify over all pairs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from flint import arb

from derivations.audit.experiments.base import Experiment, Recheck, Result, register, unrefuted
from numeric_checks.dp.finite_search import (
    FiniteStatement,
    Holds,
    all_of,
    hockey,
    implies,
    leq,
    max_div,
    search,
)
from symbolic.errors import InvalidInput
from symbolic.verdicts import Verdict

__all__ = ["register_search", "statement"]

_PARAMS = ("draws", "outcomes", "ranges", "combine")


def _product(p: Sequence[Any], q: Sequence[Any]) -> list[Any]:
    """The law of a pair of independent outputs."""
    return [a * b for a in p for b in q]


def _delta(p: Sequence[Any], q: Sequence[Any], eps: Any) -> Any:
    """The least delta with P and Q (eps, delta)-indistinguishable both ways."""
    return hockey(p, q, eps).max(hockey(q, p, eps))


def _combine(kind: str) -> Callable[[Any, Any], Any]:
    # "max" is the planted mutant: a search with teeth refutes it.
    if kind == "sum":
        return lambda a, b: a + b
    if kind == "max":
        return lambda a, b: a.max(b)
    raise InvalidInput(f"combine must be 'sum' or 'max', got {kind!r}")


def _pure(combine: Callable[[Any, Any], Any]) -> Holds:
    def holds(d: Sequence[Sequence[Any]], _: Mapping[str, Any]) -> bool | None:
        """D_inf(P1 x P2 || Q1 x Q2) <= D_inf(P1||Q1) (+) D_inf(P2||Q2), both ways: the pure
        composition theorem with eps_i the least eps for which each pair is eps-DP."""
        p1, q1, p2, q2 = d
        x, y = _product(p1, p2), _product(q1, q2)
        return all_of(
            leq(max_div(x, y), combine(max_div(p1, q1), max_div(p2, q2))),
            leq(max_div(y, x), combine(max_div(q1, p1), max_div(q2, p2))),
        )

    return holds


def _approx(combine: Callable[[Any, Any], Any]) -> Holds:
    def holds(d: Sequence[Sequence[Any]], p: Mapping[str, Any]) -> bool | None:
        """Two-fold (eps, delta) composition with delta_i the least delta at eps_i: the
        pair is (eps1 + eps2, delta1 (+) delta2)-indistinguishable both ways."""
        p1, q1, p2, q2 = d
        e1, e2 = p["eps1"], p["eps2"]
        budget = combine(_delta(p1, q1, e1), _delta(p2, q2, e2))
        return leq(_delta(_product(p1, p2), _product(q1, q2), e1 + e2), budget)

    return holds


def _events(_: Callable[[Any, Any], Any]) -> Holds:
    def holds(d: Sequence[Sequence[Any]], p: Mapping[str, Any]) -> bool | None:
        """p(r) <= e^eps q(r) at every outcome implies P(S) <= e^eps Q(S) on every event."""
        big_p, big_q = d
        factor = arb(p["eps"]).exp()
        pointwise = all_of(*(leq(a, factor * b) for a, b in zip(big_p, big_q, strict=True)))
        n = len(big_p)
        on_events = []
        for mask in range(1, 2**n):
            s = [r for r in range(n) if mask >> r & 1]
            mass_p = sum((big_p[r] for r in s), arb(0))
            mass_q = sum((big_q[r] for r in s), arb(0))
            on_events.append(leq(mass_p, factor * mass_q))
        return implies(pointwise, all_of(*on_events))

    return holds


_STATEMENTS: dict[str, tuple[str, int, Callable[[Callable[[Any, Any], Any]], Holds]]] = {}
"""Search name -> its title, arity and statement builder (see :func:`register_search`)."""


def _fraction(x: object) -> Fraction:
    if isinstance(x, bool) or not isinstance(x, int | str):
        raise InvalidInput(f"a range end is an integer or a fraction string, got {x!r}")
    return Fraction(x)


def statement(name: str, params: Mapping[str, Any]) -> FiniteStatement:
    """The searched statement of experiment ``name`` with the entry's ``params``."""
    title, arity, build = _STATEMENTS[name]
    combine = str(params.get("combine", "sum"))
    ranges = {
        k: (_fraction(lo), _fraction(hi)) for k, (lo, hi) in dict(params.get("ranges", {})).items()
    }
    lo, hi = params.get("outcomes", (2, 6))
    if combine != "sum":
        title += f" ({combine} in place of the sum)"
    return FiniteStatement(title, arity, build(_combine(combine)), ranges, (int(lo), int(hi)))


def _searched(name: str, params: Mapping[str, Any]) -> Result:
    s = statement(name, params)
    draws = int(params.get("draws", 300))
    found = search(s, max_examples=draws)
    if found is not None:
        return Result(
            Verdict.REFUTED,
            "instance: a witness",
            found.describe(),
            dict(found.params),
            tuple(found.dists),
        )
    where = ", ".join(f"{k} in [{lo}, {hi}]" for k, (lo, hi) in s.params.items())
    scope = (
        f"instance: laws on {s.outcomes[0]} to {s.outcomes[1]} outcomes"
        + (f", {where}" if where else "")
        + f"; edge cases and {draws} draws"
    )
    return unrefuted(
        s.name,
        scope,
        f"{s.name}: no counterexample among the edge cases (point masses, disjoint supports, "
        f"randomized response) and {draws} Hypothesis draws, decided exactly with Arb balls",
    )


def _recheck(name: str) -> Recheck:
    def decide(
        params: Mapping[str, Any],
        witness: Sequence[Sequence[Fraction]],
        point: Mapping[str, Fraction],
    ) -> bool | None:
        s = statement(name, params)
        balls = [[arb(x.numerator) / x.denominator for x in d] for d in witness]
        return s.holds(balls, {k: arb(v.numerator) / v.denominator for k, v in point.items()})

    return decide


def _experiment(name: str) -> Experiment:
    def run(params: Mapping[str, Any]) -> Result:
        return _searched(name, params)

    return run


def register_search(
    name: str, title: str, arity: int, build: Callable[[Callable[[Any, Any], Any]], Holds]
) -> None:
    """Register the finite-distribution search ``name`` of statement ``build(combine)`` on
    ``arity`` laws (how the topic modules add theirs)."""
    _STATEMENTS[name] = (title, arity, build)
    register(name, "finite-distribution search", _PARAMS, _recheck(name))(_experiment(name))


register_search("pure-composition", "pure composition of two pairs", 4, _pure)
register_search("approx-composition", "(eps, delta) composition of two pairs", 4, _approx)
register_search(
    "pointwise-to-events", "pointwise ratio bound implies the bound on every event", 2, _events
)
