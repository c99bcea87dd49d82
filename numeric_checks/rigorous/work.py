"""A count of the work the rigorous calculus does: integrand evaluations and sum terms.

Certification's branch-and-bound is bounded by counts, never by the clock, so that a
verdict does not depend on the machine's load.  A box of a step with sums and integrals
costs anything from ten to ten thousand evaluations (a discrete Laplace sum against a
hockey-stick integral with a kink inside a kink), so its budget is counted in evaluations
(:data:`numeric_checks.certify.branch_and_bound.CALCULUS_WORK`), read from here.
"""

from __future__ import annotations

__all__ = ["add", "done"]

_DONE = [0]


def add(n: int = 1) -> None:
    """Count ``n`` evaluations."""
    _DONE[0] += n


def done() -> int:
    """Evaluations counted since the process started."""
    return _DONE[0]
