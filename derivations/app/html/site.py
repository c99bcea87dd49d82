"""Write the static site: an index, a page per derivation, the errata, a page per user
proof, the stylesheet and script, and the plots that belong to derivations.

Layout of the output directory (every link is relative, so the site works from
``file://`` and from any static host)::

    index.html  errata.html  theorems/<id>.html  proofs/<name>.html  static/  plots/

Templates are Jinja2 (``templates/``) with autoescaping on; MathML comes in as markup from
:mod:`derivations.printing.mathml`.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import inspect
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from derivations.app.html.graph import LEGEND, graph_nodes, graph_svg
from derivations.app.html.model import Page, page_of, users_of
from derivations.app.html.prose import page_typography, prose_html
from derivations.catalog import HOMES, MODULE_NAMES, family_module
from derivations.printing.audit import RUBRIC_TEXT
from derivations.printing.notation import code_names
from derivations.printing.wording import VERDICT_MEANING, verdict_glossary
from symbolic.basis import BASES, NONE
from symbolic.derivation import Derivation
from symbolic.errors import DpderiveError
from symbolic.foundations import FOUNDATIONS
from symbolic.report import DerivationReport
from symbolic.verdicts import Verdict

PLOTS_MISSING = (
    "the plots were left out: matplotlib is not installed "
    "(python3 -m pip install matplotlib, or reinstall dpderive: it is a dependency)"
)

__all__ = [
    "PLOTS_MISSING",
    "PLOT_OWNERS",
    "Proof",
    "SiteSummary",
    "build_site",
    "writable_directory",
]

PLOT_OWNERS: dict[str, tuple[tuple[str, ...], str]] = {
    "gdp-tradeoff": (
        ("gdp-to-dp",),
        "G_1 is the upper envelope of f_{eps, delta(eps)} (Dong, Roth & Su, Corollary 2.13)",
    ),
    "composition": (
        ("basic-composition-k", "advanced-composition", "approx-basic-composition-optimal"),
        "eps' of basic, advanced (Dwork & Roth, Theorem 3.20) and optimal composition "
        "(Kairouz, Oh & Viswanath 2015) against k",
    ),
    "kl-bounds": (
        ("kl-bound", "kl-bound-tight", "kl-tight-below-seed"),
        "eps (e^eps - 1) (Dwork & Roth, Lemma 3.18), eps tanh(eps/2) and the exact KL of "
        "random eps-DP pairs",
    ),
    "gaussian-calibration": (
        ("classical-gaussian-mechanism", "classical-gaussian-mechanism-any-eps"),
        "the classical sigma (Dwork & Roth, Theorem A.1) against the exact sigma",
    ),
}
"""Plot name (``dpderive plot``) -> the derivations whose page shows it, and a caption."""


@dataclass(frozen=True)
class Proof:
    """A user's proof file, loaded: its derivation, its report (None unchecked) and text."""

    derivation: Derivation
    report: DerivationReport | None
    name: str
    text: str


@dataclass
class SiteSummary:
    """What was written: the pages (relative paths) and the total size in bytes."""

    pages: list[str] = field(default_factory=list)
    files: int = 0
    bytes: int = 0
    plots: list[str] = field(default_factory=list)
    missing: str = ""
    """Why the pages that have plots were written without them (empty when none is
    missing)."""


def writable_directory(target: Path) -> Path:
    """Create ``target`` (and its parents) and make sure a file can be written there,
    before any long check runs; a message, never a traceback, when it cannot."""
    try:
        target.mkdir(parents=True, exist_ok=True)
        probe = target / ".dpderive-write-test"
        probe.write_text("", encoding="utf-8")
        probe.unlink()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise DpderiveError(f"cannot write the site to {str(target)!r}: {reason}") from None
    return target


def _environment() -> Environment:
    env = Environment(
        loader=PackageLoader("derivations.app.html", "templates"),
        autoescape=select_autoescape(["html"]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["prose"] = prose_html
    env.globals["glossary"] = verdict_glossary()
    env.globals["meaning"] = {v.value: m for v, m in VERDICT_MEANING.items()}
    return env


def _builder_sources(ids: set[str]) -> dict[str, tuple[str, str]]:
    """Derivation id -> (Python source of its builder, ``module.function``) for ``ids``,
    from their family modules only (issue 42: a page of one theorem imported and built the
    whole catalog); an id :data:`~derivations.catalog.HOMES` does not place is looked for
    in every family.  Builders are cheap to call again."""
    homes = {HOMES.get(i) for i in ids}
    names = MODULE_NAMES if None in homes else [n for n in MODULE_NAMES if n in homes]
    out: dict[str, tuple[str, str]] = {}
    for module in map(family_module, names):
        for build in module.DERIVATIONS:
            try:
                code = inspect.getsource(build)
            except (OSError, TypeError):  # built dynamically: no source to show
                continue
            out.setdefault(build().id, (code, f"{module.__name__}.{build.__name__}"))
    return out


def _slug(name: str, taken: set[str]) -> str:
    base = re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-").lower() or "proof"
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    taken.add(slug)
    return slug


def _draw_plots(out: Path, ids: set[str], summary: SiteSummary) -> dict[str, list[Any]]:
    """Draw the plots of the derivations in ``ids``; without matplotlib none, and the
    summary says why and how to get them (issue 43: they were left out silently)."""
    if importlib.util.find_spec("matplotlib") is None:
        if any(o in ids for owners, _ in PLOT_OWNERS.values() for o in owners):
            summary.missing = PLOTS_MISSING
        return {}
    from derivations.app.plots import plot  # matplotlib is imported only to draw

    shown: dict[str, list[Any]] = {}
    for name, (owners, caption) in PLOT_OWNERS.items():
        mine = [o for o in owners if o in ids]
        if not mine:
            continue
        (out / "plots").mkdir(exist_ok=True)
        plot(name, out / "plots" / f"{name}.png")
        summary.plots.append(name)
        for owner in mine:
            shown.setdefault(owner, []).append((name, f"../plots/{name}.png", caption))
    return shown


def build_site(
    out: Path,
    derivations: Sequence[Derivation],
    reports: Mapping[str, DerivationReport],
    *,
    errata: Sequence[Mapping[str, Any]] = (),
    proofs: Sequence[Proof] = (),
    plots: bool = True,
) -> SiteSummary:
    """Write the site for ``derivations`` (their ``reports`` where checked) into ``out``."""
    writable_directory(out)
    env = _environment()
    env.globals["has_errata"] = bool(errata)
    chapter = env.get_template("derivation.html")
    summary = SiteSummary()
    built = {d.id for d in derivations}

    def href(did: str, root: str = "../") -> str | None:
        return f"{root}theorems/{did}.html" if did in built else None

    def write(relative: str, text: str) -> None:
        target = out / relative
        if relative.endswith(".html"):
            text = page_typography(text)  # the signs of the text and the MathML (issue 43)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise DpderiveError(f"cannot write {str(target)!r}: {exc.strerror}") from None
        summary.pages.append(relative)

    for name in ("site.css", "site.js"):
        write(f"static/{name}", resources.files(__package__).joinpath("static", name).read_text())
    users = users_of([*derivations, *(p.derivation for p in proofs)])
    drawn = _draw_plots(out, built, summary) if plots else {}
    sources = _builder_sources({d.id for d in derivations})
    pages: list[Page] = []
    for d in derivations:
        page = page_of(d, reports.get(d.id), href, users)
        code, origin = sources.get(d.id, ("", ""))
        page = _with(page, code=code, code_origin=origin, plots=tuple(drawn.get(d.id, ())))
        pages.append(page)
        write(f"theorems/{d.id}.html", chapter.render(page=page, root="../"))
    taken: set[str] = set()
    proof_pages: list[tuple[Page, str]] = []
    for proof in proofs:
        page = _with(
            page_of(proof.derivation, proof.report, href, users),
            code=proof.text,
            code_origin=proof.name,
        )
        slug = _slug(Path(proof.name).stem, taken)
        proof_pages.append((page, f"proofs/{slug}.html"))
        write(f"proofs/{slug}.html", chapter.render(page=page, root="../"))
    if errata:
        # An expression in a counterexample is SymPy syntax: our functions' names as code.
        rows = [
            dict(e)
            | {"links": _errata_links(e, href), "counterexample": code_names(e["counterexample"])}
            for e in errata
        ]
        write(
            "errata.html",
            env.get_template("errata.html").render(errata=rows, root="", rubric=RUBRIC_TEXT),
        )
    nodes = graph_nodes(derivations, reports, lambda did: href(did, ""))
    write(
        "graph.html",
        env.get_template("graph.html").render(
            # A site of one proof citing no lemma has no catalog derivation to draw.
            svg=Markup(graph_svg(nodes) if nodes else "<p>No catalog derivation here.</p>"),
            legend=LEGEND,
            counts=_graph_counts(nodes),
            foundations=list(FOUNDATIONS.values()),
            root="",
        ),
    )
    families = list(dict.fromkeys(p.family for p in pages))
    verdicts = sorted({p.verdict for p in pages + [q for q, _ in proof_pages]}, key=_rank)
    write(
        "index.html",
        env.get_template("index.html").render(
            pages=pages,
            proofs=proof_pages,
            families=families,
            verdicts=verdicts,
            root="",
        ),
    )
    for path in out.rglob("*"):
        if path.is_file() and path.name != ".dpderive-write-test":
            summary.files += 1
            summary.bytes += path.stat().st_size
    return summary


def _graph_counts(nodes: Sequence[Any]) -> str:
    """``36 derivations (15 outright, ...), 6 named foundations, 9 cited results, 2 lemma
    uses``: what the graph shows, counted."""
    ds = [n for n in nodes if n.kind == "derivation"]
    proofs = ", ".join(
        f"{k} {b}" for b in BASES if b != NONE and (k := sum(1 for n in ds if n.basis == b))
    )
    others = sum(1 for n in ds if n.basis == NONE)
    split = proofs + (f"; {others} not proved" if others else "")
    foundations = sum(1 for n in nodes if n.kind == "foundation")
    cites = sum(1 for n in nodes if n.kind == "cite")
    lemma_uses = sum(1 for n in ds for u in n.uses if u.startswith("d:"))
    return (
        f"{len(ds)} derivations"
        + (f" ({split})" if split else "")
        + f", {foundations} named foundation(s), {cites} cited result(s), "
        + f"{lemma_uses} lemma use(s)."
    )


def _rank(word: str) -> int:
    order = [v.value for v in Verdict]
    return order.index(word) if word in order else len(order)


def _errata_links(e: Mapping[str, Any], href: Any) -> list[tuple[str, str, str | None]]:
    out = []
    for role in ("as_written", "corrected"):
        did = e.get(role)
        if did:
            out.append((role.replace("_", " "), did, href(did, "")))
    return out


def _with(page: Page, **changes: Any) -> Page:
    return dataclasses.replace(page, **changes)
