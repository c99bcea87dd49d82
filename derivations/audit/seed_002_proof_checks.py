"""Seed 002, the checks of the displays of Lemma 3.18's proof and of the translator's
supplement: exact rationals, SymPy, and the finite-distribution search on Arb balls."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy as sp

from derivations.audit.seed_002_tools import (
    Balls,
    Dist,
    Params,
    mass,
    max_ratio,
    max_ratio_events,
    pairs,
    searched,
    show,
    tv,
)
from numeric_checks.dp.finite_search import all_of, kl, leq, lt, max_div
from numeric_checks.dp.finite_search import tv as tv_arb
from symbolic.audit import Outcome

__all__ = [
    "check_abs_step_as_justified",
    "check_abs_step_both",
    "check_case_y_greater",
    "check_max_below_e_eps_min",
    "check_max_display",
    "check_max_display_corrected",
    "check_max_minus_min",
    "check_regroup_as_printed",
    "check_regroup_bracketed",
]


def _display_pair() -> tuple[tuple[sp.Rational, ...], tuple[sp.Rational, ...]]:
    return (
        (sp.Rational(1, 2), sp.Rational(1, 4), sp.Rational(1, 4)),
        (sp.Rational(1, 4), sp.Rational(1, 4), sp.Rational(1, 2)),
    )


def check_regroup_as_printed() -> Outcome:
    """The proof's second line with the sum binding its first product only (y free in the
    second): for Y = (1/2, 1/4, 1/4), Z = (1/4, 1/4, 1/2) no value of the free y makes it
    equal to D(Y||Z) + D(Z||Y)."""
    p, q = _display_pair()
    left = sum(a * sp.log(a / b) + b * sp.log(b / a) for a, b in zip(p, q, strict=True))
    summed = sum(a * (sp.log(a / b) + sp.log(b / a)) for a, b in zip(p, q, strict=True))
    free = [sp.nsimplify(summed) + (b - a) * sp.log(b / a) for a, b in zip(p, q, strict=True)]
    gaps = [sp.N(left - f, 20) for f in free]
    return Outcome(
        all(abs(g) < 1e-15 for g in gaps),
        f"D(Y||Z) + D(Z||Y) = {sp.N(left, 10)}; the printed line is {sp.nsimplify(summed)} + "
        f"(Pr[Z=y] - Pr[Y=y]) ln(Pr[Z=y]/Pr[Y=y]) = {[str(sp.N(f, 10)) for f in free]} for "
        "y = y1, y2, y3",
    )


def check_regroup_bracketed() -> Outcome:
    """With the bracket of the supplement the line is an identity (three outcomes, symbolic)."""
    p = sp.symbols("p1:4", positive=True)
    q = sp.symbols("q1:4", positive=True)
    left = sum(a * sp.log(a / b) + b * sp.log(b / a) for a, b in zip(p, q, strict=True))
    right = sum(
        a * (sp.log(a / b) + sp.log(b / a)) + (b - a) * sp.log(b / a)
        for a, b in zip(p, q, strict=True)
    )
    residual = sp.expand(left - right)
    return Outcome(residual == 0, f"residual after expand: {residual}")


def check_max_display(*, reverse: bool) -> Outcome:
    """The supplement's displays D_inf(Z||Y) = max_{S in Supp(Y)}[ln Pr[Z=y]/Pr[Y=y]]
    (``reverse``) and D_inf(Y||Z) = max_{S in Supp(Y)}[ln Pr[Y=y]/Pr[Z=y]]: the maximand does
    not depend on S, so the right side is one outcome's log-ratio; and with the maximand
    read as ln Pr[Z in S]/Pr[Y in S], Supp(Y) is the wrong range for D_inf(Z||Y)."""
    y = (Fraction(1, 2), Fraction(1, 2))
    z = (Fraction(1, 4), Fraction(3, 4))
    a, b = (z, y) if reverse else (y, z)
    true_value = max_ratio_events(a, b)
    outcome_ratios = [x / w for x, w in zip(a, b, strict=True)]
    detail = (
        f"Y = {show(y)}, Z = {show(z)}: e^(D_inf) = {true_value}, but the printed maximand "
        f"gives {[str(v) for v in outcome_ratios]} at y = y1, y2"
    )
    wrong = any(v != true_value for v in outcome_ratios)
    if reverse:
        y2, z2 = (Fraction(1), Fraction(0)), (Fraction(1, 2), Fraction(1, 2))
        over_supp_y = mass(z2, (0,)) / mass(y2, (0,))  # Supp(Y) = {y1}: the only event
        detail += (
            f"; read over events, Y = {show(y2)}, Z = {show(z2)}: D_inf(Z||Y) = +oo "
            f"(e^(D_inf) = {max_ratio_events(z2, y2)}, None meaning +oo) while the max over "
            f"S in Supp(Y) = {{y1}} is ln {over_supp_y}"
        )
    return Outcome(not wrong, detail)


def check_max_display_corrected() -> Outcome:
    """ln(Pr[Y=y]/Pr[Z=y]) <= D_inf(Y||Z) for every y in Supp(Y) (take S = {y}), both
    directions, on exact rational pairs."""
    checked = 0
    for y, z in pairs(13, 300):
        for a, b in ((y, z), (z, y)):
            top = max_ratio_events(a, b)
            for i in range(len(a)):
                if a[i] > 0 and top is not None and (b[i] == 0 or a[i] / b[i] > top):
                    return Outcome(False, f"P = {show(a)}, Q = {show(b)}, y{i + 1}")
                checked += a[i] > 0
    return Outcome(True, f"{checked} outcomes of 300 exact pairs, both directions")


def _jeffreys(d: Balls) -> Any:
    return kl(d[0], d[1]) + kl(d[1], d[0])


def _abs_step(both: bool) -> Outcome:
    def premise(d: Balls, p: Params) -> bool | None:
        back = leq(max_div(d[1], d[0]), p["eps"])
        return all_of(back, leq(max_div(d[0], d[1]), p["eps"])) if both else back

    def conclusion(d: Balls, p: Params) -> bool | None:
        return leq(_jeffreys(d), 2 * tv_arb(d[0], d[1]) * p["eps"])

    def values(dists: tuple[Dist, ...], params: dict[str, Fraction]) -> str:
        y, z = dists
        if all(a * b > 0 for a, b in zip(y, z, strict=True)):
            terms = [
                (a - b) * sp.log(sp.Rational(a) / sp.Rational(b)) for a, b in zip(y, z, strict=True)
            ]
            left = f"{sp.N(sp.Add(*terms), 8)}"
        else:
            left = "+oo"
        right = 2 * tv(y, z) * params["eps"]
        return (
            f"sum (q - p) ln(q/p) = D(Y||Z) + D(Z||Y) = {left} vs sum |q - p| eps = "
            f"{float(right):.8g}; e^(D_inf(Z||Y)) = {max_ratio(z, y)}, e^(D_inf(Y||Z)) = "
            f"{max_ratio(y, z)} (None: +oo)"
        )

    return searched(
        "sum (q - p) ln(q/p) <= sum |q - p| eps",
        2,
        conclusion,
        premise=premise,
        params={"eps": (Fraction(0), Fraction(3))},
        values=values,  # type: ignore[arg-type]
    )


def check_abs_step_as_justified() -> Outcome:
    """The supplement's step from ln(Pr[Z=y]/Pr[Y=y]) <= eps (D_inf(Z||Y) <= eps) and
    "a difference is at most its absolute value" to sum (q - p) ln(q/p) <= sum |q - p| eps:
    the search, and a pair with finite divergences, Y = (1/2, 1/2), Z = (9/10, 1/10),
    eps = ln(9/5) = D_inf(Z||Y)."""
    found = _abs_step(both=False)
    y, z = (sp.Rational(1, 2), sp.Rational(1, 2)), (sp.Rational(9, 10), sp.Rational(1, 10))
    eps = sp.log(sp.Rational(9, 5))
    cited = max(b / a for a, b in zip(y, z, strict=True))
    left = sp.Add(*[(b - a) * sp.log(b / a) for a, b in zip(y, z, strict=True)])
    right = sp.Add(*[abs(b - a) for a, b in zip(y, z, strict=True)]) * eps
    gap = sp.N(left - right, 30)
    finite = (
        f"; finite pair Y = (1/2, 1/2), Z = (9/10, 1/10), eps = ln(9/5) (e^(D_inf(Z||Y)) = "
        f"{cited}, e^(D_inf(Y||Z)) = 5): sum (q - p) ln(q/p) = {sp.N(left, 8)} > "
        f"sum |q - p| eps = {sp.N(right, 8)}, and already D(Y||Z) = "
        f"{sp.N(sum(a * sp.log(a / b) for a, b in zip(y, z, strict=True)), 8)} > it"
    )
    holds = None if found.holds is None else bool(found.holds) and not bool(gap > 0)
    return Outcome(holds, found.detail + finite)


def check_abs_step_both() -> Outcome:
    """The same step with both max-divergence hypotheses, |ln(q/p)| <= eps."""
    return _abs_step(both=True)


def check_max_minus_min() -> Outcome:
    """max{f, g} - min{f, g} = |f - g| for real f, g (SymPy, through Piecewise)."""
    f, g = sp.symbols("f g", real=True)
    residual = sp.simplify((sp.Max(f, g) - sp.Min(f, g) - sp.Abs(f - g)).rewrite(sp.Piecewise))
    return Outcome(residual == 0, f"residual {residual}")


def check_case_y_greater() -> Outcome:
    """D_inf(Y||Z) <= eps gives, at every y with Pr[Y=y] > Pr[Z=y],
    max{Pr[Y=y], Pr[Z=y]} = Pr[Y=y] <= e^eps Pr[Z=y]."""

    def premise(d: Balls, p: Params) -> bool | None:
        return leq(max_div(d[0], d[1]), p["eps"])

    def conclusion(d: Balls, p: Params) -> bool | None:
        factor = p["eps"].exp()
        return all_of(
            *(leq(a, factor * b) for a, b in zip(d[0], d[1], strict=True) if lt(b, a) is True)
        )

    return searched(
        "case Pr[Y=y] > Pr[Z=y]",
        2,
        conclusion,
        premise=premise,
        params={"eps": (Fraction(0), Fraction(3))},
    )


def check_max_below_e_eps_min() -> Outcome:
    """Both max divergences <= eps give max{p, q} <= e^eps min{p, q} at every outcome."""

    def premise(d: Balls, p: Params) -> bool | None:
        return all_of(leq(max_div(d[0], d[1]), p["eps"]), leq(max_div(d[1], d[0]), p["eps"]))

    def conclusion(d: Balls, p: Params) -> bool | None:
        factor = p["eps"].exp()
        return all_of(*(leq(a.max(b), factor * a.min(b)) for a, b in zip(d[0], d[1], strict=True)))

    return searched(
        "max <= e^eps min",
        2,
        conclusion,
        premise=premise,
        params={"eps": (Fraction(0), Fraction(3))},
    )
