"""Symbolic tactics and rules: they prove what they should, and never prove a false step."""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from numeric_checks.bridge import compile_exprs, evaluate
from symbolic.errors import EvaluationError
from symbolic.functions import Phi
from symbolic.relations import Relation
from symbolic.rules import Context, fact_from_relation, prove_relation
from symbolic.tactics import prove_zero

eps, delta, mu = sp.symbols("eps Delta mu", positive=True)
z, fx, fy = sp.symbols("z fx fy", real=True)
LAPLACE = Context(fact_from_relation(sp.Abs(fx - fy) <= delta, "sensitivity"))


@pytest.mark.parametrize(
    ("residual", "tactic"),
    [
        ((eps + 1) ** 2 - eps**2 - 2 * eps - 1, "expand"),
        ((eps**2 - 1) / (eps - 1) - eps - 1, "cancel"),
        (sp.sinh(eps) - (sp.exp(eps) - sp.exp(-eps)) / 2, "rewrite(exp)+cancel"),
        (Phi(-mu) - (1 - Phi(mu)), "rewrite(erf)+expand"),
        (sp.log(eps * mu) - sp.log(eps) - sp.log(mu), "expand"),
        (sp.tanh(eps / 2) - (sp.exp(eps) - 1) / (sp.exp(eps) + 1), "simplify"),
    ],
)
def test_equality_ladder_records_the_deciding_tactic(residual: sp.Expr, tactic: str) -> None:
    assert prove_zero(residual) is not None
    if tactic != "simplify":  # later rungs may be the ones to decide; name only the cheap ones
        assert prove_zero(residual) == tactic


@pytest.mark.parametrize(
    "residual",
    [sp.exp(eps) - 1 - eps, sp.tanh(eps / 2) - eps / 2, Phi(mu) - sp.S.Half, sp.log(eps) - eps],
)
def test_nonzero_residual_is_not_proved(residual: sp.Expr) -> None:
    assert prove_zero(residual) is None


def test_laplace_rules() -> None:
    b = delta / eps
    step4 = prove_relation(
        sp.exp((sp.Abs(z - fy) - sp.Abs(z - fx)) / b),
        Relation.LE,
        sp.exp(sp.Abs(fx - fy) / b),
        LAPLACE,
    )
    assert step4 is not None and "triangle inequality" in step4 and "exp" in step4
    step5 = prove_relation(sp.exp(sp.Abs(fx - fy) / b), Relation.LE, sp.exp(delta / b), LAPLACE)
    assert step5 is not None and "sensitivity" in step5


@pytest.mark.parametrize(
    ("lhs", "rel", "rhs"),
    [
        (
            sp.exp((sp.Abs(z - fy) - sp.Abs(z - fx)) * eps / delta),
            Relation.LT,
            sp.exp(sp.Abs(fx - fy) * eps / delta),
        ),  # ties when z is beyond both
        (sp.exp(sp.Abs(fx - fy) * eps / delta), Relation.LE, sp.exp(eps / 2)),
        (
            sp.exp((fy - fx) * eps / delta),
            Relation.LE,
            sp.exp((sp.Abs(z - fy) - sp.Abs(z - fx)) * eps / delta),
        ),
        (sp.S(1), Relation.LE, sp.exp(-eps)),
        (eps, Relation.LE, sp.log(1 + eps)),
    ],
)
def test_false_or_unprovable_steps_are_not_proved(
    lhs: sp.Expr, rel: Relation, rhs: sp.Expr
) -> None:
    assert prove_relation(lhs, rel, rhs, LAPLACE) is None


def test_monotone_rules_with_constants() -> None:
    assert prove_relation(sp.S(1), Relation.LT, sp.exp(eps), Context()) is not None
    assert prove_relation(sp.sqrt(eps), Relation.LE, sp.sqrt(eps + mu), Context()) is not None
    assert prove_relation(Phi(mu - eps), Relation.LE, Phi(mu), Context()) is not None


# Soundness, as a property: whenever the rules claim a proof of lhs <= rhs for random
# expressions, no random point may violate it.
_atoms = st.sampled_from(
    [
        eps,
        mu,
        eps + mu,
        2 * eps,
        eps / mu,
        sp.Abs(z - fx),
        sp.Abs(fx - fy),
        sp.S(1),
        sp.Rational(1, 2),
        delta,
    ]
)
_fns = st.sampled_from([sp.exp, sp.log, Phi, sp.tanh, sp.sqrt, lambda e: e, lambda e: -e])


@st.composite
def _side(draw: st.DrawFn) -> sp.Expr:
    f = draw(_fns)
    a, b = draw(_atoms), draw(_atoms)
    op = draw(st.sampled_from([sp.Add, sp.Mul, lambda p, q: p - q]))
    return f(op(a, b))


@given(_side(), _side(), st.sampled_from([Relation.LE, Relation.LT, Relation.GE]))
def test_rules_are_sound(lhs: sp.Expr, rhs: sp.Expr, rel: Relation) -> None:
    proof = prove_relation(lhs, rel, rhs, LAPLACE)
    if proof is not None:
        _assert_holds_at_random_points(lhs, rel, rhs, proof)


_pieces = st.sampled_from(
    [eps, mu, eps + mu, 2 * eps, eps / 2, mu - eps, sp.S(1), sp.log(eps), sp.sqrt(mu), -eps]
)


@st.composite
def _extremum_side(draw: st.DrawFn) -> sp.Expr:
    """c * Max(a, b) or c * Min(a, b), maybe plus a piece: what :func:`extremum_cases` splits."""
    ext = draw(st.sampled_from([sp.Max, sp.Min]))
    c = draw(st.sampled_from([sp.S(1), sp.S(2), sp.Rational(1, 2)]))
    tail = draw(st.sampled_from([sp.S(0), eps, -mu]))
    return c * ext(draw(_pieces), draw(_pieces)) + tail


@st.composite
def _product(draw: st.DrawFn) -> sp.Expr:
    """A product of two or three pieces: what :func:`factor_signs` proves factor by factor."""
    n = draw(st.integers(min_value=2, max_value=3))
    return sp.Mul(*[draw(_pieces) for _ in range(n)])


@given(
    st.one_of(_extremum_side(), _product(), _pieces),
    st.one_of(_extremum_side(), _product(), _pieces),
    st.sampled_from([Relation.LE, Relation.LT, Relation.GE]),
)
def test_extremum_and_factor_rules_are_sound(lhs: sp.Expr, rhs: sp.Expr, rel: Relation) -> None:
    """Soundness of the case split on Max/Min and of products of signed factors: whatever
    the rules prove about random such sides holds at random points."""
    proof = prove_relation(lhs, rel, rhs, LAPLACE)
    if proof is not None:
        _assert_holds_at_random_points(lhs, rel, rhs, proof)


def _assert_holds_at_random_points(lhs: sp.Expr, rel: Relation, rhs: sp.Expr, proof: str) -> None:
    lhs, rhs = sp.sympify(lhs), sp.sympify(rhs)
    syms = sorted(lhs.free_symbols | rhs.free_symbols | {delta, fx, fy}, key=str)
    fn = compile_exprs(syms, [lhs, rhs])
    rng = __import__("random").Random(1)
    for _ in range(60):
        vals = {
            s: mpmath.mpf(rng.uniform(0.01, 5) if s.is_positive else rng.uniform(-5, 5))
            for s in syms
        }
        with mpmath.workdps(50):
            if abs(vals[fx] - vals[fy]) > vals[delta]:
                continue
        try:
            left, right = evaluate(fn, [vals[s] for s in syms], 50)
        except EvaluationError:
            continue
        gap = right - left if rel.direction == 1 else left - right
        with mpmath.workdps(50):
            assert gap >= -(mpmath.mpf(10) ** -40) * max(abs(left), abs(right), 1), (
                f"rules proved {lhs} {rel.value} {rhs} ({proof}) but it fails at {vals}"
            )


# -- extremum cases, products of signs, a sum's own terms ------------------------------------
_k, _c = sp.symbols("k c", integer=True, positive=True)
_beta = sp.Symbol("beta", positive=True)
_BETA = Context(fact_from_relation(_beta < 1, "beta < 1"))


@pytest.mark.parametrize(
    ("lhs", "rhs", "rule"),
    [
        # max(a, b) <= r: both cases (Dwork & Roth 2014, Theorem 3.28's corrected alpha)
        (sp.Max(eps, mu), eps + mu, "the max is one of its arguments"),
        (-sp.Min(eps, mu), 0, None),  # -min(eps, mu) <= 0 by another rule is fine too
        # (ln k + ln(4c/beta)) sqrt(ln(2/beta)) >= 0: neither factor positive by assumptions
        (
            0,
            (sp.log(_k) + sp.log(4 * _c / _beta)) * sp.sqrt(sp.log(2 / _beta)),
            "product of nonnegative factors",
        ),
    ],
)
def test_new_rules_prove(lhs: sp.Expr, rhs: sp.Expr, rule: str | None) -> None:
    trace = prove_relation(lhs, Relation.LE, rhs, _BETA)
    assert trace is not None
    if rule is not None:
        assert rule in trace


@pytest.mark.parametrize(
    ("lhs", "rhs"),
    [
        (sp.Max(eps, mu), 2 * eps),  # false when mu > 2 eps
        (sp.Max(eps, mu), eps),  # false when mu > eps
        (0, sp.log(_k) + sp.log(_c * _beta)),  # false at k = c = 1
        (0, (sp.log(_k) - 1) * sp.sqrt(sp.log(2 / _beta))),  # false at k = 1
    ],
)
def test_new_rules_do_not_prove_false_steps(lhs: sp.Expr, rhs: sp.Expr) -> None:
    assert prove_relation(lhs, Relation.LE, rhs, _BETA) is None


def test_max_and_min_of_one_pair_go_to_the_case_split() -> None:
    # max(p, q) - min(p, q) <= |p - q|... in the case split, where the pair stays linked;
    # the extremum rule alone would forget which argument is the max.
    p, q = sp.symbols("p q", positive=True)
    trace = prove_relation(sp.Max(p, q) - sp.Min(p, q), Relation.LE, sp.Abs(p - q), Context())
    assert trace is not None and "the max is one of its arguments" not in trace


def test_products_of_exponentials_are_merged_before_monotonicity() -> None:
    # A user's exponential-mechanism step, termwise: exp(eps v/(2 D)) <= e^(eps/2) exp(eps u/(2 D))
    # from v - u <= D; and the false variant without the e^(eps/2) is not proved.
    from symbolic.rules import Context, fact_from_relation, prove_relation

    eps, d = sp.Symbol("eps", positive=True), sp.Symbol("D", positive=True)
    u, v = sp.Symbol("u", real=True), sp.Symbol("v", real=True)
    ctx = Context(fact_from_relation(sp.Le(v - u, d), "v - u <= D"))
    lhs = sp.exp(eps * v / (2 * d))
    trace = prove_relation(lhs, Relation.LE, sp.exp(eps / 2) * sp.exp(eps * u / (2 * d)), ctx)
    assert trace is not None and trace.startswith("exp(a)*exp(b) = exp(a + b)")
    wrong = sp.exp(eps / 4) * sp.exp(eps * u / (2 * d))
    assert prove_relation(lhs, Relation.LE, wrong, ctx) is None
