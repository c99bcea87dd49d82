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

Expressions are parsed without ``eval`` by :mod:`symbolic.parsing`.
"""

from __future__ import annotations

import keyword
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import sympy as sp

from symbolic.derivation import Claim, Derivation, Justification, Source, Step
from symbolic.domains import Variable, parse_domain
from symbolic.errors import IllFormedDerivation, InvalidInput
from symbolic.parsing import parse_expr, parse_relations
from symbolic.relations import Relation

MAX_FILE_BYTES = 1_000_000
TOP_KEYS = {"hypotheses", "claim", "variables", "defs"}
CLAIM_KEYS = {"lhs", "relation", "rhs", "statement"}


def load_claim(path: str | Path) -> Derivation:
    """Read a claim file; raise :class:`InvalidInput` naming the problem if it is malformed."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise InvalidInput(f"cannot read claim file {str(p)!r}: {exc.strerror}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise InvalidInput(f"claim file {str(p)!r} is larger than {MAX_FILE_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInput(f"claim file {str(p)!r} is not UTF-8 text") from None
    return parse_claim(text, name=str(p))


def parse_claim(text: str, name: str = "<claim>") -> Derivation:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidInput(f"{name}: malformed TOML: {exc}") from None
    unknown = set(data) - TOP_KEYS
    if unknown:
        raise InvalidInput(f"{name}: unknown key(s) {sorted(unknown)}; allowed: {sorted(TOP_KEYS)}")
    claim = _table(data, "claim", name, required=True)
    bad = set(claim) - CLAIM_KEYS
    if bad:
        raise InvalidInput(f"{name}: unknown key(s) in [claim]: {sorted(bad)}")
    for key in ("lhs", "relation", "rhs"):
        if key not in claim:
            raise InvalidInput(f'{name}: [claim] needs {key} = "..."')
        if not isinstance(claim[key], str):
            raise InvalidInput(f"{name}: [claim] {key} must be a string, got {claim[key]!r}")

    variables: list[Variable] = []
    table: dict[str, sp.Expr] = {}
    for var_name, domain_text in _table(data, "variables", name, required=False).items():
        _check_name(var_name, name, "variable")
        try:
            domain = parse_domain(domain_text)
        except InvalidInput as exc:
            raise InvalidInput(f"{name}: variable {var_name}: {exc}") from None
        var = Variable(var_name, domain)
        variables.append(var)
        table[var_name] = var.symbol

    defs: list[tuple[sp.Symbol, sp.Expr]] = []
    for def_name, value in _table(data, "defs", name, required=False).items():
        _check_name(def_name, name, "definition")
        if def_name in table:
            raise InvalidInput(f"{name}: {def_name!r} is defined twice (variable and def)")
        if not isinstance(value, str):
            raise InvalidInput(f"{name}: def {def_name} must be a string, got {value!r}")
        expr = _parse(parse_expr, value, table, name, f"def {def_name}")
        sym = sp.Symbol(def_name)
        defs.append((sym, expr))
        table[def_name] = sym

    hyps_raw = data.get("hypotheses", [])
    if not isinstance(hyps_raw, list) or not all(isinstance(h, str) for h in hyps_raw):
        raise InvalidInput(f"{name}: hypotheses must be a list of strings")
    hypotheses: list[sp.Basic] = []
    for h in hyps_raw:
        hypotheses += _parse(parse_relations, h, table, name, "hypothesis")

    lhs = _parse(parse_expr, claim["lhs"], table, name, "lhs")
    rhs = _parse(parse_expr, claim["rhs"], table, name, "rhs")
    try:
        relation = Relation.parse(claim["relation"])
    except InvalidInput as exc:
        raise InvalidInput(f"{name}: {exc}") from None
    statement = claim.get("statement", "")
    if not isinstance(statement, str):
        raise InvalidInput(f"{name}: statement must be a string")
    try:
        return Derivation(
            id="claim",
            title=statement or f"claim from {name}",
            source=Source("claim file", name),
            statement=statement,
            variables=tuple(variables),
            hypotheses=tuple(hypotheses),
            defs=tuple(defs),
            claim=Claim(lhs, relation, rhs),
            steps=(Step(relation, rhs, Justification("the claim as typed")),),
        )
    except IllFormedDerivation as exc:
        raise InvalidInput(f"{name}: {exc}") from None


def _table(data: Mapping[str, Any], key: str, name: str, required: bool) -> dict[str, Any]:
    if key not in data:
        if required:
            raise InvalidInput(f"{name}: missing [{key}] table")
        return {}
    value = data[key]
    if not isinstance(value, dict):
        raise InvalidInput(f"{name}: [{key}] must be a table")
    return value


def _check_name(text: str, name: str, what: str) -> None:
    if not text.isidentifier() or keyword.iskeyword(text) or text.startswith("_"):
        raise InvalidInput(f"{name}: {what} name {text!r} is not a plain identifier")


def _parse(fn: Any, text: Any, table: Mapping[str, sp.Expr], name: str, where: str) -> Any:
    if not isinstance(text, str):
        raise InvalidInput(f"{name}: {where} must be a string, got {text!r}")
    try:
        return fn(text, table)
    except InvalidInput as exc:
        raise InvalidInput(f"{name}: {where}: {exc}") from None
