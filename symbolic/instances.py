"""A derivation about families at fixed lengths: the instance the numeric layers check.

A derivation over ``p[1], ..., p[n]`` states something for every ``n`` in its length
variable's domain.  Its instance at ``n = 3`` is an ordinary derivation over the plain
variables ``p_1, p_2, p_3`` (each with the family's domain), with every Sum, Product and
"for all" hypothesis written out (:func:`symbolic.families.instantiate`).  Checking the
instance says nothing about other lengths: it is how a general statement is sampled, never
how it is proved.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import sympy as sp

from symbolic.derivation import Claim, Derivation, Step
from symbolic.domains import Variable
from symbolic.errors import DpderiveError, InvalidInput
from symbolic.families import MAX_INSTANCE_LENGTH, instantiate, instantiate_hypotheses

__all__ = [
    "OutsideHypotheses",
    "family_variables",
    "instance_id",
    "instantiate_derivation",
    "length_variables",
]


class OutsideHypotheses(DpderiveError):
    """The lengths asked for make a hypothesis false (``n >= 2`` at ``n = 1``): the
    statement says nothing there, so that instance is skipped, not checked."""


def family_variables(d: Derivation) -> tuple[Variable, ...]:
    return tuple(v for v in d.variables if v.family is not None)


def length_variables(d: Derivation) -> tuple[Variable, ...]:
    """The declared variables that a family's index range depends on (``n``), in order."""
    used = {s for v in family_variables(d) for s in v.family.lengths}  # type: ignore[union-attr]
    return tuple(v for v in d.variables if v.family is None and v.symbol in used)


def instance_id(d: Derivation, lengths: Mapping[str, int]) -> str:
    where = ",".join(f"{k}={v}" for k, v in lengths.items())
    return f"{d.id}@{where}" if where else d.id


def instantiate_derivation(d: Derivation, lengths: Mapping[str, int]) -> Derivation:
    """``d`` at the given lengths (length variable name -> value).

    Length variables are substituted and dropped; each family variable becomes its element
    variables ``p_1 .. p_n`` (the family's domain, LaTeX name ``p_{1}``); hypotheses are
    flattened (a "for all" becomes one hypothesis per index), definitions, claim and steps
    written out.  The oracle is kept (it receives the instance's point, names ``p_1``, ...).
    The id is ``<id>@n=3``.  Raises :class:`OutsideHypotheses` when a hypothesis on the
    lengths is false there, :class:`InvalidInput` for a length outside its domain or longer
    than :data:`~symbolic.families.MAX_INSTANCE_LENGTH`."""
    by_name = {v.name: v for v in length_variables(d)}
    unknown = set(lengths) - set(by_name)
    if unknown:
        raise InvalidInput(f"{d.id}: {sorted(unknown)} are not lengths of its families")
    missing = set(by_name) - set(lengths)
    if missing:
        raise InvalidInput(f"{d.id}: no value given for the length(s) {sorted(missing)}")
    at: dict[sp.Symbol, int] = {}
    for name, value in lengths.items():
        var = by_name[name]
        if not var.domain.contains(sp.Integer(value)):
            raise InvalidInput(f"{d.id}: {name} = {value} is outside its domain {var.domain}")
        at[var.symbol] = int(value)
    variables: list[Variable] = []
    for v in d.variables:
        if v.symbol in at:
            continue
        if v.family is None:
            variables.append(v)
            continue
        variables += _elements(v, at)
    hypotheses: list[sp.Basic] = []
    for h in instantiate_hypotheses(d.hypotheses, at):
        if h is sp.true:
            continue
        if h is sp.false:
            raise OutsideHypotheses(
                f"{d.id}: a hypothesis is false at "
                + ", ".join(f"{k} = {v}" for k, v in lengths.items())
            )
        hypotheses.append(h)
    defs = tuple((sym, instantiate(value, at)) for sym, value in d.defs)
    claim = Claim(instantiate(d.claim.lhs, at), d.claim.relation, instantiate(d.claim.rhs, at))
    steps = tuple(
        Step(s.relation, instantiate(s.expr, at), s.justification, "", s.line) for s in d.steps
    )
    names = {v.name for v in variables}
    box = None
    if d.checking.certify_box is not None:
        box = {k: v for k, v in d.checking.certify_box.items() if k in names}
    induction = d.induction
    if induction is not None and induction.variable not in names:
        induction = None
    points = None
    if d.checking.instance_points is not None:
        generator = d.checking.instance_points
        fixed = dict(lengths)
        points = lambda rng, dps: generator(rng, dps, fixed)  # noqa: E731
    _check_elements(d, lengths, variables, [*hypotheses, *(v for _, v in defs)], claim, steps)
    return d.replace(
        id=instance_id(d, lengths),
        variables=tuple(variables),
        hypotheses=tuple(hypotheses),
        defs=defs,
        claim=claim,
        steps=steps,
        induction=induction,
        lhs_source="",
        checking=dataclasses.replace(
            d.checking, certify_box=box, points=points, instance_points=None
        ),
    )


def _elements(v: Variable, lengths: Mapping[sp.Symbol, int]) -> list[Variable]:
    at = {s: sp.Integer(k) for s, k in lengths.items()}
    family = v.family
    assert family is not None
    ranges = [(family.lower, family.upper)]
    if family.second is not None:
        ranges.append((sp.sympify(family.second[1]), sp.sympify(family.second[2])))
    spans: list[range] = []
    for lo, hi in ranges:
        lo_v, hi_v = sp.sympify(lo).xreplace(at), sp.sympify(hi).xreplace(at)
        if not (lo_v.is_Integer and hi_v.is_Integer):
            raise InvalidInput(f"the range of {v.name} is not numeric at {dict(at)}")
        if int(hi_v) - int(lo_v) + 1 > MAX_INSTANCE_LENGTH:
            raise InvalidInput(
                f"the family {v.name} has {int(hi_v) - int(lo_v) + 1} elements"
                + (f" at {', '.join(f'{k} = {x}' for k, x in at.items())}" if at else "")
                + f" (at most {MAX_INSTANCE_LENGTH} are written out in an instance)"
            )
        spans.append(range(int(lo_v), int(hi_v) + 1))
    latex = v.latex_name or v.name
    out: list[Variable] = []
    if len(spans) == 1:
        for k in spans[0]:
            out.append(
                Variable(f"{v.name}_{k}", v.domain, v.meaning, latex_name=f"{latex}_{{{k}}}")
            )
    else:
        for k in spans[0]:
            for m in spans[1]:
                out.append(
                    Variable(
                        f"{v.name}_{k}_{m}",
                        v.domain,
                        v.meaning,
                        latex_name=f"{latex}_{{{k},{m}}}",
                    )
                )
    return out


def _check_elements(
    d: Derivation,
    lengths: Mapping[str, int],
    variables: list[Variable],
    exprs: list[sp.Basic],
    claim: Claim,
    steps: tuple[Step, ...],
) -> None:
    """Refuse an element that does not exist at these lengths (``Sum(p[i], (i, 1, 3))``
    with p of length n, at n = 1): the statement is not well formed there, which the
    general check could not decide."""
    declared = {v.name for v in variables} | {s.name for s, _ in d.defs}
    families = [v.name for v in d.variables if v.family is not None]
    at = ", ".join(f"{k} = {v}" for k, v in lengths.items())
    for expr in [*exprs, claim.lhs, claim.rhs, *(s.expr for s in steps)]:
        for s in sp.sympify(expr).free_symbols:
            name = getattr(s, "name", "")
            if name in declared:
                continue
            owner = next((f for f in families if name.startswith(f + "_")), None)
            if owner is not None:
                element = f"{owner}[{name[len(owner) + 1 :].replace('_', ', ')}]"
                raise InvalidInput(
                    f"{d.id}: the element {element} does not exist at {at} (the family "
                    f"{owner} is indexed by {_family_range(d, owner)}): keep sums and indices "
                    "inside the family's range, or add a hypothesis on the length"
                )


def _family_range(d: Derivation, name: str) -> str:
    (v,) = [v for v in d.variables if v.name == name]
    assert v.family is not None
    return v.family.range_text()
