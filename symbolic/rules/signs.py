"""Rules that reason by the sign of a difference.

* **sign case split**: a goal containing ``|d|``, ``max(x, y)`` or ``min(x, y)`` (with
  ``d = x - y``) whose sign no fact gives is proved in both cases ``d >= 0`` and ``d <= 0``:
  in each case the absolute values and extrema are resolved (``|d| = d``, ``max(x, y) = x``,
  ...) and the case itself becomes a fact.  Up to :data:`MAX_SPLITS` differences are split at
  once (every sign pattern is a case).  This is how Dwork & Roth 2014, Lemma 3.18 bounds
  ``(q - p) ln(q/p) <= |q - p| eps`` and ``max(p, q) - min(p, q) <= (e^eps - 1) min(p, q)``:
  each case uses the max-divergence hypothesis that applies to it.
* **signed factors**: a sum whose terms share factors ``d`` of known sign is
  ``sum_d d * C_d + rest``; each ``d * C_d`` is nonnegative when ``C_d`` has the sign of
  ``d`` (a product of two factors of the same sign), and ``rest`` is shown ``>= 0`` or ``0``.
  In a case ``p >= q`` of a split, ``(p - q) (eps - ln(p/q))`` is such a product.
* **sum of hypotheses**: ``g`` is, term by term, a sum of positive multiples of facts plus a
  remainder of known sign (facts are added as they stand; nothing is multiplied by a
  variable).
"""

from __future__ import annotations

import functools
import itertools
from typing import TYPE_CHECKING

import sympy as sp

from symbolic.rules.facts import SIGN_MAX_OPS, Context, Fact, ops
from symbolic.tactics import prove_zero

if TYPE_CHECKING:
    from symbolic.rules.prover import Prover

MAX_SPLITS = 4  # 2^4 = 16 cases: more would exhaust any reasonable budget
SPLIT_MAX_DEPTH = 2  # case splits only this close to the root of a proof
MAX_FACT_TERMS = 6  # at most this many facts summed in one proof
MAX_COVER_NODES = 200  # nodes of the search for a sum of facts


def sign_split(prover: Prover, g: sp.Expr, strict: bool, depth: int) -> list[str] | None:
    """``g >= 0`` in every sign case of the differences inside its Abs, Max and Min."""
    if depth > SPLIT_MAX_DEPTH or not g.has(sp.Abs, sp.Max, sp.Min):
        return None
    diffs = split_candidates(prover, g)
    if not diffs:
        return None
    diffs = diffs[:MAX_SPLITS]
    cases = []
    for signs in itertools.product((1, -1), repeat=len(diffs)):
        resolved = resolve(g, diffs, signs)
        if resolved.has(sp.Abs, sp.Max, sp.Min) and resolved == g:
            return None  # nothing resolved: splitting would loop
        facts = [
            Fact(s * d, False, f"case {d} {'>=' if s > 0 else '<='} 0")
            for d, s in zip(diffs, signs, strict=True)
        ]
        # A fresh prover: its memo of subgoals is valid only under this case's facts.
        child = type(prover)(Context([*prover.ctx.facts, *facts]), prover.max_goals)
        child.in_case = True
        trace = child.nonneg(resolved, strict, depth + 1)
        if trace is None:
            return None
        cases.append(trace)
    shown = ", ".join(str(d) for d in diffs)
    return [f"sign case split on {shown} ({len(cases)} cases)", *cases[0]]


def split_candidates(prover: Prover, g: sp.Expr) -> list[sp.Expr]:
    """The differences ``d`` (one of ``d``, ``-d``) inside Abs, Max and Min of ``g`` whose
    sign is not known from the facts, in a deterministic order."""
    out: list[sp.Expr] = []
    atoms = sorted(_unbound_atoms(g), key=sp.default_sort_key)
    for a in atoms:
        if isinstance(a, sp.Abs):
            d = a.args[0]
        elif len(a.args) == 2:
            d = a.args[0] - a.args[1]
        else:
            continue  # a Max of three would need three-way cases
        d = canonical(sp.expand(d))
        if d == 0 or any(sp.expand(d - e) == 0 for e in out):
            continue
        if prover.known_sign(d, False) or prover.known_sign(-d, False):
            continue  # no split needed: other rules resolve it
        out.append(d)
    return out


def canonical(d: sp.Expr) -> sp.Expr:
    """One of ``d`` and ``-d``, the same for both."""
    return -d if d.could_extract_minus_sign() else d


def resolve(g: sp.Expr, diffs: list[sp.Expr], signs: tuple[int, ...]) -> sp.Expr:
    """``g`` with each Abs, Max, Min over a split difference replaced by the argument it
    equals in the case ``s * d >= 0`` (``|d| = s d``; ``max(x, y) = x`` iff ``x - y >= 0``)."""
    replace: dict[sp.Expr, sp.Expr] = {}
    for a in g.atoms(sp.Abs, sp.Max, sp.Min):
        arg = a.args[0] if isinstance(a, sp.Abs) else a.args[0] - a.args[1]
        if not isinstance(a, sp.Abs) and len(a.args) != 2:
            continue
        for d, s in zip(diffs, signs, strict=True):
            # arg = c d with c = +-1, and the case is s d >= 0: arg has the sign c s.
            if sp.expand(arg - d) == 0:
                c = 1
            elif sp.expand(arg + d) == 0:
                c = -1
            else:
                continue
            if isinstance(a, sp.Abs):
                replace[a] = c * s * arg
            else:
                x, y = a.args
                bigger, smaller = (x, y) if c * s > 0 else (y, x)
                replace[a] = bigger if isinstance(a, sp.Max) else smaller
            break
    return g.xreplace(replace)


def signed_factors(prover: Prover, g: sp.Expr, strict: bool, depth: int) -> list[str] | None:
    """``sum_d d C_d + rest >= 0`` from ``d C_d >= 0`` (``C_d`` of the known sign of ``d``)
    and ``rest >= 0``."""
    if strict or not isinstance(g, sp.Add):
        return None
    groups: dict[sp.Expr, list[sp.Expr]] = {}
    rest: list[sp.Expr] = []
    signs: dict[sp.Expr, int] = {}
    for t in g.args:
        key, cofactor = _signed_factor(prover, t, signs)
        if key is None:
            rest.append(t)
        else:
            groups.setdefault(key, []).append(cofactor)
    if not groups:
        return None
    trace = []
    # Dropping factors whose cofactor is 0 and recursing on the rest would re-run every
    # rule on a goal of nearly the same size: the rule applies only to real products.
    nonzero = {d: c for d, c in groups.items() if not is_zero(prover, sp.Add(*c))}
    if not nonzero:
        return None
    for d, cofactors in nonzero.items():
        s = signs[d]
        c = s * sp.Add(*cofactors)
        sub = prover.nonneg(c, False, depth + 1)
        if sub is None:
            return None
        trace.append(f"[{s * d} >= 0 and {c} >= 0: {' -> '.join(sub)}]")
    left = rest_nonnegative(prover, rest, depth)
    if left is None:
        return None
    trace += left
    return ["products of factors of the same sign: " + " ".join(trace)]


def _signed_factor(
    prover: Prover, t: sp.Expr, signs: dict[sp.Expr, int]
) -> tuple[sp.Expr | None, sp.Expr]:
    """The first sum factor ``d`` of the term ``t`` with a known sign (as its canonical
    representative, its sign recorded in ``signs``) and the cofactor ``t / d``."""
    for f in sp.Mul.make_args(t):
        # Small sums only (differences such as p - q): sign queries on large ones are slow
        # and would not succeed.
        if not isinstance(f, sp.Add) or ops(f) > SIGN_MAX_OPS // 4:
            continue
        d = canonical(f)
        flip = 1 if d == f else -1
        if d not in signs:
            if prover.known_sign(d, False):
                signs[d] = 1
            elif prover.known_sign(-d, False):
                signs[d] = -1
            else:
                continue
        others = list(sp.Mul.make_args(t))
        others.remove(f)
        return d, flip * sp.Mul(*others)
    return None, t


def rest_nonnegative(prover: Prover, rest: list[sp.Expr], depth: int) -> list[str] | None:
    """The terms a rule left over, shown ``>= 0`` as a subgoal unless their sum is 0: no
    trace, its trace (``[rest: ...]``), or None when not shown."""
    remainder = sp.Add(*rest)
    if remainder == 0 or is_zero(prover, remainder):
        return []
    sub = prover.nonneg(remainder, False, depth + 1)
    return None if sub is None else [f"[rest: {' -> '.join(sub)}]"]


def is_zero(prover: Prover, e: sp.Expr) -> bool:
    """``e == 0`` by the equality tactics, with the sums that strict facts show positive
    read as positive symbols (so that ``log(u/v) + log(v/u)`` cancels)."""
    return _zero(e, positive_sums(prover.ctx))


@functools.lru_cache(maxsize=4096)
def _zero(e: sp.Expr, positive: tuple[sp.Expr, ...]) -> bool:
    """:func:`is_zero`, memoised for every prover: a case split's provers share the strict
    facts, and asked the same questions in each case (kl-bound's split, 1.5 s of it)."""
    return prove_zero(e, cheap=True, positive=positive) is not None


def positive_sums(ctx: Context) -> tuple[sp.Expr, ...]:
    """The sums a strict fact ``e > 0`` states positive (e.g. ``1 - p1 - p2`` for p3)."""
    return tuple(f.expr for f in ctx.facts if f.strict and isinstance(f.expr, sp.Add))


def fact_sum(prover: Prover, g: sp.Expr, strict: bool, depth: int) -> list[str] | None:
    """``g = sum_j c_j h_j + r`` with facts ``h_j >= 0``, numbers ``c_j > 0`` and ``r`` of
    known sign, matched term by term on the expanded forms."""
    target = prover.expanded(g)
    if not isinstance(target, sp.Add):
        return None
    # Not only facts about g's own variables: the facts of the other outcomes may be
    # needed to cancel what a fact about a solved variable (p3 = 1 - p1 - p2) brings in.
    usable = [(f, e) for f in prover.ctx.facts if isinstance(e := prover.expanded(f.expr), sp.Add)]
    found = _cover(prover, target.as_coefficients_dict(), usable, [], strict)
    if found is None:
        return None
    return ["sum of hypotheses: " + " + ".join(f.origin for f in found)]


def _cover(
    prover: Prover,
    terms: dict[sp.Expr, sp.Expr],
    usable: list[tuple[Fact, sp.Expr]],
    used: list[Fact],
    strict: bool,
    budget: list[int] | None = None,
) -> list[Fact] | None:
    """Depth-first: subtract a positive multiple of a fact sharing terms with what is left
    (the multiple is the one that makes all shared terms cancel), until the remainder has a
    known sign.  A fact may bring terms the goal lacks: a later fact can cancel them (the
    hypotheses of one outcome cancel those of another)."""
    budget = budget if budget is not None else [MAX_COVER_NODES]
    budget[0] -= 1
    need_strict = strict and not any(f.strict for f in used)
    if used and _nonneg_terms(terms, need_strict):
        return used
    if len(used) >= MAX_FACT_TERMS or budget[0] <= 0:
        return None
    options = []
    for i, (_, expanded) in enumerate(usable):
        parts = expanded.as_coefficients_dict()
        # The constant term is left out of the match: a positive constant left over is a
        # remainder of known sign (3 - x - y = (1 - x) + (2 - y), or + 1 more).
        shared = [k for k in parts if k in terms and k != 1] or [k for k in parts if k in terms]
        ratios = {terms[k] / parts[k] for k in shared}
        if len(ratios) != 1:
            continue
        (c,) = ratios
        if c.is_number and c.is_positive:
            options.append((-len(shared), i, c, parts))
    for _, i, c, parts in sorted(options, key=lambda o: (o[0], o[1])):
        left = dict(terms)
        for k, v in parts.items():
            left[k] = left.get(k, sp.S.Zero) - c * v
            if left[k] == 0:
                del left[k]
        # Each fact at most once per branch: the search stays finite.
        rest = usable[:i] + usable[i + 1 :]
        found = _cover(prover, left, rest, [*used, usable[i][0]], strict, budget)
        if found is not None:
            return found
    return None


def _nonneg_terms(terms: dict[sp.Expr, sp.Expr], strict: bool) -> bool:
    """Every term is nonnegative by the symbols' assumptions (one positive if strict).
    Term by term: SymPy's sign queries on whole sums were the cost of this search."""
    signs = [(k * v).is_nonnegative for k, v in terms.items()]
    if not all(signs):
        return False
    return not strict or any((k * v).is_positive for k, v in terms.items())


def _unbound_atoms(g: sp.Basic) -> set[sp.Basic]:
    """The Abs, Max and Min of ``g`` outside every Sum, Product and Integral.  Inside one,
    the difference depends on the bound variable, so its sign may change from term to term:
    a case "p[i] - q[i] >= 0" is a case for one i, not for the whole sum (the sum rules split
    the summand itself, where i is one index)."""
    out: set[sp.Basic] = set()
    stack = [g]
    while stack:
        e = stack.pop()
        if isinstance(e, (sp.Sum, sp.Product, sp.Integral)):
            continue
        if isinstance(e, (sp.Abs, sp.Max, sp.Min)):
            out.add(e)
        stack.extend(a for a in e.args if isinstance(a, sp.Basic))
    return out
