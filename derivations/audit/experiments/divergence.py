"""Finite-distribution facts about the KL divergence, the max divergence and the statistical
distance (Dwork & Roth 2014, section 3.5.1; seed 002).

Statements about every pair of laws join the search of
:mod:`derivations.audit.experiments.finite` (edge cases, Hypothesis draws, Arb decisions,
re-verified witnesses).  The repairs of Lemma 3.17 ("there is a Y'") are computed in exact
rationals for every pair of laws on 2 or 3 outcomes with weights 0..3, e^eps rational.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from derivations.audit.experiments import finite
from derivations.audit.experiments.base import Result, register
from numeric_checks.dp.finite_search import all_of, hockey, implies, kl, leq, lt, max_div, tv
from symbolic.verdicts import Verdict

Balls = Sequence[Sequence[Any]]
V = Mapping[str, Any]


def _sets(idx: Sequence[int], empty: bool = False) -> list[tuple[int, ...]]:
    return [s for k in range(1 - empty, len(idx) + 1) for s in itertools.combinations(idx, k)]


def _mass(p: Sequence[Any], s: Sequence[int]) -> Any:
    return sum((p[i] for i in s), 0 * p[0])


def _iff(a: bool | None, b: bool | None) -> bool | None:
    return None if a is None or b is None else a == b


def _approx_le(y: Sequence[Any], z: Sequence[Any], e: Any, dl: Any, printed: bool) -> Any:
    """D_inf^delta(Y||Z) <= eps by Definition 3.6 over nonempty S inside Supp(Y): as printed
    Pr[Y in S] >= delta and a zero denominator gives +oo; corrected Pr[Y in S] > delta."""
    out = []
    for s in _sets([i for i, a in enumerate(y) if a != 0]):
        py, pz = _mass(y, s), _mass(z, s)
        bound = False if printed and pz == 0 else leq(py - dl, e.exp() * pz)
        out.append(implies(leq(dl, py) if printed else lt(dl, py), bound))
    return all_of(*out)


def _events_le(p: Sequence[Any], q: Sequence[Any], e: Any, inside: bool) -> Any:
    """Pr[P in S] <= e^eps Pr[Q in S] on every nonempty S (inside Supp(P) if ``inside``)."""
    idx = [i for i, a in enumerate(p) if a != 0] if inside else range(len(p))
    return all_of(*(leq(_mass(p, s), e.exp() * _mass(q, s)) for s in _sets(idx)))


def _approx(printed: bool, both: bool) -> finite.Holds:
    def holds(d: Balls, v: V) -> bool | None:
        """Remark 3.1 (2): D_inf^delta <= eps iff (eps, delta)-close (one way or both)."""
        pairs = ((d[0], d[1]), (d[1], d[0]))[: 1 + both]
        close = all_of(*(leq(hockey(a, b, v["eps"]), v["delta"]) for a, b in pairs))
        div = all_of(*(_approx_le(a, b, v["eps"], v["delta"], printed) for a, b in pairs))
        return _iff(div, close)

    return holds


def _numerators(d: Balls, v: V) -> bool | None:
    """Pr[Y in S] - delta > 0 for every S inside Supp(Y), the empty one included, with
    Pr[Y in S] >= delta (Definition 3.6 as printed; delta = 0 is Definition 3.6 itself)."""
    masses = [_mass(d[0], s) for s in _sets([i for i, a in enumerate(d[0]) if a != 0], True)]
    return all_of(*(implies(leq(v["delta"], m), lt(v["delta"], m)) for m in masses))


def _remark_pure(d: Balls, v: V) -> bool | None:
    """Remark 3.1 (1): eps-DP on every event both ways iff both D_inf <= eps (by events)."""
    y, z, e = d[0], d[1], v["eps"]
    dp = all_of(_events_le(y, z, e, False), _events_le(z, y, e, False))
    return _iff(dp, all_of(_events_le(y, z, e, True), _events_le(z, y, e, True)))


def _distance(d: Balls, v: V) -> bool | None:
    """max over events |Pr[Y in S] - Pr[Z in S]| <= delta iff half the l1 norm is."""
    gaps = [abs(_mass(d[0], s) - _mass(d[1], s)) for s in _sets(range(len(d[0])))]
    return _iff(all_of(*(leq(g, v["delta"]) for g in gaps)), leq(tv(d[0], d[1]), v["delta"]))


def _lemma_3_17_1_if(d: Balls, v: V) -> bool | None:
    """Delta(Y, Y') <= delta and D_inf(Y'||Z) <= eps give D_inf^delta(Y||Z) <= eps."""
    premise = all_of(leq(tv(d[0], d[1]), v["delta"]), leq(max_div(d[1], d[2]), v["eps"]))
    return implies(premise, _approx_le(d[0], d[2], v["eps"], v["delta"], False))


def _display(reverse: bool) -> finite.Holds:
    def holds(d: Balls, _: V) -> bool | None:
        """As printed D_inf(A||B) = max_S ln(a_y/b_y), a term free of S: D_inf(A||B) would be
        at most ln(a_y/b_y) at every y with a_y b_y > 0."""
        a, b = (d[1], d[0]) if reverse else (d[0], d[1])
        logs = [(x / w).log() for x, w in zip(a, b, strict=True) if x != 0 and w != 0]
        return all_of(*(leq(max_div(a, b), t) for t in logs))

    return holds


def _display_corrected(d: Balls, v: V) -> bool | None:
    """D_inf(A||B) <= eps by Definition 3.6 (events) gives a_y <= e^eps b_y at every y."""
    f, pairs = v["eps"].exp(), ((d[0], d[1]), (d[1], d[0]))
    each = [all_of(*(leq(x, f * w) for x, w in zip(a, b, strict=True))) for a, b in pairs]
    return all_of(
        *(implies(_events_le(*p, v["eps"], True), e) for p, e in zip(pairs, each, strict=True))
    )


def _kl_positive(d: Balls, _: V) -> bool | None:
    """D(Y||Z) > 0 whenever Y and Z differ: equality only for equal laws."""
    return implies(lt(0, tv(d[0], d[1])), lt(0, kl(d[0], d[1])))


def _off_support(d: Balls, _: V) -> bool | None:
    off = any(a != 0 and b == 0 for a, b in zip(d[0], d[1], strict=True))
    return implies(off, not kl(d[0], d[1]).is_finite())


_SEARCHED: dict[str, tuple[str, int, Callable[[Balls, V], bool | None]]] = {
    "numerators-positive": ("numerator Pr[P1 in S] - delta > 0, S in Supp(P1)", 1, _numerators),
    "approx-max-div-printed": ("D_inf^delta(P1||P2) <= eps iff closeness", 2, _approx(True, False)),
    "approx-max-div-corrected": ("Definition 3.6 (> delta) as closeness", 2, _approx(False, False)),
    "remark-3-1-approx": ("Remark 3.1 (2), Definition 3.6 with > delta", 2, _approx(False, True)),
    "remark-3-1-pure": ("Remark 3.1 (1)", 2, _remark_pure),
    "statistical-distance-by-events": ("max over events = half the l1 norm", 2, _distance),
    "lemma-3-17-1-if": ("Lemma 3.17 (1), if", 3, _lemma_3_17_1_if),
    "max-display-zy": ("D_inf(P2||P1) <= ln(P2(y)/P1(y)), y in Supp(P1)", 2, _display(True)),
    "max-display-yz": ("D_inf(P1||P2) <= ln(P1(y)/P2(y)), y in Supp(P1)", 2, _display(False)),
    "max-display-corrected": ("D_inf <= eps gives ln(p_y/q_y) <= eps", 2, _display_corrected),
    "kl-zero-only-for-equal-laws": ("D(P1||P2) > 0 if P1 != P2", 2, _kl_positive),
    "kl-infinite-off-support": ("Supp(Y) not in Supp(Z) gives D = +oo", 2, _off_support),
}


def _fixed(h: finite.Holds) -> Callable[[Any], finite.Holds]:
    return lambda _combine: h  # the statements here take no combining rule


for _name, (_title, _arity, _holds) in _SEARCHED.items():
    finite.register_search(_name, _title, _arity, _fixed(_holds))


Dist = tuple[Fraction, ...]


def _excess(y: Dist, z: Dist, r: Fraction) -> Fraction:
    """The least delta with Pr[Y in S] <= r Pr[Z in S] + delta on every event S."""
    return sum((max(Fraction(0), a - r * b) for a, b in zip(y, z, strict=True)), Fraction(0))


def _repair(y: Dist, z: Dist, r: Fraction, two: bool) -> tuple[Dist, Dist]:
    """One-sided: Y' = min(Y, r Z) plus the removed mass spread over the room r Z - that.
    Two-sided: move each excess over the ratio r, split r : 1 between the laws, then restore
    the sums in proportion to the room r Z' - Y' (the larger excess on Y's side)."""
    if two and _excess(y, z, r) < _excess(z, y, r):
        return _repair(z, y, r, True)[::-1]
    y1, z1 = [min(a, r * b) for a, b in zip(y, z, strict=True)], list(z)
    for i, (a, b) in enumerate(zip(y, z, strict=True) if two else ()):
        move = (a - r * b) / (r + 1) if a > r * b else (r * a - b) / (r + 1) if b > r * a else 0
        y1[i], z1[i] = a - move, b + move
    room, gap = [r * b - a for a, b in zip(y1, z1, strict=True)], 1 - sum(y1)
    out = [
        [x + sign * gap * s / (sum(room) or 1) for x, s in zip(w, room, strict=True)]
        for w, sign in ((y1, 1), (z1, -two))
    ]
    return tuple(out[0]), tuple(out[1])


@register("lemma-3-17-repair", "exact computation", ("two_sided",))
def lemma_3_17_repair(params: V) -> Result:
    """Lemma 3.17, "only if", at the least delta with D_inf^delta(Y||Z) <= eps (two-sided: and
    D_inf^delta(Z||Y) <= eps): the repaired Y' (and Z') lie within delta (delta/(e^eps + 1))
    of Y (and Z), with Pr[Y'=y] <= e^eps Pr[Z'=y] at every y (two-sided: and conversely)."""
    two, cases = bool(params.get("two_sided", False)), 0
    ws = [w for n in (2, 3) for w in itertools.product(range(4), repeat=n) if any(w)]
    laws = [tuple(Fraction(x, sum(w)) for x in w) for w in ws]
    for y, z, r in itertools.product(laws, laws, map(Fraction, ("1", "3/2", "2", "4"))):
        if len(y) != len(z):
            continue
        cases += 1
        share = max(_excess(y, z, r), _excess(z, y, r)) / (r + 1) if two else _excess(y, z, r)
        y1, z1 = _repair(y, z, r, two)
        near = [
            sum(abs(a - b) for a, b in zip(*p, strict=True)) <= 2 * share
            for p in ((y, y1), (z, z1))
        ]
        ratio = [a <= r * b and (b <= r * a or not two) for a, b in zip(y1, z1, strict=True)]
        if not (min(y1 + z1) >= 0 and sum(y1) == sum(z1) == 1 and all(near + ratio)):
            shown = f"Y = {y}, Z = {z}, e^eps = {r}: Y' = {y1}, Z' = {z1}"
            return Result(Verdict.UNDECIDED, "instance", f"the repair fails at {shown}")
    scope = "instance: every pair of laws on 2 or 3 outcomes, weights 0..3, e^eps in {1, 3/2, 2, 4}"
    return Result(Verdict.CHECKED, scope, f"{cases} exact cases: the repaired laws are as stated")
