"""The tail of the Laplace distribution: Dwork & Roth 2014, Fact 3.7.

If Y ~ Lap(b) then Pr[|Y| >= t b] = e^{-t}.  Every accuracy statement of section 3.6
(AboveThreshold, Sparse, NumericSparse) is a union bound over such tails, so the catalog
proves the fact once, as integrals of the density, and the accuracy lemmas cite it
(``by.lemma("laplace-tail")``) where they write a tail in closed form.

``laplace-tail``: the density e^{-|x|/b}/(2b) is even, so Pr[|Y| >= t b] is twice the
integral of e^{-x/b}/(2b) over [t b, oo); that integral is evaluated by an antiderivative
checked by differentiation (:mod:`symbolic.antiderivative`), and the spot checks compare
with quadrature.

:class:`LaplaceTail` is the quantity Pr[|Lap(b)| >= s] as the accuracy lemmas use it: its
symbolic form is the integral (so a step about it is proved by integration, not by the
formula this module proves), its numbers come from the Laplace CDF of
:mod:`numeric_checks.dp.laplace`.
"""

from __future__ import annotations

import functools
from typing import Any

import mpmath
import sympy as sp

from derivations.display import frac, product
from derivations.sources import DWORK_ROTH
from numeric_checks.dp.laplace import laplace_interval
from symbolic.antiderivative import definite
from symbolic.derivation import Derivation
from symbolic.domains import Variable, parse_domain
from symbolic.functions import NumericFunction
from symbolic.kit import by, chain

__all__ = ["DERIVATIONS", "LaplaceTail", "laplace_tail", "tail_integral"]

FAMILY = "Dwork & Roth, section 3.3: the Laplace mechanism"

T = Variable("t", parse_domain("[0, oo)"), "distance from 0 in units of the scale", "t")
B = Variable("b", parse_domain("(0, oo)"), "scale of the Laplace noise", "b")
_X = sp.Symbol("x", real=True)

SEARCH = 6
"""Local-search budget of the checks: each evaluation of a side is a quadrature (about
0.1 s at 30 digits), and the sampled and edge points already reach the tails' extremes."""


def tail_integral(s: sp.Expr, b: sp.Expr, x: sp.Symbol = _X) -> sp.Expr:
    """Pr[Lap(b) >= s] for s >= 0, as the integral of the density e^{-x/b}/(2b) over
    [s, oo) (where |x| = x)."""
    return sp.Integral(frac(sp.exp(-x / b), 2 * b), (x, s, sp.oo))


def _two_sided(s: sp.Expr, b: sp.Expr, x: sp.Symbol = _X) -> sp.Expr:
    """Pr[Lap(b) <= -s] + Pr[Lap(b) >= s], the density written on each side without |x|."""
    return sp.Add(
        sp.Integral(frac(sp.exp(x / b), 2 * b), (x, -sp.oo, -s)),
        tail_integral(s, b, x),
        evaluate=False,
    )


def _tail_number(s: Any, b: Any) -> Any:
    """Pr[|Lap(b)| >= s] from the Laplace CDF, each side in its cancellation-free form."""
    if not b > 0:
        raise ValueError(f"Lap(b) needs a scale b > 0, got {b}")
    return laplace_interval(s, mpmath.inf, 0, b) + laplace_interval(-mpmath.inf, -s, 0, b)


class LaplaceTail(NumericFunction):
    """Pr[|Lap(b)| >= s] for s >= 0 and b > 0 (arguments ``s, b``).

    Symbolically :meth:`doit` integrates the density over the two tails by an antiderivative
    checked by differentiation (:func:`symbolic.antiderivative.definite`, see
    :func:`_evaluated`), so a step about it is decided by the ``doit`` tactic; numerically it
    is the Laplace CDF's two tails (:func:`numeric_checks.dp.laplace.laplace_interval`), not
    the closed form e^{-s/b}, and a scale b <= 0 (no Laplace distribution) is an error."""

    nargs = 2
    impl = staticmethod(_tail_number)
    latex_template = r"\Pr\left[\left|\mathrm{{Lap}}\left({1}\right)\right| \ge {0}\right]"

    def doit(self, **hints: Any) -> sp.Expr:
        deep = hints.get("deep", True)
        s, b = (a.doit(**hints) if deep else a for a in self.args)
        x = sp.Dummy("x", real=True)
        if not deep:
            return _two_sided(s, b, x)
        return _evaluated(s, b)


def _evaluated(s: sp.Expr, b: sp.Expr) -> sp.Expr:
    """The two tail integrals of Lap(b) beyond -s and s, in closed form.

    The scale of a Laplace distribution is positive: that is part of what Lap(b) means, and
    the catalog's scales are positive on their domains (2c/eps, sqrt(32 c ln(2/delta))/eps),
    though SymPy cannot always see it (ln(2/delta) > 0 needs delta < 1).  So the integrals are
    evaluated once for a real end and a positive scale, both symbols, by an antiderivative
    checked by differentiation, and ``s`` and ``b`` are put in: an identity in a real and a
    positive symbol holds at every real and every positive value.  The end s may have any
    sign (for s < 0 the two integrals overlap and are no longer a probability, but their
    value is still the one returned)."""
    generic = _generic_tails()
    if generic is None:
        return LaplaceTail(s, b, evaluate=False)
    value, end, scale = generic
    return value.xreplace({end: s, scale: b})


@functools.cache
def _generic_tails() -> tuple[sp.Expr, sp.Symbol, sp.Symbol] | None:
    end, scale = sp.Dummy("s", real=True), sp.Dummy("b", positive=True)
    parts = [definite(i) for i in _two_sided(end, scale, sp.Dummy("x", real=True)).args]
    if any(p is None for p in parts):
        return None
    return sp.Add(*parts), end, scale  # type: ignore[arg-type]


def laplace_tail() -> Derivation:
    """Fact 3.7: Pr[|Lap(b)| >= t b] = e^{-t}, as twice the integral of the upper tail."""
    t, b = T.symbol, B.symbol
    proof = chain(product(2, tail_integral(t * b, b))).eq(
        sp.exp(-t),
        by.algebra("antiderivative -e^{-x/b}/2, which tends to 0 as x -> oo: 2 e^{-t}/2"),
    )
    return proof.derive(
        id="laplace-tail",
        title="The Laplace tail: Pr[|Lap(b)| >= t b] = e^{-t}",
        source=DWORK_ROTH.at("Fact 3.7"),
        statement=(
            "If Y ~ Lap(b) (density e^{-|x|/b}/(2b), Definition 3.3), then for every t >= 0, "
            "Pr[|Y| >= t b] = e^{-t}.  The density is even, so the two tails beyond -t b and "
            "t b have the same probability, the integral of e^{-x/b}/(2b) over [t b, oo) "
            "(where |x| = x); the claim is twice that integral."
        ),
        variables=(T, B),
        family=FAMILY,
        search_budget=SEARCH,
    )


DERIVATIONS = (laplace_tail,)
