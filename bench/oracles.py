"""CPU time of the numeric oracles' kernels, in one process (printed, never asserted):
the Gaussian hockey-stick quadrature (the oracles of gdp-gaussian-mechanism,
classical-gaussian-mechanism and gdp-to-dp, at their 30 digits), the Gaussian tensor by
the trapezoidal rule (gdp-composition, at the checks' 50 digits), the binomial curve of
f_eps^(x)n (gdp-clt-berry-esseen) and the NumericSparse simulation (numeric-sparse-*, at
the default runs per stream).

``python3 bench/oracles.py``."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import mpmath  # noqa: E402

from numeric_checks.dp.gaussian import hockey_stick_normals  # noqa: E402
from numeric_checks.dp.sparse import SparseParams, default_runs, simulate, streams  # noqa: E402
from numeric_checks.dp.tradeoff import gaussian_tensor  # noqa: E402
from numeric_checks.dp.tradeoff.finite import eps_power_pair  # noqa: E402


def _timed(label: str, calls: Sequence[Callable[[], Any]]) -> None:
    start = time.process_time()
    for call in calls:
        call()
    spent = time.process_time() - start
    each = 1000 * spent / len(calls)
    print(f"{label:<40} {len(calls):>4} calls {spent:8.2f} s {each:8.1f} ms each")


def main() -> None:
    with mpmath.workdps(30):
        pairs = (("1", "1"), ("0.5", "2"), ("3", "0.3"), ("1", "10"))
        _timed(
            "hockey_stick_normals (30 digits)",
            [partial(hockey_stick_normals, d, s, e) for d, s in pairs for e in ("0", "1", "5")],
        )
    with mpmath.workdps(50):
        _timed(
            "gaussian_tensor (50 digits)",
            [
                partial(gaussian_tensor, "0.5", m, a)
                for m in ("0.25", "1", "3")
                for a in ("1e-6", "0.05", "0.5", "0.9")
            ],
        )
        _timed(
            "eps_power_pair (50 digits)",
            [partial(eps_power_pair, "0.05", n) for n in (100, 400, 1600)],
        )
    calls = []
    for eps, delta, c, k in ((1, 0, 5, 73), (1, 1e-3, 26, 227), (1, 0, 21, 986)):
        p = SparseParams.make(eps, delta, c, k)
        alpha = 9.0 * c * 6 / eps
        for s in streams(p, alpha, "seed"):
            calls.append(partial(simulate, p, s.values, alpha, default_runs(p.k)))
    _timed("NumericSparse simulate (default runs)", calls)


if __name__ == "__main__":
    main()
