r"""A bound on the integers SymPy builds by exact evaluation, checked before they are built.

The parser refuses literal powers and factorials too large to compute
(:mod:`symbolic.input_limits`), but the checker substitutes points into expressions in
dozens of places (spot checks, exact confirmation of a counterexample, the tails, the
certification's edges), and SymPy evaluates an integer power or factorial at an integer
point eagerly: ``2**(2**(2**n)) >= n`` at ``n = 5`` asked for ``2**(2**32)``, half a
gigabyte, and at ``n = 6`` for a number GMP cannot represent, which aborted the process
(issue 41).  So SymPy's own evaluation of ``Integer**Rational``, ``Rational**Rational``,
``factorial(n)`` and ``binomial(n, k)`` is wrapped, once, when :mod:`symbolic` is imported:
a result that would have more than :data:`MAX_EXACT_DIGITS` digits raises
:class:`ExactTooLarge` before it is computed.  It is a ``ValueError`` and an
``OverflowError``, as SymPy's own failures are, so that every caller that handles a point it
cannot evaluate (an undefined point, a confirmation that cannot be made exactly) handles
this one.  Leaving the power unevaluated is no option: SymPy's ``Add`` evaluates a number
raised to an integer again and again, for ever, when it stays a power.

>>> import sympy as sp
>>> install()
>>> sp.Integer(2) ** 10
1024
>>> sp.Integer(2) ** (2 ** 32)
Traceback (most recent call last):
...
symbolic.exact_limits.ExactTooLarge: 2**4294967296 would have about ... digits, more than ...
>>> sp.factorial(sp.Integer(10**9))
Traceback (most recent call last):
...
symbolic.exact_limits.ExactTooLarge: factorial(1000000000) would have about ... digits, ...
"""

from __future__ import annotations

import math
from typing import Any

import sympy as sp

__all__ = ["MAX_EXACT_DIGITS", "ExactTooLarge", "install"]

MAX_EXACT_DIGITS = 200_000
"""Decimal digits of the largest integer (numerator or denominator) SymPy builds by exact
evaluation: twice the parser's limit on literals (``symbolic.input_limits``), and the
limit of Python's int-to-text conversion the command line sets."""
_LOG2_10 = math.log2(10)


class ExactTooLarge(OverflowError, ValueError):
    """An integer too large to build exactly (more than :data:`MAX_EXACT_DIGITS` digits)."""

    def __init__(self, what: str, digits: float) -> None:
        what = what if len(what) <= 80 else what[:60] + "..." + what[-17:]
        super().__init__(
            f"{what} would have about {digits:.3g} digits, more than the {MAX_EXACT_DIGITS} "
            "an exact evaluation may build"
        )


def _power_digits(base: sp.Rational, exponent: Any) -> float:
    """About how many digits ``base**exponent`` has (its numerator or denominator)."""
    if not isinstance(exponent, sp.Rational):
        return 0.0
    p, q = abs(int(base.p)), int(base.q)
    if p <= 1 and q == 1:
        return 0.0  # 0, 1 and -1: never large
    size = max(math.log2(p) if p else 0.0, math.log2(q))
    top, bottom = abs(int(exponent.p)), int(exponent.q)
    if top.bit_length() - bottom.bit_length() > 900:
        return math.inf  # beyond a float: far beyond the limit
    return size * (top / bottom) / _LOG2_10


def _factorial_digits(n: int) -> float:
    """log10(n!) by Stirling (an upper bound for n >= 1)."""
    if n < 2:
        return 0.0
    if n.bit_length() > 64:
        return math.inf
    return (n * math.log(n) - n + math.log(2 * math.pi * n) / 2 + 1 / (12 * n)) / math.log(10)


def _binomial_digits(n: int, k: int) -> float:
    k = min(k, n - k)
    if k <= 0:
        return 0.0
    if k.bit_length() > 64:
        return math.inf
    return k * n.bit_length() / _LOG2_10  # log10(n) <= bits / log2(10)


def _bounded_power(original: Any) -> Any:
    def _eval_power(self: sp.Rational, expt: Any) -> Any:
        digits = _power_digits(self, expt)
        if digits > MAX_EXACT_DIGITS:
            raise ExactTooLarge(f"{self}**{expt}", digits)
        return original(self, expt)

    _eval_power.__wrapped__ = original  # type: ignore[attr-defined]
    return _eval_power


def _bounded_factorial(original: Any) -> Any:
    def eval(cls: type, n: Any) -> Any:
        if isinstance(n, sp.Integer) and n > 0 and _factorial_digits(int(n)) > MAX_EXACT_DIGITS:
            raise ExactTooLarge(f"factorial({n})", _factorial_digits(int(n)))
        return original(n)

    eval.__wrapped__ = original  # type: ignore[attr-defined]
    return classmethod(eval)


def _bounded_binomial(original: Any) -> Any:
    def eval(cls: type, n: Any, k: Any) -> Any:
        if (
            isinstance(n, sp.Integer)
            and isinstance(k, sp.Integer)
            and 0 <= int(k) <= int(n)
            and _binomial_digits(int(n), int(k)) > MAX_EXACT_DIGITS
        ):
            raise ExactTooLarge(f"binomial({n}, {k})", _binomial_digits(int(n), int(k)))
        return original(n, k)

    eval.__wrapped__ = original  # type: ignore[attr-defined]
    return classmethod(eval)


def install() -> None:
    """Wrap SymPy's exact evaluation of powers, factorials and binomials (idempotent)."""
    for cls in (sp.Integer, sp.Rational):
        method = cls.__dict__.get("_eval_power")
        if method is not None and not hasattr(method, "__wrapped__"):
            cls._eval_power = _bounded_power(method)  # type: ignore[method-assign]
    for cls, wrap in ((sp.factorial, _bounded_factorial), (sp.binomial, _bounded_binomial)):
        method = cls.__dict__["eval"]
        if not hasattr(method.__func__, "__wrapped__"):
            cls.eval = wrap(cls.eval)  # type: ignore[method-assign]
