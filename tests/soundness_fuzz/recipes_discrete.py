"""Recipes over integers and jumps: integer variables (closed forms, finite sums and
products, far ranges), sums and integrals with their closed forms, floor, ceiling,
Piecewise and ``(-1)**n``, families ``p[1..n]``."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction

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
    Min,
    Phi,
    Rel,
    X,
    alias,
    binomial,
    ceiling,
    cosh,
    erf,
    exp,
    factorial,
    floor,
    gamma,
    index,
    integral,
    log,
    num,
    piecewise,
    sinh,
    sqrt,
    summation,
    tanh,
)
from .generators import (
    _MIRROR,
    SHIFTS,
    Draw,
    F,
    _rng,
    c_,
    checked_claim,
    estimated,
    i_,
    k_,
    n_,
    p_,
    t_,
    u_,
    x_,
)

# -- recipe: integer variables, sums and products over integers --------------------------
INT_CASES: list[tuple[str, int, Callable[[X], tuple[X, str, X]], tuple[int, ...], bool]] = [
    # name, least n, builder, n where it is tight, closed form (no long sum)
    ("pow2", 0, lambda n: (2**n, ">=", n + 1), (0, 1), True),
    ("factorial-pow2", 1, lambda n: (factorial(n), ">=", 2 ** (n - 1)), (1, 2), True),
    ("factorial-le-pow", 1, lambda n: (factorial(n), "<=", n**n), (1,), True),
    ("square-ge", 0, lambda n: (n**2, ">=", n), (0, 1), True),
    ("central-binomial", 0, lambda n: (binomial(2 * n, n), "<=", 4**n), (0,), True),
    ("e-bound", 1, lambda n: ((1 + 1 / n) ** n, "<", EULER), (), True),
    ("robbins", 1, lambda n: (factorial(n), ">=", sqrt(2 * PI * n) * (n / EULER) ** n), (), True),
    ("binomial-2", 0, lambda n: (binomial(n, 2), "=", n * (n - 1) / 2), (), True),
    ("binomial-symmetry", 1, lambda n: (binomial(n, 1), "=", binomial(n, n - 1)), (), True),
    ("gamma-factorial", 1, lambda n: (gamma(n), "=", factorial(n - 1)), (), True),
    ("sign-square", 0, lambda n: ((-1) ** n * (-1) ** n, "=", ONE), (), True),
    ("sign-even", 0, lambda n: ((-1) ** (2 * n), "=", ONE), (), True),
    ("sign-bound", 0, lambda n: ((-1) ** n, ">=", num(-1)), (1, 3), True),
    ("floor-halves", 0, lambda n: (floor(n / 2) + ceiling(n / 2), "=", n), (), True),
    ("isqrt", 0, lambda n: (floor(sqrt(n)) ** 2, "<=", n), (0, 1, 4, 9), True),
    ("gauss-sum", 1, lambda n: (summation(k_, "k", ONE, n), "=", n * (n + 1) / 2), (), False),
    ("odd-sum", 1, lambda n: (summation(2 * k_ - 1, "k", ONE, n), "=", n**2), (), False),
    (
        "squares-sum",
        1,
        lambda n: (summation(k_**2, "k", ONE, n), "=", n * (n + 1) * (2 * n + 1) / 6),
        (),
        False,
    ),
    (
        "nicomachus",
        1,
        lambda n: (summation(k_**3, "k", ONE, n), "=", summation(k_, "k", ONE, n) ** 2),
        (),
        False,
    ),
    (
        "telescoping",
        1,
        lambda n: (summation(1 / (k_ * (k_ + 1)), "k", ONE, n), "=", 1 - 1 / (n + 1)),
        (),
        False,
    ),
    (
        "binomial-row",
        0,
        lambda n: (summation(binomial(n, k_), "k", ZERO, n), "=", 2**n),
        (),
        False,
    ),
    (
        "alternating",
        0,
        lambda n: (summation((-1) ** k_, "k", ZERO, n), "=", (1 + (-1) ** n) / 2),
        (),
        False,
    ),
    (
        "basel-partial",
        1,
        lambda n: (summation(1 / k_**2, "k", ONE, n), "<=", 2 - 1 / n),
        (1,),
        False,
    ),
    (
        "harmonic-upper",
        1,
        lambda n: (summation(1 / k_, "k", ONE, n), "<=", 1 + log(n)),
        (1,),
        False,
    ),
    (
        "harmonic-lower",
        1,
        lambda n: (summation(1 / k_, "k", ONE, n), ">=", log(n + 1)),
        (),
        False,
    ),
    (
        "geometric-partial",
        1,
        lambda n: (summation(1 / 2**k_, "k", ONE, n), "<", ONE),
        (),
        False,
    ),
    (
        "telescoping-product",
        1,
        lambda n: (summation(k_, "k", ONE, n, op="prod"), "=", factorial(n)),
        (),
        False,
    ),
    (
        "product-ratio",
        1,
        lambda n: (summation(1 + 1 / k_, "k", ONE, n, op="prod"), "=", n + 1),
        (),
        False,
    ),
]
INT_CASES += [
    (
        "basel-tail",
        1,
        lambda n: (summation(1 / k_**2, "k", ONE, n), "<=", PI**2 / 6 - 1 / (n + 1)),
        (),
        False,
    ),
    (
        "euler-gamma",
        1,
        lambda n: (summation(1 / k_, "k", ONE, n) - log(n), ">", num(5772156649015328, 10**16)),
        (),
        False,
    ),
]
INT_FALSE: list[tuple[str, int, Callable[[X], tuple[X, str, X]], int, bool]] = [
    # name, least n, builder, witness, findable: false claims close to true ones
    (
        "basel-tail-wrong",
        1,
        lambda n: (summation(1 / k_**2, "k", ONE, n), "<=", PI**2 / 6 - 1 / n),
        1,
        True,
    ),
    ("integer-cube", -5, lambda n: (n**3, ">=", num(-100)), -5, True),
    ("odd-power", -3, lambda n: ((-1) ** n * n, ">=", ZERO), -3, True),
    ("open-end", 1, lambda n: (n, ">=", TWO), 1, True),
]
LADDER = (1, 2, 3, 10, 30)


@st.composite
def integer_false_claims(draw: Draw) -> FuzzClaim:
    """False claims over integers close to true ones: a tail bound off by one term, the
    Euler-Mascheroni constant rounded the wrong way (false only from n ~ 1e16 on), cubes
    and odd powers at negative integers, an open integer end (``Z in (0, 5)`` is 1..4)."""
    name, least, build, at, findable = draw(st.sampled_from(INT_FALSE))
    if name == "open-end":
        nv = Var("n", lo=ZERO, hi=num(5), lo_open=True, hi_open=True, integer=True)
    else:
        hi = draw(st.sampled_from([None, num(least + 10)]))
        nv = Var("n", lo=num(least), hi=hi, lo_open=False, hi_open=False, integer=True)
    lhs, rel, rhs = build(n_)
    claim = FuzzClaim(
        f"integer/{name}",
        "integer",
        False,
        (nv,),
        lhs,
        rel,
        rhs,
        witness={"n": Fraction(at)},
        findable=findable,
        why=f"fails at n = {at}",
    )
    if nv.hi is not None and at > least + 10:
        assume(False)
    return checked_claim(claim)


"""Integers the documented sampler visits (with the domain's ends)."""


@st.composite
def integer_claims(draw: Draw) -> FuzzClaim:
    """Identities and inequalities over an integer variable (closed forms, finite sums and
    products, ``(-1)**n``, floor of ``n/2``), on ``Z>=a``, ``Z in [a, b]`` or a far range;
    false by a shift (everywhere), by a polynomial that vanishes at 1 and 2 (false from 3
    on), by the negated relation, or strict where tight (at the least n: an end)."""
    name, least, build, tight, closed_form = draw(st.sampled_from(INT_CASES))
    far = closed_form and draw(st.integers(0, 4)) == 0
    if far:
        e = draw(st.sampled_from([3, 12, 26]))
        nv = Var(
            "n", lo=num(10**e), hi=num(10 ** (e + 1)), lo_open=False, hi_open=False, integer=True
        )
        lo_n, hi_n = 10**e, 10 ** (e + 1)
    else:
        lo_n = least + draw(st.sampled_from([0, 0, 1, 2]))
        hi_choice = draw(st.sampled_from([None, lo_n + 5, 100, 10**6]))
        nv = Var(
            "n",
            lo=num(lo_n),
            hi=num(hi_choice) if hi_choice else None,
            lo_open=False,
            hi_open=False,
            integer=True,
        )
        hi_n = hi_choice or 10**9
    lhs, rel, rhs = build(n_)
    recipe = f"integer/{name}"
    claim = FuzzClaim(recipe, "integer", True, (nv,), lhs, rel, rhs)
    how = draw(st.sampled_from(["true", "shift", "poly", "negate", "strict"]))
    if far:
        how = draw(st.sampled_from(["true", "negate"]))
    if how == "shift":
        delta = draw(st.sampled_from(SHIFTS[:4]))
        if rel == "=":
            at, side = lo_n, rhs + delta
        else:
            # Tighter by delta: false where the slack is below it, surely at a tight point.
            inside = [t for t in tight if lo_n <= t <= hi_n]
            assume(inside)
            at = inside[0]
            side = rhs - delta if rel in ("<=", "<") else rhs + delta
        claim = replace(
            claim,
            rhs=side,
            truth=False,
            witness={"n": Fraction(at)},
            findable=at == lo_n or at in LADDER or rel == "=",
            recipe=recipe + "/shift",
            why=f"shifted by {delta.text}",
        )
        return checked_claim(claim)
    if how == "poly" and rel == "=" and lo_n <= 3 <= hi_n:
        bump = (n_ - 1) * (n_ - 2)
        claim = replace(
            claim,
            rhs=rhs + bump,
            truth=False,
            witness={"n": Fraction(3)},
            recipe=recipe + "/poly",
            why="(n-1)(n-2) added: false from n = 3",
            findable=True,
        )
        return checked_claim(claim)
    if how == "negate":
        neg = {"=": "<", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}[rel]
        claim = replace(
            claim,
            rel=neg,
            truth=False,
            witness={"n": Fraction(lo_n)},
            recipe=recipe + "/negate",
            why="the negation: false everywhere",
        )
        return checked_claim(claim)
    if how == "strict" and rel in ("<=", ">=") and tight:
        at = [t for t in tight if lo_n <= t <= hi_n]
        assume(at)
        strict = {"<=": "<", ">=": ">"}[rel]
        visited = at[0] == lo_n or at[0] in LADDER
        claim = replace(
            claim,
            rel=strict,
            truth=False,
            witness={"n": Fraction(at[0])},
            findable=visited,
            recipe=recipe + "/strict",
            klass="domain end" if at[0] == lo_n else "integer",
            why=f"tight at n = {at[0]}",
        )
        return checked_claim(claim)
    return checked_claim(claim)


# -- recipe: sums and integrals over reals ------------------------------------------------


def _on(name: str, a: float, b: float, lo_open: bool = False, integer: bool = False) -> Var:
    """``name`` in ``[a, b]`` (``(a, b]``), ends as exact decimals."""
    lo, hi = num(Fraction(str(a))), num(Fraction(str(b)))
    return Var(name, lo=lo, hi=hi, lo_open=lo_open, hi_open=False, integer=integer)


ANALYSIS: list[tuple[str, Callable[[], tuple[X, str, X]], tuple[Var, ...]]] = [
    # Each infinite sum or integral is an alias of its closed form for the oracle; the
    # table test checks every pair by quadrature and summation.
    (
        "geometric-finite",
        lambda: (summation(x_**k_, "k", ZERO, n_) * (1 - x_), "=", 1 - x_ ** (n_ + 1)),
        (_on("x", -2, 2), _on("n", 0, 40, integer=True)),
    ),
    (
        "exp-series",
        lambda: (alias(summation(x_**k_ / factorial(k_), "k", ZERO, OO), exp(x_)), "=", exp(x_)),
        (_on("x", -5, 5),),
    ),
    (
        "geometric-infinite",
        lambda: (alias(summation(u_**k_, "k", ZERO, OO), 1 / (1 - u_)), "=", 1 / (1 - u_)),
        (_on("u", 0, 0.9),),
    ),
    (
        "geometric-derivative",
        lambda: (
            alias(summation(k_ * u_**k_, "k", ZERO, OO), u_ / (1 - u_) ** 2),
            "=",
            u_ / (1 - u_) ** 2,
        ),
        (_on("u", 0, 0.9, lo_open=True),),
    ),
    (
        "constant-sum",
        lambda: (summation(tanh(x_) + 2, "k", ONE, n_), "=", n_ * (tanh(x_) + 2)),
        (Var("x"), Var("n", lo=ONE, lo_open=False, integer=True)),
    ),
    (
        "exp-integral",
        lambda: (alias(integral(exp(-t_), "t", ZERO, x_), 1 - exp(-x_)), "=", 1 - exp(-x_)),
        (_on("x", -3, 10),),
    ),
    (
        "linear-integral",
        lambda: (alias(integral(t_, "t", ZERO, x_), x_**2 / 2), "=", x_**2 / 2),
        (Var("x"),),
    ),
    (
        "cubic-integral",
        lambda: (
            alias(integral(t_**2, "t", ONE, x_), (x_**3 - 1) / 3),
            "=",
            (x_**3 - 1) / 3,
        ),
        (_on("x", -5, 5),),
    ),
    (
        "gauss-cdf",
        lambda: (
            alias(integral(exp(-(t_**2) / 2), "t", -OO, x_), sqrt(2 * PI) * Phi(x_)),
            "=",
            sqrt(2 * PI) * Phi(x_),
        ),
        (_on("x", -6, 6),),
    ),
    (
        "gauss-moment",
        lambda: (
            alias(integral(2 * t_ * exp(-(t_**2)), "t", ZERO, x_), 1 - exp(-(x_**2))),
            "=",
            1 - exp(-(x_**2)),
        ),
        (_on("x", -4, 4),),
    ),
    (
        "laplace-transform",
        lambda: (alias(integral(exp(-p_ * t_), "t", ZERO, OO), 1 / p_), "=", 1 / p_),
        (_on("p", 0.1, 10),),
    ),
    (
        "laplace-density",
        lambda: (alias(integral(exp(-Abs(t_ - x_)) / 2, "t", -OO, OO), ONE), "=", ONE),
        (_on("x", -3, 3),),
    ),
    (
        "cosh-integral",
        lambda: (alias(integral(cosh(t_), "t", ZERO, x_), sinh(x_)), "=", sinh(x_)),
        (_on("x", -3, 3),),
    ),
    (
        "log-integral",
        lambda: (alias(integral(1 / (1 + t_), "t", ZERO, u_), log(1 + u_)), "=", log(1 + u_)),
        (_on("u", 0, 10, lo_open=True),),
    ),
    (
        "erf-below",
        lambda: (
            alias(integral(exp(-(t_**2)), "t", ZERO, x_), sqrt(PI) / 2 * erf(x_)),
            "<=",
            x_,
        ),
        (_on("x", 0, 5),),
    ),
]


@st.composite
def analysis_claims(draw: Draw) -> FuzzClaim:
    """Sums (finite, infinite) and integrals with their closed forms; false by a shift
    (everywhere), by the negated relation, or, for ``erf-below``, strict at its closed end."""
    name, build, variables = draw(st.sampled_from(ANALYSIS))
    lhs, rel, rhs = build()
    if draw(st.booleans()):
        lhs, rhs, rel = rhs, lhs, _MIRROR.get(rel, rel)
    kind = "sum" if "sum" in lhs.calls() | rhs.calls() else "integral"
    recipe = f"{kind}/{name}"
    claim = FuzzClaim(recipe, kind, True, variables, lhs, rel, rhs)
    how = draw(st.sampled_from(["true", "shift", "negate", "strict"]))
    rng = _rng(draw)
    if how == "shift":
        delta = draw(st.sampled_from(SHIFTS[:5]))
        side = rhs + delta if rel in ("=", "<=", "<") else rhs - delta
        claim = replace(
            claim, rhs=side, truth=False, recipe=recipe + "/shift", why=f"shifted by {delta.text}"
        )
        return checked_claim(estimated(claim, rng))
    if how == "negate":
        neg = {"=": ">", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}[rel]
        claim = replace(claim, rel=neg, truth=False, recipe=recipe + "/negate", why="the negation")
        return checked_claim(estimated(claim, rng))
    if how == "strict" and name == "erf-below":
        claim = replace(
            claim,
            rel={"<=": "<", ">=": ">"}[rel],
            truth=False,
            witness={"x": Fraction(0)},
            klass="domain end",
            recipe=recipe + "/strict-at-closed-end",
            why="tight at x = 0",
        )
        return checked_claim(claim)
    return checked_claim(claim)


# -- recipe: jumps (floor, ceiling, Piecewise, (-1)**n) ----------------------------------
JUMPS: list[tuple[str, bool, Callable[[], tuple[X, str, X]], bool]] = [
    # name, true?, builder, findable when false (violation on a large share)
    ("floor-below", True, lambda: (floor(x_), "<=", x_), True),
    ("floor-double-ge", True, lambda: (floor(2 * x_), ">=", 2 * floor(x_)), True),
    ("floor-double-le", True, lambda: (floor(2 * x_), "<=", 2 * floor(x_) + 1), True),
    ("fraction-below-one", True, lambda: (x_ - floor(x_), "<", ONE), True),
    ("ceiling-floor-le", True, lambda: (ceiling(x_) - floor(x_), "<=", ONE), True),
    (
        "piece-min",
        True,
        lambda: (piecewise((x_, Rel(x_, "<", c_)), (c_, None)), "=", Min(x_, c_)),
        True,
    ),
    (
        "piece-step",
        True,
        lambda: (piecewise((ZERO, Rel(x_, "<", c_)), (ONE, None)), "<=", ONE),
        True,
    ),
    (
        "piece-abs",
        True,
        lambda: (piecewise((-x_, Rel(x_, "<", ZERO)), (x_, None)), "=", Abs(x_)),
        True,
    ),
    (
        "piece-closed",
        True,
        lambda: (piecewise((x_, Rel(x_, "<=", c_)), (c_, None)), "=", Min(x_, c_)),
        True,
    ),
    ("floor-equals", False, lambda: (floor(x_), "=", x_), True),
    ("floor-double", False, lambda: (floor(2 * x_), "=", 2 * floor(x_)), True),
    ("floor-square", False, lambda: (floor(x_) ** 2, "<=", x_**2), True),
    ("fraction-third", False, lambda: (x_ - floor(x_), ">=", num(1, 3)), True),
    ("ceiling-minus-floor", False, lambda: (ceiling(x_) - floor(x_), "=", ONE), False),
    ("ceiling-strict", False, lambda: (ceiling(x_), ">", x_), False),
    ("floor-strict", False, lambda: (floor(x_), "<", x_), False),
    (
        "piece-shift",
        False,
        lambda: (piecewise((x_, Rel(x_, "<=", c_)), (c_ + num(1, 10), None)), "=", Min(x_, c_)),
        True,
    ),
    (
        "piece-step-eq",
        False,
        lambda: (piecewise((ZERO, Rel(x_, "<", c_)), (ONE, None)), "=", ONE),
        True,
    ),
    (
        "piece-jump-point",
        False,
        lambda: (piecewise((ONE, Rel(x_, "==", c_)), (x_ - c_, None)), "=", x_ - c_),
        False,
    ),
]
JUMP_DOMAINS = [
    Var("x", lo=ZERO, hi=num(10), lo_open=True, hi_open=True),
    Var("x", lo=num(-3), hi=num(3), lo_open=False, hi_open=False),
    Var("x"),
    Var("x", lo=num(-1, 2), hi=num(7, 2), lo_open=False, hi_open=True),
]


@st.composite
def jump_claims(draw: Draw) -> FuzzClaim:
    """floor, ceiling and Piecewise claims, true or false on a large share (the tool must
    confirm them exactly at a rational point: no Arb enclosure has a jump) or only at
    integers (where a violation seen but not confirmed must not pass)."""
    name, truth, build, findable = draw(st.sampled_from(JUMPS))
    domain = draw(st.sampled_from(JUMP_DOMAINS))
    lhs, rel, rhs = build()
    klass = "unconfirmed violation"
    claim = FuzzClaim(f"jump/{name}", klass, truth, (domain,), lhs, rel, rhs, findable=findable)
    if truth:
        return checked_claim(claim)
    rng = _rng(draw)
    witness: Point | None = None
    if name in ("ceiling-minus-floor", "ceiling-strict", "floor-strict"):
        witness = {"x": Fraction(1)}
    elif name == "piece-jump-point":
        witness = {"x": Fraction(3, 2)}
    if witness is not None:
        claim = replace(claim, witness=witness, why="fails at isolated points only")
        return checked_claim(claim)
    return checked_claim(estimated(claim, rng, need=0.15))


# -- recipe: families -------------------------------------------------------------------


def _fam_sum(body: X) -> X:
    return summation(body, "i", ONE, n_)


def _p(name: str = "p") -> X:
    return index(name, i_)


FAMILY_CASES: list[tuple[str, bool, Callable[[], tuple[X, str, X]], str, bool]] = [
    # name, true?, builder, hypotheses kind, findable when false
    ("square-below", True, lambda: (_fam_sum(_p() ** 2), "<=", _fam_sum(_p())), "", True),
    ("square-strict", False, lambda: (_fam_sum(_p() ** 2), "<", _fam_sum(_p())), "", True),
    (
        "cauchy-schwarz",
        True,
        lambda: (n_ * _fam_sum(_p() ** 2), ">=", _fam_sum(_p()) ** 2),
        "",
        True,
    ),
    (
        "cauchy-schwarz-strict",
        False,
        lambda: (n_ * _fam_sum(_p() ** 2), ">", _fam_sum(_p()) ** 2),
        "",
        True,
    ),
    ("entropy", True, lambda: (_fam_sum(_p() * log(_p())), ">=", -log(n_)), "simplex", True),
    ("entropy-strict", False, lambda: (_fam_sum(_p() * log(_p())), ">", -log(n_)), "simplex", True),
    ("gibbs", True, lambda: (_fam_sum(_p() * log(_p() / _p("q"))), ">=", ZERO), "two", True),
    ("gibbs-strict", False, lambda: (_fam_sum(_p() * log(_p() / _p("q"))), ">", ZERO), "two", True),
    ("total-variation", True, lambda: (_fam_sum(Abs(_p() - _p("q"))), "<", TWO), "two", True),
    (
        "total-variation-half",
        False,
        lambda: (_fam_sum(Abs(_p() - _p("q"))), "<=", num(1, 2)),
        "two",
        True,
    ),
    (
        "product-bernoulli",
        True,
        lambda: (summation(1 + _p(), "i", ONE, n_, op="prod"), ">=", 1 + _fam_sum(_p())),
        "",
        True,
    ),
    (
        "product-bernoulli-strict",
        False,
        lambda: (summation(1 + _p(), "i", ONE, n_, op="prod"), ">", 1 + _fam_sum(_p())),
        "",
        True,
    ),
]


@st.composite
def family_claims(draw: Draw) -> FuzzClaim:
    """Families ``p[1..n]`` (and ``q``) for every n: Cauchy-Schwarz, the entropy bound,
    Gibbs' inequality, total variation, Bernoulli's product; the strict forms are false at
    equal entries (uniform ``p``, ``p = q``, ``n = 1``), which the documented instances
    include."""
    name, truth, build, hyps_kind, findable = draw(st.sampled_from(FAMILY_CASES))
    hi_n = draw(st.sampled_from([None, 4, 8]))
    nv = Var(
        "n", lo=ONE, hi=num(hi_n) if hi_n else None, lo_open=False, hi_open=False, integer=True
    )
    closed_top = hyps_kind == "" and name.startswith("square")
    pv = Var("p", lo=ZERO, hi=ONE, lo_open=True, hi_open=not closed_top, family="i in 1..n")
    variables: tuple[Var, ...] = (nv, pv)
    hyps: tuple[Rel, ...] = ()
    if hyps_kind in ("simplex", "two"):
        hyps = (Rel(_fam_sum(_p()), "==", ONE),)
    if hyps_kind == "two":
        variables = (nv, pv, replace(pv, name="q"))
        hyps = (*hyps, Rel(_fam_sum(_p("q")), "==", ONE))
    lhs, rel, rhs = build()
    witness: Point | None = None
    if not truth:
        if name == "square-strict":
            witness = {"n": F(1), "p[1]": F(1)}
        elif name in ("cauchy-schwarz-strict", "entropy-strict"):
            witness = {"n": F(2), "p[1]": F(1, 2), "p[2]": F(1, 2)}
        elif name == "gibbs-strict":
            witness = {
                "n": F(2),
                "p[1]": F(1, 3),
                "p[2]": F(2, 3),
                "q[1]": F(1, 3),
                "q[2]": F(2, 3),
            }
        elif name == "total-variation-half":
            witness = {
                "n": F(2),
                "p[1]": F(9, 10),
                "p[2]": F(1, 10),
                "q[1]": F(1, 10),
                "q[2]": F(9, 10),
            }
        else:
            witness = {"n": F(1), "p[1]": F(1, 2)}

    def sampler(rng: random.Random) -> Point:
        n = rng.randint(1, hi_n or 6)
        point: Point = {"n": F(n)}
        for fam in ("p", "q"):
            raw = [F(rng.randint(1, 30)) for _ in range(n)]
            total = sum(raw)
            for j, r in enumerate(raw, 1):
                if hyps_kind in ("simplex", "two"):
                    point[f"{fam}[{j}]"] = r / total
                else:
                    point[f"{fam}[{j}]"] = r / 31
        return point

    claim = FuzzClaim(
        f"family/{name}",
        "family",
        truth,
        variables,
        lhs,
        rel,
        rhs,
        hypotheses=hyps,
        witness=witness,
        findable=findable,
        sampler=sampler,
        why="" if truth else "fails at equal entries",
    )
    return checked_claim(claim)
