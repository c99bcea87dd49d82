"""The lemma graph: every derivation a node coloured by its verdict and its basis, an edge
for each lemma it rests on, the named foundations and cited results as leaves; an inline SVG
drawn here from the catalog, with no script and nothing fetched.

Layout: layers by dependency depth, left to right.  A leaf (foundation, cited result) is
depth 0; a derivation is one more than the deepest thing it rests on (1 for one that rests
on nothing, so the leaves and the derivations that stand alone never share a column).
Within a column nodes are ordered by the mean row of what they rest on (one barycentre
sweep, Sugiyama, Tagawa & Toda 1981), which keeps most edges short and uncrossed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from html import escape

from derivations.printing.wording import NOT_CHECKED, verdict_word
from symbolic.basis import FROM_CITED, FROM_FOUNDATIONS, NONE, OUTRIGHT, direct_uses
from symbolic.derivation import Derivation, JustificationKind
from symbolic.report import DerivationReport

__all__ = ["GraphNode", "graph_nodes", "graph_svg"]

Href = Callable[[str], "str | None"]

VERDICT_FILL = {
    "proved": "#1f7a3a",
    "certified": "#0f6d78",
    "checked": "#8a5a00",
    "undecided": "#5b6573",
    "refuted": "#b3261e",
    NOT_CHECKED: "#ffffff",
}
BASIS_STROKE = {
    OUTRIGHT: ("#0b3d1c", ""),
    FROM_FOUNDATIONS: ("#2b59c3", "6 3"),
    FROM_CITED: ("#ff9d1c", "5 3"),
    NONE: ("#5b6573", ""),
    "": ("#5b6573", ""),
}
"""Basis -> (outline colour, dash pattern): the verdict fills the node, the basis draws its
outline (solid dark for outright, blue dashes for from foundations, orange dots for from
cited results)."""
LEAF_FILL = {"foundation": "#dfe8fb", "cite": "#fdebd3"}

_H, _GAP_X, _GAP_Y, _PAD = 26, 90, 10, 20
_CHAR = 7.3  # the width of a character of the labels' 12 px monospace font, in pixels
_LABEL = 34  # characters of a leaf's label before it is cut (the full text is its tooltip)


@dataclass(frozen=True)
class GraphNode:
    """One node: ``key`` is unique (``d:ID``, ``f:NAME``, ``c:CITATION``)."""

    key: str
    kind: str  # "derivation", "foundation" or "cite"
    label: str
    title: str
    verdict: str
    basis: str
    uses: tuple[str, ...]
    href: str | None


def graph_nodes(
    derivations: Sequence[Derivation],
    reports: Mapping[str, DerivationReport],
    href: Href,
) -> list[GraphNode]:
    """The nodes of the graph of ``derivations``: each derivation (with its check, when
    ``reports`` has it), then each foundation and cited result they rest on directly."""
    ids = {d.id for d in derivations}
    nodes: list[GraphNode] = []
    leaves: dict[str, GraphNode] = {}
    for d in derivations:
        uses: list[str] = []
        for why in direct_uses(d):
            if why.kind is JustificationKind.LEMMA and why.lemma:
                if why.lemma in ids:
                    uses.append(f"d:{why.lemma}")
                continue
            if why.kind is JustificationKind.FOUNDATION and why.foundation:
                key, kind, text = f"f:{why.foundation}", "foundation", why.foundation
            else:
                text = why.citation or why.text
                key, kind = f"c:{text}", "cite"
            uses.append(key)
            if key not in leaves:
                short = leaf_label(text)
                what = "named foundation" if kind == "foundation" else "cited, unchecked"
                leaves[key] = GraphNode(key, kind, short, f"{text} ({what})", "", "", (), None)
        r = reports.get(d.id)
        verdict = verdict_word(r.verdict) if r else NOT_CHECKED
        basis = r.basis if r else ""
        title = f"{d.id}: {d.title}; {verdict}" + (f", {basis}" if basis else "")
        if d.erratum:
            title += " (erratum)"
        nodes.append(
            GraphNode(
                f"d:{d.id}",
                "derivation",
                d.id,
                title,
                verdict,
                basis,
                tuple(dict.fromkeys(uses)),
                href(d.id),
            )
        )
    return nodes + list(leaves.values())


def leaf_label(text: str) -> str:
    """A citation as a leaf's label: author and year, and the locator when there is one
    (``Dwork & Roth 2014, Theorem 3.26``); ``+1`` for each further work cited; cut to
    :data:`_LABEL` characters.

    >>> leaf_label("Dwork & Roth 2014, The Algorithmic Foundations of DP, Theorem 3.26")
    'Dwork & Roth 2014, Theorem 3.26'
    >>> leaf_label("Azuma 1967, Weighted sums of certain dependent random variables")
    'Azuma 1967'
    """
    works = [w.strip() for w in text.split(";") if w.strip()] or [text]
    parts = [p.strip() for p in works[0].split(",")]
    short = parts[0] if len(parts) == 2 else ", ".join([parts[0], parts[-1]][: len(parts)])
    if len(works) > 1:
        short += f" +{len(works) - 1}"
    return short if len(short) <= _LABEL else short[: _LABEL - 1] + "…"


def _depths(nodes: Sequence[GraphNode]) -> dict[str, int]:
    by_key = {n.key: n for n in nodes}
    depth: dict[str, int] = {}

    def of(key: str) -> int:
        if key not in depth:
            node = by_key[key]
            if node.kind != "derivation":
                depth[key] = 0
            else:
                # The lemma closure was checked for cycles before the site is drawn.
                depth[key] = 1 + max((of(u) for u in node.uses if u in by_key), default=0)
        return depth[key]

    for n in nodes:
        of(n.key)
    return depth


def _layout(nodes: Sequence[GraphNode], box: float) -> dict[str, tuple[float, float]]:
    """Node key -> the (x, y) of its box's top-left corner (boxes ``box`` pixels wide)."""
    depth = _depths(nodes)
    columns: dict[int, list[GraphNode]] = {}
    for n in nodes:
        columns.setdefault(depth[n.key], []).append(n)
    row: dict[str, float] = {}
    for level in sorted(columns):
        members = columns[level]
        if level > 0:
            # The barycentre of what each node rests on; ties keep catalog order.
            def centre(n: GraphNode) -> float:
                rows = [row[u] for u in n.uses if u in row]
                return sum(rows) / len(rows) if rows else float("inf")

            members.sort(key=centre)
        for i, n in enumerate(members):
            row[n.key] = i
    return {
        n.key: (_PAD + depth[n.key] * (box + _GAP_X), _PAD + 24 + row[n.key] * (_H + _GAP_Y))
        for n in nodes
    }


def graph_svg(nodes: Sequence[GraphNode]) -> str:
    """The graph as an inline ``<svg>`` element: a node per derivation and leaf (a link to
    the derivation's page, a tooltip with its verdict and basis), an arrow from each node
    to what it rests on, and a heading per column."""
    box_w = round(max((len(n.label) for n in nodes), default=10) * _CHAR + 18)
    where = _layout(nodes, box_w)
    depth = _depths(nodes)
    width = max(x for x, _ in where.values()) + box_w + _PAD
    height = max(y for _, y in where.values()) + _H + _PAD
    out = [
        f'<svg class="lemma-graph" width="{width:.0f}" '
        f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" role="img" '
        'aria-label="the lemma graph of the catalog">',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" '
        'fill="#8792a2"/></marker></defs>',
    ]
    for level in sorted(set(depth.values())):
        left = _PAD + level * (box_w + _GAP_X)
        head = "foundations and cited results" if level == 0 else f"depth {level}"
        out.append(f'<text class="column" x="{left:.0f}" y="{_PAD + 10}">{head}</text>')
    for n in nodes:
        x0, y0 = where[n.key]
        for u in n.uses:
            if u not in where:
                continue
            x1, y1 = where[u]
            sx, sy, ex, ey = x0, y0 + _H / 2, x1 + box_w, y1 + _H / 2
            mid = (sx + ex) / 2
            out.append(
                f'<path class="edge" data-from="{escape(n.key)}" data-to="{escape(u)}" '
                f'd="M {sx:.1f} {sy:.1f} C {mid:.1f} {sy:.1f}, {mid:.1f} {ey:.1f}, '
                f'{ex:.1f} {ey:.1f}" fill="none" stroke="#8792a2" stroke-width="1.2" '
                'marker-end="url(#arrow)"/>'
            )
    for n in nodes:
        x, y = where[n.key]
        if n.kind == "derivation":
            fill = VERDICT_FILL.get(n.verdict, "#ffffff")
            stroke, dash = BASIS_STROKE.get(n.basis, BASIS_STROKE[""])
            ink = "#1d232b" if n.verdict == NOT_CHECKED else "#ffffff"
            width_px = 4
        else:
            fill, stroke, dash, ink, width_px = LEAF_FILL[n.kind], "#8792a2", "", "#1d232b", 1
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        box = (
            f'<rect x="{x:.0f}" y="{y:.0f}" width="{box_w}" height="{_H}" rx="5" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{width_px}"{dashes}/>'
            f'<text x="{x + 8:.0f}" y="{y + _H / 2 + 4:.0f}" fill="{ink}">{escape(n.label)}</text>'
        )
        attrs = (
            f'class="node {n.kind}" data-key="{escape(n.key)}" data-verdict="{escape(n.verdict)}" '
            f'data-basis="{escape(n.basis)}"'
        )
        inner = f"<title>{escape(n.title)}</title>{box}"
        if n.href:
            out.append(f'<a {attrs} href="{escape(n.href)}">{inner}</a>')
        else:
            out.append(f"<g {attrs}>{inner}</g>")
    out.append("</svg>")
    return "\n".join(out)


LEGEND: tuple[tuple[str, str, str, str], ...] = (
    ("fill", VERDICT_FILL["proved"], "", "proved"),
    ("fill", VERDICT_FILL["certified"], "", "certified"),
    ("fill", VERDICT_FILL["checked"], "", "checked"),
    ("fill", VERDICT_FILL["refuted"], "", "refuted"),
    ("fill", VERDICT_FILL[NOT_CHECKED], "", NOT_CHECKED),
    ("outline", BASIS_STROKE[OUTRIGHT][0], BASIS_STROKE[OUTRIGHT][1], OUTRIGHT),
    (
        "outline",
        BASIS_STROKE[FROM_FOUNDATIONS][0],
        BASIS_STROKE[FROM_FOUNDATIONS][1],
        FROM_FOUNDATIONS,
    ),
    ("outline", BASIS_STROKE[FROM_CITED][0], BASIS_STROKE[FROM_CITED][1], FROM_CITED),
    ("leaf", LEAF_FILL["foundation"], "", "named foundation"),
    ("leaf", LEAF_FILL["cite"], "", "cited result (unchecked)"),
)
"""The legend's swatches: (what the swatch shows, colour, dash pattern, meaning)."""
