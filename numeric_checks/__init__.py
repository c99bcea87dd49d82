"""Numeric layers of dpderive: the checking engine (mpmath and Arb bridges, sampling, spot
checks, counterexample search, referees, certification, the verdict policy) and, in
:mod:`numeric_checks.dp`, DP mathematics from first principles.  May import :mod:`symbolic`;
never imports :mod:`derivations`.

Public entry points: :func:`check_derivation` and :func:`check_claim`.
"""

import os

# SymPy picks python-flint as its ground types when it is installed (it is, for the arb
# bridge), which changes how its polynomials behave.  Fix them before SymPy is imported;
# a user's own SYMPY_GROUND_TYPES wins.
os.environ.setdefault("SYMPY_GROUND_TYPES", "python")

from numeric_checks.mp_limits import install as _bound_magnitudes

_bound_magnitudes()  # mpmath's exp and powers never ask GMP for a gigantic shift

from numeric_checks.check import check_claim, check_derivation  # noqa: E402
from numeric_checks.plan import CheckOptions  # noqa: E402

__all__ = ["CheckOptions", "check_claim", "check_derivation"]
