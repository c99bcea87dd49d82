"""A link about sums that is a hypothesis as written is proved by it before the sum rules
run (numeric_checks.stages._hypothesis_as_written); anything short of the hypothesis is not."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
import sympy as sp

from numeric_checks.sum_links import hypothesis_as_written as _hypothesis_as_written
from symbolic.families import index_symbol
from symbolic.relations import Relation
from symbolic.rules import fact_from_relation
from symbolic.rules.facts import Context

IX = index_symbol("i")
N, DELTA = sp.symbols("n delta", positive=True)
P = sp.IndexedBase("p")
EXCESS = sp.Sum(P[IX] / 2 + sp.Abs(P[IX] - 1) / 2, (IX, 1, N))
HYPOTHESIS = sp.LessThan(EXCESS, DELTA)


def _root(
    lhs: sp.Expr, rel: Relation, rhs: sp.Expr, hypothesis: sp.Basic = HYPOTHESIS
) -> str | None:
    plan = SimpleNamespace(context=Context(fact_from_relation(hypothesis, str(hypothesis))))
    return _hypothesis_as_written(plan, SimpleNamespace(lhs=lhs, relation=rel, rhs=rhs))  # type: ignore[arg-type]


def test_the_hypothesis_as_written_and_rearranged() -> None:
    assert _root(EXCESS, Relation.LE, DELTA) == f"hypothesis {HYPOTHESIS}"
    # 1 - sum >= 1 - delta is the same fact after expansion (approx-dp-good-part-mass step 2)
    assert _root(1 - EXCESS, Relation.GE, 1 - DELTA) == f"hypothesis {HYPOTHESIS}"


@pytest.mark.parametrize(
    ("lhs", "rel", "rhs"),
    [
        (EXCESS, Relation.LE, DELTA / 2),  # stronger than the hypothesis
        (EXCESS, Relation.LT, DELTA),  # strict from a non-strict fact
        (2 * EXCESS, Relation.LE, DELTA),
        (EXCESS, Relation.EQ, DELTA),
    ],
)
def test_nothing_short_of_the_hypothesis(lhs: sp.Expr, rel: Relation, rhs: sp.Expr) -> None:
    assert _root(lhs, rel, rhs) is None
