"""The divergence experiments of the audit (seed 002): the searches have teeth (the statements
as printed are refuted with witnesses that recheck; planted mutants of the corrected ones are
refuted too), the exact repairs of Lemma 3.17 catch a wrong repair, and the catalog
derivations of seed 002's errata keep their verdicts."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from derivations.audit.experiments import divergence, recheck, run
from numeric_checks.dp.finite_search import all_of, implies, leq, max_div, tv

from .conftest import refuted_experiment

SMALL = {"draws": 60, "outcomes": [2, 3]}
EPS = {"ranges": {"eps": [0, 3]}}
EPS_DELTA = {"ranges": {"eps": [0, 3], "delta": [0, 1]}}


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("numerators-positive", {"ranges": {"delta": [0, 1]}}),
        ("approx-max-div-printed", EPS_DELTA),
        ("max-display-zy", {}),
        ("max-display-yz", {}),
    ],
)
def test_the_statements_as_printed_are_refuted_with_a_witness_that_rechecks(
    name: str, params: dict[str, Any]
) -> None:
    assert refuted_experiment(name, {**SMALL, **params}).witness


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("approx-max-div-corrected", EPS_DELTA),
        ("remark-3-1-approx", EPS_DELTA),
        ("remark-3-1-pure", EPS),
        ("statistical-distance-by-events", {"ranges": {"delta": [0, 1]}}),
        ("lemma-3-17-1-if", EPS_DELTA),
        ("max-display-corrected", EPS),
        ("kl-infinite-off-support", {}),
        ("kl-zero-only-for-equal-laws", {}),
    ],
)
def test_the_corrected_statements_hold_on_the_searched_laws(
    name: str, params: dict[str, Any]
) -> None:
    result = run(name, {**SMALL, **params})
    assert result.verdict.value == "checked", result.evidence
    assert result.scope.startswith("instance: laws on 2 to 3 outcomes")


def test_a_planted_mutant_of_lemma_3_17_1_is_refuted(monkeypatch: pytest.MonkeyPatch) -> None:
    # Lemma 3.17 (1) with half the slack in the conclusion: Delta(Y, Y') <= delta does not
    # give D_inf^(delta/2)(Y||Z) <= eps.
    def mutant(d: Any, v: Any) -> bool | None:
        premise = all_of(leq(tv(d[0], d[1]), v["delta"]), leq(max_div(d[1], d[2]), v["eps"]))
        half = divergence._approx_le(d[0], d[2], v["eps"], v["delta"] / 2, False)
        return implies(premise, half)

    title, arity, _ = divergence.finite._STATEMENTS["lemma-3-17-1-if"]
    monkeypatch.setitem(
        divergence.finite._STATEMENTS, "lemma-3-17-1-if", (title, arity, divergence._fixed(mutant))
    )
    result = run("lemma-3-17-1-if", {**SMALL, **EPS_DELTA})
    assert result.verdict.value == "refuted", result.evidence


def test_the_remark_searches_tell_the_two_definitions_apart() -> None:
    # At the witness of the printed definition the corrected one agrees with closeness.
    printed = run("approx-max-div-printed", {**SMALL, **EPS_DELTA})
    assert recheck("approx-max-div-corrected", EPS_DELTA, printed.witness, printed.point) is True


@pytest.mark.parametrize("two_sided", [False, True])
def test_the_repairs_of_lemma_3_17_hold_exactly(two_sided: bool) -> None:
    result = run("lemma-3-17-repair", {"two_sided": two_sided})
    assert result.verdict.value == "checked", result.evidence
    assert result.evidence.startswith("16776 exact cases")


def test_a_wrong_repair_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # Returning Y itself as Y' ignores the ratio bound wherever Y exceeds e^eps Z.
    monkeypatch.setattr(divergence, "_repair", lambda y, z, r, two: (y, z))
    result = run("lemma-3-17-repair", {"two_sided": True})
    assert result.verdict.value == "undecided" and "the repair fails" in result.evidence


def test_the_one_sided_repair_at_an_example() -> None:
    y, z, r = (Fraction(1), Fraction(0)), (Fraction(1, 2), Fraction(1, 2)), Fraction(3, 2)
    y1, z1 = divergence._repair(y, z, r, False)
    assert z1 == z and y1 == (Fraction(3, 4), Fraction(1, 4))
    assert divergence._excess(y, z, r) == Fraction(1, 4)  # = Delta(Y, Y')
    assert all(a <= r * b for a, b in zip(y1, z, strict=True))


def test_three_valued_helpers() -> None:
    assert divergence._iff(True, True) is True and divergence._iff(True, False) is False
    assert divergence._iff(None, True) is None
    assert leq(0, 1) is True


def test_the_errata_derivations_of_seed_002_keep_their_verdicts() -> None:
    from derivations.seed_002_errata import DERIVATIONS
    from numeric_checks import CheckOptions, check_derivation
    from symbolic.verdicts import Verdict

    verdicts = {
        d.id: check_derivation(d, CheckOptions(points=60, search_budget=60)).verdict
        for d in (build() for build in DERIVATIONS)
    }
    assert verdicts == {"lemma-3-17-2-if-seed": Verdict.REFUTED, "lemma-3-17-2-if": Verdict.PROVED}
