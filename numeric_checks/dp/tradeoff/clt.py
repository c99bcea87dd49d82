"""The functionals of the central limit theorem for trade-off functions (Dong, Roth & Su,
arXiv:1905.02383v3, Sec. 3; seed 004, section 5.2): kl, kappa_2, kappa_3, bar kappa_3 of a
piecewise-linear trade-off function and the (mu, gamma) of the Berry-Esseen bound."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import mpmath

from numeric_checks.dp.tradeoff.finite import Curve
from symbolic.errors import InvalidInput


@dataclass(frozen=True)
class Functionals:
    """kl(f) = -int log|f'|, kappa_2 = int log^2|f'|, kappa_3 = int |log|f'||^3 and
    bar kappa_3 = int |log|f'| + kl(f)|^3 over [0, 1] (seed 004, section 5.2)."""

    kl: Any
    kappa2: Any
    kappa3: Any
    kappa3_bar: Any


def functionals(curve: Curve) -> Functionals:
    """The functionals of a piecewise-linear trade-off function: each segment has width p
    and |f'| = q/p, so the integrals are finite sums (a flat segment, |f'| = 0, gives oo)."""
    widths = [a1 - a0 for a0, a1 in pairwise(curve.alphas)]
    logs = [mpmath.log(r) if r > 0 else -mpmath.inf for r in curve.ratios]
    parts = [(w, lg) for w, lg in zip(widths, logs, strict=True) if w > 0]
    if any(not mpmath.isfinite(lg) for _, lg in parts):
        inf = mpmath.inf
        return Functionals(inf, inf, inf, inf)
    kl = -mpmath.fsum(w * lg for w, lg in parts)
    return Functionals(
        kl,
        mpmath.fsum(w * lg**2 for w, lg in parts),
        mpmath.fsum(w * abs(lg) ** 3 for w, lg in parts),
        mpmath.fsum(w * abs(lg + kl) ** 3 for w, lg in parts),
    )


def clt_parameters(parts: Sequence[Functionals]) -> tuple[Any, Any]:
    """(mu, gamma) of the Berry-Esseen bound for f_1 (x) ... (x) f_n (Dong, Roth & Su, Sec. 3;
    seed 004, section 5.2): mu = 2 ||kl||_1 / sqrt(||kappa_2||_1 - ||kl||_2^2) and
    gamma = 0.56 ||bar kappa_3||_1 / (||kappa_2||_1 - ||kl||_2^2)^{3/2}."""
    kl1 = mpmath.fsum(f.kl for f in parts)
    var = mpmath.fsum(f.kappa2 for f in parts) - mpmath.fsum(f.kl**2 for f in parts)
    if var <= 0:
        raise InvalidInput("the trade-off functions have zero variance (all are Id)")
    return 2 * kl1 / mpmath.sqrt(var), mpmath.mpf("0.56") * mpmath.fsum(
        f.kappa3_bar for f in parts
    ) / var ** mpmath.mpf(1.5)
