"""Symbolic engine of dpderive: derivation data, relations, verdicts, tactics and rules,
expression parsing and printing.  Imports no other package of this project."""

import os

# SymPy picks python-flint as its ground types when it is installed (it is, for the arb
# bridge), which changes how its polynomials behave.  Fix them before SymPy is imported;
# a user's own SYMPY_GROUND_TYPES wins.
os.environ.setdefault("SYMPY_GROUND_TYPES", "python")

# The printers register the notebook displays (Derivation._repr_latex_ and friends) when
# imported; the data classes never import them (see symbolic.notebook).
import symbolic.printing  # noqa: F401

__all__: list[str] = []  # the API lives in the submodules
