"""Comparisons checked at their crossover and definitions checked against their uses (issue
44): the two experiments behind them refute what fails, with both sides printed, and let
what holds stand; a mutant that moves a side is caught."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest

from derivations.audit.experiments import recheck, run
from derivations.audit.experiments.crossover import crossover_of

SECOND_TERM: dict[str, Any] = {
    "small": "k*eps*(exp(eps) - 1)",
    "large": "sqrt(2*k*log(1/delta_p))*eps",
    "solve": "k",
    "at": {"eps": "1/100000", "delta_p": "1/1000000"},
    "range": ["1", "1e15"],
    "integer": True,
}
CLASSICAL_GAUSS: dict[str, Any] = {
    "small": "Phi(-sqrt(2*log(5/(4*delta))) + eps/(2*sqrt(2*log(5/(4*delta)))))"
    " - exp(eps)*Phi(-sqrt(2*log(5/(4*delta))) - eps/(2*sqrt(2*log(5/(4*delta)))))",
    "large": "delta",
    "solve": "eps",
    "at": {"delta": "1/100000"},
    "range": ["1", "10"],
}


def test_the_second_term_is_checked_at_its_crossover() -> None:
    """'For small eps the second term can be ignored': the terms meet at
    k = 2 ln(1/delta')/(e^eps - 1)^2 = 2.763e11 at eps = 1e-5, delta' = 1e-6 (SymPy), and
    past it the second term is the larger, by Arb."""
    found = crossover_of(SECOND_TERM)
    assert found is not None
    expected = 2 * math.log(10**6) / math.expm1(1e-5) ** 2
    assert found[1] == pytest.approx(expected, rel=1e-9) and "SymPy" in found[0]
    result = run("crossover", SECOND_TERM)
    assert result.verdict.value == "refuted"
    k = result.point["k"]
    assert expected < k < 1.01 * expected and k.denominator == 1
    # both sides' magnitudes are printed, past the crossover and before it
    assert result.evidence.count(" = ") >= 6 and "below it it holds" in result.evidence
    assert str(k) in result.evidence
    # the refutation rechecks exactly (SymPy, 60 digits), and just before the crossover holds
    assert recheck("crossover", SECOND_TERM, [], result.point) is False
    before = dict(result.point, k=Fraction(math.floor(expected)))
    assert recheck("crossover", SECOND_TERM, [], before) is True


def test_a_box_that_stops_before_the_crossover_cannot_refute() -> None:
    """The old check (k <= 10^6) never reaches the crossover: checked there, with both ends
    printed; the comparison is only refuted when the range contains the crossover."""
    boxed = dict(SECOND_TERM, range=["1", "1000000"])
    result = run("crossover", boxed)
    assert result.verdict.value == "checked" and "do not meet" in result.evidence


def test_a_mutant_that_doubles_the_large_side_moves_the_crossover() -> None:
    """Mutation: with twice the first term the crossover is 4 times further out."""
    base = crossover_of(SECOND_TERM)
    doubled = crossover_of(dict(SECOND_TERM, factor="2"))
    assert base is not None and doubled is not None
    assert doubled[1] == pytest.approx(4 * base[1], rel=1e-9)


def test_a_comparison_that_fails_below_its_crossover() -> None:
    """'Advanced composition is better than k eps' fails for every k below
    2 ln(1/delta')/(2 - e^eps)^2 = 28.19 (eps = 1/100, delta' = 1e-6): refuted at k = 28."""
    params = {
        "small": "sqrt(2*k*log(1/delta_p))*eps + k*eps*(exp(eps) - 1)",
        "large": "k*eps",
        "solve": "k",
        "at": {"eps": "1/100", "delta_p": "1/1000000"},
        "range": ["1", "1e9"],
        "integer": True,
        "fails": "below",
    }
    expected = 2 * math.log(10**6) / (2 - math.exp(0.01)) ** 2
    result = run("crossover", params)
    assert result.verdict.value == "refuted" and result.point["k"] == math.floor(expected)
    assert recheck("crossover", params, [], result.point) is False
    assert recheck("crossover", params, [], dict(result.point, k=Fraction(29))) is True
    # read as failing above the crossover, Arb finds no failure there: not refuted
    assert run("crossover", dict(params, fails="above")).verdict.value == "undecided"


def test_the_classical_gaussian_calibration_fails_from_eps_8_42_at_delta_1e_5() -> None:
    """No closed form: the crossover is bracketed by Arb signs (8.4198, as computed
    independently with mpmath below), and the refuting point is realistic (eps <= 10)."""
    import mpmath

    with mpmath.workdps(30):
        c = mpmath.sqrt(2 * mpmath.log(mpmath.mpf(5) / 4 * 10**5))

        def profile(e: Any) -> Any:
            return mpmath.ncdf(-c + e / (2 * c)) - mpmath.exp(e) * mpmath.ncdf(-c - e / (2 * c))

        root = mpmath.findroot(lambda e: profile(e) - mpmath.mpf(10) ** -5, 8.4)
    found = crossover_of(CLASSICAL_GAUSS)
    assert found is not None and "certified by Arb" in found[0]
    assert found[1] == pytest.approx(float(root), abs=1e-6)
    result = run("crossover", CLASSICAL_GAUSS)
    assert result.verdict.value == "refuted"
    assert Fraction(8, 1) < result.point["eps"] <= Fraction(10)
    assert recheck("crossover", CLASSICAL_GAUSS, [], result.point) is False
    assert recheck(
        "crossover", CLASSICAL_GAUSS, [], {"delta": Fraction(1, 10**5), "eps": Fraction(8)}
    )


USE = "Phi(-eps/mu + mu/2) - exp(eps)*Phi(-eps/mu - mu/2)"


@pytest.mark.parametrize(
    ("definition", "verdict"),
    [
        ("(1 + erf((x - mu)/(sigma*sqrt(2))))/2", "refuted"),  # the seed's, with mu, sigma
        ("(1 + erf(x/sqrt(2)))/2", "checked"),  # the standard CDF
        ("(1 + erf(x/2))/2", "refuted"),  # a mutant: the wrong scale
    ],
    ids=["seed", "standard", "mutant"],
)
def test_a_definition_is_checked_against_its_use(definition: str, verdict: str) -> None:
    """Seed 004 defines Phi with a mean and a variance where delta(eps) of 4.5 uses the
    standard normal CDF: substituted into that use it gives another number."""
    params = {
        "name": "Phi",
        "arg": "x",
        "definition": definition,
        "use": USE,
        "variables": ["eps", "mu", "sigma"],
        "points": [{"eps": "1", "mu": "1", "sigma": "1"}, {"eps": "1/2", "mu": "3", "sigma": "2"}],
    }
    result = run("definition-in-use", params)
    assert result.verdict.value == verdict
    if verdict == "refuted":
        assert "with the seed's definition" in result.evidence and "as meant" in result.evidence
        assert recheck("definition-in-use", params, [], result.point) is False
