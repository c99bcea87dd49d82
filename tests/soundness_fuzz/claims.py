"""A generated claim: variables with domains, hypotheses, definitions, the relation, and
what is known about its truth by construction; its TOML; its independent truth check.

The truth of a claim is set by its recipe (:mod:`.strategies`).  :func:`verify` then checks
it independently with the fuzzer's own evaluator (:mod:`.expr`), never dpderive's: a false
claim must fail at its witness (which satisfies every domain and hypothesis), a true claim
must hold at every sanity point.  A claim whose check disagrees with its recipe is the
fuzzer's own bug and is dropped, never held against the tool.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

import sympy as sp

from .expr import Rel, X, diff_sign, exact
from .latex import Style, latex

Point = dict[str, object]
"""A point: variable name (or family element ``p[3]``) -> exact number (Fraction, SymPy)."""


@dataclass(frozen=True)
class Var:
    """A declared variable.  Ends are trees (``log(3)``, ``pi/2``) or None for infinite."""

    name: str
    lo: X | None = None
    hi: X | None = None
    lo_open: bool = True
    hi_open: bool = True
    integer: bool = False
    family: str = ""
    """For a family, its length's name or number and index (``for i in 1..n``)."""

    @property
    def domain(self) -> str:
        if self.integer:
            if self.lo is not None and self.hi is None and not self.lo_open:
                text = f"Z>={self.lo.text}"
            elif self.lo is None and self.hi is None:
                text = "Z"
            else:
                text = f"Z in {self._interval()}"
        elif self.lo is None and self.hi is None:
            text = "R"
        else:
            text = self._interval()
        return f"{text} for {self.family}" if self.family else text

    def _interval(self) -> str:
        left = "(" if self.lo_open or self.lo is None else "["
        right = ")" if self.hi_open or self.hi is None else "]"
        lo = self.lo.text if self.lo is not None else "-oo"
        hi = self.hi.text if self.hi is not None else "oo"
        return f"{left}{lo}, {hi}{right}"

    def contains(self, v: object) -> bool | None:
        """Whether ``v`` lies in the domain (None when too close to an end to call)."""
        probe = X("var", name="_v")
        env = {"_v": v}
        if self.integer and sp.nsimplify(v).is_integer is not True:  # type: ignore[arg-type]
            return False
        for end, is_open, below in ((self.lo, self.lo_open, True), (self.hi, self.hi_open, False)):
            if end is None:
                continue
            s = diff_sign(probe, end, env)
            if s is None:
                return None
            if s == 0 and is_open:
                return False
            if (s < 0) if below else (s > 0):
                return False
        return True


@dataclass(frozen=True)
class FuzzClaim:
    """One generated claim and what its recipe knows about it."""

    recipe: str
    """Which construction (``identity/log-mul``, ``end/closed-tie``, ...)."""
    klass: str
    """The class of soundness bug a wrong verdict would belong to (see the bench)."""
    truth: bool
    variables: tuple[Var, ...]
    lhs: X
    rel: str
    rhs: X
    hypotheses: tuple[Rel, ...] = ()
    defs: tuple[tuple[str, X], ...] = ()
    witness: Mapping[str, object] | None = None
    """For a false claim: a point of every domain and hypothesis where the claim fails."""
    findable: bool = True
    """For a false claim: whether the documented sampling must see a counterexample (an end,
    a hypothesis boundary or branch, a violation everywhere or on a large share)."""
    why: str = ""
    sampler: Callable[[random.Random], Point] | None = field(
        default=None, compare=False, repr=False
    )
    """Points satisfying the hypotheses (for equality hypotheses, which rejection misses)."""
    style: Style | None = field(default=None, compare=False)
    """When set, the claim's sides and hypotheses are written in LaTeX in this style."""

    def written(self, x: X | Rel) -> str:
        """A field as the claim file writes it: SymPy syntax, or LaTeX (:attr:`style`)."""
        if self.style is None:
            return x.text
        text = latex(x, self.style)
        # A field without a backslash, brace, ^, | or & is read as SymPy syntax: braces
        # keep a plain "e" or "x - y" in LaTeX.
        return text if any(m in text for m in "\\{}^|&") else "{" + text + "}"

    # -- the claim file -----------------------------------------------------------------
    def toml(self, comment: str = "") -> str:
        lines = [f"# {line}" for line in comment.splitlines()] if comment else []
        if self.hypotheses:
            hyps = ", ".join(_q(self.written(h)) for h in self.hypotheses)
            lines.append(f"hypotheses = [{hyps}]")
        lines += [
            "[claim]",
            f"lhs = {_q(self.written(self.lhs))}",
            f"relation = {_q(self.rel)}",
            f"rhs = {_q(self.written(self.rhs))}",
            "[variables]",
        ]
        lines += [f"{v.name} = {_q(v.domain)}" for v in self.variables]
        if self.defs:
            lines.append("[defs]")
            lines += [f"{name} = {_q(body.text)}" for name, body in self.defs]
        return "\n".join(lines) + "\n"

    @property
    def text(self) -> str:
        hyps = f" given {', '.join(h.text for h in self.hypotheses)}" if self.hypotheses else ""
        doms = ", ".join(f"{v.name} in {v.domain}" for v in self.variables)
        defs = "".join(f"; {n} := {b.text}" for n, b in self.defs)
        return f"{self.lhs.text} {self.rel} {self.rhs.text} for {doms}{hyps}{defs}"

    def expanded(self, x: X) -> X:
        """``x`` with the definitions substituted (later ones may use earlier ones)."""
        for name, body in reversed(self.defs):
            x = x.subst({name: body})
        return x

    @property
    def claim_rel(self) -> Rel:
        op = "==" if self.rel == "=" else self.rel
        return Rel(self.expanded(self.lhs), op, self.expanded(self.rhs))

    def holds_at(self, point: Mapping[str, object]) -> bool | None:
        return self.claim_rel.holds(point)

    def fails_at(self, point: Mapping[str, object]) -> bool:
        """Whether the claim fails at ``point``: decisively, or (a strict relation) at a tie
        SymPy shows to be exact."""
        if self.violated_at(point):
            return True
        return self.rel in ("<", ">") and self.holds_at(point) is False

    def violated_at(self, point: Mapping[str, object]) -> bool:
        """Whether the claim fails decisively at ``point``: the sides differ beyond rounding
        at 60 and 180 digits, on the wrong side (a tie is never decisive, so a true claim's
        ties cost no exact proof)."""
        r = self.claim_rel
        d = diff_sign(r.lhs, r.rhs, point, exact_ties=False)
        if d is None:
            return False
        return not {"<": d < 0, "<=": d <= 0, ">": d > 0, ">=": d >= 0, "==": d == 0}[r.op]

    def admissible(self, point: Mapping[str, object]) -> bool | None:
        """Whether ``point`` lies in every domain and satisfies every hypothesis."""
        for v in self.variables:
            if v.family:
                continue  # the family recipes place their elements themselves
            if v.name not in point:
                return False
            inside = v.contains(point[v.name])
            if inside is not True:
                return inside
        for h in self.hypotheses:
            ok = Rel(self.expanded(h.lhs), h.op, self.expanded(h.rhs)).holds(point)
            if ok is not True:
                return ok
        return True


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# -- sampling and the truth check ---------------------------------------------------------
def sample_value(v: Var, rng: random.Random) -> object:
    """A point of ``v``'s domain, exact: ends (closed), near ends, uniform, log-scale."""
    lo = _num(v.lo) if v.lo is not None else None
    hi = _num(v.hi) if v.hi is not None else None
    if v.integer:
        a = int(sp.ceiling(lo)) if lo is not None else -30
        b = int(sp.floor(hi)) if hi is not None else a + 60
        picks = [a, b, a + 1, rng.randint(a, b), rng.randint(a, min(b, a + 5))]
        return Fraction(rng.choice([p for p in picks if a <= p <= b]))
    choice = rng.random()
    if choice < 0.15 and v.lo is not None and not v.lo_open:
        return _end_value(v.lo)
    if choice < 0.3 and v.hi is not None and not v.hi_open:
        return _end_value(v.hi)
    if lo is not None and hi is not None:
        t = Fraction(rng.randint(1, 999), 1000)
        return Fraction(lo) + (Fraction(hi) - Fraction(lo)) * t
    mag = Fraction(10) ** rng.randint(-4, 4) * Fraction(rng.randint(1, 99), 10)
    if choice < 0.6:
        mag = Fraction(rng.randint(1, 200), 20)
    if lo is not None:
        return Fraction(lo) + mag
    if hi is not None:
        return Fraction(hi) - mag
    return mag if rng.random() < 0.5 else -mag


def _end_value(x: X) -> object:
    """A closed end as a point's value: a Fraction, or SymPy's exact number (``log(3)``)."""
    if x.op == "num":
        assert x.num is not None
        return x.num
    return exact(x, {})


def _num(x: X) -> Fraction:
    """An end as a rational: exact for a number, a close rational inside for an expression."""
    if x.op == "num":
        assert x.num is not None
        return x.num
    return Fraction(str(sp.N(exact(x, {}), 30)))


def sample_point(claim: FuzzClaim, rng: random.Random, tries: int = 60) -> Point | None:
    """A point of every domain satisfying every hypothesis, or None."""
    for _ in range(tries):
        if claim.sampler is not None:
            point = claim.sampler(rng)
        else:
            point = {v.name: sample_value(v, rng) for v in claim.variables if not v.family}
        if claim.admissible(point) is True:
            return point
    return None


@dataclass(frozen=True)
class Check:
    """The independent check of a claim's truth: ``ok`` when it agrees with the recipe."""

    ok: bool
    detail: str


def verify(claim: FuzzClaim, points: int = 12, seed: int = 0) -> Check:
    """Check the recipe's truth independently (mpmath at 60 and 180 digits, SymPy for ties).

    A false claim: its witness is admissible and the claim fails there.  A true claim: it
    holds at ``points`` sanity points (a generator bug shows at once)."""
    rng = random.Random(f"{claim.text}/{seed}")
    if not claim.truth:
        if claim.witness is None:
            return Check(False, "a false claim without a witness")
        w = dict(claim.witness)
        if claim.admissible(w) is not True:
            return Check(False, f"witness {w} is not admissible")
        holds = claim.holds_at(w)
        if holds is not False:
            return Check(False, f"the claim does not fail at its witness {w} ({holds})")
        return Check(True, "fails at its witness")
    seen = 0
    for _ in range(points):
        p = sample_point(claim, rng)
        if p is None:
            continue
        seen += 1
        if claim.violated_at(p):
            return Check(False, f"a 'true' claim fails at {p}: generator bug")
    if seen == 0:
        return Check(False, "no admissible sanity point")
    return Check(True, f"holds at {seen} sanity points")


__all__ = ["Check", "FuzzClaim", "Point", "Var", "sample_point", "verify"]
