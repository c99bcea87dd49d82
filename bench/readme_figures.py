"""The README's figures of the site, measured rather than typed (issue 43: the README said
138 s for the whole site where 32 s was measured).

    python3 bench/readme_figures.py            # measure and print the sentence
    python3 bench/readme_figures.py --write    # ... and put it into README.md

It builds the site of the whole catalog twice, as a user would (``dpderive html -o DIR
--jobs 2``, then ``--no-check``), each in a fresh process, and counts the files, their
size and the plots' share.  The sentence goes between the README's markers
``<!-- figures:site -->`` and ``<!-- /figures:site -->``.  Seconds depend on the machine
and its load: the sentence says where it was measured (``os.cpu_count()`` cores).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
MARKERS = re.compile(r"(<!-- figures:site -->)(.*?)(<!-- /figures:site -->)", re.S)


def _build(out: Path, *flags: str) -> tuple[float, int, int, int]:
    """Seconds, files, bytes and plot bytes of ``dpderive html -o out FLAGS``."""
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "derivations", "html", "-o", str(out), *flags],
        check=False,  # the exit code follows the verdicts (the errata are refuted)
        capture_output=True,
        cwd=ROOT,
        env=os.environ | {"PYTHONPATH": str(ROOT)},
    )
    seconds = time.perf_counter() - started
    files = [p for p in out.rglob("*") if p.is_file()]
    plots = sum(p.stat().st_size for p in files if p.parent.name == "plots")
    return seconds, len(files), sum(p.stat().st_size for p in files), plots


def sentence() -> str:
    with tempfile.TemporaryDirectory(prefix="dpderive-figures-") as tmp:
        s1, n1, b1, p1 = _build(Path(tmp) / "checked", "--jobs", "2")
        s2, n2, b2, _ = _build(Path(tmp) / "unchecked", "--no-check")
    cores = os.cpu_count() or 1
    return (
        f"The whole catalog with checks: {n1} files, {b1 / 1e6:.1f} MB (plots "
        f"{p1 / 1e6:.2f} MB), {s1:.0f} s with `--jobs 2` on {cores} cores; with "
        f"`--no-check` {n2} files, {b2 / 1e6:.1f} MB, {s2:.0f} s (measured by "
        "`python3 bench/readme_figures.py`)."
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="put the sentence into README.md")
    args = parser.parse_args(argv)
    text = sentence()
    print(text)
    if args.write:
        readme = README.read_text(encoding="utf-8")
        if not MARKERS.search(readme):
            print("README.md has no <!-- figures:site --> markers", file=sys.stderr)
            return 2
        README.write_text(MARKERS.sub(lambda m: m[1] + text + m[3], readme), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
