"""Azuma's inequality and advanced composition.

* ``azuma-binomial``: Dwork & Roth 2014, Lemma 3.19 (seed 002), stated without proof in the
  seed and proved in the catalog as ``azuma-inequality`` (:mod:`derivations.concentration`);
  checked on the exact tail of a two-point martingale and, by the oracle, on a simulated
  adaptive martingale with a Clopper-Pearson bound.
* ``advanced-composition``: Dwork & Roth 2014, Theorem 3.20 (statement in seed 003; the proof
  follows the book): the privacy loss of each of the k rounds is at most eps in absolute value
  and has conditional mean at most beta = eps (e^eps - 1) (Lemma 3.18, ``kl-bound``), so
  Azuma's inequality (``azuma-inequality``) with z = sqrt(2 ln(1/delta')) bounds the total
  loss by eps' = sqrt(2 k ln(1/delta')) eps + k eps (e^eps - 1) except with probability
  delta'.  The chain: the probability that the loss exceeds eps' is at most Azuma's tail at
  the threshold eps', which is exactly delta'; the oracle checks
  the conclusion end to end against the optimal composition (Kairouz, Oh & Viswanath 2015):
  delta_opt(eps') <= k delta + delta'.  From the loss tail to (eps', k delta + delta')-DP
  (the ``bridge``): the definition of approximate max divergence, and
  ``approx-composition-cost`` (:mod:`derivations.approx_decomposition`), the mixture form of
  an (eps, delta)-DP round that the book's proof takes from Lemma 3.17.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import mpmath
import sympy as sp

from derivations.composition import basic_eps
from derivations.display import frac, product
from derivations.sources import DWORK_ROTH
from derivations.stated import cancelling_digits, stated
from derivations.symbols import EPS_EACH
from numeric_checks.dp.azuma import binomial_tail, simulate_adaptive
from numeric_checks.dp.composition import optimal_delta, optimal_eps
from numeric_checks.validate import check_nonnegative, check_probability, check_whole
from symbolic.derivation import Derivation, Oracle, OracleOutcome
from symbolic.domains import Domain, Variable, parse_domain
from symbolic.functions import NumericFunction
from symbolic.kit import by, chain

FAMILY = "Dwork & Roth, section 3.5: composition"


class BinomialTail(NumericFunction):
    """Exact Pr[sum C_i > k beta + z sqrt(k) alpha] for C_i i.i.d. in {beta - w, beta + w}."""

    nargs = 4
    impl = staticmethod(binomial_tail)
    latex_template = (
        r"\Pr\left[\textstyle\sum_{{i \le {0}}} C_i > {0} {2} + {3} "
        r"\sqrt{{{0}}}\, {1}\right]"
    )


def _azuma_oracle(values: Mapping[str, Any]) -> OracleOutcome:
    k = int(values["k"])
    if k > 500:
        return OracleOutcome(None, "simulation skipped above k = 500 (cost)")
    if abs(float(values["beta"])) >= float(values["alpha"]) * (1 - 1e-9):
        return OracleOutcome(None, "|beta| = alpha in double precision: no float simulation")
    r = simulate_adaptive(
        k, float(values["alpha"]), float(values["beta"]), float(values["z"]), runs=4000, seed=k
    )
    ok = None if r.lower <= r.bound else False
    if r.upper <= r.bound:
        ok = True
    return OracleOutcome(
        ok,
        f"adaptive martingale: {r.exceed}/{r.runs} runs past the "
        f"threshold, {r.confidence:.1%} upper bound "
        f"{mpmath.nstr(r.upper, 4)} vs exp(-z^2/2) = "
        f"{mpmath.nstr(r.bound, 4)}",
    )


def azuma_binomial() -> Derivation:
    """Lemma 3.19, stated in the seed without proof, on an exact two-point martingale."""
    k = Variable("k", parse_domain("Z in [1, 500]"), "number of steps", "k")
    alpha = Variable("alpha", parse_domain("(0, 10]"), "bound on |C_i|", r"\alpha")
    beta = Variable("beta", parse_domain("[-10, 10]"), "bound on the conditional means", r"\beta")
    z = Variable("z", parse_domain("(0, 8]"), "deviation in units of sqrt(k) alpha", "z")
    ks, a, b, zs = (v.symbol for v in (k, alpha, beta, z))
    proof = chain(BinomialTail(ks, a, b, zs)).le(
        sp.exp(-(zs**2) / 2),
        by.lemma(
            "azuma-inequality",
            "Azuma's inequality: each C_i lies in [-alpha, alpha] (w = alpha - |beta|) and has "
            "mean beta given the past",
        ),
    )
    return proof.derive(
        id="azuma-binomial",
        instance="on the two-point martingale C_i in {beta - w, beta + w} only",
        title="Azuma's inequality, on an exact martingale tail",
        source=DWORK_ROTH.at("Lemma 3.19 (stated without proof)", seed="002"),
        statement=(
            "If |C_i| <= alpha and E[C_i | C_1..C_{i-1}] <= beta, then "
            "Pr[sum C_i > k beta + z sqrt(k) alpha] <= exp(-z^2/2).  Checked on the "
            "two-point martingale C_i in {beta - w, beta + w}, w = alpha - |beta|."
        ),
        variables=(k, alpha, beta, z),
        hypotheses=(sp.StrictLessThan(sp.Abs(b), a),),
        oracle=Oracle(
            "azuma-adaptive-simulation",
            "Monte Carlo of an adaptive martingale (mean and spread depend on the "
            "running sum), 4000 runs, 99.9% Clopper-Pearson bound on the tail",
            _azuma_oracle,
            points=16,
        ),
        family=FAMILY,
    )


def _advanced_oracle(values: Mapping[str, Any]) -> OracleOutcome:
    k = int(values["k"])
    eps, delta, delta_p, eps_p = (values[n] for n in ("eps", "delta", "delta_p", "eps_prime"))
    d_opt = optimal_delta(k, eps, delta, eps_p)
    bound = k * delta + delta_p
    ok = d_opt <= bound * (1 + mpmath.mpf(10) ** (-(mpmath.mp.dps - 10)))
    return OracleOutcome(
        ok,
        f"optimal delta at eps' = {mpmath.nstr(eps_p, 8)}: "
        f"{mpmath.nstr(d_opt, 8)} vs k delta + delta' = "
        f"{mpmath.nstr(bound, 8)}",
        {"delta_opt": mpmath.nstr(d_opt, 20), "bound": mpmath.nstr(bound, 20)},
    )


K_ROUNDS = Variable("k", parse_domain("Z in [1, 10000]"), "number of mechanisms composed", "k")
DELTA_EACH = Variable(
    "delta",
    Domain(lower=sp.S.Zero, upper=sp.Rational(1, 100), upper_open=False, scale="log"),
    "delta of each mechanism",
    r"\delta",
)
DELTA_P = Variable(
    "delta_p",
    Domain(lower=sp.S.Zero, upper=sp.S.One, scale="log"),
    "failure probability of the privacy-loss bound",
    r"\delta'",
)

AZUMA_SHARE = Variable(
    "u",
    Domain(lower=sp.S.Zero, upper=sp.S.One, upper_open=False),
    "Pr[total privacy loss > eps'] as a share of Azuma's tail at eps' (at most 1 by "
    "azuma-inequality)",
    "u",
)
LOSS_TAIL = sp.Symbol("P", nonnegative=True)
"""Pr[total privacy loss > eps'], the privacy loss of the k rounds in the good event of each
round's (eps, delta)-DP: u times Azuma's tail at eps'."""


def _advanced_eps(ks: sp.Expr, es: sp.Expr, dps: sp.Expr) -> sp.Expr:
    """eps' = sqrt(2 k ln(1/delta')) eps + k eps (e^eps - 1) of Theorem 3.20."""
    return sp.sqrt(2 * ks * sp.log(1 / dps)) * es + ks * es * (sp.exp(es) - 1)


_ADVANCED_EPS = stated(
    (K_ROUNDS.symbol, EPS_EACH.symbol, DELTA_P.symbol),
    _advanced_eps(K_ROUNDS.symbol, EPS_EACH.symbol, DELTA_P.symbol),
    extra_digits=lambda k, eps, delta_p: cancelling_digits(eps),  # e^eps - 1
)


def advanced_eps(k: int, eps: Any, delta_prime: Any) -> Any:
    """Dwork & Roth 2014, Theorem 3.20: sqrt(2 k ln(1/delta')) eps + k eps (e^eps - 1), for
    k >= 1, eps >= 0 and delta' in (0, 1)."""
    k = check_whole("k", k)
    e = check_nonnegative("eps", eps)
    d = check_probability("delta'", delta_prime, open_ends="both")
    return _ADVANCED_EPS(k, e, d)


def comparison_rows(
    eps: Any = "0.1",
    delta_prime: Any = "1e-6",
    ks: tuple[int, ...] = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000),
) -> list[dict[str, Any]]:
    """k -> (basic, advanced, optimal) eps' for eps-DP mechanisms and failure delta': the two
    stated bounds against the exact optimum (Kairouz, Oh & Viswanath 2015)."""
    rows = []
    with mpmath.workdps(30):
        e = mpmath.mpf(eps)
        for k in ks:
            rows.append(
                {
                    "k": k,
                    "basic": basic_eps(k, e),
                    "advanced": advanced_eps(k, e, delta_prime),
                    "optimal": optimal_eps(k, e, delta_prime),
                }
            )
    return rows


def comparison_table(eps: str = "0.1", delta_prime: str = "1e-6") -> str:
    lines = [
        f"k-fold composition of {eps}-DP mechanisms, delta' = {delta_prime}: eps' by",
        f"  {'k':>6}  {'basic k eps':>12}  {'advanced (3.20)':>16}  {'optimal (KOV)':>14}  "
        "best of basic/advanced",
    ]
    for r in comparison_rows(eps, delta_prime):
        best = "basic" if r["basic"] <= r["advanced"] else "advanced"
        lines.append(
            f"  {r['k']:>6}  {mpmath.nstr(r['basic'], 6):>12}  "
            f"{mpmath.nstr(r['advanced'], 6):>16}  {mpmath.nstr(r['optimal'], 6):>14}  "
            f"{best}"
        )
    lines.append(
        "Advanced composition is worse than basic composition for small k; the optimal "
        "eps' is below both."
    )
    return "\n".join(lines)


def advanced_composition() -> Derivation:
    """Theorem 3.20: Azuma's tail at the threshold eps' is delta'."""
    k, eps, delta, delta_p = K_ROUNDS, EPS_EACH, DELTA_EACH, DELTA_P
    ks, es, dps = k.symbol, eps.symbol, delta_p.symbol
    alpha, beta = sp.Symbol("alpha", positive=True), sp.Symbol("beta", positive=True)
    eps_prime = sp.Symbol("eps_prime", positive=True)
    z_at = (eps_prime - ks * beta) / (sp.sqrt(ks) * alpha)
    # Built unevaluated: SymPy would collapse each intermediate form to delta' at once.
    z = frac(product(sp.sqrt(2 * ks * sp.log(1 / dps)), es), product(sp.sqrt(ks), es))
    half_square = sp.Mul(-1, sp.Pow(z, 2, evaluate=False), sp.Rational(1, 2), evaluate=False)
    log_inverse = sp.log(sp.Pow(dps, -1, evaluate=False), evaluate=False)
    proof = (
        chain(LOSS_TAIL)
        .le(
            sp.exp(-(z_at**2) / 2),
            by.lemma(
                "azuma-inequality",
                "the privacy losses C_i of the k rounds satisfy |C_i| <= alpha = eps and "
                "E[C_i | earlier rounds] <= beta (Lemma 3.18); eps' = k beta + z sqrt(k) alpha",
            ),
        )
        .eq(
            sp.exp(half_square, evaluate=False),
            by.lemma(
                "kl-bound",
                "eps' - k beta = sqrt(2 k ln(1/delta')) eps by the definition of eps', with "
                "beta = eps (e^eps - 1) from Lemma 3.18 and alpha = eps (each round's loss is "
                "at most eps in absolute value)",
            ),
        )
        .eq(
            sp.exp(sp.Mul(-1, log_inverse, evaluate=False), evaluate=False),
            by.algebra("(sqrt(2 k L) eps/(sqrt(k) eps))^2/2 = L"),
        )
        .eq(dps, by.algebra("exp(-ln(1/delta')) = delta'"))
    )
    return proof.derive(
        id="advanced-composition",
        title="Advanced composition",
        source=DWORK_ROTH.at("Theorem 3.20", seed="003"),
        statement=(
            "For all eps, delta, delta' >= 0, the k-fold adaptive composition of "
            "(eps, delta)-DP mechanisms is (eps', k delta + delta')-DP for "
            "eps' = sqrt(2 k ln(1/delta')) eps + k eps (e^eps - 1).  The chain: the "
            "probability that the total privacy loss exceeds eps' is at most Azuma's tail "
            "exp(-z^2/2) at the threshold k beta + z sqrt(k) alpha = eps', which equals "
            "delta'."
        ),
        variables=(k, eps, delta, delta_p, AZUMA_SHARE),
        defs=(
            (alpha, es),
            (beta, es * (sp.exp(es) - 1)),
            (eps_prime, _advanced_eps(ks, es, dps)),
            (LOSS_TAIL, AZUMA_SHARE.symbol * sp.exp(-(z_at**2) / 2)),
        ),
        oracle=Oracle(
            "optimal-composition",
            "delta of the optimal k-fold composition at eps' (Kairouz, Oh & "
            "Viswanath 2015) must be at most k delta + delta'",
            _advanced_oracle,
            points=40,
        ),
        family=FAMILY,
        appendix=comparison_table,
        # What carries the chain's bound on the loss tail to the theorem as the book states
        # it (Dwork & Roth, proof of Theorem 3.20): the chain itself now rests on
        # azuma-inequality; these two passages are not links of it, and rest on a foundation
        # and on catalog lemmas (approx-composition-cost, down to foundations).
        bridge=(
            by.foundation(
                "approx-max-divergence-definition",
                "a loss above eps' with probability at most delta' gives, for every event S, "
                "Pr[S] <= e^eps' Pr'[S] + delta' (split S where the loss is at most eps')",
            ),
            by.lemma(
                "approx-composition-cost",
                "an (eps, delta)-DP round is its eps-close good part except with probability "
                "delta (the mixture form of Dwork & Roth's Lemma 3.17 that the book's proof "
                "uses), so the k rounds cost k delta on top of delta'",
            ),
        ),
    )


DERIVATIONS = (azuma_binomial, advanced_composition)
