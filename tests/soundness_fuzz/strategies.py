"""Hypothesis strategies for claims whose truth is known by construction.

Every recipe builds a true claim from mathematics that holds by its shape (an identity
rewritten by a valid rule, a slack that is a square, a known inequality, a monotone map of
one, a hypothesis whose every branch satisfies the claim) and, about half the time, turns it
false by a change that fails at a witness inside every domain and hypothesis: a shift of one
side, the negation of the relation, a strict relation at a tie, a closed end where an open
one was needed, a branch of an equality hypothesis, a constant rounded the wrong way.  The
witness is part of the construction; :func:`.claims.verify` checks it independently.

``claims()`` is the union of the recipes; each recipe is also a strategy of its own.  Lists
are ordered simplest first, so that Hypothesis shrinks towards small claims.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import sympy as sp
from hypothesis import assume
from hypothesis import strategies as st

from .claims import FuzzClaim, Point, Var, sample_point, verify
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
    beta,
    binomial,
    ceiling,
    cosh,
    erf,
    erfc,
    exact,
    exp,
    expm1,
    factorial,
    floor,
    gamma,
    index,
    integral,
    lambertw,
    log,
    log1p,
    loggamma,
    num,
    piecewise,
    sinh,
    sqrt,
    summation,
    tanh,
    var,
)
from .latex import Style, latex

Draw = Callable[..., Any]

# -- numbers and domains ---------------------------------------------------------------
SMALL = [ONE, TWO, num(1, 2), num(3), num(1, 3), num(5, 2), num(7), num(10)]
SIGNED = [*SMALL, num(-1), num(-2), num(-1, 2), num(-5, 3)]
IRRATIONAL = [PI, EULER, sqrt(TWO), log(num(3)), log(TWO), PI / 2]
SHIFTS = [ONE, num(1, 3), num(1, 1000), num(1, 10**6), num(1, 10**12), num(1, 10**20)]

ENDS: list[X] = [
    num(-3),
    -PI,
    num(-1),
    num(-1, 2),
    ZERO,
    num(1, 3),
    num(1, 2),
    log(TWO),
    ONE,
    log(num(3)),
    sqrt(TWO),
    PI / 2,
    TWO,
    EULER,
    PI,
    num(5),
    num(10),
]
"""Finite ends in increasing order: rationals and expression ends (``log(3)``, ``pi/2``)."""


def end_value(x: X) -> float:
    return float(sp.N(exact(x, {}), 20))


def is_positive_domain(v: Var) -> bool:
    return v.lo is not None and (end_value(v.lo) > 0 or (end_value(v.lo) == 0 and v.lo_open))


@st.composite
def real_domain(draw: Draw, name: str, kind: str = "any") -> Var:
    """A real domain: ``R``, half-lines, intervals with rational or expression ends."""
    shape = draw(
        st.sampled_from(
            ["R", "lower", "interval", "upper"] if kind == "any" else ["lower", "interval"]
        )
    )
    if kind == "positive":
        lo_i = draw(st.integers(ENDS.index(ZERO), len(ENDS) - 2))
    else:
        lo_i = draw(st.integers(0, len(ENDS) - 2))
    lo_open, hi_open = draw(st.booleans()), draw(st.booleans())
    if kind == "positive" and ENDS[lo_i] == ZERO:
        lo_open = True
    if shape == "R":
        return Var(name)
    if shape == "lower":
        return Var(name, lo=ENDS[lo_i], lo_open=lo_open)
    hi_i = draw(st.integers(lo_i + 1, len(ENDS) - 1))
    if shape == "upper":
        return Var(name, hi=ENDS[hi_i], hi_open=hi_open)
    return Var(name, lo=ENDS[lo_i], hi=ENDS[hi_i], lo_open=lo_open, hi_open=hi_open)


# -- random expressions ----------------------------------------------------------------
@dataclass
class Gen:
    """Draws expressions over the claim's variables: ``real`` total on R^n, ``pos`` positive
    everywhere, ``small`` tame enough to sit inside ``exp`` (no exponential of an
    exponential: the tool evaluates at 1e30)."""

    draw: Draw
    names: Sequence[str]
    positive: Sequence[str] = ()

    def leaf(self) -> X:
        if self.draw(st.integers(0, 3)) == 0:
            return self.draw(st.sampled_from([*SIGNED[:6], PI, EULER]))  # type: ignore[no-any-return]
        return var(self.draw(st.sampled_from(list(self.names))))  # type: ignore[arg-type]

    def small(self) -> X:
        v = var(self.draw(st.sampled_from(list(self.names))))  # type: ignore[arg-type]
        c = self.draw(st.sampled_from(SIGNED))
        kind = self.draw(st.integers(0, 7))
        return [
            v,
            c * v,
            v + c,
            v**2 / 2,
            -(v**2) + c,
            tanh(v) * 3,
            erf(v) - c,
            c * v - v**2 / 4,
        ][kind]

    def pos(self, depth: int = 1) -> X:
        kinds = 12 if depth > 0 else 5
        kind = self.draw(st.integers(0, kinds - 1))
        if kind == 0:
            if self.positive and self.draw(st.booleans()):
                return var(self.draw(st.sampled_from(list(self.positive))))  # type: ignore[arg-type]
            return self.draw(st.sampled_from([*SMALL[:5], PI, EULER, sqrt(TWO)]))  # type: ignore[no-any-return]
        if kind == 1:
            return exp(self.small())
        if kind == 2:
            return cosh(self.small())
        if kind == 3:
            return self.small() ** 2 + self.draw(st.sampled_from(SMALL[:4]))
        if kind == 4:
            return Abs(self.leaf()) + self.draw(st.sampled_from(SMALL[:4]))
        d = depth - 1
        if kind == 5:
            return sqrt(self.pos(d))
        if kind == 6:
            return self.pos(d) + self.pos(d)
        if kind == 7:
            return self.pos(d) * self.pos(d)
        if kind == 8:
            return self.pos(d) / self.pos(d)
        if kind == 9:
            return erfc(self.small())
        if kind == 10:
            return Phi(self.small())
        return 1 + tanh(self.small())

    def real(self, depth: int = 1) -> X:
        if depth <= 0:
            return self.leaf()
        d = depth - 1
        kind = self.draw(st.integers(0, 17))
        if kind == 0:
            return self.leaf()
        if kind == 1:
            return self.real(d) + self.real(d)
        if kind == 2:
            return self.real(d) - self.real(d)
        if kind == 3:
            return self.real(d) * self.real(d)
        if kind == 4:
            return self.pos(d)
        if kind == 5:
            return tanh(self.real(d))
        if kind == 6:
            return erf(self.real(d))
        if kind == 7:
            return sinh(self.small())
        if kind == 8:
            return Abs(self.real(d))
        if kind == 9:
            return Max(self.real(d), self.real(d))
        if kind == 10:
            return Min(self.real(d), self.real(d))
        if kind == 11:
            return log(self.pos(d))
        if kind == 12:
            return self.real(d) / self.pos(d)
        if kind == 13:
            return floor(self.real(d))
        if kind == 14:
            return ceiling(self.real(d))
        if kind == 15:
            return PhiInv(Phi(self.small()))
        if kind == 16:
            return sqrt(self.pos(d))
        return self.draw(st.sampled_from(SIGNED)) * self.real(d)  # type: ignore[no-any-return]


# -- the witness of a false claim ------------------------------------------------------
def _rng(draw: Draw) -> random.Random:
    return draw(st.randoms(use_true_random=False))  # type: ignore[no-any-return]


def estimated(
    claim: FuzzClaim, rng: random.Random, need: float = 0.25, points: int = 16
) -> FuzzClaim:
    """``claim`` (false) with its findability estimated by sampling: findable when it fails
    at a ``need`` share of the sanity points or more (and the recipe did not say otherwise).
    Without a witness of its own, the first failing point is the witness; a claim with
    neither is rejected."""
    tried, failing, witness = 0, 0, None
    for _ in range(points):
        p = sample_point(claim, rng, tries=8)
        if p is None:
            continue
        tried += 1
        if claim.fails_at(p):
            failing += 1
            witness = witness or p
    if claim.witness is not None:
        witness = dict(claim.witness)
    assume(witness is not None and tried >= min(6, points))
    share = failing / tried
    return replace(claim, witness=witness, findable=claim.findable and share >= need)


def checked_claim(claim: FuzzClaim) -> FuzzClaim:
    """The claim, if its independent check agrees with the recipe (else the draw is
    rejected: a recipe's mistake is the fuzzer's bug, never the tool's)."""
    used = claim.lhs.free() | claim.rhs.free()
    for h in claim.hypotheses:
        used |= h.free()
    for _, body in claim.defs:
        used |= body.free()
    kept = tuple(v for v in claim.variables if v.name in used or v.family)
    if len(kept) < len(claim.variables):
        keep = {v.name for v in kept}
        witness = claim.witness
        if witness is not None:
            witness = {k: v for k, v in witness.items() if k.split("[")[0] in keep}
        claim = replace(claim, variables=kept, witness=witness)
    check = verify(claim, points=8)
    assume(check.ok)
    return claim


# -- recipe: identities ----------------------------------------------------------------
Identity = Callable[[Gen], tuple[X, X]]


def _id(f: Callable[..., tuple[X, X]], *kinds: str) -> Identity:
    def build(g: Gen) -> tuple[X, X]:
        args = [g.small() if k == "s" else g.pos(1) if k == "p" else g.real(1) for k in kinds]
        return f(*args)

    build.rule = (f, len(kinds))  # type: ignore[attr-defined]
    return build


def table_trees() -> list[X]:
    """Every recipe table's trees, built with plain variables for their arguments: what the
    recipes can write (the coverage test reads it)."""
    a, b, c = var("a"), var("b"), var("c")
    out: list[X] = []
    for _, build in IDENTITIES:
        f, arity = build.rule  # type: ignore[attr-defined]
        out += f(*[a, b, c][:arity])
    for _, known, _ in KNOWN:
        left, _, right = known(a, b, c)
        out += [left, right]
    for _, _, f_end, value in END_MAPS:
        out += [f_end(a), value]
    out += [c_ for _, c_ in CONSTANTS]
    for case in EQ_CASES:
        out += case.hyp(a, b)
        for _, body in case.true:
            out += [body(a, b)[0], body(a, b)[2]]
        for _, body, _ in case.false:
            out += [body(a, b)[0], body(a, b)[2]]
    for _, _, build_n, *_ in INT_CASES + INT_FALSE:  # type: ignore[operator]
        left, _, right = build_n(n_)
        out += [left, right]
    for _, build_a, _ in ANALYSIS:
        left, _, right = build_a()
        out += [left, right]
    for _, _, build_j, _ in JUMPS:
        left, _, right = build_j()
        out += [left, right]
    for _, _, build_f, _, _ in FAMILY_CASES:
        left, _, right = build_f()
        out += [left, right]
    return out


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
_MIRROR = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}


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
k_, t_ = var("k"), var("t")
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


F = Fraction
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


# -- recipe: integer variables, sums and products over integers --------------------------
n_ = var("n")
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
x_, u_, p_ = var("x"), var("u"), var("p")


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


def alias_pairs() -> list[tuple[str, X, Sequence[Var]]]:
    """Every alias of the tables (shown, closed form) with where it is claimed to hold."""
    out: list[tuple[str, X, Sequence[Var]]] = []

    def walk(name: str, x: X, where: Sequence[Var]) -> None:
        if x.op == "alias":
            out.append((name, x, where))
        for arg in x.args:
            if isinstance(arg, X):
                walk(name, arg, where)

    for name, c in CONSTANTS:
        walk(name, c, ())
    for name, build, variables in ANALYSIS:
        left, _, right = build()
        walk(name, left, variables)
        walk(name, right, variables)
    return out


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
c_ = num(3, 2)
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
            return checked_claim(
                replace(
                    claim,
                    rel="<",
                    truth=False,
                    witness={"x": F(1), "y": F(1)},
                    recipe=claim.recipe + "/strict",
                    why="tight on the boundary x = y",
                )
            )
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
            return checked_claim(
                replace(
                    claim,
                    rel="<",
                    truth=False,
                    witness={"x": w[0], "y": w[1]},
                    findable=pick == "sum",
                    recipe=claim.recipe + "/strict",
                    why="tight on the boundary",
                )
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
            return checked_claim(
                replace(
                    claim,
                    rel="<",
                    truth=False,
                    witness={"x": w[0], "y": w[1]},
                    findable=pick == "circle",
                    recipe=claim.recipe + "/strict",
                    why="tight on the boundary",
                )
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
            return checked_claim(
                replace(
                    claim,
                    rel=">",
                    truth=False,
                    witness={"x": exact(bound, {})},
                    recipe=claim.recipe + "/strict",
                    why="tight at the boundary's constant",
                )
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
            return checked_claim(
                replace(
                    claim,
                    rel=">",
                    truth=False,
                    witness={"x": F(0), "y": F(1)},
                    recipe=claim.recipe + "/strict",
                    why="tight on the boundary y = exp(x)",
                )
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
            return checked_claim(
                replace(
                    claim,
                    rel="<",
                    truth=False,
                    witness={"eps": sp.log(2), "p": F(1, 2), "q": F(1, 4)},
                    recipe=claim.recipe + "/strict",
                    why="tight on the boundary p = exp(eps) q",
                )
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
        return checked_claim(
            replace(
                claim,
                rel=">",
                truth=False,
                witness={"x": F(1), "y": F(1)},
                findable=False,
                recipe=claim.recipe + "/strict",
                why="tight at the single point (1, 1)",
            )
        )
    return checked_claim(claim)


# -- recipe: families -------------------------------------------------------------------
i_ = var("i")


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


# -- definitions ------------------------------------------------------------------------
def _subtrees(x: X, out: list[X]) -> None:
    if x.op in ("sum", "prod", "integral", "piecewise", "index", "alias"):
        return  # bound variables inside: not a definition's body
    if x.size() >= 2 and x.op not in ("num", "const"):
        out.append(x)
    for a in x.args:
        if isinstance(a, X):
            _subtrees(a, out)


def _replace_tree(x: X, target: X, by: X) -> X:
    if x == target:
        return by
    if x.op in ("sum", "prod", "integral", "piecewise", "index", "alias"):
        return x
    return X(
        x.op,
        tuple(_replace_tree(a, target, by) if isinstance(a, X) else a for a in x.args),
        x.name,
        x.num,
    )


@st.composite
def with_definitions(draw: Draw, base: st.SearchStrategy[FuzzClaim]) -> FuzzClaim:
    """A claim with one or two subexpressions moved into ``[defs]`` (the truth does not
    change: the tool substitutes them back)."""
    claim = draw(base)
    if any(v.family for v in claim.variables):
        return claim
    for k in range(draw(st.integers(1, 2))):
        found: list[X] = []
        _subtrees(claim.lhs, found)
        _subtrees(claim.rhs, found)
        if not found:
            break
        target = draw(st.sampled_from(found))
        name = f"d{k + 1}"
        claim = replace(
            claim,
            lhs=_replace_tree(claim.lhs, target, var(name)),
            rhs=_replace_tree(claim.rhs, target, var(name)),
            defs=(*claim.defs, (name, target)),
            recipe=claim.recipe + ("/defs" if k == 0 else ""),
        )
    return claim


@st.composite
def in_latex(draw: Draw, base: st.SearchStrategy[FuzzClaim]) -> FuzzClaim:
    """A claim with its sides and hypotheses written in LaTeX (spelling drawn: ``e^{a}`` or
    ``\\exp``, ``\\frac`` or ``/``, ``\\cdot``, ``\\times`` or juxtaposition, ...); its
    truth is the tree's, so a different verdict is a misreading."""
    claim = draw(base)
    style = Style(
        exp=draw(st.sampled_from(["e^", "\\exp\\left(", "\\exp("])),
        paren=draw(st.sampled_from(["left", "plain"])),
        times=draw(st.sampled_from(["\\cdot", "\\times", " "])),
        frac=draw(st.sampled_from(["\\frac", "\\tfrac", "/"])),
        abs=draw(st.sampled_from(["left", "bars", "lvert"])),
        log=draw(st.sampled_from(["\\ln", "\\log"])),
        le=draw(st.sampled_from(["\\le", "\\leq"])),
    )
    try:
        for part in (claim.lhs, claim.rhs, *claim.hypotheses):
            latex(part, style)
    except ValueError:
        return claim  # a function LaTeX has no name for (lambertw): stays in SymPy syntax
    return replace(claim, style=style, recipe=claim.recipe + "/latex")


RECIPES: dict[str, st.SearchStrategy[FuzzClaim]] = {
    "identity": identity_claims(),
    "slack": slack_claims(),
    "known": known_claims(),
    "end": end_claims(),
    "constant": constant_claims(),
    "sign": sign_claims(),
    "equality": eq_claims(),
    "integer": integer_claims(),
    "integer-false": integer_false_claims(),
    "analysis": analysis_claims(),
    "jump": jump_claims(),
    "boundary": boundary_claims(),
    "family": family_claims(),
}


def claims(recipes: Sequence[str] | None = None) -> st.SearchStrategy[FuzzClaim]:
    """Claims from the named recipes (all by default): a fifth with definitions, a fifth in
    LaTeX."""
    chosen = [RECIPES[r] for r in (recipes or list(RECIPES))]
    base = st.one_of(*chosen)
    return st.one_of(base, base, base, with_definitions(base), in_latex(base))
