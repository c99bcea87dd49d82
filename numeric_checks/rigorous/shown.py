"""Numbers shown to a user: each side of a relation at a point as its Arb enclosure, printed
with its certain digits only.

Sampling's values come from mpmath, with error estimates but no bounds: a sum over 10^7
terms or a quadrature across a nested kink can be wrong in every printed digit while both
sides agree with each other.  Where a side can be enclosed (:func:`numeric_checks.enclose.
enclose`, sums and integrals included), the report shows the enclosure instead: Arb prints a
ball's midpoint only to the digits the radius leaves certain (``[1.23 +- 5e-3]`` prints as
``1.23``), so every digit shown is right.  A ball that holds 0 is shown as ``0 +- r``.
Where no enclosure is found, nothing is returned and the caller marks the numbers as
unverified.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sympy as sp
from flint import arb

from symbolic.errors import Unsupported
from symbolic.report import Counterexample

__all__ = ["BITS", "ball_text", "exact_point", "honest_values", "shown_sides"]

BITS = (128, 512)
"""Precisions tried for the sides (a second, higher one where the first leaves fewer
certain digits than asked)."""


def exact_point(
    symbols: Sequence[sp.Symbol], values: Sequence[Any]
) -> tuple[list[Any], dict[sp.Symbol, sp.Expr]]:
    """The point as Arb balls and as exact SymPy numbers, the same numbers the referees
    use (:func:`~numeric_checks.exact_points.exact_number`: a coordinate standing for
    ``sqrt(2)`` is ``sqrt(2)``, any other its binary value through the one signed
    conversion, :mod:`symbolic.binary_rationals`)."""
    from numeric_checks.arb import exact_ball
    from numeric_checks.exact_points import exact_number

    balls = [exact_ball(v) for v in values]
    exact = {s: exact_number(v) for s, v in zip(symbols, values, strict=True)}
    return balls, exact


def ball_text(ball: Any, digits: int) -> str:
    """``ball`` with at most ``digits`` significant digits, all of them certain."""
    if not ball.is_finite():
        return "not finite"
    if ball.contains(0) and ball.rad() > 0:
        return f"0 +- {ball.rad().str(2, radius=False)}"
    text = str(ball.str(digits, radius=False))
    if ball.rad() == 0 and "." in text and "e" not in text:
        text = text.rstrip("0")  # an exact value: its trailing zeros say nothing
        text = text + "0" if text.endswith(".") else text
    return text


def shown_sides(
    lhs: sp.Expr,
    rhs: sp.Expr,
    symbols: Sequence[sp.Symbol],
    values: Sequence[Any],
    digits: int,
) -> tuple[str, str] | None:
    """Both sides at the point as enclosures with their certain digits (at most ``digits``),
    or None where a side has no enclosure."""
    from numeric_checks.arb import precision
    from numeric_checks.enclose import enclose

    shown: tuple[str, str] | None = None
    for bits in BITS:
        try:
            with precision(bits):
                balls, exact = exact_point(symbols, values)
                sides = [enclose(side, symbols, balls, exact) for side in (lhs, rhs)]
        except (Unsupported, ArithmeticError, ValueError, TypeError):
            return shown
        sides = [
            ball if ball.is_finite() else _exact_ball(side, exact, ball)
            for side, ball in zip((lhs, rhs), sides, strict=True)
        ]
        shown = (ball_text(sides[0], digits), ball_text(sides[1], digits))
        # 15 certain digits suffice for a first look; asked for more (sides that agree
        # that far, honest_values), every digit asked for, at the higher precision if
        # need be: 128 bits printed exp(5)(1 + 1e-40) and exp(5) as the same 38 digits.
        wanted = min(digits, 15) if digits <= SHOWN_DIGITS else digits
        if all(_certain_digits(s) >= wanted for s in sides):
            break
    return shown


def _exact_ball(side: sp.Expr, exact: dict[sp.Symbol, sp.Expr], ball: Any) -> Any:
    """The side's exact value at the point as a ball, where the Arb bridge gave a NaN ball
    (``sqrt`` of a ball reaching below 0: ``sqrt(2 log(5/(4 delta)))`` at ``delta = 5/4``
    is 0, and was shown "not finite"); ``ball`` itself where SymPy has no exact value."""
    from numeric_checks.exact_eval import exact_value
    from symbolic.exact_numbers import NotEnclosable, rational_enclosure

    value = exact_value(side, exact).value
    if value is None:
        return ball
    try:
        lo, hi = rational_enclosure(value)
    except NotEnclosable:
        return ball
    return _rational_ball(lo).union(_rational_ball(hi))


def _rational_ball(r: sp.Rational) -> Any:
    from flint import fmpq

    return arb(fmpq(int(r.p), int(r.q)))


def _certain_digits(ball: Any) -> float:
    if ball.rad() == 0:
        return float("inf")
    mid = abs(ball.mid())
    if mid == 0 or not ball.is_finite():
        return 0.0
    ratio = (mid / ball.rad()).log() / arb(10).log()  # Arb: no underflow to a log of 0
    return float(ratio.mid()) if ratio.is_finite() else 0.0


SHOWN_DIGITS = 20
"""Significant digits shown of an enclosure (fewer when fewer are certain)."""


def honest_values(
    lhs: sp.Expr,
    rhs: sp.Expr,
    symbols: Sequence[sp.Symbol],
    values: Sequence[Any],
    found: Counterexample,
) -> Counterexample:
    """The counterexample with its sides as enclosures where they exist (every digit shown
    certain); otherwise its mpmath values, marked as unverified."""
    sides = None
    for digits in (SHOWN_DIGITS, 2 * SHOWN_DIGITS, 3 * SHOWN_DIGITS):
        # As many digits as it takes for the sides to differ (1 + 1e-22 against 1 + 2e-22).
        sides = shown_sides(lhs, rhs, symbols, values, digits)
        if sides is None or sides[0] != sides[1]:
            break
    if sides is None:
        note = (
            f"the values are mpmath's at {found.digits} digits, unverified "
            "(no rigorous enclosure of a side)"
        )
        return _with(found, found.lhs, found.rhs, note)
    note = "the values are Arb enclosures: every digit shown is certain"
    return _with(found, sides[0], sides[1], note)


def _with(found: Counterexample, lhs: str, rhs: str, note: str) -> Counterexample:
    from dataclasses import replace

    notes = "; ".join(n for n in (found.note, note) if n)
    return replace(found, lhs=lhs, rhs=rhs, note=notes)
