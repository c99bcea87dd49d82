"""Claim files: a statement typed from a book, checked as a one-step derivation.

The TOML format is a public interface (see README.md); keep it exactly::

    hypotheses = ["Abs(fx - fy) <= Delta"]   # optional
    [claim]
    lhs = "exp((Abs(z - fy) - Abs(z - fx))/b)"
    relation = "<="                         # one of = == <= < >= >
    rhs = "exp(eps)"
    statement = "Laplace density ratio bound"  # optional
    [variables]                             # every free symbol, with its domain
    eps = "(0, oo)"
    [defs]                                  # optional, substituted in file order
    b = "Delta/eps"

Expressions are parsed without ``eval``: SymPy syntax by :mod:`symbolic.readers.syntax`, LaTeX
(a field with a backslash, a brace, ``^``, ``|`` or ``&``) by :mod:`symbolic.readers.latex`,
with an optional ``[latex]`` table naming fragments (``"f(x)" = "fx"``).
"""

from __future__ import annotations

import keyword
import os
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sympy as sp

from symbolic.derivation import Claim, Derivation, Justification, Source, Step
from symbolic.domains import Variable, parse_domain
from symbolic.errors import IllFormedDerivation, InvalidInput
from symbolic.families import Family
from symbolic.family_use import split_family_spec
from symbolic.readers.certify_table import certify_box
from symbolic.readers.family_files import (
    declare_family,
    for_all_relations,
    single_equals,
    split_for_all,
)
from symbolic.readers.latex import parse_latex_expr, parse_latex_relation
from symbolic.readers.latex.echo import refuse_hazards
from symbolic.readers.syntax import parse_expr, parse_relations
from symbolic.relations import Relation
from symbolic.side_conditions import SideCondition, typed_conditions
from symbolic.vocabulary import declared_name, skeleton

MAX_FILE_BYTES = 1_000_000
TOP_KEYS = {"hypotheses", "claim", "variables", "defs", "latex", "title", "source", "certify"}
CLAIM_KEYS = {"lhs", "relation", "rhs", "statement"}


LATEX_MARKS = ("\\", "{", "}", "^", "|", "&")
"""A field containing any of these is LaTeX (none of them is valid SymPy syntax here)."""


def looks_like_latex(text: str) -> bool:
    return any(mark in text for mark in LATEX_MARKS)


def read_text(p: Path, what: str) -> str:
    """A user's file as text: a regular file, readable, at most 1 MB, UTF-8 without NUL
    bytes (a byte order mark at its start is dropped).  A FIFO, a device or a directory is
    refused at once: it is opened without waiting for a writer and looked at before anything
    is read (a FIFO blocked ``explain`` for ever, issue 41)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(p, flags)
    except OSError as exc:
        raise InvalidInput(f"cannot read {what} {str(p)!r}: {exc.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InvalidInput(
                f"{what} {str(p)!r} is not a regular file (a FIFO, a device or a directory); "
                "give the file itself"
            )
        raw = b""
        while len(raw) <= MAX_FILE_BYTES:
            chunk = os.read(fd, MAX_FILE_BYTES + 1 - len(raw))
            if not chunk:
                break
            raw += chunk
    except OSError as exc:
        raise InvalidInput(f"cannot read {what} {str(p)!r}: {exc.strerror}") from None
    finally:
        os.close(fd)
    if len(raw) > MAX_FILE_BYTES:
        raise InvalidInput(
            f"{what} {str(p)!r} is larger than 1 MB ({MAX_FILE_BYTES} bytes), the limit on "
            "input files"
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInput(f"{what} {str(p)!r} is not UTF-8 text") from None
    if "\x00" in text:
        raise InvalidInput(f"{what} {str(p)!r} is not UTF-8 text (it holds NUL bytes)")
    return text.removeprefix("\ufeff")  # a byte order mark, as some editors write


def load_claim(path: str | Path) -> Derivation:
    """Read a claim file; raise :class:`InvalidInput` naming the problem if it is malformed."""
    p = Path(path)
    if p.suffix.lower() == ".tex":
        raise InvalidInput(
            f"{str(p)!r} is a LaTeX file: a proof; check it with `dpderive verify {p}` "
            "(`claim` reads a TOML claim file)"
        )
    return parse_claim(read_text(p, "claim file"), name=str(p))


@dataclass(frozen=True)
class Header:
    """What claim and proof files share: variables, definitions, hypotheses, and the
    ``[latex]`` table of names for LaTeX fragments."""

    name: str
    variables: tuple[Variable, ...]
    symbols: Mapping[str, sp.Expr]
    defs: tuple[tuple[sp.Symbol, sp.Expr], ...]
    hypotheses: tuple[sp.Basic, ...]
    latex_names: Mapping[str, str]
    typed: dict[sp.Basic, tuple[SideCondition, ...]] = field(default_factory=dict)
    """The conditions each expression read so far lost to SymPy's automatic evaluation
    (:attr:`symbolic.derivation.Derivation.typed`), by the expression as read."""

    @classmethod
    def parse(cls, data: Mapping[str, Any], name: str) -> Header:
        latex_names: dict[str, str] = {}
        keys = table_of(data, "latex", name, required=False)
        _cap(name, "[latex] keys", len(keys), MAX_LATEX_KEYS)  # each is tried at every token
        for fragment, target in keys.items():
            if not isinstance(target, str):
                raise InvalidInput(f"{name}: [latex] {fragment!r} must map to a name (a string)")
            # A key is matched as raw text and echoed as written (issue 41).
            refuse_hazards(fragment, f"{name}: [latex] key {fragment!r}", lines=False)
            latex_names[fragment] = target
        variables: list[Variable] = []
        table: dict[str, sp.Expr] = {}
        declared = table_of(data, "variables", name, required=False)
        _cap(name, "variables", len(declared), MAX_VARIABLES)
        _cap(name, "definitions", len(table_of(data, "defs", name, required=False)), MAX_DEFS)
        family_specs: dict[str, tuple[str, list[tuple[str, str, str]]]] = {}
        for raw_name, domain_text in declared.items():
            var_name = _check_name(raw_name, name, "variable", table)
            if not isinstance(domain_text, str):
                raise InvalidInput(f"{name}: variable {var_name}: the domain must be a string")
            try:
                spec = split_family_spec(domain_text)
            except InvalidInput as exc:
                raise InvalidInput(f"{name}: variable {var_name}: {exc}") from None
            if spec is not None:
                # Families after the scalars: their lengths must be declared variables.
                family_specs[var_name] = spec
                table[var_name] = sp.Symbol(var_name)  # reserved until the second pass
                continue
            try:
                domain = parse_domain(domain_text)
            except InvalidInput as exc:
                raise InvalidInput(f"{name}: variable {var_name}: {exc}") from None
            try:
                var = Variable(var_name, domain)
            except InvalidInput as exc:
                raise InvalidInput(f"{name}: {exc}") from None
            variables.append(var)
            table[var_name] = var.symbol
        for var_name, spec in family_specs.items():
            var = declare_family(var_name, spec, variables, table, name)
            variables.append(var)
            table[var_name] = var.base
        order = list(declared)
        variables.sort(key=lambda v: order.index(v.name) if v.name in order else len(order))
        header = cls(name, tuple(variables), table, (), (), latex_names)
        defs: list[tuple[sp.Symbol, sp.Expr]] = []
        for raw_def, value in table_of(data, "defs", name, required=False).items():
            def_name = _check_name(raw_def, name, "definition", table)
            if not isinstance(value, str):
                raise InvalidInput(f"{name}: def {def_name} must be a string, got {value!r}")
            expr = header.expr(value, f"def {def_name}")
            sym = sp.Symbol(def_name)
            defs.append((sym, expr))
            table[def_name] = sym
        hyps_raw = data.get("hypotheses", [])
        if isinstance(hyps_raw, list):
            _cap(name, "hypotheses", len(hyps_raw), MAX_HYPOTHESES)
        if not isinstance(hyps_raw, list) or not all(isinstance(h, str) for h in hyps_raw):
            raise InvalidInput(f"{name}: hypotheses must be a list of strings")
        hypotheses: list[sp.Basic] = []
        for h in hyps_raw:
            hypotheses += header.relations(h, "hypothesis")
        return cls(
            name, tuple(variables), table, tuple(defs), tuple(hypotheses), latex_names, header.typed
        )

    def expr(self, text: Any, where: str) -> sp.Expr:
        """An expression field, in SymPy syntax or LaTeX."""
        fn = self._latex_expr if isinstance(text, str) and looks_like_latex(text) else parse_expr
        read: sp.Expr = _parse(fn, text, self.symbols, self.name, where)
        self._note_typed(fn, text, read)
        return read

    def _note_typed(self, fn: Any, text: str, read: sp.Expr) -> None:
        """Keep the conditions the expression as typed needs and ``read`` lost to SymPy's
        evaluation (``x/x`` read as ``1``: ``x != 0``)."""
        try:
            with sp.evaluate(False):  # the parser's SymPy calls, as typed
                typed = fn(text, self.symbols)
            lost = typed_conditions(typed, read)
        except Exception:  # SymPy unevaluated can fail anywhere; the read form stands alone
            return
        self.note_typed(read, lost)

    def note_typed(self, read: sp.Basic, lost: tuple[SideCondition, ...]) -> None:
        """Add ``lost`` to the conditions kept for the expression read as ``read``."""
        if lost:
            known = self.typed.get(read, ())
            self.typed[read] = (*known, *(c for c in lost if c not in known))

    def relations(self, text: Any, where: str) -> list[sp.Basic]:
        if isinstance(text, str) and not looks_like_latex(text):
            text = single_equals(text)
            quantified = split_for_all(text)
            if quantified is not None:
                body, index, bounds = quantified
                return for_all_relations(
                    body,
                    index,
                    bounds,
                    self.variables,
                    self.symbols,
                    lambda text, where_: self.expr(text, f"{where}{where_}"),
                    lambda text, symbols: _parse(parse_relations, text, symbols, self.name, where),
                    f"{self.name}: {where}",
                )
        if isinstance(text, str) and looks_like_latex(text):
            return _parse(self._latex_relations, text, self.symbols, self.name, where)  # type: ignore[no-any-return]
        return _parse(parse_relations, text, self.symbols, self.name, where)  # type: ignore[no-any-return]

    def expand(self, expr: sp.Expr) -> sp.Expr:
        """``expr`` with the definitions substituted (later ones may use earlier ones)."""
        for sym, value in reversed(self.defs):
            expr = expr.xreplace({sym: value})
        return expr

    @property
    def families(self) -> dict[str, Family]:
        """The declared families by name (their elements are ``p_i`` in LaTeX)."""
        return {v.name: v.family for v in self.variables if v.family is not None}

    def _latex_expr(self, text: str, symbols: Mapping[str, sp.Expr]) -> sp.Expr:
        return parse_latex_expr(text, symbols, self.latex_names, families=self.families)

    def _latex_relations(self, text: str, symbols: Mapping[str, sp.Expr]) -> list[sp.Basic]:
        return parse_latex_relation(text, symbols, self.latex_names, families=self.families)


MAX_VARIABLES = 100
MAX_DEFS = 200
MAX_HYPOTHESES = 200
MAX_LATEX_KEYS = 200
"""Caps on a claim or proof file's header: 20,000 unused variables took 2.3 GB and minutes
before anything was checked (issue 41); the catalog's largest derivation declares 12."""


def _cap(name: str, what: str, count: int, limit: int) -> None:
    if count > limit:
        raise InvalidInput(
            f"{name}: {count} {what}, more than the {limit} a file may declare (the limit on "
            f"{what}); split the claim or remove the {what} it does not use"
        )


def load_toml(text: str, name: str, allowed: set[str]) -> dict[str, Any]:
    """A file's TOML, refusing malformed text and keys outside ``allowed`` by name."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidInput(f"{name}: malformed TOML: {exc}") from None
    unknown = set(data) - allowed
    if unknown:
        raise InvalidInput(f"{name}: unknown key(s) {sorted(unknown)}; allowed: {sorted(allowed)}")
    return data


def parse_claim(text: str, name: str = "<claim>") -> Derivation:
    data = load_toml(text, name, TOP_KEYS)
    claim = table_of(data, "claim", name, required=True)
    bad = set(claim) - CLAIM_KEYS
    if bad:
        raise InvalidInput(f"{name}: unknown key(s) in [claim]: {sorted(bad)}")
    for key in ("lhs", "relation", "rhs"):
        text_field(claim, key, name, "[claim]")
    header = Header.parse(data, name)
    lhs = header.expr(claim["lhs"], "lhs")
    rhs = header.expr(claim["rhs"], "rhs")
    try:
        relation = Relation.parse(claim["relation"])
    except InvalidInput as exc:
        raise InvalidInput(f"{name}: {exc}") from None
    statement = claim.get("statement", "")
    if not isinstance(statement, str):
        raise InvalidInput(f"{name}: statement must be a string")
    # Optional, as in proof files: where the user typed the claim from, given back in reports.
    title, source = data.get("title", ""), data.get("source", "")
    if not isinstance(title, str) or not isinstance(source, str):
        raise InvalidInput(f"{name}: title and source must be strings")
    try:
        return Derivation(
            id="claim",
            title=title or statement or f"claim from {name}",
            source=Source(source, "") if source else Source("claim file", name),
            statement=statement,
            variables=header.variables,
            hypotheses=header.hypotheses,
            defs=header.defs,
            claim=Claim(lhs, relation, rhs),
            steps=(Step(relation, rhs, Justification("the claim as typed")),),
            certify_box=certify_box(data, header.variables, name),
            typed=tuple(header.typed.items()),
        )
    except IllFormedDerivation as exc:
        raise InvalidInput(f"{name}: {exc}") from None


def table_of(data: Mapping[str, Any], key: str, name: str, required: bool) -> dict[str, Any]:
    if key not in data:
        if required:
            raise InvalidInput(f"{name}: missing [{key}] table")
        return {}
    value = data[key]
    if not isinstance(value, dict):
        raise InvalidInput(f"{name}: [{key}] must be a table")
    return value


def text_field(table: Mapping[str, Any], key: str, name: str, where: str) -> str:
    if key not in table:
        raise InvalidInput(f'{name}: {where} needs {key} = "..."')
    value = table[key]
    if not isinstance(value, str):
        raise InvalidInput(f"{name}: {where} {key} must be a string, got {value!r}")
    return value


def _check_name(text: str, name: str, what: str, declared: Mapping[str, object]) -> str:
    """The declared name: a plain identifier, NFKC-normalised (as Python's parser reads
    names in expressions), not reserved, and not already declared under any spelling."""
    if not text.isidentifier() or keyword.iskeyword(text) or text.startswith("_"):
        raise InvalidInput(f"{name}: {what} name {text!r} is not a plain identifier")
    try:
        normal = declared_name(text, what)
    except InvalidInput as exc:
        raise InvalidInput(f"{name}: {exc}") from None
    if normal in declared:
        raise InvalidInput(
            f"{name}: {what} {text!r} is defined twice (names are compared after Unicode "
            f"NFKC normalisation, which reads it as {normal!r}); rename one"
        )
    twin = next((k for k in declared if skeleton(k) == skeleton(normal)), None)
    if twin is not None:
        raise InvalidInput(
            f"{name}: {what} {text!r} looks like {twin!r}, declared already (a Greek or "
            "Cyrillic letter drawn as a Latin one); rename one"
        )
    return normal


def _parse(fn: Any, text: Any, table: Mapping[str, sp.Expr], name: str, where: str) -> Any:
    if not isinstance(text, str):
        raise InvalidInput(f"{name}: {where} must be a string, got {text!r}")
    try:
        return fn(text, table)
    except InvalidInput as exc:
        raise InvalidInput(f"{name}: {where}: {exc}") from None
