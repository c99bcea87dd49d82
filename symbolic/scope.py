"""The scope of a verdict: whether it covers the statement in general or an instance only.

A verdict says how strongly a chain was shown; the scope says *what* was shown.  It is
computed, never typed as a verdict:

* ``instance`` when the derivation declares that its chain is an instance of the source's
  statement (``Derivation.instance``: "for n = 3 outcomes only"), when the verdict rests on a
  certificate whose box does not cover the whole domain ("on the box eps in [1e-6, 5]"), or
  when a step rests on a catalog lemma that is itself shown for an instance only;
* ``general`` otherwise, with a note computed from the variables' domains ("for all
  eps, Delta > 0; z real").  An integer variable that is a length (the upper limit of a
  ``Sum`` or ``Product``, or the range of an indexed family) reads "for all n >= 1".

>>> import sympy as sp
>>> from symbolic.domains import Variable, parse_domain
>>> n, i = sp.Symbol("n", integer=True, positive=True), sp.Symbol("i", integer=True)
>>> variables = [Variable("n", parse_domain("Z>=1")), Variable("eps", parse_domain("(0, oo)"))]
>>> general_note(variables, lengths={n})
'for all n >= 1; eps > 0'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import NamedTuple

import sympy as sp

from symbolic.derivation import Derivation, JustificationKind
from symbolic.domains import Domain, Variable
from symbolic.exact_numbers import compare
from symbolic.report import CertificateRecord, CertificateStatus, DerivationReport, StepResult
from symbolic.verdicts import Verdict

__all__ = [
    "GENERAL",
    "INSTANCE",
    "LemmaScope",
    "Scope",
    "box_note",
    "general_note",
    "length_symbols",
    "scope_of",
    "tails_note",
    "with_scope",
]

GENERAL = "general"
INSTANCE = "instance"


class Scope(NamedTuple):
    """``scope`` is ``"general"`` or ``"instance"``; ``note`` says over what, in a few words."""

    scope: str
    note: str


LemmaScope = Callable[[str], "Scope | None"]
"""The scope of a catalog lemma by id (None when unknown)."""


def scope_of(
    d: Derivation,
    results: Sequence[StepResult] = (),
    *,
    verdict: Verdict | None = None,
    lemma_scope: LemmaScope | None = None,
) -> Scope:
    """The scope of the verdict ``verdict`` on ``d`` given its step records ``results``
    (the steps, and the conclusion).  Certificates count only for a ``certified`` verdict:
    a weaker verdict does not rest on them, and a stronger one needs none."""
    if verdict is None:
        verdict = min((r.verdict for r in results), key=lambda v: v.rank, default=None)
    notes: list[str] = []
    whole: list[str] = []
    if d.instance:
        notes.append(d.instance)
    if verdict is Verdict.CERTIFIED:
        certificates = [r.certificate for r in results if r.verdict is Verdict.CERTIFIED]
        notes += box_notes(d.variables, [c for c in certificates if c is not None])
        whole = [tails_note(c) for c in certificates if c is not None and c.tails]
    if lemma_scope is not None:
        notes += _lemma_notes(d, lemma_scope)
    if notes:
        return Scope(INSTANCE, "; ".join(dict.fromkeys(notes)))
    general = general_note(d.variables, lengths=length_symbols(d))
    return Scope(GENERAL, "; ".join(dict.fromkeys([general, *whole])))


def with_scope(
    d: Derivation, report: DerivationReport, lemma_scope: LemmaScope | None = None
) -> DerivationReport:
    """``report`` (of ``d``) with its ``scope`` and ``scope_note`` computed from its own
    records: every path that checks a derivation ends here."""
    scope = scope_of(
        d, (*report.steps, report.conclusion), verdict=report.verdict, lemma_scope=lemma_scope
    )
    return dataclasses.replace(report, scope=scope.scope, scope_note=scope.note)


def _lemma_notes(d: Derivation, lemma_scope: LemmaScope) -> list[str]:
    """A step resting on a lemma shown for an instance only carries that instance over."""
    out = []
    for step in d.steps:
        why = step.justification
        if why.kind is not JustificationKind.LEMMA or not why.lemma:
            continue
        scope = lemma_scope(why.lemma)
        if scope is not None and scope.scope == INSTANCE:
            out.append(f"rests on {why.lemma}, {scope.note}")
    return out


# -- certificates ---------------------------------------------------------------------------


def box_notes(
    variables: Sequence[Variable], certificates: Iterable[CertificateRecord]
) -> list[str]:
    """One note per distinct box among ``certificates`` that does not cover the whole
    domain (the catalog's steps share one box, so usually one note)."""
    out: list[str] = []
    for c in certificates:
        if c.status is not CertificateStatus.CERTIFIED or c.whole_domain:
            continue
        note = box_note(variables, c.box)
        if note not in out:
            out.append(note)
    return out


def tails_note(c: CertificateRecord) -> str:
    """``on the whole domain: box x in [0, 5] certified by Arb, x >= 5 proved by the
    rules``: what covered which region of a certificate with proved tails."""
    box = ", ".join(f"{n} in [{_number(lo)}, {_number(hi)}]" for n, (lo, hi) in c.box.items())
    tails = " and ".join(t.region for t in c.tails)
    return f"on the whole domain: box {box} certified by Arb, {tails} proved by the rules"


def box_note(variables: Sequence[Variable], box: Mapping[str, tuple[float, float]]) -> str:
    """``on the box eps in [1e-6, 5]``: the sides of ``box`` that cut a variable's domain
    (a side spanning an integer variable's whole finite domain says nothing and is left
    out).

    >>> from symbolic.domains import parse_domain
    >>> vs = [Variable("eps", parse_domain("(0, oo)")), Variable("c", parse_domain("Z in [1, 50]"))]
    >>> box_note(vs, {"eps": (1e-6, 5.0), "c": (1.0, 50.0)})
    'on the box eps in [1e-6, 5]'
    """
    domains = {v.name: v.domain for v in variables}
    sides = []
    for name, (lo, hi) in box.items():
        dom = domains.get(name)
        if dom is not None and _covers(dom, float(lo), float(hi)):
            continue
        sides.append(f"{name} in [{_number(lo)}, {_number(hi)}]")
    if not sides:
        return "on a box of the domain"
    return "on the box " + ", ".join(sides)


def _covers(dom: Domain, lo: float, hi: float) -> bool:
    return bool(
        dom.lower.is_finite
        and dom.upper.is_finite
        and compare(sp.Rational(lo), dom.lower) in (-1, 0)
        and compare(sp.Rational(hi), dom.upper) in (0, 1)
    )


def _number(x: float) -> str:
    """A box end as a reader writes it: ``1e-6``, ``0.999999``, ``5``."""
    text = f"{float(x):.6g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}e{int(exponent)}"
    return text


# -- the general note -----------------------------------------------------------------------


def length_symbols(d: Derivation) -> set[sp.Symbol]:
    """The integer variables of ``d`` that are lengths: the upper limit of a ``Sum`` or
    ``Product`` anywhere in the derivation, or named in an indexed family's range.

    A family ``p = "(0, 1) for i in 1..n"`` (:mod:`symbolic.families`) makes ``n`` a length."""
    integers = {v.symbol for v in d.variables if v.domain.kind == "integer"}
    exprs: list[sp.Basic] = [d.claim.lhs, d.claim.rhs, *d.hypotheses]
    exprs += [s.expr for s in d.steps] + [value for _, value in d.defs]
    found: set[sp.Symbol] = set()
    for expr in exprs:
        for node in sp.sympify(expr).atoms(sp.Sum, sp.Product):
            for limit in node.limits:
                if len(limit) == 3:
                    found |= sp.sympify(limit[2]).free_symbols & integers
    for v in d.variables:
        if v.family is not None:
            found |= set(v.family.lengths) & integers
    return found


def general_note(variables: Sequence[Variable], *, lengths: Iterable[sp.Symbol] = ()) -> str:
    """``for all n >= 1; eps, Delta > 0; delta in (0, 1)``: the variables grouped by domain,
    lengths first.

    >>> from symbolic.domains import parse_domain
    >>> general_note([Variable("x", parse_domain("R")), Variable("k", parse_domain("Z>=2"))])
    'for all x real; integers k >= 2'
    """
    length_names = {s.name for s in lengths}
    groups: dict[str, list[str]] = {}
    order: list[tuple[bool, str]] = []
    for v in variables:
        phrase = _phrase(v.domain)
        key = ("L" if v.name in length_names else "V") + phrase
        if key not in groups:
            groups[key] = []
            order.append((v.name in length_names, key))
        # A family's elements lie in its domain: "p[i], q[i] in (0, 1)".
        groups[key].append(v.name if v.family is None else f"{v.name}[{v.family.index}]")
    if not order:
        return "a statement without variables"
    ordered = [key for is_len, key in order if is_len] + [
        key for is_len, key in order if not is_len
    ]
    parts = []
    for key in ordered:
        names, phrase = ", ".join(groups[key]), key[1:]
        if key[0] == "V" and "(integer)" in phrase:
            parts.append(f"integers {names} {phrase.replace(' (integer)', '')}")
        else:
            parts.append(f"{names} {phrase.replace(' (integer)', '')}")
    return "for all " + "; ".join(parts)


def _phrase(dom: Domain) -> str:
    """What a variable's domain says after its name: ``> 0``, ``real``, ``in (0, 1]``."""
    lo, hi = dom.lower, dom.upper
    if dom.kind == "integer":
        if lo.is_infinite and hi.is_infinite:
            return "integer"
        if hi.is_infinite:
            return f">= {lo} (integer)"
        if lo.is_infinite:
            return f"<= {hi} (integer)"
        return f"in {{{lo}, ..., {hi}}}"
    if lo.is_infinite and hi.is_infinite:
        return "real"
    if hi.is_infinite:
        return f"{'>' if dom.lower_open else '>='} {lo}"
    if lo.is_infinite:
        return f"{'<' if dom.upper_open else '<='} {hi}"
    return f"in {dom}"
