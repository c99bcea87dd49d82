"""Proof files: a chain of steps from a book, a paper or homework, checked like a catalog
theorem.  The TOML format extends the claim-file format (a public interface)::

    title = "Laplace mechanism, ratio bound"        # optional
    source = "Dwork & Roth 2014, Theorem 3.6"        # optional
    hypotheses = ["Abs(fx - fy) <= Delta"]
    [variables]   ...                                # as in claim files
    [defs]        ...
    [latex]       # optional: LaTeX fragments -> names ("f(x)" = "fx")
    [claim]       # optional: lhs, relation, rhs; default: first lhs, composed, last rhs
    [[steps]]     # the chain; the first step may give lhs = "..." when there is no claim
    relation = "<="
    rhs = "exp(Abs(fx - fy)/b)"
    why = "triangle inequality"                      # optional free text
    by = "rule:triangle inequality"                  # optional, see symbolic.kit
    induction = "n"   # optional, top level: the chain is the step n - 1 -> n of an induction
                      # on n ("n from 1" names the base case); steps with by = "induction"
                      # (or "hypothesis") may use the claim at n - 1 (symbolic.induction)
    [proof]       # or the whole chain as one LaTeX block
    latex = '''\\begin{align*} ... \\end{align*}'''

Every expression field may be LaTeX instead of SymPy syntax (a field containing a backslash,
a brace, ``^``, ``|`` or ``&`` is read as LaTeX).  A ``.tex`` file is accepted directly: its
lines starting with ``%!`` form the TOML header and its first ``align*`` (or ``align``,
``aligned``, ``eqnarray*``, ``equation*``) environment is the chain.  Nothing is evaluated.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Container, Mapping, Sequence
from pathlib import Path
from typing import Any

import sympy as sp

from symbolic.as_typed import reshaped_text
from symbolic.derivation import (
    USER_PROOF_ID,
    Claim,
    Derivation,
    Justification,
    Source,
    Step,
)
from symbolic.domains import Variable
from symbolic.errors import IllFormedDerivation, InvalidInput
from symbolic.induction import Induction, parse_spec, with_domain_base
from symbolic.kit import justification_from_spec
from symbolic.readers.certify_table import certify_box
from symbolic.readers.claim_files import (
    Header,
    load_toml,
    looks_like_latex,
    read_text,
    table_of,
    text_field,
)
from symbolic.readers.latex import parse_latex_chain, split_tex_file
from symbolic.readers.latex.vocabulary import GREEK
from symbolic.relations import Relation, compose
from symbolic.side_conditions import typed_conditions
from symbolic.tactics import prove_zero

TOP_KEYS = {
    "title",
    "source",
    "hypotheses",
    "variables",
    "defs",
    "latex",
    "claim",
    "steps",
    "proof",
    "induction",
    "certify",
}
STEP_KEYS = {"lhs", "relation", "rhs", "why", "by"}
MAX_STEPS = 200


def load_proof(path: str | Path, lemmas: Container[str] | None = None) -> Derivation:
    """Read a proof file (``.toml`` or ``.tex``); raise :class:`InvalidInput` naming the
    problem (and the line, for LaTeX) if it is malformed.  ``lemmas``: the ids a step may
    cite as ``lemma:ID`` (the catalog's, given by the application: a reader does not know
    the catalog); None accepts any."""
    p = Path(path)
    text = read_text(p, "proof file")
    if p.suffix.lower() == ".tex":
        header, body, _ = split_tex_file(text)
        return parse_proof(header, name=str(p), tex_body=body, lemmas=lemmas)
    return parse_proof(text, name=str(p), lemmas=lemmas)


def parse_proof(
    text: str,
    name: str = "<proof>",
    *,
    tex_body: str | None = None,
    lemmas: Container[str] | None = None,
) -> Derivation:
    """A proof file's text read (see :func:`load_proof`)."""
    data = load_toml(text, name, TOP_KEYS)
    header = Header.parse(data, name)
    if tex_body is not None:
        if "steps" in data or "proof" in data:
            raise InvalidInput(f"{name}: a .tex file gives its chain in LaTeX, not in [[steps]]")
        lhs, steps, lhs_source = _latex_steps(tex_body, header, name, 0)
        lhs_written = ""
    elif "proof" in data:
        if "steps" in data:
            raise InvalidInput(f"{name}: give the chain as [[steps]] or as [proof] latex, not both")
        proof = table_of(data, "proof", name, required=True)
        latex = text_field(proof, "latex", name, "[proof]")
        lhs, steps, lhs_source = _latex_steps(latex, header, name, _line_of(text, "latex"))
        lhs_written = ""
    else:
        lhs, steps, lhs_source, lhs_written = _toml_steps(data, header, name, lemmas)
    claim = _claim(data, header, name, lhs, steps)
    d = _derivation(data, header, name, claim, steps).replace(
        lhs_source=lhs_source, lhs_written=lhs_written
    )
    written = [lhs_source, *(s.source for s in steps), *_latex_strings(data)]
    return d.replace(variables=as_written_names(d.variables, "\n".join(written)))


def _latex_strings(data: Mapping[str, Any]) -> list[str]:
    """The header's strings that may spell a variable in LaTeX (hypotheses, the claim)."""
    found: list[str] = []
    for value in (data.get("hypotheses"), data.get("claim")):
        items = value if isinstance(value, list) else [value]
        for item in items:
            if isinstance(item, dict):
                found += [v for v in item.values() if isinstance(v, str)]
            elif isinstance(item, str):
                found.append(item)
    return [t for t in found if looks_like_latex(t)]


def _spellings(name: str) -> list[tuple[str, str]]:
    r"""(how an author may write ``name`` in LaTeX, how to typeset it): ``eps`` is
    ``\varepsilon`` or ``\epsilon``; ``fx`` is ``f_x`` or ``f_{x}``; ``deltaprime`` is
    ``\delta'``; ``eps0`` is ``\varepsilon_0`` (the reader's own rules,
    :mod:`symbolic.readers.latex.names`, read backwards)."""

    def bases(base: str) -> list[str]:
        letters = [base] if len(base) == 1 and base.isalpha() else []
        return letters + [f"\\{g}" for g, names in GREEK.items() if base in names]

    out = [(b, b) for b in bases(name) if b.startswith("\\")]
    for k in range(1, len(name)):
        head, tail = name[:k], name[k:]
        for b in bases(head):
            if tail in ("prime", "_prime"):
                out.append((b + "'", b + "'"))
            elif tail.isalnum():
                typeset = f"{b}_{{{tail}}}"
                out += [(f"{b}_{{{tail}}}", typeset)]
                if len(tail) == 1:
                    out.append((f"{b}_{tail}", typeset))
    return out


def as_written_names(variables: Sequence[Variable], text: str) -> tuple[Variable, ...]:
    r"""``variables`` with the LaTeX name their author used in ``text`` (``\varepsilon``
    for ``eps``, ``f_{x}`` for ``fx``), so that documents typeset the author's symbols; a
    variable not spelled in LaTeX there, a family, or one with its own name is kept.

    >>> from symbolic.domains import parse_domain
    >>> vs = [Variable(n, parse_domain("R")) for n in ("eps", "fx", "z", "deltaprime")]
    >>> [v.latex_name for v in as_written_names(vs, r"|z - f_x| \le \varepsilon \delta'")]
    ['\\varepsilon', 'f_{x}', '', "\\delta'"]
    """
    out = []
    for v in variables:
        if v.latex_name or v.family is not None:
            out.append(v)
            continue
        found = [
            (m.start(), typeset)
            for spelled, typeset in _spellings(v.name)
            for m in [re.search(re.escape(spelled) + r"(?![A-Za-z])", text)]
            if m is not None
        ]
        out.append(dataclasses.replace(v, latex_name=min(found)[1]) if found else v)
    return tuple(out)


def _toml_steps(
    data: Mapping[str, Any], header: Header, name: str, lemmas: Container[str] | None
) -> tuple[sp.Expr | None, list[Step], str, str]:
    """The chain of ``[[steps]]``: its first expression, the steps, and the first
    expression's text as written in LaTeX or, typed in SymPy syntax, where evaluation
    changed it (:func:`symbolic.as_typed.reshaped_text`)."""
    raw = data.get("steps")
    if not isinstance(raw, list) or not raw:
        raise InvalidInput(
            f"{name}: a proof needs steps: [[steps]] tables (relation, rhs, why, by) or "
            "[proof] latex = '''...'''; for a single claim use `dpderive claim`"
        )
    if len(raw) > MAX_STEPS:
        raise InvalidInput(f"{name}: more than {MAX_STEPS} steps")
    lhs: sp.Expr | None = None
    lhs_source = lhs_written = ""
    steps: list[Step] = []
    for i, step in enumerate(raw, start=1):
        where = f"step {i}"
        if not isinstance(step, dict):
            raise InvalidInput(f"{name}: {where} must be a [[steps]] table")
        bad = set(step) - STEP_KEYS
        if bad:
            raise InvalidInput(f"{name}: unknown key(s) in {where}: {sorted(bad)}")
        if "lhs" in step:
            if i != 1:
                raise InvalidInput(f"{name}: only the first step may give lhs (step {i} does)")
            lhs_text = text_field(step, "lhs", name, where)
            lhs = header.expr(lhs_text, f"{where} lhs")
            lhs_source = lhs_text if looks_like_latex(lhs_text) else ""
            lhs_written = "" if lhs_source else reshaped_text(lhs_text, lhs, header.symbols)
        relation = _relation(text_field(step, "relation", name, where), name, where)
        rhs_text = text_field(step, "rhs", name, where)
        rhs = header.expr(rhs_text, f"{where} rhs")
        source = rhs_text if looks_like_latex(rhs_text) else ""
        written = "" if source else reshaped_text(rhs_text, rhs, header.symbols)
        steps.append(
            Step(relation, rhs, _justification(step, name, where, lemmas), source, written=written)
        )
    return lhs, steps, lhs_source, lhs_written


def _latex_steps(
    latex: str, header: Header, name: str, line_offset: int
) -> tuple[sp.Expr, list[Step], str]:
    try:
        parsed = parse_latex_chain(
            latex,
            header.symbols,
            header.latex_names,
            line_offset=line_offset,
            families=header.families,
        )
    except InvalidInput as exc:
        raise InvalidInput(f"{name}: {exc}") from None
    if not parsed.steps:
        raise InvalidInput(f"{name}: the LaTeX chain has no steps (write `&\\le ...` rows)")
    _note_typed_chain(latex, header, line_offset, [parsed.lhs, *(s.expr for s in parsed.steps)])
    steps = [
        Step(s.relation, s.expr, Justification(s.why or "as written"), s.source, s.line)
        for s in parsed.steps
    ]
    return parsed.lhs, steps, parsed.lhs_source


def _note_typed_chain(latex: str, header: Header, line_offset: int, read: list[sp.Expr]) -> None:
    """The chain read again as typed (SymPy's evaluation off), each expression's lost
    conditions kept in ``header.typed`` (``\\frac{x}{x}`` read as ``1``: ``x != 0``)."""
    try:
        with sp.evaluate(False):
            typed = parse_latex_chain(
                latex,
                header.symbols,
                header.latex_names,
                line_offset=line_offset,
                families=header.families,
            )
        pairs = zip([typed.lhs, *(s.expr for s in typed.steps)], read, strict=True)
        found = [(r, typed_conditions(t, r)) for t, r in pairs]
    except Exception:  # SymPy unevaluated can fail anywhere; the read forms stand alone
        return
    for r, lost in found:
        header.note_typed(r, lost)


def _justification(
    step: Mapping[str, Any], name: str, where: str, lemmas: Container[str] | None
) -> Justification:
    why = step.get("why", "")
    if not isinstance(why, str):
        raise InvalidInput(f"{name}: {where}: why must be a string")
    spec = step.get("by")
    if spec is None:
        return Justification(why or "as written")
    if not isinstance(spec, str):
        raise InvalidInput(f"{name}: {where}: by must be a string")
    try:
        reason = justification_from_spec(spec, why)
    except InvalidInput as exc:
        raise InvalidInput(f"{name}: {where}: {exc}") from None
    if reason.lemma is not None and lemmas is not None and reason.lemma not in lemmas:
        raise InvalidInput(
            f"{name}: {where}: lemma:{reason.lemma} is not a catalog id (`dpderive list` "
            "shows them); cite a result outside the catalog with cite:TEXT"
        )
    return reason


def _relation(text: str, name: str, where: str) -> Relation:
    try:
        return Relation.parse(text)
    except InvalidInput as exc:
        raise InvalidInput(f"{name}: {where}: {exc}") from None


def _claim(
    data: Mapping[str, Any], header: Header, name: str, lhs: sp.Expr | None, steps: list[Step]
) -> Claim:
    try:
        composed = compose(s.relation for s in steps)
    except (InvalidInput, IllFormedDerivation) as exc:
        raise InvalidInput(f"{name}: the relations of the chain do not compose: {exc}") from None
    if "claim" not in data:
        if lhs is None:
            raise InvalidInput(
                f'{name}: without [claim], the first step needs lhs = "..." (where the chain '
                "starts)"
            )
        return Claim(lhs, composed, steps[-1].expr)
    table = table_of(data, "claim", name, required=True)
    claim_lhs = header.expr(text_field(table, "lhs", name, "[claim]"), "[claim] lhs")
    claim_rhs = header.expr(text_field(table, "rhs", name, "[claim]"), "[claim] rhs")
    relation = _relation(text_field(table, "relation", name, "[claim]"), name, "[claim]")
    if lhs is not None and not _same(header, lhs, claim_lhs):
        raise InvalidInput(
            f"{name}: the chain starts at {lhs}, but the claim's lhs is {claim_lhs} "
            "(they are not shown equal)"
        )
    if not _same(header, steps[-1].expr, claim_rhs):
        raise InvalidInput(
            f"{name}: the chain ends at {steps[-1].expr}, but the claim's rhs is {claim_rhs} "
            "(they are not shown equal)"
        )
    if not composed.implies(relation):
        raise InvalidInput(
            f"{name}: the chain's relations compose to '{composed.value}', which does not give "
            f"the claim's '{relation.value}'"
        )
    # The chain's own last expression stands for the claim's rhs: shown equal above.
    return Claim(claim_lhs if lhs is None else lhs, relation, steps[-1].expr)


def _same(header: Header, a: sp.Expr, b: sp.Expr) -> bool:
    if a == b:
        return True
    expand = header.expand
    return prove_zero(expand(a) - expand(b)) is not None


def _derivation(
    data: Mapping[str, Any], header: Header, name: str, claim: Claim, steps: list[Step]
) -> Derivation:
    title = data.get("title", "")
    source = data.get("source", "")
    if not isinstance(title, str) or not isinstance(source, str):
        raise InvalidInput(f"{name}: title and source must be strings")
    induction = _induction(data, header, name)
    try:
        return Derivation(
            id=USER_PROOF_ID,
            title=title or f"proof from {name}",
            source=Source(source or "proof file", "" if source else name),
            statement=title,
            variables=header.variables,
            hypotheses=header.hypotheses,
            defs=header.defs,
            claim=claim,
            steps=tuple(steps),
            induction=induction,
            certify_box=certify_box(data, header.variables, name),
            typed=tuple(header.typed.items()),
        )
    except IllFormedDerivation as exc:
        raise InvalidInput(f"{name}: {exc}") from None


def _induction(data: Mapping[str, Any], header: Header, name: str) -> Induction | None:
    """The ``induction`` field: the variable (and base case) of an induction whose step is
    the chain; its well-formedness (an integer variable, hypotheses that carry over to
    n - 1) is checked when the derivation is built."""
    if "induction" not in data:
        return None
    spec = data["induction"]
    if not isinstance(spec, str):
        raise InvalidInput(f'{name}: induction must be a string, e.g. induction = "n"')
    try:
        return with_domain_base(parse_spec(spec), header.variables)
    except InvalidInput as exc:
        raise InvalidInput(f"{name}: {exc}") from None


def _line_of(text: str, key: str) -> int:
    """The line where ``key = '''`` opens (LaTeX line numbers are counted from there)."""
    for i, line in enumerate(text.splitlines()):
        if line.strip().startswith(key) and "=" in line:
            return i + 1 if line.rstrip().endswith(("'''", '"""')) else i
    return 0
