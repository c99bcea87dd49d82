"""The named foundations: what the catalog builds on without proving it.

A derivation's verdict rests on its own steps, on the catalog lemmas it cites and, at the
bottom, on a short list of results that every textbook takes as given: the axioms of
probability as they are used in proofs, the definitions of the divergences, and a few
classical facts (Jensen's inequality for a stated convex function, the Neyman-Pearson lemma,
rotation invariance of the standard normal).  The list is short on purpose: a result whose
proof in the books runs to a page belongs in the catalog as a derivation, not here.

A step rests on a foundation by ``Justification(kind=JustificationKind.FOUNDATION,
foundation=NAME)`` (the kit's ``by.foundation(NAME)``, a proof file's
``by = "foundation:NAME"``); an unknown name is bad input.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FOUNDATIONS", "Foundation", "foundation"]


@dataclass(frozen=True)
class Foundation:
    """One named foundation: its statement in words and symbols, and where it is stated."""

    name: str
    statement: str
    source: str


def _f(name: str, statement: str, source: str) -> tuple[str, Foundation]:
    return name, Foundation(name, statement, source)


FOUNDATIONS: dict[str, Foundation] = dict(
    [
        _f(
            "union-bound",
            "Pr[A_1 or ... or A_k] <= Pr[A_1] + ... + Pr[A_k] for any events",
            "Kolmogorov's axioms (countable subadditivity); e.g. Mitzenmacher & Upfal 2017, "
            "Lemma 1.2",
        ),
        _f(
            "total-probability",
            "Pr[A] = sum_j Pr[A | B_j] Pr[B_j] for a partition B_1, ..., B_m",
            "law of total probability; e.g. Mitzenmacher & Upfal 2017, Theorem 1.6",
        ),
        _f(
            "tower-property",
            "E[Y E[X | F]] = E[Y X] for Y determined by F (pulling out what is known; with "
            "Y = 1, E[E[X | F]] = E[X])",
            "conditional expectation; e.g. Williams 1991, Probability with Martingales, "
            "Section 9.7",
        ),
        _f(
            "linearity-of-expectation",
            "E[X_1 + ... + X_k] = E[X_1] + ... + E[X_k] whenever the expectations exist",
            "e.g. Mitzenmacher & Upfal 2017, Theorem 2.1",
        ),
        _f(
            "markov-inequality",
            "Pr[X >= a] <= E[X]/a for a nonnegative random variable X and a > 0",
            "Markov's inequality; e.g. Mitzenmacher & Upfal 2017, Theorem 3.1",
        ),
        _f(
            "independence-product",
            "Pr[A and B] = Pr[A] Pr[B] and E[XY] = E[X] E[Y] for independent A, B and X, Y",
            "definition of independence; e.g. Mitzenmacher & Upfal 2017, Definition 1.3 and "
            "Theorem 3.3",
        ),
        _f(
            "jensen-convex",
            "f(E[X]) <= E[f(X)] for a convex f (the step names f and why it is convex)",
            "Jensen's inequality; e.g. Cover & Thomas 2006, Theorem 2.6.2",
        ),
        _f(
            "neyman-pearson",
            "among tests of P against Q with type I error at most alpha, the likelihood-ratio "
            "test has the least type II error",
            "Neyman & Pearson 1933; Dong, Roth & Su 2022, Lemma 2 (trade-off functions)",
        ),
        _f(
            "normal-rotation-invariance",
            "if Z ~ N(0, I_n) and U is orthogonal then UZ ~ N(0, I_n); so <v, Z> ~ N(0, |v|^2)",
            "e.g. Vershynin 2018, Proposition 3.3.2; Dong, Roth & Su 2022, proof of Theorem 3",
        ),
        _f(
            "kl-divergence-definition",
            "D(P||Q) = sum_y P(y) log(P(y)/Q(y)) (an integral for densities)",
            "Cover & Thomas 2006, Definition 2.26; Dwork & Roth 2014, Definition 3.5",
        ),
        _f(
            "max-divergence-definition",
            "D_inf(P||Q) = max_y log(P(y)/Q(y)); eps-DP is D_inf <= eps both ways",
            "Dwork & Roth 2014, Definition 3.6",
        ),
        _f(
            "approx-max-divergence-definition",
            "D_inf^delta(P||Q) = max over events S with P(S) >= delta of log((P(S) - delta)/Q(S))",
            "Dwork & Roth 2014, Definition 3.6",
        ),
        _f(
            "tradeoff-function-definition",
            "T(P, Q)(alpha) = inf { beta_phi : alpha_phi <= alpha } over rejection rules phi",
            "Dong, Roth & Su 2022, Definition 2.1",
        ),
    ]
)


def foundation(name: str) -> Foundation | None:
    """The foundation called ``name`` (case and spaces ignored), or ``None``."""
    return FOUNDATIONS.get(name.strip().lower().replace(" ", "-").replace("_", "-"))
