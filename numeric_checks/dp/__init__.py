"""DP mathematics from first principles: divergences, privacy profiles, optimal
composition, trade-off functions, NumericSparse, statistics, and the mathematics of every
oracle.

The rule: numbers computed from first principles live here; a theorem's stated formula lives
only in its derivation (``derivations/``), and the adapter that turns a point into an
oracle outcome sits beside its theorem.  Nothing here imports the engine's checking code.
"""

__all__: list[str] = []  # the modules are the public face: numeric_checks.dp.gaussian, ...
