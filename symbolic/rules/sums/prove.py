"""Rules for sums and products of symbolic length (issue 24): a link ``lhs REL rhs`` about
``Sum(f(i), (i, 1, n))`` proved for every ``n`` at once.

The link is read in the normal form of :mod:`.normal` (linearity, constant factors,
index shifts, constant summands, products of exponentials, logs of products), its gap
``big - small`` as ``Sum(g(i), R) + c``, and then:

* **equality**: every merged summand ``g`` is 0 (the equality tactics of
  :mod:`symbolic.tactics`) and so is ``c``; sums named by a **sum hypothesis**
  (``Sum(p[i], (i, 1, n)) = 1``) are replaced by their value first where that is needed;
* **termwise comparison**: ``Sum(g(i)) >= 0`` from ``g(i) >= 0`` for every ``i`` in the
  range, proved by the inequality prover (:mod:`symbolic.rules.prover`) with the index's range
  ``lower <= i <= upper``, the family elements' domains and every "for all" hypothesis
  instantiated at ``i`` as facts;
* a sum-free **constant** ``c`` is first written as a sum: as ``(c/V) Sum(H(i))`` by a sum
  hypothesis ``Sum(H(i)) = V`` with ``V != 0``, or as ``Sum(c/L)`` over a range of positive
  length ``L`` (or it is proved ``>= 0`` on its own);
* **termwise products**: ``Product(a_i) <= Product(b_i)`` from ``0 <= a_i <= b_i`` for every
  ``i`` (equal factors for an equality).

What the rules may use is read once per link (:mod:`.setup`); products are compared in
:mod:`.products`.  Each is an identity or an implication of finite sums and products
valid for every length; ``tests/test_sums_rules.py`` checks them by a soundness property
(random lengths and values, instances written out).  A link none of them proves is not
proved here; it is never called false.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import sympy as sp

from symbolic.domains import Variable
from symbolic.errors import SYMPY_FAILURES
from symbolic.relations import Relation
from symbolic.rules.facts import Context
from symbolic.rules.prover import prove_relation
from symbolic.rules.registry import attempt, credit
from symbolic.rules.sums.elements import at_fixed_indices, peel_first, substitute_equalities
from symbolic.rules.sums.factors import split_common_factor
from symbolic.rules.sums.normal import (
    Linear,
    Range,
    finite_integer,
    linear,
    merge_quotient,
)
from symbolic.rules.sums.normal import rewrite_products as _rewrite_products
from symbolic.rules.sums.products import by_products
from symbolic.rules.sums.setup import Setup, nonzero, termwise_text
from symbolic.tactics import prove_zero

__all__ = ["has_family_sums", "prove_sums"]


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


def prove_sums(
    lhs: sp.Expr,
    rel: Relation,
    rhs: sp.Expr,
    *,
    hypotheses: Sequence[sp.Basic],
    variables: Sequence[Variable],
    cited: Sequence[str] = (),
    max_goals: int | None = None,
) -> str | None:
    """A trace naming the sum rules that prove ``lhs rel rhs`` for every length, or None.

    ``hypotheses``: the derivation's, definitions expanded (ForAll objects, equalities of
    sums, plain relations); ``variables``: its variables, families and lengths included.
    ``cited``: the rules the link's justification names; each termwise subproof tries them
    first (see :func:`symbolic.rules.prover.prove_relation`), as the prover does on a
    sum-free link: kl-bound's termwise sign case split was found only after the whole
    search of the other rules had failed (2 s of its 2.4 s).  ``max_goals``: subgoals of
    each termwise proof (default: the prover's)."""
    try:
        setup = Setup.of(hypotheses, variables)
        setup.cited = tuple(cited)
        if max_goals is not None:
            setup.max_goals = max_goals
        return _prove(sp.sympify(lhs), rel, sp.sympify(rhs), setup)
    except SYMPY_FAILURES:
        return None  # a crash proves nothing


def _prove(lhs: sp.Expr, rel: Relation, rhs: sp.Expr, setup: Setup, depth: int = 0) -> str | None:
    used: set[str] = set()
    if setup.equal:
        written = lhs, rhs
        lhs, rhs = lhs.xreplace(setup.equal), rhs.xreplace(setup.equal)
        if (lhs, rhs) != written:
            used.add("equality hypotheses substituted")
    lhs, rhs = (merge_quotient(x, setup.positive_factor, used) for x in (lhs, rhs))
    trace = attempt(None, by_products, lhs, rel, rhs, setup)
    if trace is None:
        lhs = _rewrite_products(lhs, setup.positive_factor, used)
        rhs = _rewrite_products(rhs, setup.positive_factor, used)
        if rel is Relation.EQ:
            trace = attempt(None, _congruent, lhs, rhs, setup) or attempt(
                None, _equal, lhs - rhs, setup
            )
        else:
            small, big = (lhs, rhs) if rel.direction == 1 else (rhs, lhs)
            trace = attempt(None, _exp_monotone, small, big, rel, setup) or attempt(
                None, _compare, big - small, rel.strict, setup
            )
        if (
            trace is None
            and used
            and not (lhs.has(sp.Sum, sp.Product) or rhs.has(sp.Sum, sp.Product))
        ):
            trace = attempt(None, _sum_free, lhs, rel, rhs, setup)
    if trace is None and depth < MAX_REWRITES:
        trace = attempt(None, _common_factor, lhs, rel, rhs, setup, depth) or attempt(
            None, _by_elements, lhs, rel, rhs, setup, depth
        )
    if trace is None:
        return None
    return "; ".join([*sorted(used), trace])


MAX_REWRITES = 4
"""Rewrites of a link (a factor struck, a term peeled, equalities substituted) before the
rules give up on it: each makes the link smaller, this bounds the search anyway."""


def _common_factor(
    lhs: sp.Expr, rel: Relation, rhs: sp.Expr, setup: Setup, depth: int
) -> str | None:
    """``c X REL c Y`` from ``X REL Y`` for a shared factor ``c > 0`` (:mod:`.factors`)."""
    split = split_common_factor(lhs, rhs, setup)
    if split is None:
        return None
    c, x, y = split
    inner = _prove(x, rel, y, setup, depth + 1)
    return None if inner is None else f"common positive factor {c} struck, {inner}"


def _identical(lhs: sp.Expr, rhs: sp.Expr, rel: Relation) -> str | None:
    """The two sides of a rewritten link are the same expression (and ``rel`` admits it)."""
    return "identical" if not rel.strict and lhs == rhs else None


def _by_elements(lhs: sp.Expr, rel: Relation, rhs: sp.Expr, setup: Setup, depth: int) -> str | None:
    """A first term peeled off, "for all" equalities substituted inside sums and products,
    or elements at fixed indices with the hypotheses there (:mod:`.elements`)."""
    peeled = peel_first(lhs, rhs, setup)
    if peeled is not None:
        inner = _identical(*peeled, rel) or _prove(peeled[0], rel, peeled[1], setup, depth + 1)
        return None if inner is None else f"first term peeled off, {inner}"
    new = substitute_equalities(lhs, setup), substitute_equalities(rhs, setup)
    if new != (lhs, rhs):
        inner = _identical(*new, rel) or _prove(new[0], rel, new[1], setup, depth + 1)
        return None if inner is None else f"'for all' equalities inside the sums, {inner}"
    return at_fixed_indices(lhs, rel, rhs, setup)


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
            credit(*form.rules)
            return ", ".join([*sorted(lin.used), *form.how, trace])
    return None


@dataclass(frozen=True)
class Form:
    """One reading of a gap: ``Sum(summand(r), r)`` over ``ranges``, plus ``const``."""

    ranges: list[Range]
    summand: Callable[[Range], sp.Expr]
    const: sp.Expr
    how: list[str]
    rules: tuple[str, ...] = ()
    """The rule ids of ``how`` (see :mod:`symbolic.rules.registry`)."""


def _forms(lin: Linear, setup: Setup) -> Iterator[Form]:
    """The readings of ``lin``: the summands as written; atom by atom (constant summands
    summed); and atom by atom with the sums a hypothesis names replaced by their values."""
    yield Form(lin.raw_ranges, lin.raw_summand, lin.outside, ["linearity"], ("linearity",))
    atoms = ["linearity", *(["constant summand"] if lin.constant_summands else [])]
    if lin.constant_summands:
        yield Form(lin.ranges, lin.summand, lin.const, atoms, tuple(atoms))
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
        yield Form(sub.ranges, sub.summand, const, [*atoms, *how], (*atoms, "sum hypothesis"))


def _one_range(g: sp.Expr, c: sp.Expr, r: Range, strict: bool, setup: Setup) -> str | None:
    """``Sum(g, r) + c >= 0`` (``> 0``)."""
    c = sp.expand(c) if c.has(sp.Sum) is False and sp.count_ops(c) < 60 else c
    if c == 0:
        if strict:
            return _strict_sum(g, r, setup)
        t = setup.termwise(g, r, False)
        if t is not None:
            return termwise_text(g, r, t)
        return _plus_zero(g, r, setup)
    # The constant written as a sum by a sum hypothesis, then as a sum of c/L.
    # A strict sum of positive terms needs a nonempty range (an empty sum is 0).
    nonempty = setup.scalar(r.length - 1, False) is not None
    for h in setup.sums:
        if h.range != r or not nonzero(h.value) or (strict and not nonempty):
            continue
        g2 = g + c / h.value * h.summand
        t = setup.termwise(g2, r, strict)
        if t is not None:
            times = f"{c}" if h.value == 1 else f"({c})/({h.value})"
            credit("sum hypothesis")
            return (
                f"sum hypothesis {h.text} (the constant {c} written as {times} times that "
                f"sum), {termwise_text(g2, r, t)}"
            )
    if nonempty:
        g2 = g + c / r.length
        t = setup.termwise(g2, r, strict)
        if t is not None:
            return f"constant {c} as a sum of {c / r.length}, {termwise_text(g2, r, t)}"
    t = setup.termwise(g, r, False)
    if t is not None:
        s = setup.scalar(c, strict)
        if s is not None:
            return (
                f"{termwise_text(g, r, t)}, and the constant {c} {'>' if strict else '>='} 0 ({s})"
            )
    return None


def _plus_zero(g: sp.Expr, r: Range, setup: Setup) -> str | None:
    """``Sum(g) >= 0`` as ``Sum(g +- (H_a/V_a - H_b/V_b)) >= 0``: two sum hypotheses
    ``Sum H_a = V_a``, ``Sum H_b = V_b`` (nonzero values) make that sum 1 - 1 = 0.  This is
    Gibbs' inequality's step: ``Sum q ln(q/p) = Sum (q ln(q/p) + p - q)`` as both sum to 1."""
    sums = [h for h in setup.sums if h.range == r and nonzero(h.value)]
    for a, b in itertools.combinations(sums, 2):
        zero = a.summand / a.value - b.summand / b.value
        for sign, shown in ((1, f"{a.text} minus {b.text}"), (-1, f"{b.text} minus {a.text}")):
            g2 = g + sign * zero
            t = setup.termwise(g2, r, False)
            if t is not None:
                return (
                    f"sum hypotheses {shown} (their normalised difference sums to 0, added), "
                    f"{termwise_text(g2, r, t)}"
                )
    return None


def _strict_sum(g: sp.Expr, r: Range, setup: Setup) -> str | None:
    """``Sum(g, r) > 0``: every term positive over a nonempty range."""
    if setup.scalar(r.length - 1, False) is None:
        return None
    t = setup.termwise(g, r, True)
    return None if t is None else f"{termwise_text(g, r, t)} over a nonempty range"


def _ranges_apart(form: Form, strict: bool, setup: Setup) -> str | None:
    """Sums over different ranges: each termwise nonnegative, and the constant."""
    parts = []
    for r in form.ranges:
        g = form.summand(r)
        t = setup.termwise(g, r, False)
        if t is None:
            return None
        parts.append(termwise_text(g, r, t))
    s = setup.scalar(form.const, strict)
    if s is None:
        return None
    return ", ".join([*parts, f"the constant {form.const} ({s})"])


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
