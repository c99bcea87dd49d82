"""The fast paths of the engine (issue 17) give what the slow paths gave: affine roots
without ``sp.solve`` (equality hypotheses, hypothesis boundaries), and rules a justification
cites tried first (a cited rule that fails leaves the full search as it was)."""

from __future__ import annotations

import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from numeric_checks.boundaries import linear_roots as _linear_roots
from symbolic.hypotheses import affine_root
from symbolic.relations import Relation
from symbolic.rules import Context, fact_from_relation, prove_relation

x, y = sp.symbols("x y", real=True)
a_pos, b_pos = sp.symbols("a b", positive=True)
delta = sp.Symbol("Delta", positive=True)

nonzero = st.integers(-9, 9).filter(lambda n: n != 0)


@settings(max_examples=40, deadline=None)
@given(nonzero, st.integers(-9, 9), nonzero)
def test_affine_root_is_the_root(a: int, b: int, c: int) -> None:
    e = a * x * sp.exp(y) + b * y + c
    root = affine_root(e, x)
    assert root is not None
    assert sp.simplify(e.subs(x, root)) == 0
    (solved,) = sp.solve(sp.Eq(e, 0), x)  # the same root, perhaps written another way
    assert sp.simplify(root - solved) == 0


def test_affine_root_refuses_what_is_not_affine() -> None:
    assert affine_root(x**2 - y, x) is None
    assert affine_root(x * sp.exp(x) - 1, x) is None
    assert affine_root(y - 1, x) is None  # no x at all: no root to give
    assert affine_root(x * (1 + 1 / x) - y, x) is None  # 0 * zoo at x = 0: left to solve


def test_boundary_roots_of_an_absolute_value_match_solve() -> None:
    fx, fy = sp.symbols("fx fy", real=True)
    e = sp.Abs(fx - fy) - delta
    for var in (fx, fy, delta):
        assert _linear_roots(e, var) == sp.solve(sp.Eq(sp.Abs(fx - fy), delta), var)
    assert _linear_roots(sp.Abs(x**2 - 1) - y, x) is None  # not affine inside: solve's
    assert _linear_roots(sp.Abs(x) + sp.Abs(x - y) - 1, x) is None  # two absolute values


def test_a_cited_rule_is_tried_first_and_a_failing_one_changes_nothing() -> None:
    u, v, eps = sp.symbols("u v eps", positive=True)
    ctx = Context(fact_from_relation(sp.LessThan(u, v), "u <= v"))
    plain = prove_relation(sp.exp(u), Relation.LE, sp.exp(v), ctx)
    assert plain is not None
    # a rule that does not apply (no Min/Max here), then an unknown name: the full search
    assert prove_relation(sp.exp(u), Relation.LE, sp.exp(v), ctx, cited=("min bound",)) == plain
    assert prove_relation(sp.exp(u), Relation.LE, sp.exp(v), ctx, cited=("no such rule",)) == plain
    cited = prove_relation(sp.exp(u), Relation.LE, sp.exp(v), ctx, cited=("monotonicity of exp",))
    assert cited is not None and cited.startswith("monotonicity of exp")
    # a false step stays unproved whatever is cited
    for name in ("monotonicity of exp", "sign case split", "log tangent bound"):
        assert prove_relation(sp.exp(v), Relation.LE, sp.exp(u), ctx, cited=(name,)) is None
    # the tangent bound cited: ln(x) <= x - 1 for x > 0 in one rule
    assert prove_relation(
        sp.log(eps), Relation.LE, eps - 1, Context([]), cited=("log tangent bound",)
    )
