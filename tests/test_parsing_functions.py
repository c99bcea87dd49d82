"""The special functions of the issue's item 7 in both syntaxes, and their evaluation by the
numeric bridge at 30 digits against mpmath computed directly."""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from numeric_checks.bridge import compile_exprs
from symbolic.errors import ExpressionError
from symbolic.functions import expm1, log1p
from symbolic.readers.latex import parse_latex_expr
from symbolic.readers.syntax import parse_expr
from symbolic.tactics import prove_zero

x = sp.Symbol("x", real=True)
a = sp.Symbol("a", positive=True)
n = sp.Symbol("n", integer=True, positive=True)
m = sp.Symbol("m", integer=True, nonnegative=True)
T = {"x": x, "a": a, "n": n, "m": m}
k = sp.Symbol("k", integer=True)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("gamma(a + 1)", sp.gamma(a + 1)),
        ("loggamma(a)", sp.loggamma(a)),
        ("beta(a, 2)", sp.beta(a, 2)),
        ("lambertw(a)", sp.LambertW(a)),
        ("expm1(x) + log1p(a)", expm1(x) + log1p(a)),
        ("binomial(n, m)", sp.binomial(n, m)),
        ("Sum(binomial(n, k) * a**k, (k, 0, n))", sp.Sum(sp.binomial(n, k) * a**k, (k, 0, n))),
        ("Sum(1/k**2, (k, m, n))", sp.Sum(1 / k**2, (k, m, n))),
        ("Piecewise((x**2, x < 0), (x, True))", sp.Piecewise((x**2, x < 0), (x, True))),
        (
            "Piecewise((0, x < 0), (x, 0 <= x < 1), (1, True))",
            sp.Piecewise((0, x < 0), (x, (x >= 0) & (x < 1)), (1, True)),
        ),
    ],
)
def test_sympy_syntax(text: str, expected: sp.Expr) -> None:
    assert parse_expr(text, T) == expected


def test_a_piecewise_condition_the_assumptions_decide_is_read() -> None:
    """``a < 0`` for a positive ``a`` is False as SymPy reads it: the piece is never taken,
    and the claim file is valid input (a fuzzer finding of issue 38), not a refusal; a
    condition that is no comparison stays refused."""
    assert parse_expr("Piecewise((-a, a < 0), (a, True))", T) == a
    assert parse_expr("Piecewise((1, a > 0), (2, True))", T) == 1
    assert parse_expr("Piecewise((-a, a < 0), (a, True))", T) != -a
    with pytest.raises(ExpressionError, match="comparison or True"):
        parse_expr("Piecewise((a, 1), (0, True))", T)


def test_beta_is_the_beta_function_only_when_not_declared() -> None:
    beta = sp.Symbol("beta", positive=True)
    assert parse_expr("beta * 2", {"beta": beta}) == 2 * beta
    with pytest.raises(ExpressionError, match="declared variable, not a function"):
        parse_expr("beta(1, 2)", {"beta": beta})
    assert parse_expr("beta(1, 2)") == sp.Rational(1, 2)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("Piecewise(x, True)", "(expr, condition) pairs"),
        ("Piecewise((x, x))", "comparison or True"),
        ("Piecewise()", "at least one piece"),
        ("lambertw(x, 1)", "takes 1 argument"),
        ("gamma(100000)", "too large"),
        ("Piecewise((x, True), (1, x < 0)) + Piecewise", "without arguments"),
    ],
)
def test_sympy_syntax_refusals(text: str, fragment: str) -> None:
    with pytest.raises(ExpressionError, match=None) as info:
        parse_expr(text, T)
    assert fragment in str(info.value)


@pytest.mark.parametrize(
    ("latex", "sympy_text"),
    [
        (r"\Gamma(a + 1)", "gamma(a + 1)"),
        (r"\operatorname{loggamma}(a)", "loggamma(a)"),
        (r"\operatorname{B}(a, 2)", "beta(a, 2)"),
        (r"\operatorname{W}(a)", "lambertw(a)"),
        (r"\operatorname{expm1}(x) + \operatorname{log1p}(a)", "expm1(x) + log1p(a)"),
        (r"\binom{n}{m}", "binomial(n, m)"),
        (r"\sum_{k=m}^{n} \frac{1}{k^2}", "Sum(1/k**2, (k, m, n))"),
        (
            r"\begin{cases} x^2 & \text{if } x < 0, \\ x & \text{otherwise.} \end{cases}",
            "Piecewise((x**2, x < 0), (x, True))",
        ),
    ],
)
def test_both_syntaxes_agree(latex: str, sympy_text: str) -> None:
    assert parse_latex_expr(latex, T) == parse_expr(sympy_text, T)


def test_latex_printing_of_expm1_and_log1p_reads_back() -> None:
    e = expm1(x) + log1p(a)
    assert parse_latex_expr(sp.latex(e), T) == e


def test_the_tactics_see_through_expm1_and_log1p() -> None:
    assert prove_zero(expm1(x) - (sp.exp(x) - 1)) is not None
    assert prove_zero(log1p(a) - sp.log(1 + a)) is not None
    assert expm1(log1p(a)) == a and log1p(expm1(x)) == x


# -- numeric bridge ---------------------------------------------------------------------------
t = sp.Symbol("t", real=True)
NUMERIC = [
    (sp.LambertW(t), lambda v: mpmath.lambertw(v)),
    (sp.loggamma(t), lambda v: mpmath.loggamma(v)),
    (sp.gamma(t), lambda v: mpmath.gamma(v)),
    (sp.beta(t, 2 * t), lambda v: mpmath.beta(v, 2 * v)),
    (
        sp.Piecewise((t**2, t < 1), (2 * t, True)),
        lambda v: v**2 if v < 1 else 2 * v,
    ),
    (sp.binomial(t + 2, 2), lambda v: mpmath.binomial(v + 2, 2)),
    (sp.binomial(3, t), lambda v: mpmath.binomial(3, v)),
    (
        sp.Sum(1 / k**2, (k, 1, t)),
        lambda v: mpmath.fsum(1 / mpmath.mpf(j) ** 2 for j in range(1, int(v) + 1)),
    ),
    (
        sp.Sum(sp.binomial(t, k) * sp.Rational(1, 2) ** k, (k, 0, t)),
        lambda v: (mpmath.mpf(3) / 2) ** v,  # the binomial theorem
    ),
    (expm1(t / 10**30), lambda v: mpmath.expm1(v / mpmath.mpf(10) ** 30)),
    (log1p(t / 10**30), lambda v: mpmath.log1p(v / mpmath.mpf(10) ** 30)),
]


CASES = [
    (e, f, v) for e, f in NUMERIC for v in (["3", "7"] if e.has(sp.Sum) else ["0.5", "3", "7"])
]


@pytest.mark.parametrize(("expr", "direct", "value"), CASES, ids=[f"{e}@{v}" for e, _, v in CASES])
def test_the_bridge_evaluates_each_new_function(expr: sp.Expr, direct: object, value: str) -> None:
    fn = compile_exprs([t], [expr])
    with mpmath.workdps(30):
        v = mpmath.mpf(value)
        (got,) = fn(v)
        want = direct(v)  # type: ignore[operator]
        assert mpmath.almosteq(got, want, rel_eps=mpmath.mpf(10) ** -28), (got, want)


def test_binomial_is_zero_past_its_top_not_a_pole() -> None:
    fn = compile_exprs([t], [sp.binomial(3, t)])
    with mpmath.workdps(30):
        assert fn(mpmath.mpf(5))[0] == 0


def test_expm1_keeps_the_digits_exp_minus_one_loses() -> None:
    tiny = mpmath.mpf(10) ** -30
    with mpmath.workdps(30):
        (stable,) = compile_exprs([t], [expm1(t)])(tiny)
        (naive,) = compile_exprs([t], [sp.exp(t) - 1])(tiny)
        assert mpmath.almosteq(stable, tiny * (1 + tiny / 2), rel_eps=mpmath.mpf(10) ** -28)
        assert abs(naive / stable - 1) > mpmath.mpf(10) ** -3  # most digits lost
