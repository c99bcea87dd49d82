"""Infinite sums with kinks in closed form (symbolic/sum_split.py, issue 39): the discrete
Laplace and geometric-mechanism identities are proved; a wrong closed form, or a geometric
series whose convergence is not shown, is not."""

from __future__ import annotations

import pytest
import sympy as sp

from symbolic.sum_split import summed_at_kinks, zero_by_sums
from symbolic.tactics import SUMS_AT_KINKS, prove_zero

k = sp.Symbol("k", integer=True)
t = sp.Symbol("t", integer=True, positive=True)
a, b, lam = sp.symbols("a b lam", positive=True)
s = sp.Symbol("s", real=True)
GEOMETRIC = (1 - a) / (1 + a) * a ** sp.Abs(k)  # the geometric mechanism's law
Z = (k, -sp.oo, sp.oo)

TRUE = [
    (sp.Sum(sp.exp(-sp.Abs(k) / b), Z), (1 + sp.exp(-1 / b)) / (1 - sp.exp(-1 / b))),
    (sp.Sum(k**2 * GEOMETRIC, Z), 2 * a / (1 - a) ** 2),
    (sp.Sum(sp.Max(k, 0) * GEOMETRIC, Z), a / (1 - a**2)),
    (sp.Sum((1 - a) / (1 + a) * a**k, (k, t, sp.oo)), a**t / (1 + a)),
    (
        sp.Sum(sp.exp(s * k) * GEOMETRIC, Z),
        (1 - a) ** 2 / ((1 - a * sp.exp(s)) * (1 - a * sp.exp(-s))),
    ),
]
POSITIVE = [1 - a, 1 - a * sp.exp(s), 1 - a * sp.exp(-s)]  # a in (0, 1), |s| < log(1/a)


@pytest.mark.parametrize(("lhs", "rhs"), TRUE, ids=range(len(TRUE)))
def test_a_true_identity_is_proved(lhs: sp.Expr, rhs: sp.Expr) -> None:
    assert zero_by_sums(lhs - rhs, POSITIVE) == 0
    assert prove_zero(lhs - rhs, positive=POSITIVE) == SUMS_AT_KINKS


@pytest.mark.parametrize(
    ("lhs", "rhs"),
    [
        (sp.Sum(sp.exp(-sp.Abs(k) / b), Z), 1 + sp.exp(-1 / b) / (1 - sp.exp(-1 / b))),
        (sp.Sum(k**2 * GEOMETRIC, Z), a / (1 - a) ** 2),
        (sp.Sum(sp.Max(k, 0) * GEOMETRIC, Z), a / (1 - a) ** 2),
    ],
    ids=["one-tail", "variance-half", "positive-part"],
)
def test_a_wrong_closed_form_is_not_proved(lhs: sp.Expr, rhs: sp.Expr) -> None:
    assert zero_by_sums(lhs - rhs, POSITIVE) != 0
    assert prove_zero(lhs - rhs, positive=POSITIVE) is None


def test_a_series_whose_convergence_is_not_shown_stays_a_sum() -> None:
    # Without 1 - a > 0 nothing says a < 1: sum a^k may diverge, so no closed form.
    series = sp.Sum(k**2 * GEOMETRIC, Z)
    assert summed_at_kinks(series, []).has(sp.Sum)
    assert zero_by_sums(series - 2 * a / (1 - a) ** 2, []) != 0
