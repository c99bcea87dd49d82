"""Integrals that converge fast: breakpoints at the integrand's kinks, pieces scaled to its
width, quadrature to relative accuracy at the caller's precision.

Tanh-sinh quadrature (Takahasi & Mori 1974; mpmath's ``quad``) converges exponentially for
integrands analytic on each piece, and degrades badly at an interior kink (``Abs(x)`` at 0)
or when the integrand's mass sits far from where the infinite-range substitution puts its
nodes (``exp(-|x|/b)`` with ``b = 1e8``).  So the symbolic side (:func:`analyse`, run once
when an ``Integral`` is compiled) finds

* kinks: the real zeros in the integration variable of the arguments of ``Abs``, ``sign``,
  ``Heaviside``, of the pairwise differences in ``Max``/``Min`` and of the sides of
  ``Piecewise`` conditions, solved symbolically (linear and quadratic in closed form, else
  ``solve`` on the logarithm of a difference of exponentials) as expressions of the outer
  variables;
* centres and widths: for each ``exp(g)`` with ``g`` polynomial in the variable (once each
  ``Abs`` of a linear form is read as its value on each tail), the stationary point of ``g``
  and the width ``|c_n|**(-1/n)`` of its leading term ``c_n x**n`` on each tail (``b`` for
  ``exp(-|x|/b)``, ``sqrt(2) sigma`` for a Gaussian), and for ``Phi``/``erf``/``erfc`` of a
  linear form its centre and ``1/|c_1|``;

and the numeric side (:func:`integrate`) splits at those points, integrates infinite pieces
after the substitution ``x = c + w u`` (``w`` the tail's width), and stops at a capped
quadrature degree: a piece that does not converge raises ``NoConvergence`` (the point is
undefined, never silently wrong).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import mpmath
import sympy as sp

from numeric_checks.budget import work_limit
from numeric_checks.mp import quad_affine
from symbolic.functions import Phi

__all__ = ["IntegralShape", "analyse", "integrate"]

MAX_DEGREE = 8
"""Cap on tanh-sinh levels per piece (mpmath's default grows with the precision): a work
count, so that a verdict never depends on the machine's load."""
PROBE_LOW = mpmath.mpf("1e-2")
PROBE_HIGH = mpmath.mpf("1e2")
"""The range of ``integral / probe`` within which the first full pass is kept: its
absolute stopping rule then costs at most 2 digits, which with :data:`QUAD_SPARE` stays
inside the guard digits of the decision (``points.GUARD_DIGITS`` = 8)."""
QUAD_SPARE = 4
"""Digits below the working precision at which quadratures run: a decision at ``dps``
digits tolerates a relative error of ``10**-(dps - 8)`` (``points.GUARD_DIGITS``), so an
integral to ``10**-(dps - 4)`` leaves four digits to spare (tanh-sinh's estimate is rough:
at 6 below, gdp-to-dp's steps showed gaps of 3e-23 against a tolerance of 1e-22), and
costs less (fewer tanh-sinh levels, shorter numbers).  A point that is not clearly decided is
re-evaluated at more digits, where the quadratures gain as many."""
SOLVE_SECONDS = 2.0
"""CPU-time guard on ``solve`` for a kink that has no closed form of degree <= 2."""


@dataclass(frozen=True)
class IntegralShape:
    """Where an integrand bends (``kinks``, ``centres``) and how wide it is on each tail, as
    expressions of the outer variables."""

    kinks: tuple[sp.Expr, ...]
    left_width: sp.Expr
    right_width: sp.Expr
    rate: sp.Expr = sp.S.Zero
    """``|d/dx log f|`` of the exponentials, a function of the variable: a tail starting
    far out (a Gaussian from x* = 5e4) decays on ``1/rate``, much narrower than its width."""


def _poly_roots(h: sp.Expr, x: sp.Symbol) -> list[sp.Expr] | None:
    """Closed-form real-candidate roots of ``h`` when it is a polynomial of degree 1 or 2 in
    ``x`` (None when it is not)."""
    try:
        poly = sp.Poly(h, x)
    except sp.PolynomialError:
        return None
    if poly.degree() == 1:
        c1, c0 = poly.all_coeffs()
        return [-c0 / c1]
    if poly.degree() == 2:
        a, b, c = poly.all_coeffs()
        disc = b**2 - 4 * a * c
        # Complex roots evaluate to a non-real number and are dropped numerically.
        return [(-b - sp.sqrt(disc)) / (2 * a), (-b + sp.sqrt(disc)) / (2 * a)]
    if poly.degree() <= 0:
        return []
    return None


def _zeros(h: sp.Expr, x: sp.Symbol) -> list[sp.Expr]:
    """Real zeros of ``h`` in ``x`` as expressions of the other symbols, where found."""
    if not h.has(x):
        return []
    roots = _poly_roots(sp.expand(h), x)
    if roots is not None:
        return roots
    # A difference of positive products of exponentials (a hockey-stick integrand): the
    # zero of A - B is the zero of log A - log B, often a polynomial.
    terms = sp.Add.make_args(sp.expand(h))
    if len(terms) == 2:
        a, b = terms[0], -terms[1]
        if a.is_positive and b.is_positive:
            logged = sp.expand(
                sp.expand_log(sp.log(a), force=True) - sp.expand_log(sp.log(b), force=True)
            )
            roots = _poly_roots(logged, x)
            if roots is not None:
                return roots
    try:
        with work_limit(SOLVE_SECONDS):
            found = sp.solve(h, x)
    except Exception:  # a failed or timed-out solve only loses a breakpoint
        return []
    return [r for r in found if isinstance(r, sp.Expr) and not r.has(x)]


def _kinks(f: sp.Expr, x: sp.Symbol) -> list[sp.Expr]:
    out: list[sp.Expr] = []
    for node in sp.preorder_traversal(f):
        if not isinstance(node, sp.Basic) or not node.has(x):
            continue
        if isinstance(node, sp.Abs | sp.sign | sp.Heaviside):
            out += _zeros(node.args[0], x)
        elif isinstance(node, sp.Max | sp.Min):
            args = node.args
            for i in range(len(args)):
                for j in range(i + 1, len(args)):
                    out += _zeros(args[i] - args[j], x)
        elif isinstance(node, sp.Piecewise):
            for _, cond in node.args:
                if isinstance(cond, sp.core.relational.Relational):
                    out += _zeros(cond.lhs - cond.rhs, x)
    return out


def _tail_exponent(g: sp.Expr, x: sp.Symbol, side: int) -> sp.Expr:
    """``g`` with each ``Abs`` of a linear form read as its value for ``side * x -> oo``."""

    def fix(node: sp.Abs) -> sp.Expr:
        roots = _poly_roots(sp.expand(node.args[0]), x)
        if roots is None or len(roots) != 1:
            return node
        c1 = sp.Poly(node.args[0], x).all_coeffs()[0]
        return side * sp.Abs(c1) * (x - roots[0])

    return g.replace(lambda e: isinstance(e, sp.Abs) and e.has(x), fix)


def _widths_and_centres(f: sp.Expr, x: sp.Symbol) -> tuple[list[sp.Expr], list[sp.Expr], list]:
    lefts: list[sp.Expr] = []
    rights: list[sp.Expr] = []
    centres: list[sp.Expr] = []
    for e in f.atoms(sp.exp):
        if not e.has(x):
            continue
        for side, widths in ((-1, lefts), (1, rights)):
            try:
                poly = sp.Poly(sp.expand(_tail_exponent(e.args[0], x, side)), x)
            except sp.PolynomialError:
                continue
            n = poly.degree()
            if n >= 1:
                widths.append(sp.Abs(poly.all_coeffs()[0]) ** sp.Rational(-1, n))
            if n == 2 and side == 1:
                c2, c1, _ = poly.all_coeffs()
                centres.append(-c1 / (2 * c2))
    for fn in f.atoms(Phi, sp.erf, sp.erfc):
        roots = _poly_roots(sp.expand(fn.args[0]), x)
        if roots and len(roots) == 1:
            c1 = sp.Poly(fn.args[0], x).all_coeffs()[0]
            centres.append(roots[0])
            lefts.append(1 / sp.Abs(c1))
            rights.append(1 / sp.Abs(c1))
    return lefts, rights, centres


def analyse(f: sp.Expr, x: sp.Symbol) -> IntegralShape:
    """The kinks, centres and tail widths of ``f`` in ``x`` (see the module docstring).

    >>> x, b = sp.Symbol("x", real=True), sp.Symbol("b", positive=True)
    >>> analyse(x**2 * sp.exp(-sp.Abs(x) / b), x)
    IntegralShape(kinks=(0,), left_width=b, right_width=b, rate=Abs(sign(x))/b)
    """
    kinks = _kinks(f, x)
    lefts, rights, centres = _widths_and_centres(f, x)
    unique = tuple(
        dict.fromkeys(sp.simplify(k) if k.count_ops() < 40 else k for k in kinks + centres)
    )
    left = sp.Min(*lefts) if lefts else sp.Integer(1)
    right = sp.Min(*rights) if rights else sp.Integer(1)
    rates = [sp.Abs(sp.diff(e.args[0], x)) for e in f.atoms(sp.exp) if e.has(x)]
    rate = sp.Max(*rates) if rates else sp.Integer(0)
    return IntegralShape(unique, left, right, rate)


def _real(v: Any) -> Any | None:
    """A finite real value of ``v`` (called lazily when it is a thunk: a kink such as
    ``-c0/c1`` may be undefined at this point, which only loses a breakpoint)."""
    try:
        v = mpmath.mpmathify(v() if callable(v) else v)
    except (TypeError, ValueError, ArithmeticError):
        return None
    if isinstance(v, mpmath.mpc):
        if v.imag != 0:
            return None
        v = v.real
    return v if mpmath.isfinite(v) else None


def _width(w: Any) -> Any:
    w = _real(w)
    return w if w is not None and w > 0 else mpmath.mpf(1)


class _Affine:
    """The integrand ``u -> weight * f(shift + stretch * u)``, so that a sub-interval's own
    change of variables to ``[-1, 1]`` folds into ``shift``, ``stretch`` and ``weight``
    instead of being done node by node (:meth:`of`: ``f`` itself)."""

    __slots__ = ("f", "shift", "stretch", "weight")

    def __init__(self, f: Callable[[Any], Any], shift: Any, stretch: Any, weight: Any) -> None:
        self.f, self.shift, self.stretch, self.weight = f, shift, stretch, weight

    @classmethod
    def of(cls, f: Callable[[Any], Any]) -> _Affine:
        """``f`` itself: no shift, no stretch, weight 1."""
        return cls(f, mpmath.mpf(0), mpmath.mpf(1), mpmath.mpf(1))

    def __call__(self, u: Any) -> Any:
        return self.weight * self.f(self.shift + self.stretch * u)

    def divided(self, scale: Any) -> _Affine:
        """The integrand divided by ``scale``."""
        return _Affine(self.f, self.shift, self.stretch, self.weight / scale)


def _quad(g: _Affine, points: Sequence[Any]) -> tuple[Any, Any]:
    """Quadrature of ``g`` over ``points`` with a capped degree (:func:`~numeric_checks.mp.
    quad_affine`): the value and mpmath's (absolute) error estimate."""
    return quad_affine(g.f, points, g.shift, g.stretch, g.weight, MAX_DEGREE)


def _unreliable(err: Any) -> bool:
    """The integrand is normalised (the total is about 1), so the error estimate is
    relative: one above the decision's tolerance makes the value unreliable, and an
    unreliable value must not refute (a Gaussian tail integral accepted at 1e-3 refuted
    Balle & Wang's exact profile); the point is undefined instead."""
    return bool(err > mpmath.mpf(10) ** (10 - mpmath.mp.dps))


def _pieces(a: Any, b: Any, kinks: Sequence[Any], left: Any, right: Any) -> list[tuple]:
    """Finite pieces ``(lo, hi, None)`` and infinite ones ``(c, sign, width)``."""
    inner = sorted({k for k in (_real(k) for k in kinks) if k is not None and a < k < b})
    if mpmath.isinf(a) and mpmath.isinf(b) and not inner:
        inner = [mpmath.mpf(0)]
    pieces: list[tuple] = []
    cuts = [a, *inner, b]
    for lo, hi in itertools.pairwise(cuts):
        if mpmath.isinf(lo):
            pieces.append((hi, -1, left))
        elif mpmath.isinf(hi):
            pieces.append((lo, 1, right))
        else:
            pieces.append((lo, hi, None))
    return pieces


def _tail_points(c: Any, w: Any, rate: Callable[[Any], Any] | None) -> list[Any]:
    """Breakpoints in ``u`` for a tail ``x = c + w u``: 1 and 8 widths, plus geometric
    points from the local decay length ``1/rate(c)`` when that is much shorter."""
    points = [mpmath.mpf(0), mpmath.mpf(1), mpmath.mpf(8), mpmath.inf]
    local = _real(lambda: rate(c)) if rate is not None else None
    if local is not None and local * w > 4:
        step = 1 / (local * w)
        points[1:1] = [step * 4**j for j in range(8) if step * 4**j < 1]
    return points


def _jobs(
    f: Callable[[Any], Any],
    pieces: Sequence[tuple],
    w_left: Any,
    w_right: Any,
    rate: Callable[[Any], Any] | None,
) -> list[tuple[_Affine, list[Any]]]:
    """Each piece as an integrand and its breakpoints: a finite piece as it is (with points
    at widths from both ends when it is long and the integrand narrow), an infinite one
    substituted ``x = c + sign * w * u`` (the width goes inside: the quadrature's absolute
    stopping rule then sees an integral of the size of the normalised result)."""
    width = min(w_left, w_right)
    jobs: list[tuple[_Affine, list[Any]]] = []
    for lo, hi, w in pieces:
        if w is None:
            if hi - lo > 64 * width:
                # A long finite piece with a narrow integrand: points at widths from both
                # ends so that the mass is resolved.
                near = [lo + width * 4**j for j in range(4)]
                near += [hi - width * 4**j for j in reversed(range(4))]
                jobs.append((_Affine.of(f), [lo, *near, hi]))
            else:
                jobs.append((_Affine.of(f), [lo, hi]))
        else:
            # u -> w f(c + sign w u): a tail in units of its width.
            jobs.append((_Affine(f, lo, hi * w, w), _tail_points(lo, w, rate)))
    return jobs


def _probe(jobs: Sequence[tuple[_Affine, list[Any]]]) -> Any:
    """A midpoint sum of ``|integrand|`` over every finite sub-interval of the jobs'
    breakpoints (1 if nothing is usable): for a tail starting far out (a Gaussian from
    x* = 5e4, decaying on 1/x* there), the geometric breakpoints of :func:`_tail_points`
    put a midpoint where its mass is, so the probe lands within a small factor of the
    integral, and the first pass is the only one (a probe one width out, at 1e-1500 of the
    integral, cost a full-degree pass that could not converge, then a second one)."""
    total = mpmath.mpf(0)
    for g, points in jobs:
        for lo, hi in itertools.pairwise(points):
            if mpmath.isinf(hi):
                continue
            try:
                v = abs(mpmath.mpmathify(g((lo + hi) / 2))) * (hi - lo)
            except (ArithmeticError, ValueError, TypeError):
                continue
            if mpmath.isfinite(v):
                total += v
    return total if total > 0 else mpmath.mpf(1)


def integrate(
    f: Callable[[Any], Any],
    a: Any,
    b: Any,
    kinks: Sequence[Any],
    left: Any,
    right: Any,
    rate: Callable[[Any], Any] | None = None,
) -> Any:
    """``integral of f from a to b`` split at ``kinks``, each infinite piece substituted
    ``x = c + sign * w * u`` with its tail width ``w``, to relative accuracy (``f`` is
    integrated divided by a probe of its size, and again divided by the value found when
    that was far from 1: mpmath's own stopping rule is absolute).

    >>> with mpmath.workdps(30):
    ...     v = integrate(lambda x: x**2 * mpmath.exp(-abs(x) / 10**8) / (2 * 10**8),
    ...                   -mpmath.inf, mpmath.inf, [0], 10**8, 10**8)
    ...     print(mpmath.nstr(v / (2 * mpmath.mpf(10)**16), 20))
    1.0
    """
    a, b = mpmath.mpf(a), mpmath.mpf(b)
    if a == b:
        return mpmath.mpf(0)
    if a > b:
        return -integrate(f, b, a, kinks, left, right, rate)
    w_left, w_right = _width(left), _width(right)
    pieces = _pieces(a, b, kinks, w_left, w_right)

    def run(scale: Any) -> tuple[Any, Any]:
        # At the precision the decision needs, not the working one (see QUAD_SPARE).
        with mpmath.workdps(max(15, mpmath.mp.dps - QUAD_SPARE)):
            total, error = mpmath.mpf(0), mpmath.mpf(0)
            for g, points in jobs:
                value, err = _quad(g.divided(scale), points)
                total += value
                error += err
            return total, error

    # mpmath's stopping rule is absolute, so the integrand must be of order 1 where its
    # integral is: divided by the probe (a rough midpoint sum of its size), which is
    # usually within a few orders of the integral.  Only when the result shows the probe
    # was off (or the estimate is poor) is the pass repeated, divided by the value found.
    with mpmath.workdps(15):
        jobs = _jobs(f, pieces, w_left, w_right, rate)
        probe = _probe(jobs)
    jobs = _jobs(f, pieces, w_left, w_right, rate)
    value, err = run(probe)
    if isinstance(value, mpmath.mpc):
        return value * probe
    size = abs(value)
    if size == 0 or not mpmath.isfinite(size):
        probe = mpmath.mpf(1)
        value, err = run(probe)
    elif not PROBE_LOW <= size <= PROBE_HIGH:
        probe *= size
        value, err = run(probe)
    if isinstance(value, mpmath.mpc):
        return value * probe
    relative = err / max(abs(value), PROBE_LOW)
    if _unreliable(relative):
        raise mpmath.libmp.NoConvergence(f"quadrature error estimate {mpmath.nstr(relative, 3)}")
    return value * probe
