"""Public entry points: :func:`check_derivation` and :func:`check_claim`.

A derivation or claim over indexed families of symbolic length goes to general mode
(:mod:`numeric_checks.general`), every other one to the pipeline
(:mod:`numeric_checks.pipeline`); both check it by cases where an equality hypothesis holds
by cases.  The whole check runs under the options' budget, and a report is scoped here,
whichever way it was built.
"""

from __future__ import annotations

import dataclasses

from numeric_checks.budget import deadline
from numeric_checks.general import check_general_claim, check_general_derivation, has_families
from numeric_checks.pipeline import (
    EngineInconsistency,
    LemmaVerdicts,
    check_link,
    check_plain_claim,
    check_plain_derivation,
)
from numeric_checks.plan import CheckOptions
from symbolic.derivation import Derivation
from symbolic.errors import InvalidInput
from symbolic.report import DerivationReport, StepResult
from symbolic.scope import LemmaScope, with_scope

__all__ = [
    "CheckOptions",
    "EngineInconsistency",
    "check_claim",
    "check_derivation",
    "check_link",
]


def check_claim(d: Derivation, options: CheckOptions | None = None) -> StepResult:
    """Check ``d.claim`` on its own (the ``dpderive claim`` verb: a claim typed from a
    book), with ``d``'s variables, hypotheses and definitions."""
    options = options or CheckOptions()
    with deadline(options.budget):
        if has_families(d):
            return check_general_claim(d, options)
        return check_plain_claim(d, options)


def check_derivation(
    d: Derivation,
    options: CheckOptions | None = None,
    *,
    lemmas: LemmaVerdicts | None = None,
    lemma_scope: LemmaScope | None = None,
) -> DerivationReport:
    """Check every link, the conclusion and the oracle of ``d``.  ``lemmas`` gives the
    verdicts of the catalog derivations that steps cite with ``by.lemma(id)``,
    ``lemma_scope`` their scopes (a lemma shown for an instance only makes ``d``'s scope
    an instance too)."""
    if not isinstance(d, Derivation):
        hint = (
            " (call .derive(id=..., title=..., variables=...) on it)" if hasattr(d, "steps") else ""
        )
        raise InvalidInput(f"check_derivation takes a Derivation, got {type(d).__name__}{hint}")
    options = options or CheckOptions()
    with deadline(options.budget):
        if has_families(d):
            # Indexed families: proofs on the general links, numbers on instances.
            report = check_general_derivation(d, options, lemmas)
        else:
            report = check_plain_derivation(d, options, lemmas)
    # Scoped here, whatever path built the report: the scope reads only the derivation, the
    # records and the lemmas' scopes.
    return with_scope(d, _as_written(d, report), lemma_scope)


def _as_written(d: Derivation, report: DerivationReport) -> DerivationReport:
    """``report`` with each step's text as its author wrote it (and its line), so that every
    output can give it back beside what was checked."""
    if len(report.steps) != len(d.steps) or not any(s.source or s.written for s in d.steps):
        return report
    steps = tuple(
        dataclasses.replace(r, source=s.source or s.written, line=s.line)
        for r, s in zip(report.steps, d.steps, strict=True)
    )
    return dataclasses.replace(report, steps=steps)
