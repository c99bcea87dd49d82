"""What each verb's ``--help`` says beyond its options: a description, examples and the
exit codes it can end with (issue 29: the verbs' help had none of them); and the nearest
verbs for a mistyped one."""

from __future__ import annotations

import argparse
import difflib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO

from derivations.app.exitcodes import (
    EXIT_BAD_INPUT,
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_REFUTED,
    EXIT_UNDECIDED,
    MEANINGS,
)

__all__ = ["ABOUT", "CHECKS", "TOP_EPILOG", "WRITES", "About", "Verb", "with_suggestion"]

CHECKS = (EXIT_OK, EXIT_REFUTED, EXIT_BAD_INPUT, EXIT_UNDECIDED, EXIT_INTERNAL)
"""The exit codes of a verb that checks something."""
WRITES = (EXIT_OK, EXIT_BAD_INPUT, EXIT_UNDECIDED, EXIT_INTERNAL)
"""The exit codes of a verb that only prints or writes (3 when the watchdog stops it)."""

TOP_EPILOG = (
    "`dpderive VERB --help` describes a verb, with examples and its exit codes.\n\n"
    "exit codes:\n" + "\n".join(f"  {code}  {text}" for code, text in MEANINGS.items())
)


@dataclass(frozen=True)
class About:
    """A verb's description, examples (each a whole command line) and exit codes."""

    description: str
    examples: tuple[str, ...]
    exits: tuple[int, ...] = CHECKS

    def epilog(self) -> str:
        lines = ["examples:", *(f"  {e}" for e in self.examples), "", "exit codes:"]
        lines += [f"  {code}  {MEANINGS[code]}" for code in self.exits]
        return "\n".join(lines)


ABOUT: dict[str, About] = {
    "list": About(
        "The catalog's derivations as a table within 100 columns: id, family and a short "
        "source. The verdict column needs a check of the whole catalog (about a minute on "
        "two cores), so it is shown only with --check.",
        ("dpderive list", "dpderive list --check --jobs 2", "dpderive list --json"),
        WRITES,
    ),
    "check": About(
        "Check catalog derivations step by step: each step proved (rules, SymPy), "
        "certified (interval arithmetic on a box), checked (numeric sampling only), "
        "refuted (a confirmed counterexample) or undecided. The lemmas a derivation cites "
        "are checked in the same run. The errata are expected to be refuted.",
        (
            "dpderive check laplace-ratio",
            "dpderive check kl-bound --points 500 --digits 60 --json",
            "dpderive check --all --jobs 2",
        ),
        CHECKS,
    ),
    "claim": About(
        "Check one statement typed from a book, a TOML claim file: [claim] lhs, relation, "
        "rhs; [variables] with their domains; optional hypotheses, [defs], [latex], title, "
        "source (see README.md). A chain of steps is a proof file: use `dpderive verify`.",
        (
            "dpderive claim my_claim.toml",
            "dpderive claim my_claim.toml --json --budget 30 --seed 1",
        ),
        CHECKS,
    ),
    "latex": About(
        "The LaTeX of a catalog derivation or of a proof file (the author's own lines, "
        "with a verdict beside each with --with-verdicts), or with --all the whole catalog "
        "as a book. A .pdf or .png output is compiled with pdflatex. With --with-verdicts "
        "(and --all unless --no-check) the exit code follows the verdicts, as check's does: "
        "a refuted proof exits 1 even though the document was written, so a grading "
        "script sees the failure.",
        (
            "dpderive latex laplace-ratio",
            "dpderive latex my_proof.tex --with-verdicts -o checked.pdf",
            "dpderive latex --all -o catalog.pdf",
        ),
        CHECKS,
    ),
    "explain": About(
        "The proof of a catalog derivation or a proof file in words, step by step: what "
        "each step says, why it holds, and how it was checked (unless --no-check).",
        ("dpderive explain laplace-ratio", "dpderive explain my_proof.toml --no-check"),
        WRITES,
    ),
    "verify": About(
        "Check a proof file step by step: a .toml with [[steps]] (relation, rhs, why, by) "
        "or a [proof] LaTeX block, or a .tex file whose %! lines are the header and whose "
        "align* is the chain. The first wrong step is marked with its counterexample. "
        '`dpderive rules` lists the names a step may cite as by = "rule:NAME".',
        (
            "dpderive verify docs/examples/laplace_ratio_student.toml",
            "dpderive verify homework.tex --json",
        ),
        CHECKS,
    ),
    "rules": About(
        'The names a step may cite as by = "rule:NAME" in a proof file (by.rule(NAME) in '
        "Python), one line each: the prover's rule families, then the named facts about "
        "functions that its nonlinear-arithmetic rule may use. Another name is refused.",
        ("dpderive rules", "dpderive rules --json"),
        WRITES,
    ),
    "audit": About(
        "Every statement of the seed texts with what became of it: a catalog derivation, "
        "an erratum, or why it is not checked.",
        ("dpderive audit", "dpderive audit 002 --json"),
        WRITES,
    ),
    "errata": About(
        "The errata of the seed texts: the statement as printed, its counterexample and "
        "the corrected statement.",
        ("dpderive errata", "dpderive errata --json"),
        WRITES,
    ),
    "plot": About(
        "Draw one of the plots computed by the numeric oracles (never from the theorems' "
        "own formulas) to a PNG or PDF file.",
        ("dpderive plot gdp-tradeoff -o tradeoff.png",),
        WRITES,
    ),
    "sparse": About(
        "Simulate NumericSparse (Dwork & Roth 2014, Algorithm 3 and Theorem 3.28) on "
        "adversarial query streams and estimate how often it fails (alpha, beta)-accuracy: "
        "exit 1 if some stream fails more often than beta with confidence, 3 if too few "
        "runs to tell.",
        (
            "dpderive sparse --eps 1 --beta 0.1 --c 2 --k 20",
            "dpderive sparse --eps 1 --beta 0.1 --c 2 --k 20 --alpha corrected --json",
        ),
        CHECKS,
    ),
    "account": About(
        "Check a claimed privacy guarantee of a composed mechanism (an account file: "
        "[mechanism], [composition], [claim]; see README.md): holds when an upper bound "
        "(a catalog theorem, or one the catalog only cites, said so) is at most the claim, "
        "refuted when a rigorous lower bound on the true delta(eps) exceeds it, else "
        "inconclusive with both bounds. dp_accounting is shown beside them when installed.",
        (
            "dpderive account docs/examples/account_dpsgd.toml",
            "dpderive account docs/examples/account_dpsgd.toml --json --plot dpsgd.png",
        ),
        CHECKS,
    ),
    "html": About(
        "A static site that works offline: an index, a page per derivation with its chain, "
        "verdicts and evidence, a teaching mode. Given proof files, a page for each and "
        "for the catalog lemmas they cite (transitively); the whole catalog then only with "
        "--with-catalog. Unless --no-check, the exit code follows the verdicts of the pages "
        "written, as check's does (a refuted proof or derivation 1, an erratum not refuted "
        "1, undecided 3); the site is written either way.",
        (
            "dpderive html -o site",
            "dpderive html -o site --no-check",
            "dpderive html -o site2 my_proof.toml",
        ),
        CHECKS,
    ),
}

_INVALID_VERB = re.compile(r"argument command: invalid choice: '([^']*)'")


def with_suggestion(message: str, verbs: Sequence[str]) -> str:
    """argparse's message, with the nearest verbs when the verb is unknown (``chek``)."""
    found = _INVALID_VERB.match(message)
    if found is None:
        return message
    typed = found.group(1)
    near = difflib.get_close_matches(typed, list(verbs), n=3, cutoff=0.6)
    hint = "did you mean " + " or ".join(near) + "? " if near else ""
    return f"invalid choice: unknown verb {typed!r}; {hint}the verbs are: {', '.join(verbs)}"


@dataclass(frozen=True)
class Verb:
    """One verb of the command line: its name and help, a function adding its arguments to
    its parser, and the function running it, ``(args, out) -> exit code``; what its
    ``--help`` says besides is in :data:`ABOUT`."""

    name: str
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace, TextIO], int]

    @property
    def about(self) -> About:
        return ABOUT[self.name]

    @property
    def description(self) -> str:
        return self.about.description

    @property
    def examples(self) -> tuple[str, ...]:
        return self.about.examples

    @property
    def exits(self) -> tuple[int, ...]:
        return self.about.exits
