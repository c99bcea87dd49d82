"""Claims with integrals over the real line and sums over all integers (issue 17): the
false variants are refuted fast, the budget turns a hang into ``undecided: budget spent``
(exit 3), and a bad budget exits 2."""

from __future__ import annotations

import json
from io import StringIO

import mpmath
import pytest
import sympy as sp

from derivations.app.cli import main
from numeric_checks.integrals import analyse, integrate
from numeric_checks.sums import sum_infinite

from .conftest import CLAIMS


def run(*argv: str) -> tuple[int, str]:
    out = StringIO()
    return main(list(argv), out=out), out.getvalue()


@pytest.mark.parametrize(
    "name",
    ["laplace_variance_false", "discrete_gaussian_variance_false", "optimal_composition_false"],
)
def test_false_variants_are_refuted(name: str) -> None:
    code, text = run("claim", str(CLAIMS / f"{name}.toml"), "--json", "--points", "10")
    data = json.loads(text)
    assert (code, data["verdict"]) == (1, "refuted")
    assert data["lhs_value"] != data["rhs_value"]


def test_a_spent_budget_is_undecided_with_exit_3() -> None:
    code, text = run("claim", str(CLAIMS / "gumbel_max_true.toml"), "--json", "--budget", "1")
    data = json.loads(text)
    assert (code, data["verdict"]) == (3, "undecided")
    assert "budget spent" in data["evidence"]


@pytest.mark.parametrize("value", ["-1", "0", "nan", "soon"])
def test_bad_budget_exits_2(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run("claim", str(CLAIMS / "sum_true.toml"), f"--budget={value}")
    assert code == 2 and out == ""
    assert "--budget" in capsys.readouterr().err


def test_kinks_and_widths_are_found_symbolically() -> None:
    x, b = sp.Symbol("x", real=True), sp.Symbol("b", positive=True)
    shape = analyse(x**2 * sp.exp(-sp.Abs(x - 3) / b), x)
    assert 3 in shape.kinks and shape.left_width == b and shape.right_width == b


@pytest.mark.parametrize("b", ["1e-30", "1", "1e30"])
def test_laplace_variance_integral_at_every_scale(b: str) -> None:
    with mpmath.workdps(30):
        w = mpmath.mpf(b)
        f = lambda x: x**2 * mpmath.exp(-abs(x) / w) / (2 * w)  # noqa: E731
        value = integrate(f, -mpmath.inf, mpmath.inf, [0], w, w)
        assert abs(value / (2 * w**2) - 1) < mpmath.mpf(10) ** -25


def test_infinite_sum_beats_nsum_on_a_wide_gaussian() -> None:
    # Poisson summation: sum_k exp(-k^2/2s^2) = s sqrt(2 pi) (1 + 2 exp(-2 pi^2 s^2) + ...).
    with mpmath.workdps(30):
        s = mpmath.mpf(100)
        v = sum_infinite(lambda k: mpmath.exp(-(k**2) / (2 * s**2)), -mpmath.inf, mpmath.inf)
        assert abs(v / (s * mpmath.sqrt(2 * mpmath.pi)) - 1) < mpmath.mpf(10) ** -28


def test_slowly_decaying_sums_by_euler_maclaurin_not_extrapolation() -> None:
    # Terms falling like 1/k^2 or k^-1.5: mpmath.nsum's Richardson/Shanks returned
    # 1.046116 for the first (true 1.0461525...) after 5 s, and 2.6019 for zeta(3/2).
    with mpmath.workdps(30):
        first = sum_infinite(lambda k: 1 / (k**2 + mpmath.sqrt(k)), 1, mpmath.inf)
        assert abs(first - mpmath.mpf("1.046152528586986998250708")) < mpmath.mpf(10) ** -22
        zeta = sum_infinite(lambda k: k ** mpmath.mpf(-1.5), 1, mpmath.inf)
        assert abs(zeta - mpmath.zeta(1.5)) < mpmath.mpf(10) ** -20
        both = sum_infinite(lambda k: 1 / (1 + k**2), -mpmath.inf, mpmath.inf)
        assert abs(both - mpmath.pi / mpmath.tanh(mpmath.pi)) < mpmath.mpf(10) ** -25
        # (-1)^k is complex between the integers: no Euler-Maclaurin; the extrapolation
        # (exact for alternating terms) still gives -pi^2/12.
        alternating = sum_infinite(lambda k: (-1) ** k / k**2, 1, mpmath.inf)
        assert abs(alternating + mpmath.pi**2 / 12) < mpmath.mpf(10) ** -20
