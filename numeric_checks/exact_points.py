"""Sample coordinates that stand for an exact number which is no binary float (issue 38).

A hypothesis ``x >= sqrt(2)`` has its boundary at ``x = sqrt(2)``, a domain ``[1/3, 1]`` its
closed end at ``1/3``: neither is a binary float, and a float beside them is not the point
where a claim that fails only *on* the boundary fails.  Such a coordinate is an
:class:`ExactMpf`: an mpmath number (its value at the sampler's precision, so that every
comparison and draw treats it as before) that also carries the exact SymPy number it stands
for.  Every evaluation takes it at the evaluation's own precision (:meth:`ExactMpf.at`, in
:mod:`numeric_checks.bridge`), so re-deciding a tie with more digits sharpens the point too;
the referees take the exact number itself (:func:`exact_number`), SymPy exactly and Arb as
the ball of the constant.

>>> import sympy as sp
>>> r2 = exact_mpf(sp.sqrt(2), 30)
>>> isinstance(r2, mpmath.mpf), exact_number(r2)
(True, sqrt(2))
>>> print(r2.at(mpmath.mp.prec))
1.4142135623731
>>> exact_number(mpmath.mpf(-0.5))
-1/2
"""

from __future__ import annotations

from typing import Any

import mpmath
import sympy as sp

from symbolic.binary_rationals import exact_rational
from symbolic.exact_numbers import evaluable

__all__ = ["ExactMpf", "exact_mpf", "exact_number"]


class ExactMpf(mpmath.mpf):  # type: ignore[misc]
    """An mpmath number at a sample point that stands for the exact number ``exact``."""

    __slots__ = ("_at", "exact")

    exact: sp.Expr
    _at: dict[int, Any]

    def at(self, prec: int) -> Any:
        """The exact number rounded to ``prec`` bits (computed once per precision)."""
        got = self._at.get(prec)
        if got is None:
            with mpmath.workprec(prec):
                dps = mpmath.mp.dps
                got = +mpmath.mpf(_evalf(self.exact, dps + 15)._mpf_)
            self._at[prec] = got
        return got

    def __reduce__(self) -> tuple[Any, ...]:
        return (exact_mpf, (self.exact, mpmath.mp.dps))


def exact_mpf(exact: sp.Expr, dps: int) -> Any:
    """``exact`` as a sample coordinate: a plain mpmath number where it is a binary
    rational (then the float *is* the number, with every bit it needs), else an
    :class:`ExactMpf` valued at ``dps`` digits plus ten."""
    exact = sp.sympify(exact)
    if isinstance(exact, sp.Rational) and _binary(exact):
        # exactly: as many bits as its numerator has (a root y - x at binary x and y has
        # more than the working precision's)
        with mpmath.workprec(max(int(exact.p).bit_length(), 53)):
            return mpmath.mpf(int(exact.p)) / int(exact.q)
    with mpmath.workdps(dps + 10):
        value = mpmath.mpf(_evalf(exact, dps + 10)._mpf_)
    out = ExactMpf(value)
    out.exact = exact
    out._at = {}
    return out


def _evalf(exact: sp.Expr, digits: int) -> sp.Float:
    """``exact`` to ``digits`` digits by SymPy, our functions (``Phi(1)``) by their
    definitions (:func:`~symbolic.exact_numbers.evaluable`)."""
    approx = sp.N(evaluable(exact), digits)
    if not isinstance(approx, sp.Float):
        raise ValueError(f"{exact} does not evaluate to a real number ({approx})")
    return approx


def _binary(r: sp.Rational) -> bool:
    q = int(r.q)
    return q & (q - 1) == 0


def exact_number(v: Any) -> sp.Expr:
    """The exact number a sample coordinate stands for: an :class:`ExactMpf`'s own, else the
    coordinate's binary value as a rational (:func:`~symbolic.binary_rationals.exact_rational`,
    which refuses infinities)."""
    exact = getattr(v, "exact", None)
    if isinstance(exact, sp.Expr):
        return exact
    return exact_rational(v)
