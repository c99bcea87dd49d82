"""Products of symbolic length evaluated at an instance: written out factor by factor (an
unevaluated ``Product(exp(eps), (i, 1, k))`` at k = 2 ended in an internal error), enclosed
by Arb so that a violation is confirmed, and a wrong product step in a user's proof is
refuted at the length where it fails (at k = 1 it holds)."""

from __future__ import annotations

from pathlib import Path

import mpmath
import pytest
import sympy as sp
from flint import arb

from numeric_checks import CheckOptions
from numeric_checks.bridge import compile_exprs
from numeric_checks.check import check_derivation
from numeric_checks.enclose import enclose
from symbolic.errors import Unsupported
from symbolic.readers.proof_files import load_proof
from symbolic.verdicts import Verdict

EPS = sp.Symbol("eps", positive=True)
IX = sp.Symbol("i", integer=True)


def test_a_product_is_evaluated_factor_by_factor() -> None:
    f = compile_exprs([EPS], [sp.Product(sp.exp(EPS), (IX, 1, 3)), sp.Product(IX, (IX, 1, 0))])
    with mpmath.workdps(30):
        three, empty = f(mpmath.mpf(1))
        assert mpmath.almosteq(three, mpmath.exp(3), 1e-28)
        assert empty == 1


def test_a_product_is_enclosed_by_arb() -> None:
    ball = enclose(sp.Product(sp.exp(EPS) / IX, (IX, 1, 3)), [EPS], [arb(1)], {EPS: sp.Integer(1)})
    assert ball.contains(arb(3).exp() / 6) and ball.rad() < 1e-10
    with pytest.raises(Unsupported, match="infinite Product"):
        enclose(sp.Product(1 + EPS / IX**2, (IX, 1, sp.oo)), [EPS], [arb(1)], {EPS: sp.Integer(1)})


PROOF = """title = "Group privacy"
hypotheses = ["c[i] <= exp(eps)*d[i] for all i"]
[variables]
k = "Z>=1"
eps = "(0, oo)"
c = "(0, 1] for i in 1..k"
d = "(0, 1] for i in 1..k"
[[steps]]
lhs = "Product(c[i]/d[i], (i, 1, k))"
relation = "<="
rhs = "Product(exp(eps), (i, 1, k))"
why = "termwise"
[[steps]]
relation = "="
rhs = "{last}"
why = "k equal factors"
"""


@pytest.mark.parametrize(("last", "verdict"), [("exp(k*eps)", "proved"), ("k*exp(eps)", "refuted")])
def test_group_privacy_by_a_product(tmp_path: Path, last: str, verdict: str) -> None:
    path = tmp_path / "group.toml"
    path.write_text(PROOF.format(last=last), encoding="utf-8")
    report = check_derivation(load_proof(path), CheckOptions(seed=0))
    assert report.verdict.value == verdict
    if verdict == "refuted":
        step = report.steps[1]
        assert step.verdict is Verdict.REFUTED and step.counterexample is not None
        assert step.counterexample.point["k"] != "1"  # k eps and e^eps k agree at k = 1
        assert "confirmed" in step.evidence or "Arb" in step.evidence, step.evidence
