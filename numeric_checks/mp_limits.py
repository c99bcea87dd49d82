r"""A bound on the magnitudes mpmath computes with, checked before GMP is asked for them.

mpmath numbers have an exponent of any size, so ``exp(exp(exp(x)))`` is a number mpmath
can hold; but computing it shifts an integer by as many bits as the argument's magnitude.
A chain of 40 definitions ``e_k = exp(e_{k-1})`` reached an ``exp`` of a number near
``2**(2**1000)`` in the spot check, and GMP aborted the process ("gmp: overflow in mpz
type", issue 41); ``2**t`` and ``int(t)`` for such a ``t`` do the same.  So three of
mpmath's kernels are wrapped, once, when :mod:`numeric_checks` is imported: ``exp`` of an
argument of magnitude ``2**MAX_MAGNITUDE_BITS`` or more, a power with such an exponent (of
a base other than 0 and 1) and the conversion of a number with a gigantic exponent to an
integer raise :class:`OverflowError`, which the evaluator already reads as "undefined at
this point" (:data:`numeric_checks.bridge.UNDEFINED_ERRORS`), as it reads ``exp(1e400)`` in
floating point.  ``2**4096`` is about ``1e1233``: no privacy parameter or probability comes
near.

>>> import mpmath
>>> install()
>>> mpmath.exp(mpmath.mpf(700)) > 1e300
True
>>> mpmath.exp(mpmath.mpf(2) ** 5000)
Traceback (most recent call last):
...
OverflowError: exp of a number of magnitude 2**5001 (the limit is 2**4096)
>>> int(mpmath.mpf(2) ** 2000) == 2**2000
True
"""

from __future__ import annotations

from typing import Any

import mpmath
from mpmath import ctx_mp_python
from mpmath.libmp import libelefun, libmpf

__all__ = ["MAX_MAGNITUDE_BITS", "install"]

MAX_MAGNITUDE_BITS = 4096
"""Arguments of ``exp`` and exponents of powers below ``2**MAX_MAGNITUDE_BITS`` in
magnitude are computed; larger ones overflow.  The bound an integrand's ``exp`` already had
(:data:`numeric_checks.bounded_exp.EXP_BITS`); a power with a 16,384-bit exponent took 3 s and
one with 65,536 bits 90 s."""
MAX_NEGATIVE_BITS = 1 << 16
"""The same bound for the argument of ``exp`` when it is negative."""
MAX_INTEGER_BITS = 1 << 22
"""Bits of the largest integer an mpmath number is converted to (four million: well past
any sum's range, far below what GMP or the memory cap cannot take)."""


def _magnitude(x: tuple[int, Any, int, int]) -> int | None:
    """The binary magnitude ``bc + exp`` of a raw mpf, or None for 0, inf and nan."""
    _sign, man, exp, bc = x
    return int(bc + exp) if man else None


MAX_PRECISION_BITS = MAX_INTEGER_BITS
"""The largest working precision ``exp`` and powers are computed at: SymPy asks for as many
bits as a number's integer part has (``floor(sinh(5*y))`` at ``y = 1e12`` asked for 7e12
bits, and GMP aborted the process asking for 5.6 GB)."""


def _check_precision(prec: int) -> None:
    if prec > MAX_PRECISION_BITS:
        raise OverflowError(
            f"a working precision of {prec} bits (the limit is {MAX_PRECISION_BITS})"
        )


def _bounded_exp(original: Any) -> Any:
    def mpf_exp(x: Any, prec: int, rnd: str = libmpf.round_fast) -> Any:
        mag = _magnitude(x)
        # exp of a large negative number is tiny, not huge: mpmath computes it quickly up
        # to far larger magnitudes (exp(-2**20000) in 10 ms).
        limit = MAX_NEGATIVE_BITS if x[0] else MAX_MAGNITUDE_BITS
        if mag is not None and mag > limit:
            raise OverflowError(f"exp of a number of magnitude 2**{mag} (the limit is 2**{limit})")
        _check_precision(prec)
        return original(x, prec, rnd)

    mpf_exp.__wrapped__ = original  # type: ignore[attr-defined]
    return mpf_exp


def _bounded_pow(original: Any) -> Any:
    def mpf_pow(s: Any, t: Any, prec: int, rnd: str = libmpf.round_fast) -> Any:
        mag = _magnitude(t)
        if mag is not None and mag > MAX_MAGNITUDE_BITS and s != libmpf.fone:
            if s == libmpf.fzero and not t[0]:
                return libmpf.fzero
            raise OverflowError(
                f"a power with an exponent of magnitude 2**{mag} (the limit is "
                f"2**{MAX_MAGNITUDE_BITS})"
            )
        _check_precision(prec)
        return original(s, t, prec, rnd)

    mpf_pow.__wrapped__ = original  # type: ignore[attr-defined]
    return mpf_pow


def _bounded_to_int(original: Any) -> Any:
    def to_int(s: Any, rnd: Any = None) -> Any:
        mag = _magnitude(s)
        if mag is not None and mag > MAX_INTEGER_BITS:
            raise OverflowError(
                f"an integer of {mag} bits (the limit is {MAX_INTEGER_BITS} bits) from a number"
            )
        return original(s, rnd)

    to_int.__wrapped__ = original  # type: ignore[attr-defined]
    return to_int


def _replace(name: str, wrapper: Any) -> None:
    """Put ``wrapper(original)`` wherever mpmath looks ``name`` up at call time: the
    library modules' globals (each module imported the function under its own name)."""
    original = getattr(libmpf, name, None) or getattr(libelefun, name)
    if hasattr(original, "__wrapped__"):
        return
    bounded = wrapper(original)
    modules = [m for m in vars(mpmath.libmp).values() if type(m) is type(libmpf)]
    for module in [*modules, mpmath.libmp, ctx_mp_python]:
        if getattr(module, name, None) is original:
            setattr(module, name, bounded)


def install() -> None:
    """Wrap mpmath's ``exp``, power and integer conversion (idempotent)."""
    _replace("mpf_exp", _bounded_exp)
    _replace("mpf_pow", _bounded_pow)
    _replace("to_int", _bounded_to_int)
    # The context's exp closed over the original kernel when the context was made.
    ctx = mpmath.mp
    if not getattr(ctx.exp, "bounded", False):
        bounded = ctx._wrap_libmp_function(mpmath.libmp.mpf_exp, mpmath.libmp.mpc_exp)
        bounded.bounded = True  # type: ignore[attr-defined]
        ctx.exp = bounded
        mpmath.exp = bounded
