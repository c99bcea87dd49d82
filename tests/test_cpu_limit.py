"""The symbolic stage's cap counts work, not wall time (numeric_checks.budget.cpu_limit), so
that a proof found on a quiet machine is found on a busy one."""

from __future__ import annotations

import time

import pytest

from numeric_checks.budget import BudgetSpent, cpu_limit, deadline, work_limit


def _spin(cpu_seconds: float) -> None:
    start = time.process_time()
    while time.process_time() - start < cpu_seconds:
        pass


def test_waiting_is_not_work() -> None:
    """A block that sleeps (as a process starved of CPU by the load does) is not stopped."""
    with cpu_limit(0.05):
        time.sleep(0.3)


def test_work_past_the_cap_is_stopped() -> None:
    with pytest.raises(BudgetSpent), cpu_limit(0.1):
        _spin(10.0)


def test_a_nested_cap_ends_no_later_than_the_outer_one_and_hands_back_its_rest() -> None:
    caught = False
    with pytest.raises(BudgetSpent), cpu_limit(0.3):
        try:
            with cpu_limit(60.0):  # capped at the outer 0.3 s
                _spin(0.1)
                _spin(10.0)
        except BudgetSpent:
            caught = True
        _spin(10.0)  # the outer cap fires at once: its time is spent
    assert caught


def test_an_inner_cap_that_ends_leaves_the_outer_one_running() -> None:
    with cpu_limit(5.0):
        with pytest.raises(BudgetSpent), cpu_limit(0.05):
            _spin(10.0)
        _spin(0.1)  # within the outer 5 s: no exception


def test_a_call_cap_counts_work_and_keeps_the_deadline() -> None:
    """``work_limit``, the cap of one SymPy call (exact evaluation, doit, solve): waiting is
    not work, work past the cap is stopped, and the wall-clock deadline of the whole claim
    still ends it first."""
    with work_limit(0.05):
        time.sleep(0.3)
    with pytest.raises(BudgetSpent), work_limit(0.1):
        _spin(10.0)
    with deadline(0.1), pytest.raises(BudgetSpent), work_limit(60.0):
        time.sleep(5.0)
