"""An integrand's constant parts (free of the integration variables) are computed once per
quadrature (numeric_checks.hoisting.hoisted), with the integral's value unchanged."""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable

import mpmath
import pytest
import sympy as sp

from numeric_checks.bridge import compile_exprs, evaluate
from numeric_checks.hoisting import hoisted
from symbolic.errors import EvaluationError

x = sp.Symbol("x", real=True)
y = sp.Symbol("y", real=True)
eps = sp.Symbol("eps", positive=True)
a = sp.Symbol("a", positive=True)


def _fresh() -> Callable[[], sp.Symbol]:
    counter = itertools.count(1)
    return lambda: sp.Symbol(f"_c{next(counter)}")


def test_constant_factor_is_named_and_variable_part_kept() -> None:
    f = -sp.exp(eps) / 2 * sp.exp(-(x**2) / 2)
    g, found = hoisted(f, {eps}, _fresh())
    # The factor in eps, and the -1/2 in the variable exponential.
    values = [value for _, value in found]
    assert any(sp.simplify(v - (-sp.exp(eps) / 2)) == 0 for v in values)
    assert sp.Rational(-1, 2) in values
    assert not g.has(eps)
    assert sp.simplify(g.xreplace(dict(found)) - f) == 0


def test_nothing_moves_out_of_piecewise_sum_or_nested_integral() -> None:
    k = sp.Symbol("k", integer=True)
    for f in (
        sp.Piecewise((1 / eps, x > 0), (0, True)),
        sp.Sum(sp.exp(eps) * x / k**2, (k, 1, 5)),
        sp.Integral(sp.exp(eps) * sp.exp(-(y**2)) * x, (y, 0, 1)),
    ):
        g, found = hoisted(x * f, {eps}, _fresh())
        assert found == []
        assert g == x * f


def test_numeric_exponent_keeps_its_printing() -> None:
    g, found = hoisted(sp.sqrt(x) * eps, {eps}, _fresh())
    assert found == []
    assert g == sp.sqrt(x) * eps


def test_constant_leaves_the_integrand_lambda_and_value_is_right() -> None:
    f = sp.Integral(sp.exp(eps) * sp.exp(-(x**2) / 2) / sp.sqrt(2 * sp.pi), (x, -sp.oo, sp.oo))
    fn = compile_exprs([eps], [f])
    source = inspect.getsource(fn)
    # Every symbol is renamed _v0_NAME in the generated code (user names never meet the
    # printer's, issue 41).
    integrand = source[source.index("lambda _v0_x:") :].split(",")[0]
    assert "eps" not in integrand
    with mpmath.workdps(30):
        e = mpmath.mpf("0.7")
        (value,) = evaluate(fn, [e], 30)
        assert abs(value - mpmath.exp(e)) < mpmath.mpf(10) ** -24 * mpmath.exp(e)


def test_nested_integral_with_constants_at_both_levels() -> None:
    inner = sp.Integral(a * sp.exp(y) * x, (y, 0, 1))
    fn = compile_exprs([a], [sp.Integral(sp.exp(a) * inner, (x, 0, 1))])
    with mpmath.workdps(30):
        v = mpmath.mpf(3)
        (value,) = evaluate(fn, [v], 30)
        exact = mpmath.exp(v) * v * (mpmath.e - 1) / 2
        assert abs(value - exact) < mpmath.mpf(10) ** -20 * exact


def test_undefined_constant_still_makes_the_point_undefined() -> None:
    # 1/(a - 1) at a = 1: every node was undefined before; the quadrature still fails.
    f = sp.Integral(sp.exp(-(x**2)) / (a - 1), (x, 0, 1))
    fn = compile_exprs([a], [f])
    with pytest.raises(EvaluationError):
        evaluate(fn, [mpmath.mpf(1)], 30)
