"""Certification on a box by Arb ball arithmetic: the branch-and-bound search
(:mod:`.branch_and_bound`) and how it cuts a box and a residual (:mod:`.split`)."""

from numeric_checks.certify.branch_and_bound import (
    Box,
    Certificate,
    certify,
    certify_residual,
    leading_factor,
)

__all__ = ["Box", "Certificate", "certify", "certify_residual", "leading_factor"]
