"""LaTeX output, the catalog book compiled by pdflatex, PNG previews, plots, notebook display
and progress messages (issue: documents and pictures)."""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from derivations import audit
from derivations.app.cli import PLOT_NAMES, main
from derivations.app.pdflatex import (
    INSTALL_LATEX,
    compile_pdf,
    latex_errors,
    overfull_boxes,
    render,
)
from derivations.catalog import catalog, get
from numeric_checks import CheckOptions, check_derivation
from symbolic.printing.audit import errata_latex
from symbolic.printing.latex import DerivationPrinter, catalog_book, derivation_latex
from symbolic.printing.latex_layout import fill, math_width
from symbolic.printing.latex_prose import prose_latex
from symbolic.report import DerivationReport

from .conftest import on_the_catalog_worker

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
    # the evidence list refers to the numbers the chain gives its steps
    assert r"(1)~common denominator" in text and r"\item[Step (1)]" in text


def test_display_order_is_the_authors() -> None:
    # Dwork & Roth write 8 eps/9 + c/sigma(eps2); SymPy's canonical order reverses it
    text = derivation_latex(get("numeric-sparse-privacy-pure"))
    claim = text[text.index("Formally") :]
    assert claim.index(r"\frac{8 \varepsilon}{9}") < claim.index(r"\frac{c}{")
    # an evaluated sum keeps SymPy's polynomial order: e^eps - 1, not -1 + e^eps
    assert r"\left(e^{\varepsilon} - 1\right)" in derivation_latex(get("kl-bound"))


def test_statements_and_justifications_are_typeset_as_mathematics() -> None:
    text = derivation_latex(get("kl-bound"))
    assert r"$D_{\infty}(Y\|Z) \le \varepsilon$" in text  # the prose statement
    # the formal one, from the data: one sum over the outcomes, for every n
    assert r"such that $\sum_{i=1}^{n} {p}_{i} = 1$" in text
    assert r"$\max(p_{i}, q_{i}) \le e^{\varepsilon} \min(p_{i}, q_{i})$ by the two" in text
    assert "D_inf" not in text and "<=" not in text and r"\parbox[t]{5.5cm}" not in text


@pytest.mark.parametrize(
    ("ascii", "latex"),
    [
        ("1/sigma(eps2) = eps2/(2c)", r"$1/\sigma(\varepsilon_{2}) = \varepsilon_{2}/(2c)$"),
        ("b > 0, exp increasing", r"$b > 0$, exp increasing"),
        ("see Theorem 3.20, with a bound", "see Theorem 3.20, with a bound"),
        ("1 - (1 - f)^{o k}", r"$1 - (1 - f)^{\circ k}$"),
        ("G_mu1 (x) G_mu2", r"$G_{\mu_{1}} \otimes G_{\mu_{2}}$"),
        ("|a - b| = max(a, b)", r"$|a - b| = \max(a, b)$"),
        ("差分隐私 <= eps", r"[Chinese text] $\le \varepsilon$"),
    ],
)
def test_prose_marks_its_mathematics(ascii: str, latex: str) -> None:
    assert prose_latex(ascii) == latex


@given(st.lists(st.integers(1, 9), min_size=1, max_size=30), st.floats(60.0, 400.0))
def test_long_sums_break_into_lines_that_fit(coeffs: list[int], budget: float) -> None:
    # every line fits (a single term always does here) and nothing is lost or reordered
    x = sp.symbols("x1:31", positive=True)
    expr = sp.Add(*[c * sp.exp(x[i]) / x[-1 - i] for i, c in enumerate(coeffs)], evaluate=False)
    p = DerivationPrinter()
    lines = fill(p.pieces(expr, budget), budget, budget)
    assert all(math_width(line) <= budget for line in lines)
    assert "".join(lines).replace(" ", "") == p._print(expr).replace(" ", "")


def test_summary_is_a_longtable() -> None:
    text = catalog_book(list(catalog().values()))
    assert r"\begin{longtable}" in text and r"\endhead" in text and r"\toprule" in text


def test_book_has_chapters_contents_and_summary() -> None:
    derivations = list(catalog().values())
    text = catalog_book(derivations)
    assert r"\tableofcontents" in text
    assert text.count(r"\chapter{") == len({d.family for d in derivations})
    assert text.count(r"\section{") == len(derivations)
    for d in derivations:
        assert rf"\path{{{d.id}}}" in text


@needs_latex
def test_book_fits_the_page_and_has_its_contents(tmp_path: Path) -> None:
    """pdflatex's own log of the whole book (unchecked, plus a checked derivation with
    badges and evidence and a refuted erratum with its footnote): no line more than 5 pt
    too wide, and after the second run the table of contents lists every section."""
    derivations = list(catalog().values())
    fast = CheckOptions(points=8, search_budget=1, oracle=False)
    checked = [get("laplace-ratio"), get("numeric-sparse-privacy-approx-seed")]
    reports = {d.id: check_derivation(d, fast) for d in checked}
    tex = catalog_book(derivations, reports, errata=errata_latex(audit.errata()))
    compile_pdf(tex, tmp_path)
    boxes = overfull_boxes((tmp_path / "doc.log").read_text(errors="replace"))
    assert [b for b in boxes if b[0] > 5.0] == []
    toc = (tmp_path / "doc.toc").read_text(errors="replace")
    assert toc.count(r"\contentsline {section}") == len(derivations)
    assert r"\fbox{\scriptsize\textsf{proved}}" in tex and r"\footnotetext[2]" in tex


def test_overfull_boxes_are_read_from_the_log() -> None:
    log = (
        "Overfull \\hbox (486.31273pt too wide) detected at line 355\n[]\n"
        "Overfull \\hbox (2.1pt too wide) in paragraph at lines 23--66\n"
        "Overfull \\vbox (9.0pt too high) has occurred\n"
    )
    assert overfull_boxes(log) == [
        (486.31273, "detected at line 355"),
        (2.1, "in paragraph at lines 23--66"),
    ]


@needs_latex
@on_the_catalog_worker
def test_book_compiles_with_pdflatex_and_renders(
    tmp_path: Path, catalog_reports: dict[str, DerivationReport]
) -> None:
    """The checked book (what ``latex --all -o catalog.pdf`` writes), from the session's one
    check of the catalog."""
    pdf = tmp_path / "catalog.pdf"
    text = catalog_book(
        list(catalog().values()), catalog_reports, errata=errata_latex(audit.errata())
    )
    render(text, pdf)
    assert pdf.stat().st_size > 50_000
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
