"""Google's dp_accounting (the optional extra ``accounting``) on the same configuration:
its PLD accountant (Meiser & Mohammadi 2018; Koskela, Jaelkoe & Honkela 2020; Doroshenko
et al. 2022) and its RDP accountant (Mironov 2017; Mironov, Talwar & Zhang 2019).

Their numbers are shown beside dpderive's bounds, never used for a verdict: they come with no
proof here (DESIGN.md: borrowed numbers are pins, not oracles).  An accountant's upper bound
below dpderive's rigorous lower bound is a *disagreement*: one of the two is wrong, and the
lower bound is an exact event on an explicit pair of inputs.
"""

from __future__ import annotations

import contextlib
import io
import math
from typing import Any

from numeric_checks.accounting.mechanisms import Composition, Mechanism

MISSING = (
    "dp_accounting is not installed, so no accountant is shown; install the extra with "
    "`pip install -e '.[accounting]'`"
)


def _event(m: Mechanism, dp_event: Any) -> Any:
    sens = float(m.sensitivity)
    if m.kind == "gaussian":
        base = dp_event.GaussianDpEvent(float(m.sigma) / sens)
    elif m.kind == "laplace":
        base = dp_event.LaplaceDpEvent(float(m.scale) / sens)
    else:
        # Binary randomized response keeps the bit with e^eps0/(1 + e^eps0): dp_accounting's
        # form replaces it by a uniform bucket with probability 2/(1 + e^eps0).
        base = dp_event.RandomizedResponseDpEvent(2 / (1 + math.exp(float(m.eps0))), 2)
    if m.sampled:
        return dp_event.PoissonSampledDpEvent(float(m.q), base)
    return base


def run(
    comp: Composition,
    eps: float | None,
    delta: float | None,
    curve: tuple[float, ...] = (),
) -> dict[str, Any]:
    """The accountants' eps(delta) and delta(eps); ``available`` False (and a message) when
    the extra is not installed; each accountant's ``error`` when it refuses the
    configuration; with ``curve``, each accountant's delta at those eps (``delta_curve``),
    from the same composition."""
    try:
        import dp_accounting
        from dp_accounting import dp_event
        from dp_accounting.pld import pld_privacy_accountant
        from dp_accounting.rdp import rdp_privacy_accountant
    except ImportError:
        return {"available": False, "message": MISSING}
    from importlib import metadata

    event = dp_event.ComposedDpEvent(
        [dp_event.SelfComposedDpEvent(_event(r.mechanism, dp_event), r.steps) for r in comp.rounds]
    )
    out: dict[str, Any] = {"available": True, "version": metadata.version("dp-accounting")}
    relations = dp_accounting.NeighboringRelation
    # Without sampling the pair of each step is the same under both relations; dp_accounting
    # accepts randomized response only under replace-one.
    relation = (
        relations.REPLACE_ONE
        if not comp.any_sampled and "randomized_response" in comp.kinds
        else relations.ADD_OR_REMOVE_ONE
    )
    for name, make in (
        ("pld", pld_privacy_accountant.PLDAccountant),
        ("rdp", rdp_privacy_accountant.RdpAccountant),
    ):
        entry: dict[str, Any] = {}
        try:
            acc = make(neighboring_relation=relation)
            # absl may log to stderr; an account's stderr is for dpderive's own messages.
            with contextlib.redirect_stderr(io.StringIO()):
                acc.compose(event)
                if delta is not None:
                    entry["eps"] = float(acc.get_epsilon(delta))
                if eps is not None:
                    entry["delta"] = float(acc.get_delta(eps))
                if curve:
                    entry["delta_curve"] = [float(acc.get_delta(e)) for e in curve]
        except Exception as exc:  # an accountant refusing a configuration is not our bug
            entry = {"error": f"{type(exc).__name__}: {exc}"[:300]}
        out[name] = entry
    return out


def disagreements(
    found: dict[str, Any], delta_lower: float | None, eps_lower: float | None
) -> list[str]:
    """Where an accountant's upper bound lies below dpderive's rigorous lower bound."""
    out = []
    for name in ("pld", "rdp"):
        entry = found.get(name) or {}
        d, e = entry.get("delta"), entry.get("eps")
        if d is not None and delta_lower is not None and d < delta_lower:
            out.append(
                f"{name.upper()} says delta <= {d:.6g}, below the rigorous lower bound "
                f"{delta_lower:.6g}"
            )
        if e is not None and eps_lower is not None and e < eps_lower:
            out.append(
                f"{name.upper()} says eps <= {e:.6g}, below the rigorous lower bound "
                f"{eps_lower:.6g}"
            )
    return out
