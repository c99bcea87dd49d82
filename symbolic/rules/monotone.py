"""Monotone functions and positive factors.

* **monotonicity** of ``exp``, ``log``, ``sqrt``, ``Phi``, ``erf``, ``tanh``, ``sinh``, ``atan``
  and of positive powers: ``f(b) - f(a) >= 0`` reduces to ``b - a >= 0``;
* **sign at zero**: ``log(b) >= 0`` reduces to ``b >= 1``, ``u**p >= 0`` to ``u >= 0``;
* **positive factor**: ``g = c*h`` with ``c > 0`` reduces to ``h >= 0``;
* **product of signs**: a product of nonnegative (positive, if strict) factors is so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sympy as sp

from symbolic.functions import Phi, PhiInv
from symbolic.rules.registry import credit, side_condition

if TYPE_CHECKING:
    from symbolic.rules.prover import Prover

# sqrt is a Pow in SymPy: it is covered by the positive-power case.
MONOTONE: tuple[type[sp.Function], ...] = (
    sp.exp,
    sp.log,
    Phi,
    PhiInv,
    sp.erf,
    sp.tanh,
    sp.sinh,
    sp.atan,
)


def monotone(prover: Prover, g: sp.Expr, strict: bool, depth: int) -> list[str] | None:
    """``F(b) - F(a) >= 0`` from ``b - a >= 0`` for an increasing ``F``; also a lone
    ``F(b)`` against ``F``'s zero (:func:`sign_at_zero`)."""
    alone = sign_at_zero(prover, g, strict, depth)
    if alone is not None:
        return alone
    for form in prover.forms(g):
        pair = _difference_of_same_function(form)
        if pair is None:
            continue
        name, big, small, needs_positive = pair
        if needs_positive and not prover.known_sign(small, strict=False):
            continue
        if name == PhiInv.__name__ and not side_condition(
            _in_unit_interval, prover, small, big, depth
        ):
            continue
        trace = prover.nonneg(big - small, strict, depth + 1)
        if trace is not None:
            credit(f"monotonicity of {name}")
            return [f"monotonicity of {name}", *trace]
    return None


def _in_unit_interval(prover: Prover, small: sp.Expr, big: sp.Expr, depth: int) -> bool:
    """``0 <= small`` and ``big <= 1``: PhiInv is increasing on [0, 1] (into the extended
    reals, PhiInv(0) = -oo and PhiInv(1) = oo), and undefined outside it."""
    return (
        prover.nonneg(small, False, depth + 1) is not None
        and prover.nonneg(1 - big, False, depth + 1) is not None
    )


def sign_at_zero(prover: Prover, g: sp.Expr, strict: bool, depth: int) -> list[str] | None:
    """The sign of ``log(b)`` or of a power ``u**p`` from its argument.

    ``log(b) >= 0`` (``> 0``) from ``b - 1 >= 0`` (``> 0``): log is increasing and zero at 1.
    ``u**p`` with ``p > 0`` is ``>= 0`` (``> 0``) when ``u >= 0`` (``> 0``); with ``p < 0``
    it is positive when ``u > 0``.  (``1/sqrt(ln(1.25/delta)) > 0`` from ``delta < 1``.)
    """
    if isinstance(g, sp.log):
        trace = prover.nonneg(g.args[0] - 1, strict, depth + 1)
        if trace is None:
            return None
        credit("power of a positive base")
        return ["log(b) >= 0 for b >= 1", *trace]
    if isinstance(g, sp.Pow) and g.exp.is_real and g.exp.is_nonzero:
        base_strict = strict or bool(g.exp.is_negative)
        trace = prover.nonneg(g.base, base_strict, depth + 1)
        if trace is None:
            return None
        sign = "positive" if base_strict else "nonnegative"
        credit("power of a positive base")
        return [f"a power of a {sign} base", *trace]
    return None


def positive_factor(prover: Prover, g: sp.Expr, strict: bool, depth: int) -> list[str] | None:
    """``c h >= 0`` from ``h >= 0`` when every factor in ``c`` is positive."""
    for form in prover.forms(g):
        if not isinstance(form, sp.Mul):
            continue
        positive = [f for f in form.args if prover.positive(f, depth)]
        if not positive:
            continue
        rest = sp.Mul(*[f for f in form.args if f not in positive])
        if rest == 1:
            credit("product of positive factors")
            return ["product of positive factors"]
        trace = prover.nonneg(rest, strict, depth + 1)
        if trace is not None:
            credit("positive factor")
            shown = sp.Mul(*positive)
            return [f"positive factor {shown}", *trace]
    return None


def factor_signs(prover: Prover, g: sp.Expr, strict: bool, depth: int) -> list[str] | None:
    """``prod f_i >= 0`` (``> 0``) from ``f_i >= 0`` (``> 0``) for every factor: what
    :func:`positive_factor` leaves when no factor is positive by itself
    (``(ln k + ln(4c/beta)) sqrt(ln(2/delta)) >= 0``)."""
    for form in prover.forms(g):
        if not isinstance(form, sp.Mul):
            continue
        traces = []
        for f in form.args:
            trace = prover.nonneg(f, strict, depth + 1)
            if trace is None:
                break
            traces.append(f"[{f}: {' -> '.join(trace)}]")
        else:
            sign = "positive" if strict else "nonnegative"
            return [f"product of {sign} factors: " + " ".join(traces)]
    return None


def _difference_of_same_function(g: sp.Expr) -> tuple[str, sp.Expr, sp.Expr, bool] | None:
    """Match ``F(b) - F(a)`` with F increasing; also ``F(b) - c`` for ``c`` in F's range
    (``exp(b) - 1`` is ``exp(b) - exp(0)``, ``log(b) + eps`` is ``log(b) - log(e^-eps)``).
    Returns (name, b, a, a-must-be-positive)."""
    if not isinstance(g, sp.Add) or len(g.args) != 2:
        return None
    t1, t2 = g.args
    for plus, minus in ((t1, t2), (t2, t1)):
        neg = -minus
        for fn in MONOTONE:
            if isinstance(plus, fn) and isinstance(neg, fn):
                return fn.__name__, plus.args[0], neg.args[0], fn is sp.log
            if isinstance(plus, fn) and _invertible_constant(neg):
                inverse = _inverse_at(fn, neg)
                if inverse is not None:
                    return fn.__name__, plus.args[0], inverse, fn is sp.log
            if isinstance(neg, fn) and _invertible_constant(plus):
                inverse = _inverse_at(fn, plus)
                if inverse is not None:
                    return fn.__name__, inverse, neg.args[0], fn is sp.log
        if (
            isinstance(plus, sp.Pow)
            and isinstance(neg, sp.Pow)
            and plus.exp == neg.exp
            and plus.exp.is_positive
            and plus.base.is_nonnegative
            and neg.base.is_nonnegative
        ):
            return f"x**{plus.exp} on x >= 0", plus.base, neg.base, False
        if (
            isinstance(plus, sp.Pow)
            and plus.exp.is_positive
            and plus.base.is_nonnegative
            and neg.is_number
            and neg.is_nonnegative
        ):
            return f"x**{plus.exp} on x >= 0", plus.base, neg ** (1 / plus.exp), False
    return None


def _invertible_constant(c: sp.Expr) -> bool:
    """A real ``c`` free of exp and log: ``log(b) + eps`` is ``log(b) - log(e^-eps)``.  (With
    exp or log in ``c`` the rewrite could undo itself: ``exp(x) - y`` <-> ``x - log(y)``.)"""
    return bool(c.is_real) and (c.is_number or not c.has(sp.exp, sp.log))


def _inverse_at(fn: object, c: sp.Expr) -> sp.Expr | None:
    if fn is sp.exp and c.is_positive:
        return sp.log(c)
    if fn is sp.log:
        return sp.exp(c)
    return None
