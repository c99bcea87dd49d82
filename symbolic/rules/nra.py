"""Polynomial and rational inequalities decided by nonlinear real arithmetic (z3's nlsat).

After the rules, a goal ``g >= 0`` (``> 0``) with its facts is abstracted to polynomials in
the variables and fresh atoms (:mod:`.abstraction`), and z3 is asked whether

    facts and lemmas and not (obligations and g >= 0)

has a real solution.  ``unsat`` proves the goal at every real point satisfying the facts,
its obligations included (log arguments positive, roots' arguments nonnegative, and its
denominators nonzero: a goal is not proved where it has no value); nlsat is a decision
procedure for the first-order theory of the reals (Jovanović & de Moura, *Solving
non-linear arithmetic*, IJCAR 2012), and a decision within the time cap is a proof.
``sat`` gives a model that is only a *candidate* counterexample (the atoms may take values
no real function gives them): it is recorded in :class:`Decision` for a caller to confirm
numerically, and never used to refute here.
``unknown`` (time cap, size cap) proves nothing.

Integer variables are treated as reals (a statement proved for every real in the domain holds
at its integers): sound, only weaker.  The formula is built by walking the SymPy tree; no
text is evaluated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import sympy as sp
import z3
from sympy.core.relational import Relational

from symbolic.rules.abstraction import Abstraction, NotAbstractable
from symbolic.rules.facts import Fact
from symbolic.rules.registry import credit

TIMEOUT_MS = 5000
"""z3's wall-time cap per decision: a last resort only.  What z3 may do is bounded first by
:data:`RLIMIT`, a count of its own resource units that does not depend on the machine's
load, so that whether a step is proved never depends on how busy the machine is."""
RLIMIT = 400_000
"""z3's resource units per decision (its ``rlimit``, counted from the call).  The decisions
of the test suite's user inequalities take at most about 45,000."""
MAX_OPS = 400
"""Formulas larger than this (operations, after abstraction) are not sent."""
MAX_DEGREE = 16
MAX_VARIABLES = 14
DECIDED = "decided by nonlinear real arithmetic (z3 nlsat)"


class Untranslatable(ValueError):
    """A node the translation to z3 does not cover (it is then not sent)."""


@dataclass(frozen=True)
class Decision:
    """What z3 said: ``trace`` when it proved the goal; ``candidate`` (the original
    variables' values in a model) when it found the negation satisfiable."""

    trace: str | None
    candidate: dict[str, float] | None = None
    status: str = "unknown"


@dataclass
class _Translator:
    vars: dict[sp.Symbol, z3.ArithRef] = field(default_factory=dict)

    def var(self, s: sp.Symbol) -> z3.ArithRef:
        if s not in self.vars:
            self.vars[s] = z3.Real(f"{s.name}_{len(self.vars)}")
        return self.vars[s]

    def term(self, e: sp.Expr) -> z3.ArithRef:
        if isinstance(e, sp.Symbol):
            return self.var(e)
        if isinstance(e, sp.Rational):
            return z3.RealVal(f"{e.p}/{e.q}")
        if isinstance(e, sp.Add):
            return z3.Sum(*(self.term(a) for a in e.args))
        if isinstance(e, sp.Mul):
            return z3.Product(*(self.term(a) for a in e.args))
        if isinstance(e, sp.Pow) and e.exp.is_Integer and e.exp >= 0:
            base = self.term(e.base)
            out = z3.RealVal(1)
            for _ in range(int(e.exp)):
                out = out * base
            return out
        raise Untranslatable(str(e))

    def boolean(self, b: sp.Basic) -> z3.BoolRef:
        if b is sp.true:
            return z3.BoolVal(True)
        if b is sp.false:
            return z3.BoolVal(False)
        if isinstance(b, sp.And):
            return z3.And(*(self.boolean(a) for a in b.args))
        if isinstance(b, sp.Or):
            return z3.Or(*(self.boolean(a) for a in b.args))
        if isinstance(b, sp.Not):
            return z3.Not(self.boolean(b.args[0]))
        if isinstance(b, sp.Implies):
            return z3.Implies(self.boolean(b.args[0]), self.boolean(b.args[1]))
        if isinstance(b, Relational):
            lhs, rhs = self.term(b.lhs), self.term(b.rhs)
            ops = {
                sp.Eq: lhs == rhs,
                sp.Ne: lhs != rhs,
                sp.Gt: lhs > rhs,
                sp.Ge: lhs >= rhs,
                sp.Lt: lhs < rhs,
                sp.Le: lhs <= rhs,
            }
            for kind, formula in ops.items():
                if isinstance(b, kind):
                    return formula
        raise Untranslatable(str(b))


def symbol_facts(symbols: set[sp.Symbol]) -> list[sp.Basic]:
    """The sign assumptions of the variables, as facts (unevaluated: ``eps > 0`` of a
    positive ``eps`` would evaluate to True, and z3 must be told).  A positive integer is
    at least 1 (and a negative one at most -1): the real relaxation of an integer variable
    must keep that, since a domain "Z in [1, N]" reaches the rules as a positive integer
    below N, its lower end implied by the assumptions."""
    out: list[sp.Basic] = []
    zero, one = sp.S.Zero, sp.S.One
    for s in sorted(symbols, key=str):
        if s.is_positive:
            if s.is_integer:
                out.append(sp.GreaterThan(s, one, evaluate=False))
            else:
                out.append(sp.StrictGreaterThan(s, zero, evaluate=False))
        elif s.is_nonnegative:
            out.append(sp.GreaterThan(s, zero, evaluate=False))
        if s.is_negative:
            if s.is_integer:
                out.append(sp.LessThan(s, -one, evaluate=False))
            else:
                out.append(sp.StrictLessThan(s, zero, evaluate=False))
        elif s.is_nonpositive:
            out.append(sp.LessThan(s, zero, evaluate=False))
    return out


def _size_ok(exprs: Sequence[sp.Basic]) -> bool:
    total = 0
    for e in exprs:
        total += int(sp.count_ops(e))
        if total > MAX_OPS:
            return False
    for e in exprs:
        for rel in e.atoms(Relational):
            for side in (rel.lhs, rel.rhs):
                if not side.free_symbols:
                    continue
                try:
                    poly = sp.Poly(side, *sorted(side.free_symbols, key=str))
                    if poly.total_degree() > MAX_DEGREE:
                        return False
                except sp.PolynomialError:
                    return False
    return True


def decide(
    g: sp.Expr,
    strict: bool,
    facts: Sequence[Fact],
    timeout_ms: int = TIMEOUT_MS,
    rlimit: int = RLIMIT,
    extra: Sequence[sp.Basic] = (),
) -> Decision:
    """Prove ``g >= 0`` (``> 0``) from ``facts`` and ``extra`` (SymPy relations) by
    abstraction and z3, or say what z3 found."""
    ab = Abstraction()
    try:
        goal = ab(g)
    except (NotAbstractable, TypeError, ValueError):
        return Decision(None, status="not abstractable")
    in_goal = len(ab.denominators)
    if not ab.symbols and not ab.atoms:
        return Decision(None, status="constant")  # the rules' sign check decides numbers
    hyps: list[sp.Basic] = []
    used: list[str] = []
    for f in facts:
        seen = len(ab.denominators)
        try:
            e = ab(f.expr)
        except (NotAbstractable, TypeError, ValueError):
            del ab.denominators[seen:]  # a fact left out vouches for no denominator
            continue
        hyps.append(e > 0 if f.strict else e >= 0)
        used.append(f.origin)
    for rel in extra:
        seen = len(ab.denominators)
        try:
            hyps.append(rel.func(ab(rel.lhs), ab(rel.rhs)))
        except (NotAbstractable, TypeError, ValueError):
            del ab.denominators[seen:]
            continue
    # A denominator of a fact is nonzero wherever the fact holds; one of the goal only is a
    # side condition, proved with the goal (issue 38).
    in_facts = set(ab.denominators[in_goal:])
    ab.exact += ab.reciprocal_facts(in_facts)
    ab.obligations += [sp.Ne(d, 0) for d in dict.fromkeys(ab.denominators[:in_goal])]
    lemmas = ab.lemmas()
    hyps = [h for h in hyps if h is not sp.true]
    hyps += symbol_facts(ab.symbols)
    ab.obligations = [o for o in dict.fromkeys(ab.obligations) if o is not sp.true]
    wanted = goal > 0 if strict else goal >= 0
    conclusion = sp.And(*ab.obligations, wanted)
    everything = [*hyps, *ab.exact, *lemmas, conclusion]
    if len(ab.symbols) + len(ab.atoms) > MAX_VARIABLES or not _size_ok(everything):
        return Decision(None, status="too large")
    if conclusion is sp.true:
        return Decision(None, status="trivial")  # the rules and tactics own such goals
    tr = _Translator()
    try:
        solver = z3.SolverFor("QF_NRA")
        solver.set("timeout", int(timeout_ms))
        solver.set("rlimit", int(rlimit))
        for h in [*hyps, *ab.exact, *lemmas]:
            solver.add(tr.boolean(h))
        solver.add(z3.Not(tr.boolean(conclusion)))
    except (Untranslatable, z3.Z3Exception):
        return Decision(None, status="untranslatable")
    answer = solver.check()
    if answer == z3.unsat:
        # The named facts handed to z3 are credited by their names (``exp tangent``): z3
        # was given them, and does not say which it needed (an unsat core would, at the
        # price of tracked assertions, which change how nlsat searches).
        credit("nonlinear real arithmetic", lemmas=ab.used)
        return Decision(_trace(goal, strict, hyps, ab), status="unsat")
    if answer == z3.sat:
        return Decision(None, _candidate(solver.model(), tr, ab), status="sat")
    return Decision(None, status="unknown")


def _trace(goal: sp.Expr, strict: bool, hyps: list[sp.Basic], ab: Abstraction) -> str:
    rel = ">" if strict else ">="
    parts = [f"{DECIDED}: {_short(goal)} {rel} 0"]
    if hyps:
        parts.append("from " + _short(sp.And(*hyps)))
    if ab.atoms:
        parts.append(f"abstracting {_short_text(ab.describe())}")
    if ab.used:
        parts.append("with the facts " + ", ".join(dict.fromkeys(ab.used)))
    if ab.obligations:
        parts.append("domains " + _short(sp.And(*ab.obligations)) + " proved too")
    return "; ".join(parts)


def _short(e: sp.Basic) -> str:
    return _short_text(str(e))


def _short_text(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _candidate(model: z3.ModelRef, tr: _Translator, ab: Abstraction) -> dict[str, float] | None:
    out: dict[str, float] = {}
    for s in ab.symbols:
        v = model.eval(tr.var(s), model_completion=True)
        try:
            if z3.is_algebraic_value(v):
                v = v.approx(20)  # a rational within 1e-20
            out[s.name] = float(sp.Rational(str(v.as_fraction())))
        except (ValueError, TypeError, AttributeError, z3.Z3Exception):
            return None
    return out
