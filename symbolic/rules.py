"""Inequalities by named, checked rules.

SymPy's assumption system rarely decides an inequality of a DP proof (for positive ``e``,
``(exp(e) - 1).is_positive`` is None).  Here a goal ``g >= 0`` (or ``> 0``) is reduced by rules
that are sound by construction, each recorded in the proof trace:

* **assumptions**: SymPy decides the sign of ``g`` from the symbols' assumptions;
* **hypothesis**: ``g`` exceeds a hypothesis ``h >= 0`` by something of known sign;
* **positive factor**: ``g = c*h`` with ``c > 0`` reduces to ``h >= 0``;
* **monotonicity** of ``exp``, ``log``, ``sqrt``, ``Phi``, ``erf``, ``tanh``, ``sinh`` and of
  positive powers: ``f(b) - f(a) >= 0`` reduces to ``b - a >= 0``;
* **triangle inequality**: ``|a| <= sum |b_i|`` whenever ``a = sum (+-b_i)``;
* **log tangent bounds**: ``c*log(u) >= c*(1 - 1/u)`` for ``c >= 0`` and
  ``c*log(u) >= c*(u - 1)`` for ``c <= 0`` (from ``1 - 1/u <= log u <= u - 1``), applied to
  every log term of a sum at once, which is how Gibbs' inequality reduces to normalisation;
* **min/max bounds**: ``c*Min(a, b) >= c*a`` for ``c <= 0`` and ``c*Max(a, b) >= c*a`` for
  ``c >= 0``, choosing the same argument position in every Min/Max of a sum (so that
  ``1 - sum min(p_i, q_i)`` reduces to ``1 - sum p_i``);
* **termwise**: a sum whose terms are each nonnegative.

A goal no rule reduces is not proved; it is never called false here.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

import sympy as sp

from symbolic.functions import Phi
from symbolic.relations import Relation
from symbolic.tactics import prove_zero

# sqrt is a Pow in SymPy: it is covered by the positive-power case.
MONOTONE: tuple[type, ...] = (sp.exp, sp.log, Phi, sp.erf, sp.tanh, sp.sinh, sp.atan)
MAX_DEPTH = 7
MAX_GOALS = 120  # a budget of subgoals per proof attempt: failing searches must stay cheap
SIGN_MAX_OPS = 60  # SymPy's sign queries on larger expressions are slow and rarely succeed
MAX_CHAIN_DEPTH = 3
TERMWISE_MAX_DEPTH = 3  # hypotheses are chained with a remainder only this close to the root


@dataclass(frozen=True)
class Fact:
    """A known ``expr >= 0`` (or ``> 0`` when strict), with its origin for the trace."""

    expr: sp.Expr
    strict: bool
    origin: str


@dataclass
class Context:
    """What may be used: hypotheses and domain bounds as facts."""

    facts: Sequence[Fact] = field(default_factory=list)


def fact_from_relation(rel: sp.Basic, origin: str) -> list[Fact]:
    """Turn ``a <= b`` into the fact ``b - a >= 0`` (equalities give two facts)."""
    if isinstance(rel, sp.Equality):
        d = rel.lhs - rel.rhs
        return [Fact(d, False, origin), Fact(-d, False, origin)]
    if isinstance(rel, sp.LessThan | sp.StrictLessThan):
        return [Fact(rel.rhs - rel.lhs, isinstance(rel, sp.StrictLessThan), origin)]
    if isinstance(rel, sp.GreaterThan | sp.StrictGreaterThan):
        return [Fact(rel.lhs - rel.rhs, isinstance(rel, sp.StrictGreaterThan), origin)]
    return []


def prove_relation(
    lhs: sp.Expr, rel: Relation, rhs: sp.Expr, ctx: Context, cheap: bool = False
) -> str | None:
    """A proof trace of ``lhs rel rhs`` by the rules, or None if none was found.  ``cheap``
    skips the costly simplify rungs of the equality ladder."""
    if rel is Relation.EQ:
        tactic = prove_zero(lhs - rhs, cheap)
        return f"tactic {tactic}" if tactic else None
    prover = _Prover(ctx)
    small, big = (lhs, rhs) if rel.direction == 1 else (rhs, lhs)
    trace = prover.product(small, big, rel.strict)
    if trace is not None:
        return " -> ".join(trace)
    gap = big - small
    trace = prover.nonneg(gap, rel.strict, 0)
    if trace is None and not rel.strict:
        tactic = prove_zero(lhs - rhs, cheap)
        if tactic:
            return f"equality by tactic {tactic}"
    return " -> ".join(trace) if trace is not None else None


class _Prover:
    def __init__(self, ctx: Context):
        self.ctx = ctx
        self.seen: dict[tuple[sp.Expr, bool], list[str] | None] = {}
        self.forms: dict[sp.Expr, list[sp.Expr]] = {}
        self.signs: dict[tuple[sp.Expr, bool], str | None] = {}

    def nonneg(self, g: sp.Expr, strict: bool, depth: int) -> list[str] | None:
        key = (g, strict)
        if key in self.seen:
            return self.seen[key]
        if len(self.seen) >= MAX_GOALS:
            return None
        self.seen[key] = None  # guards against cycles while this goal is open
        result = self._nonneg(g, strict, depth)
        self.seen[key] = result
        return result

    def _nonneg(self, g: sp.Expr, strict: bool, depth: int) -> list[str] | None:
        if depth > MAX_DEPTH:
            return None
        sign = self._sign(g, strict)
        if sign:
            return [sign]
        hyp = self._hypothesis(g, strict, depth)
        if hyp:
            return hyp
        # Targeted rules (they apply only to logs, Min/Max, Abs) before the termwise split,
        # whose recursion into every term is what exhausts the subgoal budget.
        for rule in (
            self._positive_factor,
            self._monotone,
            self._log_tangent,
            self._min_max,
            self._triangle,
            self._termwise,
        ):
            trace = rule(g, strict, depth)
            if trace is not None:
                return trace
        return None

    # -- rules ------------------------------------------------------------------------------
    def _sign(self, g: sp.Expr, strict: bool) -> str | None:
        key = (g, strict)
        if key not in self.signs:
            self.signs[key] = None
            if g.is_number or sp.count_ops(g) <= SIGN_MAX_OPS:
                for form in (g, sp.factor_terms(g)):
                    if form.is_positive if strict else form.is_nonnegative:
                        self.signs[key] = "sign from the variables' assumptions"
                        break
        return self.signs[key]

    def _known_sign(self, e: sp.Expr, strict: bool) -> bool:
        """Whether ``e`` is >= 0 (> 0) by assumptions or a single hypothesis (no deep search);
        products and powers of such factors included."""
        if self._sign(e, strict):
            return True
        if isinstance(e, sp.Mul):
            negatives = [f for f in e.args if f.is_negative]
            if len(negatives) == 1 and negatives[0] == -1:
                return False  # -x: a sign question for the caller's other branch
            return all(self._known_sign(f, strict) for f in e.args)
        if isinstance(e, sp.Pow) and e.exp.is_real:
            return self._known_sign(e.base, True) or (not strict and e.exp.is_even is True)
        return bool(self._hypothesis(e, strict, MAX_DEPTH))

    def product(self, small: sp.Expr, big: sp.Expr, strict: bool) -> list[str] | None:
        """``prod x_i <= prod y_i`` from ``0 <= x_i <= y_i`` factor by factor (monotonicity
        of products of nonnegative numbers), pairing factors in some order."""
        if strict or not (isinstance(small, sp.Mul) and isinstance(big, sp.Mul)):
            return None
        xs, ys = list(small.args), list(big.args)
        if len(xs) != len(ys) or len(xs) > 4:
            return None
        if not all(self._known_sign(x, False) or self.nonneg(x, False, 2) is not None for x in xs):
            return None
        for perm in itertools.permutations(ys):
            traces = []
            for x, y in zip(xs, perm, strict=True):
                t = self.nonneg(y - x, False, 1)
                if t is None:
                    break
                traces.append(f"[{x} <= {y}: {' -> '.join(t)}]")
            else:
                return ["product of nonnegative factors, each bounded: " + " ".join(traces)]
        return None

    def _positive(self, f: sp.Expr, depth: int) -> bool:
        """A factor is positive by assumptions, or (for a sum) by a proof of its own: SymPy
        cannot tell that exp(eps) - 1 > 0, the monotonicity rule can."""
        if f.is_positive:
            return True
        if f.is_positive is False or not isinstance(f, sp.Add) or depth >= MAX_DEPTH - 2:
            return False
        return self.nonneg(f, True, depth + 2) is not None

    def _log_tangent(self, g: sp.Expr, strict: bool, depth: int) -> list[str] | None:
        # The sum's own terms first: expand() would distribute (1 - q1 - q2)*log(...) into
        # pieces whose coefficients have no known sign.
        for terms in (sp.Add.make_args(g), sp.Add.make_args(sp.expand(g, log=False))):
            lower = self._tangent_lower_bound(terms)
            if lower is None:
                continue
            lower = sp.cancel(lower)  # the bound is rational: normalisation cancels here
            trace = self.nonneg(lower, strict, depth + 1)
            if trace is not None:
                return ["log tangent bounds 1 - 1/u <= log(u) <= u - 1 on every log term", *trace]
        return None

    def _tangent_lower_bound(self, terms: tuple[sp.Expr, ...]) -> sp.Expr | None:
        """A lower bound of ``sum(terms)`` with each ``c*log(u)`` replaced by its tangent
        bound, or None if some log term has a coefficient of unknown sign."""
        if len(terms) < 2 or not any(t.has(sp.log) for t in terms):
            return None
        bounded = []
        for t in terms:
            logs = [f for f in sp.Mul.make_args(t) if isinstance(f, sp.log)]
            if not logs:
                bounded.append(t)
                continue
            if len(logs) != 1:
                return None
            u = logs[0].args[0]
            c = sp.Mul(*[f for f in sp.Mul.make_args(t) if f is not logs[0]])
            if not self._known_sign(u, True):
                return None
            if self._known_sign(c, False):
                bounded.append(c * (1 - 1 / u))
            elif self._known_sign(-c, False):
                bounded.append(c * (u - 1))
            else:
                return None
        return sp.Add(*bounded)

    def _min_max(self, g: sp.Expr, strict: bool, depth: int) -> list[str] | None:
        if not g.has(sp.Min, sp.Max):
            return None
        terms = sp.Add.make_args(sp.expand(g, log=False))
        arity = max(len(f.args) for f in g.atoms(sp.Min, sp.Max))
        for k in range(arity):
            bounded = []
            for t in terms:
                ext = [f for f in sp.Mul.make_args(t) if isinstance(f, sp.Min | sp.Max)]
                if not ext:
                    bounded.append(t)
                    continue
                if len(ext) != 1:
                    return None
                f = ext[0]
                c = t / f
                wanted_sign_ok = (
                    self._known_sign(-c, False)
                    if isinstance(f, sp.Min)
                    else self._known_sign(c, False)
                )
                if not wanted_sign_ok:
                    return None
                args = sorted(f.args, key=str)  # the same position in every Min: p_i, not q_i
                bounded.append(c * args[min(k, len(args) - 1)])
            trace = self.nonneg(sp.cancel(sp.Add(*bounded)), strict, depth + 1)
            if trace is not None:
                return [f"min(a, b) <= a and max(a, b) >= a (argument {k + 1}) termwise", *trace]
        return None

    def _hypothesis(self, g: sp.Expr, strict: bool, depth: int = MAX_DEPTH) -> list[str] | None:
        symbols = g.free_symbols
        for fact in self.ctx.facts:
            # A fact about variables absent from g cannot help bound g (and trying every fact
            # at every subgoal dominated the cost of failing searches).
            if not fact.expr.free_symbols <= symbols:
                continue
            # g >= h with h >= 0 gives only g >= 0; a strict goal then needs g - h > 0.
            rest_strict = strict and not fact.strict
            rest = sp.expand(g - fact.expr)
            if rest == 0 and not rest_strict:
                return [f"hypothesis {fact.origin}"]
            if rest != 0 and self._sign(rest, rest_strict):
                return [f"hypothesis {fact.origin} plus a term of known sign"]
            # Chaining serves facts about absolute values (sensitivity |f(x) - f(y)| <= Delta)
            # feeding the triangle inequality; other facts would only multiply the search.
            if (
                rest != 0
                and depth <= MAX_CHAIN_DEPTH
                and rest.has(sp.Abs)
                and fact.expr.has(sp.Abs)
            ):
                # g = h + rest with h >= 0: chain the hypothesis with a proof of rest >= 0
                # (e.g. |z-fy| <= |z-fx| + |fx-fy| <= |z-fx| + Delta).
                trace = self.nonneg(rest, rest_strict, depth + 1)
                if trace is not None:
                    return [f"hypothesis {fact.origin}, then", *trace]
            # g = c*h with c > 0: tried only where it can work cheaply (same variables, small
            # goal), since cancel() on large quotients dominated failing searches.
            if (
                fact.expr != 0
                and fact.expr.free_symbols == symbols
                and sp.count_ops(g) <= SIGN_MAX_OPS
            ):
                ratio = sp.cancel(g / fact.expr)
                if ratio.is_positive and (not strict or fact.strict):
                    return [f"hypothesis {fact.origin} times a positive factor"]
        return None

    def _positive_factor(self, g: sp.Expr, strict: bool, depth: int) -> list[str] | None:
        for form in self._forms(g):
            if not isinstance(form, sp.Mul):
                continue
            positive = [f for f in form.args if self._positive(f, depth)]
            if not positive:
                continue
            rest = sp.Mul(*[f for f in form.args if f not in positive])
            if rest == 1:
                return ["product of positive factors"]
            trace = self.nonneg(rest, strict, depth + 1)
            if trace is not None:
                shown = sp.Mul(*positive)
                return [f"positive factor {shown}", *trace]
        return None

    def _forms(self, g: sp.Expr) -> list[sp.Expr]:
        """A few equivalent shapes of ``g`` for rules to match (memoised: costly)."""
        if g not in self.forms:
            out = [g]
            for make in (sp.factor_terms, sp.together):
                try:
                    f = make(g)
                except (sp.PolynomialError, TypeError, ValueError, RecursionError):
                    continue
                if f not in out:
                    out.append(f)
            self.forms[g] = out
        return self.forms[g]

    def _monotone(self, g: sp.Expr, strict: bool, depth: int) -> list[str] | None:
        for form in self._forms(g):
            pair = _difference_of_same_function(form)
            if pair is None:
                continue
            name, big, small, needs_positive = pair
            if needs_positive and not self._known_sign(small, strict=False):
                continue
            trace = self.nonneg(big - small, strict, depth + 1)
            if trace is not None:
                return [f"monotonicity of {name}", *trace]
        return None

    def _triangle(self, g: sp.Expr, strict: bool, depth: int) -> list[str] | None:
        if strict:
            return None  # the triangle inequality is not strict; let other rules try
        expanded = sp.expand(g)
        terms = sp.Add.make_args(expanded)
        abs_terms: list[tuple[sp.Expr, sp.Abs]] = []
        for t in terms:
            coeff, rest = t.as_coeff_Mul()
            if isinstance(rest, sp.Abs):
                abs_terms.append((coeff, rest))
        for c_neg, a in abs_terms:
            if not c_neg.is_negative:
                continue
            c = -c_neg
            pos = [b for cb, b in abs_terms if cb == c and b != a]
            for size in range(1, min(len(pos), 4) + 1):
                for subset in itertools.combinations(pos, size):
                    for signs in itertools.product((1, -1), repeat=size):
                        combo = sum(s * b.args[0] for s, b in zip(signs, subset, strict=True))
                        if sp.expand(a.args[0] - combo) != 0:
                            continue
                        rest = sp.expand(expanded - c * (sum(subset) - a))
                        shown = f"|{a.args[0]}| <= " + " + ".join(f"|{b.args[0]}|" for b in subset)
                        if rest == 0:
                            return [f"triangle inequality {shown}"]
                        trace = self.nonneg(rest, False, depth + 1)
                        if trace is not None:
                            return [f"triangle inequality {shown}", *trace]
        return None

    def _termwise(self, g: sp.Expr, strict: bool, depth: int) -> list[str] | None:
        if depth > TERMWISE_MAX_DEPTH:
            return None
        expanded = sp.expand(g)
        if not isinstance(expanded, sp.Add) or len(expanded.args) > 12:
            return None
        traces = []
        any_strict = False
        for t in expanded.args:
            tr = self.nonneg(t, False, depth + 1)
            if tr is None:
                return None
            traces.append(tr)
            if strict and not any_strict and self._sign(t, True):
                any_strict = True
        if strict and not any_strict:
            return None
        return ["termwise: every term is nonnegative"]


def _difference_of_same_function(g: sp.Expr) -> tuple[str, sp.Expr, sp.Expr, bool] | None:
    """Match ``F(b) - F(a)`` with F increasing; also ``F(b) - c`` for constants ``c`` in F's
    range (``exp(b) - 1`` is ``exp(b) - exp(0)``).  Returns (name, b, a, a-must-be-positive)."""
    if not isinstance(g, sp.Add) or len(g.args) != 2:
        return None
    t1, t2 = g.args
    for plus, minus in ((t1, t2), (t2, t1)):
        neg = -minus
        for fn in MONOTONE:
            if isinstance(plus, fn) and isinstance(neg, fn):
                return fn.__name__, plus.args[0], neg.args[0], fn is sp.log
            if isinstance(plus, fn) and neg.is_number and neg.is_real:
                inverse = _inverse_at(fn, neg)
                if inverse is not None:
                    return fn.__name__, plus.args[0], inverse, fn is sp.log
            if isinstance(neg, fn) and plus.is_number and plus.is_real:
                inverse = _inverse_at(fn, plus)
                if inverse is not None:
                    return fn.__name__, inverse, neg.args[0], fn is sp.log
        if (
            isinstance(plus, sp.Pow)
            and isinstance(neg, sp.Pow)
            and plus.exp == neg.exp
            and plus.exp.is_positive
            and plus.base.is_nonnegative
            and neg.base.is_nonnegative
        ):
            return f"x**{plus.exp} on x >= 0", plus.base, neg.base, False
        if (
            isinstance(plus, sp.Pow)
            and plus.exp.is_positive
            and plus.base.is_nonnegative
            and neg.is_number
            and neg.is_nonnegative
        ):
            return f"x**{plus.exp} on x >= 0", plus.base, neg ** (1 / plus.exp), False
    return None


def _inverse_at(fn: object, c: sp.Expr) -> sp.Expr | None:
    if fn is sp.exp and c.is_positive:
        return sp.log(c)
    if fn is sp.log:
        return sp.exp(c)
    return None
