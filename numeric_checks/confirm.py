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

import functools
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import mpmath
import sympy as sp

from numeric_checks.budget import BudgetSpent, work_limit
from numeric_checks.enclose import DOIT_SECONDS, enclose
from numeric_checks.exact_eval import exact_value
from numeric_checks.exact_points import exact_number
from numeric_checks.rigorous.calculus import EnclosureNote
from symbolic.binary_rationals import NotExact
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
"""CPU seconds after which no higher precision is tried (work, not wall time: whether a
violation is confirmed must not depend on the machine's load)."""


@dataclass(frozen=True)
class _Ruling:
    confirmed: bool | None
    method: str
    detail: str
    exact: bool = False
    """Decided exactly (a rational residual, SymPy's exact zero, a closed constant's sign)."""
    closed_form: bool = False
    """The ball went through SymPy's closed form of a node (no proved enclosure of it)."""
    unbounded: bool = False
    """A numeric function was valued by its own routine, with no proved error bound."""
    bits: int = 0
    """Arb's precision when a ball decided (0 otherwise)."""


def confirm_violation(
    lhs: sp.Expr,
    relation: Relation,
    rhs: sp.Expr,
    symbols: Sequence[sp.Symbol],
    values: Sequence[Any],
    constraints: Sequence[tuple[sp.Expr, bool]] = (),
) -> RefereeRecord:
    """Re-decide ``lhs REL rhs`` at ``values`` (mpmath numbers: exact binary rationals) with
    a rigorous bound.  ``confirmed``: True when the violation is shown, False when the
    relation is shown to *hold* there (the sampled violation was the evaluator's), None when
    neither could be shown; ``detail`` says how ("Arb at 256 bits: residual ..."), or why
    not.  ``constraints`` (``(g, strict)``: ``g >= 0``, ``> 0``) are the domains and the
    hypotheses: a point shown to violate one (SymPy exactly, its sign by Arb where needed) is
    no counterexample, and the ruling is False (the sampled violation is dismissed).

    Exact evaluation by SymPy comes first (:mod:`numeric_checks.exact_eval`: floor, powers
    of -1, finite sums, Piecewise, ...); where it decides and the residual also has an Arb
    ball, that ball is taken too, and the two rigorous routes must agree: a disagreement is
    recorded as the ruling's ``conflict`` (an engine inconsistency, exit 4)."""
    residual, strict = _residual(lhs, relation, rhs)
    try:
        exact = {s: exact_number(v) for s, v in zip(symbols, values, strict=True)}
    except NotExact as exc:
        return RefereeRecord(RefereeKind.ARB, None, f"the point has no exact value: {exc}")
    outside = _outside(constraints, exact)
    if outside:
        return RefereeRecord(
            RefereeKind.EXACT, False, f"the point is outside {outside}, so it is no counterexample"
        )
    found = exact_value(residual, exact)
    conflict = ""
    if isinstance(found.value, sp.Rational):
        ruling = _rational_ruling(found.value, relation, strict)
        conflict = _cross_check(ruling, residual, relation, strict, symbols, values, exact)
    else:
        original = residual
        residual, opaque, note = _opaque_values(residual, symbols, values)
        ruling = _by_arb(residual, relation, strict, list(symbols), values, exact, opaque)
        if note and ruling.method:
            ruling = replace(ruling, method=f"{ruling.method}, {note}", unbounded=True)
        if ruling.confirmed is False and ruling.closed_form:
            # SymPy's closed form is no proved enclosure: against the sampled violation it
            # is one route against another, and neither is chosen.
            conflict = (
                "the sampled evaluation (mpmath, stable at two precisions above the working "
                "one) finds the relation fails there"
            )
        if ruling.confirmed is None and found.value is not None:
            # No ball of the residual (floor, a power of -1, ...), but SymPy evaluated it
            # exactly to a closed constant: its sign by Arb.
            ruling = _constant_ruling(found.value, relation, strict, ruling)
        elif ruling.confirmed is None and found.why and original.has(*_EXACT_ONLY):
            ruling = replace(
                ruling, confirmed=None, detail=f"{ruling.detail}; no exact value: {found.why}"
            )
    kind = RefereeKind.EXACT if ruling.exact else RefereeKind.ARB
    return RefereeRecord(
        kind,
        ruling.confirmed,
        ruling.detail,
        method=ruling.method,
        conflict=conflict,
        unbounded=ruling.unbounded,
        bits=ruling.bits,
    )


def _outside(constraints: Sequence[tuple[sp.Expr, bool]], exact: dict[sp.Symbol, Any]) -> str:
    """The first constraint ``g >= 0`` (``> 0``) shown false at the exact point, exactly or by
    an Arb ball of ``g`` there; empty when none is (one that cannot be decided is left to the
    sampler's test, as before)."""
    for g, strict in constraints:
        found = exact_value(g, exact).value
        if found is None:
            continue
        sign = exact_sign(found)
        if sign is not None and (sign < 0 or (strict and sign == 0)):
            return f"{g} {'>' if strict else '>='} 0 (its value there is {_short(found)})"
    return ""


def _cross_check(
    ruling: _Ruling,
    residual: sp.Expr,
    relation: Relation,
    strict: bool,
    symbols: Sequence[sp.Symbol],
    values: Sequence[Any],
    exact: dict[sp.Symbol, sp.Rational],
) -> str:
    """The Arb ball of the residual at the point, at the first rungs only, against the exact
    ruling: empty when they agree or Arb cannot decide; else what Arb found (a disagreement
    of two rigorous routes is a bug of one of them, never a choice between them)."""
    if ruling.confirmed is None or residual.has(sp.Integral):
        return ""
    try:
        other = _by_arb(residual, relation, strict, list(symbols), values, exact, (), CROSS_BITS)
    except Exception:  # a route that cannot run decides nothing
        return ""
    if other.confirmed is None or other.confirmed == ruling.confirmed:
        return ""
    said = "fails" if other.confirmed else "holds"
    return f"{other.method} says the relation {said} there ({other.detail})"


CROSS_BITS = (128, 256)
"""Arb precisions of the cross-check of an exact ruling (a real disagreement shows at once)."""


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


_EXACT_ONLY = (sp.floor, sp.ceiling, sp.frac, sp.sign, sp.Piecewise, sp.Mod, sp.Sum, sp.Product)
"""What SymPy may evaluate exactly where Arb has no enclosure: its reason is worth saying."""


def _rational_ruling(value: sp.Rational, relation: Relation, strict: bool) -> _Ruling:
    """The residual, evaluated exactly by SymPy at the point (:func:`exact_value`), is a
    rational: it decides at once."""
    shown = f"residual {sp.Float(value, 8)}" if value != 0 else "residual exactly 0"
    return _Ruling(_verdict_of_exact(value, relation, strict), "exactly", shown, exact=True)


def _constant_ruling(value: sp.Expr, relation: Relation, strict: bool, before: _Ruling) -> _Ruling:
    """The residual evaluated exactly by SymPy to a closed constant (``sqrt(2) - 1``), its
    sign decided by an Arb ball; ``before`` (Arb on the residual as written) when that fails
    too."""
    try:
        sign = _by_arb(value, relation, strict, [], [], {}, ())
    except Exception:  # a constant Arb cannot enclose decides nothing
        return _Ruling(None, "", f"{before.detail}; its exact value {_short(value)} has no ball")
    if sign.confirmed is None:
        return _Ruling(None, "", f"{before.detail}; its exact value {_short(value)}: {sign.detail}")
    method = f"exactly by SymPy at the point, its sign by {sign.method}"
    detail = f"residual {_short(value)} = {sign.detail}"
    return _Ruling(sign.confirmed, method, detail, exact=True, bits=sign.bits)


def exact_sign(value: sp.Expr) -> int | None:
    """The sign (-1, 0, 1) of an exact real number: a rational's at once, a closed
    constant's by an Arb ball at raised precision (0 where SymPy shows it is exactly 0);
    None where neither decides."""
    if isinstance(value, sp.Rational):
        return int(value.p > 0) - int(value.p < 0)
    try:
        ruling = _by_arb(value, Relation.GE, True, [], [], {}, ())
    except Exception:  # a constant Arb cannot enclose decides nothing
        return None
    if ruling.confirmed is None:
        return None
    if ruling.confirmed is False:  # value > 0 shown
        return 1
    if ruling.exact:  # both sides exactly equal
        return 0
    # value <= 0 shown; strictly negative unless the ball touches 0
    negative = _by_arb(-value, Relation.GE, True, [], [], {}, ())
    return -1 if negative.confirmed is False else None


def _short(value: sp.Expr) -> str:
    text = str(value)
    return text if len(text) <= 80 else text[:77] + "..."


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
    ladder: Sequence[int] = BITS,
) -> _Ruling:
    from flint import arb

    from numeric_checks.arb import exact_ball, precision, show  # python-flint, on demand

    symbols = [*symbols, *(s for s, _, _ in opaque)]

    started = time.process_time()
    last = "no precision tried"
    tried_zero = False
    for bits in ladder:
        if time.process_time() - started > CONFIRM_SECONDS:
            break
        try:
            with precision(bits):
                extra = [
                    exact_ball(mid) + arb(0).union(exact_ball(rad)).union(-exact_ball(rad))
                    for _, mid, rad in opaque
                ]
                balls = [*(exact_ball(v) for v in values), *extra]
                notes: list[EnclosureNote] = []
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
        forms = sorted({n.text for n in notes if n.closed_form})
        rest = sorted({n.text for n in notes if not n.closed_form})
        if any(n.quadrature for n in notes):
            # An integral enclosed by quadrature: say so, with its proved tail bound.
            method = f"Arb quadrature (acb.integral) at {bits} bits"
        if rest:
            text += "; " + "; ".join(rest)
        if forms:
            method += ", through " + " and ".join(forms)
        ball = functools.partial(_Ruling, method=method, closed_form=bool(forms), bits=bits)
        if relation is Relation.EQ:
            if g > 0 or g < 0:
                return ball(True, detail=text)
            if g.is_zero():
                return ball(False, detail="residual exactly 0")
        elif (g <= 0) if strict else (g < 0):
            return ball(True, detail=text)
        elif (g > 0) if strict else (g >= 0):
            return ball(False, detail=text)
        last = f"the ball at {bits} bits straddles 0 ({text})"
        if notes and bits >= QUADRATURE_MAX_BITS:
            last += f"; quadrature is not tried above {QUADRATURE_MAX_BITS} bits"
            break
        # A tie: SymPy may show the residual is exactly 0 there, once (at the last rung, or
        # at once for a constant, which more bits never separate from 0).
        at_zero = bits == BITS[-1] or (not symbols and bits >= BITS[1])
        if ladder is BITS and not tried_zero and at_zero and g.contains(0):
            tried_zero = True
            if _exact_zero(residual, exact):
                if strict:
                    return _Ruling(True, "exactly", "both sides are exactly equal (SymPy)", True)
                return _Ruling(False, "exactly", "residual exactly 0 (SymPy)", exact=True)
    return _Ruling(None, "", last)


def _exact_zero(residual: sp.Expr, exact: dict[sp.Symbol, sp.Rational]) -> bool:
    """SymPy shows the residual is exactly 0 at the point (a strict relation's tie); only at
    points of small height, where simplification cannot build huge numbers."""
    if any(abs(v.p) > 2**64 or v.q > 2**64 for v in exact.values()):
        return False
    try:
        with work_limit(DOIT_SECONDS):
            return prove_zero(residual.xreplace(exact)) is not None
    except (BudgetSpent, TypeError, ValueError, RecursionError, MemoryError):
        return False
