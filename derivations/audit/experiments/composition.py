"""Seed 003's Gaussian and composition sections: what a claim file cannot state.

``loss-bound``: the privacy-loss reading of (eps, delta)-DP, searched over pairs of laws
(:mod:`numeric_checks.dp.finite_search`); ``adaptive-game``: the chain rule of the naive
composition theorem on an exact two-round game; ``gauss-profile-monotone``: a derivative.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import sympy as sp
from flint import arb

from derivations.audit.experiments.base import Result, register, unrefuted
from numeric_checks.dp import finite_search as fs
from symbolic.errors import InvalidInput
from symbolic.verdicts import Verdict

__all__ = ["game_laws"]

_LOSS = ("direction", "factor", "draws", "outcomes", "ranges")
_DIRECTIONS = ("dp-implies-loss-bound", "loss-bound-implies-dp")


def _loss_tail(p: Sequence[Any], q: Sequence[Any], eps: Any) -> Any:
    """Pr_{r ~ P}[ln(P(r)/Q(r)) > eps], or None where an outcome sits on the edge."""
    factor, total = arb(eps).exp(), arb(0)
    for a, b in zip(p, q, strict=True):
        above = fs.lt(factor * b, a)
        if above is None:
            return None
        total += a if above else 0
    return total


def _loss_holds(direction: str, factor: Fraction) -> fs.Holds:
    def holds(d: Sequence[Sequence[Any]], pr: Mapping[str, Any]) -> bool | None:
        p, q = d
        eps, tail = pr["eps"], _loss_tail(d[0], d[1], pr["eps"])
        if direction == "dp-implies-loss-bound":
            # (eps, delta)-indistinguishable both ways => Pr_P[loss > eps] <= delta
            dp = fs.all_of(
                fs.leq(fs.hockey(p, q, eps), pr["delta"]), fs.leq(fs.hockey(q, p, eps), pr["delta"])
            )
            return fs.implies(dp, None if tail is None else fs.leq(tail, pr["delta"]))
        # the least delta at eps is at most the loss tail (``factor`` < 1: a planted mutant)
        bound = None if tail is None else arb(factor.numerator) / factor.denominator * tail
        return None if bound is None else fs.leq(fs.hockey(p, q, eps), bound)

    return holds


def _loss_statement(params: Mapping[str, Any]) -> fs.FiniteStatement:
    direction = str(params.get("direction", _DIRECTIONS[0]))
    if direction not in _DIRECTIONS:
        raise InvalidInput(f"direction is one of {_DIRECTIONS}, got {direction!r}")
    factor = Fraction(str(params.get("factor", 1)))
    ranges = {k: (Fraction(lo), Fraction(hi)) for k, (lo, hi) in params["ranges"].items()}
    lo, hi = params.get("outcomes", (2, 4))
    title = direction.replace("-", " ") + (f" (loss tail times {factor})" if factor != 1 else "")
    return fs.FiniteStatement(title, 2, _loss_holds(direction, factor), ranges, (int(lo), int(hi)))


def _loss_at(
    params: Mapping[str, Any], witness: Sequence[Sequence[Fraction]], point: Mapping[str, Fraction]
) -> bool | None:
    balls = [[arb(x.numerator) / x.denominator for x in d] for d in witness]
    at = {k: arb(v.numerator) / v.denominator for k, v in point.items()}
    return _loss_statement(params).holds(balls, at)


@register("loss-bound", "finite-distribution search", _LOSS, _loss_at)
def loss_bound(params: Mapping[str, Any]) -> Result:
    """(eps, delta)-DP against 'the privacy loss is at most eps with probability 1 - delta'."""
    s = _loss_statement(params)
    draws = int(params.get("draws", 300))
    found = fs.search(s, max_examples=draws)
    if found is not None:
        point, dists = dict(found.params), tuple(found.dists)
        return Result(Verdict.REFUTED, "instance: a witness", found.describe(), point, dists)
    where = ", ".join(f"{k} in [{lo}, {hi}]" for k, (lo, hi) in s.params.items())
    return unrefuted(
        s.name,
        f"instance: laws on {s.outcomes[0]} to {s.outcomes[1]} outcomes, {where}; edge cases "
        f"and {draws} draws",
        f"{s.name}: no counterexample among the edge cases and {draws} Hypothesis draws, "
        "decided exactly with Arb balls",
    )


def game_laws(k: int = 2) -> tuple[dict[tuple[int, ...], Fraction], ...]:
    """The laws of the adversary's view (r, y_1, ..., y_k) on databases b = 0 and b = 1:
    coins r uniform on {0, 1}; round i asks randomized response (the answer is b with
    probability 2/3: ln 2-DP) when r + (the answers so far) is odd, else a constant query
    (answer 0)."""
    out = []
    for bit in (0, 1):
        law = {}
        for view in itertools.product((0, 1), repeat=k + 1):
            r, ys, p = view[0], view[1:], Fraction(1, 2)
            for i, y in enumerate(ys):
                if (r + sum(ys[:i])) % 2:
                    p *= Fraction(2, 3) if y == bit else Fraction(1, 3)
                else:
                    p *= 1 if y == 0 else 0
            law[view] = p
        out.append(law)
    return tuple(out)


def _factorised(law: Mapping[tuple[int, ...], Fraction], v: tuple[int, ...], coins: bool) -> Any:
    """Pr[R = r] times the product over rounds of Pr[Y_i = y_i | (R = r,) Y_<i = y_<i]."""

    def mass(prefix: tuple[int, ...], with_r: bool) -> Fraction:
        lo = 0 if with_r else 1
        return sum((p for w, p in law.items() if w[lo : lo + len(prefix)] == prefix), Fraction(0))

    out = mass(v[:1], True)
    for i in range(1, len(v)):
        key = v[: i + 1] if coins else v[1 : i + 1]
        if mass(key[:-1], coins) == 0:
            return None
        out *= mass(key, coins) / mass(key[:-1], coins)
    return out


def _game_holds(laws: Sequence[Mapping[tuple[int, ...], Fraction]], coins: bool) -> Any:
    """(True, ...) when at every view of positive probability the factorised ratio is the
    view's ratio; else (False, the first view that separates them, both ratios)."""
    for v in sorted(laws[0]):
        f0, f1 = _factorised(laws[0], v, coins), _factorised(laws[1], v, coins)
        if laws[1][v] and f0 is not None and f1 and laws[0][v] / laws[1][v] != f0 / f1:
            return False, v, laws[0][v] / laws[1][v], f0 / f1
    return True, None, None, None


def _game_at(
    params: Mapping[str, Any], witness: Sequence[Sequence[Fraction]], _: Mapping[str, Fraction]
) -> bool | None:
    k = len(witness[0]).bit_length() - 2
    views = list(itertools.product((0, 1), repeat=k + 1))
    laws = [dict(zip(views, w, strict=True)) for w in witness]
    return bool(_game_holds(laws, bool(params.get("given_coins", False)))[0])


@register("adaptive-game", "exact computation", ("given_coins",), _game_at)
def adaptive_game(params: Mapping[str, Any]) -> Result:
    """The view's probability ratio against the product of the rounds' conditional ratios,
    conditioned on the earlier answers (and on the coins R = r when ``given_coins``)."""
    coins = bool(params.get("given_coins", False))
    laws = game_laws()
    ok, v, ratio, product = _game_holds(laws, coins)
    shown = [", ".join(str(p) for p in law.values()) for law in laws]
    worst = max(laws[0][w] / laws[1][w] for w in laws[0] if laws[1][w])
    text = (
        f"2 adaptive rounds (randomized response with ratio 2 = e^eps, or a constant query, "
        f"chosen from the coins r and the answers so far); views (r, y_1, y_2) in binary "
        f"order, law on database 0: ({shown[0]}), on database 1: ({shown[1]}); largest view "
        f"ratio {worst} <= e^(k eps) = 4; conditionals given "
        + ("R = r and the earlier answers" if coins else "the earlier answers only")
    )
    if not ok:
        text += f": at v = {v} the view's ratio is {ratio}, the product {product}"
        return Result(
            Verdict.REFUTED,
            "instance: a witness",
            text,
            {},
            tuple(tuple(law.values()) for law in laws),
        )
    return Result(Verdict.CHECKED, "instance: this game", text + ": equal at every view")


@register("gauss-profile-monotone", "exact computation")
def gauss_profile_monotone(_: Mapping[str, Any]) -> Result:
    """delta(eps) = Phi(a) - e^eps Phi(b), a, b = -eps/mu +- mu/2, mu = Delta/sigma, has
    d delta/d mu = phi(a) > 0: a larger sigma (smaller mu) lowers delta(eps)."""
    eps, mu = sp.Symbol("eps", nonnegative=True), sp.Symbol("mu", positive=True)
    a, b = -eps / mu + mu / 2, -eps / mu - mu / 2
    profile = (1 + sp.erf(a / sp.sqrt(2))) / 2 - sp.exp(eps) * (1 + sp.erf(b / sp.sqrt(2))) / 2
    phi = sp.exp(-(a**2) / 2) / sp.sqrt(2 * sp.pi)
    gap = sp.simplify(sp.diff(profile, mu) - phi)
    ok = gap == 0 and bool(phi.is_positive)
    return Result(
        Verdict.PROVED if ok else Verdict.UNDECIDED,
        "general: every eps >= 0 and mu > 0",
        f"SymPy: d delta(eps)/d mu - phi(-eps/mu + mu/2) simplifies to {gap}, and "
        f"phi(-eps/mu + mu/2) > 0: {phi.is_positive}",
    )
