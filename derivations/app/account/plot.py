"""``account --plot``: delta(eps) of the configuration, the catalog's and cited upper bounds,
the rigorous lower bound, dp_accounting's PLD and RDP numbers and the claim, on a log scale
(matplotlib, imported only to draw)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from symbolic.errors import DpderiveError

POINTS = 28


def draw(a: Any, found: dict[str, Any], target: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    claim = a.claim
    top = 2.0 * float(claim.eps.mid()) if claim.eps is not None else 10.0
    for u in a.uppers:
        if u.eps is not None:
            top = max(top, 1.2 * float(u.eps.upper()))
    top = max(min(top, 200.0), 1.0)
    grid = [top * i / (POINTS - 1) for i in range(POINTS)]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for u in a.uppers:
        if u.curve is None:
            continue
        ys = [u.curve(e) for e in grid]
        style = "-" if not u.cited and u.catalog else "--"
        ax.plot(grid, [max(y, 1e-300) for y in ys], style, label=f"upper: {u.name}")
    if a.lower.curve is not None:
        ys = [a.lower.curve(e) for e in grid]
        ax.plot(grid, [max(y, 1e-300) for y in ys], "k-", lw=2, label="rigorous lower bound")
    if found.get("available"):
        _accountant_curves(a, ax, grid)
    if claim.eps is not None:
        ax.plot([float(claim.eps.mid())], [float(claim.delta.mid())], "r*", ms=12, label="claim")
    ax.set_yscale("log")
    ax.set_ylim(1e-16, 1.5)
    ax.set_xlabel("eps")
    ax.set_ylabel("delta(eps)")
    ax.set_title(f"{a.composition.describe()} ({a.composition.steps} steps)"[:90], fontsize=8)
    ax.legend(fontsize=7)
    fig.tight_layout()
    try:
        fig.savefig(target)
    except OSError as exc:
        raise DpderiveError(f"cannot write {str(target)!r}: {exc.strerror}") from None
    finally:
        plt.close(fig)


def _accountant_curves(a: Any, ax: Any, grid: list[float]) -> None:
    from derivations.accounting import accountants

    found = accountants.run(a.composition, None, None, curve=tuple(grid))
    for name in ("pld", "rdp"):
        ys = found.get(name, {}).get("delta_curve")
        if ys:
            ax.plot(grid, [max(y, 1e-300) for y in ys], ":", label=f"dp_accounting {name.upper()}")
