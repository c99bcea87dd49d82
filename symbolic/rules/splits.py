"""Rules that split a goal into parts.

* **triangle inequality**: ``|a| <= sum |b_i|`` whenever ``a = sum (+-b_i)``;
* **termwise**: a sum whose terms are each nonnegative;
* **pairwise**: a sum of as many positive as negative terms, paired so that each pair
  ``a_i - b_j`` is nonnegative (``sum_i F(a_i) - sum_i F(b_i)`` term against term, as in the
  exponential mechanism's normaliser, Dwork & Roth 2014, Theorem 3.10);
* **product**: ``prod x_i <= prod y_i`` from ``0 <= x_i <= y_i`` factor by factor.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

import sympy as sp

if TYPE_CHECKING:
    from symbolic.rules.prover import Prover

TERMWISE_MAX_DEPTH = 3  # the termwise split (a subgoal per term) only this close to the root


def triangle(prover: Prover, g: sp.Expr, strict: bool, depth: int) -> list[str] | None:
    """``c |a| <= c sum |b_i|`` for the terms of ``g`` with ``a = sum (+-b_i)``."""
    if strict:
        return None  # the triangle inequality is not strict; let other rules try
    expanded = sp.expand(g)
    terms = sp.Add.make_args(expanded)
    abs_terms: list[tuple[sp.Expr, sp.Abs]] = []
    for t in terms:
        coeff, rest = t.as_coeff_Mul()
        if isinstance(rest, sp.Abs):
            abs_terms.append((coeff, rest))
    for c_neg, a in abs_terms:
        if not c_neg.is_negative:
            continue
        c = -c_neg
        pos = [b for cb, b in abs_terms if cb == c and b != a]
        for size in range(1, min(len(pos), 4) + 1):
            for subset in itertools.combinations(pos, size):
                for signs in itertools.product((1, -1), repeat=size):
                    combo = sum(s * b.args[0] for s, b in zip(signs, subset, strict=True))
                    if sp.expand(a.args[0] - combo) != 0:
                        continue
                    rest = sp.expand(expanded - c * (sum(subset) - a))
                    shown = f"|{a.args[0]}| <= " + " + ".join(f"|{b.args[0]}|" for b in subset)
                    if rest == 0:
                        return [f"triangle inequality {shown}"]
                    trace = prover.nonneg(rest, False, depth + 1)
                    if trace is not None:
                        return [f"triangle inequality {shown}", *trace]
    return None


def termwise(prover: Prover, g: sp.Expr, strict: bool, depth: int) -> list[str] | None:
    """Every term of the sum ``g`` is nonnegative (one of them positive if strict): the sum's
    own terms first, then those of its expansion (``expand`` splits ``log(4c/beta)``, which
    is positive, into ``log(4) + log(c) - log(beta)``, whose last term alone is negative)."""
    if depth > TERMWISE_MAX_DEPTH:
        return None
    expanded = sp.expand(g)
    for form in dict.fromkeys((g, expanded)):
        if not isinstance(form, sp.Add) or len(form.args) > 12:
            continue
        if _each_term(prover, form, strict, depth):
            return ["termwise: every term is nonnegative"]
    return None


def _each_term(prover: Prover, g: sp.Add, strict: bool, depth: int) -> bool:
    any_strict = False
    for t in g.args:
        if prover.nonneg(t, False, depth + 1) is None:
            return False
        if strict and not any_strict and prover.sign(t, True):
            any_strict = True
    return any_strict or not strict


PAIRWISE_MAX_TERMS = 4  # 4! pairings at most


def pairwise(prover: Prover, g: sp.Expr, strict: bool, depth: int) -> list[str] | None:
    """``sum_i a_i - sum_i b_i >= 0`` from ``a_i - b_pi(i) >= 0`` for some pairing ``pi``
    (one pair positive if strict).  The sum is taken as written, not expanded: expanding
    would split ``exp(a + b)`` into products and lose the pairs."""
    if not isinstance(g, sp.Add):
        return None
    plus = [t for t in g.args if not t.could_extract_minus_sign()]
    minus = [t for t in g.args if t.could_extract_minus_sign()]
    if len(plus) > len(minus) and minus and len(plus) <= PAIRWISE_MAX_TERMS:
        return _pairs_and_rest(prover, plus, minus, strict, depth)
    if len(plus) != len(minus) or not 2 <= len(plus) <= PAIRWISE_MAX_TERMS:
        return None
    return _pair_up(prover, plus, minus, strict, depth)


def _pair_up(
    prover: Prover, plus: list[sp.Expr], minus: list[sp.Expr], strict: bool, depth: int
) -> list[str] | None:
    """``a_i + b_pi(i) >= 0`` for every i, for some pairing ``pi`` of the positive terms
    with the negative ones (one pair positive if strict)."""
    for perm in itertools.permutations(minus):
        traces = []
        any_strict = False
        for a, b in zip(plus, perm, strict=True):
            t = prover.nonneg(a + b, False, depth + 1)
            if t is None:
                break
            traces.append(f"[{a + b} >= 0: {' -> '.join(t)}]")
            any_strict = any_strict or (
                strict and prover.nonneg(a + b, True, depth + 1) is not None
            )
        else:
            if not strict or any_strict:
                return ["pairwise: " + " ".join(traces)]
    return None


def _pairs_and_rest(
    prover: Prover, plus: list[sp.Expr], minus: list[sp.Expr], strict: bool, depth: int
) -> list[str] | None:
    """More positive terms than negative ones: the extra positive terms nonnegative by
    themselves and the others paired (``2 gamma + Phi(b) - Phi(a)``: ``2 gamma >= 0`` and
    ``Phi(b) - Phi(a) >= 0``).  The sum of nonnegative parts is nonnegative."""
    for chosen in itertools.combinations(range(len(plus)), len(minus)):
        rest = [plus[i] for i in range(len(plus)) if i not in chosen]
        alone = [prover.nonneg(t, False, depth + 1) for t in rest]
        if any(t is None for t in alone):
            continue
        paired = _pair_up(prover, [plus[i] for i in chosen], minus, False, depth)
        if paired is None:
            continue
        if strict and not any(prover.nonneg(t, True, depth + 1) for t in rest):
            continue
        shown = " ".join(
            f"[{t} >= 0: {' -> '.join(tr)}]" for t, tr in zip(rest, alone, strict=True) if tr
        )
        return ["pairs and nonnegative terms: " + shown, *paired]
    return None


def product(prover: Prover, small: sp.Expr, big: sp.Expr, strict: bool) -> list[str] | None:
    """``prod x_i <= prod y_i`` from ``0 <= x_i <= y_i`` factor by factor (monotonicity
    of products of nonnegative numbers), pairing factors in some order.  When ``small`` has
    twice as many factors as ``big``, half of them reciprocals (``c1 c2/(d1 d2)`` after
    SymPy evaluated a product of ratios), they are paired into ratios first."""
    if strict or not (isinstance(small, sp.Mul) and isinstance(big, sp.Mul)):
        return None
    ys = list(big.args)
    if len(ys) > 4:
        return None
    for xs in _factor_lists(small, len(ys)):
        trace = _bounded_factorwise(prover, xs, ys)
        if trace is not None:
            return trace
    return None


def _factor_lists(small: sp.Expr, n: int) -> list[list[sp.Expr]]:
    """``small`` as a list of ``n`` factors: its own, or numerators paired with reciprocals."""
    xs = list(small.args)
    if len(xs) == n:
        return [xs]
    nums = [f for f in xs if not (isinstance(f, sp.Pow) and f.exp == -1)]
    dens = [f.base for f in xs if isinstance(f, sp.Pow) and f.exp == -1]
    if len(nums) != n or len(dens) != n:
        return []
    return [
        [a / b for a, b in zip(nums, perm, strict=True)] for perm in itertools.permutations(dens)
    ]


def _bounded_factorwise(prover: Prover, xs: list[sp.Expr], ys: list[sp.Expr]) -> list[str] | None:
    if not all(prover.known_sign(x, False) or prover.nonneg(x, False, 2) is not None for x in xs):
        return None
    for perm in itertools.permutations(ys):
        traces = []
        for x, y in zip(xs, perm, strict=True):
            t = prover.nonneg(y - x, False, 1)
            if t is None:
                break
            traces.append(f"[{x} <= {y}: {' -> '.join(t)}]")
        else:
            return ["product of nonnegative factors, each bounded: " + " ".join(traces)]
    return None
