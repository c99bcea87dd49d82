"""The seed-004 experiments (derivations.audit.experiments.gdp) and the seed-004 entries of
sections 4.2-4.6 and 五-5.3: the searches have teeth (planted mutants are refuted with a
witness that rechecks), every refutation that backs an erratum prints its witness and is
refuted again from it, the other experiment checks hold, and every heading of those sections
has entries and every paragraph of them is quoted."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from derivations.audit.experiments import recheck, run
from derivations.audit.run import outside_conventions
from derivations.audit.spec import DATA, CheckSpec, load_seed

SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"
SECTIONS = {
    "4.2 高斯机制的定义",
    "4.3 添加高斯噪声",
    "4.5 高斯机制和 (ε, δ)-dp 之间的转换关系",
    "4.6 组隐私",
    "五、组合定理",
    "5.1 一般组合定理",
    "5.2 中心极限定理",
    "5.3 对 (ε, δ)-DP 的近似",
}
# The part file until the two parts of seed 004 are merged into seed_004.toml.
PATH = next(p for p in (DATA / "seed_004.toml", DATA / "part_004b.toml") if p.exists())
SPEC = load_seed(PATH)
ENTRIES = [e for e in SPEC.entries if e.section in SECTIONS]


def _experiments(errata: bool) -> list[tuple[str, CheckSpec]]:
    out = []
    for e in ENTRIES:
        if (
            e.check is not None
            and e.check.kind == "experiment"
            and (e.erratum is not None) == errata
        ):
            out.append((e.id, e.check))
        for c in e.erratum.correction_checks if e.erratum is not None and not errata else ():
            if c.kind == "experiment":
                out.append((f"{e.id} (correction)", c))
    return out


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("tradeoff-laws", {"laws": ["monotone-reversed"]}),
        ("tradeoff-laws", {"laws": ["group-one-less"]}),
        ("tradeoff-laws", {"laws": ["same-law", "monotone-reversed"], "draws": 10}),
    ],
)
def test_planted_mutants_are_refuted_with_a_witness_that_rechecks(
    name: str, params: dict[str, Any]
) -> None:
    result = run(name, params)
    assert result.verdict.value == "refuted", result.evidence
    assert result.witness and all(sum(law) == 1 for law in result.witness)
    assert recheck(name, params, result.witness, result.point) is False


ERRATA = _experiments(errata=True)


@pytest.mark.parametrize(("ident", "check"), ERRATA, ids=[i for i, _ in ERRATA])
def test_an_erratum_is_refuted_and_its_witness_rechecks(ident: str, check: CheckSpec) -> None:
    result = run(check.target[0], check.params)
    assert result.verdict.value == "refuted", f"{ident}: {result.evidence}"
    assert result.witness or result.point
    for value in result.point.values():
        assert str(value) in result.evidence
    for law in result.witness:
        assert sum(law) == 1 and all(str(x) in result.evidence for x in law)
    witness = [[Fraction(x) for x in law] for law in result.witness]
    assert recheck(check.target[0], check.params, witness, dict(result.point)) is False
    shown = {k: str(v) for k, v in result.point.items()}
    assert not outside_conventions(SPEC, shown), ident


HOLDING = _experiments(errata=False)


@pytest.mark.parametrize(("ident", "check"), HOLDING, ids=[i for i, _ in HOLDING])
def test_the_other_experiments_hold(ident: str, check: CheckSpec) -> None:
    result = run(check.target[0], check.params)
    assert result.verdict.value == "checked", f"{ident}: {result.evidence}"
    assert result.scope.startswith("instance"), ident


def test_every_heading_of_these_sections_has_entries_and_ids_are_unique() -> None:
    path = SEEDS / SPEC.file
    if not path.exists():
        pytest.skip(f"the seed file {path} is absent")
    text = path.read_text(encoding="utf-8")
    headings = {h for line in text.splitlines() if (h := SPEC.heading(line))}
    assert headings >= SECTIONS and {e.section for e in ENTRIES} == SECTIONS
    ids = [e.id for e in SPEC.entries]
    assert len(ids) == len(set(ids)) and all(i.startswith("seed-004-") for i in ids)
    assert all(e.quote in text for e in ENTRIES)


CJK = re.compile(r"[\u4e00-\u9fff]")


def test_every_paragraph_of_these_sections_is_quoted() -> None:
    """As the contract test asks of a whole seed: a line is quoted by an entry, or is a
    displayed formula's text rendering (no Chinese, next to a quoted line without Chinese)."""
    path = SEEDS / SPEC.file
    if not path.exists():
        pytest.skip(f"the seed file {path} is absent")
    lines = [p.strip() for p in path.read_text(encoding="utf-8").splitlines() if p.strip()]
    quoted = [any(e.quote in p for e in ENTRIES) for p in lines]
    section = None
    for i, p in enumerate(lines):
        if heading := SPEC.heading(p):
            section = heading
            continue
        if section not in SECTIONS or quoted[i]:
            continue
        near = [j for j in range(max(0, i - 2), min(len(lines), i + 3)) if quoted[j]]
        assert not CJK.search(p) and any(not CJK.search(lines[j]) for j in near), p[:60]
