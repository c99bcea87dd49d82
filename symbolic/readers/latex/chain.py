"""A chain of (in)equalities as users paste it from a paper: an ``align*`` environment.

::

    \\begin{align*}
    e^{(|z-f_y| - |z-f_x|)/b} &\\le e^{|f_x - f_y|/b} && \\text{triangle inequality} \\\\
      &\\le e^{\\Delta/b} \\\\
      &= e^{\\varepsilon}
    \\end{align*}

Rows are separated by ``\\\\``.  The first row is ``LHS &REL expr`` (or ``LHS \\le& expr``,
or eqnarray's ``LHS &\\le& expr``), each later row ``&REL expr``; a row may hold several
relations (``&= b \\le c``), and a row without a relation continues the expression above it.
A step's reason is what follows ``&&``, a ``\\quad\\text{...}``, a trailing ``\\text{...}`` or
a ``\\tag{...}``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

import sympy as sp

from symbolic.errors import LatexError
from symbolic.families import Family
from symbolic.readers.latex.cursor import q
from symbolic.readers.latex.echo import refuse_hazards
from symbolic.readers.latex.expressions import finish, guarded, parse_tokens, trim_tokens
from symbolic.readers.latex.tokens import Tok, blank_comments, line_of, tokenize
from symbolic.readers.latex.vocabulary import RELATIONS, UNSUPPORTED_RELATIONS
from symbolic.relations import Relation

__all__ = ["LatexChain", "LatexStep", "parse_latex_chain", "split_tex_file"]

MAX_CHAIN_CHARS = 200_000
_BEGIN = re.compile(r"\\begin\s*\{(align\*?|aligned|eqnarray\*?|equation\*?)\}")
_INNER = re.compile(r"\\begin\s*\{(aligned|split)\}")
_DISPLAY = re.compile(r"\\\[|\$\$")
_OPENS = frozenset({"{", "(", "[", "\\left", "\\{", "\\lvert"})
_CLOSES = frozenset({"}", ")", "]", "\\right", "\\}", "\\rvert"})
_WRAPPERS = frozenset({"$", "\\[", "\\]", "\\(", "\\)"})


@dataclass(frozen=True)
class LatexStep:
    """One step ``REL expr`` of a pasted chain, with its reason and where it was written."""

    relation: Relation
    expr: sp.Expr
    why: str
    line: int
    source: str


@dataclass(frozen=True)
class LatexChain:
    """A pasted chain ``lhs R1 e1 R2 e2 ...``."""

    lhs: sp.Expr
    lhs_source: str
    steps: tuple[LatexStep, ...]
    first_line: int


@dataclass
class _Pending:
    """A chain element being collected: its tokens, row by row."""

    groups: list[list[Tok]]
    line: int
    relation: Relation = Relation.EQ
    why: list[str] = field(default_factory=list)

    @property
    def toks(self) -> list[Tok]:
        return [t for g in self.groups for t in g]

    def source(self, text: str) -> str:
        """The LaTeX of the element, the pieces of its rows joined by a space."""
        kept = {id(t) for t in trim_tokens(self.toks)}
        pieces = []
        for g in self.groups:
            mine = [t for t in g if id(t) in kept]
            if mine:
                pieces.append(" ".join(text[mine[0].pos : mine[-1].end].split()))
        return " ".join(pieces)


def _end_of(clean: str, name: str, start: int) -> re.Match[str] | None:
    return re.compile(r"\\end\s*\{" + re.escape(name) + r"\}").search(clean, start)


def _math_body(clean: str, line_offset: int) -> tuple[int, int, bool]:
    """The span of the first math environment's body (or the whole text), and whether an
    environment was found."""
    m = _BEGIN.search(clean)
    if m is None:
        return 0, len(clean), False
    name, start = m.group(1), m.end()
    end = _end_of(clean, name, start)
    if end is None:
        line = line_of(clean, m.start()) + line_offset
        raise LatexError(
            f"\\begin{{{name}}} (line {line}) has no \\end{{{name}}}; close the environment",
            line,
            m.group(),
        )
    inner = _INNER.search(clean, start, end.start())
    if name.startswith("equation") and inner is not None:
        inner_end = _end_of(clean, inner.group(1), inner.end())
        if inner_end is not None and inner_end.start() < end.start():
            return inner.end(), inner_end.start(), True
    return start, end.start(), True


def _depths(toks: list[Tok]) -> list[int]:
    """Bracket and environment depth before each token."""
    out, depth = [], 0
    for t in toks:
        key = t.value if t.kind in ("char", "cs") else t.kind
        if key in _CLOSES or t.kind == "end":
            depth = max(depth - 1, 0)
        out.append(depth)
        if key in _OPENS or t.kind == "begin":
            depth += 1
    return out


def _rows(toks: list[Tok]) -> list[list[Tok]]:
    rows: list[list[Tok]] = [[]]
    for t, d in zip(toks, _depths(toks), strict=True):
        if t.kind == "rowsep" and d == 0:
            rows.append([])
        else:
            rows[-1].append(t)
    return [r for r in rows if r]


def _is_relation(t: Tok) -> bool:
    return t.kind in ("char", "cs") and t.value in RELATIONS


def _why_text(text: str, toks: list[Tok]) -> str:
    """A reason as words: ``\\text{}`` wrappers dropped, references kept."""
    parts: list[str] = []
    prev = -1
    for t in toks:
        if t.kind == "text":
            piece = t.arg
        elif t.kind == "ref":
            piece = {"\\eqref": f"({t.arg})", "\\cite": f"[{t.arg}]"}.get(t.value, t.arg)
        elif t.kind in ("quad", "amp"):
            piece = " "
        else:
            piece = text[t.pos : t.end]
        parts.append((" " if 0 <= prev < t.pos else "") + piece)
        prev = t.end
    words = " ".join("".join(parts).replace("~", " ").split()).rstrip(".,;: ")
    if words.startswith("(") and words.endswith(")") and words.count("(") == 1:
        words = words[1:-1].strip()
    return words


def _trailing_reason(row: list[Tok], depth: list[int]) -> int:
    """Where a reason without ``&&`` starts: a ``\\text{..}`` (or ``\\quad\\text{..}``)
    outside brackets with no relation after it; ``len(row)`` if there is none."""
    later_relation = [False] * (len(row) + 1)
    for k in range(len(row) - 1, -1, -1):
        u = row[k]
        later_relation[k] = later_relation[k + 1] or _is_relation(u) or u.kind == "amp"
    for k, t in enumerate(row):
        if depth[k] or later_relation[k] or t.kind not in ("text", "quad"):
            continue
        if t.kind == "text":
            return k
        j = k + 1
        while j < len(row) and (row[j].kind == "quad" or row[j].value == "("):
            j += 1
        if j < len(row) and row[j].kind == "text":
            return k
    return len(row)


def _split_why(text: str, row: list[Tok], line: int) -> tuple[list[Tok], str]:
    """The mathematics of a row and its reason."""
    tags = [t for t in row if t.kind == "ref" and t.value.startswith("\\tag")]
    row = [t for t in row if t not in tags]
    depth = _depths(row)
    cut = len(row)
    for k, t in enumerate(row):
        if depth[k] or t.kind != "amp" or k + 1 >= len(row) or row[k + 1].kind != "amp":
            continue
        if k + 2 < len(row) and row[k + 2].kind == "amp":
            frag = text[row[0].pos : row[-1].end]
            raise LatexError(
                f"too many '&' in {q(frag)} (line {line}); "
                "write 'LHS &\\le expr && \\text{reason}'",
                line,
                "&&&",
            )
        rest = [u for u in row[k + 2 :] if u.kind != "quad"]
        if k == 0 and rest and rest[0].kind not in ("text", "ref"):
            row = row[2:]  # eqnarray's '&& + c': a continuation, not a reason
            depth = depth[2:]
            cut = len(row)
        else:
            cut = k
        break
    else:
        cut = _trailing_reason(row, depth)
    why_toks = row[cut + 2 :] if cut < len(row) and row[cut].kind == "amp" else row[cut:]
    reasons = [_why_text(text, why_toks)] + [_why_text(text, [t]) for t in tags]
    amps = [t for t, d in zip(row[:cut], depth, strict=False) if t.kind == "amp" and d == 0]
    if len(amps) > 2:
        raise LatexError(
            f"too many '&' in {q(text[row[0].pos : row[-1].end])} (line {line}); "
            "write 'LHS &\\le expr && \\text{reason}'",
            line,
            "&",
        )
    math = [t for t in row[:cut] if t.kind != "quad" and t not in amps and t.value not in _WRAPPERS]
    return math, "; ".join(r for r in reasons if r)


def _segments(text: str, math: list[Tok], line: int) -> tuple[list[list[Tok]], list[Tok]]:
    """A row's mathematics cut at its relations (outside brackets)."""
    segs: list[list[Tok]] = [[]]
    rels: list[Tok] = []
    for k, (t, d) in enumerate(zip(math, _depths(math), strict=True)):
        if d == 0 and t.kind == "cs" and t.value in UNSUPPORTED_RELATIONS:
            raise LatexError(
                f"relation {t.value} is not supported (line {line}); use =, \\le, <, \\ge or >",
                line,
                t.value,
            )
        if d == 0 and _is_relation(t):
            after = math[k + 1] if k + 1 < len(math) else None
            if t.value in "<>" and after is not None and after.value == "=" and after.pos == t.end:
                word = "\\le" if t.value == "<" else "\\ge"
                raise LatexError(
                    f"{t.value}= is not LaTeX (line {line}); write {word}", line, t.value + "="
                )
            rels.append(t)
            segs.append([])
        else:
            segs[-1].append(t)
    return segs, rels


def _collect(text: str, rows: list[list[Tok]], line_offset: int) -> tuple[_Pending, list[_Pending]]:
    lhs: _Pending | None = None
    steps: list[_Pending] = []
    for row in rows:
        line = line_of(text, row[0].pos) + line_offset
        math, why = _split_why(text, row, line)
        segs, rels = _segments(text, math, line)
        head = segs[0]
        if head and steps and rels:
            raise LatexError(
                f"the row at line {line} starts with an expression; each row after the first "
                "must start with a relation, as in '&\\le ...' (one chain per environment)",
                line,
                text[head[0].pos : head[-1].end],
            )
        if head:
            target = steps[-1] if steps else lhs
            if target is None:
                lhs = _Pending([head], line)
            else:
                target.groups.append(head)
        elif rels and lhs is None and not steps:
            raise LatexError(
                f"the first row (line {line}) has no left-hand side; write 'LHS &\\le expr'",
                line,
                text[row[0].pos : row[-1].end],
            )
        for rel_tok, seg in zip(rels, segs[1:], strict=True):
            if not seg:
                raise LatexError(
                    f"nothing after {q(rel_tok.value)} (line {line}); write an expression after it",
                    line,
                    rel_tok.value,
                )
            # A step's line is its relation's: the row may begin a line earlier, with the
            # chain's left side.
            at = line_of(text, rel_tok.pos) + line_offset
            steps.append(_Pending([seg], at, RELATIONS[rel_tok.value]))
        if why:
            (steps[-1] if steps else (lhs or _Pending([], line))).why.append(why)
    if lhs is None or not lhs.toks:
        raise LatexError("no chain found; write 'LHS &\\le expr \\\\ &= expr'", 1 + line_offset, "")
    if not steps:
        raise LatexError(
            f"the chain at line {lhs.line} has no relation; write 'LHS &\\le expr'",
            lhs.line,
            text[lhs.toks[0].pos : lhs.toks[-1].end],
        )
    return lhs, steps


def parse_latex_chain(
    text: str,
    symbols: Mapping[str, sp.Expr],
    names: Mapping[str, str] | None = None,
    *,
    line_offset: int = 0,
    families: Mapping[str, Family] | None = None,
) -> LatexChain:
    """The first ``align*``/``align``/``aligned``/``eqnarray*``/``eqnarray``/``equation*``/
    ``equation`` environment of ``text`` (or the whole text) as a chain.  Lines are 1-based
    lines of ``text`` plus ``line_offset``.

    >>> x = sp.Symbol("x", positive=True)
    >>> c = parse_latex_chain(r"x^2 &\\le x^2 + 1 && \\text{since } x^2 \\ge 0", {"x": x})
    >>> c.lhs, [(s.relation.value, s.expr, s.why) for s in c.steps]
    (x**2, [('<=', x**2 + 1, 'since x^2 \\\\ge 0')])
    """

    def run() -> LatexChain:
        clean = blank_comments(text)
        start, end, _ = _math_body(clean, line_offset)
        # Only what the reader reads: a document's preamble may \input its macros.
        refuse_hazards(clean, "", line_offset, start, end)
        toks = tokenize(clean, names, start, end)
        lhs, steps = _collect(clean, _rows(toks), line_offset)
        built = []
        for pending in (lhs, *steps):
            parser = parse_tokens(
                clean, pending.toks, symbols, line_offset=line_offset, families=families
            )
            value = parser.expr()
            parser.reject_rest()
            built.append(finish(parser, value))
        return LatexChain(
            lhs=built[0],
            lhs_source=lhs.source(clean),
            steps=tuple(
                LatexStep(p.relation, e, "; ".join(p.why), p.line, p.source(clean))
                for p, e in zip(steps, built[1:], strict=True)
            ),
            first_line=lhs.line,
        )

    return guarded(text, run, MAX_CHAIN_CHARS)


def split_tex_file(text: str) -> tuple[str, str, int]:
    """A ``.tex`` proof: its TOML header (the lines starting with ``%!``, prefix removed),
    its body (the header lines left empty, so that line numbers are the file's), and the line
    where the first math environment starts (0 if there is none).

    >>> split_tex_file("%! [variables]\\n%! x = 'positive'\\n\\\\[x = x\\\\]")
    ("[variables]\\nx = 'positive'\\n", '\\n\\n\\\\[x = x\\\\]', 3)
    """
    header: list[str] = []
    body: list[str] = []
    for line in text.splitlines(keepends=True):
        stripped = line.lstrip(" \t")
        if stripped.startswith("%!"):
            content = stripped[2:]
            header.append(content[1:] if content.startswith(" ") else content)
            body.append(line[len(line.rstrip("\r\n")) :])
        else:
            body.append(line)
    rest = "".join(body)
    clean = blank_comments(rest)
    m = _BEGIN.search(clean) or _DISPLAY.search(clean)
    return "".join(header), rest, line_of(clean, m.start()) if m else 0
