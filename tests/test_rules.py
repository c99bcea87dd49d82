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
    if proof is None:
        return
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
