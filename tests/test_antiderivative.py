"""Definite integrals by a checked antiderivative (issue 26, item 5): proved when every
premise of the fundamental theorem is shown, refused otherwise, and never a refutation."""

from __future__ import annotations

import pytest
import sympy as sp

from numeric_checks import CheckOptions, check_claim
from symbolic import antiderivative as ad
from symbolic.readers.claim_files import load_claim
from symbolic.tactics import ANTIDERIVATIVE, prove_zero

from .conftest import CLAIMS

x = sp.Symbol("x", real=True)
b = sp.Symbol("b", positive=True)
s = sp.Symbol("s", real=True)
t = sp.Symbol("t", real=True)
sigma = sp.Symbol("sigma", positive=True)
oo = sp.oo

OPTIONS = CheckOptions(points=20, search_budget=10)


def claim(name: str):  # type: ignore[no-untyped-def]
    return check_claim(load_claim(CLAIMS / f"{name}.toml"), OPTIONS)


@pytest.mark.parametrize(
    "name", ["laplace_tail_true", "laplace_mgf_two_sided_true", "laplace_mgf_true"]
)
def test_closed_form_integrals_are_proved_by_the_rung(name: str) -> None:
    result = claim(name)
    assert result.verdict.value == "proved"
    assert ANTIDERIVATIVE in (result.symbolic or "")
    assert result.counterexample is None


@pytest.mark.parametrize(
    "name",
    [
        "laplace_tail_false",
        "laplace_mgf_two_sided_false",
        "laplace_mgf_false",
        "gaussian_tail_erfc_false",
    ],
)
def test_mutants_are_refuted_by_a_counterexample_not_by_the_rung(name: str) -> None:
    result = claim(name)
    assert result.verdict.value == "refuted"
    assert result.symbolic is None
    assert result.counterexample is not None


def test_gaussian_tail_claim_is_proved() -> None:
    # SymPy's doit decides it first; the rung must prove it on its own too (below).
    assert claim("gaussian_tail_erfc_true").verdict.value == "proved"


def test_pole_inside_the_interval_is_not_proved() -> None:
    result = claim("pole_inside_false")
    assert result.verdict.value != "proved"
    assert ad.definite(sp.Integral(1 / x**2, (x, -1, 1))) is None


def test_laplace_tail_residuals() -> None:
    tail = 2 * sp.Integral(sp.exp(-x / b) / (2 * b), (x, t * b, oo))
    assert ad.by_antiderivative(tail - sp.exp(-t)) == 0
    assert ad.by_antiderivative(tail - sp.exp(-t) / 2) != 0


def test_gaussian_tail_by_the_rung_alone() -> None:
    density = sp.exp(-(x**2) / (2 * sigma**2)) / (sigma * sp.sqrt(2 * sp.pi))
    tail = sp.Integral(density, (x, t, oo))
    assert ad.by_antiderivative(tail - sp.erfc(t / (sp.sqrt(2) * sigma)) / 2) == 0
    assert ad.by_antiderivative(tail - sp.erfc(t / sigma) / 2) != 0
    whole = sp.Integral(density, (x, -oo, oo))
    assert ad.by_antiderivative(whole - 1) == 0


def test_laplace_mgf_needs_the_hypotheses_for_the_exponents_signs() -> None:
    mgf = sp.Integral(sp.exp(s * x) * sp.exp(-sp.Abs(x) / b) / (2 * b), (x, -oo, oo))
    residual = mgf - 1 / (1 - b**2 * s**2)
    # Without |s| b < 1 the tails' exponents have no known sign: refused, left as is.
    assert ad.by_antiderivative(residual) == residual
    assert ad.by_antiderivative(residual, (1 - b * s, 1 + b * s)) == 0
    # Only one of the two tails justified: still refused.
    assert ad.by_antiderivative(residual, (1 - b * s,)) == residual
    assert prove_zero(residual, positive=(1 - b * s, 1 + b * s)) == ANTIDERIVATIVE


def test_kinks_are_split_at_the_root() -> None:
    assert ad.definite(sp.Integral(sp.Abs(x), (x, -1, 2))) == sp.Rational(5, 2)
    assert ad.definite(sp.Integral(sp.Abs(2 * x - 1), (x, 0, 1))) == sp.Rational(1, 2)
    # The root at or beyond an end: one sign on the whole interval, no split.
    assert ad.definite(sp.Integral(sp.Abs(x), (x, 1, 2))) == sp.Rational(3, 2)
    assert ad.definite(sp.Integral(sp.Abs(x), (x, -2, -1))) == sp.Rational(3, 2)
    u = sp.Symbol("u", nonnegative=True)
    tail = ad.definite(sp.Integral(sp.exp(-sp.Abs(x) / b) / (2 * b), (x, u, sp.oo)))
    assert tail is not None and sp.simplify(tail - sp.exp(-u / b) / 2) == 0
    # A root whose place is unknown (a real t, a symbolic end left of it): refused.
    assert ad.definite(sp.Integral(sp.Abs(x - t), (x, 0, 1))) is None
    assert ad.definite(sp.Integral(sp.exp(-sp.Abs(x)), (x, t, sp.oo))) is None
    assert ad.definite(sp.Integral(sp.Abs(x), (x, -1, t))) is None
    # Not affine in x: refused.
    assert ad.definite(sp.Integral(sp.Abs(x**2 - 1), (x, -2, 2))) is None


def test_a_wrong_antiderivative_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not ad.checked_antiderivative(sp.exp(-x / b) / 2, sp.exp(-x / b) / (2 * b), x)
    assert ad.checked_antiderivative(-sp.exp(-x / b) / 2, sp.exp(-x / b) / (2 * b), x)

    def wrong(f: sp.Expr, v: sp.Symbol) -> sp.Expr:
        return sp.exp(-v / b) / 2

    monkeypatch.setattr(ad, "manualintegrate", wrong)
    monkeypatch.setattr(ad.sp, "integrate", wrong)
    integral = sp.Integral(sp.exp(-x / b) / (2 * b), (x, 0, oo))
    assert ad.definite(integral) is None
    assert ad.by_antiderivative(2 * integral - 1) == 2 * integral - 1


@pytest.mark.parametrize(
    ("F", "continuous"),
    [
        (x**3 * sp.exp(-x) + sp.sin(x) / b, True),
        (sp.erf(x / b) * sp.cosh(x) + sp.atan(x) ** 2, True),
        (2**x, True),
        (-1 / x, False),
        (sp.log(x), False),
        (sp.sqrt(x), False),
        (sp.Abs(x), False),
        (sp.exp(1 / x), False),
        (sp.Piecewise((x, x > 0), (0, True)), False),
        (x**t, False),
        (sp.tan(x), False),
    ],
)
def test_continuity_is_shown_by_shape_only(F: sp.Expr, continuous: bool) -> None:
    assert ad.continuous_everywhere(F, x) is continuous


def test_limits_need_a_known_sign() -> None:
    c = sp.Symbol("c", real=True)
    # SymPy would answer 1/c assuming c > 0; the rung refuses.
    assert ad.definite(sp.Integral(sp.exp(-c * x), (x, 0, oo))) is None
    assert ad.definite(sp.Integral(sp.exp(-b * x), (x, 0, oo))) == 1 / b
    # Growing at oo: refused (the limit is infinite).
    assert ad.definite(sp.Integral(sp.exp(b * x), (x, 0, oo))) is None
    # Oscillating: no finite limit, refused.
    assert ad.definite(sp.Integral(sp.cos(x), (x, 0, oo))) is None
    # A polynomial against a decaying exponential: Gamma(3) = 2.
    assert ad.definite(sp.Integral(x**2 * sp.exp(-x), (x, 0, oo))) == 2


def test_log_antiderivatives_are_refused() -> None:
    # log is continuous on [1, 2], but the rung shows continuity on R by shape only.
    assert ad.definite(sp.Integral(1 / x, (x, 1, 2))) is None


def test_iterated_integrals_one_variable_at_a_time() -> None:
    y = sp.Symbol("y", real=True)
    double = sp.Integral(x * y * sp.exp(-x), (x, 0, oo), (y, 0, 2))
    assert ad.by_antiderivative(double - 2) == 0
    assert ad.by_antiderivative(double - 1) != 0
    # The inner integral refused (a pole): the whole is left as it is.
    bad = sp.Integral(1 / x**2, (x, -1, 1), (y, 0, 1))
    assert ad.by_antiderivative(bad + 2) == bad + 2


def test_cauchy_density_and_filtered_integrands() -> None:
    # atan at +-oo with the argument's slope of known sign.
    assert ad.definite(sp.Integral(1 / (sp.pi * (1 + x**2)), (x, -oo, oo))) == 1
    assert ad.definite(sp.Integral(b / (sp.pi * (b**2 + x**2)), (x, 0, oo))) == sp.Rational(1, 2)
    # A log in the integrand cannot be the derivative of an accepted antiderivative.
    assert not ad.derivative_shaped(sp.exp(-(x**2)) * sp.log(1 + x**2), x)
    assert ad.definite(sp.Integral(sp.exp(-(x**2)) * sp.log(1 + x**2), (x, 0, oo))) is None
