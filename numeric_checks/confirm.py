"""Confirmation of a counterexample by an evaluation with a rigorous error bound (issue 23).

Sampling decides points with mpmath at escalating precision, and a violation that is stable
across precisions is still only evidence: an algorithm that is wrong at an extreme point (a
series summed over a window that misses its peak, ``1 - exp(t)/(1 + exp(t))`` cancelling to
nothing at 50 digits) is wrong at every precision.  A point counts as a counterexample only
when one of these shows the violation with a bound:

* *exactly*: the residual at the exact (binary, hence rational) point is a rational number,
  or SymPy shows it is exactly zero for a strict relation;
* *by Arb*: the residual's ball (python-flint) at a working precision raised from 128 bits
  until the ball lies on one side of zero or a cap is hit, definitions included (the plan
  unfolds them into the link before it gets here), sums and integrals enclosed by
  :mod:`numeric_checks.enclose` (terms as balls with a proved tail, integrals by Arb's
  quadrature with proved tail bounds (:mod:`numeric_checks.quadrature`), or SymPy's closed
  form).

Anything else leaves the violation *unconfirmed*: the point is reported as suspect and
never shown as a counterexample.  Nothing here decides a verdict
(:func:`numeric_checks.decide.decide` does).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import mpmath
import sympy as sp

from numeric_checks.budget import BudgetSpent, time_limit
from numeric_checks.enclose import DOIT_SECONDS, enclose
from symbolic.errors import Unsupported
from symbolic.relations import Relation
from symbolic.report import RefereeKind, RefereeRecord
from symbolic.tactics import prove_zero

__all__ = ["BITS", "confirm_violation"]

BITS = (128, 256, 512, 1024, 2048, 4096)
"""Arb working precisions tried in turn: a real violation is decided at the first, a
cancellation needing more than 4096 bits (1233 digits) is left unconfirmed."""
QUADRATURE_MAX_BITS = 512
"""The last precision at which an integral is enclosed by quadrature: a real violation is
decided at the first rung, and a residual that still straddles zero at 512 bits is a tie
(a true identity) whose quadrature at 4096 bits would cost tens of seconds for nothing."""
CONFIRM_SECONDS = 20.0
"""Wall time after which no higher precision is tried."""
EXACT_MAX_POWER = 4096
"""An exact rational evaluation is tried only when every power's integer exponent is
below this (a rational to the power 10^6 is a number too long to be worth forming)."""


@dataclass(frozen=True)
class _Ruling:
    confirmed: bool | None
    method: str
    detail: str


def confirm_violation(
    lhs: sp.Expr,
    relation: Relation,
    rhs: sp.Expr,
    symbols: Sequence[sp.Symbol],
    values: Sequence[Any],
) -> RefereeRecord:
    """Re-decide ``lhs REL rhs`` at ``values`` (mpmath numbers: exact binary rationals) with
    a rigorous bound.  ``confirmed``: True when the violation is shown, False when the
    relation is shown to *hold* there (the sampled violation was the evaluator's), None when
    neither could be shown; ``detail`` says how ("Arb at 256 bits: residual ..."), or why
    not."""
    residual, strict = _residual(lhs, relation, rhs)
    exact = {s: sp.Rational(*_ratio(v)) for s, v in zip(symbols, values, strict=True)}
    ruling = _exactly(residual, relation, strict, exact)
    if ruling is None:
        residual, opaque, note = _opaque_values(residual, symbols, values)
        ruling = _by_arb(residual, relation, strict, list(symbols), values, exact, opaque)
        if note and ruling.method:
            ruling = _Ruling(ruling.confirmed, f"{ruling.method}, {note}", ruling.detail)
    kind = RefereeKind.EXACT if ruling.method == "exactly" else RefereeKind.ARB
    return RefereeRecord(kind, ruling.confirmed, ruling.detail, method=ruling.method)


OPAQUE_DIGITS = (60, 120)
"""Digits at which a numeric function with no Arb enclosure is evaluated by its own
routine; the difference of the two (times 10) is the radius it is given."""


def _opaque_values(
    residual: sp.Expr, symbols: Sequence[sp.Symbol], values: Sequence[Any]
) -> tuple[sp.Expr, list[tuple[sp.Symbol, Any, Any]], str]:
    """Numeric functions with no rigorous enclosure (see
    :mod:`numeric_checks.dp.arb_functions`) replaced by stand-ins, each valued by its own
    mpmath routine at two precisions: a midpoint and a radius that are *not* a proved bound,
    and the note saying so (empty when there are none)."""
    from numeric_checks.bridge import compile_exprs, evaluate
    from numeric_checks.dp.arb_functions import ARB_FUNCTIONS
    from symbolic.functions import NumericFunction

    atoms = sorted(
        (f for f in residual.atoms(NumericFunction) if type(f).__name__ not in ARB_FUNCTIONS),
        key=sp.default_sort_key,
    )
    if not atoms:
        return residual, [], ""
    out: list[tuple[sp.Symbol, Any, Any]] = []
    replaced: dict[sp.Basic, sp.Expr] = {}
    for i, f in enumerate(atoms):
        fn = compile_exprs(list(symbols), [f])
        try:
            low, high = (evaluate(fn, values, d)[0] for d in OPAQUE_DIGITS)
        except Exception:  # its routine failing decides nothing: left unenclosable
            return residual, [], ""
        with mpmath.workdps(OPAQUE_DIGITS[-1]):
            rad = 10 * abs(high - low) + abs(high) * mpmath.mpf(10) ** (10 - OPAQUE_DIGITS[-1])
        stand_in = sp.Symbol(f"_opaque{i}")
        replaced[f] = stand_in
        out.append((stand_in, high, rad))
    names = ", ".join(sorted({type(f).__name__ for f in atoms}))
    note = (
        f"with {names} evaluated by its own routine at {OPAQUE_DIGITS[-1]} digits "
        "(no proved error bound for it)"
    )
    return residual.xreplace(replaced), out, note


def _residual(lhs: sp.Expr, relation: Relation, rhs: sp.Expr) -> tuple[sp.Expr, bool]:
    """``g`` with the relation meaning ``g >= 0`` (``> 0`` when strict); ``lhs - rhs`` for
    an equality."""
    if relation is Relation.EQ:
        return lhs - rhs, False
    if relation.direction == 1:  # <=, <
        return rhs - lhs, relation.strict
    return lhs - rhs, relation.strict


def _exactly(
    residual: sp.Expr, relation: Relation, strict: bool, exact: dict[sp.Symbol, sp.Rational]
) -> _Ruling | None:
    """The residual as an exact rational, where it is a rational function of the point."""
    if residual.has(sp.Function, sp.Sum, sp.Integral, sp.Derivative):
        return None
    for p in residual.atoms(sp.Pow):
        if not (p.exp.is_Integer and abs(int(p.exp)) < EXACT_MAX_POWER):
            return None
    try:
        value = residual.xreplace(exact)
    except (ZeroDivisionError, TypeError, ValueError):
        return None
    if not isinstance(value, sp.Rational):
        return None
    shown = f"residual {sp.Float(value, 8)}" if value != 0 else "residual exactly 0"
    return _Ruling(_verdict_of_exact(value, relation, strict), "exactly", shown)


def _verdict_of_exact(value: sp.Rational, relation: Relation, strict: bool) -> bool:
    if relation is Relation.EQ:
        return bool(value != 0)
    return bool(value <= 0) if strict else bool(value < 0)


def _by_arb(
    residual: sp.Expr,
    relation: Relation,
    strict: bool,
    symbols: list[sp.Symbol],
    values: Sequence[Any],
    exact: dict[sp.Symbol, sp.Rational],
    opaque: Sequence[tuple[sp.Symbol, Any, Any]] = (),
) -> _Ruling:
    from flint import arb

    from numeric_checks.arb import exact_ball, precision, show  # python-flint, on demand

    symbols = [*symbols, *(s for s, _, _ in opaque)]

    started = time.perf_counter()
    last = "no precision tried"
    for bits in BITS:
        if time.perf_counter() - started > CONFIRM_SECONDS:
            break
        try:
            with precision(bits):
                extra = [
                    exact_ball(mid) + arb(0).union(exact_ball(rad)).union(-exact_ball(rad))
                    for _, mid, rad in opaque
                ]
                balls = [*(exact_ball(v) for v in values), *extra]
                notes: list[str] = []
                g = enclose(residual, symbols, balls, exact, notes)
        except Unsupported as exc:
            return _Ruling(None, "", f"no rigorous enclosure: {exc}")
        except (TypeError, ValueError, ZeroDivisionError, ArithmeticError) as exc:
            return _Ruling(None, "", f"the enclosure failed ({type(exc).__name__})")
        if not g.is_finite():
            last = f"the ball at {bits} bits is not finite"
            continue
        method = f"Arb at {bits} bits"
        text = f"residual {show(g)}"
        if any("acb.integral" in n for n in notes):
            # An integral enclosed by quadrature: say so, with its proved tail bound.
            method = f"Arb quadrature (acb.integral) at {bits} bits"
        if notes:
            text += "; " + "; ".join(sorted(set(notes)))
        if relation is Relation.EQ:
            if g > 0 or g < 0:
                return _Ruling(True, method, text)
            if g.is_zero():
                return _Ruling(False, method, "residual exactly 0")
        elif (g <= 0) if strict else (g < 0):
            return _Ruling(True, method, text)
        elif (g > 0) if strict else (g >= 0):
            return _Ruling(False, method, text)
        last = f"the ball at {bits} bits straddles 0 ({text})"
        if notes and bits >= QUADRATURE_MAX_BITS:
            last += f"; quadrature is not tried above {QUADRATURE_MAX_BITS} bits"
            break
        if strict and bits == BITS[-1] and g.contains(0) and _exact_zero(residual, exact):
            return _Ruling(True, "exactly", "both sides are exactly equal (SymPy)")
    return _Ruling(None, "", last)


def _exact_zero(residual: sp.Expr, exact: dict[sp.Symbol, sp.Rational]) -> bool:
    """SymPy shows the residual is exactly 0 at the point (a strict relation's tie); only at
    points of small height, where simplification cannot build huge numbers."""
    if any(abs(v.p) > 2**64 or v.q > 2**64 for v in exact.values()):
        return False
    try:
        with time_limit(DOIT_SECONDS):
            return prove_zero(residual.xreplace(exact)) is not None
    except (BudgetSpent, TypeError, ValueError, RecursionError, MemoryError):
        return False


def _ratio(v: Any) -> tuple[int, int]:
    if isinstance(v, int):
        return v, 1
    if isinstance(v, sp.Rational):
        return int(v.p), int(v.q)
    man, exp = mpmath.mpf(v).man_exp
    if exp >= 0:
        return int(man) * 2 ** int(exp), 1
    return int(man), 2 ** int(-exp)
