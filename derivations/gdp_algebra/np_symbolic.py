"""Symbolic Neyman-Pearson curves of finite pairs (Dong, Roth & Su, arXiv:1905.02383v3,
Sec. 2-3; seed 004, section 2).

The symbolic twin of :mod:`numeric_checks.dp.tradeoff.finite`: the same pairs and the same
construction, with SymPy expressions for the probabilities, so that the tactics can decide a
step whose side is the trade-off function of an explicit finite pair.

* :func:`eps_delta_atoms`: the 4-point pair with T(P, Q) = f_{eps, delta};
* :func:`tensor_atoms`: the product pair, atoms of equal likelihood ratio merged;
* :func:`np_curve`: T(P, Q) by the Neyman-Pearson lemma: the most powerful tests reject
  outcomes in decreasing order of the likelihood ratio q/p (outcomes only Q charges first, at
  no cost in alpha), so T(P, Q) is the piecewise-linear curve through the cumulative corners
  (sum of p, sum of the remaining q) of those prefixes;
* :func:`curve_piecewise` and :func:`curve_max`: that curve as a function of alpha.

The order of the ratios is taken only where SymPy decides it from the variables' assumptions
(:func:`compare_ratios`); where it cannot, :class:`Undecided` is raised and the caller keeps
the quantity unevaluated.  Nothing here knows which curve to expect: a different pair gives a
different curve.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sympy as sp

from symbolic.functions import NumericFunction

__all__ = [
    "Atom",
    "FinitePairTradeoff",
    "SymbolicCurve",
    "Undecided",
    "compare_ratios",
    "curve_max",
    "curve_piecewise",
    "eps_delta_atoms",
    "np_curve",
    "tensor_atoms",
]

Atom = tuple[sp.Expr, sp.Expr]
"""One outcome of a finite pair: (P-probability, Q-probability)."""


class Undecided(Exception):
    """SymPy could not decide something the construction needs (a ratio order, a zero)."""


def eps_delta_atoms(eps: sp.Expr, delta: sp.Expr) -> list[Atom]:
    """P = (delta, (1-delta) e^eps/(1+e^eps), (1-delta)/(1+e^eps), 0) and Q the reverse:
    T(P, Q) = f_{eps, delta} (Dong, Roth & Su, Sec. 2.3; seed 004, section 4.1), for
    eps >= 0 and delta in [0, 1]; the symbolic twin of ``eps_delta_pair``."""
    eps, delta = sp.sympify(eps), sp.sympify(delta)
    hi = (1 - delta) / (1 + sp.exp(-eps))
    lo = (1 - delta) / (1 + sp.exp(eps))
    return [(delta, sp.S.Zero), (hi, lo), (lo, hi), (sp.S.Zero, delta)]


@dataclass(frozen=True)
class _Kind:
    """An atom classified: ``ratio`` is q/p (None: p = 0, only Q charges the outcome)."""

    ratio: sp.Expr | None


def _classify(atom: Atom) -> _Kind | None:
    """The likelihood ratio of an atom, or None for an atom of no mass (p = q = 0).

    q/p is cancelled to r and q = r p is checked identically, so that where p vanishes q
    does too and the atom weighs nothing wherever its ratio is undefined."""
    p, q = atom
    if p.is_zero:
        return None if q.is_zero else _Kind(None)
    if q.is_zero:
        return _Kind(sp.S.Zero)
    r = sp.cancel(q / p)
    if sp.cancel(q - r * p) != 0 or r.is_nonnegative is not True:
        raise Undecided(f"the likelihood ratio of ({p}, {q}) is not a known nonnegative r")
    return _Kind(r)


def compare_ratios(r1: sp.Expr, r2: sp.Expr) -> int:
    """0 if r1 = r2 identically, 1 if r1 >= r2, -1 if r1 <= r2, each decided by SymPy from
    the symbols' assumptions; :class:`Undecided` otherwise.  Non-strict orders suffice: atoms
    of tied ratio may be rejected in either order without changing the curve.

    The sign of r1 - r2 is tried first; for two positive ratios then log(r1/r2), where SymPy
    reduces log(e^{2 eps}) to 2 eps, so that eps >= 0 gives e^eps >= e^-eps (it does not
    decide the sign of e^eps - e^-eps directly)."""
    diff = sp.cancel(r1 - r2)
    if diff == 0:
        return 0
    if diff.is_nonnegative:
        return 1
    if diff.is_nonpositive:
        return -1
    if r1.is_positive and r2.is_positive:
        log_ratio = sp.expand(sp.log(sp.cancel(r1 / r2)))
        if log_ratio.is_nonnegative:
            return 1
        if log_ratio.is_nonpositive:
            return -1
    raise Undecided(f"SymPy does not decide the order of the likelihood ratios {r1} and {r2}")


def _same_ratio(r1: sp.Expr | None, r2: sp.Expr | None) -> bool:
    """Both infinite (p = 0), or equal identically (cancel reduces the difference to 0)."""
    if r1 is None or r2 is None:
        return r1 is None and r2 is None
    return bool(sp.cancel(r1 - r2) == 0)


def _merge(atoms: Sequence[Atom]) -> list[Atom]:
    """Atoms of equal likelihood ratio merged (the curve only depends on the totals per ratio,
    Dong, Roth & Su Sec. 3); atoms of no mass dropped; the outcomes only Q charges pooled."""
    groups: list[tuple[sp.Expr | None, sp.Expr, sp.Expr]] = []
    for p, q in atoms:
        kind = _classify((p, q))
        if kind is None:
            continue
        for i, (r, p0, q0) in enumerate(groups):
            if _same_ratio(kind.ratio, r):
                groups[i] = (r, p0 + p, q0 + q)
                break
        else:
            groups.append((kind.ratio, p, q))
    return [(p, q) for _, p, q in groups]


def tensor_atoms(*pairs: Sequence[Atom]) -> list[Atom]:
    """The product pair (P x P' x ..., Q x Q' x ...): its trade-off function is
    T(P, Q) (x) T(P', Q') (x) ... (Dong, Roth & Su, Sec. 3, the tensor product)."""
    if not pairs:
        raise ValueError("tensor_atoms needs at least one pair")
    atoms = _merge(pairs[0])
    for other in pairs[1:]:
        atoms = _merge([(p * p2, q * q2) for p, q in atoms for p2, q2 in other])
    return atoms


@dataclass(frozen=True)
class SymbolicCurve:
    """The Neyman-Pearson curve: corners (alphas[k], betas[k]) and the slope magnitude
    ratios[k] (the likelihood ratio of the outcome rejected) of the segment after corner k."""

    alphas: tuple[sp.Expr, ...]
    betas: tuple[sp.Expr, ...]
    ratios: tuple[sp.Expr, ...]


def np_curve(atoms: Sequence[Atom]) -> SymbolicCurve:
    """T(P, Q) of a finite pair by the Neyman-Pearson lemma (Dong, Roth & Su, Sec. 2;
    seed 004, section 2): reject outcomes in decreasing order of q/p.  The outcomes with
    p = 0 cost nothing, so beta starts at the Q-mass of the outcomes with p > 0; each further
    outcome moves alpha by p and beta down by q = r p.  The order is checked pairwise on
    the sorted list (each neighbour decided by :func:`compare_ratios`), so the sort cannot
    rest on a comparison SymPy did not make."""
    ranked: list[tuple[sp.Expr, sp.Expr]] = []
    for p, q in _merge(atoms):
        kind = _classify((p, q))
        if kind is not None and kind.ratio is not None:
            ranked.append((kind.ratio, p))

    def descending(a: tuple[sp.Expr, sp.Expr], b: tuple[sp.Expr, sp.Expr]) -> int:
        return compare_ratios(b[0], a[0])

    ranked.sort(key=functools.cmp_to_key(descending))
    for (r1, _), (r2, _) in itertools.pairwise(ranked):
        if compare_ratios(r1, r2) < 0:
            raise Undecided(f"ratios out of order: {r1} before {r2}")
    alphas = [sp.S.Zero]
    for _, p in ranked:
        alphas.append(alphas[-1] + p)
    # Suffix sums of q = r p: beta at a corner is the Q-mass not yet rejected.
    betas = [sp.S.Zero] * (len(ranked) + 1)
    for j in range(len(ranked) - 1, -1, -1):
        r, p = ranked[j]
        betas[j] = betas[j + 1] + r * p
    return SymbolicCurve(tuple(alphas), tuple(betas), tuple(r for r, _ in ranked))


def _lines(curve: SymbolicCurve, alpha: sp.Expr) -> list[sp.Expr]:
    """Each segment's affine extension beta_k - r_k (alpha - alpha_k), coefficients
    simplified (by cancel, exact) so that the tactics meet them in a normal form."""
    out = []
    for a0, b0, r in zip(curve.alphas, curve.betas, curve.ratios, strict=False):
        const = sp.factor(sp.cancel(b0 + r * a0))
        out.append(const - sp.cancel(r) * alpha)
    return out


def curve_piecewise(curve: SymbolicCurve, alpha: sp.Expr) -> sp.Expr:
    """The curve on [0, 1] as the Piecewise of its segments (0 past the last corner)."""
    pieces = [
        (line, alpha <= a1) for line, a1 in zip(_lines(curve, alpha), curve.alphas[1:], strict=True)
    ]
    return sp.Piecewise(*pieces, (sp.S.Zero, True))


def curve_max(curve: SymbolicCurve, alpha: sp.Expr) -> sp.Expr:
    """The curve on [0, 1] as the maximum of its segments' affine extensions (and 0).

    Exact, not a bound: the ratios decrease along the curve, so it is convex (a trade-off
    function is convex, Dong, Roth & Su Prop. 2.2), and a convex piecewise-linear function
    is the maximum of the lines through its segments (each is a supporting line, equal to
    it on its own segment).  0 is a supporting line too (beta >= 0, reached at alpha = 1)."""
    return sp.Max(sp.S.Zero, *_lines(curve, alpha))


class FinitePairTradeoff(NumericFunction):
    """T(P, Q)(alpha) of an explicit finite pair, the last argument being alpha.  Numerically
    the Neyman-Pearson curve of ``impl`` (mpmath, :mod:`numeric_checks.dp.tradeoff`);
    symbolically (:meth:`doit`) the curve :func:`np_curve` builds from :meth:`pairs`, so the
    equality tactics can decide a step about it while the spot checks still compare both."""

    @classmethod
    def pairs(cls, *params: sp.Expr) -> list[list[Atom]]:
        """The factors of the product pair, as atoms (the parameters without alpha)."""
        raise NotImplementedError

    def doit(self, **hints: Any) -> sp.Expr:
        deep = hints.get("deep", True)
        *params, alpha = (a.doit(**hints) if deep else a for a in self.args)
        try:
            curve = np_curve(tensor_atoms(*type(self).pairs(*params)))
        except Undecided:  # the ratio order is not decided: keep the quantity as it is
            return self.func(*params, alpha)
        return curve_max(curve, alpha)
