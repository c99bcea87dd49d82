"""Decaying majorants of a tail: ``|f(y)| <= sum c y^m exp(p(y))`` for ``y >= T``, and the
integral and the sum of each over ``[T, oo)`` in closed form.

The envelope is built from the expression's structure, each rule an inequality valid on the
ray (kinks are resolved first by :func:`~numeric_checks.rigorous.signs.resolve` where their
branch is shown): ``|a + b| <= |a| + |b|``; ``|Max(a, b)|, |Min(a, b)| <= |a| + |b|``;
``|Phi|, |erf|, |tanh|, |sin|, |cos|, |sign| <= 1``, ``|erfc| <= 2``, ``|atan| <= pi/2``;
``Phi(h) <= exp(-h^2/2)/2`` and ``erfc(h) <= exp(-h^2)`` where ``h`` decays to ``-oo`` (resp.
grows) and the tail condition ``-h >= 0`` (``h >= 0``) holds (Chernoff's bound); inside an
exponent, ``c |h| <= c s h`` for ``c <= 0`` and either sign ``s`` (since ``|h| >= s h``),
``c |h| = c s h`` where ``s h >= 0`` on the ray, ``c Max(a, b) <= c a`` for ``c <= 0``,
``-c e^h <= -c (1 + h + h^2/2)`` for ``c > 0`` where ``h >= 0`` (``e^z >= 1 + z + z^2/2`` for
``z >= 0``), and ``-c e^h <= 0`` otherwise; ``|1/q(y)| <= y^-d / L`` where ``q - L y^d >= 0``
(``L`` the leading coefficient of ``q``); ``|log h| <= h`` where ``h >= 1``.  Conditions
that the ray must satisfy (``needs``) are polynomials in ``y``, checked at evaluation by the
signs of the coefficients of ``need(T + u)`` in ``u``.

For one envelope ``c y^m e^{p(y)}``: if every coefficient of a positive power of ``u`` in
``p'(T + u)`` is ``<= 0`` (``p'`` nonincreasing past ``T``) and ``a = -(max(m, 0)/T +
p'(T)) > 0``, then ``(m log y + p(y))' <= -a`` for ``y >= T``, so ``g(y) = y^m e^{p(y)} <=
g(T) e^{-a (y - T)}``: its integral over ``[T, oo)`` is at most ``c g(T)/a`` and its sum over
the integers ``k >= T`` at most ``c g(T)/(1 - e^{-a})`` (a geometric envelope; Knopp 1990,
Theory and Application of Infinite Series, section 13).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import sympy as sp
from flint import arb

from numeric_checks.arb import ArbFn, compile_arb
from numeric_checks.rigorous.signs import START
from symbolic.errors import Unsupported
from symbolic.functions import Phi

__all__ = ["Envelope", "TailBound", "tail_bound"]

MAX_TERMS = 64
"""Envelope terms a product may expand into before it is refused."""
_U = sp.Symbol("_env_u", nonnegative=True)


@dataclass(frozen=True)
class Envelope:
    """``|c| y^m exp(p(y))``, valid where every polynomial of ``needs`` is ``>= 0``."""

    c: sp.Expr
    m: int
    p: sp.Expr
    needs: tuple[sp.Expr, ...] = ()


def envelopes(e: sp.Expr, y: sp.Symbol) -> list[Envelope]:
    """Envelopes whose sum bounds ``|e(y)|`` on the ray (under their ``needs``)."""
    if not e.has(y):
        return [Envelope(sp.Abs(e), 0, sp.S.Zero)]
    if e == y:
        return [Envelope(sp.S.One, 1, sp.S.Zero)]
    if e.is_Add or isinstance(e, sp.Max | sp.Min):
        return [env for a in e.args for env in envelopes(a, y)]
    if isinstance(e, sp.Abs):
        return envelopes(e.args[0], y)
    if isinstance(e, sp.Piecewise):
        return [env for value, _ in e.args for env in envelopes(value, y)]
    if e.is_Mul:
        out = [Envelope(sp.S.One, 0, sp.S.Zero)]
        for a in e.args:
            out = [_times(u, v) for u in out for v in envelopes(a, y)]
            if len(out) > MAX_TERMS:
                raise Unsupported("too many envelope terms")
        return out
    if e.is_Pow:
        return _power(e, y)
    if isinstance(e, sp.exp):
        return [_exp_envelope(e.args[0], y)]
    if isinstance(e, sp.log):
        h = e.args[0]
        if _polynomial(h, y):
            return [Envelope(env.c, env.m, env.p, (*env.needs, h - 1)) for env in envelopes(h, y)]
        raise Unsupported(f"no tail envelope for {e}")
    return [_bounded(e, y)]


def _bounded(e: sp.Expr, y: sp.Symbol) -> Envelope:
    h = e.args[0] if e.args else sp.S.Zero
    lead = _leading(h, y)
    if isinstance(e, Phi) and lead is not None and lead.is_negative:
        return Envelope(sp.Rational(1, 2), 0, sp.expand(-(h**2) / 2), (-h,))
    if isinstance(e, sp.erfc) and lead is not None and lead.is_positive:
        return Envelope(sp.S.One, 0, sp.expand(-(h**2)), (h,))
    if isinstance(e, Phi | sp.erf | sp.tanh | sp.sin | sp.cos | sp.sign | sp.Heaviside):
        return Envelope(sp.S.One, 0, sp.S.Zero)
    if isinstance(e, sp.erfc):
        return Envelope(sp.Integer(2), 0, sp.S.Zero)
    if isinstance(e, sp.atan):
        return Envelope(sp.pi / 2, 0, sp.S.Zero)
    raise Unsupported(f"no tail envelope for {type(e).__name__}")


def _power(e: sp.Pow, y: sp.Symbol) -> list[Envelope]:
    base, expo = e.args
    if isinstance(base, sp.exp):
        return [_exp_envelope(base.args[0] * expo, y)]
    if not base.has(y):
        if base.is_positive:
            return [_exp_envelope(expo * sp.log(base), y)]
        raise Unsupported(f"no tail envelope for {e}")
    if expo.is_Integer and 1 <= int(expo) <= 8:
        return envelopes(sp.Mul(*([base] * int(expo)), evaluate=False), y)
    if expo.is_Integer and int(expo) < 0 and _polynomial(base, y):
        # |1/q| <= y^-d/L where q - L y^d >= 0 on the ray (then q >= L y^d > 0).
        d = sp.degree(base, y)
        lead = sp.Poly(base, y).LC()
        n = -int(expo)
        return [Envelope(lead ** (-n), -d * n, sp.S.Zero, (sp.expand(base - lead * y**d), lead))]
    if base == y and expo.is_Rational and expo > 0:
        # y^q <= y^ceil(q) for y >= 1.
        return [Envelope(sp.S.One, int(sp.ceiling(expo)), sp.S.Zero, (y - 1,))]
    raise Unsupported(f"no tail envelope for {e}")


def _polynomial(h: sp.Expr, y: sp.Symbol) -> bool:
    return bool(h.is_polynomial(y)) and not any(c.has(y) for c in sp.Poly(h, y).coeffs())


def _leading(h: sp.Expr, y: sp.Symbol) -> sp.Expr | None:
    if not _polynomial(h, y) or not h.has(y):
        return None
    return sp.Poly(h, y).LC()  # type: ignore[no-any-return]


def _times(u: Envelope, v: Envelope) -> Envelope:
    return Envelope(u.c * v.c, u.m + v.m, sp.expand(u.p + v.p), u.needs + v.needs)


def _exp_envelope(g: sp.Expr, y: sp.Symbol) -> Envelope:
    """``exp(g) <= exp(p)`` with ``p`` a polynomial in ``y`` (see the module docstring)."""
    kept: list[sp.Expr] = []
    needs: list[sp.Expr] = []
    for term in sp.Add.make_args(sp.expand(g)):
        if _polynomial(term, y):
            kept.append(term)
            continue
        c, rest = term.as_independent(y, as_Add=False)
        if isinstance(rest, sp.Abs) and _polynomial(rest.args[0], y):
            h = rest.args[0]
            lead = _leading(h, y)
            s = -1 if lead is not None and lead.is_negative else 1
            kept.append(c * s * h)
            if not (-c).is_nonnegative:  # c |h| = c s h needs s h >= 0; for c <= 0, <=
                needs.append(s * h)
            continue
        if isinstance(rest, sp.Max | sp.Min) and all(_polynomial(a, y) for a in rest.args):
            first = rest.args[0]
            bigger = isinstance(rest, sp.Max)
            if (-c).is_nonnegative if bigger else c.is_nonnegative:
                kept.append(c * first)  # c Max(a, b) <= c a for c <= 0
            else:
                kept.append(c * first)
                sign = 1 if bigger else -1
                needs += [sign * (first - a) for a in rest.args[1:]]
            continue
        if isinstance(rest, sp.exp) and c.is_negative:
            h = sp.expand(rest.args[0])
            if _polynomial(h, y) and sp.degree(h, y) == 1:
                lead = _leading(h, y)
                if lead is not None and lead.is_positive:
                    kept.append(c * (1 + h + h**2 / 2))
                    needs.append(h)
            continue  # otherwise -|c| e^h <= 0: dropped
        raise Unsupported(f"no tail envelope for exp({g})")
    return Envelope(sp.S.One, 0, sp.expand(sp.Add(*kept)), tuple(needs))


@dataclass(frozen=True)
class _Compiled:
    """One envelope's numbers as functions of (params, T): ``[c, p(T), slopes..., needs
    coefficients...]`` with the counts to split them."""

    fn: ArbFn
    m: int
    slopes: int
    needs: tuple[int, ...]


class TailBound:
    """Proved bounds on ``int_T^oo |f|`` and ``sum_{k >= T} |f(k)|`` for an expression
    ``f`` of ``y`` and the parameters ``args`` (see the module docstring)."""

    def __init__(self, f: sp.Expr, y: sp.Symbol, args: Sequence[sp.Symbol]) -> None:
        found = [env for env in envelopes(f, y) if env.c != 0]
        self.parts = [_compile(env, y, tuple(args)) for env in found]

    def bound(self, balls: Sequence[Any], t: Any, *, discrete: bool = False) -> Any | None:
        """The bound at ``T = t`` (a positive ball), or None where a condition is not shown
        or an envelope does not decay."""
        total = arb(0)
        for part in self.parts:
            values = part.fn(*balls, t)
            c, p_t = values[0], values[1]
            slopes = values[2 : 2 + part.slopes]
            needs = values[2 + part.slopes :]
            if not all(v >= 0 for v in needs):
                return None
            if not all(s <= 0 for s in slopes[1:]):
                return None
            rate = -slopes[0] if slopes else arb(0)
            if part.m > 0:
                rate -= arb(part.m) / t
            if not rate > 0:
                return None
            g = abs(c) * t**part.m * p_t.exp()
            total += g / (1 - (-rate).exp()) if discrete else g / rate
        return total if total.is_finite() else None


@lru_cache(maxsize=512)
def _compile(env: Envelope, y: sp.Symbol, args: tuple[sp.Symbol, ...]) -> _Compiled:
    try:
        poly = sp.Poly(env.p, y)
        deriv = sp.Poly(sp.expand(poly.diff(y).as_expr().xreplace({y: START + _U})), _U)
        slopes = list(reversed(deriv.all_coeffs())) if poly.degree() >= 1 else []
        need_coeffs: list[sp.Expr] = []
        counts = []
        for h in env.needs:
            shifted = sp.Poly(sp.expand(sp.sympify(h).xreplace({y: START + _U})), _U)
            coeffs = list(reversed(shifted.all_coeffs()))
            counts.append(len(coeffs))
            need_coeffs += coeffs
    except (sp.PolynomialError, sp.GeneratorsNeeded) as exc:
        raise Unsupported(f"no tail envelope: {exc}") from exc
    values = [env.c, env.p.xreplace({y: START}), *slopes, *need_coeffs]
    if any(v.has(y, _U) for v in values):
        raise Unsupported("no tail envelope: a coefficient depends on the variable")
    fn = compile_arb([*args, START], values)
    return _Compiled(fn, env.m, len(slopes), tuple(counts))


_REFUSED: dict[tuple[sp.Expr, sp.Symbol, tuple[sp.Symbol, ...]], str] = {}


def tail_bound(f: sp.Expr, y: sp.Symbol, args: Sequence[sp.Symbol]) -> TailBound:
    """The :class:`TailBound` of ``f`` (raises :class:`Unsupported` when no envelope can be
    built from its structure; the refusal is remembered too: a tail's cut is tried at many
    points, a structural refusal is the same at each)."""
    key = (f, y, tuple(args))
    if key in _REFUSED:
        raise Unsupported(_REFUSED[key])
    try:
        return _tail_bound(*key)
    except Unsupported as exc:
        if len(_REFUSED) > 512:
            _REFUSED.clear()
        _REFUSED[key] = str(exc)
        raise


@lru_cache(maxsize=256)
def _tail_bound(f: sp.Expr, y: sp.Symbol, args: tuple[sp.Symbol, ...]) -> TailBound:
    return TailBound(f, y, args)
