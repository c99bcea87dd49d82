"""NumericSparse privacy: Theorem 3.27 of Dwork & Roth 2014, section 3.6.3 (seed 001).

Its proof splits the budget between the Sparse algorithm (Theorem 3.25, cited) and the at
most c Laplace answers.

* ``numeric-sparse-privacy-pure``: delta = 0, the split 8 eps/9 + eps/9 = eps.
* ``numeric-sparse-privacy-approx-seed``: delta > 0 as the seed writes it, the Laplace part
  with eps' = eps/sqrt(512): the parts add to more than eps (erratum).
* ``numeric-sparse-privacy-approx``: delta > 0 with the Laplace part the algorithm actually
  has (c answers of scale sigma(eps2), advanced composition with delta/2).
"""

from __future__ import annotations

import sympy as sp

from derivations.display import frac, product
from derivations.numeric_sparse.variables import C_WIDE, DELTA, EPS, EPS_SMALL, FAMILY, R512
from derivations.sources import DWORK_ROTH
from symbolic.derivation import Derivation
from symbolic.kit import by, chain


def privacy_pure() -> Derivation:
    """delta = 0: the Sparse part 8 eps/9 and c Laplace answers add up to eps."""
    es, cs = EPS.symbol, C_WIDE.symbol
    eps2 = 2 * es / 9
    proof = (
        chain(sp.Add(8 * es / 9, frac(cs, frac(2 * cs, eps2)), evaluate=False))
        .eq(
            sp.Add(8 * es / 9, product(cs, frac(eps2, 2 * cs)), evaluate=False),
            by.algebra("1/sigma(eps2) = eps2/(2c)"),
        )
        .eq(
            sp.Add(8 * es / 9, es / 9, evaluate=False),
            by.algebra("c (2 eps/9)/(2c) = eps/9: the seed's Laplace part"),
        )
        .eq(es, by.algebra("8/9 + 1/9 = 1"))
    )
    return proof.derive(
        id="numeric-sparse-privacy-pure",
        title="NumericSparse is eps-DP (delta = 0): the budget split",
        source=DWORK_ROTH.at("Theorem 3.27 (case delta = 0)", seed="001"),
        statement=(
            "For delta = 0, NumericSparse is the adaptive composition of "
            "Sparse(D, {f_i}, T, c, 8 eps/9, 0) (eps1 = 8 eps/9, private by Theorem 3.25) and "
            "at most c answers f_i(D) + Lap(sigma(eps2)), sigma(e) = 2c/e, eps2 = 2 eps/9, "
            "each (1/sigma(eps2))-DP for a sensitivity-1 query (Theorem 3.6).  By basic "
            "composition (Theorem 3.16) the total is 8 eps/9 + c/sigma(eps2) = eps."
        ),
        variables=(EPS, C_WIDE),
        family=FAMILY,
    )


def privacy_approx_seed() -> Derivation:
    """delta > 0 as the seed writes it: the two parts add to more than eps (an erratum)."""
    es = EPS.symbol
    sparse_part = frac(product(R512, es), R512 + 1)
    proof = (
        chain(sp.Add(sparse_part, frac(es, R512), evaluate=False))
        .eq(
            frac(product(es, 512 + R512 + 1), 512 + R512),
            by.algebra("common denominator sqrt(512)(sqrt(512) + 1)"),
        )
        .le(
            es,
            by.cite(
                DWORK_ROTH.cite("Theorem 3.16"),
                "basic composition of the two parts (Theorem 3.16)",
            ),
        )
    )
    return proof.derive(
        id="numeric-sparse-privacy-approx-seed",
        title="NumericSparse (delta > 0): the budget split as the seed writes it",
        source=DWORK_ROTH.at("Theorem 3.27 (case delta > 0), proof as in the seed", seed="001"),
        statement=(
            "For delta > 0 the seed writes NumericSparse as Sparse(D, {f_i}, T, c, "
            "sqrt(512)/(sqrt(512)+1) eps, delta/2) composed with the Laplace mechanism with "
            "(eps', delta) = (eps/sqrt(512), delta/2), and concludes (eps, delta)-DP by "
            "composition: sqrt(512) eps/(sqrt(512)+1) + eps/sqrt(512) <= eps."
        ),
        variables=(EPS,),
        erratum=(
            "Seed 001 gives the Laplace part of NumericSparse (delta > 0) privacy "
            "eps' = eps/sqrt(512); with the Sparse part's sqrt(512) eps/(sqrt(512)+1) the two "
            "add to eps (1 + 1/(512 + sqrt(512))) > eps, so composition does not give eps.  "
            "The algorithm's eps2 = 2 eps/(sqrt(512)+1) makes the Laplace part "
            "(eps/(sqrt(512)+1), delta/2): numeric-sparse-privacy-approx."
        ),
        family=FAMILY,
    )


def privacy_approx() -> Derivation:
    """delta > 0, eps <= 1: the Laplace part the algorithm has, by advanced composition."""
    es, ds, cs = EPS_SMALL.symbol, DELTA.symbol, C_WIDE.symbol
    log2d = sp.log(2 / ds)
    eps0 = sp.Symbol("eps_0", positive=True)
    eps2 = 2 * es / (R512 + 1)
    sparse_part = frac(product(R512, es), R512 + 1)
    half = frac(es, 2 * (R512 + 1))
    laplace_mean = product(cs, eps0, sp.exp(eps0) - 1)
    proof = (
        chain(
            sp.Add(
                sparse_part, product(sp.sqrt(2 * cs * log2d), eps0), laplace_mean, evaluate=False
            )
        )
        .eq(
            sp.Add(sparse_part, half, laplace_mean, evaluate=False),
            by.algebra("sqrt(2 c L) eps2/sqrt(32 c L) = eps2/4 = eps/(2(sqrt(512)+1))"),
        )
        .le(
            sp.Add(sparse_part, half, half, evaluate=False),
            by.algebra(
                "c eps_0 (e^eps_0 - 1) <= c eps_0^2 e^eps_0 = eps2^2 e^eps_0/(32 ln(2/delta)) "
                "<= eps2/4, since eps2 <= 0.085 for eps <= 1 and ln(2/delta) > ln 2"
            ),
        )
        .eq(es, by.algebra("sqrt(512) + 1/2 + 1/2 = sqrt(512) + 1"))
    )
    return proof.derive(
        id="numeric-sparse-privacy-approx",
        title="NumericSparse is (eps, delta)-DP (delta > 0, eps <= 1): the budget split",
        source=DWORK_ROTH.at(
            "Theorem 3.27 (case delta > 0), with the Laplace part of the algorithm as "
            "given in the book (eps2 = 2 eps/(sqrt(512)+1))",
            seed="001",
        ),
        statement=(
            "For 0 < delta < 1 and eps <= 1: Sparse(D, {f_i}, T, c, sqrt(512) eps/(sqrt(512)+1), "
            "delta/2) is private by Theorem 3.25; the at most c answers f_i(D) + "
            "Lap(sigma(eps2)), sigma(e) = sqrt(32 c ln(2/delta))/e, are each eps_0-DP with "
            "eps_0 = 1/sigma(eps2), so by advanced composition (Theorem 3.20, delta' = "
            "delta/2) they are (sqrt(2 c ln(2/delta)) eps_0 + c eps_0 (e^eps_0 - 1), "
            "delta/2)-DP.  Basic composition of the two parts gives (eps, delta)."
        ),
        variables=(EPS_SMALL, DELTA, C_WIDE),
        defs=((eps0, eps2 / sp.sqrt(32 * cs * log2d)),),
        family=FAMILY,
    )


DERIVATIONS = (privacy_pure, privacy_approx_seed, privacy_approx)
