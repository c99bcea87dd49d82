"""Docstring examples are tests: run every module's doctests."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import derivations
import numeric_checks
import symbolic

MODULES = sorted(
    m.name
    for pkg in (symbolic, numeric_checks, derivations)
    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + ".")
    if not m.name.endswith("__main__")
)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_every_package_has_modules() -> None:
    assert {"symbolic.readers.syntax", "numeric_checks.bridge", "derivations.app.cli"} <= set(
        MODULES
    )
