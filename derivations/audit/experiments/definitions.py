"""Definitions checked against their uses (issue 44): a seed that defines a symbol and then
uses it must mean the same thing in both places.  :func:`definition_in_use` substitutes the
seed's own definition of a function (``Phi(x) := ...``) into a later use of that function and
compares the result with the use read with the standard meaning, with Arb at the given
points: a certain difference at a point inside the conventions refutes the pair (both sides
printed), agreement at every point is ``checked`` (numeric: the points are named in the
scope), never ``proved``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import sympy as sp
from flint import arb

from derivations.audit.experiments.base import Result, register
from numeric_checks.arb import compile_arb, precision, show
from symbolic.errors import InvalidInput
from symbolic.functions import Phi
from symbolic.readers.syntax import parse_expr, parse_number
from symbolic.verdicts import Verdict

__all__ = ["definition_in_use", "substituted"]

_BITS = 256
_FUNCTIONS: Mapping[str, Any] = {"Phi": Phi}
"""The functions a seed may (re)define, by the name its uses call them."""


def substituted(params: Mapping[str, Any]) -> tuple[list[sp.Symbol], sp.Expr, sp.Expr]:
    """The use with the seed's definition substituted, and the use as meant (the standard
    function), over the use's variables."""
    name, arg = params.get("name"), params.get("arg")
    if name not in _FUNCTIONS or not isinstance(arg, str):
        raise InvalidInput(f"definition-in-use: 'name' one of {sorted(_FUNCTIONS)}, 'arg' a name")
    variables = [str(v) for v in params.get("variables", ())]
    syms = {v: sp.Symbol(v, real=True) for v in variables}
    x = sp.Symbol(arg, real=True)
    body = parse_expr(str(params["definition"]), {**syms, arg: x})
    use = parse_expr(str(params["use"]), syms)
    seed_reading = use.replace(_FUNCTIONS[str(name)], sp.Lambda(x, body))
    return [syms[v] for v in variables], seed_reading, use


def _values(
    syms: Sequence[sp.Symbol], exprs: Sequence[sp.Expr], point: Mapping[str, Fraction]
) -> list[Any]:
    fn = compile_arb(list(syms), list(exprs))
    with precision(_BITS):
        return fn(*[arb(point[s.name].numerator) / point[s.name].denominator for s in syms])


def _point(raw: Mapping[str, Any]) -> dict[str, Fraction]:
    return {k: Fraction(str(parse_number(str(v)))) for k, v in raw.items()}


def _differs(params: Mapping[str, Any], point: Mapping[str, Fraction]) -> bool:
    syms, seed_reading, meant = substituted(params)
    at = {s: sp.Rational(point[s.name].numerator, point[s.name].denominator) for s in syms}
    gap = sp.N((seed_reading - meant).subs(at).rewrite(sp.erf).doit(), 60)
    return bool(abs(gap) > sp.Rational(1, 10**40))


@register(
    "definition-in-use",
    "exact computation",
    ("name", "arg", "definition", "use", "variables", "points"),
    lambda params, _, point: not _differs(params, point),
)
def definition_in_use(params: Mapping[str, Any]) -> Result:
    """The use with the seed's definition of ``name`` substituted equals the use with the
    standard ``name``, at each of ``points`` (refuted at the first certain difference)."""
    syms, seed_reading, meant = substituted(params)
    points = [_point(p) for p in params.get("points", ())]
    if not points:
        raise InvalidInput("definition-in-use: give at least one point")
    shown = []
    for p in points:
        mine, std = _values(syms, [seed_reading, meant], p)
        where = ", ".join(f"{k} = {v}" for k, v in p.items())
        line = f"at {where}: with the seed's definition {show(mine)}, as meant {show(std)}"
        if (mine - std) > 0 or (mine - std) < 0:
            return Result(
                Verdict.REFUTED,
                f"instance: at {where}",
                f"definition-in-use: {params['name']}({params['arg']}) := {params['definition']}"
                f" substituted into {params['use']} disagrees with the standard "
                f"{params['name']}: {line} (certain by Arb at {_BITS} bits)",
                point=p,
            )
        shown.append(line)
    return Result(
        Verdict.CHECKED,
        f"instance: at {len(points)} point(s)",
        "definition-in-use: the seed's definition agrees with the use: " + "; ".join(shown),
    )
