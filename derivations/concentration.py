"""Concentration of bounded variables: Hoeffding's lemma and Azuma's inequality.

* ``hoeffding-lemma``: Hoeffding 1963, Lemma 1 (the moment generating function of a bounded
  variable), in the form Dwork & Roth 2014 use in the proof of Theorem 3.20: for X with
  values in [-alpha, alpha] and mean mu, E[e^{lam X}] <= e^{lam mu + lam^2 alpha^2/2}.  X
  takes finitely many values alpha y_1, ..., alpha y_n (y_j in [-1, 1]) with probabilities
  p_1, ..., p_n, for every n; the chain is the classical proof: e^{s y} lies below its chord
  on [-1, 1], the chord's expectation is cosh s + t sinh s (t = mu/alpha), and
  ln(cosh s + t sinh s) <= s t + s^2/2, which the engine proves by the derivative rule
  (the second derivative of the gap is a square).  The statement is written with
  lam = s/alpha and mu = t alpha: every real lam, alpha > 0 and |mu| <= alpha is one (s, t).
* ``azuma-inequality``: Azuma 1967; Dwork & Roth 2014, Lemma 3.19, for every number k >= 1
  of rounds: the tail of the sum is at most its Chernoff bound (Markov's inequality on
  e^{lam S_k}), the moment generating function of the sum is at most the product of the
  rounds' conditional ones (conditioning on the past, round by round), each at most
  e^{lam beta + lam^2 alpha^2/2} by ``hoeffding-lemma``, and lam = z/(sqrt(k) alpha) turns
  the bound into e^{-z^2/2}.

The probabilities and expectations of the martingale are not expressions the engine can
evaluate; in ``azuma-inequality`` they are variables (the tail P, the moment generating
function M, each round's conditional one g_i) whose relations are the hypotheses of the
model, and each step that uses one names the foundation or lemma it is an instance of.
"""

from __future__ import annotations

import random
from typing import Any

import mpmath
import sympy as sp

from derivations.sources import AZUMA, DWORK_ROTH, HOEFFDING
from symbolic.derivation import Derivation
from symbolic.domains import Variable, parse_domain
from symbolic.kit import by, chain

FAMILY = "Concentration: Hoeffding and Azuma"

# -- Hoeffding's lemma -------------------------------------------------------------------------

S = Variable("s", parse_domain("R"), "lam alpha", "s")
T = Variable("t", parse_domain("[-1, 1]"), "mu/alpha: the mean of X over alpha", "t")
Y = Variable("y", parse_domain("[-1, 1]"), "a value of X over alpha", "y")
ALPHA_X = Variable("alpha", parse_domain("(0, 10]"), "bound on |X|", r"\alpha")
MGF = Variable(
    "m",
    parse_domain("(0, oo)"),
    "E[e^{lam X}], the moment generating function",
    r"\mathbb{E}[e^{\lambda X}]",
)
CHORD_MEAN = Variable(
    "c",
    parse_domain("(0, oo)"),
    "E[(1 - X/alpha)/2 e^{-s} + (1 + X/alpha)/2 e^{s}], the expected chord",
    r"\mathbb{E}[\ell(X)]",
)
LAM = sp.Symbol("lam", real=True)
MU = sp.Symbol("mu", real=True)


def chord(s: sp.Expr, y: sp.Expr) -> sp.Expr:
    """The chord of y -> e^{s y} over [-1, 1]: (1 - y)/2 e^{-s} + (1 + y)/2 e^{s}."""
    return (1 - y) / 2 * sp.exp(-s) + (1 + y) / 2 * sp.exp(s)


def _log(e: sp.Expr) -> sp.Expr:
    return sp.log(e, evaluate=False)


def hoeffding_chord() -> Derivation:
    """e^{s y} <= (1 - y)/2 e^{-s} + (1 + y)/2 e^{s} on [-1, 1]: a convex function lies
    below its chord, shown for exp by its tangent line."""
    s, y = S.symbol, Y.symbol
    ratio = sp.Add(
        sp.Mul((1 - y) / 2, sp.exp(-s * (1 + y)), evaluate=False),
        sp.Mul((1 + y) / 2, sp.exp(s * (1 - y)), evaluate=False),
        evaluate=False,
    )
    proof = (
        chain(sp.exp(s * y))
        .le(
            sp.Mul(sp.exp(s * y), ratio, evaluate=False),
            by.rule(
                "exp tangent",
                why="(1 - y)/2 e^{-s(1 + y)} + (1 + y)/2 e^{s(1 - y)} >= (1 - y)/2 (1 - s(1 + y)) "
                "+ (1 + y)/2 (1 + s(1 - y)) = 1 by e^u >= 1 + u, the weights being >= 0",
            ),
        )
        .eq(chord(s, y), by.algebra("e^{s y} e^{-s(1 + y)} = e^{-s}, e^{s y} e^{s(1 - y)} = e^{s}"))
    )
    return proof.derive(
        id="hoeffding-chord",
        title="The exponential lies below its chord on [-1, 1]",
        source=HOEFFDING.at("proof of Lemma 1 (convexity of the exponential)"),
        statement=(
            "For every real s and y in [-1, 1], e^{s y} <= (1 - y)/2 e^{-s} + (1 + y)/2 e^{s}: "
            "y -> e^{s y} is convex, so below its chord between y = -1 and y = 1."
        ),
        variables=(S, Y),
        family=FAMILY,
    )


def _hoeffding_points(rng: random.Random, dps: int) -> list[dict[str, Any]]:
    """m and c at or below their bounds (the hypotheses), at small, moderate and large |s|
    and means t at and near the ends."""
    out = []
    with mpmath.workdps(dps):
        for k in range(60):
            s = mpmath.mpf(10) ** rng.uniform(-4, mpmath.log10(30))
            s = s if k % 2 else -s
            t = [mpmath.mpf(rng.uniform(-1, 1)), mpmath.mpf(1), mpmath.mpf(-1)][k % 3]
            c = (1 - t) / 2 * mpmath.exp(-s) + (1 + t) / 2 * mpmath.exp(s)
            m = c if k % 4 == 0 else c * mpmath.mpf(rng.uniform(0.01, 1))
            out.append(
                {"s": s, "t": t, "alpha": mpmath.mpf(10) ** rng.uniform(-2, 1), "m": m, "c": c}
            )
    return out


def hoeffding_lemma() -> Derivation:
    """Hoeffding 1963, Lemma 1, for a variable with values in [-alpha, alpha] and mean mu,
    in the cumulant form ln E[e^{lam X}] <= lam mu + lam^2 alpha^2/2."""
    s, t, alpha, m, c = (v.symbol for v in (S, T, ALPHA_X, MGF, CHORD_MEAN))
    proof = (
        chain(sp.log(m))
        .le(
            sp.log(c),
            by.lemma(
                "hoeffding-chord",
                "e^{lam X} = e^{s Y} with Y = X/alpha in [-1, 1] lies below the chord "
                "(1 - Y)/2 e^{-s} + (1 + Y)/2 e^{s} at every outcome, so its expectation "
                "m is at most the chord's, c (expectation is monotone); ln is increasing",
            ),
        )
        .eq(
            sp.log(chord(s, t)),
            by.foundation(
                "linearity-of-expectation",
                "the chord is affine in Y, so its expectation is the chord at E[Y] = t",
            ),
        )
        .eq(sp.log(sp.cosh(s) + t * sp.sinh(s)), by.algebra("cosh and sinh written out"))
        .le(
            LAM * MU + LAM**2 * alpha**2 / 2,
            by.rule(
                "derivative rule",
                why="s t + s^2/2 - ln(cosh s + t sinh s) vanishes with its derivative at s = 0, "
                "and its second derivative is a square",
            ),
        )
    )
    return proof.derive(
        id="hoeffding-lemma",
        title="Hoeffding's lemma: the moment generating function of a bounded variable",
        source=HOEFFDING.at("Lemma 1 (as used in Dwork & Roth 2014, proof of Theorem 3.20)"),
        statement=(
            "If X lies in [-alpha, alpha] and E[X] = mu, then for every real lam "
            "ln E[e^{lam X}] <= lam mu + lam^2 alpha^2/2, i.e. E[e^{lam X}] <= "
            "e^{lam mu + lam^2 alpha^2/2}.  Written with s = lam alpha and t = mu/alpha "
            "(every real lam, alpha > 0 and |mu| <= alpha is one (s, t, alpha)); m = "
            "E[e^{lam X}] and c, the expectation of the chord of e^{s Y} over Y = X/alpha in "
            "[-1, 1], are quantities of the distribution, related by the hypotheses as the "
            "steps citing them say."
        ),
        variables=(S, T, ALPHA_X, MGF, CHORD_MEAN),
        hypotheses=(sp.LessThan(m, c), sp.Eq(c, chord(s, t))),
        defs=((LAM, s / alpha), (MU, t * alpha)),
        family=FAMILY,
        points=_hoeffding_points,
    )


# -- Azuma's inequality ------------------------------------------------------------------------

K = Variable("k", parse_domain("Z>=1"), "number of rounds", "k")
ALPHA = Variable("alpha", parse_domain("(0, 10]"), "bound on |C_i|", r"\alpha")
BETA = Variable(
    "beta", parse_domain("[-10, 10]"), "bound on the conditional means E[C_i | past]", r"\beta"
)
Z = Variable("z", parse_domain("(0, oo)"), "deviation in units of sqrt(k) alpha", "z")
TAIL = Variable(
    "P",
    parse_domain("[0, 1]"),
    "Pr[C_1 + ... + C_k > k beta + z sqrt(k) alpha]",
    r"\Pr\left[S_k > k\beta + z\sqrt{k}\,\alpha\right]",
)
SUM_MGF = Variable(
    "M",
    parse_domain("(0, oo)"),
    "E[e^{lam S_k}] for S_k = C_1 + ... + C_k",
    r"\mathbb{E}[e^{\lambda S_k}]",
)
ROUND_MGF = Variable(
    "G",
    parse_domain("(0, oo)"),
    "the largest conditional moment generating function of a round, "
    "max over i and the past of E[e^{lam C_i} | C_1, ..., C_{i-1}]",
    "G",
)
THRESHOLD = sp.Symbol("thr", real=True)


def _azuma_points(rng: random.Random, dps: int) -> list[dict[str, Any]]:
    """Rounds, bounds and deviations over their ranges; the tail, the sum's and the rounds'
    moment generating functions at or below what the hypotheses allow (at them every fourth
    point)."""
    out = []
    with mpmath.workdps(dps):
        for j in range(60):
            k = mpmath.mpf(int(10 ** rng.uniform(0, 4)))
            alpha = mpmath.mpf(10) ** rng.uniform(-2, 1)
            beta = mpmath.mpf(rng.uniform(-10, 10))
            z = mpmath.mpf(10) ** rng.uniform(-3, 1.2)
            lam = z / (mpmath.sqrt(k) * alpha)
            tight = j % 4 == 0

            def shrink(x: Any, tight: bool = tight) -> Any:
                return x if tight else x * mpmath.mpf(rng.uniform(0.01, 1))

            g = shrink(mpmath.exp(lam * beta + lam**2 * alpha**2 / 2))
            m = shrink(g**k)
            p = min(
                mpmath.mpf(1),
                shrink(mpmath.exp(-lam * (k * beta + z * mpmath.sqrt(k) * alpha)) * m),
            )
            out.append({"k": k, "alpha": alpha, "beta": beta, "z": z, "P": p, "M": m, "G": g})
    return out


def azuma_inequality() -> Derivation:
    """Azuma 1967; Dwork & Roth 2014, Lemma 3.19: the Chernoff bound of a sum of k bounded
    rounds with bounded conditional means, for every k >= 1."""
    ks, a, b, zs = (v.symbol for v in (K, ALPHA, BETA, Z))
    p, m, g = (v.symbol for v in (TAIL, SUM_MGF, ROUND_MGF))
    per_round = sp.exp(LAM * b + LAM**2 * a**2 / 2)
    markov = sp.exp(-LAM * THRESHOLD)
    proof = (
        chain(p)
        .le(
            sp.Mul(markov, m, evaluate=False),
            by.foundation(
                "markov-inequality",
                "S_k > thr implies e^{lam S_k} >= e^{lam thr} (lam > 0), and Markov's "
                "inequality for the nonnegative e^{lam S_k}",
            ),
        )
        .le(
            sp.Mul(markov, sp.Pow(g, ks, evaluate=False), evaluate=False),
            by.foundation(
                "tower-property",
                "conditioning on C_1, ..., C_{i-1}: E[e^{lam S_i}] = E[e^{lam S_{i-1}} "
                "E[e^{lam C_i} | C_1, ..., C_{i-1}]] <= G E[e^{lam S_{i-1}}], for i = k, "
                "k - 1, ..., 1 (by induction on k)",
            ),
        )
        .le(
            sp.Mul(markov, sp.Pow(per_round, ks, evaluate=False), evaluate=False),
            by.lemma(
                "hoeffding-lemma",
                "given the past, C_i lies in [-alpha, alpha] with mean mu <= beta, so "
                "E[e^{lam C_i} | past] <= e^{lam mu + lam^2 alpha^2/2} <= "
                "e^{lam beta + lam^2 alpha^2/2} (lam > 0): G is at most that",
            ),
        )
        .eq(
            sp.exp(-LAM * THRESHOLD + ks * (LAM * b + LAM**2 * a**2 / 2)),
            by.algebra("e^u (e^v)^k = e^{u + k v}"),
        )
        .eq(
            sp.exp(-(zs**2) / 2),
            by.algebra(
                "lam = z/(sqrt(k) alpha), thr = k beta + z sqrt(k) alpha: "
                "-lam z sqrt(k) alpha + k lam^2 alpha^2/2 = -z^2 + z^2/2"
            ),
        )
    )
    return proof.derive(
        id="azuma-inequality",
        title="Azuma's inequality for k bounded rounds",
        source=DWORK_ROTH.at("Lemma 3.19", seed="002"),
        statement=(
            "If |C_i| <= alpha and E[C_i | C_1, ..., C_{i-1}] <= beta for i = 1..k, then "
            "Pr[C_1 + ... + C_k > k beta + z sqrt(k) alpha] <= e^{-z^2/2}, for every k >= 1 "
            f"and z > 0 ({AZUMA.cite()}).  The tail P and the moment generating functions M "
            "(of the sum) and G (of a round, given the past) are quantities of the "
            "martingale; the hypotheses relate them as the steps citing them say (Markov's "
            "inequality, conditioning round by round, Hoeffding's lemma); lam = "
            "z/(sqrt(k) alpha) is the Chernoff parameter."
        ),
        variables=(K, ALPHA, BETA, Z, TAIL, SUM_MGF, ROUND_MGF),
        hypotheses=(
            sp.LessThan(p, markov * m),
            sp.LessThan(m, g**ks),
            sp.LessThan(g, per_round),
        ),
        defs=(
            (LAM, zs / (sp.sqrt(ks) * a)),
            (THRESHOLD, ks * b + zs * sp.sqrt(ks) * a),
        ),
        family=FAMILY,
        points=_azuma_points,
    )


DERIVATIONS = (hoeffding_chord, hoeffding_lemma, azuma_inequality)
