"""Bench of the Arb certifier on the catalog's hardest steps: figures, never asserted.

For each step: the certificate's status, the boxes it enclosed, boxes per second, and the
share of the box's volume it certified (log measure on sides spanning decades).  ``BEFORE``
holds the same figures measured on the certifier as it was before issue 16 (commit b22717f:
a budget of 20,000 boxes or 1 s, widest-side bisection, the eps^k rewrite only), on the
same machine, so the two can be read side by side; the volume share was not reported then
and was measured by instrumenting a copy of that code.

``run()`` prints the table; ``python3 bench/certifier.py`` runs it alone.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import sympy as sp  # noqa: E402

from derivations.catalog import get  # noqa: E402
from numeric_checks import CheckOptions  # noqa: E402
from numeric_checks.certify import Box, Certificate, certify_residual  # noqa: E402
from numeric_checks.plan import CheckPlan, make_plan  # noqa: E402
from numeric_checks.stages import Link  # noqa: E402
from symbolic.rules import fact_from_relation  # noqa: E402

__all__ = ["BEFORE", "HARD_STEPS", "Figure", "measure_step", "run"]

HARD_STEPS: tuple[tuple[str, int], ...] = (
    ("kl-bound", 5),
    ("kl-bound", 7),
    ("kl-bound-tight", 2),
    ("numeric-sparse-accuracy-approx", 2),
    ("classical-gaussian-mechanism", 2),
    ("classical-gaussian-mechanism", 4),
)
"""The KL steps (tangency at the randomized-response boundary), the NumericSparse max step
(5-D) and the classical Gaussian steps (delta over twelve decades)."""

Certifier = Callable[[sp.Expr, bool, tuple[sp.Symbol, ...], Box, tuple], Certificate]


@dataclass(frozen=True)
class Figure:
    step: str
    status: str
    boxes: int
    seconds: float
    fraction: float

    @property
    def rate(self) -> float:
        return self.boxes / self.seconds if self.seconds > 0 else 0.0

    def line(self) -> str:
        return (
            f"  {self.step:<36} {self.status:<12} {self.boxes:>7} boxes "
            f"{self.rate:>9.0f} boxes/s  {self.fraction:7.2%} of the volume"
        )


BEFORE: tuple[Figure, ...] = (
    Figure("kl-bound 5", "gave up", 7784, 7784 / 4608, 0.0),
    Figure("kl-bound 7", "gave up", 10803, 10803 / 3089, 0.0),
    Figure("kl-bound-tight 2", "gave up", 3316, 3316 / 2147, 0.0),
    Figure("numeric-sparse-accuracy-approx 2", "gave up", 8562, 8562 / 4846, 0.0003),
    Figure("classical-gaussian-mechanism 2", "gave up", 4088, 4088 / 3331, 0.1251),
    Figure("classical-gaussian-mechanism 4", "gave up", 4152, 4152 / 3491, 0.1264),
)
"""Measured on the old certifier (b22717f) with this module's :func:`measure_step`, on the
plans' boxes of that commit, 2026-11-23, load average ~9 on 2 cores: the time budget (1 s
per search, two searches with the eps^k retry) is what ended every search, so the box
counts moved with the load."""


def _link(plan: CheckPlan, did: str, index: int) -> tuple[sp.Expr, bool]:
    left, rel, right, why = plan.derivation.links()[index - 1]
    link = Link.of(plan, index, left, rel, right, str(why))
    (step,) = fact_from_relation(link.relation.make(link.lhs, link.rhs), "step")
    return step.expr, step.strict


def _default(
    residual: sp.Expr, strict: bool, symbols: tuple[sp.Symbol, ...], box: Box, hyps: tuple
) -> Certificate:
    return certify_residual(residual, strict, symbols, box, hyps)


def measure_step(did: str, index: int, certifier: Certifier = _default) -> Figure:
    """Certify step ``index`` of ``did`` on its plan's box once and time it."""
    plan = make_plan(get(did), CheckOptions(points=5))
    residual, strict = _link(plan, did, index)
    started = time.perf_counter()
    try:
        cert = certifier(residual, strict, plan.symbols, plan.box, plan.hypotheses)
    except Exception as exc:  # a bench reports, it does not stop
        return Figure(f"{did} {index}", f"error {type(exc).__name__}", 0, 0.0, 0.0)
    seconds = time.perf_counter() - started
    return Figure(f"{did} {index}", cert.status.value, cert.boxes, seconds, cert.fraction)


def run(certifier: Certifier = _default) -> list[Figure]:
    """Print before (recorded) and after (measured now) for :data:`HARD_STEPS`."""
    print("certifier on the hardest steps (status, boxes, boxes/s, certified volume):")
    if BEFORE:
        print(" before (b22717f: 20,000 boxes or 1 s, widest-side bisection):")
        for f in BEFORE:
            print(f.line())
    print(" now (box budget only, smear-rule splits, monotone collapse, rewrites):")
    out = [measure_step(did, i, certifier) for did, i in HARD_STEPS]
    for f in out:
        print(f.line())
    return out


if __name__ == "__main__":
    run()
