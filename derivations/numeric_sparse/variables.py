"""The variables shared by the NumericSparse derivations (eps is the catalog's, from
:mod:`derivations.symbols`)."""

from __future__ import annotations

import sympy as sp

from derivations.symbols import EPS
from symbolic.domains import Variable, parse_domain

__all__ = ["ALPHA", "BETA", "C_WIDE", "DELTA", "EPS", "EPS_SMALL", "FAMILY", "KQ", "R512", "C"]

FAMILY = "Dwork & Roth, section 3.6: the sparse vector technique"
R512 = sp.sqrt(512)

EPS_SMALL = Variable(
    "eps", parse_domain("(0, 1]"), "privacy parameter epsilon (at most 1)", r"\varepsilon"
)
DELTA = Variable("delta", parse_domain("(0, 1)"), "privacy parameter delta", r"\delta")
BETA = Variable("beta", parse_domain("(0, 1)"), "failure probability of accuracy", r"\beta")
C = Variable("c", parse_domain("Z in [1, 50]"), "number of answers before halting", "c")
C_WIDE = Variable("c", parse_domain("Z in [1, 10000]"), "number of numeric answers", "c")
KQ = Variable("k", parse_domain("Z in [1, 1000]"), "number of queries", "k")
ALPHA = sp.Symbol("alpha", positive=True)
