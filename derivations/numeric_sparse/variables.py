"""The variables and sources shared by the NumericSparse derivations."""

from __future__ import annotations

import sympy as sp

from symbolic.derivation import JustificationKind
from symbolic.domains import Variable, parse_domain

K = JustificationKind
DR = "Dwork & Roth 2014, The Algorithmic Foundations of Differential Privacy"
FAMILY = "Dwork & Roth, section 3.6: the sparse vector technique"
R512 = sp.sqrt(512)

EPS = Variable("eps", parse_domain("(0, oo)"), "privacy parameter epsilon", r"\varepsilon")
EPS_SMALL = Variable(
    "eps", parse_domain("(0, 1]"), "privacy parameter epsilon (at most 1)", r"\varepsilon"
)
DELTA = Variable("delta", parse_domain("(0, 1)"), "privacy parameter delta", r"\delta")
BETA = Variable("beta", parse_domain("(0, 1)"), "failure probability of accuracy", r"\beta")
C = Variable("c", parse_domain("Z in [1, 50]"), "number of answers before halting", "c")
C_WIDE = Variable("c", parse_domain("Z in [1, 10000]"), "number of numeric answers", "c")
KQ = Variable("k", parse_domain("Z in [1, 1000]"), "number of queries", "k")
ALPHA = sp.Symbol("alpha", positive=True)
