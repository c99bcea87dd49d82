from __future__ import annotations

import os

os.environ.setdefault("SYMPY_GROUND_TYPES", "python")  # before SymPy: see symbolic/__init__

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import mpmath
import pytest
import sympy as sp
from hypothesis import HealthCheck, settings

from derivations.app.parallel import check_many
from derivations.catalog import catalog, get
from numeric_checks import CheckOptions
from symbolic.basis import direct_uses
from symbolic.derivation import Claim, Derivation, Justification, JustificationKind, Step
from symbolic.relations import Relation, compose
from symbolic.report import DerivationReport
from symbolic.rules import Context, fact_from_relation

if TYPE_CHECKING:
    from derivations.audit.experiments import Result

# SymPy's timings vary a lot on shared machines; no deadlines, few examples by default.
settings.register_profile(
    "default",
    deadline=None,
    max_examples=40,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", deadline=None, max_examples=400)
settings.load_profile("default")

CLAIMS = Path(__file__).parent / "claims"
BAD_CLAIMS = Path(__file__).parent / "bad_claims"


def sym(did: str, name: str) -> sp.Symbol:
    """A catalog derivation's symbol by name."""
    return get(did).symbols[name]


def context(*hypotheses: sp.Basic) -> Context:
    """The rules' facts from ``hypotheses`` (relations), each named by its text."""
    facts = []
    for h in hypotheses:
        facts += fact_from_relation(h, str(h))
    return Context(facts)


MUTANT_OPTIONS = CheckOptions(points=80, search_budget=80)
"""The check options of the catalog's mutant tests: enough points to find each mutant's
counterexample, few enough to keep the tests quick."""


def cited_uses(did: str, *, bridge: bool = True) -> list[tuple[str, str]]:
    """What catalog derivation ``did`` cites beyond the engine, in order, as (kind, name):
    its steps' lemmas, foundations and citations, then its bridge's (unless ``bridge`` is
    False: the steps alone)."""
    d = get(did)
    out = []
    for j in direct_uses(d if bridge else d.replace(bridge=())):
        if j.kind is JustificationKind.LEMMA:
            out.append(("lemma", str(j.lemma)))
        elif j.kind is JustificationKind.FOUNDATION:
            out.append(("foundation", str(j.foundation)))
        else:
            out.append(("cite", str(j.citation)))
    return out


def assert_refuted_with_a_counterexample(d: Derivation) -> None:
    """``d`` (a mutant) is refuted, and its first refuted link carries the counterexample."""
    from numeric_checks import check_derivation
    from symbolic.verdicts import Verdict

    r = check_derivation(d, MUTANT_OPTIONS)
    assert r.verdict is Verdict.REFUTED, [(s.index, s.verdict.value) for s in r.steps]
    refuted = [s for s in (*r.steps, r.conclusion) if s.verdict is Verdict.REFUTED]
    assert refuted[0].counterexample is not None


def assert_not_refuted(d: Derivation) -> None:
    """``d`` (true, if weaker than the catalog's) is not refuted."""
    from numeric_checks import check_derivation
    from symbolic.verdicts import Verdict

    assert check_derivation(d, MUTANT_OPTIONS).verdict is not Verdict.REFUTED


def refuted_experiment(name: str, params: dict[str, Any]) -> Result:
    """Audit experiment ``name`` run on ``params``: refuted, its witness (if any) laws on
    finitely many outcomes, and refuted again from the printed witness and point alone."""
    from derivations.audit.experiments import recheck, run

    result = run(name, params)
    assert result.verdict.value == "refuted", result.evidence
    for law in result.witness:
        assert sum(law) == 1 and all(x >= 0 for x in law), f"{name}: {law}"
    assert recheck(name, params, result.witness, result.point) is False
    return result


def weaker(d: Derivation, relation: Relation, rhs: sp.Expr) -> Derivation:
    """``d``'s chain continued by one more (true) step to a weaker conclusion ``rhs``."""
    step = Step(relation, rhs, Justification("weaker", JustificationKind.ALGEBRA))
    return d.replace(
        claim=Claim(d.claim.lhs, compose([d.claim.relation, relation]), rhs),
        steps=(*d.steps, step),
    )


@pytest.fixture(autouse=True)
def _reset_mpmath_precision() -> Iterator[None]:
    # mpmath precision is global state; a test that leaks it would skew every later test.
    mpmath.mp.dps = 15
    yield
    mpmath.mp.dps = 15


CATALOG_OPTIONS = CheckOptions(points=40, search_budget=60)
"""The options of the one check of the whole catalog that tests share."""

on_the_catalog_worker = pytest.mark.xdist_group("catalog")
"""Mark for the tests that use :func:`catalog_reports`: with ``--dist loadgroup`` they run
in one worker, which checks the catalog once for all of them."""


@pytest.fixture(scope="session")
def catalog_reports() -> dict[str, DerivationReport]:
    """Every catalog derivation, checked once per test process (as ``dpderive check --all``
    does, at :data:`CATALOG_OPTIONS`): tests that only read an unmodified derivation's
    report share it instead of checking it again."""
    reports = check_many(list(catalog().values()), CATALOG_OPTIONS, jobs=1)
    return {r.id: r for r in reports}


@pytest.hookimpl(tryfirst=True)  # before xdist's, which reads the group marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that uses :func:`catalog_reports` runs on the catalog worker (a test that
    forgot the mark made a second worker check the whole catalog again, ~25 s), and those
    tests come first: their shared check of the whole catalog is the longest single unit of
    work, so with ``-n auto`` the other worker takes everything else meanwhile instead of
    leaving it to run alone at the end."""
    for item in items:
        if "catalog_reports" in getattr(item, "fixturenames", ()) and not any(
            m.args[:1] == ("catalog",) for m in item.iter_markers("xdist_group")
        ):
            item.add_marker(on_the_catalog_worker)
    items.sort(key=lambda item: item.get_closest_marker("xdist_group") is None)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` (the README's and CI's command) as one worker per core this process may
    run on.  xdist counts physical cores when psutil is installed, which on a 2-vCPU machine
    with hyper-threading is 1: the whole suite would run in one worker, twice as long.
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still decides when set (xdist reads it)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux: xdist's own count
        return None
