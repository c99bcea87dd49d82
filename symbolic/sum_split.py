"""Infinite sums with kinks, split where the kinks are and summed in closed form.

SymPy's ``summation`` knows geometric series and their derivatives (``sum k^2 a^k``), but not
``sum_{z in Z} e^{-|z|/b}``: it neither splits a range at the kink of ``Abs`` nor sees
``e^{-z/b}`` as ``(e^{-1/b})^z``.  This tactic does both, and nothing else:

* a ``Sum`` over a range with ``Abs``, ``Max``, ``Min``, ``sign`` or ``Heaviside`` of an
  argument linear in the index with an integer root ``c`` (a number) is split into the part
  below ``c``, the term at ``c`` and the part above; on each part the argument has one sign
  (linear, its only root outside), so each kink is replaced by its branch there;
* a part over ``(-oo, m]`` is reflected, ``k -> -k``, onto ``[-m, oo)``;
* ``exp(c k + d)`` is written ``exp(d) (exp(c))^k``, then SymPy sums.

SymPy answers a geometric series with a ``Piecewise`` of its convergence condition
(``|r| < 1``); a condition is accepted only where it is shown: ``exp(c)`` with ``c``
negative by the symbols' assumptions, or ``r`` positive with ``1 - r`` among the expressions
the hypotheses state positive (a variable on ``(0, 1)``).  Anything else leaves the sum as it
was, so the tactic never proves what it has not shown.
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy as sp

__all__ = ["summed_at_kinks", "zero_by_sums"]

_KINKS = (sp.Abs, sp.Max, sp.Min, sp.sign, sp.Heaviside)


def summed_at_kinks(e: sp.Expr, positive: Sequence[sp.Expr] = ()) -> sp.Expr:
    """``e`` with each one-index ``Sum`` over an infinite range split at its kinks and summed
    in closed form where every convergence condition is shown (see the module doc)."""

    def one(s: sp.Sum) -> sp.Expr:
        if len(s.limits) != 1:
            return s
        k, a, b = s.limits[0]
        if not (a.is_infinite or b.is_infinite):
            return s
        out = sp.S.Zero
        for part in _parts(s.function, k, a, b):
            closed = _closed(part, positive)
            if closed is None:
                return s
            out += closed
        return out

    return e.replace(lambda n: isinstance(n, sp.Sum), one)


def _roots(f: sp.Expr, k: sp.Symbol) -> list[sp.Integer] | None:
    """The integer roots of the linear kink arguments of ``f`` in ``k`` (None: a kink that is
    not linear in ``k`` or has no integer root)."""
    roots: set[sp.Integer] = set()
    for node in f.atoms(*_KINKS):
        if not node.has(k):
            continue
        args = node.args[:1] if not isinstance(node, sp.Max | sp.Min) else node.args
        pairs = [args[0]] if len(args) == 1 else [u - v for u in args for v in args if u != v]
        for h in pairs:
            poly = sp.Poly(h, k) if h.is_polynomial(k) else None
            if poly is None or poly.degree() != 1:
                return None
            c1, c0 = poly.all_coeffs()
            root = -c0 / c1
            if not (root.is_Integer and c1.is_number):
                return None
            roots.add(root)
    return sorted(roots)


def _parts(f: sp.Expr, k: sp.Symbol, a: sp.Expr, b: sp.Expr) -> list[sp.Sum | sp.Expr]:
    roots = _roots(f, k)
    if roots is None:
        return [sp.Sum(f, (k, a, b))]
    cuts = [r for r in roots if (a.is_infinite or r >= a) and (b.is_infinite or r <= b)]
    out: list[sp.Sum | sp.Expr] = []
    lo = a
    for c in cuts:
        if lo.is_infinite or lo <= c - 1:
            out.append(_branch_sum(f, k, lo, c - 1))
        out.append(f.xreplace({k: c}))
        lo = c + 1
    out.append(_branch_sum(f, k, lo, b))
    return out


def _branch_sum(f: sp.Expr, k: sp.Symbol, lo: sp.Expr, hi: sp.Expr) -> sp.Sum:
    """``Sum(f, (k, lo, hi))`` with each kink replaced by its branch on the range (the
    linear arguments' roots lie outside it: their sign is their sign at any point inside)."""
    inside = lo + 1 if not lo.is_infinite else hi - 1

    def branch(node: sp.Expr) -> sp.Expr:
        if not node.has(k):
            return node
        at = node.xreplace({k: inside})
        if isinstance(node, sp.Abs):
            return node.args[0] if at == node.args[0].xreplace({k: inside}) else -node.args[0]
        if isinstance(node, sp.Max | sp.Min):
            for arg in node.args:
                if arg.xreplace({k: inside}) == at:
                    return arg
            return node
        return at  # sign, Heaviside: constant on the range

    g = f.replace(lambda n: isinstance(n, _KINKS) and n.has(k), branch)
    if lo.is_infinite:
        j = sp.Dummy("j", integer=True)
        return sp.Sum(g.xreplace({k: -j}), (j, -hi, sp.oo))
    return sp.Sum(g, (k, lo, hi))


def _powers(f: sp.Expr, k: sp.Symbol) -> tuple[sp.Expr, dict[sp.Symbol, sp.Expr]]:
    """``exp(c k + d)`` as ``exp(d) r^k`` with a positive symbol ``r`` standing for
    ``exp(c)`` (``c``, ``d`` free of ``k``; SymPy would fold ``exp(c)^k`` back), and the
    stand-ins."""
    ratios: dict[sp.Expr, sp.Symbol] = {}

    def rewrite(node: sp.exp) -> sp.Expr:
        g = sp.expand(node.args[0])
        if not g.has(k) or not g.is_polynomial(k) or sp.degree(g, k) != 1:
            return node
        c, d = sp.Poly(g, k).all_coeffs()
        r = ratios.setdefault(c, sp.Dummy("r", positive=True))
        return sp.exp(d) * r**k

    out = f.replace(lambda n: isinstance(n, sp.exp) and n.has(k), rewrite)
    return out, {r: sp.exp(c) for c, r in ratios.items()}


def _closed(part: sp.Expr, positive: Sequence[sp.Expr]) -> sp.Expr | None:
    if not isinstance(part, sp.Sum):
        return part
    k, a, b = part.limits[0]
    if part.function.has(*_KINKS):
        return None
    term, back = _powers(part.function, k)
    summed = sp.Sum(term, (k, a, b)).doit().xreplace(back)
    failed = False

    def discharge(pw: sp.Piecewise) -> sp.Expr:
        nonlocal failed
        value = _discharged(pw, positive)
        failed = failed or value is None
        return pw if value is None else value

    def vanish(power: sp.Pow) -> sp.Expr:
        # r^oo = 0 where 0 < r < 1 is shown (SymPy leaves it where it cannot tell).
        nonlocal failed
        shown = _shown(sp.StrictLessThan(power.base, 1), positive)
        failed = failed or not shown
        return sp.S.Zero if shown else power

    summed = summed.replace(lambda n: isinstance(n, sp.Piecewise), discharge)
    summed = summed.replace(lambda n: n.is_Pow and n.exp is sp.oo, vanish)
    if failed or summed.has(sp.Sum, sp.Piecewise, sp.oo, -sp.oo, sp.zoo, sp.nan):
        return None
    return summed  # type: ignore[no-any-return]


def _discharged(p: sp.Piecewise, positive: Sequence[sp.Expr]) -> sp.Expr | None:
    """The first branch whose condition is shown (see the module doc), if the ones before
    it are shown false."""
    for value, cond in p.args:
        if cond is sp.true or _shown(cond, positive):
            return value  # type: ignore[no-any-return]
        return None
    return None


def _shown(cond: sp.Basic, positive: Sequence[sp.Expr]) -> bool:
    if isinstance(cond, sp.And):
        return all(_shown(c, positive) for c in cond.args)
    if not isinstance(cond, sp.StrictLessThan | sp.LessThan):
        return False
    lhs, rhs = cond.lhs, cond.rhs
    if rhs != 1:
        return False
    r = lhs.args[0] if isinstance(lhs, sp.Abs) else lhs
    if isinstance(r, sp.exp):
        return bool(r.args[0].is_negative)
    # A product of exponentials and positive numbers: below 1 where its log is negative.
    products = isinstance(r, sp.Mul) and all(isinstance(f, sp.exp) or f.is_positive for f in r.args)
    if products and sp.expand_log(sp.log(r), force=True).is_negative:
        return True
    return bool(r.is_positive) and any(sp.expand(p - (1 - r)) == 0 for p in positive)


def zero_by_sums(residual: sp.Expr, positive: Sequence[sp.Expr] = ()) -> sp.Expr:
    """The residual with its infinite sums in closed form (:func:`summed_at_kinks`), brought
    to one fraction: 0 where the identity holds."""
    summed = summed_at_kinks(residual, positive)
    if summed == residual or summed.has(sp.Sum):
        return residual
    return sp.simplify(sp.cancel(sp.together(sp.expand(summed))))
