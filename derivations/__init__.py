"""The catalog of DP derivations (one theorem family per module, the errata beside their
corrections) and, in :mod:`derivations.app`, the ``dpderive`` application."""

import os

# SymPy picks python-flint as its ground types when it is installed (it is, for the arb
# bridge), which changes how its polynomials behave.  Fix them before SymPy is imported;
# a user's own SYMPY_GROUND_TYPES wins.
os.environ.setdefault("SYMPY_GROUND_TYPES", "python")

# `get` only: re-exporting the function `catalog` would shadow the module of that name.
from derivations.catalog import get

__all__ = ["get"]
