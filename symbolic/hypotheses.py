"""Equality hypotheses become substitutions, each one only where it is sound.

Rejection sampling never hits an equality such as ``b == Delta/eps``, and freezing a solved
value at one precision would fake a discrepancy when a point is re-evaluated at a higher one.
So each equality is solved for one of its variables, that variable is substituted away
everywhere, and its domain becomes an inequality on the remaining variables.

Solving is a side condition (issue 38): an equality ``a*y + b == 0`` is the same set of
points as ``y == -b/a`` only where ``a != 0``.  With ``x*y == 0``, dividing by ``x`` gave
``y = 0`` and "proved" ``y**2 <= 0`` (false at ``x = 0, y = 1``).  So a variable is
eliminated only by an equality *affine* in it (``a`` and ``b`` free of it: the solution is
then unique, and no root is lost as ``sp.solve`` may lose one), and only where its
coefficient ``a`` is *proved* nonzero from the other hypotheses and the domains.  Otherwise
:func:`build_space` raises :class:`NeedsCases` naming the cases that cover the equality
(each factor of ``a`` zero; ``a > 0``; ``a < 0``): the checker checks the claim in each
and it holds only if it holds in all of them.  An equality affine in none of its variables
(``x**2 + y**2 == 1``) is refused with a message (exit 2), but for a polynomial in one
variable with rational coefficients (``x**2 == 4``), whose real roots are found exactly: one
in the domain is the variable's value, several are cases.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import sympy as sp

from symbolic.domains import Variable
from symbolic.errors import EmptyDomain, InvalidInput
from symbolic.side_conditions import SideCondition, discharge

if TYPE_CHECKING:
    from symbolic.rules.facts import Fact

MAX_CASES = 8
"""The most cases one claim is split into by its equality hypotheses (beyond it: refused)."""


@dataclass(frozen=True)
class Space:
    """Where points live: the variables still sampled, the inequalities they must satisfy,
    the eliminated variables with their formulas (for display), and the side conditions of
    those eliminations (each coefficient divided by, with how it was shown nonzero)."""

    free: tuple[Variable, ...]
    inequalities: tuple[sp.Rel, ...]
    solved: tuple[tuple[Variable, sp.Expr], ...]
    conditions: tuple[SideCondition, ...] = ()

    def substitute(self, expr: sp.Basic) -> sp.Basic:
        for var, value in self.solved:
            expr = expr.xreplace({var.symbol: value})
        return expr

    @property
    def free_symbols(self) -> tuple[sp.Symbol, ...]:
        return tuple(v.symbol for v in self.free)


class Contradiction(EmptyDomain):
    """The hypotheses are false everywhere, shown exactly (a relation SymPy evaluates to
    false once equalities are substituted): a case of a split that raises it is empty, not
    an error.  Emptiness only suspected (no sampled point satisfies the hypotheses) is a
    plain :class:`~symbolic.errors.EmptyDomain`, never a reason to skip a case."""


@dataclass(frozen=True)
class Case:
    """One case of a split: ``label`` as a reader reads it (``x = 0``), and the hypotheses
    it adds (placed before the others, so that its equalities are solved first)."""

    label: str
    hypotheses: tuple[sp.Basic, ...]


class NeedsCases(InvalidInput):
    """An equality hypothesis can be eliminated only case by case: solving ``equality`` for
    ``variable`` divides by ``coefficient``, which is not shown nonzero.  ``cases`` cover
    every point of the equality.  The checker splits the claim (see
    :mod:`numeric_checks.cases`); a caller that cannot gets a clear input error (exit 2)."""

    def __init__(
        self, equality: sp.Basic, variable: str, how: str, cases: tuple[Case, ...]
    ) -> None:
        self.equality, self.variable, self.how, self.cases = equality, variable, how, cases
        labels = "; ".join(c.label for c in cases)
        super().__init__(
            f"the equality hypothesis {_shown(equality)} gives {variable} only {how}; it "
            f"holds by cases ({labels}): check each case as a claim of its own, or add a "
            "hypothesis that decides between them"
        )


def _shown(eq: sp.Basic) -> str:
    return f"{eq.lhs} == {eq.rhs}" if isinstance(eq, sp.Equality) else str(eq)


def build_space(variables: Sequence[Variable], hypotheses: Sequence[sp.Basic]) -> Space:
    """Eliminate the equalities among ``hypotheses`` and collect what remains; raises
    :class:`NeedsCases` where an elimination would divide by what may be zero."""
    free = list(variables)
    solved: list[tuple[Variable, sp.Expr]] = []
    conditions: list[SideCondition] = []
    given: list[sp.Basic] = []
    for h in hypotheses:
        # Definitions substituted can make a hypothesis hold identically (log(p/q) <= eps
        # with p = q e^eps): it is satisfied; one false everywhere is contradictory.
        if h is sp.true:
            continue
        if h is sp.false:
            raise Contradiction(
                "a hypothesis is false for every value of the variables once definitions "
                "are substituted: the hypotheses are contradictory"
            )
        given.append(h)
    pending_eqs = [h for h in given if isinstance(h, sp.Equality)]
    ineqs: list[sp.Basic] = [h for h in given if not isinstance(h, sp.Equality)]
    for h in ineqs:
        if not isinstance(h, sp.Rel) or isinstance(h, sp.Unequality):
            raise InvalidInput(f"a hypothesis must be <=, <, >=, > or an equality, got {h}")
    for original in pending_eqs:
        eq = original
        for var, value in solved:
            eq = eq.xreplace({var.symbol: value})
        if eq is sp.true:
            continue
        if eq is sp.false:
            raise Contradiction(f"the equality hypotheses contradict each other at {original}")
        var, value, condition = _eliminate(eq, free, ineqs)
        free.remove(var)
        # An earlier solution may hold the variable solved now (x = 2y, then y = 3z): every
        # solved value is in the free variables only (x = 6z).
        solved = [(v, e.xreplace({var.symbol: value})) for v, e in solved]
        solved.append((var, value))
        conditions.append(condition)
        ineqs = [h.xreplace({var.symbol: value}) for h in ineqs]
        ineqs += [c.xreplace({var.symbol: value}) for c in var.domain.constraints(var.symbol)]
    kept: list[sp.Rel] = []
    for h in ineqs:
        if h is sp.true:
            continue
        if h is sp.false:
            raise Contradiction("a hypothesis is false for every value of the variables")
        kept.append(h)
    return Space(tuple(free), tuple(kept), tuple(solved), tuple(conditions))


@dataclass(frozen=True)
class _Candidate:
    var: Variable
    coefficient: sp.Expr
    value: sp.Expr
    condition: SideCondition


def _eliminate(
    eq: sp.Equality, free: Sequence[Variable], ineqs: Sequence[sp.Basic]
) -> tuple[Variable, sp.Expr, SideCondition]:
    """The variable to eliminate from ``eq``, its value and the discharged condition that
    its coefficient is nonzero; :class:`NeedsCases` or :class:`InvalidInput` otherwise."""
    candidates = _affine_candidates(eq, free)
    if not candidates:
        roots = _by_roots(eq, free)
        if roots is not None:
            return roots
        integers = [
            v.name
            for v in free
            if v.domain.kind == "integer"
            and v.symbol in eq.free_symbols
            and affine_parts(eq.lhs - eq.rhs, v.symbol) is not None
        ]
        why = (
            f"it is linear only in the integer variable(s) {', '.join(integers)}, and an "
            "integer is not solved for (the solution need not be an integer at every point)"
            if integers
            else "it is linear in none of them (a solution is substituted only where it is unique)"
        )
        raise InvalidInput(
            f"cannot solve the equality hypothesis {_shown(eq)} for one of its variables: "
            f"{why}; write it solved for one variable (y == ...) or as a definition under "
            "[defs]"
        )
    facts = rules_facts(ineqs, free)
    for c in candidates:
        shown = discharge([c.condition], facts)[0]
        if shown.discharged:
            return c.var, c.value, shown
    best = candidates[0]
    how = f"by dividing by {best.coefficient}, which is not shown nonzero"
    raise NeedsCases(eq, best.var.name, how, _cases(best.coefficient, facts))


MAX_DEGREE = 8
"""The highest degree of a one-variable polynomial equality solved by its real roots."""


def _by_roots(
    eq: sp.Equality, free: Sequence[Variable]
) -> tuple[Variable, sp.Expr, SideCondition] | None:
    """A polynomial equality in one real variable with rational coefficients (``x**2 ==
    4``): its real roots are found exactly and completely (SymPy's real root isolation), so
    one root in the variable's domain is the variable's value, several are cases (``x =
    -2``; ``x = 2``) and none a contradiction.  None when the equality is not of that
    shape."""
    e = eq.lhs - eq.rhs
    if len(e.free_symbols) != 1:
        return None
    (x,) = e.free_symbols
    var = next((v for v in free if v.symbol == x and v.domain.kind == "real"), None)
    if var is None:
        return None
    try:
        poly = sp.Poly(e, x)
    except sp.PolynomialError:
        return None
    if not 1 <= poly.degree() <= MAX_DEGREE or not all(c.is_Rational for c in poly.coeffs()):
        return None
    roots = [r for r in dict.fromkeys(sp.real_roots(poly)) if var.domain.contains(r)]
    if not roots:
        raise Contradiction(f"{_shown(eq)} has no real solution with {var.name} in {var.domain}")
    if len(roots) == 1:
        how = f"the only real root of {_shown(eq)} in {var.domain}"
        return var, roots[0], SideCondition("nonzero", sp.S.One, how, discharged_by=how)
    cases = tuple(Case(f"{var.name} = {r}", (sp.Eq(x, r),)) for r in roots)
    raise NeedsCases(eq, var.name, f"as one of its real roots {', '.join(map(str, roots))}", cases)


def _affine_candidates(eq: sp.Equality, free: Sequence[Variable]) -> list[_Candidate]:
    """Every real variable in which ``eq`` is affine, with its root, best first: what the
    user wrote alone on one side (``b`` in ``b == Delta/eps``), then the simplest root,
    then the variable declared last (derived quantities)."""
    e = eq.lhs - eq.rhs
    names = {s.name for s in eq.free_symbols}
    alone = {side for side in (eq.lhs, eq.rhs) if isinstance(side, sp.Symbol)}
    keyed = []
    for index, var in enumerate(free):
        if var.name not in names or var.domain.kind == "integer":
            continue
        parts = affine_parts(e, var.symbol)
        if parts is None:
            continue
        a, b = parts
        value = -b / a
        condition = SideCondition("nonzero", a, f"solving {_shown(eq)} for {var.name}")
        key = (var.symbol not in alone, sp.count_ops(value), -index)
        keyed.append((key, _Candidate(var, a, value, condition)))
    keyed.sort(key=lambda kc: kc[0])
    return [c for _, c in keyed]


def rules_facts(ineqs: Sequence[sp.Basic], free: Sequence[Variable]) -> list[Fact]:
    """The inequality hypotheses and the free variables' domains, as the rules' facts."""
    from symbolic.rules.facts import fact_from_relation  # the rules import this module's users

    facts: list[Fact] = []
    for h in ineqs:
        facts += fact_from_relation(h, str(h))
    for v in free:
        for c in v.domain.constraints(v.symbol):
            facts += fact_from_relation(c, f"domain of {v.name}")
    return facts


def _cases(a: sp.Expr, facts: Sequence[Fact]) -> tuple[Case, ...]:
    """Cases covering every point: each factor of ``a``'s numerator that may vanish is zero;
    or ``a > 0``; or ``a < 0`` (a sign the facts exclude is left out)."""
    from symbolic.relations import Relation
    from symbolic.rules import Context, prove_relation

    numerator, _ = sp.fraction(sp.together(a))
    factors = [f for f, _ in sp.factor_list(numerator)[1]] if numerator.free_symbols else []
    cases: list[Case] = []
    for f in factors:
        if discharge([SideCondition("nonzero", f, "")], facts)[0].discharged:
            continue
        cases.append(Case(f"{f} = 0", (sp.Eq(f, 0),)))
    ctx = Context(list(facts))
    for rel, make, label in (
        (Relation.LE, sp.StrictGreaterThan, ">"),
        (Relation.GE, sp.StrictLessThan, "<"),
    ):
        try:
            excluded = prove_relation(a, rel, sp.S.Zero, ctx, cheap=True) is not None
        except (TypeError, ValueError, RecursionError, NotImplementedError, AttributeError):
            excluded = False
        if not excluded:
            cases.append(Case(f"{a} {label} 0", (make(a, 0),)))
    return tuple(cases)


def affine_parts(e: sp.Expr, x: sp.Symbol) -> tuple[sp.Expr, sp.Expr] | None:
    """``(a, b)`` with ``e = a x + b`` identically, ``a`` and ``b`` free of ``x``, ``a`` not
    identically zero and ``b`` finite; None when ``e`` is not affine in ``x``."""
    a = sp.diff(e, x)
    if a.has(x) or a.is_zero is True or a == 0:
        return None
    b = e.subs(x, 0)
    if b.has(x) or b.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        return None
    return a, b


def affine_root(e: sp.Expr, x: sp.Symbol) -> sp.Expr | None:
    """The root ``-b/a`` of ``e = a x + b`` when ``e`` is affine in ``x`` (``a`` free of
    ``x`` and not identically zero, ``b`` finite), else None.  A candidate only: where ``a``
    vanishes there is no root or every ``x`` is one, which the caller must rule out (the
    sampler's boundary points are checked against every hypothesis; eliminations go through
    :func:`build_space`, which proves ``a != 0``).  Without ``sp.solve``, whose simplify pass
    imports sympy.physics: 0.4 s of a cold ``dpderive check``."""
    parts = affine_parts(e, x)
    if parts is None:
        return None
    a, b = parts
    return -b / a
