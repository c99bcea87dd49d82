"""The ``[certify]`` table of claim and proof files: the box certification works on.

```toml
[certify]
delta = ["1e-12", "1e-3"]   # a side of the box, inside the variable's domain
rho = [0.001, 10]
```

Each entry names a declared variable and gives two numbers (TOML numbers or decimal
strings, read exactly) ``lo < hi`` within its domain; variables not named keep the default
side (the domain's finite ends, open ends cut by 1e-6, infinite ends at +-5).  A positive
side spanning three decades or more is split on a log scale by the certifier, as ``delta``
needs.  The box changes only where certification looks, never what the claim says: the
verdict covers the box, and the report says which.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sympy as sp

from symbolic.domains import Variable
from symbolic.errors import InvalidInput

__all__ = ["certify_box"]


def certify_box(
    data: Mapping[str, Any], variables: tuple[Variable, ...], name: str
) -> dict[str, tuple[str, str]] | None:
    """The ``[certify]`` table as ``{variable: (lo, hi)}`` (decimal strings), or None when
    the file has none; raises :class:`InvalidInput` naming what is wrong."""
    if "certify" not in data:
        return None
    table = data["certify"]
    if not isinstance(table, dict):
        raise InvalidInput(f'{name}: [certify] must be a table, e.g. delta = ["1e-12", "1e-3"]')
    known = {v.name: v for v in variables}
    box: dict[str, tuple[str, str]] = {}
    for var_name, side in table.items():
        if var_name not in known:
            raise InvalidInput(
                f"{name}: [certify] names {var_name!r}, which is not a declared variable "
                f"(declared: {', '.join(sorted(known)) or 'none'})"
            )
        lo, hi = _side(side, var_name, name)
        _inside(known[var_name], lo, hi, name)
        box[var_name] = (_decimal(lo), _decimal(hi))
    return box


def _side(side: Any, var_name: str, name: str) -> tuple[sp.Rational, sp.Rational]:
    if not (isinstance(side, list) and len(side) == 2):
        raise InvalidInput(
            f"{name}: [certify] {var_name} must be two numbers [lo, hi], got {side!r}"
        )
    ends = []
    for end in side:
        if isinstance(end, bool) or not isinstance(end, int | float | str):
            raise InvalidInput(f"{name}: [certify] {var_name}: {end!r} is not a number")
        try:
            value = sp.Rational(str(end))
        except (TypeError, ValueError) as exc:
            raise InvalidInput(f"{name}: [certify] {var_name}: {end!r} is not a number") from exc
        if abs(value) > 10**100:
            raise InvalidInput(f"{name}: [certify] {var_name}: {end!r} is too large")
        ends.append(value)
    lo, hi = ends
    if not lo < hi:
        raise InvalidInput(
            f"{name}: [certify] {var_name}: need lo < hi, got [{side[0]}, {side[1]}]"
        )
    return lo, hi


def _inside(var: Variable, lo: sp.Rational, hi: sp.Rational, name: str) -> None:
    dom = var.domain
    below = lo < dom.lower or (lo == dom.lower and dom.lower_open)
    above = hi > dom.upper or (hi == dom.upper and dom.upper_open)
    if below or above:
        raise InvalidInput(
            f"{name}: [certify] {var.name} = [{_decimal(lo)}, {_decimal(hi)}] leaves its domain "
            f"{dom}; give a box inside it"
        )


def _decimal(value: sp.Rational) -> str:
    """An exact rational as a decimal string the certifier reads with ``float`` (which rounds
    it to the nearest double: the box's ends are binary, as every box's are)."""
    if value.q == 1:
        return str(value.p)
    return str(sp.Float(value, 30))
