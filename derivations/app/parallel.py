"""Checking many catalog derivations at once, in worker processes (``--jobs N``).

Each derivation is checked on its own: its plan, points and search depend only on the
derivation and the options (the sampler is seeded per derivation), so a report does not
depend on which process checked it or on what was checked before.  The one thing a report
takes from the rest of the run, the verdict of a catalog lemma that a step cites (and so
its scope and its basis, :mod:`symbolic.basis`), is filled in after all reports are in, from
the whole run (:func:`with_lemma_verdicts`).  Hence the
reports are the same for every ``jobs``, and come back in catalog order.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

from derivations.app.lifeline import die_with_parent
from derivations.catalog import catalog, get, lookup
from numeric_checks import CheckOptions, check_derivation
from numeric_checks.check import basis
from symbolic.basis import lemma_closure, with_basis
from symbolic.derivation import Derivation, Justification, JustificationKind
from symbolic.report import DerivationReport, StepResult
from symbolic.scope import INSTANCE, Scope, with_scope
from symbolic.verdicts import Verdict

__all__ = [
    "LemmaVerdicts",
    "Progress",
    "check_many",
    "check_one",
    "declared_scope",
    "default_jobs",
    "expected_seconds",
    "lemma_targets",
    "longest_first",
    "stderr_counter",
    "with_lemma_verdicts",
]

Progress = Callable[[int, int, str], None]
"""Called as ``(done, total, id)`` when a derivation's report is in."""


def default_jobs() -> int:
    """The cores this process may run on (all of them unless restricted)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


_FORKED: Sequence[Derivation] = ()
"""The derivations of the running :func:`check_many`, which forked workers inherit."""


def _check_at(index: int, derivation_id: str, options: CheckOptions) -> DerivationReport:
    # Derivations hold oracles and compiled closures that do not pickle: a forked worker
    # takes the derivation from the memory it inherited, a spawned one rebuilds it from
    # the catalog by id.
    d = _FORKED[index] if index < len(_FORKED) else get(derivation_id)
    return check_derivation(d, options)


def check_many(
    targets: Sequence[Derivation],
    options: CheckOptions,
    jobs: int = 1,
    progress: Progress | None = None,
) -> list[DerivationReport]:
    """Check ``targets`` with ``jobs`` worker processes (1: in this process) and return
    their reports in the order given, with lemma verdicts filled in.  Ids must be distinct;
    where processes cannot fork, the targets must be catalog derivations."""
    if jobs < 1:
        raise ValueError(f"jobs must be >= 1, got {jobs}")
    total = len(targets)
    reports: dict[str, DerivationReport] = {}
    if jobs == 1 or total <= 1:
        for d in targets:
            reports[d.id] = check_derivation(d, options)
            if progress:
                progress(len(reports), total, d.id)
    else:
        # fork: the workers inherit the imported SymPy and catalog instead of importing
        # them again (about a second each); spawn where fork does not exist.
        global _FORKED
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        context = multiprocessing.get_context(method)
        _FORKED = targets if method == "fork" else ()
        try:
            with ProcessPoolExecutor(
                max_workers=min(jobs, total),
                mp_context=context,
                initializer=die_with_parent,  # no orphaned workers (issue 41)
            ) as pool:
                pending: dict[Future[DerivationReport], str] = {
                    pool.submit(_check_at, i, targets[i].id, options): targets[i].id
                    for i in longest_first(targets)
                }
                while pending:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for future in done:
                        ident = pending.pop(future)
                        reports[ident] = future.result()
                        if progress:
                            progress(len(reports), total, ident)
        finally:
            _FORKED = ()
    ordered = [reports[d.id] for d in targets]
    return with_lemma_verdicts(ordered, {d.id: d for d in targets})


EXPECTED_SECONDS: Mapping[str, float] = {
    "numeric-sparse-privacy-approx": 7.5,
    "gdp-gaussian-mechanism": 6.0,
    "numeric-sparse-accuracy-approx-seed": 5.0,
    "classical-gaussian-mechanism": 5.0,
    "kl-bound": 4.5,
    "gdp-clt-berry-esseen": 3.5,
    "eps-tradeoff-kappa3-bar": 3.5,
    "gdp-to-dp": 3.5,
    "numeric-sparse-accuracy-approx": 3.5,
    "numeric-sparse-accuracy-pure": 2.5,
    "gdp-composition": 2.0,
    "gdp-group-privacy": 2.0,
    "kl-bound-tight": 2.0,
    "basic-composition-seed": 2.0,
    "numeric-sparse-accuracy-pure-seed": 1.5,
    "exponential-mechanism": 1.5,
}
"""Rough CPU seconds of the catalog's slowest checks (measured on a quiet 2-core machine,
session of issues 23-25), for the order in which they are handed to the workers only: a
wrong or missing figure costs wall time, never a different report."""


def expected_seconds(d: Derivation) -> float:
    """The cost :func:`longest_first` sorts by: the measured figure when there is one, else
    a guess from the derivation's shape (general mode over families checks several instances
    and runs the proofs on top; an oracle adds its own computation)."""
    if d.id in EXPECTED_SECONDS:
        return EXPECTED_SECONDS[d.id]
    guess = 0.5
    if any(v.family is not None for v in d.variables):
        guess += 2.0
    if d.oracle is not None:
        guess += 1.0
    return guess


def longest_first(targets: Sequence[Derivation]) -> list[int]:
    """The indices of ``targets``, the longest expected check first (ties in the order
    given).  Handing the longest jobs out first (Graham's LPT rule) keeps one worker from
    starting a long check while the other has nothing left: in catalog order the slowest
    derivations sat in the middle and the last worker finished seconds after the first."""
    return sorted(range(len(targets)), key=lambda i: -expected_seconds(targets[i]))


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
    return dataclasses.replace(step, basis=basis(reason, step.symbolic, verdicts.get))


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


def stderr_counter(enabled: bool) -> Progress | None:
    """A one-line ``[done/total]`` counter on a terminal's stderr (None when stderr is not a
    terminal or ``enabled`` is false)."""
    if not enabled or not sys.stderr.isatty():
        return None

    def show(done: int, total: int, ident: str) -> None:
        end = "\r\033[K" if done == total else ""
        sys.stderr.write(f"\r\033[K[{done}/{total}] {ident} done{end}")
        sys.stderr.flush()

    return show
