"""Inequalities users bring (``tests/claims/user/``, typed from DP and probability papers):
each true claim is proved or certified through the whole engine, and its mutant (one
constant changed) is refuted.  ``bench/user_steps.py`` times the same set."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from numeric_checks import CheckOptions, check_claim
from symbolic.readers.claim_files import parse_claim

from .conftest import CLAIMS

USER = CLAIMS / "user"

# The new side of each mutant: one constant of the claim changed so that it is false.
MUTANTS: dict[str, tuple[str, str]] = {
    "tanh_cubic": ("rhs", "x - x**3/4"),
    "cosh_subgaussian": ("rhs", "exp(s**2/3)"),
    "bernstein_h": ("rhs", "x**2/(2 + x/3)"),
    "rr_variance": ("rhs", "1/(5*n*(2*p - 1)**2)"),
    "expm1_above": ("rhs", "11*eps/10"),
    "lam_quarter": ("rhs", "1/5"),
    "sqrt_log_delta": ("rhs", "sqrt(eps + log(1/delta)) - 1/10"),
    "square_log_delta": ("rhs", "x + 1/10"),
    "amplification_linear": ("rhs", "9*q*(exp(eps) - 1)/10"),
    "amplification_below_eps": ("rhs", "9*eps/10"),
    "pure_to_zcdp": ("rhs", "eps**2"),
    "rdp_to_zcdp_amgm": ("rhs", "rho + 3*sqrt(rho*L)"),
    "kl_bernoulli_nonneg": ("rhs", "1/100"),
    "kl_bernoulli_chi2": ("rhs", "(p - q)**2/(4*q*(1 - q))"),
    "pinsker_bernoulli": ("rhs", "3*(p - q)**2"),
    "laplace_mgf_bound": ("rhs", "exp(b**2*t**2/2)"),
    "exp_second_order": ("rhs", "1 + eps + eps**2"),
    "group_privacy_linear": ("rhs", "1 + 2*k*eps"),
    "log1p_cubic_upper": ("rhs", "x - x**2/2 + x**3/4"),
    "log1p_quadratic_lower": ("rhs", "x - x**2/3"),
    "neg_log_one_minus_q": ("rhs", "9*q/(10*(1 - q))"),
    "log_inverse_one_minus_q": ("rhs", "11*q/10"),
    "exp_minus_eps": ("rhs", "1 - 9*eps/10"),
    "rr_kl_tanh": ("rhs", "eps**2/3"),
    "amgm_hellinger": ("rhs", "(p + q)/3"),
    "bhattacharyya_two_point": ("rhs", "9/10"),
    "laplace_tail_markov": ("rhs", "b/(3*t)"),
    "rr_tanh_half": ("rhs", "eps/3"),
    "bernoulli_variance_n": ("rhs", "1/(5*n)"),
    "log1p_over": ("lhs", "eps/(1 + eps/3)"),
    "log1p_below": ("rhs", "9*eps/10"),
    "one_minus_exp_neg": ("rhs", "9*eps/10"),
    "exp_chord_unit": ("rhs", "1 + 3*eps/2"),
    "advanced_composition_term": ("rhs", "3*eps**2/2"),
    "geometric_variance": ("rhs", "19/(10*eps**2)"),
    "bernstein_mgf": ("rhs", "1 + x + x**2/(2*(1 - x/4))"),
    "gaussian_chernoff_tail": ("rhs", "exp(-x**2/2)/3"),
    "log_cosh_quadratic": ("rhs", "s**2/3"),
    "rdp_gaussian_conversion": ("rhs", "2/sigma**2"),
    "zcdp_eps_bound": ("rhs", "3*sqrt(rho*log(1/delta))"),
    "hockey_stick_pure": ("rhs", "-1/10"),
    "tv_of_pure_dp": ("rhs", "9/10"),
    # Sides touching along a line: the second-order derivative rule (symbolic/rules/tangency.py).
    "hoeffding_two_point": ("rhs", "exp(m*s + s**2/4)"),
    "bernoulli_mgf": ("rhs", "exp(s**2/9)"),
    "cosh_scaled": ("rhs", "exp(a**2*s**2/3)"),
    "logsumexp_pair": ("rhs", "(a + b)/2 + (a - b)**2/9"),
    "pinsker_two_sided": ("rhs", "5*(p - q)**2/2"),
    "rr_mgf_mean": ("rhs", "exp((2*p - 1)*s + s**2/3)"),
    # Certified on the whole domain: a core box by Arb, the tails proved (numeric_checks.tails).
    "bounded_log_decay": ("rhs", "2/5"),
    "bounded_log_decay_rate": ("rhs", "2/5"),
    "entropy_term_lower": ("rhs", "-1/3"),
    "log_gauss_bump": ("rhs", "6/10"),
    "log_slow_decay": ("rhs", "7/5"),
    "log1p_below_sqrt": ("rhs", "3*sqrt(x)/4"),
    # Chords of convex and concave functions (symbolic/rules/chords.py) and their kin.
    "amplification_small_eps": ("rhs", "3*q*eps/2"),
    "amplification_lower_chord": ("rhs", "11*q*eps/10"),
    "exp_chord_tight": ("rhs", "1 + 17*eps/10"),
    "expm1_chord_interval": ("rhs", "(exp(c) - 1)*eps/(2*c)"),
    "one_minus_exp_chord": ("rhs", "11*(1 - exp(-1))*eps/10"),
    "log1p_chord": ("rhs", "7*x/10"),
    "rr_advantage_chord": ("rhs", "eps/2"),
    "tanh_chord": ("rhs", "4*x/5"),
    "hoeffding_convexity": ("rhs", "(1 - x)/2*exp(-s) + (1 + x)/2*exp(9*s/10)"),
    "drv_expected_loss": ("rhs", "3*eps**2/2"),
    "log1p_topsoe": ("rhs", "x/(1 + x/3)"),
    "expm1_mean_value": ("rhs", "9*eps*exp(eps)/10"),
}
# Claims the engine leaves checked, honestly (none since the geometric mechanism's variance
# is proved with its positive denominator cleared: symbolic/rules/beyond.py).
CHECKED_ONLY: set[str] = set()
NAMES = sorted(p.stem for p in USER.glob("*.toml"))
OPTIONS = CheckOptions(points=60, search_budget=60, budget=120.0)


def test_every_user_claim_has_a_mutant_and_there_are_enough() -> None:
    assert set(NAMES) == set(MUTANTS)
    assert len(NAMES) >= 30


@pytest.mark.parametrize("name", NAMES)
def test_true_user_claim_is_proved_or_certified(name: str) -> None:
    result = check_claim(parse_claim((USER / f"{name}.toml").read_text(), name=name), OPTIONS)
    wanted = {"checked"} if name in CHECKED_ONLY else {"proved", "certified"}
    assert result.verdict.value in wanted, result.evidence


def mutant_text(name: str) -> str:
    side, value = MUTANTS[name]
    text = (USER / f"{name}.toml").read_text()
    new, count = re.subn(rf'^{side} = ".*"$', f'{side} = "{value}"', text, flags=re.M)
    assert count == 1
    return new


@pytest.mark.parametrize("name", NAMES)
def test_mutant_of_user_claim_is_refuted(name: str) -> None:
    result = check_claim(parse_claim(mutant_text(name), name=name), OPTIONS)
    assert result.verdict.value == "refuted", result.evidence
    assert result.counterexample is not None


def test_user_claims_directory_is_where_the_bench_reads() -> None:
    assert Path(USER).is_dir()
