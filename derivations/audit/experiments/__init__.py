"""Named experiments behind the seed audit, grouped by topic: finite-distribution search
(:mod:`.finite`), exact computation (:mod:`.exact`, and for NumericSparse :mod:`.sparse_algebra`,
:mod:`.sparse_exact`).  An audit entry names one with its
parameters (``experiment = "pure-composition"``, ``params = {...}``); the experiment returns
an engine verdict with its scope, never a verdict written by hand.

Verdicts keep the engine's meaning (``shared/DESIGN.md``): ``proved`` only where SymPy
reduced the statement symbolically for every value of its variables, ``checked`` for a
search that found no counterexample (its scope says where it looked), ``refuted`` with the
refuting values in ``point``.
"""

from __future__ import annotations

from derivations.audit.experiments.base import Experiment, Recheck, Result, register
from derivations.audit.experiments.runner import names, recheck, run, topic

__all__ = ["Experiment", "Recheck", "Result", "names", "recheck", "register", "run", "topic"]
