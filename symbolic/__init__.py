"""Symbolic engine of dpderive: derivation data, relations, verdicts, tactics and rules,
and the readers of what users type (:mod:`symbolic.readers`).  Imports no other package of
this project; the printers live above it and register themselves
(:mod:`symbolic.notebook`)."""

import os

# SymPy picks python-flint as its ground types when it is installed (it is, for the arb
# bridge), which changes how its polynomials behave.  Fix them before SymPy is imported;
# a user's own SYMPY_GROUND_TYPES wins.
os.environ.setdefault("SYMPY_GROUND_TYPES", "python")
# SymPy memoises its constructors and assumption queries in LRU caches of 1,000 entries by
# default; the rule search and the instance checks revisit far more expressions than that
# (a sum's terms under every fact, each case of a split), so at 1,000 most hits were
# evicted first.  At 20,000 kl-bound with numeric-sparse-privacy-approx took ~10% less CPU
# for ~6 MB more memory.  Read when SymPy is imported, so only if it is not yet; a user's
# own SYMPY_CACHE_SIZE wins.
os.environ.setdefault("SYMPY_CACHE_SIZE", "20000")

from symbolic.derivation import (
    CheckingAids,
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
from symbolic.exact_limits import install as _bound_exact_evaluation
from symbolic.families import Family, ForAll, index_symbol
from symbolic.functions import Phi, PhiInv
from symbolic.kit import family, forall
from symbolic.readers.syntax import parse_expr, parse_relations
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

_bound_exact_evaluation()  # SymPy never builds an integer of more than 200,000 digits

__all__ = [
    "CertificateRecord",
    "CertificateStatus",
    "CheckingAids",
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
