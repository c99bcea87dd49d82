"""LaTeX output, the catalog book compiled by pdflatex, PNG previews, plots, notebook display
and progress messages (issue: documents and pictures)."""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest

from derivations.app.cli import PLOT_NAMES, main
from derivations.app.pdflatex import INSTALL_LATEX, latex_errors
from derivations.catalog import catalog, get
from numeric_checks import CheckOptions, check_derivation
from symbolic.printing.latex import catalog_book, derivation_latex

GOLDEN = Path(__file__).parent / "golden"
HAVE_LATEX = shutil.which("pdflatex") is not None and shutil.which("pdftoppm") is not None
needs_latex = pytest.mark.skipif(
    not HAVE_LATEX and not os.environ.get("DPDERIVE_REQUIRE_LATEX"),
    reason="pdflatex/pdftoppm not installed (CI installs them and sets DPDERIVE_REQUIRE_LATEX)",
)


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out), out.getvalue()


def ink(png: Path) -> float:
    """Fraction of pixels that are not (near) white."""
    import matplotlib.image as mpimg

    pixels = mpimg.imread(png)
    rgb = pixels[..., :3] if pixels.ndim == 3 else pixels
    dark = (rgb < 0.9).any(axis=-1) if rgb.ndim == 3 else rgb < 0.9
    return float(dark.mean())


@pytest.mark.parametrize("derivation_id", ["kl-tight-below-seed", "numeric-sparse-privacy-pure"])
def test_latex_golden(derivation_id: str) -> None:
    expected = (GOLDEN / f"{derivation_id}.tex").read_text(encoding="utf-8")
    assert derivation_latex(get(derivation_id)) == expected


def test_latex_with_report_shows_badges_and_evidence() -> None:
    d = get("numeric-sparse-privacy-approx-seed")
    report = check_derivation(d, CheckOptions(points=20, search_budget=20))
    text = derivation_latex(d, report)
    assert r"\fbox{\scriptsize\textsf{refuted}}" in text
    assert "counterexample at eps" in text
    assert "refuted as expected" in text
    assert r"\varepsilon" in text and "eps_" not in text


def test_book_has_chapters_contents_and_summary() -> None:
    derivations = list(catalog().values())
    text = catalog_book(derivations)
    assert r"\tableofcontents" in text
    assert text.count(r"\chapter{") == len({d.family for d in derivations})
    assert text.count(r"\section{") == len(derivations)
    for d in derivations:
        assert d.id.replace("_", r"\_") in text


@needs_latex
def test_book_compiles_with_pdflatex_and_renders(tmp_path: Path) -> None:
    pdf = tmp_path / "catalog.pdf"
    code, _ = run(
        "latex",
        "--all",
        "--standalone",
        "-o",
        str(pdf),
        "--points",
        "8",
        "--search",
        "1",
        "--no-oracle",
    )
    assert code == 0 and pdf.stat().st_size > 50_000
    png = tmp_path / "page.png"
    from derivations.app.pdflatex import pdf_to_png

    pdf_to_png(pdf, png, dpi=60, page=3)
    assert ink(png) > 0.01  # not blank


@needs_latex
def test_one_derivation_to_png(tmp_path: Path) -> None:
    png = tmp_path / "laplace.png"
    code, _ = run("latex", "laplace-ratio", "--png", "-o", str(png))
    assert code == 0 and ink(png) > 0.01


@needs_latex
def test_latex_errors_are_reported(tmp_path: Path) -> None:
    from derivations.app.pdflatex import compile_pdf
    from symbolic.errors import LatexFailed

    with pytest.raises(LatexFailed, match="Undefined control sequence"):
        compile_pdf(r"\documentclass{article}\begin{document}\nosuchmacro\end{document}", tmp_path)


def test_latex_error_lines_are_found() -> None:
    log = "This is pdfTeX\n! Undefined control sequence.\nl.3 \\nosuchmacro\n"
    assert latex_errors(log) == ["! Undefined control sequence."]


def test_missing_latex_engine_is_a_clear_message(monkeypatch, tmp_path, capsys) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    code, _ = run("latex", "laplace-ratio", "--png", "-o", str(tmp_path / "x.png"))
    assert code == 2
    err = capsys.readouterr().err
    assert "texlive-latex-base" in err and "Traceback" not in err
    assert "texlive-latex-base" in INSTALL_LATEX


def test_latex_needs_an_id_or_all(capsys) -> None:
    assert run("latex")[0] == 2
    assert run("latex", "laplace-ratio", "--all")[0] == 2
    assert run("latex", "laplace-ratio", "--png")[0] == 2


@pytest.mark.parametrize("name", PLOT_NAMES)
def test_plot_is_written_and_not_blank(name: str, tmp_path: Path) -> None:
    target = tmp_path / f"{name}.png"
    code, text = run("plot", name, "-o", str(target))
    assert code == 0 and "wrote" in text
    assert target.stat().st_size > 20_000
    assert 0.02 < ink(target) < 0.9


def test_plot_names_match_the_plots() -> None:
    from derivations.app.plots import PLOTS

    assert tuple(PLOTS) == PLOT_NAMES


def test_plot_bad_input(tmp_path: Path) -> None:
    assert run("plot", "nope", "-o", str(tmp_path / "a.png"))[0] == 2
    assert run("plot", "composition", "-o", str(tmp_path / "a.txt"))[0] == 2


def test_docs_have_one_png_per_plot_linked_from_readme() -> None:
    root = Path(__file__).parent.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    for name in PLOT_NAMES:
        assert (root / "docs" / f"{name}.png").exists()
        assert f"docs/{name}.png" in readme


def test_notebook_display() -> None:
    d = get("laplace-ratio")
    assert d._repr_latex_().startswith("$$\\begin{aligned}")
    md = d._repr_markdown_()
    assert "$$" in md and "triangle inequality" in md
    r = check_derivation(get("kl-tight-below-seed"), CheckOptions(points=10, search_budget=5))
    table = r._repr_markdown_()
    assert "| step | relation | verdict | evidence |" in table and "| 2 |" in table


def test_no_progress_when_not_a_terminal(capsys) -> None:
    code, _ = run("check", "kl-tight-below-seed", "laplace-ratio", "--points", "5", "--no-oracle")
    assert code == 0
    assert capsys.readouterr().err == ""
