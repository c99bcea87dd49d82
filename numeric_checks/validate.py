"""Argument checks of the numeric library, one place for each rule.

Each ``check_*`` returns the value in the form the caller computes with (an mpmath number, or
an ``int`` for whole numbers) and raises :class:`~symbolic.errors.InvalidInput` (a
``ValueError``) whose message names the parameter and quotes the value as given:

>>> check_positive("eps", "0.5")
mpf('0.5')
>>> check_probability("delta", 1, open_ends="upper")
Traceback (most recent call last):
...
symbolic.errors.InvalidInput: delta must be in [0, 1), got delta=1
>>> check_whole("k", 2, minimum=3, minimum_name="c")
Traceback (most recent call last):
...
symbolic.errors.InvalidInput: k must be a whole number >= c = 3, got k=2

Real parameters must be finite (``eps = inf`` is refused, not computed with); ``True`` is not
a whole number.
"""

from __future__ import annotations

from typing import Any, Literal

import mpmath

from symbolic.errors import InvalidInput

__all__ = [
    "OpenEnds",
    "check_alpha",
    "check_eps_delta",
    "check_mu",
    "check_nonnegative",
    "check_positive",
    "check_probability",
    "check_real",
    "check_whole",
]

OpenEnds = Literal["neither", "lower", "upper", "both"]
"""Which ends of [0, 1] a probability may not take: "upper" is [0, 1), "both" is (0, 1)."""


def check_real(name: str, value: Any) -> Any:
    """``value`` as an mpmath number (``mpmath.mpf``: a float keeps its binary value)."""
    try:
        return mpmath.mpf(value)
    except (TypeError, ValueError):
        raise InvalidInput(f"{name} must be a real number, got {name}={value!r}") from None


def check_positive(name: str, value: Any) -> Any:
    """A finite real number > 0."""
    x = check_real(name, value)
    if not (mpmath.isfinite(x) and x > 0):
        raise InvalidInput(f"{name} must be > 0, got {name}={value}")
    return x


def check_nonnegative(name: str, value: Any) -> Any:
    """A finite real number >= 0."""
    x = check_real(name, value)
    if not (mpmath.isfinite(x) and x >= 0):
        raise InvalidInput(f"{name} must be >= 0, got {name}={value}")
    return x


def check_probability(name: str, value: Any, open_ends: OpenEnds = "neither") -> Any:
    """A number in [0, 1], without the ends named by ``open_ends``."""
    x = check_real(name, value)
    lower_open = open_ends in ("lower", "both")
    upper_open = open_ends in ("upper", "both")
    above = x > 0 if lower_open else x >= 0
    below = x < 1 if upper_open else x <= 1
    if not (above and below):
        interval = f"{'(' if lower_open else '['}0, 1{')' if upper_open else ']'}"
        raise InvalidInput(f"{name} must be in {interval}, got {name}={value}")
    return x


def check_whole(
    name: str,
    value: Any,
    minimum: int = 1,
    *,
    minimum_name: str | None = None,
    what: str | None = None,
) -> int:
    """A whole number >= ``minimum`` (an ``int``, or a number equal to one: ``3.0``,
    ``mpf(3)``), as an ``int``.  ``minimum_name`` names the bound in the message ("k must be
    a whole number >= c = 3"), ``what`` describes the parameter ("group size k")."""
    try:
        whole = not isinstance(value, bool) and int(value) == value
    except (TypeError, ValueError, OverflowError):
        whole = False
    if not whole or value < minimum:
        bound = f"{minimum_name} = {minimum}" if minimum_name else f"{minimum}"
        raise InvalidInput(f"{what or name} must be a whole number >= {bound}, got {name}={value}")
    return int(value)


def check_eps_delta(
    eps: Any, delta: Any, *, eps_zero: bool, delta_open: OpenEnds
) -> tuple[Any, Any]:
    """Privacy parameters: eps finite and > 0 (>= 0 if ``eps_zero``), delta a probability
    without the ends ``delta_open``.  Each caller states its own range, e.g. the trade-off
    function f_{eps, delta} is defined for eps >= 0 and delta in [0, 1], while the classical
    Gaussian calibration needs eps > 0 and delta in (0, 1)."""
    e = check_nonnegative("eps", eps) if eps_zero else check_positive("eps", eps)
    return e, check_probability("delta", delta, delta_open)


def check_mu(mu: Any) -> Any:
    """The parameter of mu-GDP: finite and > 0."""
    return check_positive("mu", mu)


def check_alpha(alpha: Any) -> Any:
    """A type I error rate, the argument of a trade-off function: in [0, 1]."""
    return check_probability("alpha", alpha)
