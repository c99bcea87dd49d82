"""Exact tools for the audit of seed 002 (Dwork & Roth 2014, section 3.5.1): finite
distributions with rational probabilities, events, and the divergences of the section
decided exactly, plus a counting wrapper around the finite-distribution search.

Definitions 3.5 and 3.6 quantify over events ``S``; here events are enumerated, never
reduced to outcomes, so that the reductions the proofs use (a max over events attained at
one outcome, the statistical distance as half an l1 norm) are themselves checked.  An
``eps`` enters as ``r = e^eps``: with ``r`` rational, ``D <= eps`` is the exact comparison
of a ratio with ``r``.

>>> from fractions import Fraction as F
>>> y, z = (F(1, 2), F(1, 2)), (F(1, 4), F(3, 4))
>>> max_ratio_events(y, z), event_gap(y, z)
(Fraction(2, 1), Fraction(1, 4))
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

from numeric_checks.dp.finite_search import FiniteStatement, implies, search
from symbolic.audit import Outcome

__all__ = [
    "Balls",
    "Dist",
    "Params",
    "Side",
    "approx_dp",
    "approx_max_div_le",
    "event_gap",
    "events",
    "hockey",
    "mass",
    "max_ratio",
    "max_ratio_events",
    "pairs",
    "pure_dp",
    "random_dist",
    "searched",
    "show",
    "support",
    "tv",
]

Dist = tuple[Fraction, ...]
Balls = Sequence[Sequence[Any]]
"""Distributions as python-flint Arb balls (no type stubs)."""
Params = Mapping[str, Any]
Side = Callable[[Balls, Params], "bool | None"]
"""A premise or conclusion of a finite search: True, False or None (undecided)."""


def random_dist(rng: random.Random, n: int, zeros: bool = True) -> Dist:
    """A distribution on ``n`` outcomes with weights 0..12 (zeros only if ``zeros``)."""
    while True:
        w = [rng.randint(0 if zeros and rng.random() < 0.3 else 1, 12) for _ in range(n)]
        if sum(w):
            return tuple(Fraction(x, sum(w)) for x in w)


def pairs(seed: int, count: int, sizes: tuple[int, int] = (2, 5)) -> Iterator[tuple[Dist, Dist]]:
    """``count`` seeded pairs of distributions on the same 2..5 outcomes."""
    rng = random.Random(seed)
    for _ in range(count):
        n = rng.randint(*sizes)
        yield random_dist(rng, n), random_dist(rng, n)


def show(p: Sequence[Fraction]) -> str:
    return "(" + ", ".join(str(x) for x in p) + ")"


def support(p: Dist) -> tuple[int, ...]:
    return tuple(i for i, x in enumerate(p) if x > 0)


def events(outcomes: Sequence[int], *, empty: bool = False) -> Iterator[tuple[int, ...]]:
    """Every subset of ``outcomes`` (the empty one only if asked)."""
    for k in range(0 if empty else 1, len(outcomes) + 1):
        yield from itertools.combinations(outcomes, k)


def mass(p: Dist, s: Sequence[int]) -> Fraction:
    return sum((p[i] for i in s), Fraction(0))


def tv(p: Dist, q: Dist) -> Fraction:
    """Half the l1 distance (the closed form the definition by events is checked against)."""
    return sum((abs(a - b) for a, b in zip(p, q, strict=True)), Fraction(0)) / 2


def event_gap(p: Dist, q: Dist) -> Fraction:
    """``max over all events S of |P(S) - Q(S)|``: the statistical distance as defined."""
    every = range(len(p))
    return max(abs(mass(p, s) - mass(q, s)) for s in events(every, empty=True))


def max_ratio(p: Dist, q: Dist) -> Fraction | None:
    """``max over outcomes y with p(y) > 0 of p(y)/q(y)``; None means +infinity."""
    out = Fraction(0)
    for a, b in zip(p, q, strict=True):
        if a > 0:
            if b == 0:
                return None
            out = max(out, a / b)
    return out


def max_ratio_events(p: Dist, q: Dist) -> Fraction | None:
    """``e^{D_inf(P||Q)}`` by Definition 3.6 itself: the max over nonempty events inside
    Supp(P) of ``P(S)/Q(S)``; None means +infinity."""
    out = Fraction(0)
    for s in events(support(p)):
        if mass(q, s) == 0:
            return None
        out = max(out, mass(p, s) / mass(q, s))
    return out


def hockey(p: Dist, q: Dist, r: Fraction) -> Fraction:
    """``max over events of P(S) - r Q(S)`` in closed form (sum of the positive parts)."""
    return sum((max(Fraction(0), a - r * b) for a, b in zip(p, q, strict=True)), Fraction(0))


def pure_dp(p: Dist, q: Dist, r: Fraction) -> bool:
    """``P(S) <= r Q(S)`` and ``Q(S) <= r P(S)`` for every event S of the whole space."""
    every = range(len(p))
    return all(mass(p, s) <= r * mass(q, s) and mass(q, s) <= r * mass(p, s) for s in events(every))


def approx_dp(p: Dist, q: Dist, r: Fraction, delta: Fraction) -> bool:
    """``P(S) <= r Q(S) + delta`` and the same with P, Q swapped, for every event S."""
    every = range(len(p))
    return all(
        mass(p, s) <= r * mass(q, s) + delta and mass(q, s) <= r * mass(p, s) + delta
        for s in events(every)
    )


def approx_max_div_le(
    p: Dist, q: Dist, delta: Fraction, r: Fraction, *, strict: bool, literal_convention: bool
) -> bool:
    """``D_inf^delta(P||Q) <= ln r`` by Definition 3.6 over events S inside Supp(P).

    ``strict``: the events with ``P(S) > delta`` (else ``P(S) >= delta``, as printed).
    ``literal_convention``: a zero denominator makes the fraction +infinity even when the
    numerator ``P(S) - delta`` is 0 (the seed's convention read literally); otherwise a zero
    numerator gives ``ln 0 = -infinity``.
    """
    for s in events(support(p)):
        ps, qs = mass(p, s), mass(q, s)
        if ps < delta or (strict and ps == delta):
            continue
        num = ps - delta
        if qs == 0:
            if num > 0 or literal_convention:
                return False
            continue
        if num > r * qs:
            return False
    return True


def searched(
    name: str,
    arity: int,
    conclusion: Side,
    *,
    premise: Side | None = None,
    params: Mapping[str, tuple[Fraction, Fraction]] | None = None,
    outcomes: tuple[int, int] = (2, 5),
    max_examples: int = 300,
    min_premise: int = 20,
    values: Callable[[tuple[Dist, ...], Mapping[str, Fraction]], str] | None = None,
) -> Outcome:
    """Run :func:`numeric_checks.dp.finite_search.search` on ``premise => conclusion`` and
    count how often the premise certainly held: a search whose premise never holds proves
    nothing, and is reported as undecided (None), never as holding."""
    seen: Counter[str] = Counter()

    def holds(d: Balls, p: Params) -> bool | None:
        pre = True if premise is None else premise(d, p)
        seen["examples"] += 1
        if pre is not True:
            return implies(pre, None)
        seen["premise"] += 1
        verdict = conclusion(d, p)
        seen[str(verdict)] += 1
        return verdict

    found = search(
        FiniteStatement(name, arity, holds, dict(params or {}), outcomes),
        max_examples=max_examples,
    )
    if found is not None:
        extra = f"; {values(found.dists, found.params)}" if values else ""
        return Outcome(False, found.describe() + extra)
    tally = (
        f"{seen['examples']} examples (edge cases and {max_examples} Hypothesis draws on "
        f"{outcomes[0]}..{outcomes[1]} outcomes), premise certainly true in {seen['premise']}, "
        f"conclusion certainly true in {seen['True']}, undecided in {seen['None']}"
    )
    if seen["True"] < min_premise:
        return Outcome(None, f"too few decided examples: {tally}")
    return Outcome(True, f"no counterexample: {tally}")
