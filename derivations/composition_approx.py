"""Dwork & Roth 2014, Theorem 3.16: approximate differential privacy composes, (eps_i,
delta_i)-DP mechanisms to (sum eps_i, sum delta_i)-DP.

* ``approx-basic-composition``: the theorem for any number k of mechanisms, stated in the seed
  without proof (the book's Appendix B); proved through the mixture form of each mechanism
  (:mod:`derivations.approx_decomposition`): a union bound over the mechanisms' delta parts
  and the pure composition (``basic-composition-k``) on their good parts.
* ``approx-basic-composition-optimal``: its homogeneous case for k <= 2000, checked against
  the optimal composition of Kairouz, Oh & Viswanath 2015.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import mpmath
import sympy as sp

from derivations.composition import FAMILY, K_MECHANISMS
from derivations.composition_families import (
    BAD_ANY,
    BAD_I,
    DELTA_I,
    EPS_I,
    GOOD_X,
    GOOD_Y,
    MECHANISM,
    SET_X,
    SET_Y,
    K,
    tight_or_below,
)
from derivations.sources import DWORK_ROTH, KAIROUZ_OH_VISWANATH
from derivations.symbols import EPS_EACH
from numeric_checks.dp.composition import optimal_delta
from symbolic.derivation import Derivation
from symbolic.domains import Domain, Variable
from symbolic.families import ForAll
from symbolic.functions import NumericFunction
from symbolic.kit import by, chain


class OptimalDelta(NumericFunction):
    """delta of the optimal k-fold composition of (eps, delta)-DP mechanisms at eps'."""

    nargs = 4
    impl = staticmethod(
        lambda k, eps, delta, eps_prime: optimal_delta(int(k), eps, delta, eps_prime)
    )
    latex_template = r"\delta^{{\mathrm{{opt}}}}_{{{0}}}\left({1}, {2}; {3}\right)"


DELTA_EACH = Variable(
    "delta",
    Domain(lower=sp.S.Zero, upper=sp.Rational(1, 10), scale="log"),
    "delta of each mechanism",
    r"\delta",
)


def approx_basic_composition_optimal() -> Derivation:
    """Theorem 3.16, homogeneous case, against the exact optimal composition (Kairouz, Oh &
    Viswanath 2015, Theorem 3.3) for k <= 2000: an instance, checked numerically, showing how
    far the bound k delta is from the optimum."""
    k, eps, delta = K_MECHANISMS, EPS_EACH, DELTA_EACH
    ks, es, ds = k.symbol, eps.symbol, delta.symbol
    proof = chain(OptimalDelta(ks, es, ds, ks * es)).le(
        ks * ds,
        by.cite(
            f"{DWORK_ROTH.cite('Theorem 3.16')}; {KAIROUZ_OH_VISWANATH.cite('Theorem 3.3')}",
            "Dwork & Roth 2014, Theorem 3.16 (proof not in the seed); the left side is the "
            "exact optimum of Kairouz, Oh & Viswanath 2015",
        ),
    )
    return proof.derive(
        id="approx-basic-composition-optimal",
        instance="for mechanisms with equal (eps, delta) only (the homogeneous case)",
        title="Composition of k (eps, delta)-DP mechanisms against the optimum",
        source=DWORK_ROTH.at("Theorem 3.16 (homogeneous case)", seed="000"),
        statement=(
            "The k-fold composition of (eps, delta)-DP mechanisms is "
            "(k eps, k delta)-DP, checked against the exact optimal composition (the "
            "theorem itself, for every k, is approx-basic-composition)."
        ),
        variables=(k, eps, delta),
        family=FAMILY,
    )


def _approx_points(rng: Any, dps: int, lengths: Mapping[str, int]) -> list[dict[str, Any]]:
    """Points of approx-basic-composition's hypotheses, each bound tight half of the time:
    drawn independently, ten quantities almost never meet a chain of inequalities."""
    del dps

    def share(bound: Any) -> Any:
        return tight_or_below(rng, bound)

    k = int(lengths["k"])
    out: list[dict[str, Any]] = []
    for _ in range(60):
        point: dict[str, Any] = {}
        for i in range(1, k + 1):
            point[f"eps_{i}"] = mpmath.mpf(10) ** rng.uniform(-3, 0.5)
            delta = mpmath.mpf(0) if rng.random() < 0.15 else mpmath.mpf(rng.random()) / k
            point[f"delta_{i}"] = delta
            point[f"f_{i}"] = share(delta)
        total_eps = mpmath.fsum(point[f"eps_{i}"] for i in range(1, k + 1))
        b = mpmath.mpf(rng.random())
        g1 = share(b)
        g0 = share(min(mpmath.mpf(1), mpmath.exp(total_eps) * g1))
        f = share(min(mpmath.mpf(1), mpmath.fsum(point[f"f_{i}"] for i in range(1, k + 1))))
        point |= {"b": b, "g1": g1, "g0": g0, "f0": f, "a": share(min(mpmath.mpf(1), g0 + f))}
        out.append(point)
    return out


def approx_basic_composition() -> Derivation:
    """Theorem 3.16 for any number k >= 1 of mechanisms: (eps_i, delta_i)-DP mechanisms
    compose to (sum eps_i, sum delta_i)-DP.  The proof is the mixture form of each mechanism
    (approx-dp-good-part-*: an eps_i-close good part of mass at least 1 - delta_i): the view
    is drawn from the good parts except with probability at most sum delta_i (a union bound),
    and on the good parts the pure composition bound holds outcome by outcome."""
    i, k = MECHANISM, K.symbol
    e, dl, fi = EPS_I.base[i], DELTA_I.base[i], BAD_I.base[i]
    a, b, g0, g1, f = (v.symbol for v in (SET_X, SET_Y, GOOD_X, GOOD_Y, BAD_ANY))
    total_eps, total_delta = sp.exp(sp.Sum(e, (i, 1, k))), sp.Sum(dl, (i, 1, k))
    proof = (
        chain(a)
        .le(
            g0 + f,
            by.foundation(
                "total-probability",
                "split on whether every mechanism drew from its good part",
            ),
        )
        .le(
            g0 + sp.Sum(fi, (i, 1, k)),
            by.foundation(
                "union-bound", "some mechanism drew from its delta part: a sum over the k"
            ),
        )
        .le(
            g0 + total_delta,
            by.lemma(
                "approx-dp-good-part-mass",
                "M_i draws from its delta part with probability 1 - w_i <= delta_i; termwise",
            ),
        )
        .le(
            total_eps * g1 + total_delta,
            by.lemma(
                "basic-composition-k",
                "the good parts are eps_i-close outcome by outcome (approx-dp-good-part-ratio), "
                "so their product is within e^(sum eps_i) at every output tuple; summed over S",
            ),
        )
        .le(
            total_eps * b + total_delta,
            by.lemma(
                "approx-dp-good-part-below",
                "the good parts' measure of S on y is at most Pr[M(y) in S]",
            ),
        )
    )
    return proof.derive(
        id="approx-basic-composition",
        title="Composition of k (eps, delta)-DP mechanisms",
        source=DWORK_ROTH.at("Theorem 3.16", seed="000"),
        statement=(
            "For neighbours x, y, any number k >= 1 of mechanisms M_i, each (eps_i, delta_i)-DP, "
            "and every event S of the output tuples: Pr[M(x) in S] <= e^(sum eps_i) "
            "Pr[M(y) in S] + sum delta_i, with M = (M_1, ..., M_k).  The seed states it "
            "without proof (the book's Appendix B); the proof here goes through the mixture "
            "form of each mechanism."
        ),
        variables=(K, EPS_I, DELTA_I, BAD_I, SET_X, SET_Y, GOOD_X, GOOD_Y, BAD_ANY),
        hypotheses=(
            sp.LessThan(a, g0 + f),
            sp.LessThan(f, sp.Sum(fi, (i, 1, k))),
            ForAll(sp.LessThan(fi, dl), (i, 1, k)),
            sp.LessThan(g0, total_eps * g1),
            sp.LessThan(g1, b),
        ),
        family=FAMILY,
        instance_points=_approx_points,
    )


DERIVATIONS = (approx_basic_composition, approx_basic_composition_optimal)
