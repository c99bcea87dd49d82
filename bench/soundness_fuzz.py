"""The soundness fuzzer's long run (issue 38): claims whose truth is known by construction,
given to ``dpderive claim`` for a stated time.  Prints the claims tried, the verdicts of the
true and the false claims, and every distinct soundness failure, shrunk by Hypothesis, with
its TOML; writes each failure's claim file to ``--out``.  Figures only, never asserted.

    python3 bench/soundness_fuzz.py --minutes 25            # one core: it runs in-process
    python3 bench/soundness_fuzz.py --minutes 2 --recipes equality,end

A failure is a false claim ``proved`` or ``certified`` (or ``checked`` where the documented
sampling must see its counterexample, or where the tool says it saw one), or a true claim
``refuted``.  Each distinct failure (what went wrong, the class, the recipe) is shrunk once;
later occurrences are counted.  Runs in chunks of ``--chunk`` examples, each with its own
seed, so that a long run keeps finding new claims after a failure was shrunk.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings  # noqa: E402
from hypothesis.internal.conjecture import engine  # noqa: E402

from numeric_checks import CheckOptions  # noqa: E402
from tests.soundness_fuzz.claims import FuzzClaim  # noqa: E402
from tests.soundness_fuzz.harness import (  # noqa: E402
    Outcome,
    Worker,
    failure,
    regression_toml,
    signature,
)
from tests.soundness_fuzz.strategies import RECIPES, claims  # noqa: E402

SHRINK_SECONDS = 120
"""Hypothesis shrinks one failure for at most 300 s by default; a long run would rather look
for more (its engine's constant, set here only)."""


@dataclass
class Tally:
    """What the run saw: counts while generating (shrink runs apart) and the findings."""

    tried: int = 0
    shrink_runs: int = 0
    seconds: float = 0.0
    verdicts: dict[bool, collections.Counter[str]] = field(
        default_factory=lambda: {True: collections.Counter(), False: collections.Counter()}
    )
    by_recipe: dict[str, collections.Counter[str]] = field(
        default_factory=lambda: collections.defaultdict(collections.Counter)
    )
    occurrences: collections.Counter[str] = field(default_factory=collections.Counter)
    shrunk: dict[str, tuple[FuzzClaim, Outcome]] = field(default_factory=dict)
    latest: dict[str, tuple[FuzzClaim, Outcome]] = field(default_factory=dict)
    unfindable_checked: int = 0
    notes: collections.Counter[str] = field(default_factory=collections.Counter)
    note_examples: dict[str, str] = field(default_factory=dict)


_KINDS: dict[str, type[AssertionError]] = {}


def _finding(sig: str) -> type[AssertionError]:
    """One exception type per distinct finding: Hypothesis shrinks each type separately."""
    if sig not in _KINDS:
        _KINDS[sig] = type(f"Finding{len(_KINDS)}", (AssertionError,), {})
    return _KINDS[sig]


def run_chunk(
    worker: Worker,
    tally: Tally,
    chunk_seed: int,
    examples: int,
    options: CheckOptions,
    recipes: list[str] | None,
    out: Path,
    stop_at: float,
) -> None:
    state = {"generating": True}

    @seed(chunk_seed)
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        verbosity=Verbosity.quiet,
        report_multiple_bugs=True,
        phases=(Phase.generate, Phase.shrink),
        suppress_health_check=list(HealthCheck),
    )
    @given(claims(recipes))
    def one(claim: FuzzClaim) -> None:
        if state["generating"] and time.monotonic() > stop_at:
            return  # the run's time is up: let the chunk end quickly
        (out / "current.toml").write_text(claim.toml(f"recipe: {claim.recipe}"))
        outcome = worker.run(claim)
        why = failure(claim, outcome)
        if state["generating"]:
            tally.tried += 1
            tally.seconds += outcome.seconds
            tally.verdicts[claim.truth][outcome.verdict] += 1
            family = claim.recipe.split("/")[0]
            tally.by_recipe[family][f"{str(claim.truth).lower()} {outcome.verdict}"] += 1
            _note(tally, claim, outcome)
        else:
            tally.shrink_runs += 1
        if why is None:
            return
        sig = signature(claim, outcome, why)
        if state["generating"]:
            tally.occurrences[sig] += 1
        if sig in tally.shrunk:
            return
        tally.latest[sig] = (claim, outcome)
        state["generating"] = False
        raise _finding(sig)(sig)

    try:
        one()
    except BaseException as exc:  # the findings of this chunk, shrunk (or an interrupt)
        if isinstance(exc, KeyboardInterrupt):
            raise
    for sig, (claim, outcome) in tally.latest.items():
        if sig in tally.shrunk:
            continue
        tally.shrunk[sig] = (claim, outcome)
        name = f"finding-{len(tally.shrunk):02d}.toml"
        why = sig.split(" | ")[0]
        (out / name).write_text(regression_toml(claim, outcome, why))
        print(f"  NEW FINDING {name}: {sig}", flush=True)
        print("    " + claim.text[:300], flush=True)
        print("    tool: " + outcome.verdict + ": " + outcome.evidence[:300], flush=True)


def _note(tally: Tally, claim: FuzzClaim, outcome: Outcome) -> None:
    """Outcomes that are not soundness failures but worth a line in the report."""
    v = outcome.verdict
    if not claim.truth and v == "checked" and not claim.findable and not outcome.saw_violation:
        tally.unfindable_checked += 1
    key = None
    if v == "undecided" and "stopped by the harness" in outcome.evidence:
        key = "budget not honoured in-process (stopped by the harness)"
    elif v in ("bad input", "crash", "inconsistency"):
        key = f"{v}: {claim.recipe.split('/')[0]}"
        if v == "bad input" and "cannot solve the equality hypothesis" in outcome.evidence:
            key = "bad input: equality hypothesis not solved (allowed)"
    elif claim.truth and v == "checked" and outcome.saw_violation:
        key = "true claim checked with a suspect point"
    if key:
        tally.notes[key] += 1
        tally.note_examples.setdefault(key, f"{claim.text[:200]} -> {outcome.evidence[:200]}")


def report(tally: Tally, minutes: float) -> None:
    print()
    print(
        f"claims tried: {tally.tried} in {minutes:.1f} min "
        f"({tally.seconds:.0f} s in the tool; {tally.shrink_runs} more runs while shrinking)"
    )
    for truth in (True, False):
        counts = tally.verdicts[truth]
        total = sum(counts.values())
        line = ", ".join(f"{k} {n}" for k, n in counts.most_common())
        print(f"  {'true' if truth else 'false'} claims: {total}: {line}")
    print(
        f"  false claims checked whose counterexample sampling need not see: "
        f"{tally.unfindable_checked} (allowed)"
    )
    print("per recipe (truth verdict: count):")
    for family in sorted(tally.by_recipe):
        counts = tally.by_recipe[family]
        print(f"  {family:10s} " + ", ".join(f"{k} {n}" for k, n in sorted(counts.items())))
    print(f"distinct soundness failures: {len(tally.shrunk)}")
    for sig, (claim, outcome) in tally.shrunk.items():
        print(f"- {sig} (seen {tally.occurrences[sig]} times while generating)")
        print("  tool said: " + outcome.verdict + ": " + outcome.evidence[:400])
        print("  " + regression_toml(claim, outcome, sig.split(" | ")[0]).replace("\n", "\n  "))
    if tally.notes:
        print("other outcomes:")
        for key, n in tally.notes.most_common():
            print(f"  {key}: {n}  e.g. {tally.note_examples[key]}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=25.0)
    parser.add_argument("--chunk", type=int, default=40, help="examples per Hypothesis run")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=float, default=20.0, help="seconds per claim")
    parser.add_argument("--recipes", default="", help=f"comma list of {sorted(RECIPES)}")
    parser.add_argument("--out", default="/tmp/soundness-fuzz-findings")
    args = parser.parse_args(argv)
    engine.MAX_SHRINKING_SECONDS = SHRINK_SECONDS  # type: ignore[attr-defined]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    recipes = [r for r in args.recipes.split(",") if r] or None
    options = CheckOptions(budget=args.budget)
    started = time.monotonic()
    stop_at = started + args.minutes * 60
    tally = Tally()
    worker = Worker(options)
    k = 0
    try:
        while time.monotonic() < stop_at:
            run_chunk(
                worker, tally, args.seed * 100_000 + k, args.chunk, options, recipes, out, stop_at
            )
            k += 1
            elapsed = (time.monotonic() - started) / 60
            print(
                f"[{elapsed:5.1f} min] chunk {k}: {tally.tried} claims, "
                f"{len(tally.shrunk)} distinct failures",
                flush=True,
            )
    except KeyboardInterrupt:
        print("interrupted: the report so far", flush=True)
    worker.close()
    report(tally, (time.monotonic() - started) / 60)


if __name__ == "__main__":
    main()
