"""What the sum rules (:mod:`symbolic.rules.sums`) may use: the hypotheses read as plain facts, "for
all" hypotheses, sum hypotheses and equalities to substitute, and the facts of one termwise
subgoal (the index range, the elements' domains, each "for all" at the index)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import sympy as sp

from symbolic.domains import Variable
from symbolic.families import ForAll
from symbolic.proof_tree import Goal, ProofNode
from symbolic.relations import Relation
from symbolic.rules.facts import MAX_GOALS, Context, Fact, fact_from_relation
from symbolic.rules.prover import ProofTrace, prove_relation, prove_traced
from symbolic.rules.registry import Closed, credit, pass_up
from symbolic.rules.sums.normal import Range, elements_at, linear

MAX_TRACE = 240
"""Characters of a termwise subproof kept in the trace."""
MAX_TERMWISE = 8
"""Termwise subgoals one link may put to the prover: a failing prover search on a large
summand costs seconds, and a mutant's link tries every way of writing its constant."""


@dataclass(frozen=True)
class SumHypothesis:
    """``Sum(summand, range) = value``, read from a hypothesis; ``atom``/``per_atom``: when
    the sum has one atom ``a`` with coefficient ``k``, ``Sum(a) = value / k``."""

    text: str
    range: Range
    summand: sp.Expr
    value: sp.Expr
    atom: sp.Expr | None = None
    per_atom: sp.Expr | None = None


@dataclass
class Setup:
    """What the rules may use: plain facts, "for all" hypotheses, sum hypotheses, the
    families' element domains."""

    facts: list[Fact] = field(default_factory=list)
    foralls: list[ForAll] = field(default_factory=list)
    sums: list[SumHypothesis] = field(default_factory=list)
    families: dict[sp.IndexedBase, Variable] = field(default_factory=dict)
    cache: dict[tuple[sp.Expr, Range, bool], ProofTrace | None] = field(default_factory=dict)
    tries: int = 0
    equal: dict[sp.Symbol, sp.Expr] = field(default_factory=dict)
    """Equality hypotheses ``x = e`` (a variable, sum-free), substituted in every link."""
    cited: tuple[str, ...] = ()
    """The rules the link's justification names, tried first on each termwise subgoal."""
    max_goals: int = MAX_GOALS
    """Subgoals of each termwise or scalar proof (fewer on a link already refuted, where
    the rules run only to catch one that claims it)."""

    @classmethod
    def of(cls, hypotheses: Iterable[sp.Basic], variables: Iterable[Variable]) -> Setup:
        out = cls()
        for v in variables:
            if v.family is not None:
                out.families[v.base] = v
            else:
                for c in v.domain.constraints(v.symbol):
                    out.facts += fact_from_relation(c, f"domain of {v.name}")
        for h in hypotheses:
            h = sp.sympify(h)
            if isinstance(h, ForAll):
                out.foralls.append(h)
            elif isinstance(h, sp.Equality) and h.has(sp.Sum):
                read = _sum_hypothesis(h)
                if read is not None:
                    out.sums.append(read)
            elif isinstance(h, sp.Equality) and not h.has(sp.Product, sp.Indexed):
                side, value = (h.lhs, h.rhs) if isinstance(h.lhs, sp.Symbol) else (h.rhs, h.lhs)
                if isinstance(side, sp.Symbol) and side not in out.equal and not value.has(side):
                    out.equal[side] = value
                out.facts += fact_from_relation(h, str(h))
            elif isinstance(h, sp.Rel) and not h.has(sp.Sum, sp.Product, sp.Indexed):
                out.facts += fact_from_relation(h, str(h))
        out.facts = [f for f in out.facts if not _trivial(f)]
        return out

    def context_at(self, g: sp.Expr, r: Range) -> Context:
        """Facts for ``g(i)``, ``i`` in ``r``: the index's range, the elements' domains and
        the "for all" hypotheses at every index expression where ``g`` reads an element
        (each only when its own range covers that expression over ``r``)."""
        i = r.index
        facts = list(self.facts)
        facts += fact_from_relation(sp.GreaterThan(i, r.lower, evaluate=False), "index range")
        facts += fact_from_relation(sp.LessThan(i, r.upper, evaluate=False), "index range")
        at = elements_at(g, i) | {i}
        for e in at:
            for base, v in self.families.items():
                fam = v.family
                assert fam is not None
                if fam.second is None and _covers(fam.lower, fam.upper, e, r):
                    for c in v.domain.constraints(base[e]):
                        facts += fact_from_relation(c, f"domain of {v.name}")
            for h in self.foralls:
                if _covers(h.lower, h.upper, e, r):
                    facts += fact_from_relation(h.at(e), str(h))
        return Context([f for f in facts if not _trivial(f)])

    def termwise(self, g: sp.Expr, r: Range, strict: bool) -> str | None:
        """A proof that ``g(i) >= 0`` (``> 0``) for every ``i`` in ``r``, by the prover's
        rules without its costly last resorts (``cheap``: the derivative and z3 rungs),
        within :data:`MAX_TERMWISE` subgoals a link."""
        key = (g, r, strict)
        if key not in self.cache:
            if self.tries >= MAX_TERMWISE:
                return None
            self.tries += 1
            rel = Relation.GT if strict else Relation.GE
            ctx = self.context_at(g, r)
            found: ProofTrace | None
            if (g.is_positive if strict else g.is_nonnegative) is True:
                leaf = ProofNode("assumptions", Goal(g, strict))
                found = ProofTrace("sign from the assumptions", frozenset({"assumptions"}), (leaf,))
                pass_up(Closed(found.tree))
            else:
                found = prove_traced(
                    g, rel, sp.S.Zero, ctx, cheap=True, cited=self.cited, max_goals=self.max_goals
                )
            self.cache[key] = found
            return None if found is None else found.text
        found = self.cache[key]
        if found is None:
            return None
        pass_up(Closed(found.tree))  # the same proof used again: so are its rules
        return found.text

    def scalar(self, c: sp.Expr, strict: bool) -> str | None:
        """A proof that the sum-free ``c >= 0`` (``> 0``)."""
        if c == 0 and not strict:
            return "0"
        if (c.is_positive if strict else c.is_nonnegative) is True:
            return "sign from the assumptions"
        return prove_relation(
            c,
            Relation.GT if strict else Relation.GE,
            sp.S.Zero,
            Context(self.facts),
            max_goals=self.max_goals,
        )

    def positive_factor(self, a: sp.Expr, r: Range) -> bool:
        return self.termwise(a, r, True) is not None


def _trivial(f: Fact) -> bool:
    return bool(f.expr.is_positive if f.strict else f.expr.is_nonnegative)


def _covers(lower: sp.Expr, upper: sp.Expr, e: sp.Expr, r: Range) -> bool:
    """Whether ``lower <= e(i) <= upper`` for every ``i`` in ``r``, for ``e = i + s``."""
    i = r.index
    if sp.diff(e, i) != 1:
        return False
    first, last = e.xreplace({i: r.lower}), e.xreplace({i: r.upper})
    return bool(
        sp.simplify(first - lower).is_nonnegative and sp.simplify(upper - last).is_nonnegative
    )


def _sum_hypothesis(h: sp.Equality) -> SumHypothesis | None:
    lin = linear(h.lhs - h.rhs)
    if lin is None or len(lin.ranges) != 1:
        return None
    (r,) = lin.ranges
    value = -lin.const
    atom = per_atom = None
    if len(lin.terms) == 1:
        ((_, one), k), *_ = lin.terms.items()
        # Sum(k a) = value gives Sum(a) = value/k only where k != 0: a coefficient that may
        # vanish (c Sum(p[i]) = 0 at c = 0 says nothing of Sum(p[i])) is not divided by,
        # unless the value is nonzero (then so is k wherever the hypothesis holds).
        if nonzero(k) or nonzero(value):
            atom, per_atom = one, value / k
    return SumHypothesis(_show(h), r, lin.summand(r), value, atom, per_atom)


def _show(h: sp.Basic) -> str:
    if isinstance(h, sp.Equality):
        return f"{_text(h.lhs)} = {_text(h.rhs)}"
    return str(h)


def _text(e: sp.Expr) -> str:
    """A sum as a reader writes it: ``Sum p[i]`` for ``Sum(p[i], (i, 1, n))``."""
    if isinstance(e, sp.Sum) and len(e.limits) == 1:
        return f"Sum {e.function}"
    return str(e)


def nonzero(v: sp.Expr) -> bool:
    return bool(v.is_nonzero) or (v.is_number and v != 0)


def termwise_text(g: sp.Expr, r: Range, trace: str) -> str:
    """The termwise proof of ``Sum(g, r) >= 0`` in words (written only for a proof that is
    returned, so the termwise rule is credited here)."""
    credit("termwise")
    short = trace if len(trace) <= MAX_TRACE else trace[: MAX_TRACE - 3] + "..."
    shown = g.xreplace({r.index: _SHOWN_INDEX})
    return f"termwise ({shown} >= 0 for every i in {r}: {plain_index(short)})"


_SHOWN_INDEX = sp.Symbol("i")


def plain_index(text: str) -> str:
    """A subproof's text with the canonical index printed as ``i`` (SymPy prints ``_i``)."""
    return text.replace("[_i]", "[i]").replace("_i ", "i ").replace("_i:", "i:")
