"""LaTeX to PDF (pdflatex) and PDF to PNG (pdftoppm), with clear errors when either tool is
missing or LaTeX fails.  Both run in a private temporary directory."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from symbolic.errors import DpderiveError, LatexFailed, ToolMissing

INSTALL_LATEX = (
    "pdflatex was not found; install TeX Live, e.g. `apt-get install texlive-latex-base "
    "texlive-latex-recommended` on Debian/Ubuntu"
)
INSTALL_POPPLER = (
    "pdftoppm was not found; install poppler, e.g. `apt-get install poppler-utils` on Debian/Ubuntu"
)
INSTALL_CJK = (
    "the seeds' Chinese quotes need CJKutf8 and its Song font; install them, e.g. `apt-get "
    "install latex-cjk-chinese latex-cjk-chinese-arphic-gbsn00lp` on Debian/Ubuntu (without "
    'them the book prints "[Chinese text]" in their place)'
)
_LATEX_ERROR = re.compile(r"^! .*$|^.*Undefined control sequence.*$", re.MULTILINE)
_OVERFULL = re.compile(r"^Overfull \\hbox \(([0-9.]+)pt too wide\)(.*)$", re.MULTILINE)


def _tool(name: str, message: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise ToolMissing(message)
    return path


def kpsewhich(name: str) -> str | None:
    """Where TeX finds ``name`` (a package or font file), or None."""
    tool = shutil.which("kpsewhich")
    if tool is None:
        return None
    proc = subprocess.run([tool, name], capture_output=True, text=True, timeout=60, check=False)
    return proc.stdout.strip() or None


def latex_errors(log: str) -> list[str]:
    """The error lines of a pdflatex log (``! ...`` and undefined control sequences)."""
    return _LATEX_ERROR.findall(log)


def overfull_boxes(log: str) -> list[tuple[float, str]]:
    """Every overfull hbox of a pdflatex log: how many pt too wide, and where (TeX's own
    words, e.g. ``in paragraph at lines 12--14``).

    >>> overfull_boxes("Overfull \\\\hbox (2.5pt too wide) detected at line 7\\n")
    [(2.5, 'detected at line 7')]
    """
    return [(float(m.group(1)), m.group(2).strip()) for m in _OVERFULL.finditer(log)]


MAX_PASSES = 4
"""pdflatex passes at most: the contents of the book settle in three (the second pass
typesets a contents list one page longer than the first, which moves every section)."""


def _cross_references(workdir: Path) -> tuple[str | None, ...]:
    """What one pass writes for the next to read: the .aux (labels, footnote marks) and the
    .toc (the contents with their page numbers); None for a file not written."""
    return tuple(
        (workdir / f"doc.{ext}").read_text(errors="replace")
        if (workdir / f"doc.{ext}").exists()
        else None
        for ext in ("aux", "toc")
    )


def compile_pdf(tex: str, workdir: Path, max_passes: int = MAX_PASSES) -> Path:
    """Compile ``tex`` in ``workdir``, running pdflatex again until a pass writes the same
    .aux and .toc as it read (so that the contents' page numbers are the pages where the
    sections start), at most ``max_passes`` times.  Raises :class:`LatexFailed` with the
    first error lines on any LaTeX error."""
    pdflatex = _tool("pdflatex", INSTALL_LATEX)
    source = workdir / "doc.tex"
    source.write_text(tex, encoding="utf-8")
    for _ in range(max_passes):
        read = _cross_references(workdir)
        proc = subprocess.run(
            [pdflatex, "-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
            cwd=workdir,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=300,
            check=False,
        )
        log_path = workdir / "doc.log"
        log = log_path.read_text(errors="replace") if log_path.exists() else proc.stdout
        errors = latex_errors(log)
        if proc.returncode != 0 or errors:
            shown = "; ".join(errors[:3]) or proc.stdout[-500:]
            raise LatexFailed(f"pdflatex failed: {shown}")
        if _cross_references(workdir) == read:
            break
    return workdir / "doc.pdf"


def pdf_to_png(pdf: Path, target: Path, dpi: int = 150, page: int = 1) -> Path:
    """One page of ``pdf`` as a PNG at ``target``."""
    pdftoppm = _tool("pdftoppm", INSTALL_POPPLER)
    stem = target.with_suffix("")
    subprocess.run(
        [
            pdftoppm,
            "-png",
            "-r",
            str(dpi),
            "-f",
            str(page),
            "-l",
            str(page),
            "-singlefile",
            str(pdf),
            str(stem),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    made = stem.with_suffix(".png")
    if made != target:
        made.replace(target)
    return target


def render(tex: str, target: Path, *, png: bool = False) -> Path:
    """Write the PDF (or, with ``png``, the first page as PNG) of ``tex`` to ``target``."""
    with tempfile.TemporaryDirectory(prefix="dpderive-") as tmp:
        pdf = compile_pdf(tex, Path(tmp))
        try:
            if png:
                return pdf_to_png(pdf, target)
            shutil.copyfile(pdf, target)
            return target
        except OSError as exc:
            raise DpderiveError(f"cannot write {str(target)!r}: {exc.strerror}") from None
