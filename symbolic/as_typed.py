"""A step as its author typed it, where SymPy's automatic evaluation changed it on reading:
what ``verify`` and ``explain`` give back beside what was checked."""

from __future__ import annotations

from collections.abc import Mapping

import sympy as sp

from symbolic.readers.syntax import parse_expr

__all__ = ["reshaped_text"]


def reshaped_text(text: str, parsed: sp.Expr, symbols: Mapping[str, sp.Expr]) -> str:
    """``text`` (SymPy syntax) when SymPy's automatic evaluation changed more than its order
    on reading it, so that a report can show the step as its author typed it; else ``""``.

    Changed: evaluation removed an operation or a function (``exp(-log(k/b))`` read as
    ``b/k``, ``(a - b)**2 - (a - b)**2`` read as ``0``).  A reordering (``2*k*eps**2`` read as
    ``2*eps**2*k``) is not a change.

    >>> k, b = sp.symbols("k b", positive=True)
    >>> reshaped_text("k*exp(-log(k/b))", parse_expr("k*exp(-log(k/b))", {"k": k, "b": b}),
    ...               {"k": k, "b": b})
    'k*exp(-log(k/b))'
    >>> reshaped_text("2*k*b**2", parse_expr("2*k*b**2", {"k": k, "b": b}), {"k": k, "b": b})
    ''
    """
    try:
        with sp.evaluate(False):  # the parser's SymPy calls, as typed
            typed = parse_expr(text, symbols)
        lost = {type(f) for f in typed.atoms(sp.Function)} - {
            type(f) for f in parsed.atoms(sp.Function)
        }
        fewer = sp.count_ops(typed) > sp.count_ops(parsed)
    except Exception:  # SymPy unevaluated can fail anywhere; then nothing is shown
        return ""
    return text.strip() if lost or fewer else ""
