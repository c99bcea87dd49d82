"""LaTeX output, the catalog book compiled by pdflatex, PNG previews, plots, notebook display
and progress messages (issue: documents and pictures)."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from derivations import audit
from derivations.app.cli import PLOT_NAMES, main
from derivations.app.pdflatex import (
    INSTALL_CJK,
    INSTALL_LATEX,
    compile_pdf,
    kpsewhich,
    latex_errors,
    overfull_boxes,
    render,
)
from derivations.catalog import catalog, get
from derivations.printing.audit import errata_latex
from derivations.printing.latex import DerivationPrinter, catalog_book, derivation_latex
from derivations.printing.latex.layout import fill, math_width
from derivations.printing.latex.prose import latex_text, prose_latex
from numeric_checks import CheckOptions, check_derivation
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
    # issue 43: a badge has a colour and a symbol; the names in the evidence are typeset
    assert r"\dpbadge{dprefuted}{$\times$}{refuted}" in text
    assert r"counterexample at $\varepsilon$" in text
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
        ("差分隐私 <= eps", r"\zh{差分隐私} $\le \varepsilon$"),
        # issue 29: no ASCII mathematics left in the book's titles and errata
        ("bar kappa_3(f) = 1", r"$\bar{\kappa}_{3}(f) = 1$"),
        ("0/0 = +oo, so", r"$0/0 = +\infty$, so"),
        ("D_inf = inf > 0", r"$D_{\infty} = \infty > 0$"),
        ("at most beta (delta = 0)", r"at most $\beta$ $(\delta = 0)$"),
        ("delta > 0 (alpha and more)", r"$\delta > 0$ ($\alpha$ and more)"),
        ("eps (e^eps - 1) here", r"$\varepsilon (e^{\varepsilon} - 1)$ here"),
        ("is (alpha, beta)-accurate", r"is $(\alpha, \beta)$-accurate"),
        (
            "f_{0,d_1} (x) f_{0,d_2} = f_{0, 1-(1-d_1)(1-d_2)}",
            r"$f_{0,d_{1}} \otimes f_{0,d_{2}} = f_{0, 1-(1-d_{1})(1-d_{2})}$",
        ),
        ("D_∞(Z||Y) ≤ ε, Pr[Z∈S]", r"$D_{\infty}(Z\|Y) \le \varepsilon$, $\Pr[Z\in S]$"),
        ("delta = 1e-5: a", r"$\delta = 10^{-5}$: a"),
        # a claim file the audit's evidence names is a file, not subscripts
        ("seed_003/comp_line_1.toml checked", r"\protect\path{seed_003/comp_line_1.toml} checked"),
        ("(in a_b.toml).", r"(in \protect\path{a_b.toml})."),
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


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """The whole book compiled once for this module (unchecked, plus a checked derivation
    with badges and evidence and a refuted erratum with its footnote, and the errata
    chapter): its LaTeX and the folder with pdflatex's files."""
    if not HAVE_LATEX and not os.environ.get("DPDERIVE_REQUIRE_LATEX"):
        pytest.skip("pdflatex/pdftoppm not installed")
    fast = CheckOptions(points=8, search_budget=1, oracle=False)
    checked = [get("laplace-ratio"), get("numeric-sparse-privacy-approx-seed")]
    reports = {d.id: check_derivation(d, fast) for d in checked}
    tex = catalog_book(list(catalog().values()), reports, errata=errata_latex(audit.errata()))
    workdir = tmp_path_factory.mktemp("book")
    compile_pdf(tex, workdir)
    return tex, workdir


@needs_latex
def test_book_fits_the_page_and_has_its_contents(book: tuple[str, Path]) -> None:
    """pdflatex's own log of the whole book: no line more than 5 pt too wide, and the table
    of contents lists every section."""
    tex, workdir = book
    boxes = overfull_boxes((workdir / "doc.log").read_text(errors="replace"))
    assert [b for b in boxes if b[0] > 5.0] == []
    toc = (workdir / "doc.toc").read_text(errors="replace")
    assert toc.count(r"\contentsline {section}") == len(catalog())
    # issue 43: badges with a colour and a symbol; footnotes count from 1 in every chain
    assert r"\dpbadge{dpproved}{$\checkmark$}{proved}" in tex and r"\footnotetext[1]" in tex
    assert r"\footnotemark[2]" not in tex or r"\footnotemark[1]" in tex


def _pdf_pages(pdf: Path) -> dict[int, str]:
    """The text of each page of ``pdf`` (pdftotext) under the number printed at its foot."""
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    pages = {}
    for page in text.split("\f"):
        lines = [x.strip() for x in page.strip().splitlines() if x.strip()]
        if lines and lines[-1].isdigit():
            pages[int(lines[-1])] = "\n".join(lines[:-1])
    return pages


_ENTRY = re.compile(
    r"\\contentsline \{(chapter|section)\}\{(?:\\numberline \{([0-9.]+)\})?(.*)\}\{(\d+)\}\{\}%$"
)


def misplaced_contents(toc: str, pages: Mapping[int, str]) -> list[str]:
    """The contents lines whose page does not start the chapter or section they name: a
    section's number opens a line of that page, a chapter's "Chapter N" is on it, an
    unnumbered chapter's title is."""
    wrong = []
    for line in toc.splitlines():
        m = _ENTRY.match(line)
        assert m is not None, line
        kind, number, title, page = m.groups()
        text = pages.get(int(page), "")
        if kind == "section":
            found = re.search(rf"^{re.escape(number)}\s", text, re.MULTILINE) is not None
        elif number:
            found = f"Chapter {number}\n" in text + "\n"
        else:
            found = title in text
        if not found:
            wrong.append(f"{number or ''} {title[:40]} p. {page}")
    return wrong


@needs_latex
def test_contents_page_numbers_are_the_pages_where_sections_start(
    book: tuple[str, Path],
) -> None:
    """Issue 29: after two pdflatex passes every contents page number was one too small
    (the contents grew by a page on the second pass).  compile_pdf runs until the .toc
    settles; every entry, read back from the PDF, is on its page.  The same check on the
    contents shifted by one page (the old bug) finds every entry misplaced."""
    _, workdir = book
    pages = _pdf_pages(workdir / "doc.pdf")
    toc = (workdir / "doc.toc").read_text(errors="replace")
    entries = toc.count("\\contentsline")
    assert entries >= len(catalog()) + 5
    assert misplaced_contents(toc, pages) == []
    shifted = re.sub(r"\}\{(\d+)\}\{\}%$", lambda m: f"}}{{{int(m[1]) - 1}}}{{}}%", toc, flags=re.M)
    assert len(misplaced_contents(shifted, pages)) >= entries - 3


@needs_latex
def test_errata_quote_the_seeds_in_chinese(book: tuple[str, Path]) -> None:
    """Issue 29: the errata chapter printed "[Chinese text]" for the seeds' words, which a
    reader needs to find the passage; each erratum now quotes its seed, in Chinese."""
    _, workdir = book
    if not (kpsewhich("CJKutf8.sty") and kpsewhich("c70gbsn.fd")):
        if os.environ.get("DPDERIVE_REQUIRE_LATEX"):
            pytest.fail(INSTALL_CJK)
        pytest.skip(INSTALL_CJK)
    text = "".join(_pdf_pages(workdir / "doc.pdf").values())
    assert "[Chinese text]" not in text
    quotes = [e.quote for e, _ in audit.errata()]
    chinese = [q for q in quotes if re.search(r"[\u4e00-\u9fff]{2,}", q)]
    assert len(chinese) >= 10
    # Only the Chinese characters, in order: a quote breaks across lines, and the layout
    # puts a root sign of the line below between them.
    han = re.compile(r"[^\u4e00-\u9fff]+")
    flat = han.sub("", text)
    for q in chinese:
        assert han.sub("", q) in flat, q


def test_titles_and_errata_have_no_ascii_mathematics() -> None:
    """Issue 29: "bar κ3", "+oo", "f_{0}$, 1-(1-delta1)...": what the book prints of every
    title and erratum has no Greek spelled out, no "oo", no ASCII sub/superscript outside
    its mathematics."""
    ascii_maths = re.compile(
        r"(?<![-\w])(eps|epsilon|delta|alpha|beta|kappa|mu|sigma|oo|bar|inf)(?![-\w])"
        r"|\\_|\\textasciicircum"
    )
    texts = [d.title for d in catalog().values()]
    texts += [t for _, x in audit.errata() for t in (x.wrong, x.counterexample, x.correction)]
    left = {}
    for t in texts:
        prose = re.sub(r"(?<!\\)\$[^$]*(?<!\\)\$", " ", prose_latex(t))
        if ascii_maths.search(prose):
            left[t] = prose
    assert left == {}
    # the check can fail: the same words untypeset are caught
    assert ascii_maths.search(latex_text("bar kappa_3 = +oo"))


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
