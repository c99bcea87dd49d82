"""Upper bounds on delta(eps) evaluated from catalog derivations' own formulas, on Arb balls.

* Gaussian rounds: each is (Delta/sigma)-GDP (``gdp-gaussian-mechanism``, Dong, Roth & Su
  2022, Theorem 2.7), their composition is mu-GDP with mu^2 the sum of squares
  (``gdp-composition``, Corollary 3.3), and mu-GDP gives delta(eps) by ``gdp-to-dp``
  (Corollary 2.13): the formula evaluated is that derivation's right-hand side.
* Pure rounds (Laplace, randomized response): (sum eps_i, 0)-DP by ``basic-composition-k``
  (Dwork & Roth 2014, Corollary 3.15); and (eps', k d + delta')-DP by ``advanced-composition``
  (Theorem 3.20) with eps' the derivation's own definition ``eps_prime``, each round being
  (eps0, d)-DP for every d > 0 since it is (eps0, 0)-DP.

A catalog derivation proves its claim on its variables' domains only; a configuration outside
them (a composed mu above 20, more than 10,000 rounds for advanced composition) still gets the
bound, labelled as resting on the cited theorem, not on the catalog's proof.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import sympy as sp
from flint import arb

from derivations.catalog import get
from numeric_checks.accounting.mechanisms import Composition
from numeric_checks.arb import compile_arb


@dataclass(frozen=True)
class UpperBound:
    """One upper bound: ``delta`` a ball bounding delta(eps) at the claim's eps (its upper
    end is the bound), ``eps`` a ball bounding eps(delta) at the claim's delta; the catalog
    ids it rests on, the cited theorems (outside the catalog, or beyond a derivation's
    domain), and a note saying how it was applied."""

    name: str
    delta: arb | None
    eps: arb | None
    catalog: tuple[str, ...] = ()
    cited: tuple[str, ...] = ()
    note: str = ""
    curve: Callable[[float], float] | None = field(default=None, compare=False)


def _show(x: arb) -> str:
    return f"{float(x.mid()):.8g}"


def _variable(d_id: str, name: str) -> sp.Symbol:
    for v in get(d_id).variables:
        if v.name == name:
            return v.symbol
    raise KeyError(f"{d_id} has no variable {name}")


def _exactly(end: arb) -> sp.Rational:
    """An end of a ball (an exact binary number) as a SymPy rational, without rounding."""
    man, exp = end.mid().man_exp()
    return sp.Integer(int(man)) * sp.Integer(2) ** int(exp)


def _in_domain(d_id: str, name: str, value: arb) -> bool:
    """Whether every point of the ball ``value`` lies in the derivation's domain of
    ``name`` (both ends of the ball are tested exactly)."""
    for v in get(d_id).variables:
        if v.name == name:
            return bool(
                v.domain.contains(_exactly(value.lower()))
                and v.domain.contains(_exactly(value.upper()))
            )
    raise KeyError(f"{d_id} has no variable {name}")


@functools.lru_cache(maxsize=1)
def _gdp_profile() -> Callable[..., list[arb]]:
    d = get("gdp-to-dp")
    return compile_arb([_variable("gdp-to-dp", "mu"), _variable("gdp-to-dp", "eps")], [d.claim.rhs])


def gdp_delta(mu: arb, eps: arb) -> arb:
    """delta(eps) of mu-GDP: ``gdp-to-dp``'s right-hand side on balls."""
    return _gdp_profile()(mu, eps)[0]


def _solve_eps(
    profile: Callable[[arb], arb],
    delta: arb,
    hi: float = 400.0,
    guess: Callable[[float], float] | None = None,
) -> arb | None:
    """The smallest eps found (bisection, in floats by ``guess`` when given, the answer
    checked on balls) with profile(eps) <= delta; None when even ``hi`` does not do."""
    d = float(delta.mid())
    lo_e, hi_e = 0.0, hi
    if not profile(arb(hi_e)).upper() <= delta.lower():
        return None
    if profile(arb(0)).upper() <= delta.lower():
        return arb(0)
    for _ in range(80):
        mid = (lo_e + hi_e) / 2
        value = guess(mid) if guess is not None else float(profile(arb(mid)).mid())
        if value <= d:
            hi_e = mid
        else:
            lo_e = mid
    e = hi_e
    step = max(e * 1e-12, 1e-15)
    for _ in range(24):  # step outward, ever further, until the balls confirm it
        if e > hi:
            break
        if profile(arb(e)).upper() <= delta.lower():
            return arb(e)
        e, step = e + step, step * 4
    return None


EPS_END = 50
"""The upper end of gdp-to-dp's domain of eps."""


def gdp_bounds(comp: Composition, eps: arb, delta: arb | None) -> list[UpperBound]:
    """The GDP chain; beyond gdp-to-dp's domain of eps, both the catalog's bound at its end
    (eps = 50) and the corollary's value at eps itself, labelled as cited."""
    first = gdp_bound(comp, eps, delta)
    if eps.upper() <= EPS_END:
        return [first]
    beyond = gdp_bound(comp, eps, delta, clamp=False)
    return [first, replace(beyond, name="Gaussian DP at the claim's eps")]


def gdp_bound(comp: Composition, eps: arb, delta: arb | None, clamp: bool = True) -> UpperBound:
    """The GDP chain for unsampled Gaussian rounds."""
    mu = comp.gdp_mu()
    cited = []
    for r in comp.rounds:
        mi = r.mechanism.mu()
        if not _in_domain("gdp-gaussian-mechanism", "mu", mi):
            cited.append(
                f"Dong, Roth & Su 2022, Theorem 2.7 at Delta/sigma = {_show(mi)} "
                "(gdp-gaussian-mechanism is proved for mu in [1/1000, 20))"
            )
        if comp.steps > 1 and not _in_domain("gdp-composition", "mu", mi):
            cited.append(
                f"Dong, Roth & Su 2022, Corollary 3.3 at mu_i = {_show(mi)} "
                "(gdp-composition is proved for mu_i in [1/100, 10))"
            )
    # (eps', delta)-DP is (eps, delta)-DP for every eps >= eps' (the definition), so beyond
    # gdp-to-dp's domain of eps the bound at its end, eps = 50, still rests on the catalog.
    at = eps if eps.upper() <= EPS_END or not clamp else arb(EPS_END)
    if not _in_domain("gdp-to-dp", "mu", mu) or not _in_domain("gdp-to-dp", "eps", at):
        cited.append(
            f"Dong, Roth & Su 2022, Corollary 2.13 at mu = {_show(mu)}, eps = "
            f"{_show(at)} (gdp-to-dp is proved for mu in [1/1000, 20], eps in [0, 50])"
        )
    ids = (
        ("gdp-gaussian-mechanism",)
        + (("gdp-composition",) if comp.steps > 1 else ())
        + ("gdp-to-dp",)
    )
    found = None if delta is None else _solve_eps(lambda e: gdp_delta(mu, e), delta)
    note = f"the composition is mu-GDP with mu = {_show(mu)}"
    if at is not eps:
        note += f"; evaluated at eps = {EPS_END:g} (delta(eps) does not increase with eps)"
    if found is not None and found.upper() > EPS_END:
        note += (
            "; the eps bound lies beyond gdp-to-dp's domain (eps <= 50): there it rests on "
            "Dong, Roth & Su's Corollary 2.13"
        )
    return UpperBound(
        "Gaussian DP",
        gdp_delta(mu, at),
        found,
        ids,
        tuple(dict.fromkeys(cited)),
        note,
        curve=lambda e: float(gdp_delta(mu, arb(e)).upper()),
    )


def basic_bound(comp: Composition, eps: arb) -> UpperBound:
    """Basic composition of pure rounds: (sum eps_i, 0)-DP."""
    total = arb(0)
    for r in comp.rounds:
        total += r.steps * r.mechanism.pure_eps()
    holds = total.upper() <= eps.lower()
    laplace = any(r.mechanism.kind == "laplace" for r in comp.rounds)
    return UpperBound(
        "basic composition",
        arb(0) if holds else arb(1),
        total,
        (("laplace-ratio",) if laplace else ()) + ("basic-composition-k",),
        (),
        f"(eps, 0)-DP for eps >= {_show(total.upper())} (the sum of the rounds' eps0); "
        "below that it bounds nothing"
        + (
            "; for Laplace rounds the ratio bound is applied to output densities "
            "(laplace-ratio), as Dwork & Roth's Theorem 3.14 does"
            if laplace
            else ""
        ),
        curve=lambda e: 0.0 if e >= float(total.upper()) else 1.0,
    )


@functools.lru_cache(maxsize=1)
def _eps_prime() -> Callable[..., list[arb]]:
    d = get("advanced-composition")
    expr = next(value for sym, value in d.defs if sym.name == "eps_prime")
    args = [_variable("advanced-composition", n) for n in ("k", "eps", "delta_p")]
    # The defs' symbols may carry assumptions: map them by name onto the variables.
    by_name = {s.name: s for s in args}
    expr = expr.xreplace({s: by_name[s.name] for s in expr.free_symbols if s.name in by_name})
    return compile_arb(args, [expr])


SLACK = arb(2) ** -1000
"""The per-round delta d given to advanced composition for a pure round: (eps0, 0)-DP is
(eps0, d)-DP for every d > 0, and the theorem needs d > 0 in the catalog's domain."""


def advanced_bound(comp: Composition, eps: arb, delta: arb | None) -> UpperBound | None:
    """Advanced composition of k pure rounds, each eps0-DP with eps0 the largest round's."""
    eps0 = arb(0)
    for r in comp.rounds:
        e = r.mechanism.pure_eps()
        eps0 = e if e.upper() > eps0.upper() else eps0
    k = comp.steps
    cited = []
    if not (
        _in_domain("advanced-composition", "k", arb(k))
        and _in_domain("advanced-composition", "eps", eps0)
    ):
        cited.append(
            f"Dwork & Roth 2014, Theorem 3.20 at k = {k}, eps = {_show(eps0)} "
            "(advanced-composition is proved for k <= 10000, eps in (0, 2])"
        )
    fn = _eps_prime()
    slack = k * SLACK

    def delta_at(e: float) -> float:
        return float(_delta_at(arb(e)).upper())

    def _delta_at(e: arb) -> arb:
        # eps' = sqrt(2 k ln(1/delta')) eps0 + k eps0 (e^eps0 - 1) solved for delta'.
        room = float((e - k * eps0 * (eps0.exp() - 1)).mid())
        if room <= 0:
            return arb(1)
        e0 = float(eps0.mid())
        dp = math.exp(-(room**2) / (2 * k * e0 * e0)) * (1 + 1e-9)
        if not 0 < dp < 1:
            return arb(1)
        if not fn(arb(k), eps0, arb(dp))[0].upper() <= e.lower():
            return arb(1)
        return arb(dp) + slack

    at_eps = _delta_at(eps)
    eps_up = None
    if delta is not None and (delta - slack).lower() > 0 and (delta - slack).upper() < 1:
        eps_up = fn(arb(k), eps0, delta - slack)[0]
    if at_eps.upper() >= 1 and eps_up is None:
        return None
    return UpperBound(
        "advanced composition",
        at_eps,
        eps_up,
        ("advanced-composition",),
        tuple(cited),
        f"k = {k} rounds, each (eps0, 0)-DP with eps0 <= {_show(eps0.upper())}, hence "
        "(eps0, d)-DP for d = 2^-1000",
        curve=delta_at,
    )
