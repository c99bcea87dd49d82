"""``--jobs``: the same reports for every number of worker processes, in catalog order, with
the verdicts of cited lemmas taken from the whole run."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest

from derivations.app.cli import main
from derivations.app.parallel import check_many
from derivations.catalog import get
from derivations.lemma_verdicts import with_lemma_verdicts
from numeric_checks import CheckOptions
from symbolic.report import DerivationReport, StepResult
from symbolic.verdicts import Verdict

# Fast derivations, one of them an erratum (refuted), so that a refutation crosses the
# process boundary too.
IDS = ("basic-composition", "basic-composition-seed", "eps-tradeoff-kappa2")
FAST = CheckOptions(points=12, search_budget=20)


def _comparable(report: DerivationReport) -> Any:
    """A report without what depends on the clock (seconds spent, also inside evidence
    texts, and the timing note)."""

    def clean(value: Any) -> Any:
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return {
                f.name: clean(getattr(value, f.name))
                for f in dataclasses.fields(value)
                if f.name not in ("seconds", "notes")
            }
        if isinstance(value, tuple | list):
            return [clean(v) for v in value]
        if isinstance(value, str):
            return re.sub(r"\d+(\.\d+)? s\b", "<t> s", value)
        return value

    return clean(report)


@pytest.fixture(scope="module")
def serial() -> list[DerivationReport]:
    return check_many([get(i) for i in IDS], FAST, jobs=1)


def test_reports_identical_for_every_jobs(serial: list[DerivationReport]) -> None:
    parallel = check_many([get(i) for i in IDS], FAST, jobs=2)
    assert [r.id for r in parallel] == list(IDS)
    assert [_comparable(r) for r in parallel] == [_comparable(r) for r in serial]
    assert serial[1].verdict is Verdict.REFUTED  # the erratum, refuted in a worker too


def test_progress_reports_each_derivation_once() -> None:
    seen: list[tuple[int, int, str]] = []
    check_many([get(i) for i in IDS[:2]], FAST, jobs=2, progress=lambda *a: seen.append(a))
    assert sorted(s[2] for s in seen) == sorted(IDS[:2])
    assert sorted(s[0] for s in seen) == [1, 2] and {s[1] for s in seen} == {2}


def test_jobs_must_be_positive() -> None:
    with pytest.raises(ValueError, match="jobs"):
        check_many([get(IDS[0])], FAST, jobs=0)


def test_cli_refuses_zero_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", IDS[0], "--jobs", "0"]) == 2
    assert "must be >= 1" in capsys.readouterr().err


def test_lemma_verdict_comes_from_the_whole_run() -> None:
    """A step citing a lemma says the lemma's verdict when the lemma is in the run, whatever
    the order or the process that checked it; "not checked here" when it is not."""
    d = get("advanced-composition")
    lemma_step = next(
        i for i, (_, _, _, j) in enumerate(d.links()) if getattr(j, "lemma", None) == "kl-bound"
    )
    steps = tuple(
        StepResult(i + 1, "a", "=", "b", "why", Verdict.PROVED, "", symbolic="algebra")
        for i in range(len(d.links()))
    )
    report = DerivationReport(d.id, d.title, str(d.source), Verdict.PROVED, steps, steps[0])
    lemma = dataclasses.replace(report, id="kl-bound", verdict=Verdict.CHECKED)

    alone = with_lemma_verdicts([report], {d.id: d})[0]
    assert "kl-bound (not checked here)" in alone.steps[lemma_step].basis
    together = with_lemma_verdicts([report, lemma], {d.id: d})[0]
    assert "kl-bound (checked)" in together.steps[lemma_step].basis
    # Only the steps citing a lemma change; the kl-bound step only with kl-bound's verdict.
    cites = {i for i, (_, _, _, j) in enumerate(d.links()) if getattr(j, "lemma", None)}
    others = [s for i, s in enumerate(together.steps) if i not in cites]
    assert others == [s for i, s in enumerate(report.steps) if i not in cites]
    assert [s for i, s in enumerate(together.steps) if i != lemma_step] == [
        s for i, s in enumerate(alone.steps) if i != lemma_step
    ]


def test_a_derivation_outside_the_catalog_is_checked_in_a_worker() -> None:
    """Workers take the derivation itself (inherited), not its id: a user's proof or a
    mutant, unknown to the catalog, is checked as given."""
    d = get("basic-composition")
    eps1 = d.symbols["eps1"]
    mutant = d.with_step(len(d.steps) - 1, expr=d.steps[-1].expr.subs(eps1, eps1 / 2))
    mutant = mutant.replace(id="basic-composition-mutant-not-in-catalog")
    reports = check_many([mutant, get(IDS[2])], FAST, jobs=2)
    assert [r.id for r in reports] == [mutant.id, IDS[2]]
    assert reports[0].verdict is Verdict.REFUTED


def test_longest_first_hands_out_the_slowest_checks_first() -> None:
    from derivations.app.parallel import EXPECTED_SECONDS, expected_seconds, longest_first

    targets = [get(i) for i in ("laplace-ratio", "kl-bound", "basic-composition", "gdp-to-dp")]
    order = [targets[i].id for i in longest_first(targets)]
    assert order[:2] == ["kl-bound", "gdp-to-dp"]  # measured: 4.5 s and 3.5 s
    # Unmeasured derivations keep their catalog order among equals (a stable sort).
    assert order[2:] == ["laplace-ratio", "basic-composition"]
    assert sorted(order) == sorted(t.id for t in targets)  # a permutation: none lost
    # Without a figure, a derivation over families is guessed dearer than a plain one.
    plain = dataclasses.replace(get("basic-composition"), id="not-measured")
    families = dataclasses.replace(get("kl-bound"), id="not-measured-either")
    assert "not-measured" not in EXPECTED_SECONDS
    assert expected_seconds(families) > expected_seconds(plain)


def test_tuned_collector_still_collects_cycles() -> None:
    import gc
    import weakref

    from derivations.app.watchdog import YOUNG_COLLECTION, tune_collector

    before = gc.get_threshold()
    try:
        tune_collector()
        assert gc.get_threshold()[0] == YOUNG_COLLECTION
        assert gc.get_freeze_count() > 0

        class Node:
            other: object = None

        a, b = Node(), Node()
        a.other, b.other = b, a  # a reference cycle, freed only by the collector
        alive = weakref.ref(a)
        del a, b
        gc.collect()
        assert alive() is None
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
