"""The catalog of DP derivations and the ``dpderive`` command line."""

import os

# SymPy picks python-flint as its ground types when it is installed (it is, for the arb
# bridge), which changes how its polynomials behave.  Fix them before SymPy is imported;
# a user's own SYMPY_GROUND_TYPES wins.
os.environ.setdefault("SYMPY_GROUND_TYPES", "python")
