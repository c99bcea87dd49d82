"""``dpderive html -o DIR [ID|FILE ...]``: the catalog (or the ids given) and the user's
proof files as a static site, with each derivation's check unless ``--no-check``.

Given proof files and no ids, the site holds the proofs' pages and the pages of the catalog
lemmas they cite, transitively, and nothing else: checking the whole catalog for one proof
took 71 s against 3 s for ``verify`` (issue 29). ``--with-catalog`` adds the rest.

Bad input (an unknown id, an unreadable proof file, an output directory that cannot be
written) raises :class:`symbolic.errors.DpderiveError`: the CLI prints a message and exits 2.
The ids and files are read, and the directory tried, before any check runs, so a typo
costs no minutes of checking.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from derivations.app.exitcodes import for_reports
from derivations.app.options import add_check_options, add_jobs_option, check_options
from derivations.app.parallel import check_many, stderr_counter
from derivations.app.phases import expect, html_seconds
from derivations.catalog import IDS, catalog, get
from derivations.lemma_verdicts import LemmaVerdicts, check_one, lemma_targets
from derivations.printing.terminal import visible
from symbolic.derivation import Derivation
from symbolic.report import DerivationReport
from symbolic.scope import Scope

__all__ = ["HELP", "add_arguments", "run"]

HELP = "the catalog as a static HTML site with a teaching mode (works offline)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "targets",
        nargs="*",
        metavar="ID|FILE",
        help="catalog ids (default: the whole catalog) and proof files (.toml, .tex), "
        "each of which gets a page",
    )
    p.add_argument("-o", "--output", required=True, help="the directory to write the site to")
    p.add_argument("--no-check", action="store_true", help="statements and chains, no verdicts")
    p.add_argument("--no-plots", action="store_true", help="do not draw the plots")
    p.add_argument(
        "--with-catalog",
        action="store_true",
        help="with proof files: the whole catalog too (by default only the catalog lemmas "
        "the proofs cite, transitively)",
    )
    p.add_argument("--no-oracle", action="store_true", help="skip the end-to-end oracles")
    add_check_options(p)
    add_jobs_option(p)


def _split(
    targets: Sequence[str], with_catalog: bool = False
) -> tuple[list[Derivation], list[tuple[Derivation, Path]], bool]:
    """Catalog derivations and the proof files, loaded; an unknown id or a bad file raises
    (exit 2) before anything is checked.  The derivations are the ids given, or with none
    the whole catalog, or with proof files only the catalog lemmas they cite, transitively
    (the whole catalog with ``with_catalog``); the flag says whether the whole catalog is
    in."""
    # The proof reader (and its LaTeX parser) only when a file is given: the command line
    # imports this module for every verb's arguments.
    from symbolic.readers.proof_files import load_proof

    ids, files = [], []
    for t in targets:
        if Path(t).suffix.lower() in (".toml", ".tex"):
            files.append((load_proof(t, IDS), Path(t)))
        else:
            ids.append(get(t).id)
    if not ids and (with_catalog or not files):
        return list(catalog().values()), files, True
    chosen = [get(i) for i in dict.fromkeys(ids)]
    # The lemmas the proofs cite get pages of their own, so that the proofs' links resolve.
    cited = lemma_targets([d for d, _ in files])[len(files) :]
    known = {d.id for d in chosen}
    return [*chosen, *(d for d in cited if d.id not in known)], files, False


def _errata() -> list[dict[str, object]]:
    """The errata page's rows (the audit is read only for a site of the whole catalog)."""
    from derivations import audit
    from derivations.printing.audit import errata_json

    return list(errata_json(audit.errata()))


def run(args: argparse.Namespace, out: TextIO) -> int:
    # Imported here: the site (Jinja2, MathML, plots) is not needed by the other verbs,
    # which import this module for the verb's arguments.
    from derivations.app.html.site import Proof, build_site, writable_directory

    started = time.perf_counter()
    # Bad ids and files first: nothing is written or checked before they are read.
    derivations, files, whole = _split(args.targets, args.with_catalog)
    target = writable_directory(Path(args.output))
    reports: dict[str, DerivationReport] = {}
    lemmas = None
    # The bound counts what is built: every check (the lemmas below the pages and the
    # proofs included) and every page (issue 41: the whole catalog under --budget 5 was
    # killed after 8 s, its bound counting one derivation).
    run = [] if args.no_check else lemma_targets(derivations)
    rounds = math.ceil(len(run) / max(args.jobs, 1)) + len(files)
    expect(float(args.budget) * rounds + html_seconds(len(derivations) + len(files)))
    if not args.no_check:
        options = check_options(args)
        # The lemmas below the pages are checked in the same run (their verdicts make the
        # pages' basis), without pages of their own unless asked for.
        checked = check_many(run, options, args.jobs, stderr_counter(True))
        reports = {r.id: r for r in checked}
        lemmas = LemmaVerdicts(
            options,
            {r.id: r.verdict for r in checked},
            {r.id: Scope(r.scope, r.scope_note) for r in checked},
        )
    proofs = [
        Proof(d, check_one(d, lemmas) if lemmas else None, path.name, _read(path))
        for d, path in files
    ]
    summary = build_site(
        target,
        derivations,
        reports,
        errata=_errata() if whole else (),
        proofs=proofs,
        plots=not args.no_plots,
    )
    seconds = time.perf_counter() - started
    what = f"{len(derivations)} catalog page(s)" + (
        f" and {len(proofs)} proof page(s)" if proofs else ""
    )
    folder = visible(str(target))
    out.write(
        f"wrote {summary.files} files ({summary.bytes / 1e6:.2f} MB; {what}) to {folder} "
        f"in {seconds:.1f} s; open {visible(str(target / 'index.html'))}\n"
        + (f"note: {summary.missing}\n" if summary.missing else "")
    )
    # The site is written whatever the verdicts; the exit code says them, as check's does
    # (issue 43: a site of a refuted proof ended 0).  The lemmas checked only for the
    # pages' basis count where they have a page.
    shown = [reports[d.id] for d in derivations if d.id in reports]
    return for_reports(shown + [p.report for p in proofs if p.report is not None])


def _read(path: Path) -> str:
    # load_proof has read the file already; a second read cannot fail but for a race.
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
