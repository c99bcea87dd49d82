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
from derivations.symbols import DELTA_F, EPS, FX, FY, Z, b_laplace
from numeric_checks.dp.laplace import hockey_stick, laplace_interval, worst_privacy_loss
from symbolic.derivation import (
    Claim,
    Derivation,
    Justification,
    JustificationKind,
    Oracle,
    OracleOutcome,
    Source,
    Step,
)
from symbolic.functions import LaplaceMechanismPDF, LaplacePDF
from symbolic.relations import Relation

K = JustificationKind


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


def laplace_ratio() -> Derivation:
    b = b_laplace
    eps, delta_f, z, fx, fy = (v.symbol for v in (EPS, DELTA_F, Z, FX, FY))
    lhs = LaplaceMechanismPDF(z, fx, b) / LaplaceMechanismPDF(z, fy, b)
    density = lambda t: sp.Mul(sp.exp(-sp.Abs(t) / b), sp.Pow(2 * b, -1), evaluate=False)  # noqa: E731
    steps = (
        Step(
            Relation.EQ,
            LaplacePDF(z - fx, b) / LaplacePDF(z - fy, b),
            Justification(
                "the mechanism outputs f(x) + Lap(b), so its density at z is the noise density "
                "at z - f(x)",
                K.DEFINITION,
            ),
        ),
        Step(
            Relation.EQ,
            frac(density(z - fx), density(z - fy)),
            Justification("density of Lap(b): exp(-|t|/b)/(2b)", K.DEFINITION),
        ),
        Step(
            Relation.EQ,
            sp.exp((sp.Abs(z - fy) - sp.Abs(z - fx)) / b),
            Justification("cancel 1/(2b) and combine the exponentials", K.ALGEBRA),
        ),
        Step(
            Relation.LE,
            sp.exp(sp.Abs(fy - fx) / b),
            Justification(
                "triangle inequality |z - f(y)| <= |z - f(x)| + |f(x) - f(y)|, b > 0, "
                "exp increasing",
                K.RULE,
                ("triangle inequality", "monotonicity of exp"),
            ),
        ),
        Step(
            Relation.LE,
            sp.exp(delta_f / b),
            Justification(
                "sensitivity: |f(x) - f(y)| <= Delta f for neighbours x, y; exp increasing",
                K.HYPOTHESIS,
                ("monotonicity of exp",),
            ),
        ),
        Step(Relation.EQ, sp.exp(eps), Justification("b = Delta f/eps", K.DEFINITION)),
    )
    return Derivation(
        id="laplace-ratio",
        title="Laplace mechanism: density ratio bound",
        source=Source(
            "Dwork & Roth 2014, The Algorithmic Foundations of Differential Privacy",
            "Theorem 3.6",
            seed="003",
        ),
        statement=(
            "For neighbouring databases x, y (so |f(x) - f(y)| <= Delta f) and every "
            "output z, the Laplace mechanism with scale b = Delta f/eps satisfies "
            "Pr[M(x) = z] / Pr[M(y) = z] <= exp(eps)."
        ),
        variables=(EPS, DELTA_F, Z, FX, FY),
        hypotheses=(sp.LessThan(sp.Abs(fx - fy), delta_f),),
        defs=((b, delta_f / eps),),
        claim=Claim(lhs, Relation.LE, sp.exp(eps)),
        steps=steps,
        oracle=Oracle(
            name="laplace-hockey-stick",
            description=(
                "hockey-stick divergence of f(x)+Lap(b) and f(y)+Lap(b) at e^eps by "
                "quadrature (must be 0), worst privacy loss from the densities, and "
                "interval probabilities in closed form"
            ),
            check=check_laplace_dp,
            points=12,
        ),
        family="Dwork & Roth, chapter 3: basic mechanisms",
    )


DERIVATIONS = (laplace_ratio,)
