"""Quadrature through the bridge: CPU time of compiled integrals like the catalog's (a
hockey-stick divergence of two Gaussians, a Laplace tail, a Gaussian moment beyond x*) at
random points and 30/50 digits, each value computed afresh (the remembered integrals are
cleared).  Printed, never asserted; the sum of the values is printed so that two versions of
the engine can be compared for agreement as well as speed.

``python3 bench/quadrature.py [--points N]``."""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import mpmath  # noqa: E402
import sympy as sp  # noqa: E402

from numeric_checks.bridge import compile_exprs, evaluate  # noqa: E402
from numeric_checks.remembered_integrals import _integral_at  # noqa: E402
from symbolic.errors import EvaluationError  # noqa: E402


def _integrals() -> tuple[list[sp.Symbol], dict[str, sp.Expr]]:
    x = sp.Symbol("x", real=True)
    mu, b, s = (sp.Symbol(n, positive=True) for n in ("mu", "b", "s"))
    eps = sp.Symbol("eps", nonnegative=True)

    def phi(t: sp.Expr) -> sp.Expr:
        return sp.exp(-(t**2) / 2) / sp.sqrt(2 * sp.pi)

    return [mu, eps, b, s], {
        "hockey-stick N(mu,1) vs N(0,1)": sp.Integral(
            sp.Max(0, phi(x - mu) - sp.exp(eps) * phi(x)), (x, -sp.oo, sp.oo)
        ),
        "Laplace tail from s": sp.Integral(sp.exp(-sp.Abs(x) / b) / (2 * b), (x, s, sp.oo)),
        "Gaussian moment beyond x*": sp.Integral(
            phi(x) * sp.exp(eps) * x**2, (x, eps / mu + mu / 2, sp.oo)
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--points", type=int, default=60)
    n = parser.parse_args().points
    symbols, integrals = _integrals()
    rng = random.Random(1)
    points = [
        [
            mpmath.mpf(rng.uniform(0.1, 5)),
            mpmath.mpf(rng.uniform(0, 5)),
            mpmath.mpf(10) ** rng.uniform(-3, 3),
            mpmath.mpf(rng.uniform(0, 20)),
        ]
        for _ in range(n)
    ]
    grand = 0.0
    for name, integral in integrals.items():
        fn = compile_exprs(symbols, [integral])
        _integral_at.cache_clear()
        values, undefined = [], 0
        start = time.process_time()
        for dps in (30, 50):
            for p in points:
                try:
                    values.append(evaluate(fn, p, dps)[0])
                except EvaluationError:
                    undefined += 1
        cpu = time.process_time() - start
        grand += cpu
        total = mpmath.nstr(mpmath.fsum(values), 25)
        line = f"{name:34s} {2 * n:4d} evaluations  {cpu:6.2f} s CPU  sum {total}"
        print(f"{line}  undefined {undefined}")
    print(f"{'total':34s} {grand:6.2f} s CPU")


if __name__ == "__main__":
    main()
