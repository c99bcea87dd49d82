"""``dpderive html``: the static site without a browser (issue 18, part 2).  Pages are
parsed with the standard library's ``html.parser``: every page is written, every internal
link and picture resolves, nothing points outside the site, bad input exits 2.  The browser
tests (``test_html_browser.py``) open the same site in headless Chromium."""

from __future__ import annotations

import io
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from derivations.app.cli import main
from derivations.catalog import catalog, get
from derivations.printing.mathml import MathPrinter, display_names, math_block
from symbolic.basis import direct_uses

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
VOID = {"meta", "link", "img", "br", "hr", "input", "source", "wbr", "col", "area"}


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out), out.getvalue()


class Page(HTMLParser):
    """Links, ids, element counts and tag balance of one HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.tags: dict[str, int] = {}
        self.classes: list[str] = []
        self.stack: list[str] = []
        self.unbalanced: list[str] = []
        self.attributes: list[str] = []
        self.class_stack: list[set[str]] = []
        self.urls_in_citations = 0
        self.urls_elsewhere: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags[tag] = self.tags.get(tag, 0) + 1
        for name, value in attrs:
            value = value or ""
            self.attributes.append(value)
            if name in ("href", "src"):
                self.links.append(value)
            elif name == "id":
                self.ids.add(value)
            elif name == "class":
                self.classes += value.split()
        if tag not in VOID:
            self.stack.append(tag)
            self.class_stack.append(set((dict(attrs).get("class") or "").split()))

    def handle_endtag(self, tag: str) -> None:
        if self.stack and self.stack[-1] == tag:
            self.stack.pop()
            self.class_stack.pop()
        else:
            self.unbalanced.append(tag)

    def handle_data(self, data: str) -> None:
        urls = data.count("http://") + data.count("https://")
        if not urls:
            return
        # A citation may name a URL in its text (the source, the page's header line).
        if any(c & {"source", "meta", "cite"} for c in self.class_stack):
            self.urls_in_citations += urls
        else:
            self.urls_elsewhere.append(data)


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    return page


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The whole catalog without checks (seconds), plus two proof files of the examples
    (``--with-catalog``: given proof files, the site holds only the lemmas they cite)."""
    out = tmp_path_factory.mktemp("site")
    proofs = [str(EXAMPLES / "laplace_ratio.toml"), str(EXAMPLES / "advanced_composition_tail.tex")]
    code, text = run("html", "-o", str(out), "--no-check", "--no-plots", "--with-catalog", *proofs)
    assert code == 0 and "wrote" in text
    return out


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One fast derivation, checked: its page carries verdicts and evidence."""
    out = tmp_path_factory.mktemp("checked")
    code, _ = run("html", "-o", str(out), "laplace-ratio", "--no-plots")
    assert code == 0
    return out


def test_every_page_is_written(site: Path) -> None:
    for did in catalog():
        assert (site / "theorems" / f"{did}.html").is_file(), did
    assert (site / "index.html").is_file() and (site / "errata.html").is_file()
    assert len(list((site / "proofs").glob("*.html"))) == 2
    index = (site / "index.html").read_text(encoding="utf-8")
    for did in catalog():
        assert f'href="theorems/{did}.html"' in index
    # The families of the catalog are the index's sections, each with its filter option.
    for family in {d.family for d in catalog().values()}:
        assert f'<option value="{family}">' in index.replace("&amp;", "&")


def test_internal_links_resolve_and_tags_balance(site: Path) -> None:
    pages = sorted(site.rglob("*.html"))
    assert len(pages) == len(catalog()) + 5  # index, errata, lemma graph, two proofs
    for path in pages:
        page = parse(path)
        assert page.stack == [] and page.unbalanced == [], (path, page.stack, page.unbalanced)
        for link in page.links:
            if link.startswith("data:"):
                continue
            target, _, anchor = link.partition("#")
            resolved = (path.parent / target).resolve() if target else path
            assert resolved.is_file(), f"{path.name}: {link}"
            if anchor:
                assert anchor in parse(resolved).ids, f"{path.name}: {link}"


def test_no_external_resource(site: Path) -> None:
    """No URL in any attribute, stylesheet or script: the site works offline.  (A
    citation's text may name a URL; text is not loaded.)"""
    for path in site.rglob("*"):
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        if path.suffix in (".css", ".js"):
            assert "http://" not in text and "https://" not in text and "//" + "cdn" not in text
        elif path.suffix == ".html":
            page = parse(path)
            assert not [a for a in page.attributes if "://" in a or a.startswith("//")], path
            assert page.urls_elsewhere == [], path
            # Every URL in the file was seen in a citation's text (none in comments, say).
            raw = text.count("http://") + text.count("https://")
            assert raw == page.urls_in_citations, path


def test_derivation_page_without_check(site: Path) -> None:
    d = get("advanced-composition")
    page = parse(site / "theorems" / "advanced-composition.html")
    assert page.tags["math"] >= len(d.steps) + 1  # at least one per step and the claim
    assert page.classes.count("step") == len(d.steps)
    assert "v-not-checked" in page.classes and "evidence" not in page.classes
    text = (site / "theorems" / "advanced-composition.html").read_text(encoding="utf-8")
    # by.lemma("kl-bound") links to the lemma's page, which links back under "used by".
    assert 'href="../theorems/kl-bound.html"' in text
    back = (site / "theorems" / "kl-bound.html").read_text(encoding="utf-8")
    assert 'href="../theorems/advanced-composition.html"' in back
    assert "teach-start" in page.ids and "teach-next" in page.ids


def test_checked_page_has_verdicts_and_evidence(checked: Path) -> None:
    page = parse(checked / "theorems" / "laplace-ratio.html")
    d = get("laplace-ratio")
    assert page.classes.count("v-proved") >= len(d.steps) + 1
    # One evidence panel per step and one for the conclusion.
    assert page.classes.count("evidence") == len(d.steps) + 1
    text = (checked / "theorems" / "laplace-ratio.html").read_text(encoding="utf-8")
    assert "rule trace" in text and "points and digits" in text and "Oracle" in text
    index = (checked / "index.html").read_text(encoding="utf-8")
    assert 'data-verdict="proved"' in index and "kl-bound.html" not in index


def test_errata_page_links_the_derivations(site: Path) -> None:
    text = (site / "errata.html").read_text(encoding="utf-8")
    assert 'href="theorems/basic-composition-seed.html"' in text
    assert text.count('class="erratum"') >= 10


def test_refuted_proof_shows_its_counterexample(tmp_path: Path) -> None:
    code, _ = run(
        "html",
        "-o",
        str(tmp_path),
        str(EXAMPLES / "laplace_ratio_student.toml"),
        "laplace-ratio",
        "--no-plots",
        "--points",
        "40",
        "--search",
        "60",
    )
    assert code == 1  # the site is written; the exit code says the proof is refuted
    (page,) = (tmp_path / "proofs").glob("*.html")
    text = page.read_text(encoding="utf-8")
    assert "v-refuted" in text and "counterexample" in text and "left side =" in text
    _assert_counterexample_open(text)


def _assert_counterexample_open(text: str) -> None:
    """Every counterexample on the page sits in an evidence panel that is open (issue 29:
    it was hidden in a collapsed one), and every open panel holds one."""
    panels = text.split("<details")[1:]
    with_cex = [p for p in panels if "left side =" in p.split("</details>")[0]]
    assert with_cex
    for panel in panels:
        opening = panel.split(">", 1)[0]
        assert ("left side =" in panel.split("</details>")[0]) == (" open" in opening), opening


def _cites(tmp_path: Path, lemma: str) -> Path:
    proof = tmp_path / "cites.toml"
    proof.write_text(
        '[variables]\nx = "(0, oo)"\n[[steps]]\nlhs = "x"\nrelation = "<="\n'
        f'rhs = "x + 1"\nby = "lemma:{lemma}"\n',
        encoding="utf-8",
    )
    return proof


def test_a_proof_file_gets_only_the_lemmas_it_cites(tmp_path: Path) -> None:
    """``html FILE``: the proof's page and the catalog lemmas it cites, transitively
    (hoeffding-lemma rests on hoeffding-chord), not the whole catalog; links resolve."""
    out = tmp_path / "site"
    code, text = run(
        "html", "-o", str(out), "--no-check", "--no-plots", str(_cites(tmp_path, "hoeffding-lemma"))
    )
    assert code == 0 and "2 catalog page(s) and 1 proof page(s)" in text
    assert sorted(p.name for p in (out / "theorems").glob("*.html")) == [
        "hoeffding-chord.html",
        "hoeffding-lemma.html",
    ]
    assert not (out / "errata.html").exists()
    proof = (out / "proofs" / "cites.html").read_text(encoding="utf-8")
    assert 'href="../theorems/hoeffding-lemma.html"' in proof
    for path in out.rglob("*.html"):
        page = parse(path)
        assert page.unbalanced == []
        for link in page.links:
            target = link.partition("#")[0]
            if target and not link.startswith("data:"):
                assert (path.parent / target).resolve().is_file(), f"{path.name}: {link}"
    # --with-catalog: every derivation gets its page again.
    whole = tmp_path / "whole"
    code, _ = run(
        "html",
        "-o",
        str(whole),
        "--no-check",
        "--no-plots",
        "--with-catalog",
        str(_cites(tmp_path, "hoeffding-lemma")),
    )
    assert code == 0
    assert len(list((whole / "theorems").glob("*.html"))) == len(catalog())
    assert (whole / "errata.html").is_file()


def test_a_refuted_proof_alone_is_checked_alone_with_its_counterexample_open(
    tmp_path: Path,
) -> None:
    """The student's proof cites no lemma: the site is its page, checked, and nothing of
    the catalog; the refuted step's counterexample is open."""
    code, text = run(
        "html",
        "-o",
        str(tmp_path),
        str(EXAMPLES / "laplace_ratio_student.toml"),
        "--no-plots",
        "--points",
        "40",
        "--search",
        "60",
    )
    assert code == 1 and "0 catalog page(s) and 1 proof page(s)" in text
    assert not (tmp_path / "theorems").exists()
    (page,) = (tmp_path / "proofs").glob("*.html")
    _assert_counterexample_open(page.read_text(encoding="utf-8"))
    graph = (tmp_path / "graph.html").read_text(encoding="utf-8")
    assert "No catalog derivation here" in graph


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["no-such-theorem"], "unknown derivation id"),
        (["laplace-ratio", "missing.toml"], "missing.toml"),
    ],
)
def test_bad_input_exits_2(
    argv: list[str], fragment: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = run("html", "-o", str(tmp_path / "out"), "--no-check", *argv)
    err = capsys.readouterr().err
    assert code == 2 and fragment in err and "Traceback" not in err
    assert not (tmp_path / "out" / "index.html").exists()


def test_unwritable_output_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    code, _ = run("html", "-o", str(blocker / "site"), "--no-check", "laplace-ratio")
    err = capsys.readouterr().err
    assert code == 2 and "cannot write the site" in err and "Traceback" not in err
    code, _ = run("html", "--no-check")  # -o is required
    assert code == 2


def test_display_names() -> None:
    names = display_names(get("numeric-sparse-privacy-pure"))
    assert names["eps"] == "epsilon"
    assert display_names(get("laplace-ratio"))["fx"] == "f(x)"
    html = MathPrinter(names).inner(sp.Symbol("eps") / 9)
    assert "\u03b5" in html or "&#949;" in html


def test_our_functions_print_in_their_notation_or_as_a_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Our functions' MathML is the one converter's reading of the book's LaTeX, a
    Piecewise argument's cases included; LaTeX it cannot set gives SymPy's form of the
    call, not a crash."""
    import derivations.printing.notation as notation
    from derivations.printing.latex_mathml import Untypeset
    from symbolic.functions import Phi

    x = sp.Symbol("x")
    assert '<mi mathvariant="normal">&#934;</mi>' in MathPrinter().inner(Phi(x))
    cases = MathPrinter().inner(Phi(sp.Piecewise((x, x > 0), (0, True))))
    assert "&#934;" in cases and "<mtable" in cases and "otherwise" in cases

    def refuse(latex: str) -> str:
        raise Untypeset(latex)

    monkeypatch.setattr(notation, "latex_mathml", refuse)
    assert "<mi>phi</mi>" in MathPrinter().inner(Phi(x))  # SymPy writes the name so


_SYMBOLS = sp.symbols("eps delta x")
_exprs = st.recursive(
    st.sampled_from([*_SYMBOLS, sp.Integer(2), sp.Rational(1, 3)]),
    lambda inner: st.one_of(
        st.tuples(inner, inner).map(lambda t: t[0] + t[1]),
        st.tuples(inner, inner).map(lambda t: t[0] * t[1]),
        st.tuples(inner, inner).map(lambda t: t[0] / t[1] if t[1] != 0 else t[0]),
        inner.map(sp.exp),
        inner.map(sp.Abs),
        inner.map(sp.sqrt),
    ),
    max_leaves=8,
)


@given(_exprs)
def test_mathml_is_balanced_markup(expr: sp.Expr) -> None:
    """Whatever the expression, its MathML is one balanced ``<math>`` element."""
    page = Page()
    page.feed(str(math_block(MathPrinter({"eps": "epsilon"}).inner(expr))))
    page.close()
    assert page.stack == [] and page.unbalanced == [] and page.tags["math"] == 1


def test_screenshots_are_in_docs_and_readme() -> None:
    root = Path(__file__).resolve().parents[1]
    readme = (root / "README.md").read_text(encoding="utf-8")
    names = ("html-index.png", "html-laplace-ratio.png", "lemma-graph.png")
    for name in (*names, "html-kl-bound.png", "html-teaching.png"):
        assert (root / "docs" / name).stat().st_size > 10_000
        assert f"docs/{name}" in readme


def test_families_read_as_the_book_writes_them() -> None:
    """Issue 24: a divergence of two families prints D(Y||Z), not KL(p, q, n), and a 'for
    all' hypothesis prints its range, not the object's arguments."""
    from derivations.catalog import get
    from derivations.printing.mathml import MathPrinter

    d = get("kl-bound")
    divergence = MathPrinter().inner(d.claim.lhs)  # the book's D(Y || Z), as MathML
    assert all(part in divergence for part in ("<mi>D</mi>", "<mi>Y</mi>", "<mi>Z</mi>"))
    assert "&#8214;" in divergence and "KL" not in divergence
    forall = MathPrinter().inner(d.hypotheses[2])
    assert "for all" in forall and "&#8712;" in forall and "forall" not in forall


def test_lemma_graph_page(site: Path) -> None:
    """One node per derivation (a link to its page), one per foundation and cited result
    they rest on directly, an edge per lemma use; transitive "rests on" and "used by" on the
    derivation pages, and for an erratum what it would break."""
    text = (site / "graph.html").read_text(encoding="utf-8")
    page = parse(site / "graph.html")
    table = catalog()
    assert text.count('class="node derivation"') == len(table)
    for did in table:
        assert f'href="theorems/{did}.html"' in text, did
    assert (
        'data-key="f:neyman-pearson"' in text and 'data-key="f:normal-rotation-invariance"' in text
    )
    assert 'data-from="d:advanced-composition" data-to="d:kl-bound"' in text
    # the bridge's lemma is an edge too
    assert 'data-from="d:advanced-composition" data-to="d:approx-composition-cost"' in text
    uses = sum(1 for d in table.values() for j in direct_uses(d) if j.lemma in table)
    assert text.count('data-to="d:') == uses
    assert "<script" not in text.split("</head>")[1]  # the graph needs no script
    assert page.tags.get("svg", 0) >= 1
    kl = (site / "theorems" / "kl-bound.html").read_text(encoding="utf-8")
    assert "Derivations that use it, transitively" in kl
    advanced = (site / "theorems" / "advanced-composition.html").read_text(encoding="utf-8")
    assert 'class="rests-lemma"' in advanced and 'class="rests-foundation"' in advanced
    assert "approx-composition-cost" in advanced and "azuma-inequality" in advanced
    assert 'class="rests-cite"' not in advanced  # Lemma 3.17 (1) is no longer cited
    erratum = (site / "theorems" / "basic-composition-seed.html").read_text(encoding="utf-8")
    assert "What it would break" in erratum and "no derivation of the catalog rests" in erratum
    tradeoff = (site / "theorems" / "tradeoff-zero-eps-composition.html").read_text(
        encoding="utf-8"
    )
    assert 'class="rests-foundation"' in tradeoff and "neyman-pearson" in tradeoff


def test_checked_page_shows_its_basis(checked: Path) -> None:
    text = (checked / "theorems" / "laplace-ratio.html").read_text(encoding="utf-8")
    assert "<strong>Basis</strong>: outright <a" in text
    graph = (checked / "graph.html").read_text(encoding="utf-8")
    assert 'data-verdict="proved" data-basis="outright"' in graph


def _leaves(markup: str) -> list[str]:
    """The identifiers and numbers of MathML (what a cut must not lose; a cut quotient
    adds its 1 of 1/den)."""
    import re

    return sorted(re.findall(r"<m[in]>([^<]*)</m[in]>", markup))


@pytest.mark.parametrize(("did", "index"), [("kl-bound", 4), ("numeric-sparse-accuracy-approx", 1)])
def test_long_sides_break_into_lines_of_the_whole(did: str, index: int) -> None:
    """Issue 29: the site breaks a long side where the book does, from the expression tree:
    several lines, each piece its own <math>, and nothing lost (the pieces hold the
    identifiers and numbers of the whole).  With room for everything, one line."""
    from derivations.printing.breaking import LINE_EM, math_lines
    from derivations.printing.latex import DerivationPrinter

    d = get(did)
    expr = d.steps[index - 1].expr
    p, book = MathPrinter(display_names(d)), DerivationPrinter().for_derivation(d)
    broken = str(math_lines(expr, p, book, LINE_EM))
    assert broken.count('<span class="line') >= 2 and broken.count("<math") >= 3
    whole = p.inner(expr)
    assert set(_leaves(whole)) <= set(_leaves(broken))
    roomy = str(math_lines(expr, p, book, 1000.0))
    assert roomy.count('<span class="line') == 1


def test_pieces_pack_into_lines_within_their_width() -> None:
    """Greedy packing: no line wider than its width unless it holds one piece (or a short
    start and the wide piece after it); continuation lines open with the piece's opening
    form (a factor with its dot)."""
    from derivations.printing.breaking import Piece, lines_of

    pieces = [Piece(f"<mi>a{k}</mi>", f"<mo>·</mo><mi>a{k}</mi>", 4.0) for k in range(7)]
    lines = lines_of(pieces, 10.0, 9.0)
    assert [len(line) for line in lines] == [2, 2, 2, 1]
    assert all(line[0].startswith("<mo>·</mo>") for line in lines[1:])
    assert lines[0][0] == "<mi>a0</mi>"
    wide = [Piece("<mi>c</mi>", "<mi>c</mi>", 1.0), Piece("<mi>W</mi>", "<mi>W</mi>", 50.0)]
    assert lines_of(wide, 10.0, 10.0) == [["<mi>c</mi>", "<mi>W</mi>"]]


def test_the_site_prints_our_functions_in_the_book_notation(site: Path) -> None:
    """Issue 42: the site and the book use one notation for every function.  No formula of
    any page shows a function's internal name (``LaplaceMechanismPDF``, ``GaussianDelta``);
    the first theorem's ratio reads Pr[f(x) + Lap(b) = z] as in the book.  (The Python
    source panel and the evidence's plain text, where a claim file's spelling belongs, are
    not formulas.)"""
    from derivations.catalog import catalog
    from derivations.printing.notation import notation_table

    catalog()
    table = notation_table()
    internal = {n.name for n in table if n.plain.startswith(f"{n.name}(")} | {"KL", "Joint"}
    assert {"LaplaceMechanismPDF", "GaussianDelta", "OptimalDelta"} <= internal
    pattern = re.compile(r"<mi>(" + "|".join(sorted(internal)) + r")</mi>")
    shown = {
        page.relative_to(site).as_posix(): found
        for page in site.rglob("*.html")
        for found in [sorted(set(pattern.findall(page.read_text(encoding="utf-8"))))]
        if found
    }
    assert not shown, shown
    ratio = (site / "theorems" / "laplace-ratio.html").read_text(encoding="utf-8")
    assert "<mi>Pr</mi>" in ratio and '<mi mathvariant="normal">Lap</mi>' in ratio
    for row in table:  # every function's MathML is the conversion of its book LaTeX
        assert row.mathml and "<mi>" + row.name + "</mi>" not in row.mathml, row
