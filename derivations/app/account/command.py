"""``dpderive account FILE.toml``: is this epsilon right?  The claimed privacy of a composed
mechanism checked three-valued (issue 45): ``holds`` (exit 0) when an upper bound on
delta(eps) is at most the claim, the strongest such bound named with the catalog's standing
of every theorem it rests on; ``refuted`` (exit 1) when a rigorous lower bound on the true
delta(eps), an event on an explicit pair of neighbouring inputs evaluated with Arb, exceeds
the claim; ``inconclusive`` (exit 3) otherwise, with both bounds and the gap.  Bad input is
exit 2; an upper bound below a rigorous lower bound is a bug of ours (exit 4).

dp_accounting's PLD and RDP accountants are shown beside the bounds when the optional extra
``accounting`` is installed, and any accountant's upper bound below the rigorous lower bound
is flagged as a disagreement.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path
from typing import Any, TextIO

from derivations.app.exitcodes import EXIT_INTERNAL, EXIT_OK, EXIT_REFUTED, EXIT_UNDECIDED
from derivations.app.failures import failed, write_json
from derivations.app.options import add_budget_option
from derivations.app.phases import phase
from derivations.printing.terminal import visible
from symbolic.errors import InvalidInput

HELP = "check a claimed (eps, delta) or mu of a composed mechanism: holds, refuted or inconclusive"
EXITS = {"holds": EXIT_OK, "refuted": EXIT_REFUTED, "inconclusive": EXIT_UNDECIDED}
BITS = 128
"""Arb's precision for the claim's numbers and the bounds (the lattice uses its own)."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="an account file (.toml): [mechanism], [composition], [claim]")
    p.add_argument("--json", action="store_true", help="print JSON (fields in README.md)")
    p.add_argument(
        "--plot",
        metavar="FILE.png",
        help="also draw delta(eps): the proved and cited upper bounds, the rigorous lower "
        "bound and the accountants (matplotlib)",
    )
    p.add_argument(
        "--recheck",
        action="store_true",
        help="check the catalog theorems used now (a few seconds each) instead of using "
        "their recorded standing from `dpderive check --all`",
    )
    p.add_argument(
        "--no-accountants",
        action="store_true",
        help="do not run dp_accounting even when it is installed",
    )
    add_budget_option(
        p,
        120.0,
        what="wall-clock seconds for the whole account (default {budget:g}); past them the "
        "command ends undecided: budget spent (exit 3)",
    )


def _up(x: Any) -> float:
    """The ball's upper end as a float rounded up (a bound never shrinks by printing)."""
    v = float(x.upper())
    return v if v >= x.upper() else math.nextafter(v, math.inf)


def _down(x: Any) -> float:
    v = float(x.lower())
    return v if v <= x.lower() else math.nextafter(v, -math.inf)


def run(args: argparse.Namespace, out: TextIO) -> int:
    from flint import ctx

    from derivations.accounting import accountants, standing
    from derivations.accounting.assess import Inconsistent, assess, basis_of, catalog_ids
    from derivations.app.account.files import load_account

    started = time.monotonic()
    old = ctx.prec
    ctx.prec = BITS
    try:
        phase(f"reading {args.file}")
        comp, claim, about = load_account(args.file)
        if args.plot is not None:
            _plot_target(args.plot)
        standings = dict(standing.RECORDED)
        if args.recheck:
            phase("checking the catalog theorems used")
            used = catalog_ids(comp)
            standings.update(standing.live(used, budget=min(args.budget / 4, 60.0)))
        phase("bounding delta(eps)")
        try:
            a = assess(comp, claim, standings)
        except Inconsistent as exc:
            return failed(
                f"internal error: {exc}; please report it with the file",
                EXIT_INTERNAL,
                args.json,
                out,
                prefix="",
            )
        found: dict[str, Any] = {"available": False, "message": "not run (--no-accountants)"}
        if not args.no_accountants:
            phase("running dp_accounting")
            eps = float(claim.eps.mid()) if claim.eps is not None else None
            delta = float(claim.delta.mid()) if claim.delta is not None else None
            found = accountants.run(comp, eps, delta)
        report = _report(a, about, found, basis_of, accountants.disagreements)
        if args.plot is not None:
            phase("drawing the plot")
            from derivations.app.account.plot import draw

            draw(a, found, Path(args.plot))
            report["plot"] = str(args.plot)
        report["seconds"] = round(time.monotonic() - started, 2)
        if args.json:
            write_json(report, out)
        else:
            out.write(_text(report))
        return EXITS[a.verdict]
    finally:
        ctx.prec = old


def _plot_target(path: str) -> None:
    if Path(path).suffix.lower() not in (".png", ".pdf", ".svg"):
        raise InvalidInput(f"--plot needs a .png, .pdf or .svg file name, got {path!r}")


def _report(
    a: Any, about: dict[str, str], found: dict[str, Any], basis_of: Any, disagree: Any
) -> dict[str, Any]:
    claim = a.claim
    theorems: list[dict[str, Any]] = []
    seen: set[str] = set()
    uppers = []
    for ident in a.extra.get("catalog", ()):
        seen.add(ident)
        theorems.append(a.standings[ident].to_json())
    for u in a.uppers:
        for ident in u.catalog:
            if ident not in seen:
                seen.add(ident)
                theorems.append(a.standings[ident].to_json())
        for c in u.cited:
            if c not in seen:
                seen.add(c)
                theorems.append({"cited": c, "verdict": "not in the catalog (unchecked)"})
        uppers.append(
            {
                "name": u.name,
                "delta_upper": None if u.delta is None else min(_up(u.delta), 1.0),
                "eps_upper": None if u.eps is None else _up(u.eps),
                "basis": basis_of(u, a.standings),
                "catalog": list(u.catalog),
                "cited": list(u.cited),
                "note": u.note,
            }
        )
    report: dict[str, Any] = {
        "verdict": a.verdict,
        "basis": a.basis,
        "reason": a.reason,
        "title": about.get("title", ""),
        "source": about.get("source", ""),
        "configuration": a.composition.describe(),
        "steps": a.composition.steps,
        "claim": {"kind": claim.kind, "statement": claim.text},
        "bound_used": None if a.used is None else a.used.name,
    }
    if claim.kind == "eps_delta":
        report["claim"].update(epsilon=float(claim.eps.mid()), delta=float(claim.delta.mid()))
        best = a.best_upper
        best_eps = a.best_eps_upper
        report["delta_upper"] = min(_up(best.delta), 1.0) if best is not None else 1.0
        report["delta_upper_by"] = None if best is None else best.name
        report["delta_lower"] = max(_down(a.lower.delta), 0.0)
        report["eps_upper"] = None if best_eps is None else _up(best_eps.eps)
        report["eps_upper_by"] = None if best_eps is None else best_eps.name
        report["eps_lower"] = None if a.lower.eps is None else max(_down(a.lower.eps), 0.0)
        report["gap"] = report["delta_upper"] - report["delta_lower"]
    else:
        report["claim"].update(mu=float(claim.mu.mid()))
        for key in ("mu_upper", "mu_lower"):
            if key in a.extra:
                report[key] = _up(a.extra[key]) if key == "mu_upper" else _down(a.extra[key])
        if "at_eps" in a.extra:
            report["at_epsilon"] = float(a.extra["at_eps"].mid())
            report["delta_lower"] = max(_down(a.lower.delta), 0.0)
            report["delta_of_claimed_mu"] = _up(a.extra["delta_mu"])
        report["delta_upper"] = None
    report["lower_bound"] = {"how": a.lower.how}
    report["upper_bounds"] = uppers
    report["theorems"] = theorems
    found = dict(found)
    if found.get("available"):
        found["disagreements"] = disagree(found, report.get("delta_lower"), report.get("eps_lower"))
    report["accountants"] = found
    return report


def _num(x: Any) -> str:
    return "-" if x is None else f"{x:.6g}"


def _text(r: dict[str, Any]) -> str:
    lines = []
    if r["title"]:
        lines.append(visible(r["title"]))
    lines.append(f"mechanism: {r['configuration']} ({r['steps']} steps)")
    c = r["claim"]
    lines.append(f"claim: {visible(c['statement'])}")
    basis = "" if r["basis"] == "none" else f" ({r['basis']})"
    lines.append(f"verdict: {r['verdict'].upper()}{basis}")
    lines.append(f"  {r['reason']}")
    if c["kind"] == "eps_delta":
        lines.append(
            f"  delta({_num(c['epsilon'])}): in [{_num(r['delta_lower'])}, "
            f"{_num(r['delta_upper'])}] (upper by {r['delta_upper_by'] or 'nothing'})"
        )
        lines.append(
            f"  eps({_num(c['delta'])}): in [{_num(r['eps_lower'])}, "
            f"{_num(r['eps_upper'])}] (upper by {r['eps_upper_by'] or 'nothing'})"
        )
    elif "mu_upper" in r:
        lines.append(f"  mu of the composition: {_num(r['mu_lower'])} (exact, within rounding)")
    lines.append("upper bounds:")
    for u in r["upper_bounds"]:
        lines.append(
            f"  {u['name']} [{u['basis']}]: delta <= {_num(u['delta_upper'])}, "
            f"eps <= {_num(u['eps_upper'])}; {u['note']}"
        )
    lines.append(f"lower bound: {r['lower_bound']['how']}")
    lines.append("theorems behind these bounds:")
    for t in r["theorems"]:
        if "id" in t:
            rests = f"; rests on {', '.join(t['rests_on'])}" if t["rests_on"] else ""
            lines.append(f"  {t['id']}: {t['verdict']}, {t['basis']}{rests} ({t['standing']})")
        else:
            lines.append(f"  {t['cited']}: {t['verdict']}")
    acc = r["accountants"]
    if not acc.get("available"):
        lines.append(f"accountants: {acc.get('message')}")
    else:
        lines.append(f"accountants (dp_accounting {acc['version']}, no proof behind them):")
        for name in ("pld", "rdp"):
            e = acc.get(name, {})
            if "error" in e:
                lines.append(f"  {name.upper()}: refused: {e['error']}")
            else:
                lines.append(
                    f"  {name.upper()}: eps = {_num(e.get('eps'))}, delta = {_num(e.get('delta'))}"
                )
        for d in acc.get("disagreements", []):
            lines.append(f"  DISAGREEMENT: {d}")
    if "plot" in r:
        lines.append(f"plot: wrote {visible(r['plot'])}")
    lines.append(f"note: {r['seconds']} s")
    return "\n".join(lines) + "\n"
