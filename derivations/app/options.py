"""The options shared by the verbs that check: points, digits, seed, search, budget, jobs;
and the :class:`~numeric_checks.CheckOptions` they make."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from derivations.app.parallel import default_jobs
from numeric_checks import CheckOptions
from numeric_checks.budget import DEFAULT_BUDGET

CLAIM_BUDGET = 60.0
"""The default budget of ``dpderive claim``: one claim typed from a book answers within a
minute, or says ``undecided: budget spent`` (exit 3) with what it found."""

__all__ = [
    "CLAIM_BUDGET",
    "MAX_BUDGET",
    "MAX_DIGITS",
    "MAX_JOBS",
    "MAX_POINTS",
    "MAX_SEARCH",
    "add_budget_option",
    "add_check_options",
    "add_jobs_option",
    "check_options",
    "positive_int",
]

MIN_DIGITS = 15
"""The tolerances of the numeric checks assume at least double precision."""
MAX_DIGITS = 2_000
"""Above this, one evaluation of a quadrature or a long sum takes seconds; the issue's
``--digits 100000`` ran past two minutes before checking anything."""
MAX_POINTS = 100_000
MAX_SEARCH = 100_000
MAX_JOBS = 64
MAX_BUDGET = 86_400.0
"""One day: a larger budget is no bound at all (``--budget 1e308`` overflowed the clock)."""


def bounded_int(low: int, high: int, unit: str) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``, with a plain message."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < low:
            wanted = "must be >= 1" if low == 1 else f"at least {low} {unit}"
            raise argparse.ArgumentTypeError(f"{wanted}, got {value}")
        if value > high:
            raise argparse.ArgumentTypeError(f"at most {high} {unit}, got {value}")
        return value

    return parse


positive_int = bounded_int(1, 10**9, "")


def add_check_options(p: argparse.ArgumentParser, budget: float = DEFAULT_BUDGET) -> None:
    """The check options; ``budget`` is the verb's default for ``--budget``."""
    p.add_argument(
        "--points",
        metavar="N",
        type=bounded_int(1, MAX_POINTS, "points"),
        default=200,
        help="random points per derivation (default 200; edge and boundary points are added)",
    )
    p.add_argument(
        "--digits",
        metavar="D",
        type=bounded_int(MIN_DIGITS, MAX_DIGITS, "digits"),
        default=50,
        help=f"working precision in decimal digits (default 50, from {MIN_DIGITS} to {MAX_DIGITS})",
    )
    p.add_argument(
        "--seed", type=int, default=0, metavar="S", help="seed of the sampler (default 0)"
    )
    p.add_argument(
        "--search",
        metavar="N",
        type=bounded_int(1, MAX_SEARCH, "evaluations"),
        default=300,
        help="evaluations of the counterexample search per step (default 300)",
    )
    add_budget_option(p, budget)


def add_budget_option(
    p: argparse.ArgumentParser, budget: float = DEFAULT_BUDGET, what: str = ""
) -> None:
    """``--budget``; ``what`` says what it bounds when that is not a check's steps."""
    p.add_argument(
        "--budget",
        metavar="SECONDS",
        type=_budget_seconds,
        default=budget,
        help=what.format(budget=budget)
        or f"wall-clock seconds per claim or derivation (default {budget:g}); "
        "steps it stops are undecided: budget spent (exit 3)",
    )


def _budget_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text}")
    if value > MAX_BUDGET:
        raise argparse.ArgumentTypeError(f"at most {MAX_BUDGET:g} seconds (one day), got {text}")
    return value


def add_jobs_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--jobs",
        "-j",
        metavar="N",
        type=bounded_int(1, MAX_JOBS, "worker processes"),
        default=default_jobs(),
        help="derivations checked at once, in worker processes (default: the number of "
        "cores); the reports are the same for every value",
    )


def check_options(args: argparse.Namespace) -> CheckOptions:
    return CheckOptions(
        points=args.points,
        dps=args.digits,
        seed=args.seed,
        search_budget=args.search,
        oracle=not getattr(args, "no_oracle", False),
        budget=getattr(args, "budget", DEFAULT_BUDGET),
    )
