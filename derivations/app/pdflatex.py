"""LaTeX to PDF (pdflatex) and PDF to PNG (pdftoppm), with clear errors when either tool is
missing or LaTeX fails.  Both run in a private temporary directory.

The document may hold a stranger's LaTeX (what :mod:`symbolic.readers.latex.echo` lets
through), so pdflatex runs fenced in (issue 41): without shell escape, in TeX Live's
paranoid mode for reading and writing (``openin_any=p``, ``openout_any=p``: no absolute
paths, no parent directories, no dot files), stopping at the first error, each pass within
:data:`PASS_SECONDS` and every file it writes (its log included) within :data:`FILE_BYTES`;
and it dies with the process that started it (:mod:`derivations.app.lifeline`).
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from derivations.app.lifeline import die_with_parent
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
    proc = subprocess.run(
        [tool, name],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        preexec_fn=die_with_parent,
    )
    return proc.stdout.strip() or None


PASS_SECONDS = 120.0
"""Wall-clock seconds one pdflatex pass may take (the whole catalog's book takes about 15)."""
FILE_BYTES = 32 * 1024 * 1024
"""The largest file pdflatex may write, its log included (the book's PDF is about 2 MB); a
log flooded by a loop stops here instead of filling the disk (85 MB in 5 s, issue 41)."""
FOLDER_BYTES = 4 * FILE_BYTES
"""What the build folder may hold in all (files written with ``\\openout``, say)."""


def tex_environment() -> dict[str, str]:
    """pdflatex's environment: ours, with TeX Live's paranoid file access and no shell
    escape.  ``TEXMFOUTPUT`` is dropped: paranoid mode allows writing under it."""
    env = {k: v for k, v in os.environ.items() if k != "TEXMFOUTPUT"}
    env.update(openin_any="p", openout_any="p", shell_escape="f")
    return env


def _fence() -> None:
    """Run in pdflatex's process before it starts: die with us, write no huge file."""
    die_with_parent()
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_BYTES, FILE_BYTES))


def _folder_bytes(folder: Path) -> int:
    total = 0
    for entry in os.scandir(folder):
        try:
            total += entry.stat(follow_symlinks=False).st_size
        except OSError:
            continue
    return total


def _run_pass(pdflatex: str, workdir: Path, seconds: float) -> tuple[int, str]:
    """One pdflatex pass in ``workdir``: its exit code and the end of what it printed.
    Raises :class:`LatexFailed` when it runs out of time or writes too much."""
    printed = workdir / "pdflatex.out"
    with printed.open("wb") as sink:
        proc = subprocess.Popen(
            [pdflatex, "-no-shell-escape", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
            cwd=workdir,
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=subprocess.STDOUT,
            env=tex_environment(),
            preexec_fn=_fence,
        )
        try:
            deadline = time.monotonic() + seconds
            while proc.poll() is None:
                if time.monotonic() > deadline:
                    raise LatexFailed(
                        f"pdflatex ran longer than {seconds:g} s in one pass and was stopped"
                    )
                if _folder_bytes(workdir) > FOLDER_BYTES:
                    raise LatexFailed(
                        f"pdflatex wrote more than {FOLDER_BYTES // 2**20} MB and was stopped"
                    )
                time.sleep(0.05)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    if proc.returncode == -signal.SIGXFSZ:
        raise LatexFailed(
            f"pdflatex wrote a file larger than {FILE_BYTES // 2**20} MB (its log, flooded?) "
            "and was stopped"
        )
    with printed.open("rb") as handle:
        handle.seek(max(printed.stat().st_size - 2000, 0))
        tail = handle.read().decode(errors="replace")
    return proc.returncode, tail


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


def compile_pdf(
    tex: str, workdir: Path, max_passes: int = MAX_PASSES, seconds: float = PASS_SECONDS
) -> Path:
    """Compile ``tex`` in ``workdir``, running pdflatex again until a pass writes the same
    .aux and .toc as it read (so that the contents' page numbers are the pages where the
    sections start), at most ``max_passes`` times, each within ``seconds``.  Raises
    :class:`LatexFailed` with the first error lines on any LaTeX error."""
    pdflatex = _tool("pdflatex", INSTALL_LATEX)
    source = workdir / "doc.tex"
    source.write_text(tex, encoding="utf-8")
    for _ in range(max_passes):
        read = _cross_references(workdir)
        code, printed = _run_pass(pdflatex, workdir, seconds)
        log_path = workdir / "doc.log"
        log = log_path.read_text(errors="replace") if log_path.exists() else printed
        errors = latex_errors(log)
        if code != 0 or errors:
            shown = "; ".join(errors[:3]) or printed[-500:]
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
        preexec_fn=die_with_parent,
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
