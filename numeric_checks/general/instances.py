"""Instances of a derivation over families: which lengths, their plans, and how they are shown.

See :mod:`numeric_checks.general` for how instances enter a verdict (they never prove).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import sympy as sp

from numeric_checks.general.sampling import family_generator
from numeric_checks.plan import CheckOptions, CheckPlan, make_plan
from symbolic.derivation import Derivation
from symbolic.errors import EmptyDomain
from symbolic.families import MAX_INSTANCE_LENGTH
from symbolic.instances import family_variables, instantiate_derivation, length_variables
from symbolic.report import OracleResult, StepResult

__all__ = [
    "INSTANCE_LENGTHS",
    "Instance",
    "covered",
    "family_table",
    "instance_lengths",
    "instance_options",
    "instance_plan",
    "merged_oracle",
    "where",
]

INSTANCE_LENGTHS = (1, 2, 3, 4, 5, 6, 7, 8, 12, 20, 40)
"""Lengths tried, as offsets from the smallest length of the domain (1 for ``Z>=1``)."""

MIN_INSTANCE_POINTS = 12


def instance_lengths(d: Derivation) -> list[dict[str, int]]:
    """The lengths at which ``d`` is checked numerically: for each length variable, its
    domain's smallest value ``s`` and ``s + 1 .. s + 7``, then ``s + 11, s + 19, s + 39``
    (inside the domain, at most :data:`MAX_INSTANCE_LENGTH`); several length variables move
    together, plus a few unequal pairs."""
    variables = length_variables(d)
    if not variables:
        return [{}]
    per: list[list[int]] = []
    for v in variables:
        start = int(v.domain.lower) if v.domain.lower.is_finite else 1
        start = max(start, 0)
        values = [start + k - 1 for k in INSTANCE_LENGTHS]
        values = [
            k for k in values if k <= MAX_INSTANCE_LENGTH and v.domain.contains(sp.Integer(k))
        ]
        per.append(values)
    longest = max(len(p) for p in per)
    out = [
        {v.name: p[min(k, len(p) - 1)] for v, p in zip(variables, per, strict=True)}
        for k in range(longest)
        if all(p for p in per)
    ]
    if len(variables) > 1 and all(len(p) > 3 for p in per):
        pairs = list(enumerate(zip(variables, per, strict=True)))
        out += [{v.name: p[(1 + 2 * m) % 4] for m, (v, p) in pairs}]
        out += [{v.name: p[(3 - 2 * m) % 4] for m, (v, p) in pairs}]
    unique: list[dict[str, int]] = []
    for lengths in out:
        if lengths not in unique and elements(d, lengths) <= MAX_INSTANCE_LENGTH:
            unique.append(lengths)
    return unique


def elements(d: Derivation, lengths: Mapping[str, int]) -> int:
    """How many plain variables the families become at ``lengths`` (two-index families
    grow as n * m: an instance stays below :data:`MAX_INSTANCE_LENGTH` of them in all)."""
    at = {v.symbol: sp.Integer(lengths[v.name]) for v in length_variables(d)}
    total = 0
    for v in family_variables(d):
        assert v.family is not None
        ranges = [(v.family.lower, v.family.upper)]
        if v.family.second is not None:
            ranges.append((sp.sympify(v.family.second[1]), sp.sympify(v.family.second[2])))
        size = 1
        for lo, hi in ranges:
            size *= max(int(sp.sympify(hi).xreplace(at)) - int(sp.sympify(lo).xreplace(at)) + 1, 0)
        total += size
    return total


@dataclass(frozen=True)
class Instance:
    lengths: Mapping[str, int]
    steps: tuple[StepResult, ...]
    conclusion: StepResult
    points: int
    oracle: OracleResult | None = None


def instance_options(options: CheckOptions, count: int) -> CheckOptions:
    """Fewer points and a shorter search per instance (the points are split across the
    lengths); no symbolic proof and no certificate of an instance: neither would be a proof
    of the statement."""
    return dataclasses.replace(
        options,
        points=max(MIN_INSTANCE_POINTS, options.points // max(count, 1)),
        search_budget=max(30, options.search_budget // max(count, 1)),
        symbolic=False,
        certify=False,
        min_points=1,  # the minimum applies to all the lengths together (general.combine)
    )


def instance_plan(d: Derivation, lengths: Mapping[str, int], options: CheckOptions) -> CheckPlan:
    """The plan of ``d``'s instance at ``lengths``, its points drawn by the family sampler
    (or ``d.instance_points``); generic rejection sampling when the sampler's points all
    fail the hypotheses.  Raises OutsideHypotheses / EmptyDomain when the instance is empty."""
    instance = instantiate_derivation(d, lengths)
    if instance.points is None:
        generated = instance.replace(points=family_generator(d, lengths, options.points))
        try:
            return make_plan(generated, options)
        except EmptyDomain:
            pass
    return make_plan(instance, options)


def where(lengths: Mapping[str, object]) -> str:
    return ", ".join(f"{k} = {v}" for k, v in lengths.items()) or "the given lengths"


def covered(instances: Sequence[Instance]) -> str:
    """The lengths checked, compactly: ``n = 1..8, 12, 20, 40``."""
    if not instances:
        return "no length"
    names = list(instances[0].lengths)
    if len(names) != 1:
        return "; ".join(f"({where(i.lengths)})" for i in instances)
    values = [i.lengths[names[0]] for i in instances]
    parts: list[str] = []
    run: list[int] = []
    for v in values:
        if run and v == run[-1] + 1:
            run.append(v)
            continue
        if run:
            parts.append(_run(run))
        run = [v]
    parts.append(_run(run))
    return f"{names[0]} = {', '.join(parts)}"


def _run(run: list[int]) -> str:
    if len(run) >= 3:
        return f"{run[0]}..{run[-1]}"
    return ", ".join(map(str, run))


_ELEMENT = re.compile(r"^(?P<name>[^\W\d]\w*?)_(?P<k>\d+)(?:_(?P<m>\d+))?$")
"""An element's plain name in an instance: ``p_3``, ``w_1_2``."""


def family_table(lengths: Mapping[str, int], point: Mapping[str, str]) -> str:
    """The families of a counterexample as a table, one row per index:
    ``i | p_i | q_i``."""
    names: dict[str, dict[str, str]] = {}
    for key, value in point.items():
        m = _ELEMENT.match(key)
        if m is not None:
            at = m["k"] if m["m"] is None else f"{m['k']},{m['m']}"
            names.setdefault(m["name"], {})[at] = value
    if not names:
        return ""
    columns = sorted(names)
    rows = sorted(
        {k for c in columns for k in names[c]}, key=lambda k: [int(x) for x in k.split(",")]
    )
    scalars = {k: v for k, v in point.items() if not _ELEMENT.match(k) and k not in lengths}
    width = max(len(v) for c in columns for v in names[c].values())
    two = any("," in k for k in rows)
    label, sub = ("i,j", "_ij") if two else ("i", "_i")
    head = f"  {label:>5} | " + " | ".join(f"{c + sub:<{width}}" for c in columns)
    lines = [f"the families at {where(lengths)}" + (f" ({where(scalars)})" if scalars else "")]
    lines.append(head)
    for k in rows:
        cells = " | ".join(f"{names[c].get(k, ''):<{width}}" for c in columns)
        lines.append(f"  {k:>5} | {cells}")
    return "\n".join(lines)


def merged_oracle(instances: Sequence[Instance]) -> OracleResult | None:
    """The oracle's findings over the instances: the first disagreement, else the sum."""
    ran = [(i, i.oracle) for i in instances if i.oracle is not None]
    if not ran:
        return None
    for inst, o in ran:
        if o.agrees is False:
            return dataclasses.replace(o, detail=f"at {where(inst.lengths)}: {o.detail}")
    first = ran[0][1]
    agreed = sum(o.points for _, o in ran)
    detail = "; ".join(f"{where(i.lengths)}: {o.detail}" for i, o in ran)
    suspect = next((f"at {where(i.lengths)}: {o.suspect}" for i, o in ran if o.suspect), "")
    agrees = True if any(o.agrees for _, o in ran) and not suspect else None
    return OracleResult(first.name, first.description, agrees, agreed, detail, suspect=suspect)
