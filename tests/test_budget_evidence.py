"""Every budget ends with evidence (issue 40).

* False variants of the advanced composition bound, written against the exact optimal
  composition of Kairouz, Oh & Viswanath (2015) with ``k`` unbounded, each wrong by one
  constant or term, are refuted (a confirmed counterexample) within the default budget; so
  are NumericSparse accuracy bounds (Dwork & Roth 2014, Theorem 3.28) with one term dropped.
  The true forms are not refuted.
* A run stopped by its budget has evaluated at least one point or says why none could be,
  with the cost of the cheapest; its evidence names the points tried, their cost, the
  smallest margin and the point nearest to failing, in text and in ``claim --json``.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import mpmath
import pytest
import sympy as sp

from derivations.printing.json import claim_json
from numeric_checks.check import check_claim
from numeric_checks.plan import CheckOptions
from numeric_checks.point_cost import CostModel, describe_cost
from symbolic.readers.claim_files import load_claim
from symbolic.verdicts import Verdict

CLAIMS = Path(__file__).parent / "claims" / "budget"
ADVANCED_FALSE = sorted(CLAIMS.glob("advanced_*_false.toml"))
SPARSE_FALSE = sorted(CLAIMS.glob("sparse_*_false.toml"))


@pytest.fixture(autouse=True)
def _big_ints() -> None:
    sys.set_int_max_str_digits(0)  # as the command line does (huge exact values)


def test_the_families_are_large_enough() -> None:
    assert len(ADVANCED_FALSE) >= 10
    assert len(SPARSE_FALSE) >= 5


@pytest.mark.parametrize("path", ADVANCED_FALSE + SPARSE_FALSE, ids=lambda p: p.stem)
def test_false_variant_is_refuted_with_a_confirmed_counterexample(path: Path) -> None:
    result = check_claim(load_claim(path), CheckOptions())
    assert result.verdict is Verdict.REFUTED, result.evidence
    assert result.counterexample is not None
    assert "confirmed" in result.evidence


def test_true_numeric_sparse_bound_is_not_refuted() -> None:
    result = check_claim(load_claim(CLAIMS / "sparse_true.toml"), CheckOptions())
    assert result.verdict is not Verdict.REFUTED, result.evidence


def test_true_advanced_composition_is_not_refuted_on_what_a_short_budget_reaches() -> None:
    # The full run (about 30 s, `checked`) is in bench/budget.py; here the points a short
    # budget reaches, with no proof attempt, must show no violation.
    d = load_claim(CLAIMS / "advanced_true.toml")
    result = check_claim(d, CheckOptions(budget=3.0, symbolic=False, certify=False))
    assert result.verdict is not Verdict.REFUTED, result.evidence
    assert result.numeric is not None and result.numeric.points >= 1


def test_a_run_stopped_by_its_budget_has_evaluated_points_and_says_what_it_did() -> None:
    d = load_claim(CLAIMS / "advanced_true.toml")
    result = check_claim(d, CheckOptions(budget=1.0))
    assert result.verdict is Verdict.UNDECIDED
    n = result.numeric
    assert n is not None
    assert n.stopped.startswith("stopped by the budget")
    # At least one point evaluated, or the reason none was, with the cheapest cost.
    assert n.points >= 1 or "cheapest point left would cost" in n.stopped
    if n.points >= 1:
        assert n.nearest_point and set(n.nearest_point) == {"k", "eps", "dp"}
        assert n.tried >= n.points and n.cost.startswith("about")
    text = result.evidence
    assert "budget spent" in text and "point(s) tried" in text
    data = claim_json("s", result)
    assert data["points"] == n.points  # the old fields keep their meaning
    assert data["sampling"]["stopped"] == n.stopped
    assert data["sampling"]["tried"] == n.tried
    assert data["sampling"]["nearest_point"] == (dict(n.nearest_point or {}) or None)
    assert json.loads(json.dumps(data)) == data


def test_a_run_with_no_time_at_all_says_why_no_point_was_evaluated() -> None:
    d = load_claim(CLAIMS / "advanced_true.toml")
    result = check_claim(d, CheckOptions(budget=1e-9, symbolic=False, certify=False))
    n = result.numeric
    assert result.verdict is Verdict.UNDECIDED
    assert n is not None and n.points == 0
    assert "before any point was evaluated; the cheapest point left would cost about" in n.stopped


def test_a_run_that_finishes_reports_no_stop() -> None:
    result = check_claim(load_claim(CLAIMS / "sparse_true.toml"), CheckOptions())
    assert result.numeric is not None and result.numeric.stopped == ""
    assert result.numeric.tried >= result.numeric.points


def test_cost_of_a_point_is_the_length_of_its_sums() -> None:
    k, j, x = sp.symbols("k j x", positive=True)
    model = CostModel((k, x), (sp.Sum(x**j, (j, 0, k)) + sp.Sum(x, (j, 1, 10)),))
    assert model.varies
    cheap = model.cost((mpmath.mpf(3), mpmath.mpf(1)))
    costly = model.cost((mpmath.mpf(10**6), mpmath.mpf(1)))
    assert cheap == 1 + 10 + 4
    assert costly == 1 + 10 + 10**6 + 1
    assert describe_cost(costly) == "about 1e+06 terms"
    assert describe_cost(math.inf) == "an unbounded number of terms"
    assert not CostModel((x,), (sp.exp(x),)).varies
