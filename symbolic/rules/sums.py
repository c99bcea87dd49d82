"""Rules for sums and products of symbolic length (issue 24): a link ``lhs REL rhs`` about
``Sum(f(i), (i, 1, n))`` proved for every ``n`` at once.

The link is read in the normal form of :mod:`.sums_normal` (linearity, constant factors,
index shifts, constant summands, products of exponentials, logs of products), its gap
``big - small`` as ``Sum(g(i), R) + c``, and then:

* **equality**: every merged summand ``g`` is 0 (the equality tactics of
  :mod:`symbolic.tactics`) and so is ``c``; sums named by a **sum hypothesis**
  (``Sum(p[i], (i, 1, n)) = 1``) are replaced by their value first where that is needed;
* **termwise comparison**: ``Sum(g(i)) >= 0`` from ``g(i) >= 0`` for every ``i`` in the
  range, proved by the inequality prover (:mod:`.prover`) with the index's range
  ``lower <= i <= upper``, the family elements' domains and every "for all" hypothesis
  instantiated at ``i`` as facts;
* a sum-free **constant** ``c`` is first written as a sum: as ``(c/V) Sum(H(i))`` by a sum
  hypothesis ``Sum(H(i)) = V`` with ``V != 0``, or as ``Sum(c/L)`` over a range of positive
  length ``L`` (or it is proved ``>= 0`` on its own);
* **termwise products**: ``Product(a_i) <= Product(b_i)`` from ``0 <= a_i <= b_i`` for every
  ``i`` (equal factors for an equality).

Each is an identity or an implication of finite sums and products valid for every length;
``tests/test_sums_rules.py`` checks them by a soundness property (random lengths and values,
instances written out).  A link none of them proves is not proved here; it is never called
false.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import sympy as sp

from symbolic.domains import Variable
from symbolic.families import ForAll
from symbolic.relations import Relation
from symbolic.rules.facts import Context, Fact, fact_from_relation
from symbolic.rules.prover import prove_relation
from symbolic.rules.sums_normal import (
    Linear,
    Range,
    canonical,
    elements_at,
    finite_integer,
    linear,
    merge_quotient,
)
from symbolic.rules.sums_normal import rewrite_products as _rewrite_products
from symbolic.tactics import prove_zero

__all__ = ["has_family_sums", "prove_sums"]

MAX_TRACE = 240
"""Characters of a termwise subproof kept in the trace."""
MAX_TERMWISE = 8
"""Termwise subgoals one link may put to the prover: a failing prover search on a large
summand costs seconds, and a mutant's link tries every way of writing its constant."""


def has_family_sums(*exprs: sp.Basic) -> bool:
    """Whether the rules here apply: a Sum or Product whose range is symbolic, or a family
    element ``p[i]``."""
    for e in exprs:
        e = sp.sympify(e)
        if e.has(sp.Indexed):
            return True
        for s in e.atoms(sp.Sum, sp.Product):
            ends = [x for _, lo, hi in s.limits for x in (lo, hi)]
            if all(finite_integer(x) for x in ends) and not all(x.is_Integer for x in ends):
                return True
    return False


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
    cache: dict[tuple[sp.Expr, Range, bool], str | None] = field(default_factory=dict)
    tries: int = 0
    equal: dict[sp.Symbol, sp.Expr] = field(default_factory=dict)
    """Equality hypotheses ``x = e`` (a variable, sum-free), substituted in every link."""

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
            trace: str | None
            if (g.is_positive if strict else g.is_nonnegative) is True:
                trace = "sign from the assumptions"
            else:
                trace = prove_relation(g, rel, sp.S.Zero, ctx, cheap=True)
            self.cache[key] = trace
        return self.cache[key]

    def scalar(self, c: sp.Expr, strict: bool) -> str | None:
        """A proof that the sum-free ``c >= 0`` (``> 0``)."""
        if c == 0 and not strict:
            return "0"
        if (c.is_positive if strict else c.is_nonnegative) is True:
            return "sign from the assumptions"
        return prove_relation(
            c, Relation.GT if strict else Relation.GE, sp.S.Zero, Context(self.facts)
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
        ((_, atom), k), *_ = lin.terms.items()
        per_atom = value / k
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


def prove_sums(
    lhs: sp.Expr,
    rel: Relation,
    rhs: sp.Expr,
    *,
    hypotheses: Sequence[sp.Basic],
    variables: Sequence[Variable],
) -> str | None:
    """A trace naming the sum rules that prove ``lhs rel rhs`` for every length, or None.

    ``hypotheses``: the derivation's, definitions expanded (ForAll objects, equalities of
    sums, plain relations); ``variables``: its variables, families and lengths included."""
    try:
        return _prove(sp.sympify(lhs), rel, sp.sympify(rhs), Setup.of(hypotheses, variables))
    except (TypeError, ValueError, AttributeError, NotImplementedError, RecursionError):
        return None  # a crash proves nothing


def _prove(lhs: sp.Expr, rel: Relation, rhs: sp.Expr, setup: Setup) -> str | None:
    used: set[str] = set()
    if setup.equal:
        written = lhs, rhs
        lhs, rhs = lhs.xreplace(setup.equal), rhs.xreplace(setup.equal)
        if (lhs, rhs) != written:
            used.add("equality hypotheses substituted")
    lhs, rhs = (merge_quotient(x, setup.positive_factor, used) for x in (lhs, rhs))
    trace = _by_products(lhs, rel, rhs, setup)
    if trace is None:
        lhs = _rewrite_products(lhs, setup.positive_factor, used)
        rhs = _rewrite_products(rhs, setup.positive_factor, used)
        if rel is Relation.EQ:
            trace = _congruent(lhs, rhs, setup) or _equal(lhs - rhs, setup)
        else:
            small, big = (lhs, rhs) if rel.direction == 1 else (rhs, lhs)
            trace = _exp_monotone(small, big, rel, setup) or _compare(
                big - small, rel.strict, setup
            )
        if (
            trace is None
            and used
            and not (lhs.has(sp.Sum, sp.Product) or rhs.has(sp.Sum, sp.Product))
        ):
            trace = _sum_free(lhs, rel, rhs, setup)
    if trace is None:
        return None
    return "; ".join([*sorted(used), trace])


def _sum_free(lhs: sp.Expr, rel: Relation, rhs: sp.Expr, setup: Setup) -> str | None:
    """A link the rewrites left without sums or products (``Product(c) = c**k``): the
    equality tactics, or the prover with the plain facts."""
    if rel is Relation.EQ:
        tactic = prove_zero(lhs - rhs)
        return None if tactic is None else f"tactic {tactic}"
    return prove_relation(lhs, rel, rhs, Context(setup.facts), cheap=True)


def _equal(d: sp.Expr, setup: Setup) -> str | None:
    lin = linear(d)
    if lin is None or not lin.raw:
        return None
    for form in _forms(lin, setup):
        if form.const != 0 and prove_zero(form.const) is None:
            continue
        parts = []
        for r in form.ranges:
            g = form.summand(r)
            tactic = "identical" if g == 0 else prove_zero(g)
            if tactic is None:
                break
            parts.append(f"equal summands over {r} ({tactic})")
        else:
            return ", ".join([*sorted(lin.used), *form.how, *parts])
    return None


def _compare(d: sp.Expr, strict: bool, setup: Setup) -> str | None:
    """``d >= 0`` (``> 0``), ``d`` read as sums plus a constant."""
    lin = linear(d)
    if lin is None or not lin.raw:
        return None
    for k, form in enumerate(_forms(lin, setup)):
        if k and form.ranges and len(form.ranges) >= len(lin.raw_ranges):
            # Atom by atom with sums left over the same ranges: the ways of writing the
            # constant as a sum already covered it (a hypothesis' sum is one of them).
            continue
        if not form.ranges:
            s = setup.scalar(form.const, strict)
            trace = None if s is None else f"the constant {form.const} ({s})"
        elif len(form.ranges) == 1:
            r = form.ranges[0]
            trace = _one_range(form.summand(r), form.const, r, strict, setup)
        else:
            trace = _ranges_apart(form, strict, setup)
        if trace is not None:
            return ", ".join([*sorted(lin.used), *form.how, trace])
    return None


@dataclass(frozen=True)
class Form:
    """One reading of a gap: ``Sum(summand(r), r)`` over ``ranges``, plus ``const``."""

    ranges: list[Range]
    summand: Callable[[Range], sp.Expr]
    const: sp.Expr
    how: list[str]


def _forms(lin: Linear, setup: Setup) -> Iterator[Form]:
    """The readings of ``lin``: the summands as written; atom by atom (constant summands
    summed); and atom by atom with the sums a hypothesis names replaced by their values."""
    yield Form(lin.raw_ranges, lin.raw_summand, lin.outside, ["linearity"])
    atoms = ["linearity", *(["constant summand"] if lin.constant_summands else [])]
    if lin.constant_summands:
        yield Form(lin.ranges, lin.summand, lin.const, atoms)
    terms = dict(lin.terms)
    const = lin.const
    how = []
    for h in setup.sums:
        if h.atom is None or h.per_atom is None:
            continue
        key = (h.range, h.atom)
        if key in terms:
            const += terms.pop(key) * h.per_atom
            how.append(f"sum hypothesis {h.text}")
    if how:
        sub = Linear(terms=terms, const=const)
        yield Form(sub.ranges, sub.summand, const, [*atoms, *how])


def _one_range(g: sp.Expr, c: sp.Expr, r: Range, strict: bool, setup: Setup) -> str | None:
    """``Sum(g, r) + c >= 0`` (``> 0``)."""
    c = sp.expand(c) if c.has(sp.Sum) is False and sp.count_ops(c) < 60 else c
    if c == 0:
        if strict:
            return _strict_sum(g, r, setup)
        t = setup.termwise(g, r, False)
        if t is not None:
            return _termwise_text(g, r, t)
        return _plus_zero(g, r, setup)
    # The constant written as a sum by a sum hypothesis, then as a sum of c/L.
    for h in setup.sums:
        if h.range != r or not _nonzero(h.value):
            continue
        g2 = g + c / h.value * h.summand
        t = setup.termwise(g2, r, strict)
        if t is not None:
            times = f"{c}" if h.value == 1 else f"({c})/({h.value})"
            return (
                f"sum hypothesis {h.text} (the constant {c} written as {times} times that "
                f"sum), {_termwise_text(g2, r, t)}"
            )
    if setup.scalar(r.length - 1, False) is not None:
        g2 = g + c / r.length
        t = setup.termwise(g2, r, strict)
        if t is not None:
            return f"constant {c} as a sum of {c / r.length}, {_termwise_text(g2, r, t)}"
    t = setup.termwise(g, r, False)
    if t is not None:
        s = setup.scalar(c, strict)
        if s is not None:
            return (
                f"{_termwise_text(g, r, t)}, and the constant {c} {'>' if strict else '>='} 0 ({s})"
            )
    return None


def _plus_zero(g: sp.Expr, r: Range, setup: Setup) -> str | None:
    """``Sum(g) >= 0`` as ``Sum(g +- (H_a/V_a - H_b/V_b)) >= 0``: two sum hypotheses
    ``Sum H_a = V_a``, ``Sum H_b = V_b`` (nonzero values) make that sum 1 - 1 = 0.  This is
    Gibbs' inequality's step: ``Sum q ln(q/p) = Sum (q ln(q/p) + p - q)`` as both sum to 1."""
    sums = [h for h in setup.sums if h.range == r and _nonzero(h.value)]
    for a, b in itertools.combinations(sums, 2):
        zero = a.summand / a.value - b.summand / b.value
        for sign, shown in ((1, f"{a.text} minus {b.text}"), (-1, f"{b.text} minus {a.text}")):
            g2 = g + sign * zero
            t = setup.termwise(g2, r, False)
            if t is not None:
                return (
                    f"sum hypotheses {shown} (their normalised difference sums to 0, added), "
                    f"{_termwise_text(g2, r, t)}"
                )
    return None


def _strict_sum(g: sp.Expr, r: Range, setup: Setup) -> str | None:
    """``Sum(g, r) > 0``: every term positive over a nonempty range."""
    if setup.scalar(r.length - 1, False) is None:
        return None
    t = setup.termwise(g, r, True)
    return None if t is None else f"{_termwise_text(g, r, t)} over a nonempty range"


def _ranges_apart(form: Form, strict: bool, setup: Setup) -> str | None:
    """Sums over different ranges: each termwise nonnegative, and the constant."""
    parts = []
    for r in form.ranges:
        g = form.summand(r)
        t = setup.termwise(g, r, False)
        if t is None:
            return None
        parts.append(_termwise_text(g, r, t))
    s = setup.scalar(form.const, strict)
    if s is None:
        return None
    return ", ".join([*parts, f"the constant {form.const} ({s})"])


def _nonzero(v: sp.Expr) -> bool:
    return bool(v.is_nonzero) or (v.is_number and v != 0)


def _termwise_text(g: sp.Expr, r: Range, trace: str) -> str:
    short = trace if len(trace) <= MAX_TRACE else trace[: MAX_TRACE - 3] + "..."
    shown = g.xreplace({r.index: _SHOWN_INDEX})
    return f"termwise ({shown} >= 0 for every i in {r}: {_plain_index(short)})"


_SHOWN_INDEX = sp.Symbol("i")


def _plain_index(text: str) -> str:
    """A subproof's text with the canonical index printed as ``i`` (SymPy prints ``_i``)."""
    return text.replace("[_i]", "[i]").replace("_i ", "i ").replace("_i:", "i:")


def _by_products(lhs: sp.Expr, rel: Relation, rhs: sp.Expr, setup: Setup) -> str | None:
    """Both sides products over one range (an ``exp`` of a sum read as the product of the
    exponentials, a power ``c**L`` or ``exp(L x)`` against a product of length ``L`` as
    that many equal factors), compared factor by factor."""
    read = _as_product(lhs), _as_product(rhs)
    read = _equal_factors(read[0], read[1], setup), _equal_factors(read[1], read[0], setup)
    if rel is Relation.EQ:
        trace = _products(read[0], read[1], None, setup)
    else:
        small, big = read if rel.direction == 1 else read[::-1]
        trace = _products(small, big, rel.strict, setup)
    if trace is None:
        return None
    if read != (lhs, rhs):
        trace = f"product of exponentials or of equal factors, {trace}"
    return _plain_index(trace)


def _equal_factors(e: sp.Expr, other: sp.Expr, setup: Setup) -> sp.Expr:
    """``c**L`` or ``exp(x)`` as ``Product(c)``, ``Product(exp(x/L))`` over the range of
    ``other`` (a product of length ``L >= 1``), when ``c`` does not depend on the index."""
    if isinstance(e, sp.Product) or not isinstance(other, sp.Product):
        return e
    read = canonical(other)
    if read is None or setup.scalar(read[0].length - 1, False) is None:
        return e
    r = read[0]
    limits = (r.index, r.lower, r.upper)
    if isinstance(e, sp.Pow) and sp.simplify(e.exp - r.length) == 0:
        return sp.Product(e.base, limits)
    if isinstance(e, sp.exp):
        return sp.Product(sp.exp(sp.expand(e.args[0] / r.length)), limits)
    return e


def _as_product(e: sp.Expr) -> sp.Expr:
    """``exp(Sum(f, R))`` as ``Product(exp(f), R)`` (the same finite product)."""
    if isinstance(e, sp.exp) and isinstance(e.args[0], sp.Sum):
        read = canonical(e.args[0])
        if read is not None:
            r, body, _ = read
            return sp.Product(sp.exp(body), (r.index, r.lower, r.upper))
    return e


def _products(small: sp.Expr, big: sp.Expr, strict: bool | None, setup: Setup) -> str | None:
    """``Product(a) <= Product(b)`` (``strict`` None: ``=``) over one range, factor by
    factor: ``0 <= a_i <= b_i`` (``a_i = b_i``) for every ``i``."""
    if not (isinstance(small, sp.Product) and isinstance(big, sp.Product)):
        return None
    a, b = canonical(small), canonical(big)
    if a is None or b is None or a[0] != b[0] or strict:
        return None
    r = a[0]
    if strict is None:
        tactic = prove_zero(a[1] - b[1])
        return None if tactic is None else f"equal factors over {r} ({tactic})"
    low = setup.termwise(a[1], r, False)
    gap = setup.termwise(b[1] - a[1], r, False)
    if low is None or gap is None:
        return None
    return (
        f"termwise product of nonnegative factors ({a[1]} >= 0: {low}; "
        f"{a[1]} <= {b[1]}: {gap}, for every {r.index} in {r})"
    )


def _congruent(lhs: sp.Expr, rhs: sp.Expr, setup: Setup) -> str | None:
    """``f(A) = f(B)`` from ``A = B`` for one function ``f`` (``exp(Sum e_i) = exp(c)``)."""
    if not (isinstance(lhs, sp.Function) and lhs.func == rhs.func and len(lhs.args) == 1):
        return None
    (a,), (b,) = lhs.args, rhs.args
    inner = _equal(a - b, setup)
    return None if inner is None else f"equal arguments of {lhs.func}, {inner}"


def _exp_monotone(small: sp.Expr, big: sp.Expr, rel: Relation, setup: Setup) -> str | None:
    """``exp(A) <= exp(B)`` from ``A <= B`` (exp is increasing), when A or B holds a sum."""
    if isinstance(small, sp.exp) and isinstance(big, sp.exp):
        inner = _compare(big.args[0] - small.args[0], rel.strict, setup)
        return None if inner is None else f"exp is increasing, {inner}"
    return None
