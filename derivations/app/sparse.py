"""``dpderive sparse``: simulate NumericSparse on adversarial streams and compare its
accuracy failure rate with beta (Dwork & Roth 2014, Theorem 3.28).

Exit codes as for ``check``: 0 every stream within beta, 1 some stream fails more often than
beta with confidence, 2 bad parameters, 3 undecided (too few runs to tell).
"""

from __future__ import annotations

import argparse
import json
from typing import Any, TextIO

import mpmath

from derivations.app.exitcodes import EXIT_OK, EXIT_REFUTED, EXIT_UNDECIDED
from derivations.app.options import add_budget_option
from derivations.printing.wording import accuracy_state
from symbolic.errors import DpderiveError, InvalidInput
from symbolic.readers.syntax import parse_number

HELP = "simulate NumericSparse and estimate how often (alpha, beta)-accuracy fails"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--eps", required=True, help="privacy parameter eps > 0")
    p.add_argument("--delta", default="0", help="privacy parameter delta in [0, 1) (default 0)")
    p.add_argument("--beta", required=True, help="failure probability in (0, 1)")
    p.add_argument("--c", required=True, help="answers before halting (whole number >= 1)")
    p.add_argument("--k", required=True, help="number of queries (whole number >= c)")
    p.add_argument(
        "--alpha",
        default="seed",
        help="'seed' (Theorem 3.28 as the seed states it), 'corrected' (max of the Sparse "
        "and Laplace parts) or a number (default seed)",
    )
    p.add_argument(
        "--hypothesis",
        choices=("seed", "last"),
        default="seed",
        help="streams with L(T) <= c ('seed', default) or with at most c - 1 of f_1..f_{k-1} "
        "at or above T - alpha ('last')",
    )
    p.add_argument("--runs", type=int, default=None, help="runs per stream (default by k)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    add_budget_option(
        p,
        what="wall-clock seconds for the whole simulation (default {budget:g}); past them the "
        "command ends undecided: budget spent (exit 3)",
    )


def _number(text: str, name: str) -> Any:
    try:
        value = parse_number(text)
    except DpderiveError as exc:
        raise InvalidInput(f"{name} must be a real number, got {name}={text!r} ({exc})") from None
    if not value.is_finite:
        raise InvalidInput(f"{name} must be finite, got {name}={text!r}")
    return mpmath.mpf(str(value.evalf(40)))


def _whole(text: str, name: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise InvalidInput(f"{name} must be a whole number, got {name}={text!r}") from None


def run(args: argparse.Namespace, out: TextIO) -> int:
    # Imported here (numpy among them): the command line imports this module for the
    # verb's arguments, and the other verbs need none of it.
    from derivations.numeric_sparse import alpha_corrected, alpha_seed
    from numeric_checks.dp.sparse import SparseParams, assess, default_runs

    p = SparseParams.make(
        _number(args.eps, "eps"),
        _number(args.delta, "delta"),
        _whole(args.c, "c"),
        _whole(args.k, "k"),
    )
    beta = _number(args.beta, "beta")
    if args.alpha == "seed":
        alpha = alpha_seed(p, beta)
    elif args.alpha == "corrected":
        alpha = alpha_corrected(p, beta)
    else:
        alpha = _number(args.alpha, "alpha")
    if args.runs is not None and args.runs < 1:
        raise InvalidInput(f"runs must be >= 1, got runs={args.runs}")
    results = assess(p, alpha, beta, args.hypothesis, runs=args.runs, seed=args.seed)
    if args.json:
        json.dump(
            {
                "eps": mpmath.nstr(p.eps, 17),
                "delta": mpmath.nstr(p.delta, 17),
                "beta": mpmath.nstr(mpmath.mpf(beta), 17),
                "c": p.c,
                "k": p.k,
                "alpha": mpmath.nstr(mpmath.mpf(alpha), 17),
                "hypothesis": args.hypothesis,
                "streams": [a.to_json() for a in results],
            },
            out,
            indent=2,
        )
        out.write("\n")
    else:
        runs = args.runs or default_runs(p.k)
        out.write(
            f"NumericSparse eps={mpmath.nstr(p.eps, 6)} delta={mpmath.nstr(p.delta, 6)} "
            f"c={p.c} k={p.k} beta={mpmath.nstr(mpmath.mpf(beta), 6)} "
            f"alpha={mpmath.nstr(mpmath.mpf(alpha), 8)} ({args.alpha}); "
            f"{'exact' if p.k <= 3 else f'{runs} runs per stream'}\n"
        )
        for a in results:
            out.write(f"  {accuracy_state(a.holds)}: {a.detail}\n    ({a.stream.description})\n")
    if any(a.holds is False for a in results):
        return EXIT_REFUTED
    if any(a.holds is None for a in results):
        return EXIT_UNDECIDED
    return EXIT_OK
