"""Where a command writes its file: never over one of its inputs, and a document whose
author's LaTeX TeX refuses compiled without it (issue 41)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from derivations.app.pdflatex import render
from symbolic.errors import InvalidInput, LatexFailed

__all__ = ["refuse_overwriting", "render_or_without_author", "size_text"]


def refuse_overwriting(target: Path, inputs: Sequence[Path]) -> None:
    """Refuse (exit 2) an output file that is one of the inputs, under any name: the same
    file by its device and inode, so a symbolic or hard link to the input counts too
    (``dpderive latex mine.tex -o mine.tex`` replaced the user's proof, issue 41)."""
    try:
        out = target.stat()
    except OSError:
        return  # not there yet (or not reachable): nothing to overwrite
    for path in inputs:
        try:
            given = path.stat()
        except OSError:
            continue
        if (given.st_dev, given.st_ino) == (out.st_dev, out.st_ino):
            raise InvalidInput(
                f"-o {str(target)!r} is the input file {str(path)!r}; writing there would "
                "replace it: choose another output name"
            )


def render_or_without_author(
    text: str, without_author: Callable[[], str] | None, target: Path, png: bool
) -> tuple[Path, str]:
    """Compile ``text`` to ``target``; when pdflatex refuses it and ``without_author`` gives
    the same document without the author's own LaTeX (every token of which was known, and
    still not TeX: a ``\\bar`` with no argument in a reason), compile that instead.  The
    file written, and a note saying so ("" when the first document compiled)."""
    try:
        return render(text, target, png=png), ""
    except LatexFailed as exc:
        if without_author is None:
            raise
        written = render(without_author(), target, png=png)
        return written, (
            f"note: your LaTeX did not compile as written ({exc}); every line was typeset "
            "from the expressions as read and every reason as text\n"
        )


def size_text(path: Path) -> str:
    try:
        size = path.stat().st_size
    except OSError:
        return "size unknown"
    return f"{size / 1e6:.2f} MB" if size >= 1e5 else f"{size} bytes"
