"""How the certifier cuts a box and a residual into pieces it can enclose.

* :func:`choose_side` picks the side to bisect: the one whose width contributes most to the
  mean-value enclosure g(m) + sum_i dg/dx_i(box) (x_i - m_i), i.e. the largest
  |dg/dx_i(box)| * width_i (the "maximal smear" rule of interval branch-and-bound:
  R. B. Kearfott, *Rigorous Global Search: Continuous Problems*, Kluwer 1996, section 5.2);
  without a finite gradient, the widest side in its own measure.
* :func:`halves` bisects it: geometrically on a side whose domain spans decades (delta in
  (1e-12, 1) is split at sqrt(lo hi), so each decade gets its share of the budget),
  between integers on an integer side, at the midpoint otherwise.
* :func:`measure` is the volume the search reports (log measure on decade-spanning sides,
  the count of integers on integer sides), so that "how far it got" is a share of it.
* :func:`conjuncts` and :func:`sign_factors` are exact rewrites of a residual into pieces
  whose signs imply its sign: rhs - Max(a, b) >= 0 iff rhs - a >= 0 and rhs - b >= 0, and
  a product is >= 0 where every factor is.  A factor that vanishes on a hypothesis boundary
  (eps, e^eps - 1) is then certified on its own instead of spoiling its cofactor's
  enclosure.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import sympy as sp

__all__ = [
    "DECADES",
    "choose_side",
    "conjuncts",
    "halves",
    "log_sides",
    "measure",
    "side_measure",
    "sign_factors",
]

DECADES = 1e3
"""A positive side whose domain spans at least this factor is split (and measured) in log
scale."""

Sides = tuple[float, ...]


def log_sides(lows: Sequence[float], highs: Sequence[float]) -> tuple[bool, ...]:
    """Which sides of the starting box span decades (positive, hi/lo >= :data:`DECADES`)."""
    return tuple(lo > 0 and hi / lo >= DECADES for lo, hi in zip(lows, highs, strict=True))


def side_measure(lo: float, hi: float, integer: bool, log: bool) -> float:
    """One side's extent: integers counted, decades in log scale, else its length; a
    single point counts 1 (it neither adds nor removes volume)."""
    if integer:
        return hi - lo + 1.0
    if hi <= lo:
        return 1.0
    return math.log(hi / lo) if log else hi - lo


def measure(lows: Sides, highs: Sides, integer: Sequence[bool], logs: Sequence[bool]) -> float:
    out = 1.0
    for i, (lo, hi) in enumerate(zip(lows, highs, strict=True)):
        out *= side_measure(lo, hi, bool(integer and integer[i]), logs[i])
    return out


def _magnitude(d: Any) -> float:
    """An upper bound of |d| for an Arb ball (inf for NaN or infinite balls)."""
    try:
        m = float(abs(d).upper())
    except (TypeError, ValueError, OverflowError):
        return math.inf
    return m if math.isfinite(m) else math.inf


def choose_side(
    lows: Sides,
    highs: Sides,
    integer: Sequence[bool],
    logs: Sequence[bool],
    slopes: Sequence[Any] | None,
) -> int | None:
    """The side to bisect (None: every side is a point).  With slopes, the largest
    |dg/dx_i| * width_i, ties and non-finite slopes broken by the side's own measure."""
    candidates = []
    for i, (lo, hi) in enumerate(zip(lows, highs, strict=True)):
        if hi <= lo:
            continue  # a point (or a single integer): nothing to split
        extent = side_measure(lo, hi, bool(integer and integer[i]), logs[i])
        if not logs[i]:
            extent /= max(1.0, abs(lo), abs(hi))
        smear = _magnitude(slopes[i]) * (hi - lo) if slopes is not None else 0.0
        candidates.append((smear, extent, i))
    if not candidates:
        return None
    return max(candidates)[2]


def halves(
    lows: Sides, highs: Sides, i: int, integer: bool, log: bool
) -> tuple[tuple[Sides, Sides], tuple[Sides, Sides]] | None:
    """Bisect side ``i``; None where binary floats cannot split it further."""
    lo, hi = lows[i], highs[i]
    mid = math.sqrt(lo) * math.sqrt(hi) if log and hi / lo > 4 else (lo + hi) / 2
    left_hi, right_lo = list(highs), list(lows)
    if integer:
        # Integer sides split between integers: [lo, m] and [m + 1, hi].
        m = min(max(math.floor(mid), lo), hi - 1)
        left_hi[i], right_lo[i] = float(m), float(m + 1)
    else:
        if not lo < mid < hi:
            return None
        left_hi[i], right_lo[i] = mid, mid
    return (lows, tuple(left_hi)), (tuple(right_lo), highs)


def conjuncts(residual: sp.Expr) -> list[sp.Expr]:
    """Residuals whose conjunction is equivalent to ``residual >= 0`` (and to ``> 0``):
    a term -c Max(a_1, ..) (c > 0 a number) of a sum makes it min_j(rest - c a_j), and
    likewise a term +c Min(..).  Without such a term, ``[residual]``.

    >>> a, b, r = sp.symbols("a b r")
    >>> conjuncts(r - sp.Max(a, b))
    [-a + r, -b + r]
    """
    for term in sp.Add.make_args(residual):
        coeff, core = term.as_coeff_Mul()
        if not coeff.is_Number:
            continue
        if (isinstance(core, sp.Max) and coeff < 0) or (isinstance(core, sp.Min) and coeff > 0):
            rest = residual - term
            out: list[sp.Expr] = []
            for arg in core.args:
                out += conjuncts(rest + coeff * arg)
            return out
    return [residual]


def sign_factors(residual: sp.Expr) -> list[sp.Expr] | None:
    """Factors whose being >= 0 (> 0) implies ``residual >= 0`` (> 0): the multiplicative
    factors of ``factor_terms(residual)`` with a positive numeric coefficient.  None when
    there is no split (one factor) or the rewrite does not check: ``factor_terms`` is an
    identity, and the product is compared with the residual by SymPy before it is used.

    >>> e = sp.Symbol("eps", positive=True)
    >>> sign_factors(e**2 / 2 - e * sp.tanh(e / 2))
    [eps, eps/2 - tanh(eps/2)]
    """
    coeff, core = sp.factor_terms(residual).as_coeff_Mul()
    if not coeff > 0:
        return None
    factors = list(sp.Mul.make_args(core))
    if len(factors) < 2:
        return None
    product = coeff * sp.Mul(*factors)
    if sp.expand(product - residual) != 0 and sp.simplify(product - residual) != 0:
        return None
    return factors
