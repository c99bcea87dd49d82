"""Query streams for NumericSparse: adversarial and random values f_i(D) - T satisfying the
hypothesis of Theorem 3.28 (Dwork & Roth 2014), as the seed states it or corrected.

The algorithm only sees f_i(D) - T, so every stream here has T = 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from numeric_checks.dp.sparse.algorithm import SparseParams
from symbolic.errors import InvalidInput


@dataclass(frozen=True)
class Stream:
    """Values f_i(D) - T of a query stream, with the name of its construction."""

    name: str
    values: tuple[float, ...]
    description: str


def near_count(values: Sequence[float], alpha: float, before_last: bool) -> int:
    """|{i : f_i(D) >= T - alpha}| (over i < k if ``before_last``)."""
    body = values[:-1] if before_last else values
    return sum(1 for v in body if v >= -alpha)


def streams(p: SparseParams, alpha: float, hypothesis: str, seed: int = 0) -> list[Stream]:
    """Adversarial and random streams satisfying the theorem's hypothesis.

    ``hypothesis="seed"``: L(T) = |{i : f_i(D) >= T - alpha}| <= c, as the seed states.
    ``hypothesis="last"``: at most c - 1 of f_1..f_{k-1} are >= T - alpha (so the c-th
    answer, if any, can only be due on f_k).  Every stream of the second kind is also one
    of the first; "front-loaded" is of the first kind only (when k > c).
    """
    if hypothesis not in ("seed", "last"):
        raise InvalidInput(f"unknown hypothesis {hypothesis!r}")
    c, k = p.c, p.k
    noise = float(2 * p.threshold_scale)
    far = alpha + 60 * noise  # answered except with probability ~exp(-30)
    below = -alpha * (1 + 1e-9)  # just below T - alpha: does not count towards L(T)
    out: list[Stream] = []

    def spread(n_special: int, special: float, filler: float, last: float) -> tuple[float, ...]:
        # n_special values among the first k - 1 positions, evenly spaced, then `last`.
        vals = [filler] * (k - 1)
        for j in range(n_special):
            vals[(j * (k - 1)) // max(n_special, 1)] = special
        return (*vals, last)

    out.append(
        Stream(
            "last-high",
            (far,) * (c - 1) + (below,) * (k - c) + (far,),
            f"{c - 1} far above T, {k - c} just below T - alpha, the last far above",
        )
    )
    out.append(
        Stream(
            "edge-above",
            spread(c - 1, alpha * (1 + 1e-9), below, alpha * (1 + 1e-9)),
            f"{c} queries just above T + alpha (bottom there fails), the rest just below T - alpha",
        )
    )
    out.append(
        Stream(
            "edge-below",
            spread(c - 1, -alpha, below, -alpha),
            f"{c} queries at T - alpha, the rest just below: answers here are allowed, "
            "early halting is not",
        )
    )
    rng = np.random.default_rng(seed)
    near_positions = set(rng.choice(k - 1, size=min(c - 1, k - 1), replace=False).tolist())
    vals = [
        float(rng.uniform(-alpha, far)) if i in near_positions else float(rng.uniform(-far, below))
        for i in range(k - 1)
    ]
    vals.append(float(rng.uniform(-alpha, far)))
    out.append(
        Stream("random", tuple(vals), f"random values, {c} of them in [T - alpha, far above]")
    )
    if hypothesis == "seed" and k > c:
        out.append(
            Stream(
                "front-loaded",
                (far,) * c + (below,) * (k - c),
                f"{c} queries far above T, then {k - c} just below T - alpha",
            )
        )
    return out
