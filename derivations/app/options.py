"""The options shared by the verbs that check: points, digits, seed, search, budget, jobs;
and the :class:`~numeric_checks.CheckOptions` they make."""

from __future__ import annotations

import argparse

from derivations.app.parallel import default_jobs
from numeric_checks import CheckOptions
from numeric_checks.budget import DEFAULT_BUDGET

CLAIM_BUDGET = 60.0
"""The default budget of ``dpderive claim``: one claim typed from a book answers within a
minute, or says ``undecided: budget spent`` (exit 3) with what it found."""

__all__ = ["CLAIM_BUDGET", "add_check_options", "add_jobs_option", "check_options", "positive_int"]


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def add_check_options(p: argparse.ArgumentParser, budget: float = DEFAULT_BUDGET) -> None:
    """The check options; ``budget`` is the verb's default for ``--budget``."""
    p.add_argument(
        "--points",
        type=positive_int,
        default=200,
        help="random points per derivation (default 200; edge and boundary points are added)",
    )
    p.add_argument(
        "--digits",
        type=positive_int,
        default=50,
        help="working precision in decimal digits (default 50, at least 15)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the sampler (default 0)")
    p.add_argument(
        "--search",
        type=positive_int,
        default=300,
        help="evaluations of the counterexample search per step (default 300)",
    )
    p.add_argument(
        "--budget",
        type=_budget_seconds,
        default=budget,
        help=f"wall-clock seconds per claim or derivation (default {budget:g}); "
        "steps it stops are undecided: budget spent (exit 3)",
    )


def _budget_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text}")
    return value


def add_jobs_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--jobs",
        "-j",
        type=positive_int,
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
