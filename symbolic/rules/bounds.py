"""Rules that replace every term of a sum by a bound at once.

* **log tangent bounds**: ``c*log(u) >= c*(1 - 1/u)`` for ``c >= 0`` and
  ``c*log(u) >= c*(u - 1)`` for ``c <= 0`` (from ``1 - 1/u <= log u <= u - 1``), applied to
  every log term of a sum at once, which is how Gibbs' inequality reduces to normalisation;
* **min/max bounds**: ``c*Min(a, b) >= c*a`` for ``c <= 0`` and ``c*Max(a, b) >= c*a`` for
  ``c >= 0``, choosing the same argument position in every Min/Max of a sum (so that
  ``1 - sum min(p_i, q_i)`` reduces to ``1 - sum p_i``);
* **extremum cases**: ``r - c*Max(a, b) >= 0`` (``c > 0``) holds iff ``r - c*a >= 0`` and
  ``r - c*b >= 0``, since the maximum is one of its arguments (likewise ``r + c*Min(a, b)``):
  no case fact is needed, unlike the sign case split.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import sympy as sp

if TYPE_CHECKING:
    from symbolic.rules.prover import Prover


def log_tangent(prover: Prover, g: sp.Expr, strict: bool, depth: int) -> list[str] | None:
    """``g >= 0`` from its lower bound with every ``c log(u)`` replaced by a tangent bound."""
    if not g.has(sp.log):
        return None  # no log term to bound (and the expansion below cost 0.8 s a search)
    # The sum's own terms first: expand() would distribute (1 - q1 - q2)*log(...) into
    # pieces whose coefficients have no known sign.  Expanded only if they fail.
    shapes = (lambda: g, lambda: sp.expand(g, log=False))
    for shape in shapes:
        terms = sp.Add.make_args(shape())
        lower = _tangent_lower_bound(prover, terms)
        if lower is None:
            continue
        lower = _cancelled(lower)  # the bound is rational: normalisation cancels here
        trace = prover.nonneg(lower, strict, depth + 1)
        if trace is not None:
            return ["log tangent bounds 1 - 1/u <= log(u) <= u - 1 on every log term", *trace]
    return None


@functools.lru_cache(maxsize=4096)
def _cancelled(e: sp.Expr) -> sp.Expr:
    """``cancel(e)``, memoised for every prover: the same goal meets this rule in the cited
    rule's prover, the full search and each case of a sign split, and the cancellation was
    most of the rule's cost (89 of 146 calls were repeats over kl-bound,
    numeric-sparse-privacy-approx and gdp-gaussian-mechanism)."""
    return sp.cancel(e)


def _tangent_lower_bound(prover: Prover, terms: tuple[sp.Expr, ...]) -> sp.Expr | None:
    """A lower bound of ``sum(terms)`` with each ``c*log(u)`` replaced by its tangent
    bound, or None if some log term has a coefficient of unknown sign."""
    if len(terms) < 2 or not any(t.has(sp.log) for t in terms):
        return None
    bounded = []
    for t in terms:
        logs = [f for f in sp.Mul.make_args(t) if isinstance(f, sp.log)]
        if not logs:
            bounded.append(t)
            continue
        if len(logs) != 1:
            return None
        u = logs[0].args[0]
        c = sp.Mul(*[f for f in sp.Mul.make_args(t) if f is not logs[0]])
        if not prover.known_sign(u, True):
            return None
        if prover.known_sign(c, False):
            bounded.append(c * (1 - 1 / u))
        elif prover.known_sign(-c, False):
            bounded.append(c * (u - 1))
        else:
            return None
    return sp.Add(*bounded)


def min_max(prover: Prover, g: sp.Expr, strict: bool, depth: int) -> list[str] | None:
    """``g >= 0`` from its lower bound with each Min/Max replaced by one of its arguments."""
    if not g.has(sp.Min, sp.Max):
        return None
    terms = sp.Add.make_args(sp.expand(g, log=False))
    arity = max(len(f.args) for f in g.atoms(sp.Min, sp.Max))
    for k in range(arity):
        bounded = []
        for t in terms:
            ext = [f for f in sp.Mul.make_args(t) if isinstance(f, sp.Min | sp.Max)]
            if not ext:
                bounded.append(t)
                continue
            if len(ext) != 1:
                return None
            f = ext[0]
            c = t / f
            wanted_sign_ok = (
                prover.known_sign(-c, False)
                if isinstance(f, sp.Min)
                else prover.known_sign(c, False)
            )
            if not wanted_sign_ok:
                return None
            args = sorted(f.args, key=str)  # the same position in every Min: p_i, not q_i
            bounded.append(c * args[min(k, len(args) - 1)])
        trace = prover.nonneg(sp.cancel(sp.Add(*bounded)), strict, depth + 1)
        if trace is not None:
            return [f"min(a, b) <= a and max(a, b) >= a (argument {k + 1}) termwise", *trace]
    return None


def extremum_cases(prover: Prover, g: sp.Expr, strict: bool, depth: int) -> list[str] | None:
    """``r - c Max(a_1, ..., a_n) >= 0`` from ``r - c a_i >= 0`` for every ``i`` (``c > 0``),
    and ``r + c Min(...)`` likewise: the extremum equals one of its arguments, so the goal
    holds in every case.  (The numeric-sparse accuracy bound ``max(Sparse, Laplace) <= ...``
    of Dwork & Roth 2014, Theorem 3.28, is such a goal.)"""
    if not g.has(sp.Min, sp.Max):
        return None
    for t in sp.Add.make_args(g):
        c, f = t.as_coeff_Mul()
        if not (
            (isinstance(f, sp.Max) and c.is_negative) or (isinstance(f, sp.Min) and c.is_positive)
        ):
            continue
        if _paired(g, f):
            return None  # the cases would forget which argument is the max: the sign split
        traces = []
        for arg in f.args:
            trace = prover.nonneg(g.xreplace({f: arg}), strict, depth + 1)
            if trace is None:
                return None
            traces.append(f"[{f.func.__name__.lower()} = {arg}: {' -> '.join(trace)}]")
        return [f"the {f.func.__name__.lower()} is one of its arguments: " + " ".join(traces)]
    return None


def _paired(g: sp.Expr, f: sp.Min | sp.Max) -> bool:
    """``g`` also has the other extremum, or an absolute difference, of ``f``'s arguments
    (``max(p, q) - min(p, q)``): replacing ``f`` alone by each argument in turn loses the
    link between them, so such goals go to the sign case split, which keeps it as a fact."""
    args = set(f.args)
    for other in g.atoms(sp.Min, sp.Max, sp.Abs):
        if other == f:
            continue
        if set(other.args) == args:
            return True
        if isinstance(other, sp.Abs) and len(args) == 2:
            a, b = f.args
            if sp.expand(other.args[0] - (a - b)) == 0 or sp.expand(other.args[0] + a - b) == 0:
                return True
    return False
