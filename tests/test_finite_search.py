"""The finite-distribution counterexample search refutes planted false statements and does
not refute true ones (issue: seed audit)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from numeric_checks.dp.finite_search import (
    FiniteStatement,
    all_of,
    hockey,
    implies,
    kl,
    leq,
    max_div,
    push,
    search,
    tv,
)

EPS = {"eps": (F(0), F(3))}
EPS_DELTA = {"eps": (F(0), F(3)), "delta": (F(0), F(1, 2))}


def _dp(p, q, eps, delta):  # type: ignore[no-untyped-def]
    """(eps, delta)-indistinguishable both ways."""
    return all_of(leq(hockey(p, q, eps), delta), leq(hockey(q, p, eps), delta))


def _channel(d):  # type: ignore[no-untyped-def]
    """P, Q and the first n rows (n = the support size) as a channel."""
    n = len(d[0])
    return d[0], d[1], d[2 : 2 + n]


FALSE = [
    FiniteStatement("TV <= KL", 2, lambda d, p: leq(tv(d[0], d[1]), kl(d[0], d[1]))),
    FiniteStatement(
        "max-divergence <= KL", 2, lambda d, p: leq(max_div(d[0], d[1]), kl(d[0], d[1]))
    ),
    FiniteStatement(
        "(eps, delta)-DP implies (eps/2, 2 delta)-DP",
        2,
        lambda d, p: implies(
            _dp(d[0], d[1], p["eps"], p["delta"]),
            _dp(d[0], d[1], p["eps"] / 2, 2 * p["delta"]),
        ),
        EPS_DELTA,
    ),
    FiniteStatement(
        "KL is symmetric",
        2,
        lambda d, p: all_of(
            leq(kl(d[0], d[1]), kl(d[1], d[0])), leq(kl(d[1], d[0]), kl(d[0], d[1]))
        ),
    ),
    FiniteStatement(
        "eps-DP implies KL <= eps^2/4 (too small a constant)",
        2,
        lambda d, p: implies(_dp(d[0], d[1], p["eps"], 0), leq(kl(d[0], d[1]), p["eps"] ** 2 / 4)),
        EPS,
    ),
]

TRUE = [
    FiniteStatement(
        "Pinsker: TV <= sqrt(KL/2)",
        2,
        lambda d, p: leq(tv(d[0], d[1]), (kl(d[0], d[1]) / 2).sqrt()),
    ),
    FiniteStatement(
        "KL <= max-divergence", 2, lambda d, p: leq(kl(d[0], d[1]), max_div(d[0], d[1]))
    ),
    FiniteStatement(
        "data processing for KL on random channels",
        8,
        lambda d, p: (lambda P, Q, rows: leq(kl(push(P, rows), push(Q, rows)), kl(P, Q)))(
            *_channel(d)
        ),
    ),
    FiniteStatement(
        "data processing for the hockey-stick divergence on random channels",
        8,
        lambda d, p: (
            lambda P, Q, rows: leq(
                hockey(push(P, rows), push(Q, rows), p["eps"]), hockey(P, Q, p["eps"])
            )
        )(*_channel(d)),
        EPS,
    ),
    FiniteStatement(
        "eps-DP implies KL <= eps (e^eps - 1) (Lemma 3.18)",
        2,
        lambda d, p: implies(
            _dp(d[0], d[1], p["eps"], 0), leq(kl(d[0], d[1]), p["eps"] * (p["eps"].exp() - 1))
        ),
        EPS,
    ),
]


@pytest.mark.parametrize("statement", FALSE, ids=lambda s: s.name)
def test_planted_false_statements_are_refuted(statement: FiniteStatement) -> None:
    cex = search(statement, max_examples=600)
    assert cex is not None, statement.name
    assert all(sum(d) == 1 and all(x >= 0 for x in d) for d in cex.dists)
    assert "fails at P1 = (" in cex.describe()


@pytest.mark.parametrize("statement", TRUE, ids=lambda s: s.name)
def test_true_statements_are_not_refuted(statement: FiniteStatement) -> None:
    assert search(statement, max_examples=400) is None


def test_the_counterexample_is_exact_and_small() -> None:
    cex = search(FALSE[0], max_examples=600)
    assert cex is not None
    assert len(cex.dists[0]) <= 3  # shrunk
    assert all(isinstance(x, F) for d in cex.dists for x in d)


def test_undecided_is_not_a_counterexample() -> None:
    never = FiniteStatement("undecidable", 2, lambda d, p: None)
    assert search(never, max_examples=50) is None
