"""The rule engine: a goal ``g >= 0`` (or ``> 0``) is tried by the sign the variables'
assumptions give, then by the hypotheses, then by each rule family in turn; every subgoal is
memoised, and a budget of subgoals keeps failing searches cheap."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import sympy as sp

from symbolic.assumed_point import negative_somewhere
from symbolic.functions import NumericFunction
from symbolic.proof_tree import Goal, ProofNode
from symbolic.relations import Relation
from symbolic.rules.beyond import beyond_rules
from symbolic.rules.bounds import extremum_cases, log_tangent, min_max
from symbolic.rules.convexity import chord
from symbolic.rules.facts import (
    MAX_DEPTH,
    MAX_GOALS,
    SIGN_MAX_OPS,
    Context,
    Fact,
    abs_consequences,
    ops,
)
from symbolic.rules.hypotheses import hypothesis
from symbolic.rules.monotone import factor_signs, monotone, positive_factor
from symbolic.rules.registry import (
    Closed,
    attempt,
    close,
    credit,
    frame,
    pass_up,
    side_condition,
)
from symbolic.rules.samples import clearly_nonzero
from symbolic.rules.signs import fact_sum, positive_sums, sign_split, signed_factors
from symbolic.rules.splits import pairwise, product, termwise, triangle
from symbolic.tactics import prove_zero

# Targeted rules (they apply only to logs, Min/Max, Abs) before the termwise split, whose
# recursion into every term is what exhausts the subgoal budget.  The sign case split comes
# last: it multiplies the work by its number of cases, so everything cheaper goes first.
RULES = (
    extremum_cases,
    positive_factor,
    monotone,
    factor_signs,
    signed_factors,
    fact_sum,
    chord,
    log_tangent,
    min_max,
    triangle,
    pairwise,
    termwise,
    sign_split,
)
RULE_IDS = {
    extremum_cases: "extremum cases",
    positive_factor: None,  # "positive factor" or "product of positive factors": it says
    monotone: None,  # "monotonicity of exp", ...: the rule credits the function's own id
    factor_signs: "product of positive factors",
    signed_factors: "products of factors of the same sign",
    fact_sum: "sum of hypotheses",
    chord: "convexity",
    log_tangent: "log tangent bound",
    min_max: "min bound",
    triangle: "triangle inequality",
    pairwise: "pairwise",
    termwise: "termwise",
    sign_split: "sign case split",
}
"""Each rule's id among :data:`symbolic.rule_names.RULE_FAMILIES` (what a step cites); None
for a rule with several families, which credits the one it applied itself."""
# A rule a step's justification names, tried first on that step (see prove_relation): the
# search in the fixed order above spent 0.4 s of kl-bound's first step failing other rules
# before its cited log tangent bound.
CITED_RULES = {
    "log tangent bound": log_tangent,
    "min bound": min_max,
    "triangle inequality": triangle,
    "monotonicity of exp": monotone,
    "convexity": chord,
    "sign case split": sign_split,
}
# Outside a sign case the concavity rule goes first: it applies only to perspective sums
# of logs of ratios (kl-bound-tight's chord step, 0.5 s), where the positive-factor rule's
# failing search on the sum's common denominator cost 4 s.  Inside a case it keeps its
# place: there the sums are resolved pieces, and tried first it cost kl-bound's split 2 s.
ROOT_RULES = (RULES[0], chord, *(r for r in RULES[1:] if r is not chord))


def prove_relation(
    lhs: sp.Expr,
    rel: Relation,
    rhs: sp.Expr,
    ctx: Context,
    cheap: bool = False,
    cited: Sequence[str] = (),
    max_goals: int = MAX_GOALS,
) -> str | None:
    """See :func:`_prove_relation`; an inequality it does not prove is tried once more with
    products of exponentials merged (``exp(a)*exp(b) = exp(a + b)``, an identity), so that
    ``exp(v) <= exp(c)*exp(u)`` reaches the monotonicity of exp."""
    found = _prove_relation(lhs, rel, rhs, ctx, cheap, cited, max_goals)
    if found is not None or rel is Relation.EQ:
        return found
    merged = _merge_exps(sp.sympify(lhs)), _merge_exps(sp.sympify(rhs))
    if merged == (lhs, rhs):
        return None
    found = _prove_relation(merged[0], rel, merged[1], ctx, cheap, cited, max_goals)
    return f"exp(a)*exp(b) = exp(a + b) -> {found}" if found is not None else None


@dataclass(frozen=True)
class ProofTrace:
    """A proof found by the rules: its trace in words, the ids of the rule families it is
    made of (:mod:`symbolic.rules.registry`), for checking a cited rule by id, and its tree
    (:mod:`symbolic.proof_tree`), whose ids those are."""

    text: str
    rules: frozenset[str]
    tree: tuple[ProofNode, ...] = ()


def prove_traced(
    lhs: sp.Expr, rel: Relation, rhs: sp.Expr, ctx: Context, **options: Any
) -> ProofTrace | None:
    """:func:`prove_relation` (``options``: its keywords) with the rules its proof used."""
    with frame() as used:
        text = prove_relation(lhs, rel, rhs, ctx, **options)
    if text is None:
        return None
    closed = close(used)
    pass_up(closed)
    return ProofTrace(text, frozenset(used.ids()), closed.top())


def _merge_exps(e: sp.Expr) -> sp.Expr:
    """``e`` with each product of two or more exponentials written as one exponential."""

    def merge(m: sp.Expr) -> sp.Expr:
        if not isinstance(m, sp.Mul):
            return m
        exps = [f for f in m.args if isinstance(f, sp.exp)]
        if len(exps) < 2:
            return m
        rest = [f for f in m.args if not isinstance(f, sp.exp)]
        return sp.Mul(*rest, sp.exp(sp.Add(*(f.args[0] for f in exps))))

    return e.replace(lambda x: isinstance(x, sp.Mul), merge)


def _prove_relation(
    lhs: sp.Expr,
    rel: Relation,
    rhs: sp.Expr,
    ctx: Context,
    cheap: bool = False,
    cited: Sequence[str] = (),
    max_goals: int = MAX_GOALS,
) -> str | None:
    """A proof trace of ``lhs rel rhs`` by the rules, or None if none was found.  ``cheap``
    skips the costly simplify rungs of the equality ladder.  ``cited``: the rules the step's
    justification names (``by.rule("log tangent bound")``); those in :data:`CITED_RULES`
    are tried first on the whole goal, each by a prover of its own, before the full search
    (which a failed attempt leaves untouched: it starts afresh, with its whole budget).
    ``max_goals``: the subgoal budget of each attempt."""
    if _opaque_alone(lhs, rhs, ctx):
        return None
    if rel is Relation.EQ:
        # With the facts' absolute values dropped: |t| b < 1 gives the exponents' signs of
        # both tails of the Laplace mgf.
        with_abs = Context([*ctx.facts, *abs_consequences(ctx.facts)])
        tactic = prove_zero(lhs - rhs, cheap, positive_sums(with_abs))
        return f"tactic {tactic}" if tactic else None
    small, big = (lhs, rhs) if rel.direction == 1 else (rhs, lhs)
    for name in dict.fromkeys(cited):
        rule = CITED_RULES.get(name.lower())
        if rule is None:
            continue
        goal = Goal(big - small, rel.strict)
        first = attempt(
            RULE_IDS[rule], rule, Prover(ctx, max_goals), big - small, rel.strict, 0, goal=goal
        )
        if first is not None:
            return " -> ".join(first)
    prover = Prover(ctx, max_goals)
    trace = attempt(
        "product bound", product, prover, small, big, rel.strict, goal=Goal(big - small, rel.strict)
    )
    if trace is not None:
        return " -> ".join(trace)
    gap = big - small
    trace = prover.nonneg(gap, rel.strict, 0)
    # An inequality whose sides differ at a sample point is not an identity: the ladder's
    # simplify rung spent seconds failing on the MGF bounds users bring.
    if trace is None and not rel.strict and not clearly_nonzero(lhs - rhs):
        tactic = prove_zero(lhs - rhs, cheap)
        if tactic:
            return f"equality by tactic {tactic}"
    if trace is None and not cheap:
        return attempt(
            None,
            beyond_rules,
            small,
            big,
            rel.strict,
            prover.ctx,
            _capped_rules,
            goal=Goal(gap, rel.strict),
        )
    return " -> ".join(trace) if trace is not None else None


def _capped_rules(g: sp.Expr, strict: bool, facts: Sequence[Fact], goals: int) -> list[str] | None:
    """The rule search on ``g`` with at most ``goals`` subgoals (for the derivative rule's
    subgoals, where the full budget of a failing search was the largest cost)."""
    prover = Prover(Context(list(facts)))
    prover.max_goals = goals
    return prover.nonneg(g, strict, 0)


def _opaque_alone(lhs: sp.Expr, rhs: sp.Expr, ctx: Context) -> bool:
    """A numeric function with no symbolic form (no ``doit`` of its own) is applied on one
    side only and in no hypothesis: no rule or tactic can relate it to anything, and the
    failing search over the other side cost gdp-clt-berry-esseen ~30 s."""
    known = {f for fact in ctx.facts for f in fact.expr.atoms(NumericFunction)}
    sides = sp.sympify(lhs).atoms(NumericFunction), sp.sympify(rhs).atoms(NumericFunction)
    for call in sides[0] ^ sides[1]:
        if type(call).doit is NumericFunction.doit and call not in known:
            return True
    return False


class Prover:
    """One proof attempt: the facts, the subgoals tried so far and their memoised answers."""

    def __init__(self, ctx: Context, max_goals: int = MAX_GOALS):
        self.ctx = Context([*ctx.facts, *abs_consequences(ctx.facts)])
        self.seen: dict[tuple[sp.Expr, bool], list[str] | None] = {}
        self.used: dict[tuple[sp.Expr, bool], Closed] = {}
        """Each proved subgoal's proof tree (see :mod:`symbolic.rules.registry`)."""
        self._strict_facts: frozenset[sp.Expr] | None = None
        self.max_goals = max_goals
        self.in_case = False
        """Set on the provers of a sign case split's cases (see :data:`ROOT_RULES`)."""

    def expanded(self, e: sp.Expr) -> sp.Expr:
        """``expand(e)``, memoised (for every prover: it does not depend on the facts)."""
        return _expanded(e)

    def strict_facts(self) -> frozenset[sp.Expr]:
        """The strict facts ``e > 0``, expanded, for membership tests."""
        if self._strict_facts is None:
            self._strict_facts = frozenset(sp.expand(f.expr) for f in self.ctx.facts if f.strict)
        return self._strict_facts

    def nonneg(self, g: sp.Expr, strict: bool, depth: int) -> list[str] | None:
        key = (g, strict)
        if key in self.seen:
            if self.seen[key] is not None:
                pass_up(self.used[key])  # a memoised proof is used again: so are its rules
            return self.seen[key]
        if len(self.seen) >= self.max_goals:
            return None
        self.seen[key] = None  # guards against cycles while this goal is open
        with frame() as used:
            result = self._nonneg(g, strict, depth)
        self.seen[key] = result
        if result is not None:
            self.used[key] = close(used, goal=Goal(g, strict))
            pass_up(self.used[key])
        return result

    def _nonneg(self, g: sp.Expr, strict: bool, depth: int) -> list[str] | None:
        if depth > MAX_DEPTH:
            return None
        sign = self.sign(g, strict)
        if sign:
            credit("assumptions")
            return [sign]
        hyp = attempt("hypothesis", hypothesis, self, g, strict, depth)
        if hyp:
            return hyp
        for rule in RULES if self.in_case else ROOT_RULES:
            trace = attempt(RULE_IDS[rule], rule, self, g, strict, depth)
            if trace is not None:
                return trace
        return None

    # -- signs and shapes, for the rules ---------------------------------------------------
    def sign(self, g: sp.Expr, strict: bool) -> str | None:
        """The sign of ``g`` from the variables' assumptions alone (so memoised for every
        prover: a case split's child provers ask the same questions as their parent)."""
        return ASSUMED if _assumed_sign(g, strict) else None

    def known_sign(self, e: sp.Expr, strict: bool) -> bool:
        """Whether ``e`` is >= 0 (> 0) by assumptions or a single hypothesis (no deep search);
        products and powers of such factors included."""
        if self.sign(e, strict):
            return True
        return bool(side_condition(self._known_sign, e, strict))

    def _known_sign(self, e: sp.Expr, strict: bool) -> bool:
        if self.sign(e, strict):
            return True
        if isinstance(e, sp.Mul):
            negatives = [f for f in e.args if f.is_negative]
            if len(negatives) == 1 and negatives[0] == -1:
                return False  # -x: a sign question for the caller's other branch
            return all(self.known_sign(f, strict) for f in e.args)
        if isinstance(e, sp.Pow) and e.exp.is_real:
            return self.known_sign(e.base, True) or (not strict and e.exp.is_even is True)
        return bool(hypothesis(self, e, strict, MAX_DEPTH))

    def positive(self, f: sp.Expr, depth: int) -> bool:
        """A factor is positive by assumptions, or (for a sum) by a proof of its own: SymPy
        cannot tell that exp(eps) - 1 > 0, the monotonicity rule can."""
        if f.is_positive:
            return True
        if f.is_positive is False or not isinstance(f, sp.Add) or depth >= MAX_DEPTH - 2:
            return False
        return side_condition(self.nonneg, f, True, depth + 2) is not None

    def forms(self, g: sp.Expr) -> Iterator[sp.Expr]:
        """A few equivalent shapes of ``g`` for rules to match: ``g`` itself, then its
        ``factor_terms`` and ``together`` forms, computed (and memoised) only when a rule
        reads past ``g``: a rule that succeeds on ``g`` as written needs neither."""
        yield g
        yield from _forms(g)[1:]


# Caches of what depends on the expression alone, not on the facts: shared by every
# prover of a process (the sign case split makes a fresh prover per case, and its cases
# ask the same questions; kl-bound's split spent most of its time re-asking them).
CACHE_SIZE = 4096
ASSUMED = "sign from the variables' assumptions"


@functools.lru_cache(maxsize=CACHE_SIZE)
def _expanded(e: sp.Expr) -> sp.Expr:
    return sp.expand(e)


def expanded(e: sp.Expr) -> sp.Expr:
    """``expand(e)``, memoised for the process (what the hypothesis rule compares)."""
    return _expanded(e)


@functools.lru_cache(maxsize=CACHE_SIZE)
def _assumed_sign(g: sp.Expr, strict: bool) -> bool:
    """``g > 0`` (``>= 0``) by SymPy's assumptions, on ``g`` or its common-factor form."""
    if not (g.is_number or ops(g) <= SIGN_MAX_OPS):
        return False
    if negative_somewhere(g):
        # Negative where the assumptions allow: SymPy cannot show it >= 0, and 98% of the
        # time of these queries over the catalog went to such failing ones.
        return False
    return any(
        form.is_positive if strict else form.is_nonnegative for form in (g, *_common_factor_form(g))
    )


@functools.lru_cache(maxsize=CACHE_SIZE)
def _forms(g: sp.Expr) -> tuple[sp.Expr, ...]:
    out = [g]
    for make in (sp.factor_terms, sp.together):
        try:
            f = make(g)
        except (sp.PolynomialError, TypeError, ValueError, RecursionError):
            continue
        if f not in out:
            out.append(f)
    return tuple(out)


def _common_factor_form(g: sp.Expr) -> tuple[sp.Expr, ...]:
    """``factor_terms(g)``, unless ``g`` is a sum with terms of both signs: pulling out a
    common factor then leaves a sum of mixed signs, which SymPy's assumptions do not decide,
    and factor_terms was the largest cost of failing searches."""
    if isinstance(g, sp.Add):
        coeffs = [t.as_coeff_Mul()[0] for t in g.args]
        if any(c.is_negative for c in coeffs) and any(c.is_positive for c in coeffs):
            return ()
    return (sp.factor_terms(g),)
