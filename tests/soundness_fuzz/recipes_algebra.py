"""Recipes from algebra and analysis: identities rewritten by valid rules (under a context),
inequalities with a slack nonnegative by its shape, known inequalities under monotone maps."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction

from hypothesis import assume
from hypothesis import strategies as st

from .claims import FuzzClaim, Point, Var, sample_point
from .expr import (
    EULER,
    ONE,
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
    beta,
    ceiling,
    cosh,
    erf,
    erfc,
    exp,
    expm1,
    floor,
    gamma,
    lambertw,
    log,
    log1p,
    loggamma,
    num,
    piecewise,
    sinh,
    sqrt,
    tanh,
    var,
)
from .generators import (
    _MIRROR,
    SHIFTS,
    Draw,
    Gen,
    _rng,
    checked_claim,
    estimated,
    is_positive_domain,
    real_domain,
)

# -- recipe: identities ----------------------------------------------------------------
Identity = Callable[[Gen], tuple[X, X]]


def _id(f: Callable[..., tuple[X, X]], *kinds: str) -> Identity:
    def build(g: Gen) -> tuple[X, X]:
        args = [g.small() if k == "s" else g.pos(1) if k == "p" else g.real(1) for k in kinds]
        return f(*args)

    build.rule = (f, len(kinds))  # type: ignore[attr-defined]
    return build


IDENTITIES: list[tuple[str, Identity]] = [
    ("exp-add", _id(lambda a, b: (exp(a + b), exp(a) * exp(b)), "s", "s")),
    ("log-mul", _id(lambda p, q: (log(p * q), log(p) + log(q)), "p", "p")),
    ("log-div", _id(lambda p, q: (log(p / q), log(p) - log(q)), "p", "p")),
    ("log-pow", _id(lambda p: (log(p**3), 3 * log(p)), "p")),
    ("log-exp", _id(lambda a: (log(exp(a)), a), "s")),
    ("exp-log", _id(lambda p: (exp(log(p)), p), "p")),
    ("exp-square", _id(lambda a: (exp(a) ** 2, exp(2 * a)), "s")),
    ("sqrt-square", _id(lambda p: (sqrt(p) ** 2, p), "p")),
    ("sqrt-abs", _id(lambda a: (sqrt(a**2), Abs(a)), "r")),
    ("sqrt-mul", _id(lambda p, q: (sqrt(p * q), sqrt(p) * sqrt(q)), "p", "p")),
    ("square", _id(lambda a, b: ((a + b) ** 2, a**2 + 2 * a * b + b**2), "r", "r")),
    ("diff-squares", _id(lambda a, b: ((a - b) * (a + b), a**2 - b**2), "r", "r")),
    ("cosh-sinh", _id(lambda a: (cosh(a) ** 2 - sinh(a) ** 2, ONE), "s")),
    ("cosh-plus-sinh", _id(lambda a: (cosh(a) + sinh(a), exp(a)), "s")),
    ("tanh-ratio", _id(lambda a: (tanh(a), sinh(a) / cosh(a)), "s")),
    ("tanh-exp", _id(lambda a: (tanh(a), (exp(2 * a) - 1) / (exp(2 * a) + 1)), "s")),
    ("sinh-double", _id(lambda a: (2 * sinh(a) * cosh(a), sinh(2 * a)), "s")),
    ("abs-mul", _id(lambda a, b: (Abs(a * b), Abs(a) * Abs(b)), "r", "r")),
    ("abs-square", _id(lambda a: (Abs(a) ** 2, a**2), "r")),
    ("max-min", _id(lambda a, b: (Max(a, b) + Min(a, b), a + b), "r", "r")),
    ("max-abs", _id(lambda a, b: (Max(a, b), (a + b + Abs(a - b)) / 2), "r", "r")),
    ("min-max", _id(lambda a, b: (Min(a, b), -Max(-a, -b)), "r", "r")),
    ("erfc-erf", _id(lambda a: (erfc(a), 1 - erf(a)), "r")),
    ("erf-odd", _id(lambda a: (erf(-a), -erf(a)), "r")),
    ("phi-erfc", _id(lambda a: (Phi(a), erfc(-a / sqrt(TWO)) / 2), "r")),
    ("phi-symmetry", _id(lambda a: (Phi(a) + Phi(-a), ONE), "r")),
    ("phiinv-phi", _id(lambda a: (PhiInv(Phi(a)), a), "s")),
    ("floor-ceiling", _id(lambda a: (floor(a), -ceiling(-a)), "r")),
    ("floor-shift", _id(lambda a: (floor(a + 3), floor(a) + 3), "r")),
    ("expm1", _id(lambda a: (expm1(a), exp(a) - 1), "s")),
    ("log1p", _id(lambda p: (log1p(p), log(1 + p)), "p")),
    ("log-base", _id(lambda p: (X("call", (p, TWO), "log"), log(p) / log(TWO)), "p")),
    ("pow-add", _id(lambda p, a, b: (p ** (a + b), p**a * p**b), "p", "s", "s")),
    ("sqrt-pow", _id(lambda p: (sqrt(p), p ** num(1, 2)), "p")),
    ("loggamma", _id(lambda p: (loggamma(p), log(gamma(p))), "p")),
    ("gamma-recurrence", _id(lambda p: (gamma(p + 1), p * gamma(p)), "p")),
    ("beta-gamma", _id(lambda p, q: (beta(p, q), gamma(p) * gamma(q) / gamma(p + q)), "p", "p")),
    ("lambertw-inverse", _id(lambda p: (lambertw(p) * exp(lambertw(p)), p), "p")),
    (
        "piecewise-max",
        _id(lambda a: (Max(a, ONE), piecewise((ONE, Rel(a, "<", ONE)), (a, None))), "r"),
    ),
    (
        "piecewise-abs",
        _id(lambda a: (Abs(a), piecewise((-a, Rel(a, "<", ZERO)), (a, None))), "r"),
    ),
]

CONTEXTS: list[tuple[str, Callable[[X], X]]] = [
    ("", lambda t: t),
    ("+c", lambda t: t + 3),
    ("*c", lambda t: num(-2) * t),
    ("tanh", tanh),
    ("abs", Abs),
    ("floor", floor),
    ("square", lambda t: t**2),
    ("max", lambda t: Max(t, ZERO)),
]


@st.composite
def identity_claims(draw: Draw) -> FuzzClaim:
    """``C[e] = C[T(e)]`` for a valid rewrite ``T``, as ``=``, ``<=`` or ``>=``; false by a
    shift of one side (everywhere false), a strict relation (a tie everywhere), or the sign
    of an argument (false where it matters, witness sampled)."""
    names = draw(st.sampled_from([("x",), ("x", "y")]))
    variables = tuple(draw(real_domain(n)) for n in names)
    g = Gen(draw, names, [v.name for v in variables if is_positive_domain(v)])
    rule, build = draw(st.sampled_from(IDENTITIES))
    lhs, rhs = build(g)
    ctx_name, ctx = draw(st.sampled_from(CONTEXTS))
    lhs, rhs = ctx(lhs), ctx(rhs)
    rel = draw(st.sampled_from(["=", "<=", ">="]))
    if draw(st.booleans()):
        lhs, rhs = rhs, lhs
    recipe = f"identity/{rule}" + (f"/{ctx_name}" if ctx_name else "")
    claim = FuzzClaim(recipe, "identity", True, variables, lhs, rel, rhs)
    how = draw(st.sampled_from(["true", "shift", "strict"]))
    rng = _rng(draw)
    if how == "shift":
        delta = draw(st.sampled_from(SHIFTS))
        if rel == "=":
            rhs = rhs + delta if draw(st.booleans()) else rhs - delta
        elif rel == "<=":
            rhs = rhs - delta
        else:
            rhs = rhs + delta
        claim = replace(
            claim,
            rhs=rhs,
            truth=False,
            recipe=recipe + "/shift",
            why=f"one side shifted by {delta.text}: false everywhere",
        )
        # Under floor/abs/max contexts a shift inside may vanish; the witness decides.
        return checked_claim(estimated(claim, rng, need=0.25))
    if how == "strict":
        strict = {"=": "<", "<=": "<", ">=": ">"}[rel]
        claim = replace(
            claim,
            rel=strict,
            truth=False,
            recipe=recipe + "/strict",
            why="the sides are equal everywhere: a strict relation fails at every point",
        )
        # Every point is a tie (shown exactly at the witness): no share to estimate.
        return checked_claim(estimated(claim, rng, need=0.0, points=3))
    return checked_claim(claim)


# -- recipe: slack ---------------------------------------------------------------------
@dataclass(frozen=True)
class Slack:
    """A term ``s >= 0`` by its shape, and where it vanishes (None: it is positive)."""

    name: str
    term: X
    zero: Fraction | None


def slacks(v: X, c: Fraction, other: X) -> list[Slack]:
    cx = num(c)
    return [
        Slack("square", (v - cx) ** 2, c),
        Slack("abs", Abs(v - cx), c),
        Slack("cosh", cosh(v - cx) - 1, c),
        Slack("exp-tangent", exp(v - cx) - 1 - (v - cx), c),
        Slack("square-times", (v - cx) ** 2 * (other**2 + 1), c),
        Slack("max", Max(v - cx, ZERO), None),
        Slack("frac", v - floor(v), None),
        Slack("const", num(1, 7), None),
        Slack("exp", exp(other), None),
        Slack("phi", Phi(other), None),
        Slack("erfc", erfc(other), None),
        Slack("square-plus", (other - cx) ** 2 + num(1, 10**9), None),
    ]


@st.composite
def slack_claims(draw: Draw) -> FuzzClaim:
    """``L <= L + s`` with ``s >= 0`` by its shape (strict when ``s > 0``); false by the
    negated relation (everywhere), by a small shift where ``s`` vanishes, or by a strict
    relation at the zero of ``s``, placed at a closed end of the domain half the time."""
    names = draw(st.sampled_from([("x",), ("x", "y")]))
    x = var(names[0])
    other = var(names[-1]) if len(names) > 1 else ONE
    g = Gen(draw, names)
    left = g.real(draw(st.integers(0, 2)))
    c = Fraction(draw(st.integers(-4, 4)), draw(st.sampled_from([1, 1, 2, 3])))
    slack = draw(st.sampled_from(slacks(x, c, other)))
    rest = tuple(draw(real_domain(n)) for n in names[1:])
    at_end = slack.zero is not None and draw(st.booleans())
    if at_end:
        xv = Var(
            names[0],
            lo=num(c),
            lo_open=False,
            hi=draw(st.sampled_from([None, num(c) + 1, num(c) + PI])),
        )
    else:
        xv = draw(real_domain(names[0]))
    variables = (xv, *rest)
    positive = slack.zero is None and slack.name not in ("max", "frac")
    rel = "<" if positive else "<="
    lhs, rhs = left, left + slack.term
    if draw(st.booleans()):
        lhs, rhs, rel = rhs, lhs, {"<": ">", "<=": ">="}[rel]
    recipe = f"slack/{slack.name}"
    claim = FuzzClaim(recipe, "inequality", True, variables, lhs, rel, rhs)
    how = draw(st.sampled_from(["true", "negate", "shift", "strict"]))
    rng = _rng(draw)
    if how == "negate":
        neg = {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}[rel]
        claim = replace(
            claim,
            rel=neg,
            truth=False,
            recipe=recipe + "/negate",
            why="the negation of a claim true everywhere fails everywhere",
        )
        return checked_claim(estimated(claim, rng))
    if how == "shift" and slack.zero is not None:
        delta = draw(st.sampled_from(SHIFTS[:3]))
        if rel in ("<", "<="):
            claim = replace(claim, lhs=lhs + delta)
        else:
            claim = replace(claim, rhs=rhs + delta)
        w = {names[0]: c, **({names[1]: Fraction(0)} if len(names) > 1 else {})}
        claim = replace(
            claim,
            truth=False,
            recipe=recipe + "/shift",
            witness=w,
            why=f"shifted by {delta.text}: fails near {names[0]} = {c}",
        )
        if claim.admissible(w) is not True:
            return checked_claim(estimated(replace(claim, witness=None), rng))
        return checked_claim(estimated(claim, rng))
    if how == "strict" and slack.zero is not None and not positive:
        strict = {"<=": "<", ">=": ">"}[rel]
        w = {names[0]: c}
        for v in rest:
            p = sample_point(replace(claim, variables=(v,)), rng)
            assume(p is not None)
            w.update(p)  # type: ignore[arg-type]
        claim = replace(
            claim,
            rel=strict,
            truth=False,
            witness=w,
            findable=at_end,
            recipe=recipe + ("/strict-at-closed-end" if at_end else "/strict-tie"),
            klass="domain end" if at_end else "inequality",
            why=f"s = 0 at {names[0]} = {c}" + (", the closed end" if at_end else ""),
        )
        return checked_claim(claim)
    return checked_claim(claim)


# -- recipe: known inequalities -------------------------------------------------------
Known = Callable[[X, X, X], tuple[X, str, X]]
"""(a, p, b) -> (lhs, rel, rhs): ``a``, ``b`` real; ``p`` positive; true for all of them."""

KNOWN: list[tuple[str, Known, str]] = [
    # name, builder, where it is tight ("a" means at a = 0; "" nowhere)
    ("exp-tangent", lambda a, p, b: (exp(a), ">=", 1 + a), "a"),
    ("log-tangent", lambda a, p, b: (log(p), "<=", p - 1), ""),
    ("log-lower", lambda a, p, b: (1 - 1 / p, "<=", log(p)), ""),
    ("amgm", lambda a, p, b: (sqrt(p * (p + a**2)), "<=", (2 * p + a**2) / 2), "a"),
    ("two-ab", lambda a, p, b: (2 * a * b, "<=", a**2 + b**2), ""),
    ("triangle", lambda a, p, b: (Abs(a + b), "<=", Abs(a) + Abs(b)), ""),
    ("reverse-triangle", lambda a, p, b: (Abs(Abs(a) - Abs(b)), "<=", Abs(a - b)), ""),
    ("tanh-abs", lambda a, p, b: (Abs(tanh(a)), "<=", Abs(a)), "a"),
    ("tanh-bound", lambda a, p, b: (Abs(tanh(a)), "<", ONE), ""),
    ("erf-bound", lambda a, p, b: (Abs(erf(a)), "<", ONE), ""),
    ("cosh-lower", lambda a, p, b: (cosh(a), ">=", 1 + a**2 / 2), "a"),
    ("sinh-abs", lambda a, p, b: (Abs(sinh(a)), ">=", Abs(a)), "a"),
    ("phi-positive", lambda a, p, b: (Phi(a), ">", ZERO), ""),
    ("phi-below-one", lambda a, p, b: (Phi(a), "<", ONE), ""),
    ("floor-below", lambda a, p, b: (floor(a), "<=", a), ""),
    ("floor-plus-one", lambda a, p, b: (a, "<", floor(a) + 1), ""),
    ("ceiling-above", lambda a, p, b: (ceiling(a), ">=", a), ""),
    ("ceiling-floor", lambda a, p, b: (ceiling(a) - floor(a), "<=", ONE), ""),
    ("max-above", lambda a, p, b: (Max(a, b), ">=", a), ""),
    ("min-below", lambda a, p, b: (Min(a, b), "<=", b), ""),
    ("exp-positive", lambda a, p, b: (exp(a), ">", ZERO), ""),
    ("sqrt-amgm", lambda a, p, b: (sqrt(1 + a**2), "<=", (2 + a**2) / 2), "a"),
    ("mills", lambda a, p, b: (Phi(-Abs(a)), "<=", exp(-(a**2) / 2) / 2), "a"),
    ("erfc-bound", lambda a, p, b: (erfc(Abs(a)), "<=", exp(-(a**2))), "a"),
    ("log1p-upper", lambda a, p, b: (log(1 + a**2), "<=", a**2), "a"),
    ("log1p-lower", lambda a, p, b: (a**2 / (1 + a**2), "<=", log(1 + a**2)), "a"),
    ("cauchy", lambda a, p, b: ((a + b) ** 2, "<=", 2 * (a**2 + b**2)), ""),
    ("abs-above", lambda a, p, b: (Abs(a), ">=", a), ""),
    ("square", lambda a, p, b: (a**2, ">=", ZERO), "a"),
    ("phiinv-monotone", lambda a, p, b: (PhiInv(Phi(a) / 2), "<", a), ""),
]

INCREASING: list[tuple[str, Callable[[X], X], bool]] = [
    # name, f, strictly increasing on R
    ("id", lambda t: t, True),
    ("+c", lambda t: t + num(5, 2), True),
    ("*c", lambda t: 3 * t, True),
    ("tanh", tanh, True),
    ("erf", erf, True),
    ("phi", Phi, True),
    ("cube", lambda t: t**3, True),
    ("neg", lambda t: -t, True),  # decreasing: flips the relation (handled below)
    ("floor", floor, False),
    ("ceiling", ceiling, False),
    ("exp", exp, True),
]


@st.composite
def known_claims(draw: Draw) -> FuzzClaim:
    """A known inequality with random arguments, under a monotone map; false by the negated
    relation, by the reversed non-strict relation, or strict where it is tight, with the
    tight point at a closed end half the time."""
    names = draw(st.sampled_from([("x",), ("x", "y")]))
    g = Gen(draw, names)
    name, build, tight = draw(st.sampled_from(KNOWN))
    x = var(names[0])
    c = Fraction(draw(st.integers(-3, 3)))
    at_end = tight == "a" and draw(st.booleans())
    a = (x - num(c)) if at_end or draw(st.booleans()) else g.real(1)
    b = g.real(1)
    p = g.pos(1)
    lhs, rel, rhs = build(a, p, b)
    fname, f, strict_map = draw(st.sampled_from(INCREASING))
    if fname == "exp" and max(lhs.size(), rhs.size()) > 7:
        fname, f, strict_map = INCREASING[0]
    if not strict_map and rel in ("<", ">"):
        fname, f = "id", INCREASING[0][1]
    lhs, rhs = f(lhs), f(rhs)
    if fname == "neg":
        rel = _MIRROR[rel]
    if draw(st.booleans()):
        lhs, rhs, rel = rhs, lhs, _MIRROR[rel]
    if at_end:
        xv = Var(
            names[0],
            lo=num(c),
            lo_open=False,
            hi=draw(st.sampled_from([None, num(c) + 2, num(c) + EULER])),
        )
    else:
        xv = draw(real_domain(names[0]))
    variables = (xv, *(draw(real_domain(n)) for n in names[1:]))
    recipe = f"known/{name}" + (f"/{fname}" if fname != "id" else "")
    claim = FuzzClaim(recipe, "inequality", True, variables, lhs, rel, rhs)
    how = draw(st.sampled_from(["true", "true", "negate", "reverse", "strict"]))
    rng = _rng(draw)
    if how == "negate":
        neg = {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}[rel]
        claim = replace(
            claim,
            rel=neg,
            truth=False,
            recipe=recipe + "/negate",
            why="the negation of a claim true everywhere",
        )
        return checked_claim(estimated(claim, rng))
    if how == "reverse" and rel in ("<=", ">="):
        claim = replace(
            claim,
            rel=_MIRROR[rel],
            truth=False,
            recipe=recipe + "/reverse",
            why="the reversed relation fails wherever the inequality is strict",
        )
        return checked_claim(estimated(claim, rng))
    if how == "strict" and tight == "a" and rel in ("<=", ">=") and a == x - num(c):
        w: Point = {names[0]: c}
        for v in variables[1:]:
            q = sample_point(replace(claim, variables=(v,)), rng)
            assume(q is not None)
            w.update(q)  # type: ignore[arg-type]
        claim = replace(
            claim,
            rel={"<=": "<", ">=": ">"}[rel],
            truth=False,
            witness=w,
            findable=at_end,
            klass="domain end" if at_end else "inequality",
            recipe=recipe + ("/strict-at-closed-end" if at_end else "/strict-tie"),
            why=f"tight at {names[0]} = {c}",
        )
        return checked_claim(claim)
    return checked_claim(claim)
