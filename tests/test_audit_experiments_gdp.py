"""The seed-004 experiments (derivations.audit.experiments.gdp) behind sections 4.2-4.6 and
五-5.3: the searches have teeth (planted mutants are refuted with a witness that rechecks) and
the experiment checks that back no erratum hold.  What every seed kept as data meets (quotes,
headings, checks, printed counterexamples, corrections) is ``test_audit_contract``'s."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from derivations.audit.experiments import run
from derivations.audit.spec import DATA, CheckSpec, load_seed

from .conftest import refuted_experiment

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
SPEC = load_seed(DATA / "seed_004.toml")
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
    assert refuted_experiment(name, params).witness


HOLDING = _experiments(errata=False)


@pytest.mark.parametrize(("ident", "check"), HOLDING, ids=[i for i, _ in HOLDING])
def test_the_other_experiments_hold(ident: str, check: CheckSpec) -> None:
    result = run(check.target[0], check.params)
    assert result.verdict.value == "checked", f"{ident}: {result.evidence}"
    assert result.scope.startswith("instance"), ident
