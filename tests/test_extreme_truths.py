"""Issue 23: true claims at extreme points are never refuted by the evaluator's own errors.

The corpus in ``tests/claims/extreme`` holds identities and inequalities that are true
everywhere on their domains and that a fixed-precision or windowed evaluation gets wrong
somewhere (series at 1e30, a logistic's complement at 1e12, log1p/expm1 forms at 1e-40 and
1e40, (1 + 1/n)^n at n = 10^40, binomial sums at k = 10^6, Gaussian tails at 40 sigma,
products of small factors, definitions that cancel).  None may be refuted; most are proved.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from numeric_checks import CheckOptions, check_claim
from symbolic.readers.claim_files import load_claim
from symbolic.report import StepResult
from symbolic.verdicts import Verdict

from .conftest import CLAIMS

EXTREME = sorted((CLAIMS / "extreme").glob("*.toml"))
OPTIONS = CheckOptions(points=40, search_budget=20, budget=60)
_RESULTS: dict[str, StepResult] = {}


def _check(path: Path) -> StepResult:
    if path.stem not in _RESULTS:
        _RESULTS[path.stem] = check_claim(load_claim(path), OPTIONS)
    return _RESULTS[path.stem]


def test_the_corpus_is_large_enough() -> None:
    assert len(EXTREME) >= 25


@pytest.mark.parametrize("path", EXTREME, ids=lambda p: p.stem)
def test_a_true_claim_at_extreme_points_is_not_refuted(path: Path) -> None:
    result = _check(path)
    assert result.verdict is not Verdict.REFUTED, result.evidence
    assert result.counterexample is None


def test_most_of_the_corpus_is_proved() -> None:
    verdicts = [_check(p).verdict for p in EXTREME]
    proved = sum(v is Verdict.PROVED for v in verdicts)
    assert proved > len(verdicts) / 2, verdicts
