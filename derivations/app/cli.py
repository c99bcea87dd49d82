"""The ``dpderive`` command line (also ``python -m derivations``).

Exit codes (a public interface, :mod:`derivations.app.exitcodes`): 0 proved/certified/
checked, 1 refuted, 2 bad input, 3 undecided, 4 internal error.  ``check`` exits 1 if any
derivation is refuted other than the errata, whose refutation is expected (an erratum that
is *not* refuted also exits 1).

Each verb is a function ``(args, out) -> exit code`` with a function adding its arguments,
registered once in :data:`VERBS`.
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import math
import os
import sys
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO, cast

from derivations import audit
from derivations.app import account, arguments, audit_verbs, html, listing, sparse
from derivations.app.about import TOP_EPILOG, Verb, with_suggestion
from derivations.app.exitcodes import (
    EXIT_BAD_INPUT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_UNDECIDED,
    for_reports,
    for_verdict,
)
from derivations.app.failures import (
    UsageError,
    VisibleOutput,
    failed,
    usage_failed,
    wants_json,
    write_json,
)
from derivations.app.listing import catalog_table
from derivations.app.options import check_options
from derivations.app.outputs import refuse_overwriting, render_or_without_author, size_text
from derivations.app.parallel import check_many, stderr_counter
from derivations.app.pdflatex import MAX_PASSES, PASS_SECONDS
from derivations.app.phases import PIPE_EXIT, expect, memory_limit_mb, phase
from derivations.app.plots import PLOTS, plot  # matplotlib itself is imported only to draw
from derivations.catalog import HOMES, IDS, catalog, get
from derivations.lemma_verdicts import LemmaVerdicts, check_one, lemma_targets
from derivations.printing.audit import errata_latex
from derivations.printing.explain import explain
from derivations.printing.json import catalog_json, claim_json, proof_json, report_json
from derivations.printing.latex import catalog_book, derivation_latex
from derivations.printing.terminal import visible
from derivations.printing.text import (
    claim_text,
    format_report,
    proof_text,
    summary,
)
from numeric_checks import CheckOptions, check_claim
from symbolic.basis import claim_basis
from symbolic.derivation import Derivation
from symbolic.errors import DpderiveError, InvalidInput
from symbolic.report import DerivationReport
from symbolic.scope import scope_of

PLOT_NAMES = tuple(PLOTS)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(self.format_usage(), with_suggestion(message, list(_VERB)))


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="dpderive",
        description="Machine-checked derivations of differential privacy theorems.",
        epilog=TOP_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"dpderive {version()}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for verb in VERBS:
        verb.arguments(
            sub.add_parser(
                verb.name,
                help=verb.help,
                description=textwrap.fill(verb.description or verb.help, 79),
                epilog=verb.about.epilog(),
                formatter_class=argparse.RawDescriptionHelpFormatter,
            )
        )
    return parser


def version() -> str:
    """The installed package's version (the source tree's when run from a checkout)."""
    from importlib import metadata

    try:
        return metadata.version("dpderive")
    except metadata.PackageNotFoundError:
        return "0.1.0 (source tree)"


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    out = cast(TextIO, VisibleOutput(out or sys.stdout))
    json_wanted = wants_json(argv)
    try:
        args = build_parser().parse_args(argv)
        return _VERB[args.command].run(args, out)
    except UsageError as exc:
        return usage_failed(exc, argv, out)
    except BrokenPipeError:
        # The reader went away (`dpderive list --json | head`): end quietly, and keep
        # Python's final flush from complaining on stderr.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return PIPE_EXIT
    except MemoryError:
        return failed(
            f"the memory limit ({memory_limit_mb()} MB of address space in the command line; "
            "DPDERIVE_MEMORY_MB changes it) was reached",
            EXIT_UNDECIDED,
            json_wanted,
            out,
            prefix="undecided: ",
        )
    except SystemExit as exc:
        return int(exc.code) if isinstance(exc.code, int) else EXIT_BAD_INPUT
    except (DpderiveError, ValueError) as exc:
        return failed(str(exc), EXIT_BAD_INPUT, json_wanted, out)
    except RecursionError:
        return failed("input nests too deeply to process", EXIT_BAD_INPUT, json_wanted, out)
    except KeyboardInterrupt:
        return failed("interrupted", EXIT_INTERRUPTED, json_wanted, out, prefix="")
    except Exception as exc:  # never a raw traceback from the CLI
        return failed(
            f"internal error ({type(exc).__name__}: {exc}); please report it with the "
            "command that caused it",
            EXIT_INTERNAL,
            json_wanted,
            out,
            prefix="",
        )


def _cmd_list(args: argparse.Namespace, out: TextIO) -> int:
    derivations = list(catalog().values())
    verdicts = None
    if args.check:
        phase("checking the catalog")
        expect_checks(args, len(derivations), args.jobs)
        checked = _check_each(derivations, args, progress=not args.json)
        verdicts = {r.id: r.verdict for r in checked}
    if args.json:
        rows = catalog_json(derivations)
        if verdicts is not None:
            rows = [{**row, "verdict": verdicts[row["id"]].value} for row in rows]
        write_json(rows, out)
    else:
        out.write(catalog_table(derivations, verdicts))
    return EXIT_OK


def _cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    if args.all and args.ids:
        raise DpderiveError("give derivation ids or --all, not both")
    if not args.all and not args.ids:
        raise DpderiveError("give derivation ids to check, or --all")
    targets = list(catalog().values()) if args.all else [catalog_entry(i) for i in args.ids]
    phase("checking " + ("the catalog" if args.all else ", ".join(args.ids)))
    # The lemmas below the ids are checked in the same run (their verdicts make the ids'
    # basis) but not reported: `check advanced-composition` reports advanced-composition.
    run = lemma_targets(targets)
    expect_checks(args, len(run), args.jobs)
    reports = _check_each(run, args, progress=not args.json and len(run) > 1)[: len(targets)]
    if args.json:
        write_json([report_json(r) for r in reports], out)
    else:
        for r in reports:
            out.write(format_report(r, verbose=args.verbose))
        out.write(summary(reports))
    return for_reports(reports)


def _cmd_claim(args: argparse.Namespace, out: TextIO) -> int:
    from symbolic.readers.claim_files import load_claim  # the LaTeX reader: only these verbs

    started = time.monotonic()
    phase(f"reading and parsing {args.file}")
    d = load_claim(args.file)
    phase("checking the claim")
    result = check_claim(d, _remaining(args, started))
    scope = scope_of(d, (result,))
    basis = claim_basis(result.verdict)
    if args.json:
        write_json(claim_json(d.statement, result, scope, basis), out)
    else:
        out.write(claim_text(d, result, scope, basis, verbose=args.verbose))
    return for_verdict(result.verdict)


def _cmd_latex(args: argparse.Namespace, out: TextIO) -> int:
    if args.all == bool(args.id):
        raise DpderiveError("give one derivation id or --all")
    target = Path(args.output) if args.output else None
    suffix = target.suffix.lower() if target else ""
    compiled = args.png or suffix in (".pdf", ".png")
    if compiled and target is None:
        raise DpderiveError("--png needs -o FILE.png")
    if target is not None and args.id:
        refuse_overwriting(target, [Path(args.id)])
    compiling = MAX_PASSES * PASS_SECONDS if compiled else 0.0
    if args.all:
        derivations = list(catalog().values())
        expect_checks(args, 0 if args.no_check else len(derivations), args.jobs, compiling)
        checked = [] if args.no_check else _check_each(derivations, args, True)
        text = catalog_book(
            derivations, {r.id: r for r in checked}, errata=errata_latex(audit.errata())
        )
        reports = checked
    else:
        d = _target(args.id)
        expect_checks(args, len(lemma_targets([d])) if args.with_verdicts else 0, 1, compiling)
        report = _check_one(d, check_options(args)) if args.with_verdicts else None
        text = derivation_latex(d, report, standalone=args.standalone or compiled)
        reports = [report] if report is not None else []
    # The document is written whatever the verdicts; the exit code says them (issue 43).
    ended = for_reports(reports)
    if target is None:
        out.write(text)
        return ended
    retried = ""
    if compiled:
        plain = (
            None if args.all else lambda: derivation_latex(d, report, standalone=True, author=False)
        )
        written, retried = render_or_without_author(
            text, plain, target, args.png or suffix == ".png"
        )
        what = "PNG of the first page" if written.suffix.lower() == ".png" else "PDF"
    else:
        try:
            target.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise DpderiveError(f"cannot write {args.output!r}: {exc.strerror}") from None
        written, what = target, "LaTeX"
    # Said on stdout, which carries nothing else with -o (the issue: silent on success).
    out.write(f"wrote {visible(str(written))} ({what}, {size_text(written)})\n" + retried)
    return ended


def _cmd_explain(args: argparse.Namespace, out: TextIO) -> int:
    d = _target(args.id)
    if not args.no_check:
        expect_checks(args, len(lemma_targets([d])), 1)
    report = None if args.no_check else _check_one(d, CheckOptions(budget=args.budget))
    out.write(explain(d, report, verbose=args.verbose))
    return EXIT_OK


def _cmd_verify(args: argparse.Namespace, out: TextIO) -> int:
    from symbolic.readers.proof_files import load_proof

    started = time.monotonic()
    phase(f"reading and parsing {args.file}")
    d = load_proof(args.file, IDS)
    phase("checking the proof")
    # The catalog lemmas it cites are checked too, each within the budget.
    expect_checks(args, len(lemma_targets([d])), 1)
    report = _check_one(d, _remaining(args, started))
    if args.json:
        write_json(proof_json(report), out)
    else:
        out.write(proof_text(d, report, verbose=args.verbose))
    return for_verdict(report.verdict)


def expect_checks(args: argparse.Namespace, checks: int, jobs: int, extra: float = 0.0) -> None:
    """Tell the watchdog what this command will do: ``checks`` derivations on ``jobs``
    workers, each within ``--budget``, and ``extra`` seconds of other work (typesetting)."""
    rounds = math.ceil(checks / max(jobs, 1))
    expect(float(args.budget) * rounds + extra)


def _remaining(args: argparse.Namespace, started: float) -> CheckOptions:
    """The check options with the budget less the time reading and parsing took, so that
    the whole command stays within ``--budget`` (the check's own deadline then stops it
    with its evidence before the watchdog has to)."""
    options = check_options(args)
    left = max(options.budget - (time.monotonic() - started), 0.5)
    return dataclasses.replace(options, budget=min(options.budget, left))


def _target(ident: str) -> Derivation:
    """A catalog id, or a user's proof file (a path ending in .toml or .tex)."""
    if Path(ident).suffix.lower() in (".toml", ".tex"):
        from symbolic.readers.proof_files import load_proof

        phase(f"reading and parsing {ident}")
        return load_proof(ident, IDS)
    return catalog_entry(ident)


def catalog_entry(ident: str) -> Derivation:
    """The catalog derivation ``ident``; an unknown id is exit 2 with the nearest ids."""
    if ident in HOMES:
        # A headline id from its own module: building the whole catalog to look it up
        # cost 1.3 s of a 2.2 s `check laplace-ratio`.
        return get(ident)
    known = catalog()
    if ident not in known:
        near = difflib.get_close_matches(ident, list(known), n=3, cutoff=0.6)
        hint = (
            "did you mean " + " or ".join(near) + "?" if near else "`dpderive list` shows the ids"
        )
        raise InvalidInput(f"unknown derivation id {ident!r}; {hint}")
    return get(ident)


def _check_one(d: Derivation, options: CheckOptions) -> DerivationReport:
    """Check ``d``, with the lemmas below it checked in the same run (see
    :func:`derivations.lemma_verdicts.check_one`)."""
    return check_one(d, LemmaVerdicts(options))


def _cmd_plot(args: argparse.Namespace, out: TextIO) -> int:
    target = plot(args.name, Path(args.output))
    out.write(f"wrote {visible(str(target))}\n")
    return EXIT_OK


def _check_each(
    targets: Sequence[Derivation], args: argparse.Namespace, progress: bool
) -> list[DerivationReport]:
    """Check ``targets`` with ``--jobs`` worker processes, reports in the order given; with
    ``progress``, a one-line counter on a terminal's stderr."""
    return check_many(
        targets, check_options(args), jobs=args.jobs, progress=stderr_counter(progress)
    )


VERBS = (
    Verb(
        "list",
        "list the catalog: id, family and source (verdicts with --check)",
        arguments.list_arguments,
        _cmd_list,
    ),
    Verb("check", "check derivations step by step", arguments.check_arguments, _cmd_check),
    Verb(
        "claim",
        "check a claim typed from a book (TOML file)",
        arguments.claim_arguments,
        _cmd_claim,
    ),
    Verb(
        "latex",
        "LaTeX of a derivation, or a book of the whole catalog",
        arguments.latex_arguments,
        _cmd_latex,
    ),
    Verb(
        "explain",
        "the proof step by step, for a learner",
        arguments.explain_arguments,
        _cmd_explain,
    ),
    Verb(
        "verify",
        "check a proof from a book or homework, step by step (TOML or LaTeX file)",
        arguments.verify_arguments,
        _cmd_verify,
    ),
    Verb(
        "rules",
        'list the rule names a proof step may cite (by = "rule:NAME")',
        arguments.rules_arguments,
        listing.run_rules,
    ),
    Verb("audit", audit_verbs.AUDIT_HELP, audit_verbs.audit_arguments, audit_verbs.run_audit),
    Verb("errata", audit_verbs.ERRATA_HELP, audit_verbs.errata_arguments, audit_verbs.run_errata),
    Verb(
        "plot",
        "draw a plot from the numeric oracles (matplotlib)",
        arguments.plot_arguments,
        _cmd_plot,
    ),
    Verb("sparse", sparse.HELP, sparse.add_arguments, sparse.run),
    Verb("account", account.HELP, account.add_arguments, account.run),
    Verb("html", html.HELP, html.add_arguments, html.run),
)
_VERB = {verb.name: verb for verb in VERBS}


if __name__ == "__main__":
    raise SystemExit(main())
