"""Symbols renamed before the numeric bridge compiles an expression, so that no name a user
declares can meet a name the printer emits (:mod:`numeric_checks.bridge`, issue 41)."""

from __future__ import annotations

import sympy as sp

__all__ = ["renamed"]


def renamed(
    args: tuple[sp.Symbol, ...], exprs: tuple[sp.Expr, ...]
) -> tuple[tuple[sp.Symbol, ...], tuple[sp.Expr, ...]]:
    """``args`` and ``exprs`` with every symbol renamed ``_v0_NAME`` (its assumptions kept).

    The compiled function's parameters and its sums' and integrals' variables are Python
    names in the generated code, beside the names the printer emits (``mpf``, ``exp``,
    ``sum_finite``, ``integrate``, ``max``...): a user's variable named ``mpf`` or
    ``sum_finite`` shadowed them and made every point undefined (issue 41).  A user's name
    never starts with an underscore, and no emitted name starts with ``_v``, so no name the
    user declares can meet one the printer emits, whatever either list holds.  Two symbols of
    one name (a variable and a sum's index with other assumptions) are ``_v0_k`` and
    ``_v1_k``: printed alike, the inner one would shadow the outer."""
    symbols = {sym for e in (*args, *exprs) for sym in e.atoms(sp.Symbol)}
    mapping: dict[sp.Basic, sp.Basic] = {}
    taken: dict[str, int] = {}
    for sym in sorted(symbols, key=sp.default_sort_key):
        if isinstance(sym, sp.Dummy):
            continue
        seen = taken.get(sym.name, 0)
        taken[sym.name] = seen + 1
        mapping[sym] = sp.Symbol(f"_v{seen}_{sym.name}", **sym.assumptions0)
    renamed_args = tuple(mapping.get(a, a) for a in args)
    return renamed_args, tuple(e.xreplace(mapping) for e in exprs)  # type: ignore[return-value]
