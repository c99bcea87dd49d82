"""``dpderive account`` on the 15 configurations of tests/test_account_configs.py: for each,
the time of one assessment (bounds at the configuration's eps and at delta = 1e-5, each
configuration in a fresh cache), dpderive's rigorous lower and best upper bounds on
delta(eps) and eps(1e-5), and dp_accounting's PLD and RDP numbers when the extra is
installed (printed, never asserted; target <= 5 s a configuration).

``python3 bench/account.py [--markdown]``."""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flint import arb, ctx  # noqa: E402

from derivations.accounting import accountants  # noqa: E402
from derivations.accounting.assess import Claim, assess  # noqa: E402
from numeric_checks.accounting import lattice  # noqa: E402
from numeric_checks.accounting.mechanisms import Composition, Mechanism, Round  # noqa: E402

G, L, R = "gaussian", "laplace", "randomized_response"
CONFIGS = (
    ("gauss-analytic", Mechanism(G, sigma="1"), 1, 1.0),
    ("gauss-analytic-0.7", Mechanism(G, sigma="0.7"), 1, 3.0),
    ("gauss-16-rounds", Mechanism(G, sigma="4"), 16, 1.0),
    ("gauss-1000-rounds", Mechanism(G, sigma="10"), 1000, 8.0),
    ("laplace-10", Mechanism(L, scale="1"), 10, 5.0),
    ("laplace-100", Mechanism(L, scale="10"), 100, 3.0),
    ("laplace-1000", Mechanism(L, scale="20"), 1000, 4.0),
    ("rr-10", Mechanism(R, eps0="1"), 10, 4.0),
    ("rr-50", Mechanism(R, eps0="0.5"), 50, 6.0),
    ("rr-1000", Mechanism(R, eps0="0.1"), 1000, 2.0),
    ("dpsgd-abadi", Mechanism(G, sigma="1.1", q="0.01"), 10_000, 5.0),
    ("dpsgd-q0.1", Mechanism(G, sigma="2", q="0.1"), 100, 1.0),
    ("dpsgd-q0.05", Mechanism(G, sigma="1.5", q="0.05"), 1000, 2.5),
    ("dpsgd-q0.001", Mechanism(G, sigma="1", q="0.001"), 10_000, 0.5),
    ("dpsgd-q0.02", Mechanism(G, sigma="0.9", q="0.02"), 2000, 4.0),
)
DELTA = 1e-5


def _g(x: float | None) -> str:
    return "-" if x is None else f"{x:.4g}"


def main() -> None:
    markdown = "--markdown" in sys.argv
    ctx.prec = 128
    head = (
        "config",
        "steps",
        "eps",
        "delta low",
        "delta up",
        "by",
        "eps(1e-5) low",
        "eps(1e-5) up",
        "PLD delta",
        "PLD eps",
        "RDP delta",
        "RDP eps",
        "s",
    )
    print(("| " + " | ".join(head) + " |") if markdown else "  ".join(head))
    if markdown:
        print("|" + "---|" * len(head))
    total = 0.0
    for name, m, k, eps in CONFIGS:
        lattice.score_laws.cache_clear()
        comp = Composition((Round(m, k),))
        started = time.perf_counter()
        a = assess(comp, Claim("eps_delta", eps=arb(repr(eps)), delta=arb(repr(DELTA))))
        seconds = time.perf_counter() - started
        total += seconds
        found = accountants.run(comp, eps, DELTA)
        best, best_eps = a.best_upper, a.best_eps_upper
        pld, rdp = found.get("pld", {}), found.get("rdp", {})
        row = (
            name,
            str(k),
            f"{eps:g}",
            _g(float(a.lower.delta.lower())),
            _g(None if best is None else float(best.delta.upper())),  # type: ignore[union-attr]
            "-" if best is None else best.name,
            _g(None if a.lower.eps is None else float(a.lower.eps.lower())),
            _g(None if best_eps is None else float(best_eps.eps.upper())),  # type: ignore[union-attr]
            _g(pld.get("delta")),
            _g(pld.get("eps")),
            _g(rdp.get("delta")),
            _g(rdp.get("eps")),
            f"{seconds:.2f}",
        )
        print(("| " + " | ".join(row) + " |") if markdown else "  ".join(row))
    if not found.get("available"):
        print(f"({found.get('message')})")
    print(f"total {total:.1f} s for {len(CONFIGS)} configurations")


if __name__ == "__main__":
    main()
