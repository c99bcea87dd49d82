"""The named foundations' numeric sanity checks (issue 25): every foundation has one, it
holds on random instances drawn by Hypothesis, and a wrong version of each statement (its
mutant) is rejected."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from numeric_checks.foundations import MUTANTS, STATEMENTS, Comparison, find_violation
from symbolic.foundations import FOUNDATIONS

SLOW = {"approx-max-divergence-definition", "normal-rotation-invariance"}
"""Checks that enumerate 2^15 events or run a quadrature: fewer examples."""


def test_every_foundation_has_a_sanity_check_and_a_mutant() -> None:
    assert set(STATEMENTS) == set(FOUNDATIONS) == set(MUTANTS)


@pytest.mark.parametrize("name", sorted(set(FOUNDATIONS) - SLOW))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_foundation_holds_on_random_instances(name: str, seed: int) -> None:
    c = STATEMENTS[name](random.Random(seed))
    assert c.holds, (name, c)


@pytest.mark.parametrize("name", sorted(SLOW))
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_slow_foundation_holds_on_random_instances(name: str, seed: int) -> None:
    c = STATEMENTS[name](random.Random(seed))
    assert c.holds, (name, c)


@pytest.mark.parametrize("name", sorted(FOUNDATIONS))
def test_each_mutant_is_rejected(name: str) -> None:
    trials = 40 if name in SLOW else 200
    found = find_violation(MUTANTS[name], trials=trials, seed=7)
    assert found is not None, f"the mutant of {name} was not rejected in {trials} instances"
    assert not found.holds


def test_exact_comparisons_have_no_slack_and_float_ones_a_stated_one() -> None:
    assert not Comparison(Fraction(1, 3) + Fraction(1, 10**30), "<=", Fraction(1, 3), "").holds
    assert Comparison(1.0 + 1e-12, "=", 1.0, "").holds
    assert not Comparison(1.0 + 1e-6, "=", 1.0, "").holds
