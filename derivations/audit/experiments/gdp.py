"""Seed 004 (Gaussian DP): ``tradeoff-laws`` searches seeded random rational laws (curves at 50
digits, compared at their vertices), ``gdp-example`` computes the notes' statements at an
example, ``limit-table`` shows a limit at finite n (an instance, never a proof)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction as F
from typing import Any

import mpmath

from derivations.audit.experiments.base import Result, register
from numeric_checks.dp import tradeoff as tr
from numeric_checks.dp.gaussian import envelope, shift_tradeoff_normal
from numeric_checks.dp.gaussian import tradeoff_gaussian as gmu
from symbolic.verdicts import Verdict

Law = Sequence[F]
TOL = mpmath.mpf(10) ** -35
GRID = [mpmath.mpf(i) / 100 for i in range(101)]
ONE = [F(1)]  # (ONE, ONE) is a pair of Id


def _pair(p: Law, q: Law) -> tr.FinitePair:
    return tr.FinitePair(
        *(tuple(mpmath.mpf(x.numerator) / x.denominator for x in u) for u in (p, q))
    )


def _c(*w: Any) -> tr.Curve:
    """T of the product of the pairs (w[0], w[1]), (w[2], w[3]), ... (or a FinitePair in w)."""
    it = iter(w)
    pairs = [u if isinstance(u, tr.FinitePair) else _pair(u, next(it)) for u in it]
    return tr.tradeoff_curve(tr.tensor(*pairs))


def _eq(f: Callable[[Any], Any], g: tr.Curve) -> bool:
    """f = g on [0, 1]: at g's vertices, f's if it is a curve too, and a grid."""
    points = {*getattr(f, "alphas", ()), *g.alphas, *GRID}
    return all(abs(f(a) - g(a)) < TOL for a in points if a <= 1)


def _push(p: Law, rows: Sequence[Law]) -> list[F]:
    """The law of a channel's output; ``rows[i]`` is its law given outcome i."""
    return [sum((p[i] * rows[i][j] for i in range(len(p))), F(0)) for j in range(len(rows[0]))]


def _law(r: random.Random, n: int) -> list[F]:
    w = [r.randint(0, 9) for _ in range(n)]
    return [F(x, sum(w)) for x in w] if sum(w) else _law(r, n)


def _draw(r: random.Random, shape: str) -> list[list[F]]:
    """Laws: ``f`` a pair, ``K`` a channel, ``C`` one per outcome, ``r`` symmetric, ``k`` chain."""
    out: list[list[F]] = []
    for c in shape:
        n, m = r.randint(1, 4), r.randint(1, 4)
        if c == "f":
            out += [_law(r, n), _law(r, n)]
        elif c in "KC":
            out += [_law(r, m) for _ in range(len(out[2]) * (len(out[0]) if c == "C" else 1))]
        elif c == "r":  # P and P reversed: T(P, P reversed) is symmetric
            out += [(u := _law(r, n)), u[::-1]]
        else:  # "k": P_0, ..., P_k with k = 2, 3
            out += [_law(r, n + 1) for _ in range(r.randint(3, 4))]
    return out


def _monotone(w: Sequence[Law], reverse: bool = False) -> bool:
    """g1 = T(A K, B K) >= g = T(A, B) (post-processing by K) gives f (x) g1 >= f (x) g."""
    g1 = [_push(w[2], w[4:]), _push(w[3], w[4:])]
    hi, lo = _c(*w[:2], *g1), _c(*w[:4])
    return tr.dominates(lo, hi, TOL) if reverse else tr.dominates(hi, lo, TOL)


def _adaptive(w: Sequence[Law]) -> bool:
    """M_1 gives P or Q, M_2(., y_1) = (A, B) through a channel y_1 picks: T >= f_1 (x) f_2."""
    p, q, a, b, *rows = w
    ks = [rows[i * len(a) : (i + 1) * len(a)] for i in range(len(p))]
    j = [[x * y for i, x in enumerate(u) for y in _push(v, ks[i])] for u, v in ((p, a), (q, b))]
    return tr.dominates(_c(*j), _c(*w[:4]), TOL)


def _group(w: Sequence[Law], less: int = 0) -> bool:
    """A chain P_0..P_k, f below every T(P_i, P_i+1), T(P_i+1, P_i): T(P_0, P_k) >= 1-(1-f)^{ok}."""
    f = tr.convex_minorant(*(_c(*u) for s, t in itertools.pairwise(w) for u in ((s, t), (t, s))))
    end, k = _c(w[0], w[-1]), len(w) - 1 - less
    return all(end(a) >= tr.group_tradeoff(f, k, a) - TOL for a in GRID)


def _one_large(w: Sequence[Law]) -> bool:
    """f_n1 = T(P, Q), f_ni = Id: K, s^2 and the product are constant in n: is T(P, Q) G_{2K/s}?"""
    f = tr.functionals(_c(*w))  # K, s not finite and positive: the theorem says nothing
    g = (lambda a: gmu(2 * f.kl / mpmath.sqrt(f.kappa2), a)) if 0 < f.kappa2 < mpmath.inf else None
    return g is None or _eq(g, _c(*w, ONE, ONE))


LAWS: dict[str, tuple[str, Callable[[Sequence[Law]], bool]]] = {
    "trade-off": ("ff", lambda w: not tr.tradeoff_violations(_c(*w), 100, TOL)),
    "commutative": ("ff", lambda w: _eq(_c(*w), _c(*w[2:], *w[:2]))),
    # (f (x) g) (x) h = f (x) (g (x) h), f (x) g from its merged pair (another pair for it)
    "associative": (
        "fff",
        lambda w: _eq(_c(*w), _c(tr.tensor(_pair(*w[:2]), _pair(*w[2:4])), *w[4:])),
    ),
    "identity": ("f", lambda w: _eq(_c(*w, ONE, ONE), _c(*w)) and _eq(_c(ONE, ONE, *w), _c(*w))),
    "monotone": ("ffK", _monotone),
    "inverse": ("ff", lambda w: _eq(tr.inverse(_c(*w)), _c(w[1], w[0], w[3], w[2]))),
    "same-law": ("f", lambda w: _eq(_c(w[0], w[0]), _c(ONE, ONE))),
    "composition": ("ffC", _adaptive),
    # as printed: a symmetric trade-off function (T(Q, P) = T(P, Q)) has kappa_3 < oo
    "symmetric-kappa3": (
        "r",
        lambda w: not _eq(_c(*w), _c(*w[::-1])) or tr.functionals(_c(*w)).kappa3 < mpmath.inf,
    ),
    "clt-one-large-factor": ("r", _one_large),
    "group": ("k", _group),
    # planted mutants, for the tests: a search with teeth refutes them
    "monotone-reversed": ("ffK", lambda w: _monotone(w, True)),
    "group-one-less": ("k", lambda w: _group(w, 1)),
}


def _laws_at(params: Mapping[str, Any], w: Sequence[Law], point: Mapping[str, F]) -> bool:
    with mpmath.workdps(50):
        return LAWS[list(params["laws"])[int(point["law"])]][1](w)


@register("tradeoff-laws", "finite-distribution search", ("laws", "draws"), _laws_at)
def tradeoff_laws(params: Mapping[str, Any]) -> Result:
    """Each of ``laws`` on ``draws`` seeded random instances (one generator per law)."""
    names, draws = list(params["laws"]), int(params.get("draws", 40))
    for i, name in enumerate(names):
        r = random.Random(f"seed-004 {name}")
        for w in (_draw(r, LAWS[name][0]) for _ in range(draws)):
            if not _laws_at(params, w, {"law": F(i)}):
                laws = "; ".join(" ".join(map(str, u)) for u in w)
                text, wt = f"{name} (law = {i}) fails on the laws {laws}", tuple(map(tuple, w))
                return Result(Verdict.REFUTED, "instance: a witness", text, {"law": F(i)}, wt)
    scope = f"instance: {draws} seeded random instances per law, laws on 1-5 outcomes"
    return Result(Verdict.CHECKED, scope, f"{', '.join(names)}: no counterexample found")


def _example(p: Mapping[str, F]) -> tuple[bool, str]:
    """sup over all pairs vs over neighbours ({0, 1}^records); else the display at s' unbound."""
    if "records" in p:
        data = list(itertools.product((0, 1), repeat=int(p["records"])))
        gaps = [(abs(sum(s) - sum(t)), sum(map(int.__ne__, s, t))) for s in data for t in data]
        every, near = max(g for g, _ in gaps), max(g for g, d in gaps if d == 1)
        return every == near, f"sup over all pairs {every}, over neighbours {near}"
    v = {k: mpmath.mpf(x.numerator) / x.denominator for k, x in p.items()}
    true = shift_tradeoff_normal(abs(v["theta_S1"] - v["theta_S"]), v["sigma"], v["alpha"])
    shown = gmu(abs(v["theta_S"] - v["theta_s1"]) / v["sigma"], v["alpha"])
    return abs(true - shown) < 1e-12, f"T = {mpmath.nstr(true, 8)}, display {mpmath.nstr(shown, 8)}"


S = {"theta_S": F(0), "theta_S1": F(1), "theta_s1": F(1, 2), "sigma": F(1), "alpha": F(1, 2)}
EXAMPLES = {"sensitivity": {"records": F(5)}, "free-s-prime": S}


@register("gdp-example", "exact computation", ("example",), lambda _, __, at: _example(at)[0])
def gdp_example(params: Mapping[str, Any]) -> Result:
    """A statement of the notes at the example ``EXAMPLES[example]``, computed exactly."""
    point = EXAMPLES[params["example"]]
    ok, found = _example(point)
    text = f"{params['example']} at {', '.join(f'{k} = {v}' for k, v in point.items())}: {found}"
    verdict = Verdict.CHECKED if ok else Verdict.REFUTED
    return Result(verdict, "instance: this example only", text, {} if ok else point)


@register("limit-table", "exact computation", ("sequence", "mu", "ns"))
def limit_table(params: Mapping[str, Any]) -> Result:
    """sup_alpha |n-th term - limit| decreasing in n (``envelope``: ~0 at each mu in ``ns``)."""
    name, ns = params["sequence"], params["ns"]
    with mpmath.workdps(30):
        m, d = mpmath.mpf(params.get("mu", 0)), mpmath.mpf("0.1")  # "approx": delta_ni = d/n
        x = 1 - mpmath.exp(-d)

        def term(n: Any) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
            e = m / mpmath.sqrt(n)  # eps_ni
            if name == "eps-part":  # f_{e, 0}^{(x) n} -> G_m
                return lambda a: tr.eps_tradeoff_power(e, n, a), lambda a: gmu(m, a)
            if name == "approx":  # -> G_m (x) f_{0, x}, which is (1 - x) G_m(a/(1 - x))
                f = tr.tradeoff_curve(tr.tensor(*[tr.eps_delta_pair(e, d / n)] * n))
                return f, lambda a: (1 - x) * gmu(m, min(1, a / (1 - x)))
            if name == "laplace-group":  # 1 - (1 - f_{m/n, 0})^{o n} -> T(Lap(0, 1), Lap(m, 1))
                c = tr.tradeoff_curve(tr.eps_delta_pair(m / n, 0))
                return lambda a: tr.group_tradeoff(c, n, a), lambda a: tr.laplace_tradeoff(m, a)
            return lambda a: envelope(n, a), lambda a: gmu(n, a)

        alphas = GRID[1::25] if name == "envelope" else GRID
        gaps = [max(abs(f(a) - g(a)) for a in alphas) for f, g in map(term, ns)]
    ok = max(gaps) < 1e-12 if name == "envelope" else all(map(mpmath.mpf.__gt__, gaps, gaps[1:]))
    shown = ", ".join(f"{n}: {mpmath.nstr(g, 3)}" for n, g in zip(ns, gaps, strict=True))
    at = f"n in {ns}, mu = {params['mu']} (a limit, at finite n)" if "mu" in params else ns
    scope = f"instance: {name} at {at}"
    return Result(Verdict.CHECKED if ok else Verdict.UNDECIDED, scope, f"{name}: sup gap {shown}")
