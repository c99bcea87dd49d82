"""Issue 42, words at the edge: the engine's decision records (:mod:`symbolic.evidence`) are
worded by the printing layer only (:mod:`derivations.printing.evidence`), and a step's record
reads its words from there."""

from __future__ import annotations

import inspect

import pytest

import symbolic.evidence as records
from derivations.printing.evidence import head, sentence
from symbolic.evidence import (
    ArbRefuted,
    BoxOnly,
    Certified,
    Chain,
    Confirmed,
    EveryLength,
    Family,
    Headline,
    NoProof,
    Obstacle,
    ObstacleKind,
    ProvedSpot,
    Said,
    Sampled,
    Step,
    Suspected,
    Unconfirmed,
    words,
)
from symbolic.report import (
    HEAD,
    CertificateRecord,
    CertificateStatus,
    Counterexample,
    NumericEvidence,
    RefereeKind,
    RefereeRecord,
    StepResult,
)
from symbolic.verdicts import Verdict

SAMPLE = NumericEvidence(9, 50)
CEX = Counterexample({"x": "1"}, "2", "1", 50)
ARB = RefereeRecord(RefereeKind.ARB, True, "1 +- 1e-60", "Arb at 128 bits", bits=128)
HOLDS = RefereeRecord(RefereeKind.ARB, False, "-1 +- 1e-60", "Arb at 256 bits", bits=256)
BOX = CertificateRecord(CertificateStatus.CERTIFIED, {"x": (0.0, 1.0)}, 4, 0.5, 64)


def _kinds() -> list[type]:
    return [
        c
        for _, c in inspect.getmembers(records, inspect.isclass)
        if issubclass(c, Said) and c is not Said
    ]


@pytest.mark.parametrize("kind", _kinds(), ids=lambda c: c.__name__)
def test_every_record_kind_has_its_sentence_in_the_printing_layer(kind: type) -> None:
    assert sentence.dispatch(kind) is not sentence.dispatch(object), kind


def test_the_kinds_are_found() -> None:
    assert len(_kinds()) >= 20  # the test above is not vacuous


DECISIONS = [
    ProvedSpot("tactic cancel", SAMPLE),
    Sampled(SAMPLE),
    Sampled(SAMPLE, Unconfirmed(CEX, HOLDS)),
    Suspected(Unconfirmed(CEX, None), SAMPLE, CEX),
    NoProof(SAMPLE, budget_spent=True, ties=2),
    Confirmed(CEX, ARB),
    Certified(BOX),
    BoxOnly(Sampled(SAMPLE), BOX),
    ArbRefuted(Sampled(SAMPLE), BOX),
]


@pytest.mark.parametrize("said", DECISIONS, ids=lambda r: type(r).__name__)
def test_a_decision_s_head_is_the_first_clause_of_its_sentence(said: Said) -> None:
    text, short = sentence(said), head(said)
    assert short and text.startswith(short), (short, text)
    assert words(said) == text and words(said, HEAD) == short  # the engine's hook


def test_a_step_reads_its_words_from_its_records() -> None:
    blocked = Obstacle(ObstacleKind.OPAQUE, names=("GaussianDelta",))
    step = StepResult(
        1, "a", "<=", "b", "", Verdict.CHECKED, Step(Sampled(SAMPLE), blocked), obstacle=blocked
    )
    assert step.evidence == (
        "numeric only, no counterexample: 9 points at 50 digits; why not proved: "
        "GaussianDelta is computed numerically, with no symbolic form the tactics reduce and "
        "no Arb enclosure"
    )
    assert step.head == "numeric only, no counterexample: 9 points at 50 digits"
    assert step.why_short == "GaussianDelta is computed numerically"
    assert step.suspect == "" and step.notes == ()
    # a sentence given as is (a record built by hand) is kept as is
    assert StepResult(1, "a", "<=", "b", "", Verdict.PROVED, "by hand").evidence == "by hand"


def test_an_evaluator_failure_and_a_suspect_point_read_differently() -> None:
    # Mutant guard: a referee that shows the relation holds dismisses the point; one that
    # could not decide leaves it suspect.
    dismissed = sentence(Unconfirmed(CEX, HOLDS))
    suspect = sentence(Unconfirmed(CEX, None))
    assert dismissed.startswith("evaluator failure: a sampled violation at x = 1")
    assert "shown by Arb at 256 bits" in dismissed
    assert suspect.startswith("suspect point at x = 1") and "no rigorous referee ran" in suspect


@pytest.mark.parametrize(
    ("own", "reads"),
    [
        (Sampled(SAMPLE), "also sampled on its own, no counterexample: 9 points"),
        (Sampled(SAMPLE, Unconfirmed(CEX, HOLDS)), "also sampled on its own: 9 points"),
        (BoxOnly(Sampled(SAMPLE), BOX), "also sampled on its own, no counterexample"),
        (ProvedSpot("tactic cancel", SAMPLE), "also on its own: tactic cancel; spot-checked"),
        (
            Headline(EveryLength(Family.CHECKED, "n = 1..4", 49)),
            "also checked on its own at n = 1..4 (49 points or more each)",
        ),
        (
            EveryLength(Family.NONE, "n = 1..4", 49),
            "also on its own: not proved for every length",
        ),
    ],
)
def test_a_conclusion_raised_by_its_chain_says_its_own_check_by_its_kind(
    own: Said, reads: str
) -> None:
    said = Chain(Verdict.PROVED, own)
    assert sentence(said).startswith("follows from the chain: every step is proved; " + reads)
    assert head(said) == "follows from the chain: every step is proved"
    assert sentence(Chain(Verdict.CHECKED, own)).startswith(
        "follows from the chain: its weakest step is checked"
    )
