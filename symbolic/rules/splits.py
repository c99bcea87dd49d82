"""Rules that split a goal into parts.

* **triangle inequality**: ``|a| <= sum |b_i|`` whenever ``a = sum (+-b_i)``;
* **termwise**: a sum whose terms are each nonnegative;
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
    """Every term of the expanded sum ``g`` is nonnegative (one of them positive if strict)."""
    if depth > TERMWISE_MAX_DEPTH:
        return None
    expanded = sp.expand(g)
    if not isinstance(expanded, sp.Add) or len(expanded.args) > 12:
        return None
    traces = []
    any_strict = False
    for t in expanded.args:
        tr = prover.nonneg(t, False, depth + 1)
        if tr is None:
            return None
        traces.append(tr)
        if strict and not any_strict and prover.sign(t, True):
            any_strict = True
    if strict and not any_strict:
        return None
    return ["termwise: every term is nonnegative"]


def product(prover: Prover, small: sp.Expr, big: sp.Expr, strict: bool) -> list[str] | None:
    """``prod x_i <= prod y_i`` from ``0 <= x_i <= y_i`` factor by factor (monotonicity
    of products of nonnegative numbers), pairing factors in some order."""
    if strict or not (isinstance(small, sp.Mul) and isinstance(big, sp.Mul)):
        return None
    xs, ys = list(small.args), list(big.args)
    if len(xs) != len(ys) or len(xs) > 4:
        return None
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
