"""The exponential mechanism's output distributions, computed from its definition
(Dwork & Roth 2014, Definition 3.4): Pr[r] proportional to exp(eps u(x, r) / (factor Delta u)).
The oracle of Theorem 3.10 compares these exact laws; the theorem's bound is not used here.
"""

from __future__ import annotations

from typing import Any

import mpmath

__all__ = ["output_laws"]


def _weights(scores: list[Any], eps: Any, du: Any, factor: Any) -> list[Any]:
    top = max(scores)  # shift by the maximum: exp of large scores would overflow nothing
    w = [mpmath.exp(eps * (s - top) / (factor * du)) for s in scores]
    total = mpmath.fsum(w)
    return [v / total for v in w]


def output_laws(
    ux: list[Any], uy: list[Any], eps: Any, du: Any, factor: Any = 2
) -> tuple[list[Any], list[Any]]:
    """The exponential mechanism's output distributions on x and on y."""
    return _weights(ux, eps, du, factor), _weights(uy, eps, du, factor)
