"""The doit rung that removes absolute values of decided sign and puts the integrated form
over one denominator (``doit+rewrite(erf)+Abs by sign+together``): it proves the
functionals of f_{eps,0}, and fails on their mutants; its two rewritings each keep what
they cannot justify."""

from __future__ import annotations

import sympy as sp

from derivations.gdp_algebra.clt import Kappa3BarFunctional, _k3bar_closed, _kl_closed, _pieces
from symbolic.tactics import _abs_by_sign, _doit_signed_together, _exp_as_powers, prove_zero

RUNG = "doit+rewrite(erf)+Abs by sign+together"
eps = sp.Symbol("eps", positive=True)


def _pieces_k3bar() -> sp.Expr:
    return _pieces(eps, lambda t: sp.Abs(t + _kl_closed(eps)) ** 3)


def test_kappa3_bar_definition_link_is_proved_by_the_rung() -> None:
    assert prove_zero(Kappa3BarFunctional(eps) - _pieces_k3bar()) == RUNG


def test_kappa3_bar_closed_form_link_is_proved_by_the_rung() -> None:
    assert prove_zero(_pieces_k3bar() - _k3bar_closed(eps)) == RUNG


def test_a_changed_constant_is_not_reduced() -> None:
    # 8 -> 9 in the closed form; and the kl term's sign flipped inside the absolute value.
    assert _doit_signed_together(_pieces_k3bar() - _k3bar_closed(eps) * sp.Rational(9, 8)) != 0
    flipped = _pieces(eps, lambda t: sp.Abs(t - _kl_closed(eps)) ** 3)
    assert _doit_signed_together(Kappa3BarFunctional(eps) - flipped) != 0


def test_abs_of_decided_sign_is_dropped_with_its_sign() -> None:
    positive = eps + eps / (sp.exp(eps) + 1) - eps / (1 + sp.exp(-eps))  # = 2 eps/(e^eps + 1)
    assert _abs_by_sign(sp.Abs(positive)) == positive
    assert _abs_by_sign(sp.Abs(-positive)) == positive
    assert _abs_by_sign(sp.Abs(-eps - 1)) == eps + 1


def test_abs_of_undecided_sign_stays() -> None:
    assert _abs_by_sign(sp.Abs(eps - 1)) == sp.Abs(eps - 1)
    x = sp.Symbol("x", real=True)
    assert _abs_by_sign(sp.Abs(x) + sp.Abs(eps)) == sp.Abs(x) + eps


def test_exponentials_of_one_term_become_powers_of_one_symbol() -> None:
    assert sp.cancel(_exp_as_powers(sp.exp(eps) * sp.exp(-eps))) == 1
    assert sp.cancel(_exp_as_powers(sp.exp(2 * eps) / (sp.exp(eps) + sp.exp(-eps)) ** 2)) != 0
    two = _exp_as_powers(sp.exp(eps) ** 2 - sp.exp(2 * eps))
    assert sp.expand(two) == 0
    # A non-integer multiple is left as it is (exp(eps/2) is no power of exp(eps) here).
    half = _exp_as_powers(sp.exp(eps / 2) + sp.exp(eps))
    assert half.has(sp.exp(eps / 2))
    # Different terms get different symbols: exp(eps) and exp(1) are not related.
    assert _exp_as_powers(sp.exp(eps) - sp.exp(1)) != 0
