"""One step of a mechanism as a pair of finite output laws: the two neighbouring inputs'
laws, post-processed into cells (intervals of the output), each with its mass under both
laws as Arb balls and the privacy loss at its middle as a float.

Post-processing cannot increase the hockey-stick divergence, and a product of such pairs is
the law of a composition on one fixed pair of neighbouring inputs, so any event on the cells'
outputs gives a valid lower bound on delta(eps) of the composition; where the cells are
coarse the bound is only weaker, never wrong.  The cell boundaries are floats (exact binary
numbers), chosen by plain floating point; only the masses must be rigorous.

Pairs (the worst-case query of sensitivity Delta; the output in units of the noise):

* Gaussian: P = N(mu, 1), Q = N(0, 1), mu = Delta/sigma (Dong, Roth & Su 2022, Thm. 2.7);
* Laplace: P = Lap(eps0, 1), Q = Lap(0, 1), eps0 = Delta/b (Dwork & Roth 2014, Thm. 3.6);
* randomized response: P = Bernoulli(e^eps0/(1 + e^eps0)), Q = Bernoulli(1/(1 + e^eps0));
* Poisson subsampling with rate q, a record added: P' = (1 - q) Q + q P against Q, and the
  record removed: Q against P' (Zhu, Dong & Wang 2022, "Optimal accounting of differential
  privacy via characteristic function", Sec. 5: these are the dominating pairs of the
  subsampled mechanism for the add and remove relations; here they are used only as one
  concrete pair of neighbouring inputs).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from flint import arb

from numeric_checks.accounting.mechanisms import Mechanism

TAIL = 10.0
"""Standard deviations beyond which the Gaussian cells end: the last cell on each side takes
the whole tail (mass below 1e-23), so no mass is lost, only resolution out there."""
MAX_CELL = 0.05
"""The widest Gaussian cell, in standard deviations."""
MAX_CELLS = 40_000
"""The most Gaussian cells of one step (each costs two Arb erfc)."""


@dataclass(frozen=True)
class Cells:
    """A finite pair of laws: ``p[i]``, ``q[i]`` the masses of cell i (balls summing to 1
    each), ``loss[i]`` a float near log(p[i]/q[i]) used only to score the cells."""

    p: tuple[arb, ...]
    q: tuple[arb, ...]
    loss: tuple[float, ...]
    atoms: bool = False
    """Whether the first and last cells are point masses at the extreme losses (Laplace's
    half-lines, randomized response's two outputs): the lattice keeps them apart from every
    other cell, so that the event "every step at its extreme" stays an event of its own."""


def _phi(x: arb) -> arb:
    # Phi(x) = erfc(-x/sqrt 2)/2, accurate in the lower tail.
    return (-x / arb(2).sqrt()).erfc() / 2


def _float_loss(p: arb, q: arb) -> float:
    pm, qm = float(p.mid()), float(q.mid())
    if pm <= 0 and qm <= 0:
        return 0.0
    if qm <= 0:
        return 700.0
    if pm <= 0:
        return -700.0
    return math.log(pm) - math.log(qm)


def _normal_mass(ends: list[arb], i: int, mean: arb) -> arb:
    """N(mean, 1)'s mass on cell i (the first and last reach to -oo and +oo), from the tail
    that keeps it accurate: a difference of two values of Phi near 1 would cancel."""
    a = None if i == 0 else ends[i] - mean
    c = None if i == len(ends) - 2 else ends[i + 1] - mean
    if a is not None and a > 0:  # the upper tail: Phi(-a) - Phi(-c)
        return _phi(-a) - (arb(0) if c is None else _phi(-c))
    return (arb(1) if c is None else _phi(c)) - (arb(0) if a is None else _phi(a))


def gaussian_cells(mu: arb, width: float, rate: float = 1.0) -> Cells:
    """N(mu, 1) against N(0, 1) in cells of loss width about ``width``.  The loss is
    l = mu x - mu^2/2, linear in the output x; when the pair will be subsampled at ``rate``
    q, the cells are as wide as keep the subsampled loss log(1 - q + q e^l) within
    ``width`` (its slope in l is q e^l/(1 - q + q e^l), far below 1 in the bulk)."""
    m = float(mu.mid())
    lo, hi = -TAIL, m + TAIL
    cuts = [lo]
    floor = (hi - lo) / MAX_CELLS  # no more cells than that, however fine the width
    while cuts[-1] < hi:
        x = cuts[-1]
        slope = 1.0
        if rate < 1:
            e = math.exp(min(m * x - m * m / 2, 700.0))
            slope = rate * e / (1 - rate + rate * e)
        cuts.append(x + max(min(width / (m * max(slope, 1e-12)), MAX_CELL), floor))
    cuts[-1] = max(cuts[-1], hi)
    count = len(cuts) - 1
    ends = [arb(c) for c in cuts]
    p = tuple(_normal_mass(ends, i, mu) for i in range(count))
    q = tuple(_normal_mass(ends, i, arb(0)) for i in range(count))
    mids = [(cuts[i] + cuts[i + 1]) / 2 for i in range(count)]
    loss = tuple(m * x - m * m / 2 for x in mids)
    return Cells(p, q, loss)


def laplace_cells(eps0: arb, width: float) -> Cells:
    """Lap(eps0, 1) against Lap(0, 1): the loss |x| - |x - eps0| is -eps0 on x <= 0,
    +eps0 on x >= eps0 and 2 x - eps0 between, cut into pieces of loss width about
    ``width``."""
    e = float(eps0.mid())
    pieces = max(1, min(math.ceil(2 * e / width), 20_000))
    half = arb(1) / 2
    ps, qs, losses = [(-eps0).exp() * half], [half], [-e]
    cuts = [arb(e * i / pieces) for i in range(pieces)] + [eps0]
    for i in range(pieces):
        a, c = cuts[i], cuts[i + 1]
        ps.append(((c - eps0).exp() - (a - eps0).exp()) * half)
        qs.append(((-a).exp() - (-c).exp()) * half)
        losses.append(2 * e * (i + 0.5) / pieces - e)
    ps.append(half)
    qs.append((-eps0).exp() * half)
    losses.append(e)
    return Cells(tuple(ps), tuple(qs), tuple(losses), atoms=True)


def rr_cells(eps0: arb) -> Cells:
    """Randomized response: the true bit with probability e^eps0/(1 + e^eps0)."""
    e = eps0.exp()
    keep, flip = e / (1 + e), 1 / (1 + e)
    x = float(eps0.mid())
    return Cells((keep, flip), (flip, keep), (x, -x), atoms=True)


def subsampled(base: Cells, q: arb) -> Cells:
    """Poisson subsampling at rate q, the record added: ((1 - q) Q + q P) against Q."""
    mixed = tuple((1 - q) * b + q * a for a, b in zip(base.p, base.q, strict=True))
    loss = tuple(_float_loss(a, b) for a, b in zip(mixed, base.q, strict=True))
    return Cells(mixed, base.q, loss, atoms=base.atoms)


@functools.lru_cache(maxsize=32)
def mechanism_cells(m: Mechanism, width: float) -> Cells:
    """The step's pair with the record added (P) against without it (Q); the other order
    of the same pair is the record-removed direction (see :mod:`lattice`)."""
    if m.kind == "gaussian":
        base = gaussian_cells(m.mu(), width, float(arb(m.q).mid()))
    elif m.kind == "laplace":
        base = laplace_cells(m.pure_eps(), width)
    else:
        base = rr_cells(m.pure_eps())
    return subsampled(base, arb(m.q)) if m.sampled else base


def loss_spread(c: Cells) -> float:
    """The standard deviation of the cells' loss under P (floats): it sets the lattice."""
    w = [float(x.mid()) for x in c.p]
    total = sum(w) or 1.0
    mean = sum(a * b for a, b in zip(w, c.loss, strict=True)) / total
    var = sum(a * (b - mean) ** 2 for a, b in zip(w, c.loss, strict=True)) / total
    return math.sqrt(max(var, 0.0))
