"""Equality by a ladder of cheap-to-expensive SymPy tactics.

The residual ``lhs - rhs`` is reduced under the symbols' assumptions; the first tactic that
brings it to the literal ``0`` decides, and its name is the evidence.  Nothing here ever says
an equality is false: a residual no tactic reduces is simply not proved.
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from symbolic.functions import Phi, PhiInv

# Past this size simplify() is slow enough to dominate a whole catalog run.
SIMPLIFY_MAX_OPS = 400


def _rewrite_special(e: sp.Expr) -> sp.Expr:
    return e.rewrite(sp.erf) if e.has(Phi, PhiInv, sp.erfc) else e


TACTICS: tuple[tuple[str, Callable[[sp.Expr], sp.Expr]], ...] = (
    ("expand", lambda r: sp.expand(r)),
    ("cancel", lambda r: sp.cancel(r)),
    ("powsimp+expand", lambda r: sp.expand(sp.powsimp(r, force=False))),
    ("rewrite(exp)+cancel", lambda r: sp.cancel(sp.expand(r.rewrite(sp.exp)))),
    ("rewrite(erf)+expand", lambda r: sp.expand(_rewrite_special(r))),
    ("expand_log+expand", lambda r: sp.expand(sp.expand_log(r))),
    ("rewrite(Abs)+expand", lambda r: sp.expand(r.rewrite(sp.Abs)) if r.has(sp.Max, sp.Min) else r),
    ("logcombine+simplify", lambda r: sp.simplify(sp.logcombine(r))),
    (
        "doit+rewrite(erf)+simplify",
        lambda r: (
            sp.simplify(sp.expand(r.doit().rewrite(sp.erf))) if r.has(sp.Integral, sp.Sum) else r
        ),
    ),
    ("simplify", lambda r: sp.simplify(r)),
)


def prove_zero(residual: sp.Expr, cheap: bool = False) -> str | None:
    """The name of the first tactic that reduces ``residual`` to 0, or None.  ``cheap``
    skips the simplify rungs (for residuals already known to be nonzero somewhere).

    >>> x = sp.Symbol("x", positive=True)
    >>> prove_zero((x + 1)**2 - x**2 - 2*x - 1)
    'expand'
    >>> prove_zero(sp.exp(x) - x) is None
    True
    """
    if residual == 0:
        return "identical"
    for name, tactic in TACTICS:
        if name.endswith("simplify") and (cheap or sp.count_ops(residual) > SIMPLIFY_MAX_OPS):
            continue
        try:
            reduced = tactic(residual)
        except (TypeError, ValueError, NotImplementedError, RecursionError, AttributeError):
            continue
        if reduced == 0:
            return name
    return None
