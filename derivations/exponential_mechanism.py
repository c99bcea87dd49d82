"""The exponential mechanism is eps-DP (Dwork & Roth 2014, Theorem 3.10; seed 003).

M_E(x, u, R) outputs r in R with probability proportional to exp(eps u(x, r) / (2 Delta u)),
where Delta u = max over r and neighbours x, y of |u(x, r) - u(y, r)|.  The seed's chain bounds
the ratio of output probabilities on neighbours x, y at an output r by e^(eps/2) (the score of
r moves by at most Delta u) times e^(eps/2) (every term of the normaliser moves by at most that
factor).

The derivation is written for any finite range R = {r_1, ..., r_n}, n >= 1 (the scores are
the families u(x, r_i), u(y, r_i), i in 1..n, and the normaliser one sum over R), and any
output r, whose scores u(x, r), u(y, r) obey the same sensitivity bound; the chain does not
need r to be one of the r_i, so it proves the theorem for every r in R at once.  Every link
is proved for every n by the sum rules (a termwise bound under the positive factor
e^(eps/2)/Z_x); the oracle draws score tables of every size from 2 to 8.
Two slips in the seed's transcription are read as meant, not encoded: its second line writes
u(x, r') - u(y, r') outside the sums, where r' is bound only inside them (the text is about r),
and its first line's inner fractions print "2u" for "2 Delta u".
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import mpmath
import sympy as sp

from derivations.display import frac, product
from derivations.sources import DWORK_ROTH
from derivations.symbols import EPS
from numeric_checks.dp.divergences import max_divergence
from numeric_checks.dp.exponential import output_laws
from symbolic.derivation import Derivation, Oracle, OracleOutcome
from symbolic.domains import POSITIVE, REAL, Variable, parse_domain
from symbolic.families import Family, ForAll, index_symbol
from symbolic.kit import by, chain

FAMILY = "Exponential mechanism"

N = Variable("n", parse_domain("Z>=1"), "number of outputs |R| = n", "n")
IX = index_symbol("i")
DU = Variable("Du", POSITIVE, "sensitivity of the score u", r"\Delta u")
UR_X = Variable("urx", REAL, "score u(x, r) of the output r", "u(x, r)")
UR_Y = Variable("ury", REAL, "score u(y, r) of the output r", "u(y, r)")
UX = Variable("ux", REAL, "score u(x, r_i)", "u(x, r_{i})", family=Family("i", 1, N.symbol))
UY = Variable("uy", REAL, "score u(y, r_i)", "u(y, r_{i})", family=Family("i", 1, N.symbol))


def instance_points(rng: Any, dps: int, lengths: Mapping[str, int]) -> list[dict[str, Any]]:
    """Score tables on ``lengths["n"]`` outputs whose scores move by at most Delta u between
    x and y, every third with every score moved all the way (the worst case of the bound),
    named as an instance's elements ``ux_1..ux_n``, ``uy_1..uy_n``; the output r's own
    scores likewise."""
    n = int(lengths["n"])
    inside = 1 - mpmath.mpf(10) ** (-(dps // 2))
    out = []
    for k in range(30):
        du = mpmath.mpf(10) ** rng.uniform(-2, 1)
        point: dict[str, Any] = {"eps": mpmath.mpf(10) ** rng.uniform(-3, 1), "Du": du}
        names = [("urx", "ury")] + [(f"ux_{i}", f"uy_{i}") for i in range(1, n + 1)]
        for x, y in names:
            u = mpmath.mpf(rng.uniform(-5, 5)) * du
            move = rng.choice((-1, 1)) * inside if k % 3 == 0 else 2 * mpmath.mpf(rng.random()) - 1
            point[x], point[y] = u, u + move * du
        out.append(point)
    return out


def _oracle(values: Mapping[str, Any]) -> OracleOutcome:
    """Exact output laws for random score tables with |u(x, r) - u(y, r)| <= Delta u: the
    max-divergence both ways must be <= eps."""
    eps, du = values["eps"], values["Du"]
    rng = random.Random(int(mpmath.nint(mpmath.frac(eps * 1e6) * 1e9)))
    worst = mpmath.mpf(0)
    for size in range(2, 9):
        for _ in range(6):
            ux = [mpmath.mpf(rng.uniform(-5, 5)) * du for _ in range(size)]
            # Neighbours move each score by at most Delta u, often all the way (the worst case).
            uy = [u + du * rng.choice((-1, 1, rng.uniform(-1, 1))) for u in ux]
            p, q = output_laws(ux, uy, eps, du)
            loss = max(max_divergence(p, q), max_divergence(q, p))
            worst = max(worst, loss / eps)
            if loss > eps * (1 + mpmath.mpf(10) ** -30):
                return OracleOutcome(
                    False,
                    f"|R| = {size}: max-divergence {mpmath.nstr(loss, 10)} > eps",
                    {"ux": str([mpmath.nstr(v, 6) for v in ux])},
                )
    return OracleOutcome(
        True,
        f"42 random score tables (|R| = 2..8): max-divergence <= {mpmath.nstr(worst, 6)} eps",
        {"worst": mpmath.nstr(worst, 6)},
        closeness=float(worst),
    )


def _weight(s: sp.Expr) -> sp.Expr:
    """The unnormalised weight exp(eps s/(2 Delta u)) of an output of score s."""
    return sp.exp(EPS.symbol * s / (2 * DU.symbol))


def _over_range(f: sp.Expr) -> sp.Sum:
    return sp.Sum(f, (IX, 1, N.symbol))


def exponential_mechanism() -> Derivation:
    """Theorem 3.10 for any finite range R = {r_1, ..., r_n} and any output r."""
    e, du = EPS.symbol, DU.symbol
    rx, ry = UR_X.symbol, UR_Y.symbol
    ux, uy = UX.base[IX], UY.base[IX]
    zx, zy = _over_range(_weight(ux)), _over_range(_weight(uy))
    zy_up = _over_range(sp.exp(e * (ux + du) / (2 * du)))
    half = sp.exp(e / 2)
    proof = (
        chain(frac(_weight(rx) / zx, _weight(ry) / zy))
        .eq(
            product(frac(_weight(rx), _weight(ry)), frac(zy, zx)),
            by.algebra("rearrange the ratio of ratios"),
        )
        .eq(
            product(sp.exp(e * (rx - ry) / (2 * du)), frac(zy, zx)),
            by.algebra("quotient of exponentials"),
        )
        .le(
            product(half, frac(zy, zx)),
            by.hypothesis("u(x, r) - u(y, r) <= Delta u (definition of the sensitivity)"),
        )
        .le(
            product(half, frac(zy_up, zx)),
            by.hypothesis(
                "termwise: u(y, r') <= u(x, r') + Delta u for every r' in R; the factor in "
                "front is positive",
                "termwise",
            ),
        )
        .eq(
            product(half, half, frac(zx, zx)),
            by.algebra("factor e^(eps/2) out of every term of the sum"),
        )
        .eq(sp.exp(e), by.algebra("e^(eps/2) e^(eps/2) = e^eps"))
    )
    return proof.derive(
        id="exponential-mechanism",
        title="The exponential mechanism is eps-DP",
        source=DWORK_ROTH.at("Theorem 3.10", seed="003"),
        statement=(
            "For any finite range R = {r_1, ..., r_n} (n >= 1), neighbours x, y and every "
            "output r, Pr[M_E(x, u, R) = r] <= e^eps Pr[M_E(y, u, R) = r], where M_E outputs "
            "r with probability proportional to exp(eps u(x, r)/(2 Delta u))."
        ),
        variables=(N, EPS, DU, UR_X, UR_Y, UX, UY),
        hypotheses=(
            sp.LessThan(sp.Abs(rx - ry), du),
            ForAll(sp.LessThan(sp.Abs(ux - uy), du), (IX, 1, N.symbol)),
        ),
        oracle=Oracle(
            "exponential-mechanism-laws",
            "exact output laws for random score tables of 2 to 8 outputs whose scores move by "
            "at most Delta u: max-divergence both ways <= eps",
            _oracle,
            # Per instance: the first four lengths run it, 8 oracle points in all as before.
            points=2,
        ),
        family=FAMILY,
        instance_points=instance_points,
    )


DERIVATIONS = (exponential_mechanism,)
