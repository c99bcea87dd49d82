"""The Laplace mechanism's density ratio bound.

Dwork & Roth 2014, *The Algorithmic Foundations of Differential Privacy*, Theorem 3.6 (the
Laplace mechanism preserves (eps, 0)-differential privacy), following the chain of seed 003:
for neighbouring x, y and any output z,

    p_x(z)/p_y(z) = Lap(z - f(x))/Lap(z - f(y)) = exp((|z - f(y)| - |z - f(x)|)/b)
                 <= exp(|f(y) - f(x)|/b) <= exp(Delta f/b) = exp(eps),     b = Delta f/eps.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import mpmath
import sympy as sp

from derivations.display import frac
from derivations.sources import DWORK_ROTH
from derivations.symbols import DELTA_F, EPS, FX, FY, Z, b_laplace
from numeric_checks.dp.laplace import hockey_stick, laplace_interval, worst_privacy_loss
from symbolic.derivation import Derivation, Oracle, OracleOutcome
from symbolic.functions import LaplaceMechanismPDF, LaplacePDF
from symbolic.kit import by, chain


def check_laplace_dp(values: Mapping[str, Any]) -> OracleOutcome:
    """Pure eps-DP of the Laplace mechanism for the pair at this point (both directions)."""
    tol = mpmath.mpf(10) ** (-(mpmath.mp.dps - 10))
    with mpmath.extradps(30):
        return _check(values, tol)


def _check(values: Mapping[str, Any], tol: Any) -> OracleOutcome:
    eps, b = values["eps"], values["b"]
    fx, fy = values["fx"], values["fy"]
    worst_h = max(hockey_stick(fx, fy, b, eps), hockey_stick(fy, fx, b, eps))
    loss = max(worst_privacy_loss(fx, fy, b), worst_privacy_loss(fy, fx, b))
    intervals_ok = True
    width = abs(fx - fy) + b
    lo_loc, hi_loc = min(fx, fy), max(fx, fy)
    for lo, hi in (
        (fx - width, fx),
        (fy, fy + width),
        (lo_loc, hi_loc + b),
        (-mpmath.inf, lo_loc),
        (hi_loc, mpmath.inf),
    ):
        p, q = laplace_interval(lo, hi, fx, b), laplace_interval(lo, hi, fy, b)
        for a, c in ((p, q), (q, p)):
            if a > mpmath.exp(eps) * c * (1 + tol):
                intervals_ok = False
    ok = worst_h <= tol and loss <= eps * (1 + tol) and intervals_ok
    detail = (
        f"hockey-stick divergence {mpmath.nstr(worst_h, 5)}, worst privacy loss "
        f"{mpmath.nstr(loss, 10)} vs eps {mpmath.nstr(eps, 10)}"
    )
    return OracleOutcome(
        ok,
        detail,
        {"hockey_stick": mpmath.nstr(worst_h, 10), "privacy_loss": mpmath.nstr(loss, 15)},
    )


def _density(t: sp.Expr, b: sp.Expr) -> sp.Expr:
    """The density exp(-|t|/b)/(2b) of Lap(b), as written."""
    return sp.Mul(sp.exp(-sp.Abs(t) / b), sp.Pow(2 * b, -1), evaluate=False)


def laplace_ratio() -> Derivation:
    eps, delta_f, z, fx, fy = (v.symbol for v in (EPS, DELTA_F, Z, FX, FY))
    b = b_laplace
    proof = (
        chain(LaplaceMechanismPDF(z, fx, b) / LaplaceMechanismPDF(z, fy, b))
        .eq(
            LaplacePDF(z - fx, b) / LaplacePDF(z - fy, b),
            by.definition(
                "the mechanism outputs f(x) + Lap(b), so its density at z is the noise density "
                "at z - f(x)"
            ),
        )
        .eq(
            frac(_density(z - fx, b), _density(z - fy, b)),
            by.definition("density of Lap(b): exp(-|t|/b)/(2b)"),
        )
        .eq(
            sp.exp((sp.Abs(z - fy) - sp.Abs(z - fx)) / b),
            by.algebra("cancel 1/(2b) and combine the exponentials"),
        )
        .le(
            sp.exp(sp.Abs(fy - fx) / b),
            by.rule(
                "triangle inequality",
                "monotonicity of exp",
                why="triangle inequality |z - f(y)| <= |z - f(x)| + |f(x) - f(y)|, b > 0, "
                "exp increasing",
            ),
        )
        .le(
            sp.exp(delta_f / b),
            by.hypothesis(
                "sensitivity: |f(x) - f(y)| <= Delta f for neighbours x, y; exp increasing",
                "monotonicity of exp",
            ),
        )
        .eq(sp.exp(eps), by.definition("b = Delta f/eps"))
    )
    return proof.derive(
        id="laplace-ratio",
        title="Laplace mechanism: density ratio bound",
        source=DWORK_ROTH.at("Theorem 3.6", seed="003"),
        statement=(
            "For neighbouring databases x, y (so |f(x) - f(y)| <= Delta f) and every "
            "output z, the Laplace mechanism with scale b = Delta f/eps satisfies "
            "Pr[M(x) = z] / Pr[M(y) = z] <= exp(eps)."
        ),
        variables=(EPS, DELTA_F, Z, FX, FY),
        hypotheses=(sp.LessThan(sp.Abs(fx - fy), delta_f),),
        defs=((b, delta_f / eps),),
        oracle=Oracle(
            name="laplace-hockey-stick",
            description=(
                "hockey-stick divergence of f(x)+Lap(b) and f(y)+Lap(b) at e^eps, "
                "integrated exactly piece by piece (must be 0), worst privacy loss from the "
                "densities, and "
                "interval probabilities in closed form"
            ),
            check=check_laplace_dp,
            points=12,
        ),
        family="Dwork & Roth, chapter 3: basic mechanisms",
    )


DERIVATIONS = (laplace_ratio,)
