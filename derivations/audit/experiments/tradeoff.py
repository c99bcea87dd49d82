"""Trade-off functions (seed 004): statements about the Neyman-Pearson curves T(P, Q) of
finite pairs, searched with :mod:`numeric_checks.dp.finite_search` (exact Arb balls; a
refutation prints its laws, which recheck).  ``mutant = true`` plants the wrong variant a
docstring names.  Balls never certify an equality: one counts only when it surely fails."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from functools import partial, reduce
from itertools import pairwise
from typing import Any

from flint import arb

from derivations.audit.experiments.base import Recheck, Result, register, unrefuted
from numeric_checks.dp import finite_search
from numeric_checks.dp.finite_search import all_of, hockey, implies, kl, leq, tv
from symbolic.verdicts import Verdict

Law = Sequence[Any]
Vertices = list[tuple[Any, Any]]


def curve(p: Law, q: Law) -> Vertices:
    """T(P, Q)'s vertices: reject outcomes in decreasing order of q/p (Neyman-Pearson)."""
    atoms = sorted(((a, b) for a, b in zip(p, q, strict=True) if a > 0), key=lambda t: t[1] / t[0])
    out = [(arb(0), sum((b for _, b in atoms), arb(0)))]
    for a, b in reversed(atoms):
        out.append((out[-1][0] + a, out[-1][1] - b))
    return out


def value(f: Vertices, x: Any) -> Any:
    for (x0, y0), (x1, y1) in pairwise(f):
        if not x > x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return f[-1][1]


def above(g: Vertices, f: Vertices) -> bool | None:
    """g >= f on [0, 1]: both are piecewise linear, so at the union of their vertices."""
    return all_of(*(leq(value(f, x), value(g, x)) for x, _ in f + g))


def reflects(f: Callable[[Any], Any], g: Vertices) -> bool | None:
    """f(y) = x at g's vertices (x, y), y > 0: where positive, g = f^-1 (mirrored graphs)."""
    return all_of(*(all_of(leq(f(y), x), leq(x, f(y))) for x, y in g if y > 0))


def errors(p: Law, q: Law, r: Law) -> tuple[Any, Any]:
    """(alpha_phi, beta_phi) of the test phi = R/max R (every test on n points, up to scale)."""
    top = reduce(lambda x, y: x.max(y), r)
    rej = [sum((a * x / top for a, x in zip(law, r, strict=True)), arb(0)) for law in (p, q)]
    return rej[0], 1 - rej[1]


def _kl(d: Sequence[Law], p: Mapping[str, Any], m: bool) -> bool | None:
    """KL(P1||Q1) <= KL(P2||Q2) implies delta_eps(P1, Q1) <= delta_eps(P2, Q2)"""
    p1, q1, p2, q2 = d
    order = leq(hockey(p1, q1, p["eps"]), hockey(p2, q2, p["eps"]))
    return implies(leq(kl(p1, q1), kl(p2, q2)), order)


def _events(d: Sequence[Law], p: Mapping[str, Any], m: bool) -> bool | None:
    """P(S) <= e^eps Q(S) + delta for every event S <=> hockey(P, Q, eps) <= delta (mutant:
    TV(P, Q) <= delta)"""
    big_p, big_q = d
    events = [[i for i in range(len(big_p)) if s >> i & 1] for s in range(2 ** len(big_p))]
    mass = [[sum((law[i] for i in e), arb(0)) for law in d] for e in events]
    every = all_of(*(leq(a, p["eps"].exp() * b + p["delta"]) for a, b in mass))
    by_hockey = leq(tv(big_p, big_q) if m else hockey(big_p, big_q, p["eps"]), p["delta"])
    return all_of(implies(every, by_hockey), implies(by_hockey, every))


def _infimum(d: Sequence[Law], _: Mapping[str, Any], m: bool) -> bool | None:
    """every test has beta_phi >= T(P, Q)(alpha_phi) and alpha_phi + beta_phi >= 1 - TV(P, Q)
    (mutant: T(P, Q)(alpha_phi/2))"""
    a, b = errors(*d)
    return all_of(leq(value(curve(d[0], d[1]), a / 2 if m else a), b), leq(1 - tv(*d[:2]), a + b))


def _total(d: Sequence[Law], _: Mapping[str, Any], m: bool) -> bool | None:
    """min over alpha of alpha + T(P, Q)(alpha) = 1 - TV(P, Q) (mutant: 1 - TV/2)"""
    goal = 1 - tv(d[0], d[1]) / (2 if m else 1)
    sums = [a + b for a, b in curve(d[0], d[1])]  # alpha + T is convex: its min is at a vertex
    below = [leq(s, goal) for s in sums]
    attained = True if True in below else (False if all(v is False for v in below) else None)
    return all_of(*(leq(goal, s) for s in sums), attained)


def _shape(d: Sequence[Law], _: Mapping[str, Any], m: bool) -> bool | None:
    """T(P, Q) is non-increasing, convex and below 1 - alpha (mutant: concave)"""
    t = curve(d[0], d[1])
    slopes = [(y1 - y0) / (x1 - x0) for (x0, y0), (x1, y1) in pairwise(t)]
    convex = [leq(s1, s0) if m else leq(s0, s1) for s0, s1 in pairwise(slopes)]
    return all_of(*(leq(s, 0) for s in slopes), *convex, *(leq(y, 1 - x) for x, y in t))


def _swap(d: Sequence[Law], _: Mapping[str, Any], m: bool) -> bool | None:
    """T(P, Q)^-1 = T(Q, P) (mutant: T(P, Q)^-1 = T(P, Q))"""
    f, g = curve(d[0], d[1]), curve(*((d[0], d[1]) if m else (d[1], d[0])))
    return all_of(reflects(partial(value, f), g), reflects(partial(value, g), f))


def _symmetrized(d: Sequence[Law], _: Mapping[str, Any], m: bool) -> bool | None:
    """f^S = max{f, f^-1} equals its inverse, f = T(P, Q), f^-1 = T(Q, P) (mutant: f)"""
    f, g = curve(d[0], d[1]), curve(d[1], d[0])

    def h(x: Any) -> Any:
        return value(f, x) if m else value(f, x).max(value(g, x))

    return reflects(h, [(x, h(x)) for x, _ in f + g])


def _fdp(d: Sequence[Law], _: Mapping[str, Any], m: bool) -> bool | None:
    """a pair f-DP both ways is f^-1-DP, so f^S-DP: f = T(P x Q x A, Q x P x B) lies below
    T(P, Q) and T(Q, P), and f^-1 = T(Q x P x B, P x Q x A) (mutant: f-DP one way only,
    f = T(P x A, Q x B))"""
    p, q, a, b = d
    laws = [[x * y * z for x in u for y in v for z in w] for u, v, w in ((p, q, a), (q, p, b))]
    if m:
        laws = [[x * y for x in u for y in v] for u, v in ((p, a), (q, b))]
    f, finv, t_pq, t_qp = curve(*laws), curve(*laws[::-1]), curve(p, q), curve(q, p)
    premise = all_of(above(t_pq, f), True if m else above(t_qp, f))
    return implies(premise, all_of(above(t_pq, finv), above(t_qp, finv)))


def _eps_delta(d: Sequence[Law], p: Mapping[str, Any], m: bool) -> bool | None:
    """(eps, delta)-DP both ways <=> T(P, Q) >= f_{eps, delta} = max{0, 1 - delta - e^eps
    alpha, e^-eps (1 - delta - alpha)} (mutant: without the e^-eps line)"""
    e, delta = p["eps"], p["delta"]
    dp = all_of(leq(hockey(d[0], d[1], e), delta), leq(hockey(d[1], d[0], e), delta))

    def f(a: Any) -> Any:
        first = arb(0).max(1 - delta - e.exp() * a)
        return first if m else first.max((-e).exp() * (1 - delta - a))

    above_f = all_of(*(leq(f(a), b) for a, b in curve(d[0], d[1])))  # f convex: vertices do
    return all_of(implies(dp, above_f), implies(above_f, dp))


def _post(d: Sequence[Law], _: Mapping[str, Any], m: bool) -> bool | None:
    """T(PK, QK) >= T(P, Q) for P = P1, Q = P2 and the channel K with rows P3, ..., P(n + 2),
    n outcomes (mutant: <=)"""
    p, q, rows = d[0], d[1], d[2 : 2 + len(d[0])]
    before, after = curve(p, q), curve(finite_search.push(p, rows), finite_search.push(q, rows))
    return above(before, after) if m else above(after, before)


STATEMENTS: dict[str, tuple[int, Callable[..., bool | None]]] = {
    "kl-orders-delta": (4, _kl),
    "events-vs-hockey": (2, _events),
    "tradeoff-infimum": (3, _infimum),
    "tradeoff-total-error": (2, _total),
    "tradeoff-shape": (2, _shape),
    "tradeoff-inverse-swap": (2, _swap),
    "tradeoff-symmetrization": (2, _symmetrized),
    "fdp-symmetrization": (4, _fdp),
    "eps-delta-vs-tradeoff": (2, _eps_delta),
    "tradeoff-post-processing": (8, _post),
}


def statement(name: str, params: Mapping[str, Any]) -> finite_search.FiniteStatement:
    arity, holds = STATEMENTS[name]
    mutant = bool(params.get("mutant", False))
    real, _, wrong = " ".join((holds.__doc__ or name).split()).partition(" (mutant: ")
    title = f"{real} [planted mutant: {wrong[:-1]}]" if mutant else real
    ranges = {k: (Fraction(lo), Fraction(hi)) for k, (lo, hi) in params.get("ranges", {}).items()}
    lo, hi = (int(x) for x in params.get("outcomes", (2, 6)))
    return finite_search.FiniteStatement(title, arity, partial(holds, m=mutant), ranges, (lo, hi))


def _searched(name: str, params: Mapping[str, Any]) -> Result:
    s, draws = statement(name, params), int(params.get("draws", 300))
    if (found := finite_search.search(s, max_examples=draws)) is not None:
        witness = (found.describe(), found.params, found.dists)
        return Result(Verdict.REFUTED, "instance: a witness", *witness)
    where = "".join(f", {k} in [{lo}, {hi}]" for k, (lo, hi) in s.params.items())
    scope = f"instance: laws on {s.outcomes[0]} to {s.outcomes[1]} outcomes{where}; edge cases"
    said = f"{s.name}: no counterexample among the edge cases and {draws} Hypothesis draws"
    return unrefuted(s.name, f"{scope} and {draws} draws", f"{said}, decided exactly")


def _recheck(name: str) -> Recheck:
    def decide(params: Mapping[str, Any], witness: Sequence[Law], point: Mapping[str, Any]) -> Any:
        balls = [[arb(x.numerator) / x.denominator for x in law] for law in witness]
        at = {k: arb(v.numerator) / v.denominator for k, v in point.items()}
        return statement(name, params).holds(balls, at)

    return decide


for _name in STATEMENTS:
    register(_name, "finite-distribution search", ("draws", "outcomes", "ranges", "mutant"),
             _recheck(_name))(partial(_searched, _name))  # fmt: skip
