"""Families in claim and proof files: declarations ``p = "(0, 1) for i in 1..n"`` and
hypotheses ``"p[i] <= exp(eps)*q[i] for all i"`` (see :mod:`symbolic.families`).

A family's length is a positive integer or a declared integer variable whose domain starts
at 1 or more; its index is a plain name; a 'for all' ranges over a family's index.  Every
mistake is an :class:`~symbolic.errors.InvalidInput` naming the fragment and what to write.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Callable, Mapping, Sequence

import sympy as sp

from symbolic.domains import Variable, parse_domain
from symbolic.errors import InvalidInput
from symbolic.families import Family, ForAll, index_symbol
from symbolic.vocabulary import reserved_message

__all__ = ["declare_family", "for_all_relations", "single_equals", "split_for_all"]

_SINGLE_EQ = re.compile(r"(?<![<>=!])=(?!=)")


def single_equals(text: str) -> str:
    """A hypothesis with a single '=' as books write it (``Sum(p[i], (i, 1, n)) = 1``) as
    the equality ``==`` the SymPy-syntax parser reads."""
    return _SINGLE_EQ.sub("==", text)


_FOR_ALL = re.compile(
    r"^(?P<body>.*\S)\s+for\s+(?:all|every)\s+(?P<i>\w+)"
    r"(?:\s+in\s+(?P<lo>[^.\s]+)\s*\.\.\s*(?P<hi>\S+))?\s*$"
)


def split_for_all(text: str) -> tuple[str, str, tuple[str, str] | None] | None:
    """``"REL for all i"`` / ``"REL for all i in 1..n"`` as (REL, i, bounds)."""
    m = _FOR_ALL.match(text.strip())
    if m is None:
        return None
    bounds = (m["lo"], m["hi"]) if m["lo"] else None
    return m["body"], m["i"], bounds


def declare_family(
    var_name: str,
    spec: tuple[str, list[tuple[str, str, str]]],
    scalars: list[Variable],
    table: dict[str, sp.Expr],
    name: str,
) -> Variable:
    """The family variable declared ``"DOMAIN for i in lo..hi"`` (its domain's ends exact,
    as for any variable)."""
    domain_text, ranges = spec
    where = f"{name}: variable {var_name}"
    try:
        domain = parse_domain(domain_text)
    except InvalidInput as exc:
        raise InvalidInput(
            f'{where}: {exc} (a family is declared like "(0, 1) for i in 1..n")'
        ) from None
    by_name = {v.name: v for v in scalars}
    ends: list[tuple[str, sp.Expr, sp.Expr]] = []
    for index, lo_text, hi_text in ranges:
        if not index.isidentifier() or keyword.iskeyword(index) or reserved_message(index):
            raise InvalidInput(f"{where}: the index {index!r} is not a plain name")
        if index in table and not (table[index] == index_symbol(index)):
            raise InvalidInput(
                f"{where}: the index {index} is also a variable or a definition; rename one"
            )
        lo = _range_end(lo_text, by_name, where, lower=True)
        hi = _range_end(hi_text, by_name, where, lower=False)
        ends.append((index, lo, hi))
    (i, lo, hi), *rest = ends
    second = (rest[0][0], rest[0][1], rest[0][2]) if rest else None
    try:
        var = Variable(var_name, domain, family=Family(i, lo, hi, second))
    except InvalidInput as exc:
        raise InvalidInput(f"{where}: {exc}") from None
    for index, _, _ in ends:
        table[index] = index_symbol(index)
    return var


def _range_end(text: str, scalars: Mapping[str, Variable], where: str, lower: bool) -> sp.Expr:
    """An end of a family's index range: an integer, or (the upper end) a declared integer
    variable whose domain starts at 1 or more (a length)."""
    what = "lower end" if lower else "length"
    text = text.strip()
    if re.fullmatch(r"[+-]?\d+", text):
        value = sp.Integer(int(text))
        if lower and value < 0:
            raise InvalidInput(f"{where}: the index range cannot start below 0, got {text}")
        if not lower and value < 1:
            raise InvalidInput(
                f"{where}: a family's length must be a positive integer, got {text} "
                "(write e.g. 'for i in 1..n' with n = \"Z>=1\", or 'for i in 1..3')"
            )
        return value
    var = scalars.get(text)
    if lower or var is None:
        raise InvalidInput(
            f"{where}: the {what} of the index range must be "
            + ("an integer" if lower else "a positive integer or a declared length variable")
            + f", got {text!r} (write e.g. 'for i in 1..n' with n = \"Z>=1\")"
        )
    dom = var.domain
    if dom.kind != "integer" or not (dom.lower.is_finite and dom.lower >= 1):
        raise InvalidInput(
            f"{where}: the length {text} must be a positive integer variable, but it is "
            f'declared {dom} (declare {text} = "Z>=1")'
        )
    return var.symbol


def for_all_relations(
    body: str,
    index: str,
    bounds: tuple[str, str] | None,
    variables: Sequence[Variable],
    symbols: Mapping[str, sp.Expr],
    expr: Callable[[str, str], sp.Expr],
    relations: Callable[[str, Mapping[str, sp.Expr]], list[sp.Basic]],
    where: str,
) -> list[sp.Basic]:
    """``"p[i] <= exp(eps)*q[i] for all i"``: the relation for every ``i`` of the range
    of the families indexed by ``i`` (or of the range written ``for all i in 1..n``).
    ``expr`` and ``relations`` parse a field as the file's other fields are parsed."""
    families = [v.family for v in variables if v.family is not None]
    ranges = set()
    for f in families:
        if f.index == index:
            ranges.add((f.lower, f.upper))
        if f.second is not None and f.second[0] == index:
            ranges.add((sp.sympify(f.second[1]), sp.sympify(f.second[2])))
    if not ranges:
        indices = sorted({i for f in families for i in (f.index, *(f.second or ())[:1])})
        known = ", ".join(indices) if indices else "none declared"
        raise InvalidInput(
            f"{where}: 'for all {index}': {index} is not the index of a family "
            f'(indices: {known}); declare a family like p = "(0, 1) for i in 1..n" and '
            "write 'p[i] <= 1 for all i'"
        )
    if bounds is not None:
        lo, hi = (expr(b, f" (range of {index})") for b in bounds)
        for end in (lo, hi):
            if end.is_integer is not True:
                raise InvalidInput(
                    f"{where}: the range of 'for all {index}' must have integer ends, got {end}"
                )
    elif len(ranges) > 1:
        raise InvalidInput(
            f"{where}: families indexed by {index} have different ranges; "
            f"write 'for all {index} in lo..hi'"
        )
    else:
        ((lo, hi),) = ranges
    table = dict(symbols)
    table[index] = index_symbol(index)
    return [ForAll(r, (index_symbol(index), lo, hi)) for r in relations(body, table)]
