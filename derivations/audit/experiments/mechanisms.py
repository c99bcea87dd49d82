"""Exact computations behind the definitions and the mechanisms of the seeds: the neighbour
relation, a mechanism that publishes records with probability delta, noise on integer-valued
queries, and the sensitivity of a count.

Each enumerates a finite family exhaustively, so a statement that holds is ``checked`` on
that family (its scope says which) and one that fails is ``refuted`` with the failing case
in ``point``; each has a knob (``cost``, ``factor``, ``bound``) that plants a mutant.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from math import prod
from typing import Any

import mpmath

from derivations.audit.experiments.base import Result, register
from numeric_checks.dp.laplace import hockey_stick, worst_privacy_loss
from symbolic.errors import InvalidInput
from symbolic.verdicts import Verdict

TOPIC = "exact computation"
Point = dict[str, Fraction]


def _witness(at: Point, shown: str) -> Result:
    where = ", ".join(f"{k} = {v}" for k, v in at.items())
    return Result(Verdict.REFUTED, "instance: a witness", f"at {where}: {shown}", at)


def _word(code: Fraction, n: Fraction, letters: int) -> tuple[int, ...]:
    """The word of length n over range(letters) whose digits in base ``letters`` are code."""
    c = int(code)
    return tuple(c // letters**i % letters for i in range(int(n)))


def _edit(a: tuple[int, ...], b: tuple[int, ...], cost: int) -> int:
    """Levenshtein distance with insertions and deletions 1, substitutions ``cost``."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + cost * (x != y))
    return row[-1]


def _edit_case(params: Mapping[str, Any], _: Any, at: Mapping[str, Fraction]) -> bool | None:
    letters, cost = int(params.get("letters", 3)), int(params.get("cost", 1))
    a, b = (_word(at[k], at["n"], letters) for k in ("x", "y"))
    return (sum(u != v for u, v in zip(a, b, strict=True)) == 1) == (_edit(a, b, cost) == 1)


@register("edit-distance-one", TOPIC, ("letters", "max_n", "cost"), _edit_case)
def edit_distance_one(params: Mapping[str, Any]) -> Result:
    """On X^n, edit distance 1 is the same relation as 'differ in one entry'."""
    letters, top = int(params.get("letters", 3)), int(params.get("max_n", 4))
    pairs = 0
    for n in range(1, top + 1):
        for x, y in itertools.product(range(letters**n), repeat=2):
            pairs += 1
            at = {"n": Fraction(n), "x": Fraction(x), "y": Fraction(y)}
            if not _edit_case(params, None, at):
                return _witness(at, "Hamming and edit distance 1 disagree")
    return Result(
        Verdict.CHECKED,
        f"instance: X^n with |X| = {letters}, n = 1..{top}, every ordered pair",
        f"all {pairs} ordered pairs: edit distance 1 exactly when one entry differs (an "
        "insertion or a deletion changes the length, so equal lengths need two)",
    )


def _release(x: Sequence[int], delta: Fraction) -> dict[tuple[tuple[int, int], ...], Fraction]:
    """The law of the records (index, value) published, each independently w.p. delta."""
    out: dict[tuple[tuple[int, int], ...], Fraction] = {}
    for mask in itertools.product((0, 1), repeat=len(x)):
        key = tuple((i, x[i]) for i, m in enumerate(mask) if m)
        out[key] = prod((delta if m else 1 - delta for m in mask), start=Fraction(1))
    return out


def _release_gap(at: Mapping[str, Fraction]) -> Fraction:
    """sup_S Pr[M(x) in S] - e^eps Pr[M(y) in S] for every eps >= 0: the mass of the outputs
    only x can produce (the others have equal probability), y = x with record j flipped."""
    j = int(at["j"])
    x = _word(at["x"], at["n"], 2)
    y = tuple(1 - v if i == j else v for i, v in enumerate(x))
    p, q = _release(x, at["delta"]), _release(y, at["delta"])
    if any(p[k] != q[k] for k in p if k in q):
        raise ArithmeticError("the shared outputs must have equal probability")
    return sum((v for k, v in p.items() if k not in q), Fraction(0))


def _release_case(params: Mapping[str, Any], _: Any, at: Mapping[str, Fraction]) -> bool:
    return _release_gap(at) <= Fraction(params.get("factor", 1)) * at["delta"]


@register("release-records", TOPIC, ("max_n", "factor"), _release_case)
def release_records(params: Mapping[str, Any]) -> Result:
    """Publishing each record with probability delta is (eps, delta)-DP for every eps >= 0,
    yet publishes n delta records on average."""
    top, cases = int(params.get("max_n", 3)), 0
    for n in range(1, top + 1):
        for delta in sorted({Fraction(1, 10), Fraction(1, n + 1), Fraction(1, n)}):
            for x, j in itertools.product(range(2**n), range(n)):
                at = {"n": Fraction(n), "delta": delta, "x": Fraction(x), "j": Fraction(j)}
                cases += 1
                if not _release_case(params, None, at):
                    return _witness(at, f"the outputs only x can give weigh {_release_gap(at)}")
    seen = 1 - (1 - Fraction(1, top)) ** top
    return Result(
        Verdict.CHECKED,
        f"instance: n = 1..{top}, delta 1/10, 1/(n+1), 1/n, every x in {{0,1}}^n, neighbour",
        f"exact (fractions), {cases} neighbouring pairs: the laws agree except on outputs "
        "naming the changed record, of probability exactly delta, so the mechanism is "
        f"(eps, delta)-DP for every eps >= 0 and publishes n delta records on average; at "
        f"n = {top}, delta = 1/{top} some record is published with probability {seen}",
    )


def _noise_dp(params: Mapping[str, Any], at: Mapping[str, Fraction]) -> tuple[bool, str]:
    """Whether the noise of ``params`` on the integer results fx, fy is eps-DP, and how."""
    fx, fy = at["fx"], at["fy"]
    if params.get("noise", "laplace") == "geometric":
        # Pr[k] = (1-a)/(1+a) a^|k|, a = e^-eps: the ratio of the laws at z; outside the
        # window it is constant.
        a = at["alpha"]
        window = range(int(min(fx, fy)) - 20, int(max(fx, fy)) + 21)
        worst = max(a ** (abs(z - fx) - abs(z - fy)) for z in window)
        ok = worst <= a ** -abs(fx - fy)
        return ok, f"largest ratio of the laws {worst} <= e^(eps |fx - fy|), e^-eps = {a}"
    with mpmath.workdps(30):
        eps = mpmath.mpf(at["eps"].numerator) / at["eps"].denominator
        x, y = int(fx), int(fy)
        b, tiny = abs(x - y) / eps, mpmath.mpf(10) ** -20
        gap = max(hockey_stick(x, y, b, eps), hockey_stick(y, x, b, eps))
        loss = max(worst_privacy_loss(x, y, b), worst_privacy_loss(y, x, b))
        ok = bool(gap < tiny and loss <= eps + tiny)
        shown = mpmath.nstr(gap, 3), mpmath.nstr(loss, 10)
    return ok, f"Laplace scale |fx - fy|/eps: hockey-stick {shown[0]}, worst loss {shown[1]}"


def _noise_case(params: Mapping[str, Any], _: Any, at: Mapping[str, Fraction]) -> bool:
    """The statement refuted: this noise on integer results is not eps-DP."""
    return not _noise_dp(params, at)[0]


@register("noise-on-integers", TOPIC, ("noise", "fx", "fy", "eps", "alpha"), _noise_case)
def noise_on_integers(params: Mapping[str, Any]) -> Result:
    """Noise on an integer-valued query (a count, fx and fy on neighbours) is eps-DP."""
    kind = params.get("noise", "laplace")
    if kind not in ("laplace", "geometric"):
        raise InvalidInput(f"noise is 'laplace' or 'geometric', got {kind!r}")
    rate = "alpha" if kind == "geometric" else "eps"
    at = {k: Fraction(params.get(k, d)) for k, d in (("fx", 3), ("fy", 4), (rate, "1/2"))}
    if any(v.denominator != 1 for v in (at["fx"], at["fy"])) or at["fx"] == at["fy"]:
        raise InvalidInput("fx and fy are two different integers")
    ok, how = _noise_dp(params, at)
    if not ok:
        return Result(Verdict.UNDECIDED, "instance: this example only", how)
    return _witness(at, f"{kind} noise on these integer results is eps-DP: {how}")


def _count_change(at: Mapping[str, Fraction]) -> int:
    """How much a count of A, B or C moves when person i of x changes to label ``new``
    (0 none, 1..3 a disease) or, with new = 4, leaves the data."""
    x, i, new = _word(at["x"], at["n"], 4), int(at["i"]), int(at["new"])
    y = x[:i] + x[i + 1 :] if new == 4 else (*x[:i], new, *x[i + 1 :])
    cx, cy = Counter(x), Counter(y)
    return max(abs(cx[d] - cy[d]) for d in (1, 2, 3))


def _count_case(params: Mapping[str, Any], _: Any, at: Mapping[str, Fraction]) -> bool:
    return _count_change(at) <= int(params.get("bound", 1))


@register("count-sensitivity", TOPIC, ("max_n", "bound"), _count_case)
def count_sensitivity(params: Mapping[str, Any]) -> Result:
    """Counts of three diseases move by at most 1 between neighbours (substitution of one
    person, the seed's relation, or removal of one)."""
    top, worst, pairs = int(params.get("max_n", 5)), 0, 0
    for n in range(1, top + 1):
        for x, i, new in itertools.product(range(4**n), range(n), range(5)):
            at = {k: Fraction(v) for k, v in (("n", n), ("x", x), ("i", i), ("new", new))}
            pairs += 1
            if not _count_case(params, None, at):
                return _witness(at, f"a count moves by {_count_change(at)}")
            worst = max(worst, _count_change(at))
    return Result(
        Verdict.CHECKED,
        f"instance: n = 1..{top} people, each with one of A, B, C or none",
        f"exhaustive over {pairs} changes of one person (substituted or removed): the "
        f"largest change of a count is {worst}",
    )
