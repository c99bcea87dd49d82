"""The sign case split, signed factors, sums of hypotheses, the concavity (chord) rule,
pairwise sums, ratio products and |a| <= b consequences: each proves what it should, is
sound on random instances (Hypothesis, checked with mpmath), and does not fire on a false
variant (a flipped sign, a missing or one-sided hypothesis)."""

from __future__ import annotations

import random

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.relations import Relation
from symbolic.rules import Context, fact_from_relation, prove_relation
from symbolic.rules.facts import MAX_GOALS, abs_consequences
from symbolic.tactics import prove_zero

eps = sp.Symbol("eps", positive=True)
p, q = sp.symbols("p q", positive=True)
u1, u2, v1, v2, du = sp.symbols("u1 u2 v1 v2 Du", real=True)
TWO_SIDED = Context(
    fact_from_relation(sp.LessThan(p, sp.exp(eps) * q), "p <= e^eps q")
    + fact_from_relation(sp.LessThan(q, sp.exp(eps) * p), "q <= e^eps p")
)
ONE_SIDED = Context(fact_from_relation(sp.LessThan(p, sp.exp(eps) * q), "p <= e^eps q"))
A, B = sp.exp(-eps), sp.exp(eps)


def _two_sided_point(rng: random.Random) -> dict[sp.Symbol, mpmath.mpf]:
    """A random (eps, p, q) with e^-eps <= p/q <= e^eps, tangencies included."""
    with mpmath.workdps(60):  # p is built from q at more digits than the check uses
        e = mpmath.mpf(rng.choice([rng.uniform(1e-3, 4), 1e-6, 3]))
        qv = mpmath.mpf(rng.uniform(0.01, 1))
        r = mpmath.exp(e * rng.choice([rng.uniform(-1, 1), 1, -1, 0]))
        return {eps: e, p: r * qv, q: qv}


def _holds(lhs: sp.Expr, rhs: sp.Expr, values: dict[sp.Symbol, mpmath.mpf]) -> bool:
    with mpmath.workdps(50):
        f = sp.lambdify(list(values), rhs - lhs, modules="mpmath")
        gap = f(*values.values())
        return bool(gap >= -(mpmath.mpf(10) ** -35))


# -- the sign case split (Dwork & Roth 2014, Lemma 3.18, steps 5 and 7) -----------------


def _lemma_3_18_instance(c: sp.Expr, flip: bool, form: str) -> tuple[sp.Expr, sp.Expr]:
    """One of the two bounds of Lemma 3.18's proof, scaled by c > 0, p and q swapped if
    ``flip``: (q - p) ln(q/p) <= eps |q - p|, or max - min <= (e^eps - 1) min."""
    a, b = (q, p) if flip else (p, q)
    if form == "log":
        return c * (b - a) * sp.log(b / a), c * eps * sp.Abs(b - a)
    return c * (sp.Max(a, b) - sp.Min(a, b)), c * (sp.exp(eps) - 1) * sp.Min(b, a)


@settings(max_examples=4, deadline=None)
@given(
    st.sampled_from([1, 3, sp.Rational(1, 2)]),
    st.booleans(),
    st.sampled_from(["log", "maxmin"]),
    st.integers(0, 10**6),
)
def test_sign_split_is_sound(c: sp.Expr, flip: bool, form: str, seed: int) -> None:
    """Random instances where the rule fires; each checked at random points (tangencies
    p/q = e^+-eps included) with mpmath."""
    lhs, rhs = _lemma_3_18_instance(c, flip, form)
    trace = prove_relation(lhs, Relation.LE, rhs, TWO_SIDED)
    assert trace is not None and "sign case split" in trace
    rng = random.Random(seed)
    for _ in range(40):
        assert _holds(lhs, rhs, _two_sided_point(rng))


def test_sign_split_on_max_min() -> None:
    lhs, rhs = sp.Max(p, q) - sp.Min(p, q), (sp.exp(eps) - 1) * sp.Min(p, q)
    trace = prove_relation(lhs, Relation.LE, rhs, TWO_SIDED)
    assert trace is not None and "sign case split" in trace


def test_sign_split_does_not_fire_on_false_variants() -> None:
    # A bound too small by half, a flipped sign, and a one-sided hypothesis: all false.
    assert (
        prove_relation((q - p) * sp.log(q / p), Relation.LE, eps * sp.Abs(q - p) / 2, TWO_SIDED)
        is None
    )
    assert (
        prove_relation((p - q) * sp.log(q / p), Relation.GE, eps * sp.Abs(q - p), TWO_SIDED) is None
    )
    assert (
        prove_relation((q - p) * sp.log(q / p), Relation.LE, eps * sp.Abs(q - p), ONE_SIDED) is None
    )
    assert (
        prove_relation(
            sp.Max(p, q) - sp.Min(p, q), Relation.LE, (sp.exp(eps) - 1) * sp.Min(p, q), ONE_SIDED
        )
        is None
    )
    # The false variants really are false somewhere: the rules must not be merely weak.
    bad = {eps: mpmath.mpf(1), p: mpmath.mpf("0.1"), q: mpmath.mpf("0.9")}
    assert not _holds((q - p) * sp.log(q / p), eps * sp.Abs(q - p), bad)


# -- sums of hypotheses and signed factors ---------------------------------------------


def test_sum_of_hypotheses() -> None:
    x, y = sp.symbols("x y", real=True)
    ctx = Context(fact_from_relation(x <= 1, "x <= 1") + fact_from_relation(y <= 2, "y <= 2"))
    trace = prove_relation(x + y, Relation.LE, 3, ctx)
    assert trace is not None and "sum of hypotheses" in trace
    assert prove_relation(x + y, Relation.LE, sp.Rational(5, 2), ctx) is None
    assert prove_relation(x - y, Relation.LE, 3, ctx) is None  # y may be very negative


# -- the concavity (chord) rule ------------------------------------------------------------


def _chord_goal(phi: sp.Expr, r: sp.Symbol) -> tuple[sp.Expr, sp.Expr]:
    """q phi(p/q) <= q (chord of phi over [e^-eps, e^eps] at p/q)."""
    fa, fb = phi.subs(r, A), phi.subs(r, B)
    chord = fa + (fb - fa) / (B - A) * (p / q - A)
    return q * phi.subs(r, p / q), q * chord


_R = sp.Symbol("r", positive=True)
# The rule reads the ratio off a log: convex functions with a log of r in them.
CONVEX = [_R * sp.log(_R), -sp.log(_R), _R * sp.log(_R) + _R**2, 2 * _R * sp.log(_R) - _R]
CONCAVE = [sp.log(_R), -_R * sp.log(_R), sp.log(_R) - _R**2]


@settings(max_examples=4, deadline=None)
@given(st.sampled_from(CONVEX), st.integers(0, 10**6))
def test_chord_rule_is_sound(phi: sp.Expr, seed: int) -> None:
    lhs, rhs = _chord_goal(phi, _R)
    trace = prove_relation(lhs, Relation.LE, rhs, TWO_SIDED)
    assert trace is not None and "concave" in trace
    rng = random.Random(seed)
    for _ in range(30):
        assert _holds(lhs, rhs, _two_sided_point(rng))


def test_chord_rule_does_not_fire_on_false_variants() -> None:
    for phi in CONCAVE:  # a concave phi lies above its chord: the claim is false inside
        lhs, rhs = _chord_goal(phi, _R)
        assert prove_relation(lhs, Relation.LE, rhs, TWO_SIDED) is None, phi
        inside = {eps: mpmath.mpf(1), p: mpmath.mpf("0.5"), q: mpmath.mpf("0.5")}
        assert not _holds(lhs, rhs, inside)
    # Without the lower bound of p/q the interval is unknown: no proof.
    lhs, rhs = _chord_goal(_R * sp.log(_R), _R)
    assert prove_relation(lhs, Relation.LE, rhs, ONE_SIDED) is None


# -- pairwise sums, ratio products, |a| <= b consequences, positive generalisation -------


def _sensitivity(pairs: list[tuple[sp.Symbol, sp.Symbol]]) -> Context:
    facts = []
    for a, b in pairs:
        facts += fact_from_relation(sp.Abs(a - b) <= du, f"|{a} - {b}| <= Du")
    return Context(facts)


def test_pairwise_sum_of_exponentials() -> None:
    ctx = _sensitivity([(u1, v1), (u2, v2)])
    d = sp.Symbol("Du", positive=True)
    ctx = Context([f.__class__(f.expr.subs(du, d), f.strict, f.origin) for f in ctx.facts])
    small = sp.exp(v1) + sp.exp(v2)
    big = sp.exp(u1 + d) + sp.exp(u2 + d)
    trace = prove_relation(small, Relation.LE, big, ctx)
    assert trace is not None and "pairwise" in trace
    # False variant: the shift goes the wrong way.
    assert prove_relation(small, Relation.LE, sp.exp(u1 - d) + sp.exp(u2 - d), ctx) is None


@settings(max_examples=20, deadline=None)
@given(st.floats(-3, 3), st.floats(-1, 1), st.floats(0.01, 2))
def test_abs_consequences_are_sound(a: float, t: float, b: float) -> None:
    """From |a - c| <= b: a - c <= b and c - a <= b, at random points satisfying it."""
    c_sym = sp.Symbol("c", real=True)
    a_sym = sp.Symbol("a", real=True)
    b_sym = sp.Symbol("b", positive=True)
    facts = fact_from_relation(sp.Abs(a_sym - c_sym) <= b_sym, "h")
    derived = abs_consequences(facts)
    assert len(derived) == 2
    c = a + t * b  # |a - c| = |t| b <= b
    for f in derived:
        assert float(f.expr.subs({a_sym: a, b_sym: b, c_sym: c})) >= -1e-12


def test_abs_consequences_need_a_negative_coefficient() -> None:
    x, y = sp.symbols("x y", real=True)
    # |x| >= y says nothing about x >= y (x may be negative): no consequence drawn.
    assert abs_consequences(fact_from_relation(sp.Abs(x) >= y, "h")) == []


def test_ratio_products_pair_numerators_with_denominators() -> None:
    c1, c2, d1, d2 = sp.symbols("c1 c2 d1 d2", positive=True)
    ctx = Context(
        fact_from_relation(c1 <= sp.exp(eps) * d1, "h1")
        + fact_from_relation(c2 <= sp.exp(eps) * d2, "h2")
    )
    rhs = sp.Mul(sp.exp(eps), sp.exp(eps), evaluate=False)
    assert prove_relation(c1 * c2 / (d1 * d2), Relation.LE, rhs, ctx) is not None
    half = sp.Mul(sp.exp(eps / 2), sp.exp(eps), evaluate=False)
    assert prove_relation(c1 * c2 / (d1 * d2), Relation.LE, half, ctx) is None


def test_positive_sums_generalise_only_when_stated() -> None:
    a, b = sp.symbols("a b", positive=True)
    u, v = 1 - a - b, 1 - 2 * a
    residual = u * (sp.log(u / v) + sp.log(v / u))
    assert prove_zero(residual, cheap=True) is None  # sign of u, v unknown to SymPy
    assert prove_zero(residual, cheap=True, positive=(u, v)) is not None
    # Not a licence to drop logs: log(u v) - log(u) is not zero even for positive u, v.
    assert prove_zero(sp.log(u * v) - sp.log(u), cheap=True, positive=(u, v)) is None


@settings(max_examples=200, deadline=None)
@given(
    st.integers(-5, 5), st.integers(0, 5), st.integers(-9, 9), st.integers(-9, 9), st.integers(1, 9)
)
def test_a_fact_without_its_absolute_value_still_holds(
    a: int, c: int, tn: int, vn: int, d: int
) -> None:
    # e = a - c*v*|t| >= 0 with a symbolic weight v > 0: where e > 0, so is each fact that
    # abs_consequences derives, at the same point.
    from symbolic.rules.facts import Fact

    t, v = sp.Symbol("t", real=True), sp.Symbol("v", positive=True)
    e = a - c * v * sp.Abs(t)
    derived = abs_consequences([Fact(e, True, "h")]) if isinstance(e, sp.Add) else []
    assert len(derived) == (2 if c and a else 0)
    point = {t: sp.Rational(tn, d), v: sp.Rational(abs(vn) + 1, d)}
    if e.subs(point) > 0:
        assert all(f.expr.subs(point) > 0 for f in derived)


def test_no_fact_from_an_absolute_value_of_unknown_or_positive_weight() -> None:
    from symbolic.rules.facts import Fact

    t, w = sp.Symbol("t", real=True), sp.Symbol("w", real=True)
    assert abs_consequences([Fact(1 + sp.Abs(t), True, "h")]) == []
    assert abs_consequences([Fact(1 - w * sp.Abs(t), True, "h")]) == []


def test_case_provers_share_the_attempts_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """A case split's provers get the subgoal budget of the attempt they belong to, so a
    small budget (a refuted link's cheap search) stays small inside the cases; with the
    full budget the same split still proves the lemma."""
    from symbolic.rules import prover as prover_module

    budgets: list[int] = []
    made = prover_module.Prover.__init__

    def recording(self: prover_module.Prover, ctx: Context, max_goals: int = MAX_GOALS) -> None:
        budgets.append(max_goals)
        made(self, ctx, max_goals)

    monkeypatch.setattr(prover_module.Prover, "__init__", recording)
    lhs, rhs = sp.Max(p, q) - sp.Min(p, q), (sp.exp(eps) - 1) * sp.Min(p, q)
    assert prove_relation(lhs, Relation.LE, rhs, TWO_SIDED, max_goals=40) is not None
    assert len(budgets) > 1 and set(budgets) == {40}
    budgets.clear()
    prove_relation(lhs, Relation.LE, rhs, TWO_SIDED, cheap=True, max_goals=3)
    assert budgets and set(budgets) == {3}
