"""The contract every seed kept as data (``derivations/audit/data/seed_NNN.toml``) meets:
quotes are literal substrings of the seed and cover its paragraphs, every section heading
has entries, every check runs and gives the stored result, every printed counterexample is
recomputed here from the entry's data, every correction holds, an entry whose own text
describes a failure is an erratum or says why not, and the standing conventions decide
what a refutation is worth.  The searches have teeth: planted mutants are refuted."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import sympy as sp

from derivations.audit import entries, errata
from derivations.audit.experiments import recheck, run
from derivations.audit.run import (
    Checks,
    entries_of,
    outside_conventions,
    read_results,
    run_check,
)
from derivations.audit.spec import CheckSpec, EntrySpec, SeedSpec, data_seeds, load_seed
from derivations.catalog import catalog, get
from symbolic.audit import (
    RUBRIC,
    AuditVerdict,
    ErratumKind,
    NotCheckable,
    NotErratum,
    Role,
    Severity,
    rubric_problem,
    severity_of,
)
from symbolic.errors import InvalidInput
from symbolic.functions import unfold

from .conftest import refuted_experiment

SEEDS_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"
SPECS = {seed: load_seed(path) for seed, path in data_seeds().items()}
ENTRY_SPECS = [(s, e) for s in SPECS.values() for e in s.entries]
HOLDS = {"proved", "certified", "checked"}
BOILERPLATE = re.compile(r"results matching")
CJK = re.compile(r"[\u4e00-\u9fff]")
# Words by which an entry's own text says that the statement is wrong in some reading (rule 1
# of issue 44): in its readings, note or reason for not checking it ...
FAILURE = re.compile(
    r"\b(fails?|failing|clash(es)?|wrong|typo|false|refuted|does not hold|not true|unbound"
    r"|not what|charitabl\w*|overtakes?|turns|dropped|silent(?:ly)?)\b",
    re.I,
)
# ... and, in its readings or note, that something of the display is missing or stray.
DEFECT = re.compile(r"\b(missing|is not in|omits?|slip|garbled?|lost|debris)\b", re.I)
COMPARED = ("verdict", "scope", "basis", "point", "witness")


def _ids(pairs: list[tuple[SeedSpec, EntrySpec]]) -> list[str]:
    return [e.id for _, e in pairs]


def _seed_text(spec: SeedSpec) -> str:
    path = SEEDS_DIR / spec.file
    if not path.exists():
        pytest.skip(f"the seed file {path} is not on this machine")
    return path.read_text(encoding="utf-8")


def test_some_seed_is_kept_as_data() -> None:
    assert "000" in SPECS


@pytest.mark.parametrize("seed", sorted(SPECS))
def test_quotes_are_literal_and_cover_every_paragraph_and_heading(seed: str) -> None:
    spec = SPECS[seed]
    text = _seed_text(spec)
    for e in spec.entries:
        assert e.quote in text, f"{e.id}: quote not in the seed: {e.quote!r}"
    found = {line.strip(): spec.heading(line) for line in text.splitlines()}
    headings = {name for name in found.values() if name}
    assert headings and headings == {e.section for e in spec.entries}
    # A line that is a heading and nothing else needs no quote (an inline heading does).
    heading_lines = {line for line in found if re.fullmatch(spec.headings, line)}
    lines = [p.strip() for p in text.splitlines() if p.strip()]
    quoted = [any(e.quote in p for e in spec.entries) for p in lines]
    for i, p in enumerate(lines):
        if quoted[i] or p in heading_lines or BOILERPLATE.search(p):
            continue
        # A displayed formula comes as its LaTeX source between two text renderings of it:
        # a line without Chinese next to a quoted one without Chinese is that display.
        near = [j for j in range(max(0, i - 2), min(len(lines), i + 3)) if quoted[j]]
        rendering = not CJK.search(p) and any(not CJK.search(lines[j]) for j in near)
        assert rendering, f"no entry quotes {p[:60]!r}"


CHECKED = [(s, e) for s, e in ENTRY_SPECS if e.check is not None]
CHECKS = Checks()
"""One run of the audit per test process: a check quoted by several entries (or seeds)
runs once, as in ``python3 -m derivations.audit.docs``."""


@pytest.mark.parametrize("seed", sorted(SPECS))
def test_every_checked_entry_has_a_stored_result(seed: str) -> None:
    spec = SPECS[seed]
    assert set(read_results(spec)) == {e.id for e in spec.entries if e.check is not None}


@pytest.mark.parametrize(("spec", "entry"), CHECKED, ids=_ids(CHECKED))
def test_every_check_runs_and_gives_the_stored_result(spec: SeedSpec, entry: EntrySpec) -> None:
    # One test per entry, not per seed: seed 004's checks alone took a minute, and the
    # whole suite waited on the worker that ran them.
    assert entry.check is not None
    fresh = CHECKS(entry.check, spec.directory)
    old = read_results(spec)[entry.id]
    assert {k: fresh[k] for k in COMPARED} == {k: old[k] for k in COMPARED}, (
        f"{entry.id}: the stored result is stale: run `python3 -m derivations.audit.docs`"
    )
    corrections = entry.erratum.correction_checks if entry.erratum else ()
    now = [CHECKS(c, spec.directory)["verdict"] for c in corrections]
    assert now == [c["verdict"] for c in old.get("corrections", [])], entry.id


def test_entries_are_built_from_data_and_results() -> None:
    built = {e.id: e for e in entries()}
    for spec in SPECS.values():
        for e in spec.entries:
            entry = built[e.id]
            assert (entry.verdict is AuditVerdict.NOT_CHECKABLE) == (e.check is None)
            assert entry.check_spec == (e.check.label() if e.check else "")
            if e.check is not None:
                assert entry.scope, f"{e.id}: every run check states its scope"
            assert set(entry.derivations) <= set(catalog()), e.id


REFUTED = [(s, e) for s, e in ENTRY_SPECS if e.erratum is not None]


@pytest.mark.parametrize(("spec", "entry"), REFUTED, ids=_ids(REFUTED))
def test_printed_counterexample_is_recomputed(spec: SeedSpec, entry: EntrySpec) -> None:
    record = read_results(spec)[entry.id]
    assert record["verdict"] == "refuted"
    check = entry.check
    assert check is not None
    printed = record["evidence"]
    point = {k: Fraction(v) for k, v in record["point"].items()}
    for value in record["point"].values():
        assert value in printed, f"{entry.id}: the printed counterexample lacks {value}"
    if check.kind == "experiment":
        witness = [[Fraction(x) for x in d] for d in record["witness"]]
        assert witness or point, f"{entry.id}: a refutation prints its witness or its point"
        for law in witness:
            assert sum(law) == 1 and all(x >= 0 for x in law)
            assert all(str(x) in printed for x in law), f"{entry.id}: {law} not printed"
        assert recheck(check.target[0], check.params, witness, point) is False
    elif check.kind in ("claim", "proof"):
        assert _false_at(spec.directory / check.target[0], check.kind, point), entry.id
    elif check.step is None:
        # A whole catalog derivation refuted (by a step or its oracle): the engine's own
        # counterexample, which the freshness test re-runs and the catalog's tests recheck.
        assert check.kind == "catalog" and (
            f"{check.target[0]} step" in printed or "oracle" in printed
        )
    else:
        assert check.kind == "catalog"
        d = get(check.target[0])
        chain = [d.claim.lhs, *(s.expr for s in d.steps)]
        # Defined quantities (a joint probability of independent outputs) by their
        # definitions, then the printed point, exactly.
        lhs, rhs = unfold(chain[check.step - 1]), unfold(chain[check.step])
        for name, value in d.defs:
            lhs, rhs = lhs.subs(name, value), rhs.subs(name, value)
        at = {s: sp.Rational(point[s.name]) for s in lhs.free_symbols | rhs.free_symbols}
        relation = d.steps[check.step - 1].relation.make(lhs.subs(at), rhs.subs(at))
        assert relation.func(*relation.args) == sp.false, f"{entry.id}: {relation} at {point}"
    assert not outside_conventions(spec, record["point"]), entry.id


def _false_at(path: Path, kind: str, point: dict[str, Fraction]) -> bool:
    """Whether the claim (or some step of the proof) in ``path`` is false at ``point``:
    definitions substituted, then exactly where SymPy decides it, else to 60 digits with a
    margin (an exact tie of a non-strict relation is true)."""
    from symbolic.readers.claim_files import load_claim
    from symbolic.readers.proof_files import load_proof

    d = load_claim(path) if kind == "claim" else load_proof(path)
    links = [(d.claim.lhs, d.claim.relation, d.claim.rhs)]
    if kind == "proof":
        chain = [d.claim.lhs, *(s.expr for s in d.steps)]
        links = [(a, s.relation, b) for a, s, b in zip(chain, d.steps, chain[1:], strict=True)]
    return any(_false_link(lhs, rel, rhs, d.defs, point) for lhs, rel, rhs in links)


def _false_link(
    lhs: sp.Expr, rel: Any, rhs: sp.Expr, defs: Any, point: dict[str, Fraction]
) -> bool:
    lhs, rhs = unfold(lhs), unfold(rhs)
    for name, value in reversed(defs):
        lhs, rhs = lhs.subs(name, value), rhs.subs(name, value)
    at = {s: sp.Rational(point[s.name]) for s in (lhs - rhs).free_symbols if s.name in point}
    gap = sp.N((lhs - rhs).subs(at).rewrite(sp.erf).doit(), 60)
    if gap.free_symbols or not gap.is_real:
        return False
    tie = abs(gap) < sp.Rational(1, 10**40)
    side = rel.direction * gap  # > 0: the small side is above the big one
    if rel.value == "=":
        return not tie
    return bool(side > 0 and not tie) or (rel.strict and tie)


ERRATA = [(e, x) for e, x in errata() if e.check_spec]


@pytest.mark.parametrize(("entry", "erratum"), ERRATA, ids=[x.id for _, x in ERRATA])
def test_every_correction_holds(entry: Any, erratum: Any) -> None:
    assert erratum.check_correction is not None
    outcome = erratum.check_correction()
    assert outcome.holds is True, outcome.detail
    assert erratum.counterexample == read_results(SPECS[entry.seed])[entry.id]["evidence"]


@pytest.mark.parametrize(("spec", "entry"), ENTRY_SPECS, ids=_ids(ENTRY_SPECS))
def test_an_entry_describing_a_failure_is_an_erratum_or_says_why_not(
    spec: SeedSpec, entry: EntrySpec
) -> None:
    del spec
    problem = _unexplained_failure(entry)
    assert problem is None, f"{entry.id} says {problem!r} but is no erratum: say why"


def _unexplained_failure(entry: EntrySpec) -> str | None:
    """The word by which the entry's own text says something fails, when the entry is no
    erratum and gives no reason from the closed list (:class:`NotErratum`) why not."""
    said = FAILURE.search(f"{entry.readings} {entry.note} {entry.why_not_checkable}")
    said = said or DEFECT.search(f"{entry.readings} {entry.note}")
    if said and entry.erratum is None and entry.not_erratum_reason is None:
        return said[0]
    return None


def test_the_consistency_rule_catches_an_unexplained_failure() -> None:
    quiet = EntrySpec("seed-999-a", "s", "q", "c", note="The bound holds.")
    loud = EntrySpec("seed-999-a", "s", "q", "c", readings="As printed the symbols clash.")
    aside = EntrySpec(
        "seed-999-a", "s", "q", "c", why_not_checkable="pointer: read charitably, it holds."
    )
    unlisted = EntrySpec(
        "seed-999-a", "s", "q", "c", note="A hypothesis is missing.", not_erratum="Stated once."
    )
    explained = EntrySpec(
        "seed-999-a",
        "s",
        "q",
        "c",
        note="A hypothesis is missing.",
        not_erratum="counted-elsewhere: seed-000-thm-3-14-independence.",
    )
    assert _unexplained_failure(quiet) is None and _unexplained_failure(explained) is None
    assert _unexplained_failure(loud) == "clash"
    assert _unexplained_failure(aside) == "charitably"
    # a reason outside the closed list explains nothing
    assert _unexplained_failure(unlisted) == "missing"


ERRATUM_IDS = {e.erratum.id for _, e in ENTRY_SPECS if e.erratum is not None}


@pytest.mark.parametrize(("spec", "entry"), ENTRY_SPECS, ids=_ids(ENTRY_SPECS))
def test_a_not_erratum_reason_meets_its_obligation(spec: SeedSpec, entry: EntrySpec) -> None:
    """Rule 1's closed list, each reason with what backs it: the erratum counted elsewhere
    exists, the seed's own words fixing the reading are quoted from the seed, a reading
    outside the conventions or ill-formed in every reading has a check that decided it."""
    reason = entry.not_erratum_reason
    if reason is None:
        assert not entry.not_erratum, entry.id
        return
    why = entry.not_erratum
    if reason is NotErratum.COUNTED_ELSEWHERE:
        named = set(re.findall(r"seed-\d{3}-[a-z0-9-]+[a-z0-9]", why))
        assert named & ERRATUM_IDS, f"{entry.id}: name the erratum that counts it: {why}"
    elif reason is NotErratum.FIXED_BY_TEXT:
        text = _seed_text(spec)
        # every span between two apostrophes (overlapping: an English "it's" may come first)
        quoted = [m.group(2) for m in re.finditer(r"(?=('([^']{2,})'))", why)]
        assert any(q.split("...")[0] in text for q in quoted), (
            f"{entry.id}: quote the seed's words that fix the reading: {why}"
        )
    elif reason is NotErratum.EVERY_READING_HOLDS:
        assert entry.check is not None, f"{entry.id}: every reading holds by a check"
        assert read_results(spec)[entry.id]["verdict"] in HOLDS, entry.id
    elif reason is NotErratum.UNCONFIRMED:
        assert entry.check is not None, entry.id
        assert read_results(spec)[entry.id]["verdict"] == "undecided", entry.id
    elif reason is NotErratum.OUTSIDE_CONVENTIONS:
        assert spec.conventions, f"{entry.id}: the seed states no conventions to be outside of"


@pytest.mark.parametrize(("spec", "entry"), ENTRY_SPECS, ids=_ids(ENTRY_SPECS))
def test_not_checkable_only_for_a_reason_of_the_closed_list(
    spec: SeedSpec, entry: EntrySpec
) -> None:
    """Rule 6: an entry without a check says which of definition, pointer, history,
    notation it is; an entry with a check gives no such reason."""
    del spec
    if entry.check is None:
        assert entry.not_checkable_reason in set(NotCheckable), entry.id
    else:
        assert not entry.why_not_checkable, entry.id


def test_every_not_checkable_entry_carries_its_reason_into_the_audit() -> None:
    found = [e for e in entries() if e.verdict is AuditVerdict.NOT_CHECKABLE]
    assert found and all(e.not_checkable is not None for e in found)
    assert {e.not_checkable for e in found} == set(NotCheckable)


@pytest.mark.parametrize(
    ("why", "ok"),
    [
        ("definition: A definition.", True),
        ("history: A citation.", True),
        ("Too vague to check.", False),
        ("vague: no criterion.", False),
    ],
)
def test_a_not_checkable_reason_outside_the_closed_list_is_bad_input(
    tmp_path: Path, why: str, ok: bool
) -> None:
    path = tmp_path / "seed_999.toml"
    path.write_text(
        'seed = "999"\nfile = "x.txt"\nsection = "1.1 s"\n[[entries]]\n'
        f'key = "a"\nquote = "q"\nclaim = "c"\nwhy_not_checkable = "{why}"\n',
        encoding="utf-8",
    )
    if ok:
        assert load_seed(path).entries[0].not_checkable_reason is not None
    else:
        with pytest.raises(InvalidInput, match="open with one of"):
            load_seed(path)


def test_every_erratum_has_the_rubric_severity_of_its_role() -> None:
    """Rule 5: the severity is decided by the rubric from what the refuted text is."""
    for _, e in ENTRY_SPECS:
        if e.erratum is not None:
            spec = e.erratum
            assert spec.severity is RUBRIC[spec.role], e.id
            assert rubric_problem(spec.kind, spec.role, spec.severity) is None, e.id
    for _, x in errata():
        assert x.role is not None and severity_of(x) is RUBRIC[x.role], x.id


@pytest.mark.parametrize(
    ("kind", "role", "severity", "problem"),
    [
        (ErratumKind.FALSE, Role.STATEMENT, Severity.FALSE, None),
        (ErratumKind.MISSING_HYPOTHESIS, Role.STATEMENT, Severity.FALSE, None),
        (ErratumKind.MISSING_HYPOTHESIS, Role.STATEMENT, Severity.GAP, "not 'gap'"),
        (ErratumKind.MISSING_HYPOTHESIS, Role.STEP, Severity.GAP, None),
        (ErratumKind.INVALID_STEP, Role.STEP, Severity.GAP, None),
        (ErratumKind.INVALID_STEP, Role.STATEMENT, Severity.FALSE, "not a statement"),
        (ErratumKind.TYPO, Role.SLIP, Severity.TYPO, None),
        (ErratumKind.ILL_FORMED, Role.SLIP, Severity.FALSE, "not 'false'"),
        (ErratumKind.FALSE, Role.ASIDE, Severity.WORDING, None),
        (ErratumKind.FALSE, Role.STATEMENT, Severity.WORDING, "not 'wording'"),
        (ErratumKind.TYPO, Role.ASIDE, Severity.WORDING, "not a aside"),
    ],
)
def test_the_severity_rubric(
    kind: ErratumKind, role: Role, severity: Severity, problem: str | None
) -> None:
    found = rubric_problem(kind, role, severity)
    assert (found is None) == (problem is None) and (problem is None or problem in (found or ""))


def test_a_seed_breaking_the_rubric_is_bad_input(tmp_path: Path) -> None:
    (tmp_path / "c.toml").write_text("", encoding="utf-8")
    path = tmp_path / "seed_999.toml"
    erratum = (
        '[entries.erratum]\nseverity = "{severity}"\nrole = "statement"\n'
        'kind = "missing hypothesis"\nwrong = "w"\ncorrection = "c"\n'
        'correction_checks = [{{ claim = "c.toml" }}]\n'
    )
    head = (
        'seed = "999"\nfile = "x.txt"\nsection = "1.1 s"\n[[entries]]\n'
        'key = "a"\nquote = "q"\nclaim = "c"\ncheck = { claim = "c.toml" }\n'
    )
    path.write_text(head + erratum.format(severity="gap"), encoding="utf-8")
    with pytest.raises(InvalidInput, match="severity rubric"):
        load_seed(path)
    path.write_text(head + erratum.format(severity="false"), encoding="utf-8")
    assert load_seed(path).entries[0].erratum is not None


def test_a_counterexample_at_degenerate_parameters_is_flagged_edge(tmp_path: Path) -> None:
    path = tmp_path / "seed_999.toml"
    path.write_text(
        'seed = "999"\nfile = "x.txt"\nsection = "1.1 s"\n'
        '[conventions]\ndelta = "[0, 1]"\n[[entries]]\n'
        'key = "a"\nquote = "q"\nclaim = "c"\ncheck = { experiment = "coins" }\n'
        '[entries.erratum]\nseverity = "false"\nrole = "statement"\nkind = "false"\n'
        'wrong = "w"\ncorrection = "c"\ncorrection_checks = [{ experiment = "coins" }]\n',
        encoding="utf-8",
    )
    spec = load_seed(path)
    record = {
        "verdict": "refuted",
        "scope": "instance",
        "basis": "",
        "evidence": "fails",
        "point": {"delta": "9/10"},
        "witness": [],
        "corrections": [],
    }
    (entry,) = entries_of(spec, {"seed-999-a": record})
    assert entry.erratum is not None and entry.erratum.edge
    assert "delta = 9/10 outside delta in [0, 1/100]" in entry.erratum.edge_note
    realistic = dict(record, point={"delta": "1/100000"})
    (entry,) = entries_of(spec, {"seed-999-a": realistic})
    assert entry.erratum is not None and not entry.erratum.edge


def test_catalog_errata_are_the_ones_cited() -> None:
    known = catalog()
    for _, e in ENTRY_SPECS:
        if e.erratum is not None and e.erratum.as_written:
            assert known[e.erratum.as_written].erratum is not None, e.id
            assert known[e.erratum.corrected or ""].erratum is None, e.id


def test_errata_are_listed_most_severe_first() -> None:
    rank = list(Severity)
    found = [rank.index(severity_of(x)) for _, x in errata()]
    assert found == sorted(found)


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("pure-composition", {"outcomes": [2, 3], "draws": 50, "combine": "max"}),
        (
            "approx-composition",
            {
                "outcomes": [2, 3],
                "draws": 50,
                "combine": "max",
                "ranges": {"eps1": [0, 2], "eps2": [0, 2]},
            },
        ),
        ("coins", {"coins": "shared"}),
    ],
)
def test_planted_mutants_are_refuted_with_a_witness_that_rechecks(
    name: str, params: dict[str, Any]
) -> None:
    refuted_experiment(name, params)


def test_unknown_experiments_and_parameters_are_bad_input() -> None:
    with pytest.raises(InvalidInput, match="unknown experiment"):
        run("no-such-experiment", {})
    with pytest.raises(InvalidInput, match="unknown parameter"):
        run("coins", {"sides": 3})


def _tiny_seed(tmp_path: Path, check: str) -> Path:
    path = tmp_path / "seed_999.toml"
    path.write_text(
        'seed = "999"\nfile = "x.txt"\nsection = "1.1 s"\n'
        '[conventions]\neps = "[0, oo)"\n'
        '[[entries]]\nkey = "a"\nquote = "q"\nclaim = "c"\n'
        f"check = {check}\n",
        encoding="utf-8",
    )
    return path


def test_a_searched_range_must_lie_inside_the_conventions(tmp_path: Path) -> None:
    bad = '{ experiment = "pointwise-to-events", params = { ranges = { eps = [-1, 2] } } }'
    with pytest.raises(InvalidInput, match="leaves eps in"):
        load_seed(_tiny_seed(tmp_path, bad))


def test_a_refutation_outside_the_conventions_is_a_note_not_an_erratum(tmp_path: Path) -> None:
    spec = load_seed(_tiny_seed(tmp_path, '{ experiment = "coins" }'))
    record = {
        "verdict": "refuted",
        "scope": "instance: a witness",
        "basis": "",
        "evidence": "fails at eps1 = -1/2",
        "point": {"eps1": "-1/2"},
        "witness": [],
    }
    (entry,) = entries_of(spec, {"seed-999-a": record})
    assert entry.erratum is None and entry.verdict is AuditVerdict.UNDECIDED
    assert "outside the seed's conventions" in entry.notes and "eps1 = -1/2" in entry.notes
    inside = dict(record, point={"eps1": "1/2"})
    with pytest.raises(InvalidInput, match="no erratum"):
        entries_of(spec, {"seed-999-a": inside})


@pytest.mark.parametrize(
    ("rhs", "verdict"), [("x**2 + 1", "proved"), ("x**2 + 2", "refuted")], ids=["true", "false"]
)
def test_a_claim_file_is_checked_as_dpderive_claim(tmp_path: Path, rhs: str, verdict: str) -> None:
    (tmp_path / "c.toml").write_text(
        f'[claim]\nlhs = "(x + 1)**2 - 2*x"\nrelation = ">="\nrhs = "{rhs}"\n'
        '[variables]\nx = "[-3, 3]"\n',
        encoding="utf-8",
    )
    record = run_check(CheckSpec("claim", ("c.toml",)), tmp_path)
    assert record["verdict"] == verdict and record["scope"].startswith("general")


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ('key = "a"\nquote = "q"\nclaim = "c"\n', "give a check or why_not_checkable"),
        (
            'key = "a"\nquote = "q"\nclaim = "c"\nwhy_not_checkable = "definition: w"\n'
            'check = { experiment = "coins" }\n',
            "exactly one",
        ),
        (
            'key = "a"\nquote = "q"\nclaim = "c"\ncheck = { catalog = "x", claim = "y" }\n',
            "name exactly one of",
        ),
        ('key = "a"\nquote = "q"\nclaim = "c"\nverdict = "proved"\n', "unknown key"),
        (
            'key = "a"\nquote = "q"\nclaim = "c"\ncheck = { claim = "f.toml", step = 2 }\n',
            "'step' needs one catalog id",
        ),
    ],
    ids=["no-check", "both", "two-kinds", "typed-verdict", "step-on-claim"],
)
def test_malformed_data_is_bad_input_naming_the_place(
    tmp_path: Path, entry: str, message: str
) -> None:
    path = tmp_path / "seed_999.toml"
    path.write_text(
        f'seed = "999"\nfile = "x.txt"\nsection = "1.1 s"\n[[entries]]\n{entry}',
        encoding="utf-8",
    )
    with pytest.raises(InvalidInput, match=message):
        load_seed(path)


def test_headings_are_read_as_the_seed_marks_them(tmp_path: Path) -> None:
    path = tmp_path / "seed_999.toml"
    head = 'seed = "999"\nfile = "x.txt"\nsection = "s"\n'
    entry = (
        '[[entries]]\nkey = "a"\nquote = "q"\nclaim = "c"\nwhy_not_checkable = "definition: w"\n'
    )
    path.write_text(head + 'headings = "^(.+)¶$"\n' + entry, encoding="utf-8")
    spec = load_seed(path)
    assert spec.heading("Gaussian Mechanism¶") == "Gaussian Mechanism"
    assert spec.heading("the ¶ sign inside a sentence") is None
    path.write_text(head + entry, encoding="utf-8")
    numbered = load_seed(path)
    assert numbered.heading("3.5.1 合成") == "3.5.1 合成" and numbered.heading("3.5") is None
    path.write_text(head + 'headings = "^(.+"\n' + entry, encoding="utf-8")
    with pytest.raises(InvalidInput, match="not a regular expression"):
        load_seed(path)


def test_a_search_no_example_of_which_met_a_premise_is_undecided() -> None:
    from derivations.audit.experiments.base import unrefuted
    from numeric_checks.dp.finite_search import FiniteStatement, implies, leq, search, tv

    # TV > 2 never holds: "TV > 2 implies anything" is vacuously true on every example
    never = FiniteStatement("vacuous", 2, lambda d, p: implies(leq(2, tv(d[0], d[1])), False))
    assert search(never, max_examples=30) is None
    result = unrefuted("vacuous", "instance: a search", "no counterexample")
    assert result.verdict.value == "undecided" and "vacuous search" in result.evidence
    # a premise that holds on some examples: checked, with how often it held
    some = FiniteStatement(
        "TV <= 1/2 implies TV <= 1", 2, lambda d, p: implies(leq(tv(d[0], d[1]), 0.5), True)
    )
    assert search(some, max_examples=30) is None
    result = unrefuted("some", "instance: a search", "no counterexample")
    assert result.verdict.value == "checked"
    assert re.search(r"a premise certainly held in [1-9]\d* of \d+ examples", result.evidence)
