"""A strict relation whose sides meet inside the domain (numeric_checks.interior_ties): the
tie is refuted only at a point decided exactly, never on SymPy's word for a root."""

from __future__ import annotations

import sympy as sp
from pytest import MonkeyPatch

from numeric_checks import CheckOptions, check_claim, interior_ties
from symbolic.derivation import Derivation
from symbolic.readers.claim_files import parse_claim
from symbolic.verdicts import Verdict

OPTIONS = CheckOptions(points=40, search_budget=60)

NEAR_TIE = """
[claim]
lhs = "x*exp(-x)"
relation = "<"
rhs = "exp(-1) + 10**(-30)"
[variables]
x = "(0, 3)"
"""


def _claim(text: str) -> Derivation:
    return parse_claim(text, "near_tie.toml")


def test_a_root_where_the_sides_do_not_meet_refutes_nothing(monkeypatch: MonkeyPatch) -> None:
    """x = 1 is where x e^-x is largest, 1e-30 below the right side: a solver that called
    it a root (or a root rounded there) must not make the true claim refuted."""
    asked: list[sp.Expr] = []

    def fake_roots(equation: sp.Expr, x: sp.Symbol, positive: bool = False) -> list[sp.Expr]:
        asked.append(equation)
        return [sp.Integer(1), sp.Integer(5), sp.Rational(-1, 2)]  # near tie, outside, outside

    monkeypatch.setattr(interior_ties, "_roots", fake_roots)
    result = check_claim(_claim(NEAR_TIE), OPTIONS)
    assert asked, "the tie search did not run on a near tie"
    assert result.verdict is not Verdict.REFUTED, result.evidence


def test_the_same_claim_without_its_lift_is_refuted_at_the_peak() -> None:
    """The mutant: without the 1e-30 the sides meet at x = 1 and the claim is false."""
    result = check_claim(_claim(NEAR_TIE.replace(" + 10**(-30)", "")), OPTIONS)
    assert result.verdict is Verdict.REFUTED, result.evidence
    assert result.counterexample is not None
    assert result.counterexample.point == {"x": "1"}


def test_a_non_strict_relation_is_never_refuted_by_a_tie(monkeypatch: MonkeyPatch) -> None:
    called: list[object] = []
    monkeypatch.setattr(interior_ties, "_roots", lambda e, x, *_: called.append(e) or [])
    result = check_claim(_claim(NEAR_TIE.replace('"<"', '"<="')), OPTIONS)
    assert result.verdict is not Verdict.REFUTED
    assert not called


def test_solve_is_given_what_it_can_take() -> None:
    """``Max``/``Min`` as ``Piecewise`` (solve refuses them), and a positive variable as
    positive (solve refuses ``|log(x) - 1| = 0`` for a real ``x``)."""
    x = sp.Symbol("x", real=True)
    kink = sp.Max(x - sp.sqrt(2), sp.sqrt(2) - x)
    assert interior_ties._roots(kink, x) == [sp.sqrt(2)]
    assert interior_ties._roots(sp.Abs(sp.log(x) - 1), x, positive=True) == [sp.E]
    assert interior_ties._roots(sp.Abs(sp.log(x) - 1), x) == []  # refused, never a guess


def test_the_nearest_approach_includes_the_search() -> None:
    """The draws come no nearer than a few tenths of a percent to the kink at sqrt(2); the
    search climbs closer, and that is what the evidence reports and the tie search starts
    from."""
    text = """
[claim]
lhs = "Piecewise((x/sqrt(2), x < sqrt(2)), (2 - x/sqrt(2), True))"
relation = "<="
rhs = "1"
[variables]
x = "(0, 2)"
"""
    drawn, searched = (
        check_claim(_claim(text), CheckOptions(points=40, search_budget=budget))
        for budget in (0, 300)
    )
    assert drawn.numeric is not None and searched.numeric is not None
    assert searched.verdict is Verdict.CHECKED
    assert drawn.numeric.worst_margin_value is not None
    gap = searched.numeric.worst_margin_value
    assert gap is not None and drawn.numeric.worst_margin_value < gap < 0
    assert gap > -1e-3, searched.numeric.nearest
    assert searched.numeric.nearest_point is not None
    assert abs(float(searched.numeric.nearest_point["x"]) - 2**0.5) < 1e-3


def test_a_constant_tie_is_decided_by_its_enclosure(monkeypatch: MonkeyPatch) -> None:
    """``tanh(x) < tanh(y)`` under ``x <= y`` fails at ``x = y``; near that boundary the
    sides agree to every digit at points where they differ by 1e-60, and the tactics'
    ladder on ``tanh(a) - tanh(b)`` at two long rationals ran for minutes (the claim ended
    ``undecided: budget spent``).  A constant residual is decided by its enclosure."""
    from numeric_checks import points

    def no_ladder(residual: sp.Expr, *args: object, **kwargs: object) -> str | None:
        assert not residual.is_number, residual
        return None

    monkeypatch.setattr(points, "prove_zero", no_ladder)
    text = """
hypotheses = ["x <= y"]
[claim]
lhs = "tanh(x)"
relation = "<"
rhs = "tanh(y)"
[variables]
x = "R"
y = "R"
"""
    result = check_claim(_claim(text), OPTIONS)
    assert result.verdict is Verdict.REFUTED, result.evidence
