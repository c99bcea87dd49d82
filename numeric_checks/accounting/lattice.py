"""Rigorous lower bounds on the privacy profile of a composition by one test event.

For any event S and any pair of neighbouring inputs whose output laws are P and Q,
delta(eps) >= P(S) - e^eps Q(S) (the definition of (eps, delta)-DP applied to S; the
hockey-stick divergence is the supremum over S).  Here the output of each step is reduced to
an integer score (its cell's privacy loss over a lattice unit, rounded), the composition's
score is the sum, and S = {score >= T}.  The laws of the sum under P and under Q are
products of polynomials with Arb ball coefficients (python-flint ``arb_poly``), so P(S) and
Q(S) are rigorous; T and the lattice unit are chosen in floating point, which only decides
how good the bound is, never whether it is valid.  This is the privacy loss distribution
approach (Meiser & Mohammadi 2018; Koskela, Jaelkoe & Honkela 2020) used only in the
direction where discretisation cannot break soundness.

Coefficients far out in the tails (below :data:`DROP`) are dropped as the powers are built;
a dropped path only lowers the retained masses, so P(S) is bounded below by what is
retained, and Q(S) above by what is retained plus the whole missing mass 1 - sum(retained).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from flint import arb, arb_poly, ctx

from numeric_checks.accounting.cells import Cells, loss_spread, mechanism_cells
from numeric_checks.accounting.mechanisms import Composition

BITS = 96
"""Arb's working precision for the lattice (bits): the products of polynomials of ~10^4
coefficients keep ~20 correct digits in the bulk, and 160 bits took twice the time for the
same bounds to 6 digits."""
DROP = arb("1e-40")
"""A coefficient whose ball lies below this is dropped from a power's tails."""
STEP_DROP = arb("1e-22")
"""A step's cells lighter than this under both laws are scored like the nearest heavier
cell: it costs only resolution where k times their mass is below double precision."""


@dataclass(frozen=True)
class ScoreLaw:
    """The law of the composition's score under P and under Q: ``p[i]``, ``q[i]`` the
    retained masses of score ``offset + i`` (each at most the true mass), and the masses
    missing from each (``1 - sum``, as balls)."""

    offset: int
    p: tuple[arb, ...]
    q: tuple[arb, ...]
    missing_p: arb
    missing_q: arb

    def reversed(self) -> ScoreLaw:
        """The same pair of inputs in the other order (Q against P), scored by minus the
        score: the law of the other direction of the hockey-stick divergence."""
        n = len(self.p)
        return ScoreLaw(
            -(self.offset + n - 1),
            self.q[::-1],
            self.p[::-1],
            self.missing_q,
            self.missing_p,
        )


@dataclass
class _Poly:
    offset: int
    poly: arb_poly


def _trim(x: _Poly) -> _Poly:
    coeffs = x.poly.coeffs()
    lo, hi = 0, len(coeffs)
    while lo < hi - 1 and coeffs[lo] < DROP:
        lo += 1
    while hi > lo + 1 and coeffs[hi - 1] < DROP:
        hi -= 1
    if lo == 0 and hi == len(coeffs):
        return x
    return _Poly(x.offset + lo, arb_poly(coeffs[lo:hi]))


def _mul(a: _Poly, b: _Poly) -> _Poly:
    return _trim(_Poly(a.offset + b.offset, a.poly * b.poly))


def _power(base: _Poly, k: int) -> _Poly:
    result: _Poly | None = None
    square = base
    while True:
        if k & 1:
            result = square if result is None else _mul(result, square)
        k >>= 1
        if not k:
            break
        square = _mul(square, square)
    assert result is not None
    return result


def _scores(c: Cells, unit: float) -> list[int]:
    """Each cell's loss over the unit, rounded; with atoms, the extreme cells rounded away
    from the others and every other cell kept strictly between them (a cell whose loss is
    within a unit of the extreme would otherwise share its score, and the event "every step
    at its extreme", the one that shows delta(eps) for eps near k eps0, would be lost)."""
    scores = [round(x / unit) for x in c.loss]
    if not c.atoms or len(scores) <= 2:
        return scores  # two atoms (randomized response) are apart already
    top = max(math.ceil(c.loss[-1] / unit), max(scores[1:-1]) + 1)
    bottom = min(math.floor(c.loss[0] / unit), min(scores[1:-1]) - 1)
    inner = [min(max(s, bottom + 1), top - 1) for s in scores[1:-1]]
    return [bottom, *inner, top]


def _step_polys(c: Cells, unit: float) -> tuple[_Poly, _Poly]:
    scores = _scores(c, unit)
    # Cells too light to matter under either law take the nearest score of the others: any
    # score is valid, and the far tails' huge losses would stretch the lattice for nothing.
    heavy = [s for s, a, b in zip(scores, c.p, c.q, strict=True) if a > STEP_DROP or b > STEP_DROP]
    lo, hi = min(heavy), max(heavy)
    scores = [min(max(s, lo), hi) for s in scores]
    p = [arb(0)] * (hi - lo + 1)
    q = [arb(0)] * (hi - lo + 1)
    for s, a, b in zip(scores, c.p, c.q, strict=True):
        p[s - lo] += a
        q[s - lo] += b
    return _Poly(lo, arb_poly(p)), _Poly(lo, arb_poly(q))


def lattice_unit(comp: Composition, width: float) -> float:
    """The lattice unit: a fraction of the smallest per-step spread of the loss (so the
    rounding blurs the statistic little), but not so small that the composition's score
    needs more than ~10^4 lattice points across its spread."""
    spreads, total = [], 0.0
    for r in comp.rounds:
        s = loss_spread(mechanism_cells(r.mechanism, width))
        spreads.append(s)
        total += r.steps * s * s
    smallest = min((s for s in spreads if s > 0), default=1.0)
    return max(smallest / 4, math.sqrt(total) / 1500, 1e-6)


@functools.lru_cache(maxsize=8)
def score_laws(comp: Composition) -> tuple[ScoreLaw, ...]:
    """The score's law for the pair of inputs with the record added (P) and without it (Q),
    and the same pair in the other order.  For a sampled step the other order is the
    record-removed pair (Q against (1 - q) Q + q P); for an unsampled one it is the mirrored
    pair, whose profile is the same.  So both directions come from one pair of powers."""
    old = ctx.prec
    ctx.prec = BITS
    try:
        width = 0.02
        unit = lattice_unit(comp, width)
        # Cells no wider than the lattice unit, or a cell's loss would straddle scores.
        width = min(width, unit)
        p_total: _Poly | None = None
        q_total: _Poly | None = None
        for r in comp.rounds:
            cells = mechanism_cells(r.mechanism, width)
            p1, q1 = _step_polys(cells, unit)
            pk, qk = _power(p1, r.steps), _power(q1, r.steps)
            p_total = pk if p_total is None else _mul(p_total, pk)
            q_total = qk if q_total is None else _mul(q_total, qk)
        assert p_total is not None and q_total is not None
        added = _align(p_total, q_total)
        return added, added.reversed()
    finally:
        ctx.prec = old


def _align(p: _Poly, q: _Poly) -> ScoreLaw:
    lo = min(p.offset, q.offset)
    hi = max(p.offset + p.poly.degree(), q.offset + q.poly.degree())
    size = hi - lo + 1
    pc, qc = [arb(0)] * size, [arb(0)] * size
    for i, c in enumerate(p.poly.coeffs()):
        pc[p.offset - lo + i] = c
    for i, c in enumerate(q.poly.coeffs()):
        qc[q.offset - lo + i] = c
    missing_p = 1 - sum(pc, arb(0))
    missing_q = 1 - sum(qc, arb(0))
    # What is missing is a mass: at least 0 (the ball may reach below from rounding).
    return ScoreLaw(lo, tuple(pc), tuple(qc), missing_p.max(arb(0)), missing_q.max(arb(0)))


def _tails(law: ScoreLaw) -> tuple[list[arb], list[arb]]:
    """P(score >= offset + i) retained and Q(score >= offset + i) with the missing mass,
    for every i (suffix sums)."""
    n = len(law.p)
    ptail, qtail = [arb(0)] * (n + 1), [arb(0)] * (n + 1)
    for i in range(n - 1, -1, -1):
        ptail[i] = ptail[i + 1] + law.p[i]
        qtail[i] = qtail[i + 1] + law.q[i]
    return ptail[:n], [t + law.missing_q for t in qtail[:n]]


@dataclass(frozen=True)
class EventBound:
    """A lower bound from the event {score >= threshold}: ``value`` a ball whose lower end
    is the bound; ``p_event``, ``q_event`` the balls of P(S) (lower) and Q(S) (upper)."""

    value: arb
    threshold: int
    p_event: arb
    q_event: arb
    direction: str


def delta_lower(laws: Sequence[ScoreLaw], eps: arb) -> EventBound:
    """The best event bound on delta(eps) over the thresholds and the directions."""
    old = ctx.prec
    ctx.prec = BITS
    try:
        w = eps.exp()
        best: EventBound | None = None
        for law, direction in zip(laws, ("record added", "record removed"), strict=False):
            ptail, qtail = _tails(law)
            for i, (a, b) in enumerate(zip(ptail, qtail, strict=True)):
                v = a - w * b
                if best is None or v.lower() > best.value.lower():
                    best = EventBound(v, law.offset + i, a, b, direction)
        assert best is not None
        return best
    finally:
        ctx.prec = old


def eps_lower(laws: Sequence[ScoreLaw], delta: arb) -> tuple[arb, EventBound | None]:
    """A rigorous lower bound on eps(delta) = inf{eps: delta(eps) <= delta}: for each event,
    P(S) - e^eps Q(S) > delta for every eps below log((P(S) - delta)/Q(S)), so eps(delta)
    is at least that; 0 when no event shows anything."""
    old = ctx.prec
    ctx.prec = BITS
    try:
        best, which = arb(0), None
        for law, direction in zip(laws, ("record added", "record removed"), strict=False):
            ptail, qtail = _tails(law)
            for i, (a, b) in enumerate(zip(ptail, qtail, strict=True)):
                gap = a - delta
                if not gap > 0 or not b > 0:
                    continue
                e = (gap / b).log()
                if e.lower() > best.lower():
                    best, which = e, EventBound(arb(0), law.offset + i, a, b, direction)
        return best, which
    finally:
        ctx.prec = old
