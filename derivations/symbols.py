"""The variables shared by the catalog, declared once with their domains and meanings.

Every derivation takes its symbols from here so that the same name always carries the same
assumptions (SymPy treats ``Symbol('eps')`` and ``Symbol('eps', positive=True)`` as different).
"""

from __future__ import annotations

import sympy as sp

from symbolic.domains import POSITIVE, REAL, UNIT_OPEN, Domain, Variable

EPS = Variable("eps", POSITIVE, "privacy parameter epsilon", r"\varepsilon")
DELTA_F = Variable("Delta", POSITIVE, "l1 sensitivity of the query f", r"\Delta f")
Z = Variable("z", REAL, "an output of the mechanism", "z")
FX = Variable("fx", REAL, "the query's true answer f(x) on x", "f(x)")
FY = Variable("fy", REAL, "the query's true answer f(y) on a neighbour y", "f(y)")
ALPHA = Variable("alpha", UNIT_OPEN, "type I error of a test", r"\alpha")
DELTA = Variable("delta", UNIT_OPEN, "privacy parameter delta", r"\delta")
EPS_EACH = Variable(
    "eps",
    Domain(lower=sp.S.Zero, upper=2, upper_open=False),
    "eps of each mechanism",
    r"\varepsilon",
)
"""eps of each of k composed mechanisms, up to 2 (composition and advanced composition)."""

b_laplace = sp.Symbol("b", positive=True)
"""Scale of the Laplace noise, defined as Delta f / eps."""
