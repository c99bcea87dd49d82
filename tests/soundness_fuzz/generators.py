"""The recipes' building blocks: numbers, domains (rational and expression ends), random
expressions that are total (``real``), positive (``pos``) or tame enough for ``exp``
(``small``), and the witness of a false claim (:func:`estimated`, :func:`checked_claim`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import sympy as sp
from hypothesis import assume
from hypothesis import strategies as st

from .claims import FuzzClaim, Var, sample_point, verify
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
    X,
    ceiling,
    cosh,
    erf,
    erfc,
    exact,
    exp,
    floor,
    log,
    num,
    sinh,
    sqrt,
    tanh,
    var,
)

Draw = Callable[..., Any]


# -- numbers and domains ---------------------------------------------------------------
SMALL = [ONE, TWO, num(1, 2), num(3), num(1, 3), num(5, 2), num(7), num(10)]
SIGNED = [*SMALL, num(-1), num(-2), num(-1, 2), num(-5, 3)]
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


_MIRROR = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
"""A relation with its sides swapped."""

# Symbols the tables share.
k_, t_ = var("k"), var("t")
F = Fraction
n_ = var("n")
x_, u_, p_ = var("x"), var("u"), var("p")
c_ = num(3, 2)
i_ = var("i")
