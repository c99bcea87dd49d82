"""Helpers shared by the audit of seed 003: running the engine on a claim, the finite-distribution
search, exact probabilities of small mechanisms, and the Outcome each check returns.

A check returns ``Outcome(True, ...)`` only when the method gave the verdict the entry records
(an engine verdict weaker than recorded is ``None``, so a drifting audit fails its test), and
``Outcome(False, ...)`` only on a counterexample that was computed.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp
from flint import arb

from derivations.app.claims import parse_claim
from numeric_checks import CheckOptions, check_claim
from numeric_checks.dp.finite_search import (
    FiniteStatement,
    all_of,
    hockey,
    leq,
    lt,
    search,
)
from symbolic.audit import AuditVerdict, Entry, Method, Outcome
from symbolic.verdicts import Verdict

__all__ = [
    "OPTIONS",
    "SEED_NUMBER",
    "all_hold",
    "dp_both_ways",
    "engine",
    "engine_claim",
    "entry",
    "exact_dists",
    "found",
    "loss_tail",
    "mp_str",
    "none_found",
    "nonempty_subsets",
    "not_checkable",
    "sym_zero",
]

OPTIONS = CheckOptions(points=60, search_budget=60)
"""Small budgets: every audit check re-runs in seconds."""

SEARCH_EXAMPLES = 200
"""Hypothesis draws per finite-distribution search (after the edge cases)."""


SEED_NUMBER = "003"


def entry(
    short: str,
    section: str,
    quote: str,
    claim: str,
    method: Method,
    verdict: AuditVerdict,
    detail: str,
    **fields: Any,
) -> Entry:
    """An audit entry of seed 003 with the id ``seed-003-<short>``."""
    return Entry.of(
        SEED_NUMBER,
        short,
        section=section,
        quote=quote,
        claim=claim,
        method=method,
        verdict=verdict,
        detail=detail,
        **fields,
    )


def not_checkable(short: str, section: str, quote: str, claim: str, why: str) -> Entry:
    """A statement that is not mathematical or too vague to check; ``why`` says which."""
    return entry(short, section, quote, claim, Method.NONE, AuditVerdict.NOT_CHECKABLE, why)


def engine(verdict: Verdict, evidence: str, want: Verdict) -> Outcome:
    """The Outcome of an engine verdict against the recorded one."""
    text = f"engine: {verdict.value}; {evidence}"
    if verdict is Verdict.REFUTED:
        return Outcome(False, text)
    if want is Verdict.REFUTED:
        return Outcome(None, f"expected a refutation; {text}")
    if verdict is want:
        return Outcome(True, text)
    return Outcome(None, f"recorded {want.value}, but {text}")


def engine_claim(toml: str, want: Verdict) -> Outcome:
    """Check a claim file's text with ``check_claim``."""
    result = check_claim(parse_claim(toml), OPTIONS)
    return engine(result.verdict, result.evidence, want)


def none_found(statement: FiniteStatement, examples: int = SEARCH_EXAMPLES) -> Outcome:
    """No counterexample among the edge cases and ``examples`` draws (evidence, not proof)."""
    cx = search(statement, max_examples=examples)
    if cx is not None:
        return Outcome(False, cx.describe())
    return Outcome(
        True,
        f"{statement.name}: no counterexample among the edge cases and {examples} Hypothesis "
        f"draws of distributions on {statement.outcomes[0]}..{statement.outcomes[1]} outcomes "
        "(exact rationals, Arb)",
    )


def found(statement: FiniteStatement, examples: int = SEARCH_EXAMPLES) -> Outcome:
    """A counterexample, shrunk and re-verified (``holds`` False), or None if none was found."""
    cx = search(statement, max_examples=examples)
    if cx is None:
        return Outcome(None, f"{statement.name}: no counterexample found")
    return Outcome(False, cx.describe())


def dp_both_ways(p: Sequence[Any], q: Sequence[Any], eps: Any, delta: Any) -> bool | None:
    """(eps, delta)-indistinguishable in both directions (the seed's definition, applied to
    the ordered pairs (x, x') and (x', x))."""
    return all_of(leq(hockey(p, q, eps), delta), leq(hockey(q, p, eps), delta))


def loss_tail(p: Sequence[Any], q: Sequence[Any], eps: Any) -> Any:
    """Pr_{y ~ P}[ln(P(y)/Q(y)) > eps] as a ball, or None where an outcome sits on the edge."""
    factor = arb(eps).exp()
    total = arb(0)
    for a, b in zip(p, q, strict=True):
        above = lt(factor * b, a)
        if above is None:
            return None
        if above:
            total += a
    return total


def nonempty_subsets(n: int) -> Iterator[tuple[int, ...]]:
    """Every nonempty subset of range(n)."""
    for size in range(1, n + 1):
        yield from itertools.combinations(range(n), size)


def exact_dists(count: int, outcomes: int, seed: int) -> list[tuple[Fraction, ...]]:
    """``count`` random distributions with rational weights 0..9 on ``outcomes`` outcomes
    (seeded; zero probabilities included)."""
    rng = random.Random(seed)
    out: list[tuple[Fraction, ...]] = []
    while len(out) < count:
        w = [rng.randint(0, 9) for _ in range(outcomes)]
        if sum(w):
            out.append(tuple(Fraction(x, sum(w)) for x in w))
    return out


def sym_zero(expr: sp.Expr) -> bool:
    """True when SymPy reduces ``expr`` to exactly 0."""
    return bool(sp.simplify(expr) == 0)


def mp_str(x: Any, digits: int = 6) -> str:
    return str(mpmath.nstr(x, digits))


def all_hold(checks: Mapping[str, Callable[[], Outcome]]) -> Outcome:
    """Run several checks; True if all hold, False if one is refuted, else None."""
    outs = {name: check() for name, check in checks.items()}
    detail = "; ".join(f"{name}: {o.detail}" for name, o in outs.items())
    values = [o.holds for o in outs.values()]
    if any(v is False for v in values):
        return Outcome(False, detail)
    return Outcome(True if all(v is True for v in values) else None, detail)
