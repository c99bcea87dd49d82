"""The three-valued verdict of ``dpderive account``: a claimed privacy guarantee of a
composition ``holds`` (an upper bound on delta(eps) at most the claim, on Arb balls),
is ``refuted`` (a rigorous lower bound on the true delta(eps) above the claim) or is
``inconclusive`` (the best bounds straddle the claim; both are given with their gap).

Upper bounds are ranked by what they rest on: catalog theorems within their proved domains
(``outright``, ``from foundations``, ``from cited results`` as the catalog says), then
theorems the catalog only cites.  A verdict ``holds`` names the strongest bound that shows
it; ``holds`` by a cited theorem is never presented as proved.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flint import arb

from derivations.accounting.catalog_bounds import (
    UpperBound,
    advanced_bound,
    basic_bound,
    gdp_bound,
    gdp_bounds,
    gdp_delta,
)
from derivations.accounting.standing import RECORDED, Standing, weakest_basis
from numeric_checks.accounting import lattice, pure, rdp
from numeric_checks.accounting.gaussian import gaussian_event_delta, gaussian_event_eps
from numeric_checks.accounting.mechanisms import Composition

CITED = "by a cited theorem"
"""The basis of a bound that rests on a theorem the catalog does not prove (there)."""


@dataclass(frozen=True)
class Claim:
    """What is claimed: ``kind`` is ``eps_delta`` ((eps, delta)-DP) or ``mu`` (mu-GDP)."""

    kind: str
    eps: arb | None = None
    delta: arb | None = None
    mu: arb | None = None
    text: str = ""


@dataclass(frozen=True)
class LowerBound:
    """A rigorous lower bound: ``delta`` a ball at the claim's eps (its lower end is the
    bound), ``eps`` a ball at the claim's delta; how it was found."""

    delta: arb
    eps: arb | None
    how: str
    curve: Callable[[float], float] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Assessment:
    claim: Claim
    composition: Composition
    verdict: str
    basis: str
    reason: str
    uppers: tuple[UpperBound, ...]
    lower: LowerBound
    used: UpperBound | None
    standings: dict[str, Standing]
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def best_upper(self) -> UpperBound | None:
        ranked = [u for u in self.uppers if u.delta is not None]
        return min(ranked, key=lambda u: float(u.delta.upper()), default=None)  # type: ignore[union-attr]

    @property
    def best_eps_upper(self) -> UpperBound | None:
        ranked = [u for u in self.uppers if u.eps is not None]
        return min(ranked, key=lambda u: float(u.eps.upper()), default=None)  # type: ignore[union-attr]


class Inconsistent(Exception):
    """An upper bound below a rigorous lower bound: a bug of ours (exit 4), never a verdict."""


def basis_of(u: UpperBound, standings: dict[str, Standing]) -> str:
    """The catalog's weakest basis for the ids ``u`` rests on, or :data:`CITED` when it
    also rests on a theorem the catalog does not prove (there)."""
    if u.cited or not u.catalog:
        return CITED
    found = weakest_basis(standings[i] for i in u.catalog)
    return CITED if found == "none" else found


RANK = ("outright", "from foundations", "from cited results", CITED)


def upper_bounds(comp: Composition, eps: arb, delta: arb | None) -> list[UpperBound]:
    """Every upper bound that applies to ``comp``, catalog ones first."""
    out: list[UpperBound] = []
    if comp.all_gaussian_unsampled:
        out.extend(gdp_bounds(comp, eps, delta))
    if comp.all_pure_unsampled:
        out.append(basic_bound(comp, eps))
        adv = advanced_bound(comp, eps, delta)
        if adv is not None:
            out.append(adv)
    if all(r.mechanism.pure for r in comp.rounds):
        out.append(_kov_bound(comp, eps, delta))
    if all(rdp.has_rdp(r.mechanism) for r in comp.rounds) and not comp.all_gaussian_unsampled:
        out.append(_rdp_bound(comp, eps, delta))
    return out


def catalog_ids(comp: Composition) -> tuple[str, ...]:
    """The catalog ids an account of ``comp`` may rest on (what ``--recheck`` checks)."""
    ids: tuple[str, ...] = ()
    if comp.all_gaussian_unsampled:
        ids += ("gdp-gaussian-mechanism", "gdp-composition", "gdp-to-dp")
    if comp.all_pure_unsampled:
        ids += ("laplace-ratio", "basic-composition-k", "advanced-composition")
    return ids


def _kov_bound(comp: Composition, eps: arb, delta: arb | None) -> UpperBound:
    """The optimal composition of pure DP, each round eps0-DP for the largest (amplified)
    eps0 of the rounds."""
    eps0 = arb(0)
    cited = ["Kairouz, Oh & Viswanath 2015, Theorem 3.3 (optimal composition of eps0-DP)"]
    for r in comp.rounds:
        e = r.mechanism.pure_eps()
        if r.mechanism.sampled:
            e = pure.amplified(e, arb(r.mechanism.q))
            cited.append(
                "Balle, Barthe & Gaboardi 2018, Theorem 8 (amplification by Poisson sampling)"
            )
        eps0 = e if e.upper() > eps0.upper() else eps0
    # The ball's upper end: a mechanism that is eps0-DP is eps-DP for every eps >= eps0.
    eps0 = arb(eps0.upper())
    k = comp.steps

    def at(e: arb) -> arb:
        return pure.kov_delta(k, eps0, e)

    found = None
    if delta is not None:
        from derivations.accounting.catalog_bounds import _solve_eps

        e0 = float(eps0.mid())
        found = _solve_eps(
            at,
            delta,
            hi=float(k * eps0.upper()) + 1,
            guess=lambda e: pure.kov_delta_float(k, e0, e),
        )
    return UpperBound(
        "optimal composition of pure DP",
        at(eps),
        found,
        (),
        tuple(dict.fromkeys(cited)),
        f"{k} rounds, each eps0-DP with eps0 = {float(eps0.mid()):.8g}",
        curve=lambda e: float(at(arb(e)).upper()),
    )


def _rdp_bound(comp: Composition, eps: arb, delta: arb | None) -> UpperBound:
    curve = rdp.composition_rdp(comp)
    at_eps, order = rdp.delta_from_rdp(curve, eps)
    found = None if delta is None else rdp.eps_from_rdp(curve, delta)[0]
    return UpperBound(
        "Renyi DP",
        at_eps.min(arb(1)),
        found,
        (),
        (
            "Mironov 2017, Proposition 1 and Table 2 (Renyi DP, composition, mechanisms)",
            "Mironov, Talwar & Zhang 2019, Section 3.3 (sampled Gaussian)",
            "Canonne, Kamath & Steinke 2020, Proposition 12 (Renyi DP to (eps, delta)-DP)",
        )
        if comp.any_sampled
        else (
            "Mironov 2017, Proposition 1 and Table 2 (Renyi DP, composition, mechanisms)",
            "Canonne, Kamath & Steinke 2020, Proposition 12 (Renyi DP to (eps, delta)-DP)",
        ),
        f"integer orders 2..256; at the claim's eps the best order is {order}",
        curve=lambda e: min(1.0, float(rdp.delta_from_rdp(curve, arb(e))[0].upper())),
    )


def lower_bound(comp: Composition, eps: arb, delta: arb | None) -> LowerBound:
    """The rigorous lower bound: the exact event for unsampled Gaussian rounds, else the
    lattice event of :mod:`numeric_checks.accounting.lattice`."""
    if comp.all_gaussian_unsampled:
        mu = comp.gdp_mu()
        value, t = gaussian_event_delta(mu, eps)
        found = None if delta is None else gaussian_event_eps(mu, delta)
        return LowerBound(
            value,
            found,
            f"the event {{Z > {t:.6g}}} for the likelihood-ratio statistic Z, "
            f"N({float(mu.mid()):.6g}, 1) against N(0, 1) (exact laws)",
            curve=lambda e: float(gaussian_event_delta(mu, arb(e))[0].lower()),
        )
    laws = lattice.score_laws(comp)
    best = lattice.delta_lower(laws, eps)
    found = None if delta is None else lattice.eps_lower(laws, delta)[0]
    return LowerBound(
        best.value,
        found,
        f"the event {{score >= {best.threshold}}} on the lattice of privacy losses, "
        f"{best.direction}: P(S) >= {_g(best.p_event.lower())}, Q(S) <= {_g(best.q_event.upper())}",
        curve=lambda e: float(lattice.delta_lower(laws, arb(e)).value.lower()),
    )


def _g(x: arb) -> str:
    return f"{float(x.mid()):.6g}"


def _apart(a: arb, b: arb) -> tuple[str, str]:
    """Two numbers printed with as many digits (6 to 40) as it takes to tell them apart."""
    for digits in (6, 9, 12, 17, 25, 40):
        sa, sb = a.mid().str(digits, radius=False), b.mid().str(digits, radius=False)
        if sa != sb:
            break
    return sa, sb


def assess(
    comp: Composition, claim: Claim, standings: dict[str, Standing] | None = None
) -> Assessment:
    """The verdict on ``claim`` for ``comp``."""
    standings = dict(RECORDED if standings is None else standings)
    if claim.kind == "mu":
        return _assess_mu(comp, claim, standings)
    assert claim.eps is not None and claim.delta is not None
    uppers = upper_bounds(comp, claim.eps, claim.delta)
    low = lower_bound(comp, claim.eps, claim.delta)
    showing = [u for u in uppers if u.delta is not None and u.delta.upper() <= claim.delta.lower()]
    refuting = low.delta.lower() > claim.delta.upper()
    if showing and refuting:
        raise Inconsistent(
            f"the upper bound {showing[0].name} ({_g(showing[0].delta.upper())}) lies below the "  # type: ignore[union-attr]
            f"rigorous lower bound ({_g(low.delta.lower())})"
        )
    for u in uppers:
        if u.delta is not None and u.delta.upper() < low.delta.lower():
            raise Inconsistent(
                f"the upper bound {u.name} ({_g(u.delta.upper())}) lies below the rigorous "
                f"lower bound ({_g(low.delta.lower())}) at eps = {_g(claim.eps)}"
            )
    if showing:
        used = min(showing, key=lambda u: RANK.index(basis_of(u, standings)))
        basis = basis_of(used, standings)
        shown, claimed = _apart(used.delta.upper(), claim.delta)  # type: ignore[union-attr]
        reason = f"{used.name} gives delta({_g(claim.eps)}) <= {shown} <= {claimed}"
        return Assessment(claim, comp, "holds", basis, reason, tuple(uppers), low, used, standings)
    if refuting:
        reason = "delta({}) >= {} > {}, by {}".format(
            _g(claim.eps), *_apart(low.delta.lower(), claim.delta), low.how
        )
        return Assessment(
            claim,
            comp,
            "refuted",
            "rigorous lower bound",
            reason,
            tuple(uppers),
            low,
            None,
            standings,
        )
    best = min((float(u.delta.upper()) for u in uppers if u.delta is not None), default=1.0)
    reason = (
        f"the best upper bound on delta({_g(claim.eps)}) is {best:.6g} and the rigorous lower "
        f"bound {float(low.delta.lower()):.6g}; the claim {_g(claim.delta)} lies between"
    )
    return Assessment(
        claim, comp, "inconclusive", "none", reason, tuple(uppers), low, None, standings
    )


MU_EPS_GRID = (0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0, 45.0)
"""Where a GDP claim is compared with a lower bound on the profile (mu-GDP implies
delta(eps) <= delta_mu(eps) for every eps, gdp-to-dp)."""


def _assess_mu(comp: Composition, claim: Claim, standings: dict[str, Standing]) -> Assessment:
    assert claim.mu is not None
    extra: dict[str, Any] = {}
    if comp.all_gaussian_unsampled:
        mu = comp.gdp_mu()
        extra["mu_upper"] = mu
        extra["mu_lower"] = mu
        if mu.upper() <= claim.mu.lower():
            ids = ("gdp-gaussian-mechanism",) + (("gdp-composition",) if comp.steps > 1 else ())
            ub = gdp_bound(comp, arb(0), None)
            # mu-GDP for a smaller mu is mu'-GDP for the larger: G_mu >= G_mu' (Phi increases).
            used = UpperBound(
                "Gaussian DP",
                None,
                None,
                ids,
                tuple(c for c in ub.cited if "2.13" not in c),
                f"the composition is mu-GDP with mu = {_g(mu)} <= {_g(claim.mu)}",
            )
            basis = basis_of(used, standings)
            return Assessment(
                claim, comp, "holds", basis, used.note, (used,), _no_lower(), used, standings, extra
            )
    # A refutation: a lower bound on delta(eps) above mu-GDP's profile at some eps.
    best: tuple[float, arb, arb, arb] | None = None
    laws = None if comp.all_gaussian_unsampled else lattice.score_laws(comp)
    for e in MU_EPS_GRID:
        eb = arb(e)
        if laws is None:
            low = gaussian_event_delta(comp.gdp_mu(), eb)[0]
        else:
            low = lattice.delta_lower(laws, eb).value
        cap = gdp_delta(claim.mu, eb)
        margin = float((low - cap).mid())
        if best is None or margin > best[0]:
            best = (margin, eb, low, cap)
    assert best is not None
    _m, eb, low, cap = best
    lower = LowerBound(low, None, f"a lower bound on delta({_g(eb)})")
    extra["at_eps"] = eb
    extra["delta_mu"] = cap
    extra["catalog"] = ("gdp-to-dp",)  # mu-GDP's profile, which the lower bound is set against
    if low.lower() > cap.upper():
        reason = (
            "delta({}) >= {} > {} = delta of ".format(_g(eb), *_apart(low.lower(), cap.upper()))
            + f"{_g(claim.mu)}-GDP at that eps (gdp-to-dp: mu-GDP gives exactly this profile)"
        )
        basis = "rigorous lower bound and gdp-to-dp"
        if not _gdp_to_dp_covers(claim.mu):
            basis = "rigorous lower bound and a cited theorem"
            reason += (
                "; the claimed mu lies beyond gdp-to-dp's domain (mu <= 20), where the "
                "profile rests on Dong, Roth & Su's Corollary 2.13"
            )
        return Assessment(claim, comp, "refuted", basis, reason, (), lower, None, standings, extra)
    reason = (
        "no catalog theorem bounds this mechanism's trade-off by a Gaussian one, and no "
        f"lower bound exceeded {_g(claim.mu)}-GDP's profile (closest at eps = {_g(eb)}: "
        f"{_g(low.lower())} against {_g(cap.upper())})"
    )
    return Assessment(
        claim, comp, "inconclusive", "none", reason, (), lower, None, standings, extra
    )


def _gdp_to_dp_covers(mu: arb) -> bool:
    from derivations.accounting.catalog_bounds import _in_domain

    return _in_domain("gdp-to-dp", "mu", mu)


def _no_lower() -> LowerBound:
    return LowerBound(arb(0), None, "not needed")


def finite(x: arb | None) -> float | None:
    """A ball's float value for JSON, None for none."""
    if x is None:
        return None
    v = float(x.mid())
    return v if math.isfinite(v) else None
