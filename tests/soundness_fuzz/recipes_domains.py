"""Recipes about where a claim holds: closed and open ends (rational or expressions), constants
against their roundings, violations far out or at negative points, equality hypotheses
with several branches, inequality hypotheses tight on their boundary."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import sympy as sp
from hypothesis import assume
from hypothesis import strategies as st

from .claims import FuzzClaim, Point, Var
from .expr import (
    EULER,
    ONE,
    OO,
    PI,
    TWO,
    ZERO,
    Abs,
    Max,
    Min,
    Phi,
    PhiInv,
    Rel,
    X,
    alias,
    erf,
    exact,
    exp,
    factorial,
    gamma,
    integral,
    log,
    num,
    sinh,
    sqrt,
    summation,
    tanh,
    var,
)
from .generators import (
    _MIRROR,
    ENDS,
    Draw,
    F,
    _rng,
    checked_claim,
    end_value,
    estimated,
    k_,
    p_,
    t_,
)

# -- recipe: domain ends ---------------------------------------------------------------
END_MAPS: list[tuple[X, str, Callable[[X], X], X]] = [
    # (end a, name, f strictly increasing on [a, oo), f(a) written exactly)
    (ZERO, "exp", exp, ONE),
    (log(num(3)), "exp", exp, num(3)),
    (log(TWO), "exp", exp, TWO),
    (PI / 2, "2x", lambda t: 2 * t, PI),
    (sqrt(TWO), "square", lambda t: t**2, TWO),
    (EULER, "log", log, ONE),
    (PI, "id", lambda t: t, PI),
    (num(1, 3), "3x", lambda t: 3 * t, ONE),
    (num(-1), "cube", lambda t: t**3, num(-1)),
    (ONE, "log", log, ZERO),
    (ZERO, "sinh", sinh, ZERO),
    (ZERO, "tanh", tanh, ZERO),
    (ZERO, "erf", erf, ZERO),
    (ZERO, "Phi", Phi, num(1, 2)),
    (TWO, "sqrt", sqrt, sqrt(TWO)),
    (log(num(3)) / 2, "exp2x", lambda t: exp(2 * t), num(3)),
    (sqrt(num(3)), "square-3", lambda t: t**2 - 3, ZERO),
]


def _made_strict(
    claim: FuzzClaim, rel: str, witness: dict[str, Any], why: str, **more: Any
) -> FuzzClaim:
    """A claim tight on its boundary made strict: false at ``witness``, where its sides
    are equal."""
    return checked_claim(
        replace(
            claim,
            rel=rel,
            truth=False,
            witness=witness,
            recipe=claim.recipe + "/strict",
            why=why,
            **more,
        )
    )


def _rational_near(c: X, digits: int, up: bool) -> Fraction:
    """``c`` rounded to ``digits`` significant decimal digits, up or down (never equal to an
    irrational ``c``; for a rational ``c`` one unit of the last digit away from it)."""
    v = sp.N(exact(c, {}), digits + 30)
    if v == 0:
        return Fraction(1 if up else -1, 10**digits)
    e = int(sp.floor(sp.log(abs(v), 10)))
    scale = sp.Integer(10) ** (digits - 1 - e)
    n = sp.ceiling(v * scale) if up else sp.floor(v * scale)
    q = Fraction(int(n)) / Fraction(int(scale)) if scale >= 1 else Fraction(int(n)) * int(1 / scale)
    exact_c = exact(c, {})
    if exact_c.is_Rational and q == Fraction(int(exact_c.p), int(exact_c.q)):
        q += Fraction(1, 10 ** (digits - 1 - e)) * (1 if up else -1)
    return q


@st.composite
def end_claims(draw: Draw) -> FuzzClaim:
    """``f(x) > f(a)`` on ``[a, b]`` or ``(a, b]`` (false only at the closed end ``a``), the
    non-strict form (true), and ``f(x) >= D`` with ``D`` the value rounded up (false at the
    closed end, by a hair) or down (true); ends rational or expressions, the other end
    anything (the issue's ``[0, log(3)]``)."""
    a, fname, f, fa = draw(st.sampled_from(END_MAPS))
    av = end_value(a)
    later = [e for e in ENDS if end_value(e) > av + 1e-9]
    hi = draw(st.sampled_from([None, *later]))
    lo_open, hi_open = draw(st.booleans()), draw(st.booleans())
    upper = draw(st.booleans())
    x = var("x")
    form = draw(st.sampled_from(["strict", "nonstrict", "decimal-up", "decimal-down"]))
    if upper:
        # Mirror: x in [-b, -a], claim f(-x) > f(a): the closed end is the upper one.
        xv = Var("x", lo=-hi if hi is not None else None, hi=-a, lo_open=hi_open, hi_open=lo_open)
        fx = f(-x)
        closed = not lo_open
    else:
        xv = Var("x", lo=a, hi=hi, lo_open=lo_open, hi_open=hi_open)
        fx = f(x)
        closed = not lo_open
    wx = exact(-a if upper else a, {})
    digits = draw(st.sampled_from([6, 15, 16, 17, 20, 30]))
    if form == "strict":
        claim = FuzzClaim(f"end/{fname}/strict", "domain end", not closed, (xv,), fx, ">", fa)
    elif form == "nonstrict":
        claim = FuzzClaim(f"end/{fname}/nonstrict", "domain end", True, (xv,), fx, ">=", fa)
    elif form == "decimal-up":
        # f(x) >= D with D just above f(a): false at a closed end, and in a sliver beside an
        # open one (which the sampling need not find).
        d = num(_rational_near(fa, digits, up=True))
        claim = FuzzClaim(
            f"end/{fname}/decimal-up", "constant enclosure", False, (xv,), fx, ">=", d
        )
        eps = sp.Rational(1, 10 ** (digits + 5))
        if not closed:
            wx = wx - eps if upper else wx + eps
    else:
        d = num(_rational_near(fa, digits, up=False))
        claim = FuzzClaim(
            f"end/{fname}/decimal-down", "constant enclosure", True, (xv,), fx, ">=", d
        )
    if draw(st.booleans()):
        claim = replace(claim, lhs=claim.rhs, rhs=claim.lhs, rel=_MIRROR[claim.rel])
    if not claim.truth:
        claim = replace(
            claim,
            witness={"x": wx},
            findable=closed,
            why=(
                "fails exactly at the closed end "
                if closed
                else "fails in a sliver beside the open end "
            )
            + ("-" if upper else "")
            + a.text,
        )
    return checked_claim(claim)


# -- recipe: constants -----------------------------------------------------------------
CONSTANTS: list[tuple[str, X]] = [
    ("pi", PI),
    ("E", EULER),
    ("sqrt2", sqrt(TWO)),
    ("log2", log(TWO)),
    ("log3", log(num(3))),
    ("pi/2", PI / 2),
    ("exp(pi)", exp(PI)),
    ("Phi(1)", Phi(ONE)),
    ("erf(1/2)", erf(num(1, 2))),
    ("PhiInv(39/40)", PhiInv(num(39, 40))),
    ("gamma(1/2)", gamma(num(1, 2))),
    ("tanh(1)", tanh(ONE)),
    ("pi**E", PI**EULER),
    ("basel", alias(summation(1 / k_**2, "k", ONE, OO), PI**2 / 6)),
    ("e-series", alias(summation(1 / factorial(k_), "k", ZERO, OO), EULER)),
    ("gauss-integral", alias(integral(exp(-(t_**2)), "t", -OO, OO), sqrt(PI))),
    ("arctan-integral", alias(integral(1 / (1 + t_**2), "t", ZERO, ONE), PI / 4)),
    ("log-integral", alias(integral(1 / t_, "t", ONE, num(3)), log(num(3)))),
]


@st.composite
def constant_claims(draw: Draw) -> FuzzClaim:
    """A constant against its decimal rounding (``pi <= 3.141592653589793``), and a variable
    on ``[lo, c]`` against the rounding of ``c`` (the issue's ``x <= 1.5707963267948966`` on
    ``[0, pi/2]``): false by a hair at the constant, true with the rounding on the other
    side.  Truth from the sign of ``c - D``, irrational ``c`` against rational ``D``."""
    name, c = draw(st.sampled_from(CONSTANTS))
    digits = draw(st.sampled_from([6, 15, 16, 17, 20, 30, 45]))
    up = draw(st.booleans())
    d = num(_rational_near(c, digits, up))
    with_var = draw(st.booleans()) and name in ("pi", "E", "sqrt2", "log2", "log3", "pi/2")
    if with_var:
        closed = draw(st.booleans())
        xv = Var("x", lo=ZERO, hi=c, lo_open=False, hi_open=not closed)
        rel = draw(st.sampled_from(["<=", "<"]))
        # x REL D on [0, c] or [0, c): true iff D lies above c (D never equals c).
        claim = FuzzClaim(
            f"constant/{name}/variable", "constant enclosure", up, (xv,), var("x"), rel, d
        )
        if not up:
            near_c = Fraction(str(sp.N(exact(c, {}), digits + 40)))
            wx: object = exact(c, {}) if closed else (d.num + near_c) / 2  # type: ignore[operator]
            claim = replace(
                claim,
                witness={"x": wx},
                findable=closed,
                why="fails at the closed end c" if closed else "fails in a sliver",
            )
        return checked_claim(claim)
    rel = draw(st.sampled_from(["<=", "<", ">=", ">"]))
    lhs, rhs = (c, d) if draw(st.booleans()) else (d, c)
    claim = FuzzClaim(f"constant/{name}", "constant enclosure", True, (), lhs, rel, rhs)
    holds = claim.holds_at({})
    assume(holds is not None)
    claim = replace(claim, truth=bool(holds))
    if not holds:
        claim = replace(
            claim, witness={}, findable=True, why=f"{name} vs its {digits}-digit rounding"
        )
    return checked_claim(claim)


# -- recipe: signs and magnitudes ------------------------------------------------------
SIGN_FORMS: list[tuple[str, str]] = [
    ("x>=-M", "sign"),
    ("cube>=-M", "sign"),
    ("exp>=tiny", "sign"),
    ("log>=-j", "sign"),
    ("ratio>-1+eps", "weak evidence"),
    ("hypot>=x+eps", "weak evidence"),
    ("x<=M", "weak evidence"),
    ("abs<=M", "sign"),
    ("tanh>-1+eps", "sign"),
]


@st.composite
def sign_claims(draw: Draw) -> FuzzClaim:
    """Claims false only far out (``x >= -100`` on R, ``sqrt(x**2 + 1) >= x + 1e-40``) and
    their true forms; findable only when the violation starts within the sampled
    magnitudes (1e25 here, below the documented 1e30)."""
    form, klass = draw(st.sampled_from(SIGN_FORMS))
    k = draw(st.sampled_from([0, 1, 2, 3, 6, 12, 20, 28, 35, 45]))
    m = num(10**k)
    x = var("x")
    true_form = draw(st.booleans())
    R = Var("x")
    pos = Var("x", lo=ZERO)
    w: Fraction
    if form == "x>=-M":
        claim = FuzzClaim("sign/x>=-M", klass, False, (R,), x, ">=", -m)
        w, reach = -2 * Fraction(10**k), 10**k
        if true_form:
            claim = replace(claim, truth=True, variables=(Var("x", lo=-m, lo_open=False),))
    elif form == "cube>=-M":
        claim = FuzzClaim("sign/cube>=-M", klass, False, (R,), x**3 + 1, ">=", -m)
        w, reach = -Fraction(2 * 10 ** (k // 3 + 1)), 10 ** (k // 3 + 1)
        if true_form:
            claim = replace(claim, truth=True, lhs=x**2 + 1)
    elif form == "exp>=tiny":
        claim = FuzzClaim("sign/exp>=tiny", klass, False, (R,), exp(x), ">=", num(1, 10**k))
        w, reach = -Fraction(3 * k + 3), 3 * k + 3
        if true_form:
            claim = replace(claim, truth=True, rel=">", rhs=ZERO)
    elif form == "log>=-j":
        j = 2 * k + 1
        claim = FuzzClaim("sign/log>=-j", klass, False, (pos,), log(x), ">=", num(-j))
        w = Fraction(1, 10 ** (j // 2 + 1))
        reach = 0 if j <= 60 else 10**40
        if true_form:
            claim = replace(
                claim, truth=True, variables=(Var("x", lo=exp(num(-j)), lo_open=False),)
            )
    elif form == "ratio>-1+eps":
        claim = FuzzClaim(
            "sign/ratio>-1+eps", klass, False, (R,), x / (1 + Abs(x)), ">", -1 + num(1, 10**k)
        )
        w, reach = -Fraction(10 ** (k + 1)), 10**k
        if true_form:
            claim = replace(claim, truth=True, rhs=num(-1))
    elif form == "hypot>=x+eps":
        claim = FuzzClaim(
            "sign/hypot>=x+eps", klass, False, (pos,), sqrt(x**2 + 1), ">=", x + num(1, 10**k)
        )
        w, reach = Fraction(10 ** (k + 1)), 10**k
        if true_form:
            claim = replace(claim, truth=True, rel=">", rhs=x)
    elif form == "x<=M":
        claim = FuzzClaim("sign/x<=M", klass, False, (pos,), x, "<=", m)
        w, reach = Fraction(2 * 10**k), 10**k
        if true_form:
            claim = replace(claim, truth=True, variables=(Var("x", lo=ZERO, hi=m, hi_open=False),))
    elif form == "abs<=M":
        claim = FuzzClaim("sign/abs<=M", klass, False, (R,), Abs(x - 1), "<=", m)
        w, reach = -Fraction(2 * 10**k), 10**k
        if true_form:
            claim = replace(claim, truth=True, lhs=-Abs(x - 1))
    else:
        claim = FuzzClaim("sign/tanh>-1+eps", klass, False, (R,), tanh(x), ">", -1 + num(1, 10**k))
        w, reach = -Fraction(2 * k + 2), 0
        if true_form:
            claim = replace(claim, truth=True, rhs=num(-1))
    if claim.truth:
        return checked_claim(replace(claim, recipe=claim.recipe + "/true"))
    return checked_claim(
        replace(
            claim,
            witness={"x": w},
            findable=reach <= 10**25,
            why=f"fails beyond {reach:.0e}" if reach else "fails far out",
        )
    )


# -- recipe: equality hypotheses -------------------------------------------------------
Pair = tuple[Fraction, Fraction]
Body = Callable[[X, X], tuple[X, str, X]]


@dataclass(frozen=True)
class EqCase:
    """An equality hypothesis in shifted coordinates ``X = x - a``, ``Y = y - b``: its
    branches (a parameter -> a point of the branch), claims true on every branch, and
    claims false on one branch with a witness there."""

    name: str
    hyp: Callable[[X, X], tuple[X, X]]
    branches: tuple[Callable[[Fraction], Pair], ...]
    true: tuple[tuple[str, Body], ...]
    false: tuple[tuple[str, Body, Pair], ...]
    two: bool = True


EQ_CASES: list[EqCase] = [
    EqCase(
        "xy=0",
        lambda X, Y: (X * Y, ZERO),
        (lambda t: (F(0), t), lambda t: (t, F(0))),
        (
            ("min-abs", lambda X, Y: (Min(Abs(X), Abs(Y)), "=", ZERO)),
            ("square-product", lambda X, Y: (X**2 * Y**2, "<=", ZERO)),
            ("exp-product", lambda X, Y: (exp(X * Y), "=", ONE)),
            ("sum-square", lambda X, Y: ((X + Y) ** 2, "=", X**2 + Y**2)),
            ("abs-sum", lambda X, Y: (Abs(X) + Abs(Y), "=", Abs(X + Y))),
        ),
        (
            ("y-square", lambda X, Y: (Y**2, "<=", ZERO), (F(0), F(1))),
            ("x-zero", lambda X, Y: (X, "=", ZERO), (F(1), F(0))),
            ("y-le-x", lambda X, Y: (Y, "<=", X), (F(0), F(1))),
            ("tangent", lambda X, Y: (exp(X), ">=", 1 + X + Y**2), (F(0), F(1))),
        ),
    ),
    EqCase(
        "x2y=x2",
        lambda X, Y: (X**2 * Y, X**2),
        (lambda t: (F(0), t), lambda t: (t, F(1))),
        (
            ("factored", lambda X, Y: (X * (Y - 1), "=", ZERO)),
            ("abs", lambda X, Y: (Abs(X) * Y, "=", Abs(X))),
            ("square", lambda X, Y: (X**2 * (Y - 1) ** 2, "<=", ZERO)),
        ),
        (
            ("y-one", lambda X, Y: (Y, "=", ONE), (F(0), F(2))),
            ("y-le-one", lambda X, Y: (Y, "<=", ONE), (F(0), F(2))),
            ("y-ge-one", lambda X, Y: (Y, ">=", ONE), (F(0), F(0))),
        ),
    ),
    EqCase(
        "xy=2x",
        lambda X, Y: (X * Y, 2 * X),
        (lambda t: (F(0), t), lambda t: (t, F(2))),
        (
            ("factored", lambda X, Y: (X * (Y - 2), "=", ZERO)),
            ("square", lambda X, Y: (X**2 * Y, "=", 2 * X**2)),
        ),
        (
            ("y-two", lambda X, Y: (Y, "=", TWO), (F(0), F(3))),
            ("y-ge-two", lambda X, Y: (Y, ">=", TWO), (F(0), F(-1))),
        ),
    ),
    EqCase(
        "x2=4",
        lambda X, Y: (X**2, num(4)),
        (lambda t: (F(2), t), lambda t: (F(-2), t)),
        (
            ("abs", lambda X, Y: (Abs(X), "=", TWO)),
            ("fourth", lambda X, Y: (X**4, "=", num(16))),
        ),
        (
            ("x-two", lambda X, Y: (X, "=", TWO), (F(-2), F(0))),
            ("x-positive", lambda X, Y: (X, ">", ZERO), (F(-2), F(0))),
            ("x-above", lambda X, Y: (X, ">", num(-2)), (F(-2), F(0))),
        ),
        two=False,
    ),
    EqCase(
        "x2=y2",
        lambda X, Y: (X**2, Y**2),
        (lambda t: (t, t), lambda t: (t, -t)),
        (
            ("abs", lambda X, Y: (Abs(X), "=", Abs(Y))),
            ("exp-square", lambda X, Y: (exp(X**2), "=", exp(Y**2))),
        ),
        (
            ("equal", lambda X, Y: (X, "=", Y), (F(1), F(-1))),
            ("same-sign", lambda X, Y: (X * Y, ">=", ZERO), (F(1), F(-1))),
        ),
    ),
    EqCase(
        "x(x-3)=0",
        lambda X, Y: (X * (X - 3), ZERO),
        (lambda t: (F(0), t), lambda t: (F(3), t)),
        (
            ("square", lambda X, Y: (X**2, "=", 3 * X)),
            ("min", lambda X, Y: (Min(Abs(X), Abs(X - 3)), "=", ZERO)),
        ),
        (
            ("x-three", lambda X, Y: (X, "=", num(3)), (F(0), F(0))),
            ("x-zero", lambda X, Y: (X, "=", ZERO), (F(3), F(0))),
            ("x-below", lambda X, Y: (X, "<", num(3)), (F(3), F(0))),
        ),
        two=False,
    ),
    EqCase(
        "xy=1",
        lambda X, Y: (X * Y, ONE),
        (lambda t: (t if t != 0 else F(1), 1 / (t if t != 0 else F(1))),),
        (
            ("inverse", lambda X, Y: (Y, "=", 1 / X)),
            ("square", lambda X, Y: (X**2 * Y**2, "=", ONE)),
        ),
        (
            ("y-positive", lambda X, Y: (Y, ">", ZERO), (F(-1), F(-1))),
            ("amgm", lambda X, Y: (X + Y, ">=", TWO), (F(-1), F(-1))),
        ),
    ),
    EqCase(
        "exp(x)=y",
        lambda X, Y: (exp(X), Y),
        (lambda t: (t, F(0)),),  # replaced below: y = exp(x) is irrational
        (
            ("log", lambda X, Y: (log(Y), "=", X)),
            ("positive", lambda X, Y: (Y, ">", ZERO)),
            ("tangent", lambda X, Y: (Y, ">=", 1 + X)),
        ),
        (
            ("y-ge-one", lambda X, Y: (Y, ">=", ONE), (F(-1), F(0))),
            ("strict-log", lambda X, Y: (log(Y), ">", X), (F(0), F(1))),
        ),
    ),
    EqCase(
        "(x-1)(x-2)=0",
        lambda X, Y: ((X - 1) * (X - 2), ZERO),
        (lambda t: (F(1), t), lambda t: (F(2), t)),
        (
            ("quadratic", lambda X, Y: (X**2 - 3 * X + 2, "=", ZERO)),
            ("abs", lambda X, Y: (Abs(X - num(3, 2)), "=", num(1, 2))),
        ),
        (
            ("x-one", lambda X, Y: (X, "=", ONE), (F(2), F(0))),
            ("x-below", lambda X, Y: (X, "<", TWO), (F(2), F(0))),
        ),
        two=False,
    ),
]


@st.composite
def eq_claims(draw: Draw) -> FuzzClaim:
    """An equality hypothesis whose solutions have several branches (``x*y == 0``,
    ``x**2*y == x**2``, ``x**2 == 4``): a claim true on every branch, or one false on a
    branch a solver that divides by a vanishing factor loses, with the witness there."""
    case = draw(st.sampled_from(EQ_CASES))
    a = Fraction(draw(st.sampled_from([0, 0, 1, -2])))
    b = Fraction(draw(st.sampled_from([0, 0, 3, -1]))) if case.two else Fraction(0)
    x, y = var("x"), var("y")
    X, Y = (x - num(a) if a else x), (y - num(b) if b else y)
    hl, hr = case.hyp(X, Y)
    if draw(st.booleans()):
        hl, hr = hr, hl
    hyp = Rel(hl, draw(st.sampled_from(["==", "==", "="])), hr)
    names = ("x", "y") if case.two else ("x",)
    bounded = draw(st.booleans())
    variables = tuple(
        Var(n, lo=num(-10), hi=num(10), lo_open=False, hi_open=False) if bounded else Var(n)
        for n in names
    )
    truth = draw(st.booleans())
    if truth:
        label, body = draw(st.sampled_from(case.true))
        wpt = None
    else:
        label, body, (wx, wy) = draw(st.sampled_from(case.false))
        wpt = {"x": wx + a, **({"y": wy + b} if case.two else {})}
        if case.name == "exp(x)=y":
            wpt = {"x": wx + a, "y": sp.exp(sp.Rational(wx.numerator, wx.denominator)) + b}
    lhs, rel, rhs = body(X, Y)

    def sampler(rng: random.Random) -> Point:
        t = Fraction(rng.randint(-40, 40), rng.choice([1, 2, 4, 5]))
        if case.name == "exp(x)=y":
            return {"x": t / 4 + a, "y": sp.exp(sp.Rational(t.numerator, t.denominator * 4)) + b}
        px, py = rng.choice(case.branches)(t)
        return {"x": px + a, **({"y": py + b} if case.two else {})}

    claim = FuzzClaim(
        f"equality/{case.name}/{label}",
        "equality hypothesis",
        truth,
        variables,
        lhs,
        rel,
        rhs,
        hypotheses=(hyp,),
        witness=wpt,
        sampler=sampler,
        why="" if truth else "fails on a branch of the equality hypothesis",
    )
    return checked_claim(claim)


# -- recipe: hypothesis boundaries ------------------------------------------------------
INCREASING_2: list[tuple[str, Callable[[X], X]]] = [
    ("id", lambda t: t),
    ("exp", exp),
    ("cube-plus", lambda t: t**3 + t),
    ("tanh", tanh),
    ("Phi", Phi),
    ("sinh-erf", lambda t: sinh(t) + erf(t)),
]


@st.composite
def boundary_claims(draw: Draw) -> FuzzClaim:
    """Inequality hypotheses: a claim true under them, the same claim strict where it is
    tight on the hypothesis' boundary (``x <= y`` and ``f(x) < f(y)``: false on the whole
    line ``x = y``; ``x >= sqrt(2)`` and ``x**2 > 2``: false at the boundary's constant),
    and claims false off the boundary (reversed, or a decreasing map)."""
    case = draw(
        st.sampled_from(
            ["order", "simplex", "disc", "sqrt2", "log3", "exp-graph", "ratio", "hyperbola"]
        )
    )
    x, y = var("x"), var("y")
    R = Var("x")
    klass = "hypothesis boundary"
    rng = _rng(draw)
    form = draw(st.sampled_from(["true", "strict", "other"]))
    if case == "order":
        fname, f = draw(st.sampled_from(INCREASING_2))
        variables = (Var("x"), Var("y"))
        hyps = (Rel(x, "<=", y),)
        claim = FuzzClaim(
            f"boundary/order/{fname}", klass, True, variables, f(x), "<=", f(y), hypotheses=hyps
        )
        if form == "strict":
            return _made_strict(claim, "<", {"x": F(1), "y": F(1)}, "tight on the boundary x = y")
        if form == "other":
            claim = replace(
                claim,
                lhs=f(-x),
                rhs=f(-y),
                truth=False,
                recipe=claim.recipe + "/decreasing",
                why="a decreasing map",
            )
            return checked_claim(estimated(claim, rng))
        return checked_claim(claim)
    if case == "simplex":
        c = num(draw(st.sampled_from([1, 2, 3])))
        variables = (Var("x", lo=ZERO, lo_open=False), Var("y", lo=ZERO, lo_open=False))
        hyps = (Rel(x + y, "<=", c),)
        pick = draw(st.sampled_from(["sum", "product", "max"]))
        body = {"sum": (x + y, c), "product": (x * y, c**2 / 4), "max": (Max(x, y), c)}[pick]
        claim = FuzzClaim(
            f"boundary/simplex/{pick}",
            klass,
            True,
            variables,
            body[0],
            "<=",
            body[1],
            hypotheses=hyps,
        )
        if form == "strict":
            w = {
                "sum": (c.num, F(0)),
                "product": (c.num / 2, c.num / 2),  # type: ignore[operator]
                "max": (c.num, F(0)),
            }[pick]
            return _made_strict(
                claim, "<", {"x": w[0], "y": w[1]}, "tight on the boundary", findable=pick == "sum"
            )
        return checked_claim(claim)
    if case == "disc":
        variables = (Var("x"), Var("y"))
        hyps = (Rel(x**2 + y**2, "<=", ONE),)
        pick = draw(st.sampled_from(["circle", "sum", "square"]))
        body = {"circle": (x**2 + y**2, ONE), "sum": (x + y, sqrt(TWO)), "square": (x**2, ONE)}[
            pick
        ]
        claim = FuzzClaim(
            f"boundary/disc/{pick}", klass, True, variables, body[0], "<=", body[1], hypotheses=hyps
        )
        if form == "strict":
            half = sp.sqrt(2) / 2
            w = {"circle": (F(3, 5), F(4, 5)), "sum": (half, half), "square": (F(1), F(0))}[pick]
            return _made_strict(
                claim,
                "<",
                {"x": w[0], "y": w[1]},
                "tight on the boundary",
                findable=pick == "circle",
            )
        return checked_claim(claim)
    if case in ("sqrt2", "log3"):
        bound, lhs, rhs = (
            (sqrt(TWO), x**2, TWO) if case == "sqrt2" else (log(num(3)), exp(x), num(3))
        )
        claim = FuzzClaim(
            f"boundary/{case}", klass, True, (R,), lhs, ">=", rhs, hypotheses=(Rel(x, ">=", bound),)
        )
        if form == "strict":
            return _made_strict(
                claim, ">", {"x": exact(bound, {})}, "tight at the boundary's constant"
            )
        if form == "other":
            return checked_claim(
                estimated(
                    replace(claim, rel="<=", truth=False, recipe=claim.recipe + "/reversed"), rng
                )
            )
        return checked_claim(claim)
    if case == "exp-graph":
        variables = (Var("x"), Var("y", lo=ZERO))
        claim = FuzzClaim(
            "boundary/exp-graph",
            klass,
            True,
            variables,
            log(y),
            ">=",
            x,
            hypotheses=(Rel(y, ">=", exp(x)),),
        )
        if form == "strict":
            return _made_strict(
                claim, ">", {"x": F(0), "y": F(1)}, "tight on the boundary y = exp(x)"
            )
        return checked_claim(claim)
    if case == "ratio":
        e = var("eps")
        dp_vars = (Var("eps", lo=ZERO), Var("p", lo=ZERO, hi=ONE), Var("q", lo=ZERO, hi=ONE))
        dp_hyps = (Rel(p_, "<=", exp(e) * var("q")), Rel(var("q"), "<=", exp(e) * p_))
        claim = FuzzClaim(
            "boundary/ratio", klass, True, dp_vars, p_ / var("q"), "<=", exp(e), hypotheses=dp_hyps
        )
        if form == "strict":
            return _made_strict(
                claim,
                "<",
                {"eps": sp.log(2), "p": F(1, 2), "q": F(1, 4)},
                "tight on the boundary p = exp(eps) q",
            )
        return checked_claim(claim)
    variables = (Var("x", lo=ZERO), Var("y", lo=ZERO))
    claim = FuzzClaim(
        "boundary/hyperbola",
        klass,
        True,
        variables,
        x + y,
        ">=",
        TWO,
        hypotheses=(Rel(x * y, ">=", ONE),),
    )
    if form == "strict":
        return _made_strict(
            claim, ">", {"x": F(1), "y": F(1)}, "tight at the single point (1, 1)", findable=False
        )
    return checked_claim(claim)
