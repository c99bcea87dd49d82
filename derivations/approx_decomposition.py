"""An (eps, delta)-DP round is an eps-DP round except with probability delta: what carries
advanced composition from pure to approximate differential privacy.

Dwork & Roth's proof of Theorem 3.20 passes from (eps, 0) to (eps, delta) rounds by Lemma
3.17: each round's output distributions are "within delta" of a pair that is eps-close both
ways, "so the k rounds cost k delta".  As the seed states it, Lemma 3.17 (2) moves both laws
and bounds the max divergence one way only (the audit's erratum seed-002-lemma-3-17-2-if);
moving both laws then costs e^(eps') times the distance on one side, not k delta.  What the
proof needs is the *mixture* form (cf. Kairouz, Oh & Viswanath 2015, whose canonical
four-outcome (eps, delta) pair has this shape): a pair ``(p, q)`` on ``n`` outcomes with
``p(S) <= e^eps q(S) + delta`` and ``q(S) <= e^eps p(S) + delta`` for every event ``S``
(``eps >= 0``) is

    ``p = w p' + (1 - w) p''``,  ``q = w q' + (1 - w) q''``,  ``w >= 1 - delta``,

with ``p'``, ``q'`` distributions that are eps-close both ways (``p' <= e^eps q'`` and
``q' <= e^eps p'`` at every outcome), ``p''``, ``q''`` distributions.  The construction is
dpderive's own.  With ``m = min(p, q)``, ``r = min(p, e^eps q)`` and ``s = min(q, e^eps p)``
(outcome by outcome), the good parts are ``w p' = m + t (r - m)`` and ``w q' = m + u (s - m)``
for ``t, u`` in ``[0, 1]`` chosen so that both have the mass ``w = min(sum r, sum s)`` (the
masses are linear in ``t`` and ``u``, from ``sum m <= w`` up to ``sum r`` and ``sum s``).  The
catalog proves what the construction rests on:

* ``approx-dp-good-part-ratio``: ``m + t (r - m) <= e^eps (m + u (s - m))`` for every
  ``t, u`` in ``[0, 1]``: the good parts are eps-close (and, with ``p, q`` swapped, the other
  way);
* ``approx-dp-good-part-below``: ``m + t (r - m) <= p``: the rest, ``(1 - w) p''``, is a
  nonnegative measure;
* ``approx-dp-good-part-mass``: ``sum_i min(p_i, e^eps q_i) >= 1 - delta`` on any number of
  outcomes, from the (eps, delta) condition at the event ``{p_i > e^eps q_i}``; so
  ``w >= 1 - delta``;
* ``approx-composition-cost``: for k adaptively chosen rounds, every round drawn from its
  good part except with probability at most ``k delta`` (union bound), so an (eps', delta')
  bound on the good parts gives (eps', delta' + k delta) on the views: the bridge of
  ``advanced-composition``.

What is not carried by the engine: that ``t`` and ``u`` exist (a linear function of ``t`` on
``[0, 1]`` takes every value between its ends) and the passage from outcomes to events
(``approx-max-divergence-definition``), both named in the statements.
"""

from __future__ import annotations

import random
from typing import Any

import mpmath
import sympy as sp

from derivations.composition_families import tight_or_below
from derivations.sources import DPDERIVE, DWORK_ROTH, KAIROUZ_OH_VISWANATH
from symbolic.derivation import Derivation
from symbolic.domains import Domain, Variable, parse_domain
from symbolic.families import Family, index_symbol
from symbolic.kit import by, chain

__all__ = [
    "DERIVATIONS",
    "approx_composition_cost",
    "good_part_below",
    "good_part_mass",
    "good_part_ratio",
]

FAMILY = "Dwork & Roth, section 3.5: composition"
UNIT = Domain(lower=sp.S.Zero, upper=sp.S.One, lower_open=False, upper_open=False)
EPS_RANGE = Domain(lower=sp.S.Zero, upper=sp.Integer(5), lower_open=False, upper_open=False)

EPS = Variable("eps", EPS_RANGE, "eps of the round (>= 0)", r"\varepsilon")
DELTA = Variable("delta", UNIT, "delta of the round", r"\delta")
PY = Variable("p", UNIT, "Pr[Y = y] at one outcome y", "p")
QY = Variable("q", UNIT, "Pr[Z = y] at the same outcome", "q")
T = Variable("t", UNIT, "share of r - m taken into Y's good part", "t")
U = Variable("u", UNIT, "share of s - m taken into Z's good part", "u")

SOURCE = DPDERIVE.at(
    "the mixture form of an (eps, delta)-DP round that Dwork & Roth's proof of Theorem 3.20 "
    f"uses through Lemma 3.17 (cf. {KAIROUZ_OH_VISWANATH.name})",
    seed="002",
)


def _parts(p: sp.Expr, q: sp.Expr, eps: sp.Expr) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """m = min(p, q), r = min(p, e^eps q), s = min(q, e^eps p) at one outcome."""
    return sp.Min(p, q), sp.Min(p, sp.exp(eps) * q), sp.Min(q, sp.exp(eps) * p)


def good_part_ratio() -> Derivation:
    """The good parts m + t (r - m) and m + u (s - m) are eps-close at every outcome."""
    eps, p, q, t, u = (v.symbol for v in (EPS, PY, QY, T, U))
    m, r, s = _parts(p, q, eps)
    proof = (
        chain(m + t * (r - m))
        .le(r, by.algebra("m <= r (e^eps q >= q) and t <= 1"))
        .le(
            sp.exp(eps) * m,
            by.algebra("min(p, e^eps q) <= e^eps p and <= e^eps q, since eps >= 0"),
        )
        .le(sp.exp(eps) * (m + u * (s - m)), by.algebra("s >= m (e^eps p >= p) and u >= 0"))
    )
    return proof.derive(
        id="approx-dp-good-part-ratio",
        title="The good parts of an (eps, delta)-DP round are eps-close",
        source=SOURCE,
        statement=(
            "For eps >= 0, probabilities p = Pr[Y = y], q = Pr[Z = y] at an outcome y and t, u "
            "in [0, 1]: with m = min(p, q), r = min(p, e^eps q) and s = min(q, e^eps p), "
            "m + t (r - m) <= e^eps (m + u (s - m)).  With p and q (and t and u) swapped it "
            "is the other direction: the good parts are eps-close both ways."
        ),
        variables=(EPS, PY, QY, T, U),
        family=FAMILY,
    )


def good_part_below() -> Derivation:
    """Y's good part m + t (r - m) is below p: the remainder is a nonnegative measure."""
    eps, p, q, t = (v.symbol for v in (EPS, PY, QY, T))
    m, r, _ = _parts(p, q, eps)
    proof = (
        chain(m + t * (r - m))
        .le(r, by.algebra("m <= r (e^eps q >= q) and t <= 1"))
        .le(p, by.algebra("r = min(p, e^eps q) <= p"))
    )
    return proof.derive(
        id="approx-dp-good-part-below",
        title="The good part of an (eps, delta)-DP round is below its law",
        source=SOURCE,
        statement=(
            "For eps >= 0, p, q in [0, 1] and t in [0, 1]: m + t (r - m) <= p, with m = "
            "min(p, q) and r = min(p, e^eps q); so p minus the good part is nonnegative "
            "(and the same for q with s = min(q, e^eps p))."
        ),
        variables=(EPS, PY, QY, T),
        family=FAMILY,
    )


N = Variable("n", parse_domain("Z>=1"), "number of outcomes y_1, ..., y_n", "n")
IX = index_symbol("i")
P = Variable("p", UNIT, "Pr[Y = y_i]", "p", family=Family("i", 1, N.symbol))
Q = Variable("q", UNIT, "Pr[Z = y_i]", "q", family=Family("i", 1, N.symbol))


def _sum(f: sp.Expr) -> sp.Sum:
    return sp.Sum(f, (IX, 1, N.symbol))


def good_part_mass() -> Derivation:
    """sum_i min(p_i, e^eps q_i) >= 1 - delta: the good part's mass, on n outcomes."""
    eps, delta = EPS.symbol, DELTA.symbol
    p, q = P.base[IX], Q.base[IX]
    # Written with |.|, not Min/Max: SymPy's Min and Max of the n-term instances cost seconds
    # to build (their arguments are compared pairwise), |.| does not.
    gap = sp.Abs(p - sp.exp(eps) * q)
    excess = (p - sp.exp(eps) * q + gap) / 2
    proof = (
        chain(_sum((p + sp.exp(eps) * q - gap) / 2))
        .eq(
            1 - _sum(excess),
            by.hypothesis(
                "termwise min(a, b) = (a + b - |a - b|)/2 = a - max(a - b, 0); the sums "
                "split, and sum_i p_i = 1"
            ),
        )
        .ge(
            1 - delta,
            by.foundation(
                "approx-max-divergence-definition",
                "sum_i max(p_i - e^eps q_i, 0) = Pr[Y in S] - e^eps Pr[Z in S] <= delta at "
                "the event S = {y_i : p_i > e^eps q_i}",
            ),
        )
    )
    return proof.derive(
        id="approx-dp-good-part-mass",
        title="The good part of an (eps, delta)-DP round has mass at least 1 - delta",
        source=SOURCE,
        statement=(
            "For distributions Y, Z on any number n >= 1 of outcomes with Pr[Y in S] <= e^eps "
            "Pr[Z in S] + delta at the event S = {y_i : p_i > e^eps q_i} (so whenever "
            "D_inf^delta(Y||Z) <= eps, by approx-max-divergence-definition), "
            "sum_i min(p_i, e^eps q_i) >= 1 - delta."
        ),
        variables=(N, EPS, DELTA, P, Q),
        hypotheses=(
            sp.Eq(_sum(p), 1),
            sp.Eq(_sum(q), 1),
            sp.LessThan(_sum(excess), delta),
        ),
        family=FAMILY,
    )


K = Variable("k", parse_domain("Z in [1, 10000]"), "number of rounds", "k")
EPS_P = Variable(
    "eps_p", parse_domain("[0, 50]"), "eps' of the k-fold composition", r"\varepsilon'"
)
DELTA_P = Variable("delta_p", UNIT, "delta' of the good parts' composition", r"\delta'")
A = Variable("a", UNIT, "Pr[V^0 in S]: the view on x^0 falls in S", "a")
B = Variable("b", UNIT, "Pr[V^1 in S]: the view on x^1 falls in S", "b")
G0 = Variable("g0", UNIT, "Pr[every round drawn from its good part and V^0 in S]", "g_0")
G1 = Variable("g1", UNIT, "the good parts' measure of S on x^1 (at most b)", "g_1")
BAD = Variable("f", UNIT, "Pr[some round of V^0 drawn from its delta part]", "f")
BAD_SUM = Variable(
    "f_sum",
    parse_domain("[0, 10000]"),
    "sum over the k rounds of Pr[round i of V^0 drawn from its delta part]",
    r"f_\Sigma",
)


def _cost_points(rng: random.Random, _dps: int) -> list[dict[str, Any]]:
    """Points of approx-composition-cost's hypotheses, each bound tight half of the time: the
    generic sampler, drawing ten variables independently, almost never meets a chain of four
    inequalities (and spent seconds trying)."""

    def share(bound: Any) -> Any:
        return tight_or_below(rng, bound)

    out: list[dict[str, Any]] = []
    for _ in range(240):
        k = rng.choice((1, 2, 3, 10)) if rng.random() < 0.5 else rng.randint(1, 10000)
        delta = mpmath.mpf(0) if rng.random() < 0.15 else mpmath.mpf(rng.random()) / k
        eps_p = mpmath.mpf(0) if rng.random() < 0.1 else mpmath.mpf(rng.uniform(0, 5))
        delta_p = mpmath.mpf(rng.random())
        b = mpmath.mpf(rng.random())
        g1 = share(b)
        g0 = share(min(mpmath.mpf(1), mpmath.exp(eps_p) * g1 + delta_p))
        fsum = share(k * delta)
        f = share(min(mpmath.mpf(1), fsum))
        a = share(min(mpmath.mpf(1), g0 + f))
        out.append(
            {"k": k, "delta": delta, "eps_p": eps_p, "delta_p": delta_p, "a": a, "b": b}
            | {"g0": g0, "g1": g1, "f": f, "f_sum": fsum}
        )
    return out


def approx_composition_cost() -> Derivation:
    """k (eps, delta)-DP rounds cost k delta on top of the good parts' (eps', delta')."""
    k, delta, eps_p, delta_p = (v.symbol for v in (K, DELTA, EPS_P, DELTA_P))
    a, b, g0, g1, f, fsum = (v.symbol for v in (A, B, G0, G1, BAD, BAD_SUM))
    proof = (
        chain(a)
        .le(
            g0 + f,
            by.foundation(
                "total-probability",
                "split on whether every round was drawn from its good part",
            ),
        )
        .le(
            g0 + fsum,
            by.foundation(
                "union-bound",
                "some round drawn from its delta part: at most the sum over the k rounds",
            ),
        )
        .le(
            g0 + k * delta,
            by.lemma(
                "approx-dp-good-part-mass",
                "each round is drawn from its delta part with probability 1 - w <= delta, "
                "whatever came before (w >= 1 - delta); k such terms",
            ),
        )
        .le(
            sp.exp(eps_p) * g1 + delta_p + k * delta,
            by.lemma(
                "approx-dp-good-part-ratio",
                "the good parts, normalised, are eps-close both ways, so the privacy-loss "
                "bound of the pure case (advanced-composition's chain: the loss exceeds eps' "
                "with probability at most delta') gives g0 <= e^(eps') g1 + delta' (the weights "
                "w <= 1 only shrink the measure of the set where the loss exceeds eps')",
            ),
        )
        .le(
            sp.exp(eps_p) * b + delta_p + k * delta,
            by.lemma(
                "approx-dp-good-part-below",
                "the good parts' measure of S on x^1 is at most Pr[V^1 in S]: what is left "
                "of each round's law after its good part is nonnegative",
            ),
        )
    )
    return proof.derive(
        id="approx-composition-cost",
        title="k (eps, delta)-DP rounds cost k delta on top of delta'",
        source=DWORK_ROTH.at(
            "proof of Theorem 3.20 (the step through Lemma 3.17), as a mixture", seed="003"
        ),
        statement=(
            "For the views V^0, V^1 of k adaptively chosen (eps, delta)-DP rounds on "
            "neighbours x^0, x^1, and every event S: if every round is drawn from its "
            "eps-close good part except with probability at most delta (approx-dp-good-part-"
            "mass, -ratio, -below) and the good parts satisfy g0 <= e^(eps') g1 + delta', then "
            "Pr[V^0 in S] <= e^(eps') Pr[V^1 in S] + delta' + k delta."
        ),
        variables=(K, DELTA, EPS_P, DELTA_P, A, B, G0, G1, BAD, BAD_SUM),
        hypotheses=(
            sp.LessThan(a, g0 + f),
            sp.LessThan(f, fsum),
            sp.LessThan(fsum, k * delta),
            sp.LessThan(g0, sp.exp(eps_p) * g1 + delta_p),
            sp.LessThan(g1, b),
        ),
        family=FAMILY,
        points=_cost_points,
    )


DERIVATIONS = (good_part_ratio, good_part_below, good_part_mass, approx_composition_cost)
