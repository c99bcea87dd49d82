"""Certification of an inequality on a box by Arb ball arithmetic and branch-and-bound.

To certify ``g >= 0`` (or ``g > 0``) on a box: enclose g on the box; if the enclosure is on
the right side of zero the box is done.  If not, try the mean-value form
g(m) + sum_i dg/dx_i(box) (x_i - m_i), which shrinks with the box where the plain enclosure
overestimates (dependency problem).  Where dg/dx_i has one sign on the box, g's minimum over
that side is at one end, so the side collapses to that end for good (monotonicity; sound
only where no hypothesis can exclude the end, see :func:`_may_collapse`).  Otherwise bisect
the side that contributes most to the enclosure (:mod:`numeric_checks.certify.split`).
Boxes that certainly violate a hypothesis are dropped; a box whose enclosure is certainly
negative is refuted only at a point (its midpoint) where g < 0 and every hypothesis holds,
rigorously.

The budget is a count of boxes, never seconds, so a verdict does not depend on the
machine's load.  When it runs out the certificate says so, names the box where it stopped
and the share of the volume it had shown.  It never claims more than it showed:
``certified`` holds on the stated box only.  :func:`certify_residual` adds the exact
rewrites (Max/Min conjuncts, sign factors) and shares one budget among the searches.
"""

from __future__ import annotations

import heapq
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import sympy as sp

from numeric_checks.certify.split import (
    choose_side,
    conjuncts,
    halves,
    log_sides,
    measure,
    sign_factors,
)
from symbolic.errors import Unsupported
from symbolic.evidence import words
from symbolic.report import CertificateRecord, CertificateStatus

__all__ = [
    "BITS",
    "CALCULUS_WORK",
    "MAX_BOXES",
    "STEP_BOXES",
    "Box",
    "Certificate",
    "certify",
    "certify_residual",
    "fails",
    "leading_factor",
]

MAX_BOXES = 20_000
"""Boxes per search: on a quiet machine the old 1 s limit allowed 6,000-13,000 boxes."""
STEP_BOXES = 40_000
"""Boxes per step, shared by the direct search and the rewrites' searches."""
CALCULUS_WORK = 1_000_000
"""Evaluations (integrand points, sum terms: :mod:`numeric_checks.rigorous.work`) per search
when the residual holds sums or integrals, whose boxes cost from ten to ten thousand."""
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
    """The certifier's result on ``box``; :meth:`record` is what a report carries.
    ``fraction``: the share of the box's volume shown to hold (or to lie outside the
    hypotheses) when the search stopped."""

    status: CertificateStatus
    box: Box
    boxes: int
    seconds: float
    detail: str = ""
    point: dict[str, float] | None = None  # the refuting point
    fraction: float = 0.0

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
            certified_fraction=self.fraction,
        )

    def describe(self) -> str:
        return words(self.record())


def _holds(value: Any, strict: bool) -> bool:
    return bool(value > 0) if strict else bool(value >= 0)


def fails(value: Any, strict: bool) -> bool:
    """Certainly violated on the whole ball (NaN balls decide nothing)."""
    return bool(value <= 0) if strict else bool(value < 0)


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


def _may_collapse(
    i: int, hyp_symbols: Sequence[frozenset[int]], hyps: Sequence[Any], flags: Sequence[bool]
) -> bool:
    """Whether side ``i`` may collapse to an end: every hypothesis that mentions it holds on
    the whole box.  Otherwise the end could lie outside the hypotheses (and be dropped)
    while points inside the box, where g is smaller than nowhere else, were never shown."""
    return all(
        _holds(h, s) for h, s, used in zip(hyps, flags, hyp_symbols, strict=True) if i in used
    )


def certify(
    residual: sp.Expr,
    strict: bool,
    symbols: Sequence[sp.Symbol],
    box: Box,
    hypotheses: Sequence[tuple[sp.Expr, bool]] = (),
    *,
    max_boxes: int = MAX_BOXES,
    mean_value: bool = True,
) -> Certificate:
    """Certify ``residual >= 0`` (``> 0`` if ``strict``) on ``box`` wherever every
    hypothesis ``h >= 0`` (``h > 0`` if its flag) holds, within ``max_boxes`` boxes.
    Raises :class:`~symbolic.errors.Unsupported` for expressions Arb cannot enclose."""
    # python-flint is imported when a certificate is first attempted, not with the engine:
    # a derivation whose steps are all proved never needs it (laplace-ratio, 30 ms).
    from flint import arb

    from numeric_checks.arb import ball, precision, show
    from numeric_checks.rigorous import work
    from numeric_checks.rigorous.calculus import box_function

    symbols = tuple(symbols)
    # Sums and integrals are enclosed by numeric_checks.rigorous, each box costing
    # quadratures: a budget of their own, and the midpoint tried first (a structural failure
    # is "not certifiable" at once, not a search that runs out).
    fn, calculus = box_function(symbols, [residual, *(h for h, _ in hypotheses)])
    spent = work.done() + (CALCULUS_WORK if calculus else 10**18)
    if calculus:
        with precision(BITS):
            fn(*[arb((lo + hi) / 2) for lo, hi in zip(box.lows, box.highs, strict=True)])
    grad = None
    if mean_value:
        try:
            grad, _ = box_function(symbols, [sp.diff(residual, s) for s in symbols])
        except (Unsupported, TypeError, ValueError):
            grad = None  # |x| and max/min differentiate to sign/Heaviside: plain form only
    flags = [s for _, s in hypotheses]
    index = {s: i for i, s in enumerate(symbols)}
    hyp_symbols = [frozenset(index[s] for s in h.free_symbols if s in index) for h, _ in hypotheses]
    integer = box.integer or (False,) * len(symbols)
    started = time.perf_counter()
    lows0, highs0 = list(box.lows), list(box.highs)
    for i, is_int in enumerate(integer):
        if is_int:  # integer sides hold integers only
            lows0[i], highs0[i] = float(math.ceil(lows0[i])), float(math.floor(highs0[i]))
    logs = log_sides(lows0, highs0)
    # Each entry carries the share of the starting box's volume it stands for (a side
    # collapsed by monotonicity keeps the share of the whole side it decides).  The largest
    # share is enclosed first, so a search that runs out of budget has shown as much of the
    # volume as it could, instead of diving into one corner (a tangency) depth first.
    queue: list[tuple[float, int, tuple[float, ...], tuple[float, ...]]] = [
        (-1.0, 0, tuple(lows0), tuple(highs0))
    ]
    boxes, done, pushed = 0, 0.0, 0

    def push(lows: tuple[float, ...], highs: tuple[float, ...], share: float) -> None:
        nonlocal pushed
        pushed += 1
        heapq.heappush(queue, (-share, pushed, lows, highs))

    stuck: list[Box] = []

    def result(status: CertificateStatus, detail: str = "", **kw: Any) -> Certificate:
        share = 1.0 if status is CertificateStatus.CERTIFIED else min(done, 1.0)
        return Certificate(
            status, box, boxes, time.perf_counter() - started, detail, fraction=share, **kw
        )

    with precision(BITS):
        while queue:
            minus_share, _, lows, highs = heapq.heappop(queue)
            share = -minus_share
            if boxes >= max_boxes or work.done() > spent:
                where = Box(box.names, lows, highs).describe()
                what = "box" if boxes >= max_boxes else "evaluation"
                return result(CertificateStatus.GAVE_UP, f"{what} budget spent; stopped at {where}")
            boxes += 1
            balls = [ball(lo, hi) for lo, hi in zip(lows, highs, strict=True)]
            g, *hyps = fn(*balls)
            if any(fails(h, s) for h, s in zip(hyps, flags, strict=True)) or _holds(g, strict):
                done += share  # outside the hypotheses, or shown
                continue
            slopes = None
            if grad is not None:
                slopes = grad(*balls)
                mids = [(lo + hi) / 2 for lo, hi in zip(lows, highs, strict=True)]
                g_mid = fn(*[arb(m) for m in mids])[0]
                form = g_mid + sum(
                    (d * (b - m) for d, b, m in zip(slopes, balls, mids, strict=True)), arb(0)
                )
                if form.is_finite() and _holds(form, strict):
                    done += share
                    continue
                # Monotone sides: where dg/dx_i has one sign on the box, g's minimum over
                # that side is at an end; the side collapses there for good.
                new_lows, new_highs = list(lows), list(highs)
                for i, d in enumerate(slopes):
                    if lows[i] < highs[i] and _may_collapse(i, hyp_symbols, hyps, flags):
                        if d >= 0:
                            new_highs[i] = lows[i]
                        elif d <= 0:
                            new_lows[i] = highs[i]
                if (new_lows, new_highs) != (list(lows), list(highs)):
                    push(tuple(new_lows), tuple(new_highs), share)
                    continue
            witness = _witness(box, lows, highs)
            if fails(g, strict) and witness is not None:
                g_mid, *h_mid = fn(*[arb(m) for m in witness])
                if fails(g_mid, strict) and all(
                    _holds(h, s) for h, s in zip(h_mid, flags, strict=True)
                ):
                    return result(
                        CertificateStatus.REFUTED,
                        f"the residual's ball at the midpoint is {show(g_mid)}",
                        point=dict(zip(box.names, witness, strict=True)),
                    )
            # Where g is certainly negative only the hypotheses are undecided: their
            # variables need splitting, not the residual's, so the widest side goes.
            side = choose_side(lows, highs, integer, logs, None if fails(g, strict) else slopes)
            parts = None if side is None else halves(lows, highs, side, integer[side], logs[side])
            if parts is None or side is None:
                # Undecidable at float resolution (a root or a tangency): keep looking
                # elsewhere, for a refutation, but this box can never be certified.
                stuck.append(Box(box.names, lows, highs))
                continue
            whole = measure(lows, highs, integer, logs)
            for part_lows, part_highs in parts:
                part = measure(part_lows, part_highs, integer, logs)
                push(part_lows, part_highs, share * part / whole)
    if stuck:
        return result(
            CertificateStatus.GAVE_UP,
            f"{len(stuck)} box(es) cannot be split further, e.g. {stuck[0].describe()}",
        )
    return result(CertificateStatus.CERTIFIED)


def _combine(box: Box, parts: Sequence[Certificate], how: str) -> Certificate:
    """All ``parts`` must hold: certified if each is; else gave up, with the share of the
    volume shown for all of them at least 1 - sum of the parts' missing shares."""
    boxes = sum(p.boxes for p in parts)
    seconds = sum(p.seconds for p in parts)
    if all(p.status is CertificateStatus.CERTIFIED for p in parts):
        return Certificate(CertificateStatus.CERTIFIED, box, boxes, seconds, how, fraction=1.0)
    missing = sum(1.0 - p.fraction for p in parts)
    why = next(p.detail for p in parts if p.status is not CertificateStatus.CERTIFIED)
    return Certificate(
        CertificateStatus.GAVE_UP,
        box,
        boxes,
        seconds,
        f"{how}; {why}",
        fraction=max(0.0, 1 - missing),
    )


def _factor_pieces(
    residual: sp.Expr,
    strict: bool,
    symbols: Sequence[sp.Symbol],
    box: Box,
    hypotheses: Sequence[tuple[sp.Expr, bool]],
    budget: int,
) -> Certificate | None:
    """Certify ``residual`` through the signs of its factors (:func:`sign_factors`): each
    factor >= 0 (> 0 for a strict residual) makes the product so.  A factor SymPy's
    assumptions already sign costs nothing; the others share ``budget``.  None: no split."""
    factors = sign_factors(residual)
    if factors is None:
        return None
    open_factors = [f for f in factors if not (f.is_positive or (not strict and f.is_nonnegative))]
    parts: list[Certificate] = []
    for f in open_factors:
        left = budget - sum(p.boxes for p in parts)
        cert = certify(f, strict, symbols, box, hypotheses, max_boxes=max(left, 1))
        parts.append(cert)
        if cert.status is not CertificateStatus.CERTIFIED:
            break  # a factor that fails proves nothing about the product: stop spending
    shown = ", ".join(str(f) for f in factors)
    shown = shown if len(shown) <= 120 else shown[:117] + "..."  # evidence stays readable
    if not parts:  # every factor signed by SymPy's assumptions
        return Certificate(
            CertificateStatus.CERTIFIED, box, 0, 0.0, f"factors {shown}", fraction=1.0
        )
    return _combine(box, parts, f"through the signs of the factors {shown} (checked rewrite)")


def certify_residual(
    residual: sp.Expr,
    strict: bool,
    symbols: Sequence[sp.Symbol],
    box: Box,
    hypotheses: Sequence[tuple[sp.Expr, bool]] = (),
    *,
    budget: int = STEP_BOXES,
) -> Certificate:
    """:func:`certify` with exact rewrites, all within ``budget`` boxes.

    ``rhs - Max(a, b)`` is split into its conjuncts (:func:`conjuncts`), each certified on
    its own, first through the signs of its factors (:func:`sign_factors`), then by a
    direct search with what is left of the budget.  A residual that vanishes on a
    hypothesis boundary, eps (e^eps - 1) - eps tanh(eps/2) at eps = 0, has a factor eps that
    carries the zero, and a cofactor bounded away from it.  A refutation comes only from a
    direct search, at a point where a conjunct, hence the residual, is negative."""
    pieces = conjuncts(residual)
    parts: list[Certificate] = []
    for piece in pieces:
        # The factors first, on a quarter of a search's budget: where they apply they are
        # far cheaper than fighting the dependency problem (2 sqrt(2) A - A with A wide).
        left = budget - sum(p.boxes for p in parts)
        cert = _factor_pieces(piece, strict, symbols, box, hypotheses, min(MAX_BOXES // 4, left))
        spent = 0 if cert is None else cert.boxes
        if cert is None or cert.status is not CertificateStatus.CERTIFIED:
            left -= spent
            direct = certify(
                piece, strict, symbols, box, hypotheses, max_boxes=min(MAX_BOXES, left)
            )
            cert = replace(direct, boxes=direct.boxes + spent)
            if cert.status is CertificateStatus.REFUTED:
                return cert
        parts.append(cert)
    if len(parts) == 1:
        return parts[0]
    return _combine(box, parts, f"as {len(parts)} conjuncts (rhs - Max(a, b) >= 0 iff each)")
