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
from symbolic.derivation import (
    Claim,
    Derivation,
    Justification,
    JustificationKind,
    Oracle,
    OracleOutcome,
    Source,
    Step,
)
from symbolic.domains import Domain, Variable, parse_domain
from symbolic.errors import (
    DpderiveError,
    EmptyDomain,
    EvaluationError,
    ExpressionError,
    IllFormedDerivation,
    InvalidInput,
    Unsupported,
)
from symbolic.families import Family, ForAll, index_symbol
from symbolic.functions import Phi, PhiInv
from symbolic.kit import family, forall
from symbolic.parsing import parse_expr, parse_relations
from symbolic.relations import Relation, compose
from symbolic.report import (
    CertificateRecord,
    CertificateStatus,
    Counterexample,
    DerivationReport,
    OracleResult,
    RefereeKind,
    RefereeRecord,
    StepResult,
)
from symbolic.verdicts import Verdict, weakest

__all__ = [
    "CertificateRecord",
    "CertificateStatus",
    "Claim",
    "Counterexample",
    "Derivation",
    "DerivationReport",
    "Domain",
    "DpderiveError",
    "EmptyDomain",
    "EvaluationError",
    "ExpressionError",
    "Family",
    "ForAll",
    "IllFormedDerivation",
    "InvalidInput",
    "Justification",
    "JustificationKind",
    "Oracle",
    "OracleOutcome",
    "OracleResult",
    "Phi",
    "PhiInv",
    "RefereeKind",
    "RefereeRecord",
    "Relation",
    "Source",
    "Step",
    "StepResult",
    "Unsupported",
    "Variable",
    "Verdict",
    "compose",
    "family",
    "forall",
    "index_symbol",
    "parse_domain",
    "parse_expr",
    "parse_relations",
    "weakest",
]
