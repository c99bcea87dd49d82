"""The families of the composition theorems stated for every number k of mechanisms or
rounds (Dwork & Roth 2014, Corollary 3.15; seed 003, Theorem 1): the index, the families'
declarations, and the instances' point generators."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import mpmath
import sympy as sp

from numeric_checks.dp.composition import ratio_bounded_points
from symbolic.domains import Domain, Variable, parse_domain
from symbolic.families import Family, index_symbol

PROB = Domain(lower=sp.S.Zero, upper=sp.S.One, upper_open=False)
"""A probability of one output, in (0, 1]."""

MECHANISM = index_symbol("i")
"""The index of the composed mechanisms, i in 1..k."""


K = Variable("k", parse_domain("Z>=1"), "number of composed mechanisms", "k")
EPS_I = Variable(
    "eps",
    parse_domain("(0, oo)"),
    "privacy parameter eps_i of M_i",
    r"\varepsilon",
    family=Family("i", 1, K.symbol),
)
EPS_MAX = Variable(
    "epsmax",
    parse_domain("(0, oo)"),
    "max_i eps_i (any bound eps_max >= every eps_i)",
    r"\varepsilon_{\max}",
)
A_I = Variable(
    "a", PROB, "Pr[M_i(x) = r_i]", r"\Pr[\mathcal{M}_{i}(x) = r_{i}]", Family("i", 1, K.symbol)
)
B_I = Variable(
    "b", PROB, "Pr[M_i(y) = r_i]", r"\Pr[\mathcal{M}_{i}(y) = r_{i}]", Family("i", 1, K.symbol)
)


UNIT = Domain(lower=sp.S.Zero, upper=sp.S.One, lower_open=False, upper_open=False)
"""A probability, in [0, 1]."""
DELTA_I = Variable(
    "delta", UNIT, "privacy parameter delta_i of M_i", r"\delta", family=Family("i", 1, K.symbol)
)
BAD_I = Variable(
    "f",
    UNIT,
    "Pr[M_i(x) draws from its delta part]",
    "f",
    family=Family("i", 1, K.symbol),
)
SET_X = Variable(
    "a", UNIT, "Pr[M(x) in S] for the tuple M = (M_1, ..., M_k)", r"\Pr[\mathcal{M}(x) \in S]"
)
SET_Y = Variable("b", UNIT, "Pr[M(y) in S]", r"\Pr[\mathcal{M}(y) \in S]")
GOOD_X = Variable("g0", UNIT, "Pr[every M_i(x) draws from its good part and M(x) in S]", "g_0")
GOOD_Y = Variable("g1", UNIT, "the good parts' measure of S on y (at most Pr[M(y) in S])", "g_1")
BAD_ANY = Variable("f0", UNIT, "Pr[some M_i(x) draws from its delta part]", r"f_{\cup}")


def adaptive_vars() -> tuple[Variable, Variable, Variable, Variable]:
    """The adversary's coins r0, r1 and the rounds' conditional probabilities c_i, d_i,
    families over the rounds i in 1..k."""
    r0 = _coin("r0", "Pr[R^0 = r], the adversary's coins on x", r"\Pr[R^0 = r]")
    r1 = _coin("r1", "Pr[R^1 = r], the adversary's coins on y", r"\Pr[R^1 = r]")
    rounds = Family("i", 1, K.symbol)
    c = Variable(
        "c",
        PROB,
        "Pr[Y_i^0 = y_i | earlier answers], on x",
        r"\Pr[Y^0_{i} = y_{i} \mid \cdot]",
        rounds,
    )
    d = Variable(
        "d",
        PROB,
        "Pr[Y_i^1 = y_i | earlier answers], on y",
        r"\Pr[Y^1_{i} = y_{i} \mid \cdot]",
        rounds,
    )
    return r0, r1, c, d


def _coin(name: str, meaning: str, latex: str) -> Variable:
    return Variable(name, PROB, meaning, latex)


def tight_or_below(rng: Any, bound: Any) -> Any:
    """``bound`` half of the time, else a uniform share of it: a point generator's draw of a
    quantity bounded by a hypothesis, tight often enough that a mutant of the bound shows."""
    return bound if rng.random() < 0.5 else bound * mpmath.mpf(rng.random())


def mechanism_points(rng: Any, dps: int, lengths: Mapping[str, int]) -> list[dict[str, Any]]:
    return ratio_bounded_points(rng, int(lengths["k"]))


def round_points(rng: Any, dps: int, lengths: Mapping[str, int]) -> list[dict[str, Any]]:
    """k adaptive rounds at one eps, and the adversary's coins equally likely on x and y."""
    points = ratio_bounded_points(rng, int(lengths["k"]), names=("c", "d"), shared=True)
    for point in points:
        point["r0"] = point["r1"] = mpmath.mpf(rng.uniform(0.01, 1))
    return points


def part_points(rng: Any, dps: int, lengths: Mapping[str, int]) -> list[dict[str, Any]]:
    """k mechanisms on disjoint parts: the first part's ratio bounded by e^eps_1, every other
    part's probabilities equal on x and y, and eps_max the largest eps_i (every other point)
    or above it."""
    k = int(lengths["k"])
    points = ratio_bounded_points(rng, k)
    for n, point in enumerate(points):
        for i in range(2, k + 1):
            point[f"a_{i}"] = point[f"b_{i}"]
        top = max(point[f"eps_{i}"] for i in range(1, k + 1))
        point["epsmax"] = top if n % 2 == 0 else top * mpmath.mpf(rng.uniform(1, 2))
    return points
