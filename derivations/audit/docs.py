"""Write the stored check results of the seeds kept as data (``data/seed_NNN.results.json``)
and ``docs/audit.md``, ``docs/errata.md`` from the audit: ``python3 -m
derivations.audit.docs`` (``--docs-only`` skips re-running the checks).  Tests fail when the
committed files are stale."""

from __future__ import annotations

import sys
from pathlib import Path

from derivations.audit.registry import entries, errata, seed_names
from derivations.printing.audit import audit_markdown, errata_markdown

__all__ = ["DOCS", "render", "rerun", "write"]

DOCS = Path(__file__).resolve().parents[2] / "docs"


def render() -> dict[str, str]:
    """File name -> its generated Markdown."""
    return {
        "audit.md": audit_markdown(entries(), seed_names()),
        "errata.md": errata_markdown(errata()),
    }


def rerun() -> list[Path]:
    """Run every check of the seeds kept as data and store the results."""
    from derivations.audit.run import Checks, run_seed, write_results
    from derivations.audit.spec import data_seeds, load_seed

    written, checks = [], Checks()
    for path in data_seeds().values():
        spec = load_seed(path)
        written.append(write_results(spec, run_seed(spec, checks)))
    return written


def write(directory: Path = DOCS) -> list[Path]:
    written = []
    for name, text in render().items():
        path = directory / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    done = [] if "--docs-only" in sys.argv[1:] else rerun()
    for path in [*done, *write()]:
        sys.stdout.write(f"wrote {path}\n")
