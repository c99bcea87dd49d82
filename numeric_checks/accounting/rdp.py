"""Upper bounds through Renyi differential privacy, on Arb balls.  Every theorem here is
cited, not proved in the catalog:

* Renyi DP and its composition: the orders' divergences add up over the steps (Mironov 2017,
  "Renyi differential privacy", Proposition 1).
* The Gaussian mechanism: alpha Delta^2/(2 sigma^2) (Mironov 2017, Table 2).
* The Laplace mechanism with eps0 = Delta/b: (1/(alpha-1)) log(alpha/(2 alpha - 1)
  e^((alpha-1) eps0) + (alpha-1)/(2 alpha - 1) e^(-alpha eps0)) (Mironov 2017, Table 2).
* Randomized response with p = e^eps0/(1 + e^eps0): (1/(alpha-1)) log(p^alpha
  (1-p)^(1-alpha) + (1-p)^alpha p^(1-alpha)) (Mironov 2017, Table 2).
* The Poisson-subsampled Gaussian at integer orders: (1/(alpha-1)) log sum_j C(alpha, j)
  (1-q)^(alpha-j) q^j exp((j^2 - j) Delta^2/(2 sigma^2)) (Mironov, Talwar & Zhang 2019,
  "Renyi differential privacy of the sampled Gaussian mechanism", Section 3.3; the larger
  of the two directions).
* From Renyi DP of order alpha to (eps, delta): delta = exp((alpha-1)(rdp - eps))
  (1 - 1/alpha)^(alpha-1)/alpha (Canonne, Kamath & Steinke 2020, Proposition 12;
  Balle et al. 2020, Theorem 21).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb

from flint import arb

from numeric_checks.accounting.mechanisms import Composition, Mechanism

ORDERS: tuple[int, ...] = (*range(2, 65), 72, 80, 96, 112, 128, 160, 192, 256)
"""The integer orders alpha tried (integers: the subsampled Gaussian's sum is exact there)."""


def has_rdp(m: Mechanism) -> bool:
    """Whether this module bounds the mechanism's Renyi divergences (a sampled Laplace or
    randomized response has no such closed form here)."""
    return m.kind == "gaussian" or not m.sampled


def step_rdp(m: Mechanism, alpha: int) -> arb:
    """The Renyi divergence of order ``alpha`` of one step of ``m`` (an upper bound)."""
    a = arb(alpha)
    if m.kind == "gaussian":
        mu2 = m.mu() ** 2
        if not m.sampled:
            return a * mu2 / 2
        q = arb(m.q)
        total = arb(0)
        for j in range(alpha + 1):
            total += (
                comb(alpha, j) * (1 - q) ** (alpha - j) * q**j * (arb(j * j - j) * mu2 / 2).exp()
            )
        return total.log() / (a - 1)
    if m.sampled:
        raise ValueError(f"no Renyi bound for a sampled {m.kind} mechanism")
    e = m.pure_eps()
    if m.kind == "laplace":
        inner = a / (2 * a - 1) * ((a - 1) * e).exp() + (a - 1) / (2 * a - 1) * (-a * e).exp()
        return inner.log() / (a - 1)
    p = e.exp() / (1 + e.exp())
    inner = p**a * (1 - p) ** (1 - a) + (1 - p) ** a * p ** (1 - a)
    return inner.log() / (a - 1)


def composition_rdp(comp: Composition) -> list[tuple[int, arb]]:
    """(alpha, total Renyi divergence) for every order of :data:`ORDERS`."""
    out = []
    for alpha in ORDERS:
        total = arb(0)
        for r in comp.rounds:
            total += r.steps * step_rdp(r.mechanism, alpha)
        out.append((alpha, total))
    return out


def delta_from_rdp(curve: Sequence[tuple[int, arb]], eps: arb) -> tuple[arb, int]:
    """The smallest delta over the orders (Canonne, Kamath & Steinke 2020, Prop. 12), as a
    ball, and its order."""
    best: arb | None = None
    order = 0
    for alpha, rdp in curve:
        a = arb(alpha)
        d = ((a - 1) * (rdp - eps)).exp() * (1 - 1 / a) ** (a - 1) / a
        if best is None or d.upper() < best.upper():
            best, order = d, alpha
    assert best is not None
    return best, order


def eps_from_rdp(curve: Sequence[tuple[int, arb]], delta: arb) -> tuple[arb, int]:
    """The smallest eps over the orders: rdp + log(1 - 1/alpha) - (log delta + log alpha)
    /(alpha - 1) (the same conversion solved for eps), as a ball, and its order; 0 when that
    is negative (the conversion's delta at eps = 0 is then already below delta)."""
    best: arb | None = None
    order = 0
    for alpha, rdp in curve:
        a = arb(alpha)
        e = rdp + (1 - 1 / a).log() - (delta.log() + a.log()) / (a - 1)
        if best is None or e.upper() < best.upper():
            best, order = e, alpha
    assert best is not None
    return best.max(arb(0)), order
