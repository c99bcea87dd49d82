"""A claim or derivation checked case by case, where an equality hypothesis needs cases.

``x*y == 0`` on the reals is ``x == 0`` or (``x != 0`` and ``y == 0``): no single variable can
be eliminated from it everywhere (:class:`symbolic.hypotheses.NeedsCases`).  The checker then
checks the claim once per case, with the case's hypotheses added (``x == 0``; ``x > 0``;
``x < 0``), and combines: a step is as strong as its weakest case (``refuted`` in one case
means refuted; ``proved`` needs every case proved), and its evidence names every case.  The
cases cover every point of the hypotheses, so a proof in each is a proof of the claim.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import TypeVar

from symbolic.derivation import Derivation
from symbolic.errors import EmptyDomain
from symbolic.evidence import InCases, Outcome, Split, words
from symbolic.hypotheses import MAX_CASES, Case, Contradiction, NeedsCases
from symbolic.report import CaseVerdict, DerivationReport, Route, StepResult
from symbolic.verdicts import weakest

__all__ = ["Heading", "by_cases", "combine_reports", "combine_steps", "with_case"]


Heading = Split
"""A case split (the name before issue 42's records)."""


R = TypeVar("R", StepResult, DerivationReport)


def with_case(d: Derivation, case: Case) -> Derivation:
    """``d`` with the case's hypotheses first (its equalities are then solved first)."""
    return dataclasses.replace(d, hypotheses=(*case.hypotheses, *d.hypotheses))


def by_cases(
    d: Derivation,
    split: NeedsCases,
    check: Callable[[Derivation], R],
    combine: Callable[[Heading, Sequence[tuple[str, R]]], R],
    _checked: list[int] | None = None,
) -> R:
    """``check`` run on each case of ``split`` (and on the cases of a case, at most
    :data:`~symbolic.hypotheses.MAX_CASES` checks in all: beyond, the split is refused as
    input, exit 2, with its message), combined by ``combine``."""
    checked = [0] if _checked is None else _checked
    results: list[tuple[str, R]] = []
    empty: list[str] = []
    for case in split.cases:
        sub = with_case(d, case)
        checked[0] += 1
        if checked[0] > MAX_CASES:
            raise split
        try:
            result = check(sub)
        except NeedsCases as inner:
            result = by_cases(sub, inner, check, combine, checked)
        except Contradiction:
            empty.append(case.label)  # shown empty exactly: no point to check
            continue
        results.append((case.label, result))
    if not results:
        raise EmptyDomain(
            f"every case of the equality hypothesis {split.equality} contradicts the other "
            "hypotheses: they are contradictory"
        )
    return combine(_heading(split, empty), results)


def _heading(split: NeedsCases, empty: Sequence[str]) -> Heading:
    eq = split.equality
    return Split(f"{eq.lhs} == {eq.rhs}", str(split.variable), split.how, tuple(empty))


def combine_steps(heading: Heading, results: Sequence[tuple[str, StepResult]]) -> StepResult:
    """One step from its cases: the weakest case's record, its verdict the weakest, its
    evidence every case's verdict and evidence."""
    verdict = weakest(r.verdict for _, r in results)
    base = next(i for i, (_, r) in enumerate(results) if r.verdict is verdict)
    symbolic = None
    if all(r.symbolic for _, r in results):
        symbolic = "; ".join(f"case {label}: {r.symbolic}" for label, r in results)
    said = InCases(
        heading,
        cases=tuple((label, Outcome(r.verdict, r.said)) for label, r in results),
        base=base,
    )
    return dataclasses.replace(
        results[base][1],
        verdict=verdict,
        said=said,
        symbolic=symbolic,
        route=Route.CASES,
        cases=tuple(CaseVerdict(label, r.verdict) for label, r in results),
    )


def combine_reports(
    heading: Heading, results: Sequence[tuple[str, DerivationReport]]
) -> DerivationReport:
    """One report from its cases, step by step (every case has the same steps)."""
    reports = [r for _, r in results]
    labels = [label for label, _ in results]
    steps = tuple(
        combine_steps(heading, list(zip(labels, column, strict=True)))
        for column in zip(*(r.steps for r in reports), strict=True)
    )
    conclusion = combine_steps(heading, [(label, r.conclusion) for label, r in results])
    verdict = weakest(r.verdict for r in reports)
    base = next(r for r in reports if r.verdict is verdict)
    notes = [words(heading)]
    notes += [f"case {label}: {note}" for label, r in results for note in r.notes]
    return dataclasses.replace(
        base, verdict=verdict, steps=steps, conclusion=conclusion, notes=tuple(notes)
    )
