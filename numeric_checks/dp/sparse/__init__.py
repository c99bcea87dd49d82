"""NumericSparse (Dwork & Roth 2014, Algorithm 3 of section 3.6.3): simulation and exact
failure probabilities of (alpha, beta)-accuracy.

* :mod:`.algorithm`: the parameters (budget split, noise scales) and the vectorised
  simulation;
* :mod:`.streams`: adversarial and random query streams for the theorem's hypothesis;
* :mod:`.assessment`: exact failure probabilities for short streams and the assessment of
  every stream against beta.

The public names of the three are re-exported here.  The alpha of Theorem 3.28 is a stated
formula, so it lives in its derivation (:mod:`derivations.numeric_sparse`); everything here
takes alpha as a parameter.
"""

from numeric_checks.dp.sparse.algorithm import (
    EVENTS,
    ROOT512,
    SimulationResult,
    SparseParams,
    simulate,
)
from numeric_checks.dp.sparse.assessment import (
    MAX_RUNS,
    MIN_RUNS,
    REFUTE_CONFIDENCE,
    REPORT_CONFIDENCE,
    RUN_BUDGET,
    Assessment,
    answer_error_probability,
    assess,
    default_runs,
    exact_failure,
)
from numeric_checks.dp.sparse.streams import Stream, near_count, streams

__all__ = [
    "EVENTS",
    "MAX_RUNS",
    "MIN_RUNS",
    "REFUTE_CONFIDENCE",
    "REPORT_CONFIDENCE",
    "ROOT512",
    "RUN_BUDGET",
    "Assessment",
    "SimulationResult",
    "SparseParams",
    "Stream",
    "answer_error_probability",
    "assess",
    "default_runs",
    "exact_failure",
    "near_count",
    "simulate",
    "streams",
]
