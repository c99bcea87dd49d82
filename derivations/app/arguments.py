"""The arguments of the verbs defined in :mod:`derivations.app.cli`, each with its help
(issue 29: ``--json`` had none); the check options are in :mod:`derivations.app.options`."""

from __future__ import annotations

import argparse

from derivations.app.options import (
    CLAIM_BUDGET,
    add_budget_option,
    add_check_options,
    add_jobs_option,
)
from derivations.app.plots import PLOTS

__all__ = [
    "JSON_HELP",
    "check_arguments",
    "claim_arguments",
    "explain_arguments",
    "latex_arguments",
    "list_arguments",
    "plot_arguments",
    "rules_arguments",
    "verify_arguments",
]

PLOT_NAMES = tuple(PLOTS)
JSON_HELP = "print JSON instead of text (the fields are listed in README.md)"
VERBOSE_HELP = "print each step's full evidence, not its short line (JSON always has both)"


def list_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print a JSON list, one object per id")
    p.add_argument(
        "--check",
        action="store_true",
        help="check the whole catalog first and add a verdict column (about a minute on two "
        "cores; without it the verdicts are not shown)",
    )
    p.add_argument("--no-oracle", action="store_true", help="with --check: skip the oracles")
    add_check_options(p)
    add_jobs_option(p)


def check_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("ids", nargs="*", metavar="ID", help="catalog ids (`dpderive list`)")
    p.add_argument("--all", action="store_true", help="check the whole catalog")
    p.add_argument("--json", action="store_true", help=JSON_HELP)
    p.add_argument("--no-oracle", action="store_true", help="skip the end-to-end oracles")
    p.add_argument("-v", "--verbose", action="store_true", help=VERBOSE_HELP)
    add_check_options(p)
    add_jobs_option(p)


def claim_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a claim file (.toml); a proof (.tex or steps) goes to verify")
    p.add_argument("--json", action="store_true", help=JSON_HELP)
    p.add_argument("-v", "--verbose", action="store_true", help=VERBOSE_HELP)
    add_check_options(p, budget=CLAIM_BUDGET)


def verify_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a proof file: .toml (steps or a LaTeX block) or .tex")
    p.add_argument("--json", action="store_true", help=JSON_HELP)
    p.add_argument("--no-oracle", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("-v", "--verbose", action="store_true", help=VERBOSE_HELP)
    add_check_options(p)


def latex_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", nargs="?", help="a catalog id or a proof file (.toml, .tex)")
    p.add_argument(
        "--all",
        action="store_true",
        help="the whole catalog as one document (a chapter per family, a table of contents "
        "and a summary table of verdicts; checks every derivation unless --no-check)",
    )
    p.add_argument(
        "-o",
        "--output",
        help="write to this file instead of standard output; a .pdf or .png name compiles "
        "it with pdflatex",
    )
    p.add_argument("--standalone", action="store_true", help="a complete document")
    p.add_argument("--png", action="store_true", help="render the first page to a PNG (-o)")
    p.add_argument(
        "--with-verdicts",
        action="store_true",
        help="run the check and print each step's verdict beside it",
    )
    p.add_argument("--no-check", action="store_true", help="with --all: no verdicts")
    p.add_argument("--no-oracle", action="store_true", help="skip the end-to-end oracles")
    add_check_options(p)
    add_jobs_option(p)


def explain_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", help="a catalog id or a proof file (.toml, .tex)")
    p.add_argument(
        "--no-check",
        action="store_true",
        help="do not run the check (omit how each step was checked)",
    )
    p.add_argument("-v", "--verbose", action="store_true", help=VERBOSE_HELP)
    add_budget_option(p)


def plot_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", help="one of: " + ", ".join(PLOT_NAMES))
    p.add_argument("-o", "--output", required=True, help="FILE.png or FILE.pdf")


def rules_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print a JSON object: name -> meaning")
