"""What the rules may use (facts: known ``expr >= 0``) and the limits of every search."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field

import sympy as sp

MAX_DEPTH = 7
MAX_GOALS = 120  # a budget of subgoals per proof attempt: failing searches must stay cheap
SIGN_MAX_OPS = 60  # SymPy's sign queries on larger expressions are slow and rarely succeed


@functools.lru_cache(maxsize=8192)
def ops(e: sp.Expr) -> int:
    """``count_ops(e)``, memoised for every prover: the size guards ask it of the same goals
    again and again (per fact in the hypothesis rule, per case of a split), and it cost
    0.8 s of kl-bound's proof."""
    return int(sp.count_ops(e))


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


def abs_consequences(facts: Sequence[Fact]) -> list[Fact]:
    """From ``h - c |a| >= 0`` (``c > 0`` a number, or an expression positive by the
    symbols' assumptions, ``h`` free of ``|a|``) the two facts ``h - c a >= 0`` and
    ``h + c a >= 0``, since ``|a| >= a`` and ``|a| >= -a``: a sensitivity bound
    ``|u(x) - u(y)| <= Delta`` gives ``u(x) - u(y) <= Delta`` directly, and ``|t| b < 1``
    gives ``b t < 1`` and ``-b t < 1``."""
    out: list[Fact] = []
    known = {f.expr for f in facts}
    for f in facts:
        if not isinstance(f.expr, sp.Add):
            continue
        abses = [t for t in f.expr.atoms(sp.Abs) if f.expr.coeff(t) != 0]
        if len(abses) != 1:
            continue
        a = abses[0]
        c = f.expr.coeff(a)
        if c.has(a) or (f.expr - c * a).has(a) or c.is_negative is not True:
            continue
        for sign, shown in ((1, "|a| >= a"), (-1, "|a| >= -a")):
            expr = f.expr.xreplace({a: sign * a.args[0]})
            if expr not in known:
                known.add(expr)
                out.append(Fact(expr, f.strict, f"{f.origin} ({shown})"))
    return out
