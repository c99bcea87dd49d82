"""Trade-off functions of normal location pairs, built symbolically from the threshold test
(the Neyman-Pearson lemma; Dong, Roth & Su, arXiv:1905.02383v3, Sec. 2.2; seed 004,
section 4.3).

For P = N(0, sigma^2) and Q = N(gap, sigma^2) with gap >= 0, the log-likelihood ratio
log(q/p) is gap x/sigma^2 - gap^2/(2 sigma^2), nondecreasing in x, so the tests rejecting
{x > t} are most powerful (for gap = 0 every test has beta = 1 - alpha, and so do they).
:func:`normal_shift_tradeoff` writes the test's size alpha = Pr_P[X > t] as an integral,
lets SymPy integrate it and solve alpha(t) = alpha for t, and integrates beta = Pr_Q[X <= t]
at that threshold.  Nothing in it states the expected curve: a different pair, a different
threshold or a different beta gives a different expression.
"""

from __future__ import annotations

import functools

import sympy as sp

from derivations.gaussian_dp import normal_density
from symbolic.functions import PhiInv

__all__ = ["as_normal_quantile", "normal_shift_tradeoff"]


def as_normal_quantile(e: sp.Expr) -> sp.Expr:
    """``e`` with erfinv(u) written as PhiInv((1 + u)/2)/sqrt(2): the definition
    PhiInv(p) = sqrt(2) erfinv(2p - 1) (:class:`symbolic.functions.PhiInv`) solved for
    erfinv, so that SymPy's solution of a normal tail meets the catalog's quantile."""
    return e.replace(sp.erfinv, lambda u: PhiInv((1 + u) / 2) / sp.sqrt(2))


@functools.lru_cache(maxsize=64)
def normal_shift_tradeoff(gap: sp.Expr, sigma: sp.Expr, alpha: sp.Expr) -> sp.Expr | None:
    """T(N(0, sigma^2), N(gap, sigma^2))(alpha) from the threshold test, or None where the
    construction does not go through (the sign of the likelihood ratio's slope is unknown,
    or SymPy does not find exactly one threshold).  Cached: the equality tactics call
    ``doit`` more than once on the same step."""
    x = sp.Dummy("x", real=True)
    t = sp.Dummy("t", real=True)
    p = normal_density(x / sigma) / sigma
    q = normal_density((x - gap) / sigma) / sigma
    # Both densities are positive, so splitting the log of their quotient is exact.
    log_ratio = sp.expand(sp.expand_log(sp.log(q / p), force=True))
    if not log_ratio.is_polynomial(x) or sp.degree(log_ratio, x) > 1:
        return None
    if log_ratio.coeff(x, 1).is_nonnegative is not True:
        return None  # no monotone likelihood ratio known: {x > t} need not be optimal
    size = _integrate(sp.Integral(p, (x, t, sp.oo)))
    solutions = sp.solve(sp.Eq(size, alpha), t)
    if len(solutions) != 1 or size.has(sp.Integral):
        return None
    threshold = as_normal_quantile(solutions[0])
    # The change of variables x = y + gap (exact, SymPy's transform) centres the integrand,
    # which SymPy's manual integration handles in a tenth of the time of its default path.
    y = sp.Dummy("y", real=True)
    beta = _integrate(sp.Integral(q, (x, -sp.oo, t)).transform(x, (y + gap, y)))
    if beta.has(sp.Integral):
        return None
    return beta.subs(t, threshold)


def _integrate(integral: sp.Integral) -> sp.Expr:
    """SymPy's manual integration (0.1 s for a centred normal tail), else its default path
    without Meijer G (about 1 s); the result may still hold an Integral."""
    value = integral.doit(manual=True)
    return value if not value.has(sp.Integral) else integral.doit(meijerg=False)
