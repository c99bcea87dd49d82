"""Errata of seed 002 (Dwork & Roth 2014, section 3.5.1): Lemma 3.17 (2), the "if" direction.

The seed (like the book) states: ``D_inf^delta(Y||Z) <= eps`` and ``D_inf^delta(Z||Y) <= eps``
if and only if there are ``Y', Z'`` with ``Delta(Y, Y') <= delta/(e^eps + 1)``,
``Delta(Z, Z') <= delta/(e^eps + 1)`` and ``D_inf(Y'||Z') <= eps``.  The right side bounds the
max divergence in one direction only, so it cannot give the left side's second half,
``Pr[Z in S] <= e^eps Pr[Y in S] + delta``; with ``D_inf(Z'||Y') <= eps`` added it does.

Both derivations work on one event ``S`` at a time, through the two-outcome pair
``(S, complement of S)``: ``a = Pr[Y in S]``, ``a1 = Pr[Y' in S]``, ``b = Pr[Z in S]``,
``b1 = Pr[Z' in S]``.  Statistical distance and max divergence can only shrink when the
outcomes are merged into ``S`` and its complement, so the hypotheses below follow from the
lemma's; conversely any point satisfying them is a pair of two-outcome distributions, so a
counterexample found here is a counterexample to the lemma as written.

* ``lemma-3-17-2-if-seed``: the reverse half as the seed's hypotheses give it (expected refuted,
  at its second step, where ``b1 <= e^eps a1`` is not a hypothesis).
* ``lemma-3-17-2-if``: with ``D_inf(Z'||Y') <= eps`` added.
"""

from __future__ import annotations

import random
from typing import Any

import mpmath
import sympy as sp

from derivations.sources import DWORK_ROTH
from symbolic.derivation import Derivation
from symbolic.domains import Domain, Variable
from symbolic.kit import by, chain

__all__ = ["DERIVATIONS", "lemma_3_17_2_if", "lemma_3_17_2_if_seed"]

FAMILY = "Errata of seed 002"
UNIT = Domain(lower=sp.S.Zero, upper=sp.S.One, lower_open=False, upper_open=False)
EPS_RANGE = Domain(lower=sp.S.Zero, upper=sp.Integer(5), lower_open=False, upper_open=False)

EPS = Variable("eps", EPS_RANGE, "the max-divergence bound epsilon (>= 0)", r"\varepsilon")
DELTA = Variable("delta", UNIT, "the approximation parameter delta", r"\delta")
A = Variable("a", UNIT, "Pr[Y in S]", "a")
A1 = Variable("a1", UNIT, "Pr[Y' in S]", "a'")
B = Variable("b", UNIT, "Pr[Z in S]", "b")
B1 = Variable("b1", UNIT, "Pr[Z' in S]", "b'")
VARIABLES = (EPS, DELTA, A, A1, B, B1)


def _unit(x: Any) -> Any:
    """x clipped to [0, 1]."""
    return min(max(x, mpmath.mpf(0)), mpmath.mpf(1))


def _two_outcome_points(rng: random.Random, _dps: int) -> list[dict[str, Any]]:
    """Two-outcome ``Y', Z'`` (point masses included) with ``eps`` the smallest value meeting
    ``D_inf(Y'||Z') <= eps`` (one-sided) or both max divergences, ``delta`` zero a third of the
    time, and ``Y, Z`` moved from ``Y', Z'`` by at most ``delta/(e^eps + 1)``.  Points that
    violate a derivation's hypotheses are dropped by the sampler."""
    out: list[dict[str, Any]] = []
    grid = [mpmath.mpf(0), mpmath.mpf(1)] + [mpmath.mpf(k) / 8 for k in range(1, 8)]
    for _ in range(300):
        a1 = rng.choice(grid) if rng.random() < 0.3 else mpmath.mpf(rng.random())
        b1 = mpmath.mpf(rng.uniform(0.02, 0.98))
        one = max(a1 / b1, (1 - a1) / (1 - b1))
        both = max(
            one, b1 / a1 if a1 > 0 else mpmath.inf, (1 - b1) / (1 - a1) if a1 < 1 else mpmath.inf
        )
        for ratio in (one, both):
            if not ratio < mpmath.e**5:
                continue
            eps = max(mpmath.log(ratio), mpmath.mpf(0))
            delta = mpmath.mpf(0) if rng.random() < 1 / 3 else mpmath.mpf(rng.random())
            share = delta / (mpmath.exp(eps) + 1)
            a = _unit(a1 + share * mpmath.mpf(rng.uniform(-1, 1)))
            b = _unit(b1 + share * mpmath.mpf(rng.uniform(-1, 1)))
            out.append({"eps": eps, "delta": delta, "a": a, "a1": a1, "b": b, "b1": b1})
    return out


def _hypotheses(*, both_directions: bool) -> tuple[sp.Basic, ...]:
    eps, delta, a, a1, b, b1 = (v.symbol for v in VARIABLES)
    share = delta / (sp.exp(eps) + 1)
    seed = (
        sp.LessThan(a - a1, share),  # Delta(Y, Y') <= delta/(e^eps + 1) on {S, S^c}
        sp.LessThan(a1 - a, share),
        sp.LessThan(b - b1, share),  # Delta(Z, Z') <= delta/(e^eps + 1)
        sp.LessThan(b1 - b, share),
        sp.LessThan(a1, sp.exp(eps) * b1),  # D_inf(Y'||Z') <= eps on S ...
        sp.LessThan(1 - a1, sp.exp(eps) * (1 - b1)),  # ... and on its complement
    )
    if not both_directions:
        return seed
    return (
        *seed,
        sp.LessThan(b1, sp.exp(eps) * a1),  # D_inf(Z'||Y') <= eps: the missing condition
        sp.LessThan(1 - b1, sp.exp(eps) * (1 - a1)),
    )


def _derive(*, corrected: bool) -> Derivation:
    eps, delta, a, a1, b, b1 = (v.symbol for v in VARIABLES)
    share = delta / (sp.exp(eps) + 1)
    reverse = (
        by.hypothesis("D_inf(Z'||Y') <= eps, the added condition, on the event S")
        if corrected
        else by.hypothesis(
            "D_inf(Z'||Y') <= eps would give it, but the seed assumes only D_inf(Y'||Z') <= eps"
        )
    )
    proof = (
        chain(b)
        .le(b1 + share, by.hypothesis("Delta(Z, Z') <= delta/(e^eps + 1)"))
        .le(sp.exp(eps) * a1 + share, reverse)
        .le(
            sp.exp(eps) * (a + share) + share,
            by.hypothesis("Delta(Y, Y') <= delta/(e^eps + 1)", "positive factor e^eps"),
        )
        .eq(sp.exp(eps) * a + delta, by.algebra("e^eps d/(e^eps + 1) + d/(e^eps + 1) = d"))
    )
    title = "Lemma 3.17 (2), the 'if' direction: Pr[Z in S] <= e^eps Pr[Y in S] + delta"
    common: dict[str, Any] = {
        "source": DWORK_ROTH.at("Lemma 3.17 (2)", seed="002"),
        "variables": VARIABLES,
        "hypotheses": _hypotheses(both_directions=corrected),
        "family": FAMILY,
        "points": _two_outcome_points,
    }
    if corrected:
        return proof.derive(
            id="lemma-3-17-2-if",
            title=title + " (corrected: D_inf(Z'||Y') <= eps added)",
            statement=(
                "If Delta(Y, Y') <= delta/(e^eps + 1), Delta(Z, Z') <= delta/(e^eps + 1), "
                "D_inf(Y'||Z') <= eps and D_inf(Z'||Y') <= eps, then for every event S, "
                "Pr[Z in S] <= e^eps Pr[Y in S] + delta (and symmetrically), i.e. "
                "D_inf^delta(Z||Y) <= eps and D_inf^delta(Y||Z) <= eps."
            ),
            **common,
        )
    return proof.derive(
        id="lemma-3-17-2-if-seed",
        title=title + " (as the seed states it)",
        statement=(
            "As written: Delta(Y, Y') <= delta/(e^eps + 1), Delta(Z, Z') <= delta/(e^eps + 1) "
            "and D_inf(Y'||Z') <= eps would give D_inf^delta(Z||Y) <= eps."
        ),
        erratum=(
            "the right side of Lemma 3.17 (2) bounds D_inf(Y'||Z') only, which cannot give "
            "D_inf^delta(Z||Y) <= eps (at delta = 0: Y = Y' = (1, 0), Z = Z' = (1/2, 1/2), "
            "eps = ln 2); D_inf(Z'||Y') <= eps must be assumed too, see lemma-3-17-2-if"
        ),
        **common,
    )


def lemma_3_17_2_if_seed() -> Derivation:
    """The reverse half of Lemma 3.17 (2) from the seed's hypotheses: an erratum."""
    return _derive(corrected=False)


def lemma_3_17_2_if() -> Derivation:
    """The reverse half of Lemma 3.17 (2) with D_inf(Z'||Y') <= eps assumed."""
    return _derive(corrected=True)


DERIVATIONS = (lemma_3_17_2_if_seed, lemma_3_17_2_if)
