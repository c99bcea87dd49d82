"""Account files: a mechanism, its composition and a claimed guarantee, in TOML
(``dpderive account FILE.toml``; the format is a public interface, see README.md)::

    title = "DP-SGD on CIFAR-10"      # optional, as source
    [mechanism]
    kind = "gaussian"                  # gaussian, laplace, randomized_response
    sigma = 1.1                        # gaussian: sigma and sensitivity (default 1)
    sensitivity = 1.0                  # laplace: scale and sensitivity; randomized_response: eps0
    sampling_rate = 0.01               # optional: Poisson subsampling, for any kind
    [composition]
    steps = 10000                      # or rounds = [{kind = ..., ..., steps = ...}, ...]
    [claim]
    epsilon = 5.2                      # (eps, delta)-DP: epsilon and delta in (0, 1)
    delta = 1e-5                       # or: mu = 1.0 (mu-GDP)

Numbers are read as the decimals typed (``parse_float``), so that Arb sees exactly 1.1, not
the binary float nearest to it.  Every malformed or missing value is exit 2 with its name.
"""

from __future__ import annotations

import math
import tomllib
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from flint import arb

from derivations.accounting.assess import Claim
from numeric_checks.accounting.mechanisms import KINDS, MAX_STEPS, Composition, Mechanism, Round
from symbolic.errors import InvalidInput
from symbolic.readers.claim_files import read_text, table_of

TOP_KEYS = {"title", "source", "mechanism", "composition", "claim"}
PARAMETERS = {
    "gaussian": ("sigma", "sensitivity"),
    "laplace": ("scale", "sensitivity"),
    "randomized_response": ("eps0",),
}
"""Each kind's parameters (besides ``kind`` and ``sampling_rate``)."""
MAX_EPS0 = 50
"""The largest eps0 (or Delta/b) of a pure round: e^50 is already beyond any use."""
MU_RANGE = (1e-6, 1e3)
"""Delta/sigma of a Gaussian round: outside, the lattice of the lower bound cannot resolve
the loss (and such a round is either no privacy or no noise to speak of)."""


class _Number:
    """A TOML float as typed: its decimal text."""

    def __init__(self, text: str) -> None:
        self.text = text


def load_account(path: str | Path) -> tuple[Composition, Claim, dict[str, str]]:
    """Read an account file; raise :class:`InvalidInput` naming the problem if it is bad."""
    p = Path(path)
    return parse_account(read_text(p, "account file"), name=str(p))


def parse_account(text: str, name: str = "<account>") -> tuple[Composition, Claim, dict[str, str]]:
    try:
        data = tomllib.loads(text, parse_float=_Number)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidInput(f"{name}: malformed TOML: {exc}") from None
    unknown = set(data) - TOP_KEYS
    if unknown:
        raise InvalidInput(f"{name}: unknown key(s) {sorted(unknown)}; allowed: {sorted(TOP_KEYS)}")
    about = {}
    for key in ("title", "source"):
        value = data.get(key, "")
        if not isinstance(value, str):
            raise InvalidInput(f"{name}: {key} must be a string")
        about[key] = value
    comp = _composition(data, name)
    claim = _claim(table_of(data, "claim", name, required=True), name)
    return comp, claim, about


def _composition(data: dict[str, Any], name: str) -> Composition:
    comp = table_of(data, "composition", name, required=True)
    bad = set(comp) - {"steps", "rounds"}
    if bad:
        raise InvalidInput(
            f"{name}: unknown key(s) in [composition]: {sorted(bad)}; allowed: steps, rounds"
        )
    if "rounds" in comp:
        if "steps" in comp or "mechanism" in data:
            raise InvalidInput(
                f"{name}: give either [mechanism] with [composition] steps, or [composition] "
                "rounds (each round a mechanism with its own steps), not both"
            )
        rounds = comp["rounds"]
        if (
            not isinstance(rounds, list)
            or not rounds
            or not all(isinstance(r, dict) for r in rounds)
        ):
            raise InvalidInput(f"{name}: [composition] rounds must be a non-empty list of tables")
        if len(rounds) > 100:
            raise InvalidInput(f"{name}: at most 100 rounds, got {len(rounds)}")
        out = []
        for i, r in enumerate(rounds, 1):
            where = f"round {i}"
            fields = dict(r)
            if "steps" not in fields:
                raise InvalidInput(f"{name}: {where} needs steps = N")
            steps = _steps(fields.pop("steps"), name, where)
            out.append(Round(_mechanism(fields, name, where), steps))
        result = Composition(tuple(out))
    else:
        if "steps" not in comp:
            raise InvalidInput(f"{name}: [composition] needs steps = N (or rounds = [...])")
        steps = _steps(comp["steps"], name, "[composition]")
        mech = _mechanism(table_of(data, "mechanism", name, required=True), name, "[mechanism]")
        result = Composition((Round(mech, steps),))
    if result.steps > MAX_STEPS:
        raise InvalidInput(
            f"{name}: {result.steps} steps in all, more than the {MAX_STEPS} an account handles"
        )
    return result


def _steps(value: Any, name: str, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{name}: {where} steps must be a whole number, got {_shown(value)}")
    if not 1 <= value <= MAX_STEPS:
        raise InvalidInput(
            f"{name}: {where} steps must be from 1 to {MAX_STEPS}, got steps={value}"
        )
    return value


def _shown(value: Any) -> str:
    return value.text if isinstance(value, _Number) else repr(value)


def _decimal(value: Any, name: str, where: str, key: str) -> str:
    """A number field as exact decimal text (an int or a float as typed)."""
    if isinstance(value, bool) or not isinstance(value, int | _Number):
        raise InvalidInput(f"{name}: {where} {key} must be a number, got {key}={_shown(value)}")
    text = value.text if isinstance(value, _Number) else str(value)
    try:
        d = Decimal(text.replace("_", ""))
    except InvalidOperation:
        raise InvalidInput(f"{name}: {where} {key} must be a number, got {key}={text}") from None
    if not d.is_finite():
        raise InvalidInput(f"{name}: {where} {key} must be finite, got {key}={text}")
    if abs(d.adjusted()) > 300:
        raise InvalidInput(f"{name}: {where} {key} is out of range, got {key}={text}")
    return str(d)


def _positive(value: Any, name: str, where: str, key: str) -> str:
    text = _decimal(value, name, where, key)
    if not Decimal(text) > 0:
        raise InvalidInput(f"{name}: {where} {key} must be positive, got {key}={text}")
    return text


def _mechanism(table: dict[str, Any], name: str, where: str) -> Mechanism:
    kind = table.get("kind")
    if not isinstance(kind, str):
        raise InvalidInput(f'{name}: {where} needs kind = "..." (one of {", ".join(KINDS)})')
    if kind not in KINDS:
        raise InvalidInput(
            f"{name}: {where}: unknown kind {kind!r}; the kinds are {', '.join(KINDS)}"
        )
    allowed = {"kind", "sampling_rate", *PARAMETERS[kind]}
    bad = set(table) - allowed
    if bad:
        raise InvalidInput(
            f"{name}: {where}: unknown key(s) for kind {kind!r}: {sorted(bad)}; allowed: "
            f"{sorted(allowed)}"
        )
    values: dict[str, str] = {}
    for key in PARAMETERS[kind]:
        if key not in table:
            if key == "sensitivity":
                continue
            raise InvalidInput(f"{name}: {where}: kind {kind!r} needs {key} = NUMBER")
        values[key] = _positive(table[key], name, where, key)
    q = "1"
    if "sampling_rate" in table:
        q = _positive(table["sampling_rate"], name, where, "sampling_rate")
        if Decimal(q) > 1:
            raise InvalidInput(
                f"{name}: {where} sampling_rate must be in (0, 1], got sampling_rate={q}"
            )
    m = Mechanism(kind, q=q, **values)
    if m.kind == "gaussian":
        mu = float(m.mu().mid())
        if not MU_RANGE[0] <= mu <= MU_RANGE[1]:
            raise InvalidInput(
                f"{name}: {where}: sensitivity/sigma = {mu:.3g} is outside "
                f"[{MU_RANGE[0]:g}, {MU_RANGE[1]:g}], the range an account handles"
            )
    else:
        e = float(m.pure_eps().mid())
        if not 1e-6 <= e <= MAX_EPS0:
            what = "sensitivity/scale" if m.kind == "laplace" else "eps0"
            raise InvalidInput(
                f"{name}: {where}: {what} = {e:.3g} is outside [1e-06, {MAX_EPS0}], the range "
                "an account handles"
            )
    return m


CLAIM_FORMS = (
    "epsilon and delta ((eps, delta)-DP, delta in (0, 1))",
    "mu (mu-GDP)",
)


def _claim(table: dict[str, Any], name: str) -> Claim:
    keys = set(table)
    if "rho" in keys:
        raise InvalidInput(
            f"{name}: [claim] rho (zCDP) is not supported by account: no catalog theorem "
            "bounds zCDP and no rigorous lower bound on rho is implemented; claim "
            "epsilon and delta, or mu"
        )
    bad = keys - {"epsilon", "delta", "mu", "statement"}
    if bad:
        raise InvalidInput(
            f"{name}: unknown key(s) in [claim]: {sorted(bad)}; a claim is one of: "
            + "; ".join(CLAIM_FORMS)
        )
    statement = table.get("statement", "")
    if not isinstance(statement, str):
        raise InvalidInput(f"{name}: [claim] statement must be a string")
    if "mu" in keys:
        if keys & {"epsilon", "delta"}:
            raise InvalidInput(f"{name}: [claim] gives mu with epsilon/delta; claim one form")
        mu = _positive(table["mu"], name, "[claim]", "mu")
        if Decimal(mu) > 1000:
            raise InvalidInput(f"{name}: [claim] mu must be at most 1000, got mu={mu}")
        return Claim("mu", mu=arb(mu), text=statement or f"{mu}-GDP")
    if not {"epsilon", "delta"} <= keys:
        missing = sorted({"epsilon", "delta"} - keys)
        raise InvalidInput(
            f"{name}: [claim] needs {' and '.join(missing)}; a claim is one of: "
            + "; ".join(CLAIM_FORMS)
        )
    eps = _decimal(table["epsilon"], name, "[claim]", "epsilon")
    if Decimal(eps) < 0 or Decimal(eps) > 500:
        raise InvalidInput(f"{name}: [claim] epsilon must be in [0, 500], got epsilon={eps}")
    delta = _decimal(table["delta"], name, "[claim]", "delta")
    if not 0 < Decimal(delta) < 1:
        raise InvalidInput(
            f"{name}: [claim] delta must be in (0, 1), got delta={delta} (a pure DP claim, "
            "delta = 0, is not supported by account: give a small delta instead)"
        )
    if math.log10(float(delta)) < -300:
        raise InvalidInput(f"{name}: [claim] delta must be at least 1e-300, got delta={delta}")
    return Claim(
        "eps_delta", eps=arb(eps), delta=arb(delta), text=statement or f"({eps}, {delta})-DP"
    )
