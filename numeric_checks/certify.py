"""Certification of an inequality on a box by Arb ball arithmetic and branch-and-bound.

To certify ``g >= 0`` (or ``g > 0``) on a box: enclose g on the box; if the enclosure is on
the right side of zero the box is done.  If not, try the mean-value form
g(m) + sum_i dg/dx_i(box) (x_i - m_i), which shrinks with the box where the plain enclosure
overestimates (dependency problem), and intersect the two.  Otherwise bisect the widest side
(geometrically on positive sides spanning more than a factor 100).  Boxes that certainly
violate a hypothesis are dropped; a box whose enclosure is certainly negative is refuted
only at a point (its midpoint) where g < 0 and every hypothesis holds, rigorously.

The search has a budget of boxes and seconds; when it runs out it says so and names the box
where it stopped.  It never claims more than it showed: ``certified`` holds on the stated
box only.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sympy as sp
from flint import arb

from numeric_checks.arb import ball, compile_arb, precision, show
from symbolic.errors import Unsupported
from symbolic.report import CertificateRecord, CertificateStatus

MAX_BOXES = 20_000
MAX_SECONDS = 1.0
BITS = 64


@dataclass(frozen=True)
class Box:
    """A product of closed intervals [lows[i], highs[i]] (binary floats, so exact)."""

    names: tuple[str, ...]
    lows: tuple[float, ...]
    highs: tuple[float, ...]
    integer: tuple[bool, ...] = ()
    """Which sides are integer variables: enclosed as real intervals (a superset, so a
    certificate stands), but refuted only at integer points."""

    def describe(self) -> str:
        return ", ".join(
            f"{n} in [{lo:.6g}, {hi:.6g}]"
            for n, lo, hi in zip(self.names, self.lows, self.highs, strict=True)
        )


@dataclass(frozen=True)
class Certificate:
    """The certifier's result on ``box``; :meth:`record` is what a report carries."""

    status: CertificateStatus
    box: Box
    boxes: int
    seconds: float
    detail: str = ""
    point: dict[str, float] | None = None  # the refuting point

    def record(self, *, whole_domain: bool = False, detail: str | None = None) -> CertificateRecord:
        return CertificateRecord(
            status=self.status,
            box={
                n: (lo, hi)
                for n, lo, hi in zip(self.box.names, self.box.lows, self.box.highs, strict=True)
            },
            boxes=self.boxes,
            seconds=self.seconds,
            bits=BITS,
            whole_domain=whole_domain,
            detail=self.detail if detail is None else detail,
            point=self.point,
        )

    def describe(self) -> str:
        return self.record().describe()


def _holds(value: Any, strict: bool) -> bool:
    return bool(value > 0) if strict else bool(value >= 0)


def fails(value: Any, strict: bool) -> bool:
    """Certainly violated on the whole ball (NaN balls decide nothing)."""
    return bool(value <= 0) if strict else bool(value < 0)


def _split(
    lows: tuple[float, ...], highs: tuple[float, ...], integer: tuple[bool, ...]
) -> list[tuple[Any, Any]] | None:
    def width(i: int) -> float:
        lo, hi = lows[i], highs[i]
        if integer and integer[i] and lo == hi:
            return -1.0  # a single integer: nothing to split
        if lo > 0 and hi / lo > 100:
            return math.log(hi / lo)
        return (hi - lo) / max(1.0, abs(lo), abs(hi))

    i = max(range(len(lows)), key=width)
    lo, hi = lows[i], highs[i]
    mid = math.sqrt(lo * hi) if lo > 0 and hi / lo > 100 else (lo + hi) / 2
    left_hi, right_lo = list(highs), list(lows)
    if integer and integer[i]:
        if lo == hi:
            return None
        # Integer sides split between integers: [lo, m] and [m + 1, hi].
        m = min(max(math.floor(mid), lo), hi - 1)
        left_hi[i], right_lo[i] = float(m), float(m + 1)
    else:
        if not lo < mid < hi:
            return None  # cannot split further in binary floats
        left_hi[i], right_lo[i] = mid, mid
    return [(lows, tuple(left_hi)), (tuple(right_lo), highs)]


def _witness(box: Box, lows: Sequence[float], highs: Sequence[float]) -> list[float] | None:
    """The box's midpoint, with integer sides rounded; None if an integer side has none."""
    out = []
    for i, (lo, hi) in enumerate(zip(lows, highs, strict=True)):
        m = (lo + hi) / 2
        if box.integer and box.integer[i]:
            m = float(round(m))
            if not lo <= m <= hi:
                return None
        out.append(m)
    return out


def leading_factor(residual: sp.Expr, symbols: Sequence[sp.Symbol]) -> tuple[sp.Expr, sp.Expr]:
    """``(factor, rest)`` with ``residual = factor * rest`` checked by SymPy and ``factor`` a
    product of positive powers of positive variables (1 if there is none).

    Dividing it out is what lets a residual that touches zero at a box's end be certified
    (eps^2/2 - eps tanh(eps/2) = eps (eps/2 - tanh(eps/2))): the rewrite is kept only if
    ``factor * rest - residual`` simplifies to 0, so it is a checked step, not a guess.

    >>> e = sp.Symbol("eps", positive=True)
    >>> leading_factor(e**2 / 2 - e * sp.tanh(e / 2), [e])
    (eps, eps/2 - tanh(eps/2))
    """
    _, factored = sp.factor_terms(residual).as_coeff_Mul()
    factor = sp.S.One
    for term in sp.Mul.make_args(factored):
        base, expo = term.as_base_exp()
        if base in symbols and base.is_positive and expo.is_positive:
            factor *= term
    if factor == 1:
        return factor, residual
    rest = sp.factor_terms(residual / factor)
    if sp.simplify(factor * rest - residual) != 0:
        return sp.S.One, residual
    return factor, rest


def certify(
    residual: sp.Expr,
    strict: bool,
    symbols: Sequence[sp.Symbol],
    box: Box,
    hypotheses: Sequence[tuple[sp.Expr, bool]] = (),
    *,
    max_boxes: int = MAX_BOXES,
    max_seconds: float = MAX_SECONDS,
    mean_value: bool = True,
) -> Certificate:
    """Certify ``residual >= 0`` (``> 0`` if ``strict``) on ``box`` wherever every
    hypothesis ``h >= 0`` (``h > 0`` if its flag) holds.  Raises
    :class:`~symbolic.errors.Unsupported` for expressions Arb cannot enclose."""
    symbols = tuple(symbols)
    fn = compile_arb(symbols, [residual, *(h for h, _ in hypotheses)])
    grad = None
    if mean_value:
        try:
            grad = compile_arb(symbols, [sp.diff(residual, s) for s in symbols])
        except Unsupported:
            grad = None  # |x| and max/min differentiate to sign/Heaviside: plain form only
    started = time.perf_counter()
    lows0, highs0 = list(box.lows), list(box.highs)
    for i, is_int in enumerate(box.integer):
        if is_int:  # integer sides hold integers only
            lows0[i], highs0[i] = float(math.ceil(lows0[i])), float(math.floor(highs0[i]))
    stack: list[tuple[tuple[float, ...], tuple[float, ...]]] = [(tuple(lows0), tuple(highs0))]
    boxes = 0
    stuck: list[Box] = []
    with precision(BITS):
        while stack:
            lows, highs = stack.pop()
            boxes += 1
            if boxes > max_boxes or time.perf_counter() - started > max_seconds:
                why = "box budget" if boxes > max_boxes else "time budget"
                return Certificate(
                    CertificateStatus.GAVE_UP,
                    box,
                    boxes - 1,
                    time.perf_counter() - started,
                    f"{why} spent; stopped at {Box(box.names, lows, highs).describe()}",
                )
            balls = [ball(lo, hi) for lo, hi in zip(lows, highs, strict=True)]
            g, *hyps = fn(*balls)
            if any(fails(h, s) for h, (_, s) in zip(hyps, hypotheses, strict=True)):
                continue  # outside the hypotheses
            if _holds(g, strict):
                continue
            if grad is not None:
                mids = [(lo + hi) / 2 for lo, hi in zip(lows, highs, strict=True)]
                g_mid = fn(*[arb(m) for m in mids])[0]
                slopes = grad(*balls)
                form = g_mid + sum(
                    (d * (b - m) for d, b, m in zip(slopes, balls, mids, strict=True)), arb(0)
                )
                if form.is_finite() and _holds(form, strict):
                    continue
                # Monotone sides: where dg/dx_i has one sign on the box, g's minimum over
                # that side is at an end; evaluating there removes the side's width.
                ends = list(balls)
                monotone = False
                for i, d in enumerate(slopes):
                    if d >= 0:
                        ends[i], monotone = arb(lows[i]), True
                    elif d <= 0:
                        ends[i], monotone = arb(highs[i]), True
                if monotone:
                    g_end = fn(*ends)[0]
                    if g_end.is_finite() and _holds(g_end, strict):
                        continue
            witness = _witness(box, lows, highs)
            if fails(g, strict) and witness is not None:
                g_mid, *h_mid = fn(*[arb(m) for m in witness])
                if fails(g_mid, strict) and all(
                    _holds(h, s) for h, (_, s) in zip(h_mid, hypotheses, strict=True)
                ):
                    return Certificate(
                        CertificateStatus.REFUTED,
                        box,
                        boxes,
                        time.perf_counter() - started,
                        f"the residual's ball at the midpoint is {show(g_mid)}",
                        dict(zip(box.names, witness, strict=True)),
                    )
            halves = _split(lows, highs, box.integer)
            if halves is None:
                # Undecidable at float resolution (a root or a tangency): keep looking
                # elsewhere, for a refutation, but this box can never be certified.
                stuck.append(Box(box.names, lows, highs))
                continue
            stack.extend(halves)
    if stuck:
        return Certificate(
            CertificateStatus.GAVE_UP,
            box,
            boxes,
            time.perf_counter() - started,
            f"{len(stuck)} box(es) cannot be split further, e.g. {stuck[0].describe()}",
        )
    return Certificate(CertificateStatus.CERTIFIED, box, boxes, time.perf_counter() - started)
