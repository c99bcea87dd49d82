"""The ``dpderive`` command line (also ``python -m derivations``).

Exit codes (a public interface): 0 proved/certified/checked, 1 refuted, 2 bad input,
3 undecided, 4 internal error.  ``check`` exits 1 if any derivation is refuted other than
the errata, whose refutation is expected (an erratum that is *not* refuted also exits 1).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from derivations import sparse_cli
from derivations.catalog import catalog, get
from derivations.claims import load_claim
from derivations.plots import PLOTS, plot  # matplotlib itself is imported only to draw
from derivations.render import render
from numeric_checks.verify import Checker, CheckOptions, check_derivation
from symbolic.derivation import Derivation
from symbolic.errors import DpderiveError
from symbolic.explain import explain
from symbolic.latex import catalog_book, derivation_latex
from symbolic.report import DerivationReport, StepResult
from symbolic.verdicts import Verdict

PLOT_NAMES = tuple(PLOTS)
EXIT_OK, EXIT_REFUTED, EXIT_BAD_INPUT, EXIT_UNDECIDED, EXIT_INTERNAL = 0, 1, 2, 3, 4


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"dpderive: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT)


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def _add_check_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--points",
        type=_positive_int,
        default=200,
        help="random points per derivation (default 200; edge and boundary points are added)",
    )
    p.add_argument(
        "--digits",
        type=_positive_int,
        default=50,
        help="working precision in decimal digits (default 50, at least 15)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the sampler (default 0)")
    p.add_argument(
        "--search",
        type=_positive_int,
        default=300,
        help="evaluations of the counterexample search per step (default 300)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="dpderive",
        description=("Machine-checked derivations of differential privacy theorems."),
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("list", help="list the catalog")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("check", help="check derivations step by step")
    p.add_argument("ids", nargs="*", metavar="ID")
    p.add_argument("--all", action="store_true", help="check the whole catalog")
    p.add_argument("--json", action="store_true")
    p.add_argument("--no-oracle", action="store_true", help="skip the end-to-end oracles")
    _add_check_options(p)

    p = sub.add_parser("claim", help="check a claim typed from a book (TOML file)")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    _add_check_options(p)

    p = sub.add_parser("latex", help="LaTeX of a derivation, or a book of the whole catalog")
    p.add_argument("id", nargs="?")
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
    _add_check_options(p)

    p = sub.add_parser("explain", help="the proof step by step, for a learner")
    p.add_argument("id")
    p.add_argument(
        "--no-check",
        action="store_true",
        help="do not run the check (omit how each step was checked)",
    )
    p = sub.add_parser("plot", help="draw a plot from the numeric oracles (matplotlib)")
    p.add_argument("name", help="one of: " + ", ".join(PLOT_NAMES))
    p.add_argument("-o", "--output", required=True, help="FILE.png or FILE.pdf")

    sparse_cli.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    try:
        args = build_parser().parse_args(argv)
        return _COMMANDS[args.command](args, out)
    except SystemExit as exc:
        return int(exc.code) if isinstance(exc.code, int) else EXIT_BAD_INPUT
    except (DpderiveError, ValueError) as exc:
        print(f"dpderive: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except RecursionError:
        print("dpderive: error: input nests too deeply to process", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("dpderive: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # never a raw traceback from the CLI
        print(
            f"dpderive: internal error ({type(exc).__name__}: {exc}); please report it "
            "with the command that caused it",
            file=sys.stderr,
        )
        return EXIT_INTERNAL


def _options(args: argparse.Namespace) -> CheckOptions:
    return CheckOptions(
        points=args.points,
        dps=args.digits,
        seed=args.seed,
        search_budget=args.search,
        oracle=not getattr(args, "no_oracle", False),
    )


def _cmd_list(args: argparse.Namespace, out: TextIO) -> int:
    rows = [
        {
            "id": d.id,
            "title": d.title,
            "source": str(d.source),
            "family": d.family,
            "erratum": d.erratum,
        }
        for d in catalog().values()
    ]
    if args.json:
        json.dump(rows, out, indent=2)
        out.write("\n")
        return EXIT_OK
    width = max(len(r["id"]) for r in rows)
    for r in rows:
        mark = "  [erratum]" if r["erratum"] else ""
        out.write(f"{r['id']:<{width}}  {r['title']}  ({r['source']}){mark}\n")
    return EXIT_OK


def _cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    if args.all and args.ids:
        raise DpderiveError("give derivation ids or --all, not both")
    if not args.all and not args.ids:
        raise DpderiveError("give derivation ids to check, or --all")
    targets = list(catalog().values()) if args.all else [get(i) for i in args.ids]
    options = _options(args)
    reports = _check_each(targets, options, progress=not args.json and len(targets) > 1)
    if args.json:
        json.dump([r.to_json() for r in reports], out, indent=2)
        out.write("\n")
    else:
        for r in reports:
            out.write(format_report(r))
        out.write(_summary(reports))
    if any(not r.as_expected for r in reports):
        return EXIT_REFUTED
    if any(r.verdict is Verdict.UNDECIDED for r in reports):
        return EXIT_UNDECIDED
    return EXIT_OK


def _cmd_claim(args: argparse.Namespace, out: TextIO) -> int:
    d = load_claim(args.file)
    checker = Checker(d, _options(args))
    result = checker.check_link(1, d.claim.lhs, d.claim.relation, d.claim.rhs, "the claim as typed")
    if args.json:
        json.dump(claim_json(d.statement, result), out, indent=2)
        out.write("\n")
    else:
        out.write(f"claim: {d.claim}\n")
        if d.statement:
            out.write(f"statement: {d.statement}\n")
        out.write(f"verdict: {result.verdict.value}\n")
        out.write(f"evidence: {result.evidence}\n")
    return result.verdict.exit_code


def claim_json(statement: str, result: StepResult) -> dict[str, Any]:
    """The ``--json`` object of ``dpderive claim`` (a public interface)."""
    cex = result.counterexample
    return {
        "verdict": result.verdict.value,
        "counterexample": dict(cex.point) if cex else None,
        "lhs_value": cex.lhs if cex else None,
        "rhs_value": cex.rhs if cex else None,
        "points": result.numeric.points if result.numeric else 0,
        "digits": result.numeric.digits if result.numeric else 0,
        "evidence": result.evidence,
        "symbolic": result.symbolic,
        "statement": statement,
        "claim": f"{result.lhs} {result.relation} {result.rhs}",
    }


def _cmd_latex(args: argparse.Namespace, out: TextIO) -> int:
    if args.all == bool(args.id):
        raise DpderiveError("give one derivation id or --all")
    target = Path(args.output) if args.output else None
    suffix = target.suffix.lower() if target else ""
    if (args.png or suffix in (".pdf", ".png")) and target is None:
        raise DpderiveError("--png needs -o FILE.png")
    compiled = args.png or suffix in (".pdf", ".png")
    if args.all:
        derivations = list(catalog().values())
        checked = [] if args.no_check else _check_each(derivations, _options(args), True)
        text = catalog_book(derivations, {r.id: r for r in checked})
    else:
        d = get(args.id)
        report = check_derivation(d, _options(args)) if args.with_verdicts else None
        text = derivation_latex(d, report, standalone=args.standalone or compiled)
    if compiled:
        assert target is not None
        render(text, target, png=args.png or suffix == ".png")
    elif target is not None:
        try:
            target.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise DpderiveError(f"cannot write {args.output!r}: {exc.strerror}") from None
    else:
        out.write(text)
    return EXIT_OK


def _cmd_plot(args: argparse.Namespace, out: TextIO) -> int:
    target = plot(args.name, Path(args.output))
    out.write(f"wrote {target}\n")
    return EXIT_OK


def _check_each(
    targets: Sequence[Derivation], options: CheckOptions, progress: bool
) -> list[DerivationReport]:
    """Check ``targets`` in order; with ``progress``, a one-line counter on a terminal's
    stderr (nothing when stderr is not a terminal)."""
    show = progress and sys.stderr.isatty()
    reports = []
    for i, d in enumerate(targets, start=1):
        if show:
            sys.stderr.write(f"\r\033[K[{i}/{len(targets)}] checking {d.id}")
            sys.stderr.flush()
        reports.append(check_derivation(d, options))
    if show:
        sys.stderr.write("\r\033[K")
        sys.stderr.flush()
    return reports


def _cmd_explain(args: argparse.Namespace, out: TextIO) -> int:
    d = get(args.id)
    report = None if args.no_check else check_derivation(d)
    out.write(explain(d, report))
    return EXIT_OK


_COMMANDS = {
    "list": _cmd_list,
    "check": _cmd_check,
    "claim": _cmd_claim,
    "latex": _cmd_latex,
    "explain": _cmd_explain,
    "sparse": sparse_cli.run,
    "plot": _cmd_plot,
}


def format_report(r: DerivationReport) -> str:
    """A derivation's report as text: one line per step with its verdict and evidence."""
    lines = [f"{r.id}: {r.verdict.value.upper()}  {r.title}", f"  source: {r.source}"]
    if r.erratum:
        status = "refuted as expected" if r.as_expected else "NOT refuted (unexpected)"
        lines.append(f"  erratum ({status}): {r.erratum}")
    for s in r.steps:
        lines.append(f"  step {s.index} [{s.relation}] {s.verdict.value}: {s.evidence}")
    lines.append(f"  conclusion: {r.conclusion.verdict.value}: {r.conclusion.evidence}")
    if r.oracle:
        state = {True: "agrees", False: "DISAGREES", None: "undecided"}[r.oracle.agrees]
        lines.append(f"  oracle {r.oracle.name}: {state}: {r.oracle.detail}")
        if r.oracle.counterexample:
            lines.append(f"    at {r.oracle.counterexample}")
        if r.oracle.closest:
            lines.append(f"    closest to failing: {r.oracle.closest}")
    lines += [f"  note: {n}" for n in r.notes]
    return "\n".join(lines) + "\n\n"


def _summary(reports: Sequence[DerivationReport]) -> str:
    counts: dict[str, int] = {}
    for r in reports:
        counts[r.verdict.value] = counts.get(r.verdict.value, 0) + 1
    errata = sum(1 for r in reports if r.erratum)
    text = ", ".join(f"{n} {v}" for v, n in sorted(counts.items()))
    return (
        f"{len(reports)} derivation(s): {text}"
        + (f" ({errata} erratum/errata expected refuted)" if errata else "")
        + "\n"
    )


if __name__ == "__main__":
    raise SystemExit(main())
