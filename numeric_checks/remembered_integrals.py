"""Integrals remembered per point and precision: an integral in a compiled function's
arguments alone (its ``srepr`` the key) is computed once by its quadrature and reused by every
link that shares it (:mod:`numeric_checks.bridge` prints calls to
:func:`remembered_integral`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

import mpmath

__all__ = ["remembered_integral"]


@lru_cache(maxsize=4096)
def _integral_at(key: str, prec: int, values: tuple[Any, ...], thunk: Any) -> Any:
    return thunk.compute()


class _Thunk:
    """The quadrature to run on a cache miss; it takes no part in the cache key."""

    __slots__ = ("compute",)

    def __init__(self, compute: Callable[[], Any]) -> None:
        self.compute = compute

    def __hash__(self) -> int:
        return 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Thunk)


def remembered_integral(key: str, values: tuple[Any, ...], compute: Callable[[], Any]) -> Any:
    """The value of the integral ``key`` (its ``srepr``) with its free symbols at ``values``
    at the working precision: computed by ``compute`` (a quadrature) once, then reused.
    A quadrature that fails raises each time (nothing is remembered)."""
    return _integral_at(key, mpmath.mp.prec, values, _Thunk(compute))
