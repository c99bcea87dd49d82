"""Certification on a box by Arb ball arithmetic: the branch-and-bound search
(:mod:`.branch_and_bound`) and how it cuts a box and a residual (:mod:`.split`)."""

from numeric_checks.certify.branch_and_bound import (
    BITS,
    CALCULUS_WORK,
    MAX_BOXES,
    STEP_BOXES,
    Box,
    Certificate,
    certify,
    certify_residual,
    fails,
    leading_factor,
)

__all__ = [
    "BITS",
    "CALCULUS_WORK",
    "MAX_BOXES",
    "STEP_BOXES",
    "Box",
    "Certificate",
    "certify",
    "certify_residual",
    "fails",
    "leading_factor",
]
