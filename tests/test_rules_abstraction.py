"""Every lemma the abstraction may use is true on its stated range (checked at 50 digits on
random arguments), and the same check catches a false one (``exp(a) >= 1 + 2a``)."""

from __future__ import annotations

from collections.abc import Callable

import mpmath
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sympy.core.relational import Relational

from symbolic.rules.abstraction import Abstraction, NotAbstractable
from symbolic.rules.lemmas import LEMMAS, NUMERIC_HEADS, Lemma, power_head, power_lemmas

RANGES = {
    "exp": (-30.0, 30.0),
    "log": (1e-8, 1e4),
    "tanh": (-20.0, 20.0),
    "cosh": (-20.0, 20.0),
    "sinh": (-20.0, 20.0),
    "Phi": (-10.0, 10.0),
    "erf": (-6.0, 6.0),
    "erfc": (-6.0, 6.0),
    "atan": (-1e3, 1e3),
    "sin": (-50.0, 50.0),
    "cos": (-50.0, 50.0),
}
POWERS = [sp.Rational(1, 2), sp.Rational(1, 3), sp.Rational(3, 2), sp.Rational(-1, 2)]
for r in POWERS:
    RANGES[power_head(r)] = (1e-8 if r < 0 else 0.0, 1e4)
    NUMERIC_HEADS[power_head(r)] = lambda a, r=r: mpmath.power(a, mpmath.mpf(r.p) / r.q)

ALL = list(LEMMAS) + [lemma for r in POWERS for lemma in power_lemmas(r)]


def holds(b: sp.Basic, tol: mpmath.mpf, at: dict[sp.Symbol, mpmath.mpf]) -> bool:
    """A lemma's boolean at the values ``at``, relations compared within ``tol`` (relative;
    a negative ``tol`` for a premise: it must hold by that margin)."""
    if b is sp.true:
        return True
    if b is sp.false:
        return False
    if isinstance(b, sp.And):
        return all(holds(a, tol, at) for a in b.args)
    if isinstance(b, sp.Or):
        return any(holds(a, tol, at) for a in b.args)
    if isinstance(b, sp.Implies):
        return (not holds(b.args[0], -tol, at)) or holds(b.args[1], tol, at)
    if isinstance(b, sp.Not):
        return not holds(b.args[0], -tol, at)
    assert isinstance(b, Relational), b
    # The slack scales with the terms' sizes: cosh(14)**2 - sinh(14)**2 cancels 11 digits.
    terms = sp.Add.make_args(sp.expand(b.lhs - b.rhs))
    values = [sp.lambdify(list(at), term, "mpmath")(*at.values()) for term in terms]
    d = mpmath.fsum(values)
    slack = tol * (1 + mpmath.fsum(abs(v) for v in values))
    if isinstance(b, sp.Eq):
        return abs(d) <= abs(slack)
    if isinstance(b, sp.Ge | sp.Gt):
        return d >= -slack if isinstance(b, sp.Ge) else d > -slack
    return d <= slack if isinstance(b, sp.Le) else d < slack


def check_lemma(lemma: Lemma, draw: Callable[[float, float], float]) -> None:
    args: list[sp.Expr] = []
    for i, head in enumerate(lemma.heads):
        lo, hi = RANGES[head]
        if lemma.relate is not None and i == len(lemma.heads) - 1:
            args.append(sp.expand(lemma.relate(*args)))
        else:
            args.append(sp.Float(draw(lo, hi), 50))
    pairs, at = [], {}
    with mpmath.workdps(50):
        for i, (head, a) in enumerate(zip(lemma.heads, args, strict=True)):
            t, sym = sp.Dummy(f"t{i}", real=True), sp.Dummy(f"a{i}", real=True)
            at[sym] = mpmath.mpf(sp.N(a, 50))
            at[t] = NUMERIC_HEADS[head](at[sym])
            pairs.append((t, sym))
        fact = lemma.build(*pairs)
        assert holds(fact, mpmath.mpf("1e-40"), at), (lemma.name, args, fact)


@pytest.mark.parametrize("lemma", ALL, ids=[lemma.name for lemma in ALL])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_lemma_holds_at_random_arguments(lemma: Lemma, data: st.DataObject) -> None:
    def draw(lo: float, hi: float) -> float:
        return data.draw(st.floats(lo, hi, allow_nan=False, allow_infinity=False))

    check_lemma(lemma, draw)


def test_lemma_check_catches_a_false_fact() -> None:
    """The mutant of the tangent line: exp(a) >= 1 + 2a is false at a = 1."""
    mutant = Lemma("mutant", ("exp",), "exp(a) >= 1 + 2a", lambda p: p[0] >= 1 + 2 * p[1])
    with pytest.raises(AssertionError):
        for a in (0.5, 1.0, 1.5):
            check_lemma(mutant, lambda lo, hi, a=a: a)


def test_lemma_check_catches_a_false_monotonicity() -> None:
    mutant = Lemma(
        "mutant",
        ("cos", "cos"),
        "a > b => cos(a) > cos(b)",
        lambda p, q: sp.Implies(p[1] > q[1], p[0] > q[0]),
    )
    values = iter((1.0, 0.0))
    with pytest.raises(AssertionError):
        check_lemma(mutant, lambda lo, hi: next(values))


def test_atoms_are_shared_and_obligations_recorded() -> None:
    x = sp.Symbol("x", positive=True)
    ab = Abstraction()
    g = ab(sp.log(1 + x) + sp.exp(x) * sp.log(1 + x) + sp.sqrt(x - 1))
    assert len(ab.atoms) == 3  # log(1 + x) once, exp(x), sqrt(x - 1)
    assert g.free_symbols <= {x, *(a.var for a in ab.atoms.values())}
    assert sp.Ge(x - 1, 0) in ab.obligations
    assert sp.Gt(x + 1, 0) in ab.obligations or (x + 1 > 0) is sp.true


def test_a_complex_symbol_is_refused() -> None:
    z = sp.Symbol("z")
    with pytest.raises(NotAbstractable):
        Abstraction()(sp.exp(z))


def test_lemma_check_catches_a_false_multiple() -> None:
    """The mutant of the double: exp(a)**2 = exp(3 a) is false for a != 0."""
    mutant = Lemma(
        "mutant",
        ("exp", "exp"),
        "exp(a)**2 = exp(3 a)",
        lambda p, q: sp.Eq(p[0] ** 2, q[0]),
        relate=lambda a: 3 * a,
    )
    with pytest.raises(AssertionError):
        check_lemma(mutant, lambda lo, hi: 0.5)
