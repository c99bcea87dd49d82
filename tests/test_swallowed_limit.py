"""A wall-time or CPU limit whose exception is swallowed fires again (numeric_checks.budget).

Python runs a signal's handler wherever the interpreter is: inside a garbage collector's
callback (Hypothesis installs one in every process that has run a property test) the
handler's exception is printed and dropped, and an inner bounded call's own ``except
BudgetSpent`` can catch the limit around it.  A limit that fired only once then left its
block unbounded: an interior-tie solve capped at 2 s ran 82 s in a test process."""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

import pytest

from numeric_checks.budget import BudgetSpent, cpu_limit, time_limit

LIMITS = [pytest.param(time_limit, id="wall"), pytest.param(cpu_limit, id="cpu")]


def _spin(cpu_seconds: float) -> None:
    start = time.process_time()
    while time.process_time() - start < cpu_seconds:
        pass


@pytest.mark.parametrize("limit", LIMITS)
def test_a_limit_caught_inside_its_block_fires_again(
    limit: Callable[[float], AbstractContextManager[None]],
) -> None:
    caught = False
    with pytest.raises(BudgetSpent), limit(0.05):
        try:
            _spin(5.0)
        except BudgetSpent:  # as an inner bounded call's handler does
            caught = True
        _spin(5.0)  # a one-shot limit let this run to its end: pytest.raises then fails
    assert caught


@pytest.fixture
def slow_collector_callback() -> Iterator[None]:
    """A garbage collector's callback that runs Python code long enough for a limit to
    fire inside it (Hypothesis's runs briefly, on every collection)."""

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            _spin(0.2)

    gc.callbacks.append(callback)
    try:
        yield
    finally:
        gc.callbacks.remove(callback)


@pytest.mark.parametrize("limit", LIMITS)
def test_a_limit_dropped_in_a_collector_callback_fires_again(
    limit: Callable[[float], AbstractContextManager[None]],
    slow_collector_callback: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    dropped: list[Any] = []
    monkeypatch.setattr(sys, "unraisablehook", dropped.append)
    with pytest.raises(BudgetSpent), limit(0.05):
        gc.collect()  # the limit fires in the callback; Python drops its exception
        assert dropped and dropped[0].exc_type is BudgetSpent
        _spin(5.0)
