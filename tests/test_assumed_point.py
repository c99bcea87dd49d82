"""The point witness (symbolic/assumed_point.py): a point that satisfies every symbol's
assumptions, a rigorous interval enclosure there, and the two shortcuts built on it (a
ladder that cannot reach 0, a sign query that cannot succeed).  Each shortcut must skip
only work whose failure it implies: the answers with and without it are compared."""

from __future__ import annotations

import mpmath
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import symbolic.rules.prover as prover
import symbolic.tactics as tactics
from symbolic.assumed_point import (
    _point,
    enclosure_at_point,
    negative_somewhere,
    nonzero_somewhere,
)

X, Y = sp.symbols("x y", positive=True)
N = sp.Symbol("n", integer=True, positive=True)
NEG = sp.Symbol("m", negative=True)
Z = sp.Symbol("z")
P = sp.IndexedBase("p", positive=True)
IX, JX = sp.symbols("i j", integer=True)


def test_point_satisfies_every_assumption() -> None:
    point = _point(frozenset({X, Y, N, NEG, Z, P[IX]}))
    assert point is not None
    for s, value in point.items():
        for key in ("positive", "negative", "integer", "nonnegative", "nonzero"):
            wanted = getattr(s, f"is_{key}")
            if wanted is not None:
                assert getattr(value, f"is_{key}") is wanted, (s, key, value)
    assert point[X] != point[Y]  # distinct symbols, distinct values


def test_identities_are_never_called_nonzero() -> None:
    identities = [
        (X + 1) ** 2 - X**2 - 2 * X - 1,
        sp.log(X * Y) - sp.log(X) - sp.log(Y),
        sp.exp(X) * sp.exp(Y) - sp.exp(X + Y),
        sp.sqrt(X**2) - X,
        sp.Max(X, Y) + sp.Min(X, Y) - X - Y,
        sp.Abs(X - Y) - sp.Max(X, Y) + sp.Min(X, Y),
        (N + 1) * N / 2 - sp.Rational(1, 2) * N**2 - N / 2,
        P[IX] * sp.log(P[IX] / X) - P[IX] * sp.log(P[IX]) + P[IX] * sp.log(X),
    ]
    for e in identities:
        assert not nonzero_somewhere(e), e


def test_false_identities_are_called_nonzero() -> None:
    for e in (sp.exp(X) - X, X - Y, sp.log(X + Y) - sp.log(X) - sp.log(Y), NEG + 1 - NEG**2):
        assert nonzero_somewhere(e), e


def test_signs_respect_the_assumptions() -> None:
    # Never negative where the assumptions make it nonnegative: the check must not refute
    # what SymPy would prove.
    for e in (X, X + Y, X * Y, sp.exp(Z), N - 1, -NEG, sp.Abs(Z - 3), (X - Y) ** 2, P[IX]):
        assert not negative_somewhere(e), e
    for e in (X - Y, NEG, -N, sp.log(X)):  # each negative at some admissible point
        assert negative_somewhere(e) or negative_somewhere(-e), e


def test_undecided_shapes_say_nothing() -> None:
    # Unevaluated integrals, unknown functions, a log of a value of unknown sign, two
    # elements of one family (p[i], p[j] are one element where i = j).
    f = sp.Function("f")
    for e in (
        sp.Integral(X, (X, 0, Y)) - 1,
        f(X) - 1,
        sp.log(-X) - 5,
        P[IX] - P[JX] - 100,
        1 / (X - sp.Rational(3, 7)),  # a pole at the point x takes (3/7)
    ):
        assert enclosure_at_point(e) is None, e


SYMS = (X, Y, N, NEG, Z)


@st.composite
def expressions(draw: st.DrawFn, depth: int = 3) -> sp.Expr:
    if depth == 0 or draw(st.booleans()):
        return draw(st.sampled_from([*SYMS, sp.Integer(draw(st.integers(-3, 3)))]))
    op = draw(st.sampled_from(["add", "mul", "exp", "log", "abs", "max", "pow"]))
    a = draw(expressions(depth=depth - 1))
    if op == "exp":
        return sp.exp(a)
    if op == "log":
        return sp.log(a)
    if op == "abs":
        return sp.Abs(a)
    if op == "pow":
        return a ** draw(st.sampled_from([2, -1, sp.Rational(1, 2)]))
    b = draw(expressions(depth=depth - 1))
    if op == "max":
        try:
            return sp.Max(a, b)
        except ValueError:  # arguments SymPy cannot order (not real)
            return a + b
    return {"add": sp.Add, "mul": sp.Mul}[op](a, b)


@settings(max_examples=60, deadline=None)
@given(expressions(depth=2))
def test_enclosure_holds_the_value(e: sp.Expr) -> None:
    """Soundness: the interval holds SymPy's own value at the point, and a negative
    enclosure is never contradicted by SymPy's assumptions."""
    box = enclosure_at_point(e)
    if box is None:
        return
    point = _point(frozenset(e.free_symbols))
    assert point is not None
    value = e.xreplace(point).evalf(30)
    assert value.is_real
    lo, hi = (sp.Float(mpmath.mpf(end), 30) for end in box._mpi_)
    assert lo - sp.Float(1e-12) <= value <= hi + sp.Float(1e-12)
    if box.b < 0:
        assert e.is_nonnegative is not True
        assert e.is_positive is not True
    if box.a > 0 or box.b < 0:
        assert e.is_zero is not True


def test_ladder_answers_the_same_without_the_shortcut(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The ladder with the shortcut and without it prove the same residuals."""
    residuals = [
        (X + 1) ** 2 - X**2 - 2 * X - 1,
        sp.log(X * Y) - sp.log(X) - sp.log(Y),
        sp.exp(X) * sp.exp(Y) - sp.exp(X + Y),
        sp.exp(X) - X,
        sp.cosh(X) ** 2 - sp.sinh(X) ** 2 - 1,
        sp.log(X + Y) - sp.log(X),
        (X**2 - 1) / (X - 1) - X - 1,
        sp.Max(X, Y) - sp.Abs(X - Y) / 2 - (X + Y) / 2,
    ]
    fast = [tactics.prove_zero(r) for r in residuals]
    monkeypatch.setattr(tactics, "nonzero_somewhere", lambda e: False)
    slow = [tactics.prove_zero(r) for r in residuals]
    assert fast == slow
    assert fast[0] is not None and fast[3] is None and fast[5] is None


def test_sign_answers_the_same_without_the_shortcut(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    goals = [X - Y, X + Y, sp.exp(X) - 1, sp.exp(X) - X, sp.log(X), N - 1, 1 - N, X * Y - 1]
    fast = [prover._assumed_sign.__wrapped__(g, s) for g in goals for s in (True, False)]
    monkeypatch.setattr(prover, "negative_somewhere", lambda e: False)
    slow = [prover._assumed_sign.__wrapped__(g, s) for g in goals for s in (True, False)]
    assert fast == slow
    assert any(fast) and not all(fast)
