"""One point where every symbol satisfies its SymPy assumptions, and a rigorous evaluation
of an expression there: the cheap witness that a SymPy query cannot succeed.

Every SymPy tactic and assumption query is sound for *all* values the symbols' assumptions
allow.  So an expression that is nonzero at one such point cannot be reduced to ``0`` by any
tactic of the equality ladder, and one that is negative there cannot be shown ``>= 0`` (nor
``> 0``) from the assumptions.  A failing ladder ran every rung, ``simplify`` included, and
most failing sign queries went through SymPy's whole deduction, before giving the answer the
point gives in a millisecond.

The evaluation is interval arithmetic (mpmath's ``iv``) at a point of rationals, so a value
whose interval excludes zero is nonzero (negative where it lies below zero); an interval
holding zero says nothing, and the query runs as before.  Only the arithmetic operations,
``exp``, ``log``, ``Abs``, ``Max`` and ``Min`` are enclosed (:func:`_enclose`): any other
function, or an unevaluated integral or sum, leaves the query to SymPy.
"""

from __future__ import annotations

import functools
from typing import Any

import sympy as sp
from mpmath import iv
from sympy.core.assumptions import _assume_defined

# Values tried for each symbol, in this order from an offset that differs between symbols
# (so that x - y is not evaluated at x = y): the first one with every assumption the symbol
# has is taken.  Small non-integers first, then integers, negatives, zero.
CANDIDATES: tuple[sp.Rational, ...] = tuple(
    sp.Rational(v)
    for v in (
        "3/7",
        "13/10",
        "5/3",
        "2/9",
        "11/4",
        "7/5",
        "1",
        "2",
        "3",
        "5",
        "-3/7",
        "-13/10",
        "-5/3",
        "-1",
        "-2",
        "0",
    )
)
NON_INTEGER_POSITIVE = 6  # the first six candidates: where the offsets start

# What a value must agree on with the symbol, wherever the symbol's assumption is decided:
# every assumption SymPy knows (a value outside what any one of them allows is no witness).
KEYS = tuple(sorted(_assume_defined))


def _admits(symbol: sp.Basic, value: sp.Rational) -> bool:
    for key in KEYS:
        wanted = getattr(symbol, f"is_{key}", None)
        if wanted is not None and getattr(value, f"is_{key}") is not wanted:
            return False
    return True


def _value(symbol: sp.Basic, offset: int) -> sp.Rational | None:
    first = CANDIDATES[:NON_INTEGER_POSITIVE]
    rotated = first[offset:] + first[:offset]
    for value in (*rotated, *CANDIDATES[NON_INTEGER_POSITIVE:]):
        if _admits(symbol, value):
            return value
    return None


@functools.lru_cache(maxsize=1024)
def _point(symbols: frozenset[sp.Basic]) -> dict[sp.Basic, sp.Rational] | None:
    """A value for each symbol, satisfying its assumptions; None if some symbol admits none
    of the candidates (or is not a plain symbol or family element)."""
    point = {}
    for k, s in enumerate(sorted(symbols, key=sp.default_sort_key)):
        if not isinstance(s, sp.Symbol | sp.Indexed):
            return None
        value = _value(s, k % NON_INTEGER_POSITIVE)
        if value is None:
            return None
        point[s] = value
    return point


@functools.lru_cache(maxsize=1024)
def _rational(r: sp.Rational) -> Any:
    return iv.mpf(int(r.p)) / iv.mpf(int(r.q))


class _Unsupported(Exception):
    """An expression the interval evaluation does not cover (or not at this point)."""


def _enclose(e: sp.Basic, point: dict[sp.Basic, Any]) -> Any:
    """An interval (mpmath ``iv``) holding the real value of ``e`` at ``point``."""
    if e in point:
        return point[e]
    if isinstance(e, sp.Rational):
        return _rational(e)
    if e is sp.pi:
        return iv.pi
    if e is sp.E:
        return iv.e
    if isinstance(e, sp.Add):
        total = iv.mpf(0)
        for a in e.args:
            total += _enclose(a, point)
        return total
    if isinstance(e, sp.Mul):
        product = iv.mpf(1)
        for a in e.args:
            product *= _enclose(a, point)
        return product
    if isinstance(e, sp.Pow):
        base = _enclose(e.base, point)
        if isinstance(e.exp, sp.Integer):
            k = int(e.exp)
            if k < 0 and base.a <= 0 <= base.b:
                raise _Unsupported
            return base**k
        if not base.a > 0:
            raise _Unsupported  # a real power of a base not shown positive
        if e.exp == sp.S.Half:
            return iv.sqrt(base)
        return iv.exp(_enclose(e.exp, point) * iv.log(base))
    if isinstance(e, sp.exp):
        return iv.exp(_enclose(e.args[0], point))
    if isinstance(e, sp.log) and len(e.args) == 1:
        arg = _enclose(e.args[0], point)
        if not arg.a > 0:
            raise _Unsupported
        return iv.log(arg)
    if isinstance(e, sp.Abs):
        arg = _enclose(e.args[0], point)
        if arg.a >= 0:
            return arg
        if arg.b <= 0:
            return -arg
        return iv.mpf([0, max(-arg.a, arg.b)])
    if isinstance(e, sp.Max | sp.Min):
        parts = [_enclose(a, point) for a in e.args]
        pick = max if isinstance(e, sp.Max) else min
        return iv.mpf([pick(x.a for x in parts), pick(x.b for x in parts)])
    raise _Unsupported


@functools.lru_cache(maxsize=8192)
def enclosure_at_point(e: sp.Expr) -> Any:
    """An interval holding the real value of ``e`` at a point satisfying its symbols'
    assumptions (interval arithmetic, so the enclosure is rigorous), or None where it
    cannot be told (a function or power it does not cover, a log or real power of a value
    not shown positive, a division by an interval around zero)."""
    if not isinstance(e, sp.Expr):
        return None
    symbols = frozenset(e.free_symbols)
    if any(isinstance(s, sp.Indexed) for s in symbols):
        bases = [s.base for s in symbols if isinstance(s, sp.Indexed)]
        if len(bases) != len(set(bases)):
            # p[i] and p[j] would get values of their own, but are one element where
            # i = j: such a point could be outside the family's reading.
            return None
    point = _point(symbols)
    if point is None:
        return None
    try:
        # At whatever precision the iv context has: an enclosure is rigorous at any.
        out = _enclose(e, {s: _rational(v) for s, v in point.items()})
    except (_Unsupported, ArithmeticError, ValueError, TypeError):
        return None
    return out


def nonzero_somewhere(e: sp.Expr) -> bool:
    """``e`` is nonzero at a point its symbols' assumptions allow: no sound rewriting
    reduces it to the literal 0."""
    box = enclosure_at_point(e)
    return box is not None and (box.a > 0 or box.b < 0)


def negative_somewhere(e: sp.Expr) -> bool:
    """``e`` is negative at a point its symbols' assumptions allow: SymPy's assumptions
    cannot make it nonnegative (nor positive)."""
    box = enclosure_at_point(e)
    return box is not None and box.b < 0
