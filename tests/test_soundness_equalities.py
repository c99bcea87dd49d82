"""Issue 38, class 1: an equality hypothesis is eliminated only where solving it is sound.

``x*y == 0`` solved for ``y`` divided by ``x``: ``y**2 <= 0`` was proved (false at x = 0,
y = 1).  Now a variable is eliminated only from an equality affine in it, by a coefficient
proved nonzero; otherwise the claim is split into cases that cover every point, or refused.
"""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
import sympy as sp

from derivations.app.cli import main
from numeric_checks import CheckOptions, check_claim
from symbolic.domains import Variable, parse_domain
from symbolic.errors import EmptyDomain, InvalidInput
from symbolic.hypotheses import Contradiction, NeedsCases, affine_parts, build_space
from symbolic.readers.claim_files import parse_claim
from symbolic.verdicts import Verdict

X, Y = Variable("x", parse_domain("R")), Variable("y", parse_domain("R"))
x, y = X.symbol, Y.symbol
HERE = Path(__file__).parent / "soundness" / "equalities"


@pytest.mark.parametrize(
    ("hypotheses", "labels"),
    [
        ([sp.Eq(x * y, 0)], ["x = 0", "x > 0", "x < 0"]),
        ([sp.Eq(x**2 * y, x**2)], ["x = 0", "x**2 > 0"]),  # x**2 < 0 is excluded
        ([sp.Eq(x * y, 2 * x)], ["x = 0", "x > 0", "x < 0"]),
    ],
)
def test_a_coefficient_that_may_vanish_splits_into_cases(
    hypotheses: list[sp.Basic], labels: list[str]
) -> None:
    with pytest.raises(NeedsCases) as split:
        build_space([X, Y], hypotheses)
    assert [c.label for c in split.value.cases] == labels
    assert "dividing by" in str(split.value)


def test_a_coefficient_shown_nonzero_eliminates() -> None:
    space = build_space([X, Y], [sp.Eq(x * y, 0), x > 0])
    assert [(v.name, value) for v, value in space.solved] == [("y", 0)]
    (condition,) = space.conditions
    assert condition.kind == "nonzero" and condition.expr == x
    assert condition.discharged_by == "hypothesis x > 0"


def test_a_constant_coefficient_is_discharged_exactly() -> None:
    b = Variable("b", parse_domain("(0, oo)"))
    eps = Variable("eps", parse_domain("(0, oo)"))
    space = build_space([eps, b], [sp.Eq(b.symbol, 1 / eps.symbol)])
    assert [v.name for v, _ in space.solved] == ["b"]
    assert space.conditions[0].discharged_by == "exactly"


def test_the_case_equality_is_solved_first() -> None:
    space = build_space([X, Y], [sp.Eq(x, 0), sp.Eq(x * y, 0)])
    assert [(v.name, value) for v, value in space.solved] == [("x", 0)]
    assert [v.name for v in space.free] == ["y"]


@pytest.mark.parametrize(
    "equality",
    [sp.Eq(x**2 + y**2, 1), sp.Eq(sp.exp(x) + x * y**2, 3 + y**3), sp.Eq(x**2, sp.pi)],
)
def test_an_equality_linear_in_no_variable_is_refused(equality: sp.Basic) -> None:
    with pytest.raises(InvalidInput, match="linear in none"):
        build_space([X, Y], [equality])


def test_a_later_solution_is_substituted_into_an_earlier_one() -> None:
    """``x == 2*y`` then ``y == 3*z``: x's value held y after y was solved (the point's
    display then asked for y: NameError, exit 4).  Every solved value is in the free
    variables only."""
    z = Variable("z", parse_domain("R"))
    space = build_space([X, Y, z], [sp.Eq(x, 2 * y), sp.Eq(y, 3 * z.symbol)])
    assert [v.name for v in space.free] == ["z"]
    assert dict((v.name, value) for v, value in space.solved) == {
        "x": 6 * z.symbol,
        "y": 3 * z.symbol,
    }


def test_an_equality_linear_only_in_integers_says_so() -> None:
    """``k == 2*m`` is linear in both, but an integer is not solved for: the message said
    "linear in none of them", which is false."""
    k = Variable("k", parse_domain("Z in [-10, 10]"))
    m = Variable("m", parse_domain("Z in [-5, 5]"))
    with pytest.raises(InvalidInput, match="linear only in the integer variable") as raised:
        build_space([k, m], [sp.Eq(k.symbol, 2 * m.symbol)])
    assert "linear in none" not in str(raised.value)


def test_a_polynomial_in_one_variable_is_solved_by_its_real_roots() -> None:
    positive = Variable("x", parse_domain("(0, oo)"))
    space = build_space([positive], [sp.Eq(positive.symbol**2, 4)])
    assert [(v.name, value) for v, value in space.solved] == [("x", 2)]
    with pytest.raises(NeedsCases) as split:
        build_space([X, Y], [sp.Eq(x**2, 2)])
    assert [c.label for c in split.value.cases] == ["x = -sqrt(2)", "x = sqrt(2)"]
    with pytest.raises(Contradiction):
        build_space([X], [sp.Eq(x**2, -1)])
    with pytest.raises(Contradiction):
        build_space([positive], [sp.Eq(positive.symbol**2 + 3 * positive.symbol, 0)])


def test_an_exactly_contradictory_case_is_a_contradiction() -> None:
    with pytest.raises(Contradiction):
        build_space([X, Y], [sp.Eq(x, 0), sp.Eq(x * y, 1)])


@pytest.mark.parametrize(
    ("e", "parts"),
    [
        (x * y - 2 * x, (y - 2, 0)),
        (x**2 * y - x**2, None),  # in x: not affine
        (sp.exp(y) * x + y, (sp.exp(y), y)),
        (sp.Abs(x) - 1, None),
    ],
)
def test_affine_parts(e: sp.Expr, parts: tuple[sp.Expr, sp.Expr] | None) -> None:
    assert affine_parts(e, x) == parts


def test_every_case_contradictory_is_an_empty_domain() -> None:
    d = parse_claim(
        'hypotheses = ["x*y == 1", "x**2 <= 0"]\n[claim]\nlhs = "y"\nrelation = ">"\n'
        'rhs = "0"\n[variables]\nx = "R"\ny = "R"\n'
    )
    with pytest.raises(EmptyDomain):
        check_claim(d, CheckOptions(points=20))


def test_the_cases_are_named_in_the_evidence() -> None:
    d = parse_claim((HERE / "product_zero_square_false.toml").read_text())
    result = check_claim(d, CheckOptions(points=30))
    assert result.verdict is Verdict.REFUTED
    assert result.evidence.startswith("by cases on x*y == 0")
    assert "case x = 0: refuted" in result.evidence
    assert "case x > 0: proved" in result.evidence


def _run(*argv: str) -> tuple[int, str]:
    out = StringIO()
    return main(list(argv), out=out), out.getvalue()


def test_the_command_line_exit_codes(tmp_path: Path) -> None:
    assert _run("claim", str(HERE / "product_zero_square_false.toml"), "--points", "30")[0] == 1
    assert _run("claim", str(HERE / "product_zero_true.toml"), "--points", "30")[0] == 0
    refused = tmp_path / "circle.toml"
    refused.write_text(
        'hypotheses = ["x**2 + y**2 == 1"]\n[claim]\nlhs = "x"\nrelation = "<="\nrhs = "1"\n'
        '[variables]\nx = "R"\ny = "R"\n'
    )
    assert _run("claim", str(refused))[0] == 2
