"""Running the checks of the seeds kept as data, and building their audit entries.

:func:`run_seed` runs every check of a seed once, catalog derivations in one run (a
shared :class:`~derivations.lemma_verdicts.LemmaVerdicts`, so a lemma is checked once and
each basis rests on verdicts of that run), and returns the results as plain data;
:func:`write_results` stores them next to the data file (``seed_NNN.results.json``), which
is what ``dpderive audit`` reads: a check can take seconds, the audit's listing none.  The
contract test re-runs every check and fails when the stored results are stale.

:func:`entries_of` turns the data and the results into :class:`~symbolic.audit.Entry`
values: the verdict, scope and basis are the check's; an entry is an erratum exactly when
its check refuted it at a point inside the seed's standing conventions.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from derivations.audit import experiments
from derivations.audit.spec import CheckSpec, EntrySpec, SeedSpec, convention_for
from derivations.catalog import IDS, get
from derivations.lemma_verdicts import LemmaVerdicts, check_one
from numeric_checks import CheckOptions, check_claim
from symbolic.audit import AuditVerdict, Entry, Erratum, Method, Outcome
from symbolic.basis import basis_phrase, claim_basis
from symbolic.errors import InvalidInput
from symbolic.evidence import words
from symbolic.report import DerivationReport
from symbolic.scope import scope_of
from symbolic.verdicts import Verdict, weakest

__all__ = [
    "OPTIONS",
    "Checks",
    "entries_of",
    "read_results",
    "results_path",
    "run_check",
    "run_seed",
    "write_results",
]

OPTIONS = CheckOptions(seed=0)
"""The engine's options for every audit check (the defaults of ``dpderive check``)."""

_METHODS = {
    "finite-distribution search": Method.FINITE_SEARCH,
    "exact computation": Method.EXACT,
    "simulation": Method.SIMULATION,
}

Record = dict[str, Any]


def _scope(scope: str, note: str) -> str:
    return f"{scope}: {note}" if note else scope


def _record(
    verdict: Verdict,
    scope: str,
    evidence: str,
    basis: str = "",
    point: Mapping[str, Any] | None = None,
    witness: tuple[tuple[Fraction, ...], ...] = (),
) -> Record:
    return {
        "verdict": verdict.value,
        "scope": scope,
        "basis": basis,
        "evidence": evidence,
        "point": {k: str(v) for k, v in (point or {}).items()},
        "witness": [[str(x) for x in d] for d in witness],
    }


class _Catalog:
    """Catalog reports of one run, each derivation checked once."""

    def __init__(self) -> None:
        self.lemmas = LemmaVerdicts(OPTIONS)
        self.reports: dict[str, DerivationReport] = {}

    def __call__(self, ident: str) -> DerivationReport:
        if ident not in self.reports:
            self.reports[ident] = check_one(get(ident), self.lemmas)
        return self.reports[ident]


def _catalog_record(spec: CheckSpec, run: _Catalog) -> Record:
    reports = [run(i) for i in spec.target]
    if spec.step is not None:
        report = reports[0]
        if not 1 <= spec.step <= len(report.steps):
            raise InvalidInput(f"{report.id} has no step {spec.step}")
        step = report.steps[spec.step - 1]
        point = step.counterexample.point if step.counterexample else None
        evidence = f"{report.id}, step {spec.step} ({step.justification}): {step.evidence}"
        if step.counterexample and step.verdict is not Verdict.REFUTED:
            # A refuted step's evidence names its counterexample; any other does not.
            evidence += f"; counterexample {words(step.counterexample)}"
        return _record(
            step.verdict,
            _scope(report.scope, report.scope_note),
            evidence,
            step.basis,
            point,
        )
    verdict = weakest(r.verdict for r in reports)
    weakest_report = next(r for r in reports if r.verdict is verdict)
    shown = "; ".join(
        f"{r.id}: {r.verdict.value} ({len(r.steps)} steps"
        + (f", {phrase}" if (phrase := basis_phrase(r.basis, r.rests_on)) else "")
        + ")"
        for r in reports
    )
    evidence, point = f"catalog {shown}", None
    if verdict is Verdict.REFUTED:
        # The refutation as the engine found it: the first refuted step, else the oracle.
        r = weakest_report
        failing = next((s for s in r.steps if s.verdict is Verdict.REFUTED), None)
        if failing is not None:
            evidence += f"; {r.id} step {failing.index}: {failing.evidence}"
            point = failing.counterexample.point if failing.counterexample else None
        if r.oracle is not None and r.oracle.agrees is False:
            evidence += f"; oracle {r.oracle.name}: {r.oracle.detail}"
            if r.oracle.counterexample and point is None:
                point = r.oracle.counterexample
                evidence += " at " + ", ".join(f"{k} = {v}" for k, v in point.items())
    return _record(
        verdict,
        _scope(weakest_report.scope, weakest_report.scope_note),
        evidence,
        basis_phrase(weakest_report.basis, weakest_report.rests_on),
        point,
    )


def _file_record(spec: CheckSpec, directory: Path) -> Record:
    # The claim/proof readers are the CLI's: an audit file is checked exactly like
    # `dpderive claim FILE` or `dpderive verify FILE`.
    from symbolic.readers.claim_files import load_claim
    from symbolic.readers.proof_files import load_proof

    path = directory / spec.target[0]
    if spec.kind == "claim":
        d = load_claim(path)
        result = check_claim(d, OPTIONS)
        scope = scope_of(d, (result,))
        point = result.counterexample.point if result.counterexample else None
        evidence = f"{spec.target[0]} checked as `dpderive claim`: {result.evidence}"
        basis = claim_basis(result.verdict)
        return _record(result.verdict, _scope(*scope), evidence, basis.basis, point)
    report = check_one(load_proof(path, IDS), LemmaVerdicts(OPTIONS))
    failing = next((s for s in report.steps if s.verdict is Verdict.REFUTED), None)
    point = failing.counterexample.point if failing and failing.counterexample else None
    steps = ", ".join(s.verdict.value for s in report.steps)
    return _record(
        report.verdict,
        _scope(report.scope, report.scope_note),
        f"{spec.target[0]} checked as `dpderive verify`: steps {steps}",
        basis_phrase(report.basis, report.rests_on),
        point,
    )


def run_check(spec: CheckSpec, directory: Path, run: _Catalog | None = None) -> Record:
    """Run one check and return its record (verdict, scope, basis, evidence, point)."""
    if spec.kind == "catalog":
        return _catalog_record(spec, run or _Catalog())
    if spec.kind in ("claim", "proof"):
        return _file_record(spec, directory)
    result = experiments.run(spec.target[0], spec.params)
    return _record(result.verdict, result.scope, result.evidence, "", result.point, result.witness)


class Checks:
    """The checks of one run of the audit, each distinct check run once: the same
    derivation, file or experiment with the same parameters is quoted by several entries
    and corrections (57 of the seeds' 247 checks repeat another), and every check is
    deterministic at :data:`OPTIONS`, so a repeat gets a copy of the first record.  One
    instance may serve several seeds: a file is keyed by its path."""

    def __init__(self) -> None:
        self.catalog = _Catalog()
        self._records: dict[tuple[str, ...], Record] = {}

    def __call__(self, spec: CheckSpec, directory: Path) -> Record:
        key = (
            spec.kind,
            *spec.target,
            str(spec.step),
            json.dumps(spec.params, sort_keys=True, default=str),
            str(directory.resolve()) if spec.kind in ("claim", "proof") else "",
        )
        if key not in self._records:
            self._records[key] = run_check(spec, directory, self.catalog)
        return copy.deepcopy(self._records[key])


def run_seed(seed: SeedSpec, checks: Checks | None = None) -> dict[str, Record]:
    """Entry id -> its check's record, with the records of its erratum's corrections
    (``checks``: a run shared with other seeds, else one of this seed's own)."""
    run = checks if checks is not None else Checks()
    out: dict[str, Record] = {}
    for e in seed.entries:
        if e.check is None:
            continue
        record = run(e.check, seed.directory)
        if e.erratum is not None:
            record["corrections"] = [run(c, seed.directory) for c in e.erratum.correction_checks]
        out[e.id] = record
    return out


def results_path(seed: SeedSpec) -> Path:
    return seed.directory / f"seed_{seed.seed}.results.json"


def write_results(seed: SeedSpec, results: Mapping[str, Record]) -> Path:
    path = results_path(seed)
    path.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def read_results(seed: SeedSpec) -> dict[str, Record]:
    path = results_path(seed)
    if not path.exists():
        raise InvalidInput(f"{path} is missing: run `python3 -m derivations.audit.docs`")
    data: dict[str, Record] = json.loads(path.read_text(encoding="utf-8"))
    return data


def outside_conventions(
    seed: SeedSpec, point: Mapping[str, str], ranges: Mapping[str, Any] | None = None
) -> list[str]:
    """The standing conventions of ``seed`` (or the given ``ranges``, e.g. the realistic
    ones) that the refuting ``point`` violates."""
    out = []
    for name, value in point.items():
        c = convention_for(name, seed.conventions if ranges is None else ranges)
        try:
            x = Fraction(value)
        except (ValueError, ZeroDivisionError):
            continue  # not a plain number (an expression): no convention is about it
        if c is not None and not c.admits(x):
            out.append(f"{name} = {value} outside {c.show()}")
    return out


def _method(spec: CheckSpec | None) -> Method:
    if spec is None:
        return Method.NONE
    if spec.kind == "experiment":
        return _METHODS[experiments.topic(spec.target[0])]
    return Method.DERIVATION


def _derivations(e: EntrySpec) -> tuple[str, ...]:
    ids = list(e.check.target) if e.check and e.check.kind == "catalog" else []
    if e.erratum is not None:
        ids += [d for d in (e.erratum.as_written, e.erratum.corrected) if d]
    return tuple(dict.fromkeys(ids))


def _correction(records: list[Record]) -> Outcome:
    holds = all(r["verdict"] in ("proved", "certified", "checked") for r in records)
    return Outcome(holds, "; ".join(f"{r['verdict']}: {r['evidence']}" for r in records))


def _entry(seed: SeedSpec, e: EntrySpec, record: Record | None) -> Entry:
    base: dict[str, Any] = {
        "section": e.section,
        "quote": e.quote,
        "claim": e.claim,
        "readings": e.readings,
        "method": _method(e.check),
        "derivations": _derivations(e),
        "check_spec": e.check.label() if e.check else "",
    }
    if e.check is None:
        return Entry.of(
            seed.seed,
            e.id.split("-", 2)[2],
            verdict=AuditVerdict.NOT_CHECKABLE,
            detail=e.why_not_checkable,
            not_checkable=e.not_checkable_reason,
            **base,
        )
    if record is None:
        raise InvalidInput(f"{e.id}: no stored result; run `python3 -m derivations.audit.docs`")
    verdict = Verdict(record["verdict"])
    notes = ""
    outside = outside_conventions(seed, record["point"]) if verdict is Verdict.REFUTED else []
    if outside:
        # Refuted only outside the seed's standing conventions: no erratum, and no verdict
        # on the statement as the seed means it.
        notes = (
            f"refuted outside the seed's conventions ({'; '.join(outside)}): {record['evidence']}"
        )
        verdict = Verdict.UNDECIDED
    erratum = None
    if verdict is Verdict.REFUTED:
        x = e.erratum
        if x is None:
            raise InvalidInput(f"{e.id}: refuted inside the conventions but has no erratum")
        erratum = Erratum(
            id=x.id,
            kind=x.kind,
            wrong=x.wrong,
            counterexample=record["evidence"],
            correction=x.correction,
            as_written=x.as_written,
            corrected=x.corrected,
            check_correction=lambda: _correction(record.get("corrections", [])),
            severity=x.severity,
            aliases=x.aliases,
            same_as=x.same_as,
            role=x.role,
            # Degenerate only: the confirmed counterexample leaves the realistic ranges.
            edge=bool(degenerate := outside_conventions(seed, record["point"], seed.realistic)),
            edge_note="; ".join(degenerate),
        )
    elif e.erratum is not None:
        raise InvalidInput(f"{e.id}: declares an erratum but its check gave {verdict.value}")
    detail = record["evidence"] + (f".  {e.note}" if e.note else "")
    return Entry.of(
        seed.seed,
        e.id.split("-", 2)[2],
        verdict=AuditVerdict(verdict.value),
        detail=detail,
        erratum=erratum,
        scope=record["scope"],
        basis=record["basis"],
        notes=notes,
        not_erratum=e.not_erratum,
        **base,
    )


def entries_of(seed: SeedSpec, results: Mapping[str, Record]) -> tuple[Entry, ...]:
    """The audit entries of ``seed`` from its data and its check results."""
    return tuple(_entry(seed, e, results.get(e.id)) for e in seed.entries)
