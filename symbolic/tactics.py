"""Equality by a ladder of cheap-to-expensive SymPy tactics.

The residual ``lhs - rhs`` is reduced under the symbols' assumptions; the first tactic that
brings it to the literal ``0`` decides, and its name is the evidence.  Nothing here ever says
an equality is false: a residual no tactic reduces is simply not proved.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

import sympy as sp

from symbolic.antiderivative import by_antiderivative
from symbolic.assumed_point import nonzero_somewhere
from symbolic.errors import SYMPY_FAILURES
from symbolic.functions import NumericFunction, Phi, PhiInv
from symbolic.sum_split import zero_by_sums

# Past this size simplify() is slow enough to dominate a whole catalog run.
SIMPLIFY_MAX_OPS = 400


def _integrates(e: sp.Expr) -> bool:
    """``e`` holds a sum, an integral, or a numeric function whose ``doit`` writes out its
    symbolic definition (such as the privacy profile ``GaussianDelta``)."""
    if e.has(sp.Integral, sp.Sum):
        return True
    return any(
        isinstance(f, NumericFunction) and type(f).doit is not NumericFunction.doit
        for f in e.atoms(sp.Function)
    )


def _rewrite_special(e: sp.Expr) -> sp.Expr:
    return e.rewrite(sp.erf) if e.has(Phi, PhiInv, sp.erfc) else e


@lru_cache(maxsize=32)
def _doit_expanded(e: sp.Expr) -> sp.Expr:
    """``e`` integrated, special functions written with erf, expanded.  Memoised because the
    expand rung and the simplify rung after it both start from this form, and doit is the
    costly part of a failing expand rung."""
    return sp.expand(e.doit().rewrite(sp.erf))


def _abs_by_sign(e: sp.Expr) -> sp.Expr:
    """``e`` with each ``Abs(g)`` whose sign the assumptions decide written as ``g`` or
    ``-g``.  The sign is asked of ``cancel(g)``, the same function written over one
    denominator: integration leaves arguments such as ``eps + eps/(e^eps + 1) -
    eps/(1 + e^-eps)`` whose terms SymPy cannot sign one by one (= 2 eps/(e^eps + 1) > 0).
    An undecided ``Abs`` is left as it is."""
    decided: dict[sp.Expr, sp.Expr] = {}
    for a in e.atoms(sp.Abs):
        (g,) = a.args
        written = sp.cancel(g)
        if written.is_nonnegative:
            decided[a] = g
        elif written.is_nonpositive:
            decided[a] = -g
    return e.xreplace(decided)


def _exp_as_powers(e: sp.Expr) -> sp.Expr:
    """``e`` with ``exp(k*t)`` for integers ``k`` written ``u**k``, one positive symbol
    ``u`` per ``t``.  An identity in the new positive ``u`` holds in particular at ``u =
    exp(t)``, which is positive; and the exponentials of one ``t`` become powers of one
    generator, so that rational arithmetic sees ``e^eps * e^-eps = 1``."""
    by_term: dict[sp.Expr, list[tuple[sp.Expr, sp.Expr]]] = {}
    for atom in e.atoms(sp.exp):
        k, t = atom.args[0].as_coeff_Mul()
        by_term.setdefault(t, []).append((k, atom))
    powers: dict[sp.Expr, sp.Expr] = {}
    for i, (_, found) in enumerate(
        sorted(by_term.items(), key=lambda kv: sp.default_sort_key(kv[0]))
    ):
        if all(k.is_Integer for k, _ in found):
            u = sp.Dummy(f"u{i}", positive=True)
            powers.update({atom: u**k for k, atom in found})
    return e.xreplace(powers)


def _doit_signed_together(e: sp.Expr) -> sp.Expr:
    """The integrated form with its decided absolute values removed, over one denominator
    with the exponentials as powers: 0 exactly when the expanded numerator is (0.1 s on
    eps-tradeoff-kappa3-bar's definition link, where simplify takes 2 s and cancel 1.2 s).
    Returned as is when an ``Abs`` stays: its sign is what simplify would need."""
    signed = _abs_by_sign(_doit_expanded(e))
    if signed.has(sp.Abs):
        return signed
    numerator, denominator = sp.fraction(sp.together(_exp_as_powers(signed)))
    return sp.expand(numerator) / denominator


ANTIDERIVATIVE = "antiderivative (checked by differentiation)"
SUMS_AT_KINKS = "sums split at their kinks, geometric series"

TACTICS: tuple[tuple[str, Callable[[sp.Expr], sp.Expr]], ...] = (
    ("expand", lambda r: sp.expand(r)),
    ("cancel", lambda r: sp.cancel(r)),
    ("powsimp+expand", lambda r: sp.expand(sp.powsimp(r, force=False))),
    ("rewrite(exp)+cancel", lambda r: sp.cancel(sp.expand(r.rewrite(sp.exp)))),
    ("rewrite(erf)+expand", lambda r: sp.expand(_rewrite_special(r))),
    ("expand_log+expand", lambda r: sp.expand(sp.expand_log(r))),
    ("rewrite(Abs)+expand", lambda r: sp.expand(r.rewrite(sp.Abs)) if r.has(sp.Max, sp.Min) else r),
    ("logcombine+simplify", lambda r: sp.simplify(sp.logcombine(r))),
    # Most identities the doit rung wins need no simplify once integrated (0.02 s instead of
    # 0.1-0.5 s each); the simplify rung after it reuses the memoised integrated form.
    ("doit+rewrite(erf)+expand", lambda r: _doit_expanded(r) if _integrates(r) else r),
    # Integration leaves |g| of a sign the assumptions decide, and sums over e^eps and
    # e^-eps that expand does not bring to 0 but one denominator does: ~10x cheaper than
    # simplify on the same form (eps-tradeoff-kappa3-bar: 0.1 s against 2.1 s).
    (
        "doit+rewrite(erf)+Abs by sign+together",
        lambda r: _doit_signed_together(r) if _integrates(r) else r,
    ),
    # Definite integrals that doit leaves under a Piecewise of sign conditions (the Laplace
    # tail) or unevaluated: F(b) - F(a) by an antiderivative checked by differentiation and
    # continuous on R (symbolic/antiderivative.py states the premises it establishes).
    # Before the doit simplify rung: that rung wins no catalog link since the Abs-by-sign
    # rung, and failing ahead of this one it cost the Laplace tail 0.7 s.
    (ANTIDERIVATIVE, lambda r: by_antiderivative(r) if r.has(sp.Integral) else r),
    # Infinite sums with Abs, Max or sign of the index (the discrete Laplace normaliser over
    # Z): split where they bend, exponentials as powers, summed by SymPy with every
    # convergence condition shown (symbolic/sum_split.py states what it establishes).
    (SUMS_AT_KINKS, lambda r: zero_by_sums(r) if r.has(sp.Sum) else r),
    (
        "doit+rewrite(erf)+simplify",
        lambda r: sp.simplify(_doit_expanded(r)) if _integrates(r) else r,
    ),
    ("simplify", lambda r: sp.simplify(r)),
)


def prove_zero(
    residual: sp.Expr, cheap: bool = False, positive: Sequence[sp.Expr] = ()
) -> str | None:
    """The name of the first tactic that reduces ``residual`` to 0, or None.  ``cheap``
    skips the simplify rungs (for residuals already known to be nonzero somewhere).

    ``positive``: expressions known to be positive (from hypotheses).  When the ladder fails,
    it is run again with each of them replaced by a positive symbol.  That is sound: an
    identity in a new positive symbol ``u`` holds in particular at ``u = e`` for any
    positive ``e``, and ``xreplace`` substitutes back exactly.  It lets ``expand_log`` split
    ``log((1 - q1 - q2)/(1 - p1 - p2))``, which it must not do for sums of unknown sign.

    >>> x = sp.Symbol("x", positive=True)
    >>> prove_zero((x + 1)**2 - x**2 - 2*x - 1)
    'expand'
    >>> prove_zero(sp.exp(x) - x) is None
    True
    """
    if residual == 0:
        return "identical"
    found = _ladder(residual, cheap, positive)
    if found is None and positive:
        general = residual.xreplace(
            {e: sp.Dummy(f"u{i}", positive=True) for i, e in enumerate(positive)}
        )
        if general != residual:
            # The cheap rungs only: a second full ladder (simplify) would double the cost of
            # every equality that is not proved.
            found = _ladder(general, True)
            if found is not None:
                found = f"positive sums as positive symbols, {found}"
    return found


def _ladder(residual: sp.Expr, cheap: bool, positive: Sequence[sp.Expr] = ()) -> str | None:
    tactics = TACTICS
    unevaluated = residual.has(sp.Integral, sp.Sum)
    if _integrates(residual):
        # Integration decides these links; simplify over unevaluated integrals costs ~10 s
        # (gdp-to-dp), so the doit rung goes first among the simplify rungs.
        tactics = tuple(sorted(TACTICS, key=lambda t: _rank(t[0])))
    for name, tactic in tactics:
        if name != "expand" and nonzero_somewhere(residual):
            # Nonzero at a point the assumptions allow: no sound rung can reduce it to 0, so
            # the rest of the ladder (simplify among it) would fail; only checked once the
            # cheapest rung has failed, as most identities fall to it.
            return None
        if name.endswith("simplify") and (cheap or sp.count_ops(residual) > SIMPLIFY_MAX_OPS):
            continue
        if unevaluated and name.endswith("simplify") and not name.startswith("doit"):
            # The doit rung has simplified the evaluated form already; simplify over the
            # unevaluated integrals or sums again costs 5-10 s a claim and reduces none.
            continue
        if name.startswith("doit+rewrite(erf)+") and (
            cheap or sp.count_ops(residual) > SIMPLIFY_MAX_OPS
        ):
            # Run only where the doit simplify rung runs after it, which reuses its memoised
            # integrated form: a failing expand rung then costs no extra integration.
            continue
        if name == ANTIDERIVATIVE and (cheap or not residual.has(sp.Integral)):
            # It ends in simplify: skipped where the simplify rungs are.
            continue
        if name == SUMS_AT_KINKS and (cheap or not residual.has(sp.Sum)):
            continue
        try:
            if name == ANTIDERIVATIVE:
                # The hypotheses' positive sums decide the sign of an exponent at oo.
                reduced = by_antiderivative(residual, positive)
            elif name == SUMS_AT_KINKS:
                # ... and the convergence of a geometric series (1 - a > 0 for a in (0, 1)).
                reduced = zero_by_sums(residual, positive)
            else:
                reduced = tactic(residual)
        except SYMPY_FAILURES:
            continue
        if reduced == 0:
            return name
    return None


def _rank(name: str) -> int:
    """Cheap rungs first, then doit, then the other simplify rungs (a stable sort)."""
    if name.startswith("doit") or name in (ANTIDERIVATIVE, SUMS_AT_KINKS):
        return 1
    return 2 if name.endswith("simplify") else 0
