"""Checking many catalog derivations at once, in worker processes (``--jobs N``).

Each derivation is checked on its own: its plan, points and search depend only on the
derivation and the options (the sampler is seeded per derivation), so a report does not
depend on which process checked it or on what was checked before.  The one thing a report
takes from the rest of the run, the verdict of a catalog lemma that a step cites (and so
its scope and its basis, :mod:`symbolic.basis`), is filled in after all reports are in, from
the whole run (:func:`derivations.lemma_verdicts.with_lemma_verdicts`).  Hence the
reports are the same for every ``jobs``, and come back in catalog order.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

from derivations.app.lifeline import die_with_parent
from derivations.catalog import get
from derivations.lemma_verdicts import with_lemma_verdicts
from numeric_checks import CheckOptions, check_derivation
from symbolic.derivation import Derivation
from symbolic.report import DerivationReport

__all__ = [
    "Progress",
    "check_many",
    "default_jobs",
    "expected_seconds",
    "longest_first",
    "stderr_counter",
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
