"""Catalog services: the verdicts of the catalog lemmas a proof cites, checked once per run,
and what a report takes from them (each lemma step's basis, the scope carried over, the
basis of the whole derivation).  The command line, the audit and the site use them; they
belong with the catalog, not with the application's process pool
(:mod:`derivations.app.parallel`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from derivations.catalog import catalog, get, lookup
from numeric_checks import CheckOptions, check_derivation
from numeric_checks.pipeline import basis
from symbolic.basis import lemma_closure, with_basis
from symbolic.derivation import Derivation, Justification, JustificationKind
from symbolic.report import DerivationReport, StepResult
from symbolic.scope import INSTANCE, Scope, with_scope
from symbolic.verdicts import Verdict

__all__ = [
    "LemmaVerdicts",
    "check_one",
    "declared_scope",
    "lemma_targets",
    "with_lemma_verdicts",
]


def with_lemma_verdicts(
    reports: Sequence[DerivationReport], derivations: dict[str, Derivation]
) -> list[DerivationReport]:
    """``reports`` with each step that cites a catalog lemma saying that lemma's verdict in
    this run (or "not checked here" when the lemma was not among the reports), each
    scope carrying over a lemma's instance (its scope in this run, else the one its
    derivation declares), and each basis computed from the lemmas' verdicts in this run (a
    lemma not among the reports is "not checked in this run", so the basis is from cited
    results: :func:`lemma_targets` adds the lemmas to a run)."""
    verdicts: dict[str, Verdict] = {r.id: r.verdict for r in reports}
    scopes: dict[str, Scope] = {r.id: Scope(r.scope, r.scope_note) for r in reports}

    def within(ident: str) -> Derivation | None:
        # The derivations given first (a run may check its own versions), then the catalog.
        return derivations.get(ident) or lookup(ident)

    def lemma_scope(ident: str) -> Scope | None:
        if ident in scopes:
            return scopes[ident]
        lemma = derivations.get(ident)
        if lemma is not None:  # the derivations given, not the catalog's own copy
            return Scope(INSTANCE, lemma.instance) if lemma.instance else None
        return declared_scope(ident)

    out = []
    for report in reports:
        d = derivations.get(report.id)
        if d is None:
            out.append(report)
            continue
        reasons = [j for _, _, _, j in d.links()]
        steps = tuple(
            _rebased(step, reason, verdicts)
            for step, reason in zip(report.steps, reasons, strict=True)
        )
        scoped = with_scope(d, dataclasses.replace(report, steps=steps), lemma_scope)
        scopes[report.id] = Scope(scoped.scope, scoped.scope_note)
        out.append(with_basis(d, scoped, within, verdicts.get))
    return out


def lemma_targets(targets: Sequence[Derivation]) -> list[Derivation]:
    """``targets`` followed by the catalog lemmas they rest on, transitively, that are not
    among them: what a run must check for every basis to rest on verdicts of that run
    (``check ID`` checks the lemmas below ``ID`` too, and reports ``ID``)."""
    given = {d.id: d for d in targets}
    extra: dict[str, Derivation] = {}
    for d in targets:
        for ident in lemma_closure(d, lambda i: given.get(i) or lookup(i)):
            if ident not in given and ident not in extra:
                found = lookup(ident)
                if found is not None:
                    extra[ident] = found
    return [*targets, *extra.values()]


def declared_scope(ident: str) -> Scope | None:
    """The scope a catalog derivation declares without being checked: an instance when its
    chain is one (``Derivation.instance``), else None (only a check can say more)."""
    if ident not in catalog():
        return None
    d = get(ident)
    return Scope(INSTANCE, d.instance) if d.instance else None


def _rebased(
    step: StepResult, reason: Justification | str, verdicts: dict[str, Verdict]
) -> StepResult:
    if not isinstance(reason, Justification) or reason.kind is not JustificationKind.LEMMA:
        return step
    return dataclasses.replace(step, grounds=basis(reason, step.symbolic, verdicts.get))


class LemmaVerdicts:
    """Verdicts of the catalog lemmas a step cites (``lemmas=`` of ``check_derivation``):
    those given as ``known`` (checked earlier in the run), the others checked on demand,
    once each; None for an id that is not in the catalog."""

    def __init__(
        self,
        options: CheckOptions,
        known: Mapping[str, Verdict] | None = None,
        scopes: Mapping[str, Scope] | None = None,
    ):
        self.options = options
        self.known: dict[str, Verdict] = dict(known or {})
        self.scopes: dict[str, Scope] = dict(scopes or {})

    def __call__(self, derivation_id: str) -> Verdict | None:
        if derivation_id not in self.known:
            if derivation_id not in catalog():
                return None
            # The lemmas below it are checked too (through ``lemmas=self``), so that a basis
            # computed from these verdicts rests on verdicts of this run all the way down.
            report = check_derivation(
                get(derivation_id), self.options, lemmas=self, lemma_scope=self.scope
            )
            self.known[derivation_id] = report.verdict
            self.scopes[derivation_id] = Scope(report.scope, report.scope_note)
        return self.known[derivation_id]

    def scope(self, derivation_id: str) -> Scope | None:
        """The lemma's scope: from its check when it was checked here, else the one its
        derivation declares (``lemma_scope=`` of ``check_derivation``)."""
        return self.scopes.get(derivation_id) or declared_scope(derivation_id)


def check_one(d: Derivation, lemmas: LemmaVerdicts) -> DerivationReport:
    """Check ``d`` alone (``explain``, ``verify``, a proof page): a step resting on a catalog
    lemma reports that lemma's verdict, and the basis rests on the verdicts of the lemmas
    below ``d``, transitively, each checked in this run once (unless ``lemmas`` knows it).
    A cycle of lemma uses is bad input, raised before anything is checked."""

    def within(ident: str) -> Derivation | None:
        return d if ident == d.id else lookup(ident)

    closure = lemma_closure(d, within)
    report = check_derivation(d, lemmas.options, lemmas=lemmas, lemma_scope=lemmas.scope)
    for ident in closure:
        lemmas(ident)
    return with_basis(d, report, within, lemmas)
