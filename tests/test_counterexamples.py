"""A shown counterexample is a real one: the numbers a user reads, parsed back, lie in every
domain, satisfy every hypothesis and violate the claim (issue: alpha = 1.0 was shown for
alpha in (1, 50])."""

from __future__ import annotations

import mpmath
import pytest

from numeric_checks import CheckOptions, check_claim
from symbolic.readers.claim_files import parse_claim

OPTIONS = CheckOptions(points=40, search_budget=50)


def _claim(lhs: str, relation: str, rhs: str, variables: dict[str, str]) -> str:
    decls = "\n".join(f'{k} = "{v}"' for k, v in variables.items())
    return f'[claim]\nlhs = "{lhs}"\nrelation = "{relation}"\nrhs = "{rhs}"\n[variables]\n{decls}\n'


@pytest.mark.parametrize(
    ("text", "name", "low", "high"),
    [
        # false only within 1e-20 of the open end alpha = 1
        (_claim("1/(alpha - 1)", "<=", "10**20", {"alpha": "(1, 50]"}), "alpha", 1, 50),
        # false only within 1e-25 of the open end delta = 1
        (_claim("1/(1 - delta)", "<", "10**25", {"delta": "(0, 1)"}), "delta", 0, 1),
    ],
)
def test_a_counterexample_near_an_open_end_is_shown_inside_the_domain(
    text: str, name: str, low: int, high: int
) -> None:
    d = parse_claim(text)
    result = check_claim(d, OPTIONS)
    assert result.verdict.value == "refuted", result.evidence
    cex = result.counterexample
    assert cex is not None
    with mpmath.workdps(60):
        shown = mpmath.mpf(cex.point[name])
        assert low < shown < high, cex.point  # strictly inside the open ends, as shown
        lhs = 1 / (shown - 1) if name == "alpha" else 1 / (1 - shown)
        bound = mpmath.mpf(10) ** (20 if name == "alpha" else 25)
        assert lhs > bound  # and the shown point itself violates the claim


def test_a_simple_counterexample_is_still_shrunk() -> None:
    d = parse_claim(_claim("x**2", "<=", "x", {"x": "(0, 10)"}))
    cex = check_claim(d, OPTIONS).counterexample
    assert cex is not None and cex.point == {"x": "2"}


def test_a_point_its_digits_cannot_write_is_shrunk_to_one_they_can() -> None:
    """``Sum(1, (k, 1, x)) = x`` on [1, 5] fails just below 5, at ``5 - 2**-100``, which 30
    digits print as ``5.0``, where it holds: that point counted as simple as ``5`` and
    nothing replaced it ("counterexample at x = 5.0: lhs = 4.0").  Rounded down it is
    ``4.9``, a counterexample as shown."""
    d = parse_claim(_claim("Sum(1, (k, 1, x))", "=", "x", {"x": "[1, 5]"}))
    result = check_claim(d, CheckOptions())
    cex = result.counterexample
    assert cex is not None and result.verdict.value == "refuted"
    shown = mpmath.mpf(cex.point["x"])
    assert shown != mpmath.floor(shown), cex.point  # not an integer: it fails there
    assert "not re-verified as shown" not in cex.note, cex.note
