"""What the derivations of the algebra of trade-off functions share: the source, the
variables, f_{eps, delta} in SymPy and a point generator."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import mpmath
import sympy as sp

from derivations.sources import DONG_ROTH_SU
from symbolic.derivation import Source
from symbolic.domains import Domain, Variable

FAMILY = "Gaussian DP: the algebra of trade-off functions"


def dong_roth_su(locator: str) -> Source:
    """``locator`` in Dong, Roth & Su, as seed 004 states it."""
    return DONG_ROTH_SU.at(locator, seed="004")


def mu_variable(name: str, latex: str, top: int = 10) -> Variable:
    return Variable(
        name,
        Domain(lower=sp.Rational(1, 100), upper=sp.Integer(top), lower_open=False, scale="log"),
        "GDP parameter",
        latex,
    )


EPS = Variable(
    "eps",
    Domain(lower=sp.S.Zero, upper=sp.Integer(5), upper_open=False),
    "privacy parameter",
    r"\varepsilon",
)


def f_eps_delta(eps: sp.Expr, delta: sp.Expr, alpha: sp.Expr) -> sp.Expr:
    """f_{eps, delta}(alpha) = max{0, 1 - delta - e^eps alpha, e^-eps (1 - delta - alpha)}."""
    return sp.Max(
        0, 1 - delta - sp.exp(eps) * alpha, sp.exp(-eps) * (1 - delta - alpha), evaluate=False
    )


def alpha_points(extra: Callable[[random.Random], dict[str, Any]], n: int) -> Any:
    """A point generator: alpha log-uniform in [1e-12, 1/2] or near 1, the rest from ``extra``."""

    def points(rng: random.Random, dps: int) -> list[dict[str, Any]]:
        out = []
        for i in range(n):
            a = mpmath.mpf(10) ** rng.uniform(-12, -0.3)
            out.append({"alpha": a if i % 3 else 1 - a, **extra(rng)})
        return out

    return points
