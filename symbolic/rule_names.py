"""The names a step may cite as ``by.rule(NAME)`` (``by = "rule:NAME"`` in a proof file).

A cited name is what the report compares with the prover's trace ("proved by the cited
rule(s)" or "proved another way"), and the names of :data:`symbolic.rules.prover.CITED_RULES`
are tried first; a name the prover does not know could only ever read "proved another way",
so it is refused with the nearest names instead (issue 29: a typo passed with exit 0).

The names are the rule families of :mod:`symbolic.rules` as their traces word them, and the
named facts of :data:`symbolic.rules.lemmas.LEMMAS` that the nonlinear-arithmetic rule may
state (``exp tangent``: ``exp(a) >= 1 + a``).  ``tests/test_rule_names.py`` keeps this table
in step with those modules.  Names compare without regard to case or repeated spaces.

>>> unknown_rules(["Triangle  inequality", "exp tangent", "trinagle inequality"])
['trinagle inequality']
>>> near_rules("trinagle inequality")
['triangle inequality']
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from symbolic.errors import InvalidInput

__all__ = ["RULE_FAMILIES", "check_rule_names", "near_rules", "rule_names", "unknown_rules"]

MONOTONE_NAMES = ("exp", "log", "Phi", "PhiInv", "erf", "tanh", "sinh", "atan")
"""The functions :mod:`symbolic.rules.monotone` knows to be increasing."""

RULE_FAMILIES: dict[str, str] = {
    "assumptions": "the sign follows from the variables' declared domains",
    "hypothesis": "a hypothesis h >= 0, plus a term of known sign or times a positive factor",
    "positive factor": "c h >= 0 from h >= 0 when every factor of c is positive",
    "product of positive factors": "a product of nonnegative (positive) factors is so",
    **{
        f"monotonicity of {f}": f"{f}(b) - {f}(a) >= 0 from b - a >= 0 ({f} is increasing)"
        for f in MONOTONE_NAMES
    },
    "power of a positive base": "u**p >= 0 from u >= 0 for p > 0; log(b) >= 0 from b >= 1",
    "log tangent bound": "1 - 1/u <= log(u) <= u - 1 on every log term of a sum",
    "min bound": "min(a, b) <= a and max(a, b) >= a, termwise",
    "extremum cases": "r - c max(a_1, ..., a_n) >= 0 from r - c a_i >= 0 for every i",
    "triangle inequality": "|a + b| <= |a| + |b| (and |a| - |b| <= |a - b|)",
    "termwise": "a sum is nonnegative when every term is",
    "pairwise": "sum a_i - sum b_i >= 0 from a_i >= b_j for some pairing of the terms",
    "product bound": "prod x_i <= prod y_i from 0 <= x_i <= y_i factor by factor",
    "sign case split": "the goal in every sign case of the differences inside |.|, max, min",
    "products of factors of the same sign": "d C >= 0 when C has the known sign of d",
    "sum of hypotheses": "the goal is a positive combination of hypotheses plus a known sign",
    "convexity": "a function concave on an interval lies above its chord there (r ln r, ...)",
    "derivative rule": "f >= g on an interval from f(a) >= g(a) and the sign of (f - g)'",
    "nonlinear real arithmetic": "decided by z3's nlsat with the named facts of the functions",
    "linearity": "sums of symbolic length split and merged by linearity",
    "sum hypothesis": "a sum a hypothesis names replaced by its value (sum_i p_i = 1)",
    "constant summand": "a sum of a constant over i = 1..n is n times it",
}
"""The prover's rule families, by the words of their traces, with one line each."""


def _key(name: str) -> str:
    return " ".join(name.split()).lower()


def rule_names() -> dict[str, str]:
    """Every citable name with its one-line meaning: the rule families, then the named
    facts (imported here, not at module level: :mod:`symbolic.rules` loads z3)."""
    from symbolic.rules.lemmas import LEMMAS

    names = dict(RULE_FAMILIES)
    for lemma in LEMMAS:
        names.setdefault(lemma.name, f"the fact {lemma.text}")
    return names


def unknown_rules(names: Iterable[str]) -> list[str]:
    """Those of ``names`` that are not citable rule names."""
    known = {_key(n) for n in rule_names()}
    return [n for n in names if _key(n) not in known]


def near_rules(name: str, n: int = 3) -> list[str]:
    """The citable names closest to ``name`` (at most ``n``)."""
    by_key = {_key(k): k for k in rule_names()}
    return [by_key[k] for k in difflib.get_close_matches(_key(name), list(by_key), n, 0.6)]


def check_rule_names(names: Iterable[str]) -> None:
    """Raise :class:`InvalidInput` naming the first unknown rule, the nearest names and
    the whole list; nothing if every name is known."""
    bad = unknown_rules(names)
    if not bad:
        return
    near = near_rules(bad[0])
    hint = f"did you mean {' or '.join(repr(n) for n in near)}? " if near else ""
    raise InvalidInput(
        f"{bad[0]!r} is not a rule the prover knows; {hint}the rules are: "
        + ", ".join(rule_names())
        + " (`dpderive rules` says what each does)"
    )
