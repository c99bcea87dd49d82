"""Families as users write them: declarations, elements, and checks of their use.

:func:`split_family_spec` reads ``"(0, 1) for i in 1..n"``; :func:`family_element` builds
``p[i]`` for the parsers; :func:`check_family_use` refuses, with a message naming the
fragment and what to write, a family used without an index, an element outside its range
(where decidable), an index bound twice and a 'for all' over a name that is not an index.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import sympy as sp

from symbolic.errors import ExpressionError, InvalidInput
from symbolic.families import Family, ForAll

__all__ = ["check_family_use", "family_element", "family_message", "split_family_spec"]


_SPEC = re.compile(
    r"^(?P<domain>.*?)\s+for\s+(?P<i>\w+)\s+in\s+(?P<lo>[^,.\s]+)\s*\.\.\s*(?P<hi>[^,\s]+)"
    r"(?:\s*,\s*(?P<j>\w+)\s+in\s+(?P<lo2>[^,.\s]+)\s*\.\.\s*(?P<hi2>[^,\s]+))?\s*$"
)
_FOR = re.compile(r"\bfor\s+\w+\s+in\b")


_MESSAGES = {
    "bare": "the family {0} is used without an index in {1}: write {0}[i] inside "
    "Sum({0}[i], (i, 1, n)) or in a hypothesis '... for all i'",
    "twice": "the index {0} is bound twice in {1}: give the inner Sum, Product or "
    "'for all' another index name",
    "subscript": "subscripts are allowed only on a family (declared like "
    'p = "(0, 1) for i in 1..n") in {1}',
    "index": "the index {0} is not an integer in {1}: write an index name (i), a number or a "
    "length (n)",
}


def family_message(kind: str, name: object, where: str) -> str:
    """The message of a misused family, index or subscript (one wording for every input)."""
    return _MESSAGES[kind].format(name, where)


def family_element(base: object, indices: list[sp.Expr], where: str) -> sp.Expr:
    """``base[indices]`` as parsed from ``p[i]``: ``base`` must be a family's IndexedBase and
    every index an integer expression (its range is checked with the derivation)."""
    if not isinstance(base, sp.IndexedBase):
        raise ExpressionError(family_message("subscript", base, where))
    for k in indices:
        if k.is_integer is not True:
            raise ExpressionError(family_message("index", k, where))
    return base[tuple(indices)] if len(indices) > 1 else base[indices[0]]


def split_family_spec(text: str) -> tuple[str, list[tuple[str, str, str]]] | None:
    """A family declaration ``"(0, 1) for i in 1..n"`` (or ``"R for i in 1..n, j in 1..m"``)
    as ``(domain text, [(index, lower, upper), ...])``; None for a plain domain.  Raises
    InvalidInput for a ``for`` clause it cannot read."""
    m = _SPEC.match(text)
    if m is None:
        if _FOR.search(text) or re.search(r"\bfor\b", text):
            raise InvalidInput(
                f"cannot read the family declaration {text!r}: write e.g. "
                '"(0, 1) for i in 1..n" (a domain, then the index and its range lo..hi; '
                'two indices as "R for i in 1..n, j in 1..m")'
            )
        return None
    ranges = [(m["i"], m["lo"], m["hi"])]
    if m["j"]:
        if m["j"] == m["i"]:
            raise InvalidInput(f"the index {m['i']} is bound twice in {text!r}")
        ranges.append((m["j"], m["lo2"], m["hi2"]))
    return m["domain"].strip(), ranges


def check_family_use(expr: sp.Basic, families: Mapping[sp.Symbol, Family], where: str = "") -> None:
    """Raise InvalidInput for a family used without an index, an element whose index lies
    outside the family's range where that is decidable (``p[0]``, ``p[n + 1]``, a Sum from
    0 over ``p[i]``), an index bound twice, or a 'for all' over a name that is not an index
    of a family."""
    _use(sp.sympify(expr), families, {}, where or str(expr))


def _use(
    expr: sp.Basic,
    families: Mapping[sp.Symbol, Family],
    bound: Mapping[sp.Symbol, tuple[sp.Expr, sp.Expr]],
    where: str,
) -> None:
    if isinstance(expr, (sp.Sum, sp.Product, ForAll)):
        limits = (
            [tuple(lim) for lim in expr.limits]
            if not isinstance(expr, ForAll)
            else [(expr.index, expr.lower, expr.upper)]
        )
        inner = dict(bound)
        for var, lo, hi in limits:
            _use(lo, families, inner, where)
            _use(hi, families, inner, where)
            if var in inner:
                raise InvalidInput(family_message("twice", var, where))
            inner[var] = (lo, hi)
        if isinstance(expr, ForAll):
            indices = {i for f in families.values() for i in f.indices}
            if expr.index not in indices:
                raise InvalidInput(
                    f"'for all {expr.index}' in {where}: {expr.index} is not the index of a "
                    'family (declare one like p = "(0, 1) for i in 1..n", then write '
                    "'p[i] <= 1 for all i')"
                )
        _use(expr.relation if isinstance(expr, ForAll) else expr.function, families, inner, where)
        return
    if isinstance(expr, sp.Indexed):
        label = expr.base.label
        family = families.get(label)
        if family is None:
            raise InvalidInput(f"{label} in {where} is not a declared family")
        ranges = [(family.lower, family.upper)]
        if family.second is not None:
            ranges.append((sp.sympify(family.second[1]), sp.sympify(family.second[2])))
        if len(expr.indices) != len(ranges):
            raise InvalidInput(
                f"{expr} in {where}: the family {label} has {len(ranges)} index(es), "
                f"{len(expr.indices)} given"
            )
        for k, (flo, fhi) in zip(expr.indices, ranges, strict=True):
            _use(k, families, bound, where)
            span = _span(k, bound)
            if span is None:
                continue
            lo, hi = span
            if (lo - flo).is_negative or (fhi - hi).is_negative:
                raise InvalidInput(
                    f"the element {expr} in {where} can fall outside the family's range: its "
                    f"elements are {label}[{flo}], ..., {label}[{fhi}]"
                )
        return
    if isinstance(expr, sp.IndexedBase) or (isinstance(expr, sp.Symbol) and expr in families):
        name = expr.label if isinstance(expr, sp.IndexedBase) else expr
        raise InvalidInput(family_message("bare", name, where))
    for a in expr.args:
        if isinstance(a, sp.IndexedBase) and isinstance(expr, sp.Function):
            # A whole family as a function's argument (KL(p, q, n), a divergence of two
            # distributions): the function sums over it itself.
            if a.label not in families:
                raise InvalidInput(f"{a.label} in {where} is not a declared family")
            continue
        if isinstance(a, sp.Basic):
            _use(a, families, bound, where)


def _span(
    k: sp.Expr, bound: Mapping[sp.Symbol, tuple[sp.Expr, sp.Expr]]
) -> tuple[sp.Expr, sp.Expr] | None:
    """The range of an index expression ``c`` or ``i + c`` (``i`` bound to lo..hi), or
    None when it is not of that form."""
    k = sp.sympify(k)
    inside = [s for s in k.free_symbols if s in bound]
    if not inside:
        return k, k
    if len(inside) != 1:
        return None
    (i,) = inside
    shift = sp.expand(k - i)
    if shift.has(i):
        return None
    lo, hi = bound[i]
    return lo + shift, hi + shift
