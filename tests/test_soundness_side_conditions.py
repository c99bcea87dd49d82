"""Issue 38, "side conditions are data": what a proof needs beyond its rules is recorded,
discharged under the hypotheses, and shown where it is not.

Units here (which conditions an expression has, which the rules discharge, and z3's
denominators); the claims are in ``tests/soundness/side_conditions``
(:mod:`tests.test_soundness_claims`).
"""

from __future__ import annotations

import pytest
import sympy as sp

from symbolic.functions import Phi, PhiInv
from symbolic.readers.claim_files import parse_claim
from symbolic.rules import Context, fact_from_relation
from symbolic.rules.facts import Fact
from symbolic.rules.nra import decide
from symbolic.side_conditions import (
    SideCondition,
    defined_on,
    definedness,
    discharge,
    typed_conditions,
    undischarged,
    where_text,
)

x, y = sp.symbols("x y", real=True)
p = sp.Symbol("p", positive=True)


def _relations(e: sp.Expr) -> set[str]:
    return {c.relation() for c in definedness(e)}


@pytest.mark.parametrize(
    ("expr", "wanted"),
    [
        ((x**2 - 1) / (x - 1), {"x - 1 != 0"}),
        (sp.log(x) + 1 / y, {"x > 0", "y != 0"}),
        (sp.sqrt(x - 1), {"x - 1 >= 0"}),
        (1 / sp.sqrt(x), {"x > 0", "x != 0"}),
        (x**y, {"x > 0"}),
        (x ** sp.Symbol("k", integer=True), {"x != 0"}),  # an integer power: any real base
        (x ** sp.Symbol("k", integer=True, nonnegative=True), set()),
        (PhiInv(x), {"x >= 0", "1 - x >= 0"}),
        (sp.exp(x) + x**3 + sp.Abs(x), set()),
        (2**x + sp.sqrt(2) + sp.log(3), set()),  # constant bases and arguments hold exactly
    ],
)
def test_definedness(expr: sp.Expr, wanted: set[str]) -> None:
    assert _relations(expr) == wanted


def test_a_condition_inside_a_sum_holds_over_its_range() -> None:
    """``1/(k - 1)`` summed from 1 has a pole at k = 1; from 2 it has none.  An integrand is
    the integral's own business (``1/sqrt(t)`` on [0, 1] is integrable)."""
    k = sp.Symbol("k", integer=True)
    n = sp.Symbol("n", integer=True, positive=True)
    t = sp.Symbol("t", real=True)
    assert _relations(sp.Sum(1 / (k - 1), (k, 1, n)) + 1 / x) == {
        "x != 0",
        "k - 1 != 0 for k >= 1 and k <= n",
        "n >= 0",  # the range is not reversed (test_a_reversed_range_is_no_proof)
    }
    (from_one,) = [c for c in definedness(sp.Sum(1 / (k - 1), (k, 1, n))) if c.kind == "nonzero"]
    (from_two,) = [c for c in definedness(sp.Sum(1 / (k - 1), (k, 2, n))) if c.kind == "nonzero"]
    assert not discharge([from_one], [])[0].discharged
    assert discharge([from_two], [])[0].discharged
    # Inside an integral, strictly between its ends: an integrable singularity at an end is
    # no condition left, a pole inside is (SymPy integrates 1/(t - x)**2 over (0, 2x) to
    # -2/x, across the pole).
    root = definedness(sp.Integral(1 / sp.sqrt(t), (t, 0, 1)))
    assert root and all(c.discharged for c in discharge(root, []))
    q = sp.Symbol("q", positive=True)
    (pole,) = definedness(sp.Integral(1 / (t - q) ** 2, (t, 0, 2 * q)))
    assert pole.relation() == "-q + t != 0 for t > 0 and t < 2*q"
    assert not discharge([pole], [])[0].discharged
    (apart,) = definedness(sp.Integral(1 / (t - q) ** 2, (t, 2 * q, 3 * q)))
    assert discharge([apart], [])[0].discharged
    # Ends of unknown order: strictly between them, either way.
    (either,) = definedness(sp.Integral(1 / t, (t, x, 1)))
    assert either.relation() == "t != 0 for t > Min(1, x) and t < Max(1, x)"


def test_a_reversed_range_is_no_proof() -> None:
    """A sum over ``a..b`` with ``b < a - 1`` is 0 to the checker and minus the sum over
    ``b + 1..a - 1`` to SymPy (Karr's convention: ``Sum(1, (i, 1, k)).doit()`` is ``k`` for
    every integer ``k``): a proof needs the length ``b - a + 1 >= 0``, shown from the
    facts, for every finite range, constant ones included; a series needs nothing."""
    i, j = sp.symbols("i j", integer=True)
    k = sp.Symbol("k", integer=True)
    n = sp.Symbol("n", integer=True, positive=True)
    assert _relations(sp.Sum(1, (i, 1, k))) == {"k >= 0"}
    assert _relations(sp.Product(2, (i, 0, k - 2))) == {"k - 1 >= 0"}
    assert _relations(sp.Sum(1, (i, 3, 1))) == {"-1 >= 0"}  # reversed: never discharged
    assert _relations(sp.Sum(1, (i, 1, 3)) + sp.Sum(2**-i, (i, k, sp.oo))) == set()
    (cond,) = definedness(sp.Sum(1, (i, 1, k)))
    assert not discharge([cond], [])[0].discharged
    assert discharge([cond], _facts(k >= 1))[0].discharged
    # The inner range of a double sum reads the outer index over its own range.
    (inner, outer) = definedness(sp.Sum(1, (i, 1, j), (j, 1, n)))
    assert inner.relation() == "j >= 0 for j >= 1 and j <= n"
    assert all(c.discharged for c in discharge([inner, outer], []))


def test_beta_and_a_piecewise_without_default_have_conditions() -> None:
    """``beta(a, b)`` has poles where an argument is 0, -1, ... (SymPy's assumptions call it
    finite for ``a >= 0``); a ``Piecewise`` with no default branch has no value where none
    of its conditions holds (SymPy calls ``Piecewise((x**2, x > 0))`` nonnegative)."""
    a, b = sp.symbols("a b", real=True)
    assert _relations(sp.beta(a, b)) == {"a > 0", "b > 0"}
    (partial,) = definedness(sp.Piecewise((x**2, x > 0)))
    assert partial.relation() == "x > 0 holds"
    assert not discharge([partial], [])[0].discharged
    assert not discharge([partial], _facts(x >= 0))[0].discharged  # x = 0: no branch
    assert discharge([partial], _facts(x > 1))[0].discharged
    either = sp.Piecewise((1, x > 1), (2, x < -1))
    (gap,) = definedness(either)
    assert not discharge([gap], _facts(x > 0))[0].discharged  # (0, 1]: neither
    assert discharge([gap], _facts(x < -2))[0].discharged
    assert definedness(sp.Piecewise((1, x > 0), (2, True))) == []


def test_what_reading_drops_is_kept_as_typed() -> None:
    """SymPy evaluates on reading: ``x/x`` is ``1``, ``exp(log(x))`` is ``x``,
    ``sqrt(1 - x)**2`` is ``1 - x``.  The conditions of the typed form that the read form
    lacks are kept (a reordering, or a condition the read form still has, adds nothing)."""
    with sp.evaluate(False):
        typed = [x / x, sp.exp(sp.log(x)), sp.sqrt(1 - x) ** 2, 2 * x * y, sp.log(x) / 2]
    read = [sp.Integer(1), x, 1 - x, 2 * x * y, sp.log(x) / 2]
    lost = [
        {c.relation() for c in typed_conditions(t, r)} for t, r in zip(typed, read, strict=True)
    ]
    assert lost == [{"x != 0"}, {"x > 0"}, {"1 - x >= 0"}, set(), set()]
    d = parse_claim('[claim]\nlhs = "x/x"\nrelation = "="\nrhs = "1"\n[variables]\nx = "R"\n')
    assert [(r, [c.relation() for c in cs]) for r, cs in d.typed] == [(1, ["x != 0"])]


def _facts(*relations: sp.Basic) -> list[Fact]:
    out: list[Fact] = []
    for r in relations:
        out += fact_from_relation(r, str(r))
    return out


@pytest.mark.parametrize(
    ("condition", "facts", "shown"),
    [
        (SideCondition("nonzero", x - 1, ""), [], False),
        (SideCondition("nonzero", x - 1, ""), [x > 1], True),
        (SideCondition("nonzero", x - 1, ""), [x < 1], True),
        (SideCondition("nonzero", x - 1, ""), [x >= 1], False),  # a tie at x = 1
        (SideCondition("positive", x, ""), [x >= 0], False),
        (SideCondition("nonnegative", x, ""), [x >= 0], True),
        (SideCondition("positive", p + 1, ""), [], True),
        (SideCondition("nonnegative", 1 - Phi(x), ""), [], True),  # Phi(-x) >= 0
        (SideCondition("nonzero", sp.pi - sp.Rational(355, 113), ""), [], True),
        (SideCondition("nonzero", sp.sqrt(8) - 2 * sp.sqrt(2) + 0 * x, ""), [], False),
    ],
)
def test_discharge(condition: SideCondition, facts: list[sp.Basic], shown: bool) -> None:
    (out,) = discharge([condition], _facts(*facts))
    assert out.discharged is shown, out


def test_what_was_not_shown_is_named() -> None:
    conditions = defined_on(_facts(x >= 0), (x**2 - 1) / (x - 1), sp.log(x))
    missing = undischarged(conditions)
    assert where_text(missing) == "x - 1 != 0 and x > 0"
    assert all("not shown" in c.describe() for c in missing)


def test_z3_proves_the_goals_denominators_nonzero() -> None:
    """``1/x >= 0`` from ``x >= 0``: true where ``1/x`` has a value, but not at ``x = 0``,
    so not proved; with ``x > 0`` it is."""
    assert decide(1 / x, False, _facts(x >= 0)).trace is None
    assert decide(1 / x, False, _facts(x > 0)).trace is not None


def test_z3_still_uses_denominators_in_facts() -> None:
    """A hypothesis ``1/x <= 2`` holds only where ``1/x`` is defined; its denominator is no
    obligation of the goal ``x >= 1/2``."""
    trace = decide(x - sp.Rational(1, 2), False, _facts(1 / x <= 2, x > 0)).trace
    assert trace is not None


def test_a_context_is_accepted_as_facts() -> None:
    ctx = Context(_facts(x > 1))
    assert not undischarged(defined_on(ctx.facts, 1 / (x - 1)))


def test_an_index_range_and_a_positive_integral_discharge_only_what_holds() -> None:
    """A sum's index is an integer from its start: ``factorial(k) != 0`` from 0 holds,
    ``factorial(k - 2)`` from 0 is 1/0-prone (``(-2)!``) and ``k - 1 != 0`` from 0 fails at
    1.  An integral of a positive function over a forward range is positive; over a
    reversed range, or of a function of either sign, it is not shown."""
    k = sp.Symbol("k", integer=True)
    t = sp.Symbol("t", real=True)

    def shown(e: sp.Expr, kind: str = "nonzero") -> bool:
        (c,) = [c for c in definedness(e) if c.kind == kind] or [SideCondition(kind, e, "")]
        return discharge([c], [])[0].discharged

    assert shown(sp.Sum(1 / sp.factorial(k), (k, 0, sp.oo)))
    assert not shown(sp.Sum(1 / sp.factorial(k - 2), (k, 0, sp.oo)))
    assert not shown(sp.Sum(1 / (k - 1), (k, 0, x)))
    assert shown(sp.log(sp.Integral(sp.exp(-p * t**2), (t, -sp.oo, sp.oo))), "positive")
    assert not shown(sp.log(sp.Integral(sp.exp(t), (t, 2, 1))), "positive")
    assert not shown(sp.log(sp.Integral(t * x, (t, -1, 2))), "positive")
