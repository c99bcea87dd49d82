"""The exponential mechanism is eps-DP (Dwork & Roth 2014, Theorem 3.10; seed 003).

M_E(x, u, R) outputs r in R with probability proportional to exp(eps u(x, r) / (2 Delta u)),
where Delta u = max over r and neighbours x, y of |u(x, r) - u(y, r)|.  The seed's chain bounds
the ratio of output probabilities on neighbours x, y at an output r by e^(eps/2) (the score of
r moves by at most Delta u) times e^(eps/2) (every term of the normaliser moves by at most that
factor).

The derivation is written for an output set of three elements (the seed's example queries
three diseases), output r = r_1; the oracle draws score tables of every size from 2 to 8.
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
from symbolic.domains import POSITIVE, REAL, Variable
from symbolic.kit import by, chain

FAMILY = "Exponential mechanism"
OUTPUTS = 3

DU = Variable("Du", POSITIVE, "sensitivity of the score u", r"\Delta u")
UX = tuple(Variable(f"ux{i}", REAL, f"score u(x, r_{i})", f"u(x, r_{i})") for i in (1, 2, 3))
UY = tuple(Variable(f"uy{i}", REAL, f"score u(y, r_{i})", f"u(y, r_{i})") for i in (1, 2, 3))


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


def exponential_mechanism() -> Derivation:
    """Theorem 3.10 for |R| = 3, output r_1."""
    e, du = EPS.symbol, DU.symbol
    ux = [v.symbol for v in UX]
    uy = [v.symbol for v in UY]

    def w(s: sp.Expr) -> sp.Expr:
        """The unnormalised weight exp(eps s/(2 Delta u)) of an output of score s."""
        return sp.exp(e * s / (2 * du))

    zx = sp.Add(*[w(s) for s in ux], evaluate=False)
    zy = sp.Add(*[w(s) for s in uy], evaluate=False)
    zy_up = sp.Add(*[sp.exp(e * (s + du) / (2 * du)) for s in ux], evaluate=False)
    half = sp.exp(e / 2)
    proof = (
        chain(frac(frac(w(ux[0]), zx), frac(w(uy[0]), zy)))
        .eq(
            product(frac(w(ux[0]), w(uy[0])), frac(zy, zx)),
            by.algebra("rearrange the ratio of ratios"),
        )
        .eq(
            product(sp.exp(e * (ux[0] - uy[0]) / (2 * du)), frac(zy, zx)),
            by.algebra("quotient of exponentials"),
        )
        .le(
            product(half, frac(zy, zx)),
            by.hypothesis("u(x, r) - u(y, r) <= Delta u (definition of the sensitivity)"),
        )
        .le(
            product(half, frac(zy_up, zx)),
            by.hypothesis("termwise: u(y, r') <= u(x, r') + Delta u for every r'"),
        )
        .eq(product(half, half, frac(zx, zx)), by.algebra("factor e^(eps/2) out of the sum"))
        .eq(sp.exp(e), by.algebra("e^(eps/2) e^(eps/2) = e^eps"))
    )
    return proof.derive(
        id="exponential-mechanism",
        instance=f"for |R| = {OUTPUTS} outputs only",
        title="The exponential mechanism is eps-DP",
        source=DWORK_ROTH.at("Theorem 3.10", seed="003"),
        statement=(
            "For neighbours x, y and every output r, Pr[M_E(x, u, R) = r] <= "
            "e^eps Pr[M_E(y, u, R) = r], where M_E outputs r with probability proportional "
            "to exp(eps u(x, r)/(2 Delta u)).  Written for |R| = 3, output r_1."
        ),
        variables=(EPS, DU, *UX, *UY),
        hypotheses=tuple(sp.LessThan(sp.Abs(a - b), du) for a, b in zip(ux, uy, strict=True)),
        oracle=Oracle(
            "exponential-mechanism-laws",
            "exact output laws for random score tables of 2 to 8 outputs whose scores move by "
            "at most Delta u: max-divergence both ways <= eps",
            _oracle,
            points=8,
        ),
        family=FAMILY,
    )


DERIVATIONS = (exponential_mechanism,)
