"""A stranger's LaTeX in a teacher's document (issue 41): the three channels by which a
proof file put raw TeX into ``dpderive latex`` output, each with the payloads a hostile
student would try, and pdflatex's own fence behind them.

The channels: (a) a reason's mathematics (``$...$`` in a TOML ``why``, or in a ``.tex``
chain's ``\\text{...}``), (b) the argument of a command the reader skips unread
(``\\phantom``, ``\\hspace``, ``\\label``...), (c) a ``[latex]`` key, matched as raw text.
Each payload is either refused (exit 2, naming the line) or never reaches the document: the
body of every document produced is scanned as TeX reads it for TeX's ``^^`` notation and
the primitives that read or write files; and one document per channel is compiled, its PDF
read back with pdftotext, and the folder listed, so that neither the password file nor a
file written by TeX can appear.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from derivations.app import pdflatex
from derivations.app.cli import main
from derivations.printing.latex.preamble import PREAMBLE
from symbolic.errors import LatexFailed
from symbolic.readers.latex.echo import ECHO_WORDS, FORBIDDEN, echo, refuse_hazards

HAVE_TOOLS = shutil.which("pdflatex") is not None and shutil.which("pdftotext") is not None
needs_latex = pytest.mark.skipif(
    not HAVE_TOOLS and not os.environ.get("DPDERIVE_REQUIRE_LATEX"),
    reason="pdflatex/pdftotext not installed",
)
SECRET = "/etc/passwd"
LEAK = "root:"
"""What the password file's first line starts with: it must reach no PDF."""

PAYLOADS = {
    "input": r"\input{/etc/passwd}",
    "caret-backslash": r"^^5cinput{/etc/passwd}",
    "caret-brace": r"^^7d\input{/etc/passwd}",
    "csname": r"\csname input\endcsname{/etc/passwd}",
    "openout": r"\immediate\openout5=pwned.tex \immediate\write5{x}\immediate\closeout5",
    "def": r"\def\x{\input}\x{/etc/passwd}",
    "let": r"\let\x\input \x{/etc/passwd}",
    "catcode": r"\catcode`\|=0 |input{/etc/passwd}",
    "lowercase": r"\lowercase{\INPUT{/etc/passwd}}",
    "scantokens": r"\scantokens{\input{/etc/passwd}}",
    "detokenize": r"\detokenize{\input}",
    "double-backslash": r"\\input{/etc/passwd}",
    "homoglyph": "\uff3cinput{/etc/passwd}",
    "active": r"~\input{/etc/passwd}",
    "macro": r"\mymacro{/etc/passwd}",
    "hash": r"#1",
}
"""TeX tricks, one per row: ``^^5c`` is a backslash and ``^^7d`` a closing brace to TeX; a
fullwidth backslash looks like one; ``\\\\input`` is a row's end then letters."""


def channel_a(payload: str) -> tuple[str, str]:
    """A reason's mathematics, in a TOML step's ``why`` (never read as LaTeX on input)."""
    text = (
        '[variables]\nx = "(0, 1)"\n[[steps]]\nlhs = "x"\nrelation = "<="\nrhs = "1"\n'
        f"why = '''since ${payload}$ holds'''\n"
    )
    return "a.toml", text


def channel_a_tex(payload: str) -> tuple[str, str]:
    """A reason's mathematics inside a ``.tex`` chain's ``\\text{...}``."""
    body = f"\\begin{{align*}}\nx &\\le 1 && \\text{{since ${payload}$}}\n\\end{{align*}}\n"
    return "a.tex", '%! [variables]\n%! x = "(0, 1)"\n' + body


def channel_b(payload: str) -> tuple[str, str]:
    """The argument of a command the reader skips unread, between two tokens it reads."""
    body = f"\\begin{{align*}}\nx &\\le 1 \\phantom{{{payload}}} + 0\n\\end{{align*}}\n"
    return "b.tex", '%! [variables]\n%! x = "(0, 1)"\n' + body


def channel_c(payload: str) -> tuple[str, str]:
    """A ``[latex]`` key, and the chain that uses it."""
    key = payload.replace("'", "")
    text = (
        f'[variables]\nx = "(0, 1)"\n[latex]\n\'{key}\' = "x"\n'
        f'[[steps]]\nlhs = \'{key}\'\nrelation = "<="\nrhs = "1"\n'
    )
    return "c.toml", text


CHANNELS = {"a": channel_a, "a-tex": channel_a_tex, "b": channel_b, "c": channel_c}


def _latex(path: Path, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["latex", str(path), *argv], out=out)
    return code, out.getvalue(), err.getvalue()


def _body(tex: str) -> str:
    """A document without our preamble (which loads glyphtounicode with \\input)."""
    return tex.split("\\begin{document}", 1)[-1]


@pytest.mark.parametrize("channel", sorted(CHANNELS))
@pytest.mark.parametrize("payload", sorted(PAYLOADS))
def test_a_payload_is_refused_or_never_echoed(channel: str, payload: str, tmp_path: Path) -> None:
    name, text = CHANNELS[channel](PAYLOADS[payload])
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    code, tex, err = _latex(path, "--standalone")
    assert code in (0, 2), err
    if code == 2:
        assert "Traceback" not in err and err.startswith("dpderive: error:"), err
        return
    body = _body(tex)
    refuse_hazards(body)  # no ^^, no #, no \input, \write, \def... as TeX reads the body
    assert "\\phantom" not in body and "\\mymacro" not in body
    assert LEAK not in tex


def test_the_reader_refuses_file_primitives_naming_the_line(tmp_path: Path) -> None:
    for channel, builder in (("a-tex", channel_a_tex), ("b", channel_b)):
        name, text = builder(PAYLOADS["input"])
        (tmp_path / name).write_text(text, encoding="utf-8")
        code, _, err = _latex(tmp_path / name)
        assert code == 2 and "\\input at line 4 is refused" in err, (channel, err)
    name, text = channel_c(PAYLOADS["caret-backslash"])
    (tmp_path / name).write_text(text, encoding="utf-8")
    code, _, err = _latex(tmp_path / name)
    assert code == 2 and "[latex] key" in err and "^^ notation is refused" in err, err


def test_an_unknown_command_is_left_out_with_a_note(tmp_path: Path) -> None:
    name, text = channel_c(PAYLOADS["macro"])
    (tmp_path / name).write_text(text, encoding="utf-8")
    code, tex, _ = _latex(tmp_path / name)
    assert code == 0 and "your LaTeX not shown" in tex and "mymacro, which is not" in tex
    assert "\\mymacro{" not in tex  # the note escapes it: \textbackslash{}mymacro


def test_an_ignored_argument_is_not_echoed(tmp_path: Path) -> None:
    body = "\\begin{align*}\nx &\\le \\frac{1}{1}\\hspace{1em}\\label{eq:one} + 0\n\\end{align*}\n"
    (tmp_path / "p.tex").write_text('%! [variables]\n%! x = "(0, 1)"\n' + body)
    code, tex, _ = _latex(tmp_path / "p.tex")
    assert code == 0 and "\\frac{1}{1}" in tex
    assert "\\hspace" not in tex and "\\label" not in tex and "eq:one" not in tex


def _pdf_text(pdf: Path) -> str:
    proc = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True)
    return proc.stdout


@needs_latex
@pytest.mark.parametrize(
    ("channel", "payload"),
    [("a", "input"), ("a", "caret-backslash"), ("b", "macro"), ("c", "macro")],
)
def test_the_compiled_pdf_holds_no_system_file(channel: str, payload: str, tmp_path: Path) -> None:
    name, text = CHANNELS[channel](PAYLOADS[payload])
    (tmp_path / name).write_text(text, encoding="utf-8")
    before = set(os.listdir(tmp_path))
    code, _, err = _latex(tmp_path / name, "-o", str(tmp_path / "out.pdf"))
    assert code == 0, err
    assert LEAK not in _pdf_text(tmp_path / "out.pdf")
    assert set(os.listdir(tmp_path)) == before | {"out.pdf"}


@needs_latex
def test_the_standalone_tex_compiled_by_hand_reads_and_writes_nothing(tmp_path: Path) -> None:
    """The ``--standalone`` .tex of every channel, compiled by hand with the user's own
    pdflatex settings (no paranoid mode): only pdflatex's own files appear."""
    bodies = []
    for channel in ("a", "b", "c"):
        name, text = CHANNELS[channel](PAYLOADS["macro" if channel != "a" else "input"])
        (tmp_path / name).write_text(text, encoding="utf-8")
        code, tex, err = _latex(tmp_path / name)
        assert code == 0, err
        bodies.append(tex)
    work = tmp_path / "by-hand"
    work.mkdir()
    (work / "doc.tex").write_text(PREAMBLE + "\n".join(bodies) + "\n\\end{document}\n")
    subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
        cwd=work,
        capture_output=True,
        timeout=120,
        check=True,
    )
    assert {p.stem for p in work.iterdir()} == {"doc"}
    assert LEAK not in _pdf_text(work / "doc.pdf")


def test_echo_reads_as_tex_reads() -> None:
    assert echo(r"e^{\varepsilon} \le 1").tex == r"e^{\varepsilon} \le 1"
    assert echo(r"\alpha\phantom{x}y").tex == r"\alpha y"  # never \alphay
    assert echo(r"\erf(x) \lt 1").tex == r"\operatorname{erf}(x) < 1"
    assert echo("a\\\n b").tex == "a\\  b"  # backslash-newline: TeX's control space
    for bad in (
        "x % }",
        "x^^7d",
        r"\left( x",
        "{x",
        "x}",
        r"\begin{filecontents}x\end{filecontents}",
        r"\text{$x$}",
        "x & y",
        "x \u202e y",
        "x\ry",
        r"\verb|x|",
    ):
        assert echo(bad).tex is None, bad
    assert not FORBIDDEN & ECHO_WORDS


# -- pdflatex's own fence, behind the echo ---------------------------------------------------

DOC = "\\documentclass{article}\\begin{document}\n%s\n\\end{document}\n"


@needs_latex
def test_pdflatex_reads_no_absolute_path_and_writes_nowhere_else(tmp_path: Path) -> None:
    work = tmp_path / "build"
    work.mkdir()
    tex = DOC % (
        "\\immediate\\openout5=/tmp/dpderive-pwned-41.tex \\immediate\\write5{x}"
        "\\immediate\\closeout5 \\immediate\\openout6=../pwned.tex \\immediate\\closeout6 "
        "\\input{/etc/passwd}"
    )
    with pytest.raises(LatexFailed):
        pdflatex.compile_pdf(tex, work)
    assert not Path("/tmp/dpderive-pwned-41.tex").exists()
    assert not (tmp_path / "pwned.tex").exists()
    log = (work / "doc.log").read_text(errors="replace")
    assert LEAK not in log


@needs_latex
def test_pdflatex_is_stopped_by_its_time_and_file_limits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    loop = DOC % "\\def\\a{\\a}\\a"
    started = time.monotonic()
    with pytest.raises(LatexFailed, match="longer than 2 s"):
        pdflatex.compile_pdf(loop, tmp_path, seconds=2.0)
    assert time.monotonic() - started < 20
    monkeypatch.setattr(pdflatex, "FILE_BYTES", 256 * 1024)
    flood = DOC % ("\\loop\\message{" + "x" * 50 + "}\\iftrue\\repeat")
    (tmp_path / "flood").mkdir()
    with pytest.raises(LatexFailed, match="larger than"):
        pdflatex.compile_pdf(flood, tmp_path / "flood", seconds=60.0)
    assert (tmp_path / "flood" / "doc.log").stat().st_size <= 256 * 1024


def test_pdflatex_runs_in_paranoid_mode() -> None:
    env = pdflatex.tex_environment()
    assert env["openin_any"] == env["openout_any"] == "p" and "TEXMFOUTPUT" not in env


# -- the input is never overwritten ----------------------------------------------------------


def test_output_on_an_input_file_is_refused(tmp_path: Path) -> None:
    proof = tmp_path / "mine.tex"
    text = channel_b("x")[1]
    proof.write_text(text)
    (tmp_path / "link.tex").symlink_to(proof)
    os.link(proof, tmp_path / "hard.pdf")
    for target in ("mine.tex", "link.tex", "hard.pdf"):
        code, _, err = _latex(proof, "-o", str(tmp_path / target))
        assert code == 2 and "is the input file" in err, (target, err)
    assert proof.read_text() == text
    code, _, _ = _latex(proof, "-o", str(tmp_path / "other.tex"))
    assert code == 0 and (tmp_path / "other.tex").read_text() != text


@needs_latex
def test_author_latex_that_tex_refuses_falls_back_to_the_expressions(tmp_path: Path) -> None:
    """Every token known, and still not TeX (``\\bar`` with no argument): the PDF is made
    without the author's LaTeX, and the output says so."""
    name, text = channel_a(r"x \bar")
    (tmp_path / name).write_text(text, encoding="utf-8")
    code, out, err = _latex(tmp_path / name, "-o", str(tmp_path / "out.pdf"))
    assert code == 0, err
    assert "note: your LaTeX did not compile as written" in out
    assert "since" in _pdf_text(tmp_path / "out.pdf")  # the reason, as text
