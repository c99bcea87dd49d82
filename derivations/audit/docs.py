"""Write ``docs/audit.md`` and ``docs/errata.md`` from the audit data:
``python3 -m derivations.audit.docs`` (a test fails when the committed files are stale)."""

from __future__ import annotations

import sys
from pathlib import Path

from derivations.audit.registry import entries, errata, seed_names
from symbolic.printing.audit import audit_markdown, errata_markdown

__all__ = ["DOCS", "render", "write"]

DOCS = Path(__file__).resolve().parents[2] / "docs"


def render() -> dict[str, str]:
    """File name -> its generated Markdown."""
    return {
        "audit.md": audit_markdown(entries(), seed_names()),
        "errata.md": errata_markdown(errata()),
    }


def write(directory: Path = DOCS) -> list[Path]:
    written = []
    for name, text in render().items():
        path = directory / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write():
        sys.stdout.write(f"wrote {path}\n")
