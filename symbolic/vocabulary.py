"""The vocabulary of user text: the functions and constants a claim may name, and the names
reserved for them (issue 27's one namespace rule, explained in :mod:`symbolic.readers.syntax`).

Both parsers (SymPy syntax and LaTeX) and the file loaders read it from here, so a name means
the same thing on every path.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

import sympy as sp

from symbolic.errors import ExpressionError
from symbolic.functions import Phi, PhiInv, expm1, log1p

__all__ = [
    "CONSTANTS",
    "FREE_FUNCTION_NAMES",
    "FUNCTIONS",
    "MAX_ARGUMENTS",
    "RESERVED",
    "SPECIAL_FUNCTIONS",
    "arity_text",
    "check_arity",
    "declared_name",
    "reserved_message",
    "skeleton",
]


def _log(x: sp.Expr, base: sp.Expr | None = None) -> sp.Expr:
    return sp.log(x) if base is None else sp.log(x, base)


MAX_ARGUMENTS = 100
"""Arguments of ``Max`` or ``Min`` at most (SymPy compares them pairwise as it builds one:
33 arguments in two variables took 14 s, so the time limit on building one expression,
:data:`symbolic.input_limits.MAX_BUILD_SECONDS`, may refuse fewer)."""


def check_arity(name: str, arities: tuple[int, ...], given: int, where: str = "") -> None:
    """Refuse a call of ``name`` with ``given`` arguments unless ``given`` is in ``arities``."""
    if given not in arities:
        raise ExpressionError(arity_text(name, arities, given) + where)


def arity_text(name: str, arities: tuple[int, ...], given: int) -> str:
    """What ``name`` takes, for a message: ``Max takes 1 to 100 arguments, got 101``."""
    if len(arities) == 1:
        wanted = f"{arities[0]} argument" + ("" if arities[0] == 1 else "s")
    elif list(arities) == list(range(arities[0], arities[-1] + 1)):
        wanted = f"{arities[0]} to {arities[-1]} arguments"
    else:
        wanted = " or ".join(map(str, arities)) + " arguments"
    return f"{name} takes {wanted}, got {given}"


FUNCTIONS: dict[str, tuple[Callable[..., sp.Expr], tuple[int, ...]]] = {
    "exp": (sp.exp, (1,)),
    "log": (_log, (1, 2)),
    "sqrt": (sp.sqrt, (1,)),
    "Abs": (sp.Abs, (1,)),
    "Max": (sp.Max, tuple(range(1, MAX_ARGUMENTS + 1))),
    "Min": (sp.Min, tuple(range(1, MAX_ARGUMENTS + 1))),
    "floor": (sp.floor, (1,)),
    "ceiling": (sp.ceiling, (1,)),
    "binomial": (sp.binomial, (2,)),
    "factorial": (sp.factorial, (1,)),
    "sinh": (sp.sinh, (1,)),
    "cosh": (sp.cosh, (1,)),
    "tanh": (sp.tanh, (1,)),
    "erf": (sp.erf, (1,)),
    "erfc": (sp.erfc, (1,)),
    "Phi": (Phi, (1,)),
    "PhiInv": (PhiInv, (1,)),
    "gamma": (sp.gamma, (1,)),
    "loggamma": (sp.loggamma, (1,)),
    "beta": (sp.beta, (2,)),
    "lambertw": (sp.LambertW, (1,)),
    "expm1": (expm1, (1,)),
    "log1p": (log1p, (1,)),
}
# Called with their own syntax in _Builder._Call (bound variables, conditions, Eq).
SPECIAL_FUNCTIONS = ("Integral", "Sum", "Product", "Piecewise", "Eq")
CONSTANTS: dict[str, sp.Expr] = {"pi": sp.pi, "E": sp.E, "oo": sp.oo}
_CONSTANT_NAMES = {
    "E": "Euler's number",
    "e": "Euler's number",
    "pi": "pi",
    "I": "the imaginary unit",
    "oo": "infinity",
    "inf": "infinity",
    "nan": "not-a-number",
    "zoo": "complex infinity",
}
FREE_FUNCTION_NAMES = frozenset({"beta", "gamma"})
"""Function names that may still be declared as variables (see the module docstring)."""
RESERVED: dict[str, str] = {
    **{name: "a function" for name in (*FUNCTIONS, *SPECIAL_FUNCTIONS, "ln", "max", "min")},
    **_CONSTANT_NAMES,
}
for _name in FREE_FUNCTION_NAMES:
    del RESERVED[_name]


def reserved_message(name: str) -> str | None:
    """Why ``name`` (NFKC-normalised) may not be declared, or None if it may: a reserved
    name, or one drawn like it (:func:`skeleton`: a Greek capital Epsilon for ``E``).

    >>> reserved_message("\u0395")
    "`Ε` looks like `E`, Euler's number here; call your variable something else"
    """
    what = RESERVED.get(unicodedata.normalize("NFKC", name))
    if what is None:
        look = skeleton(name)
        if look in RESERVED and look != unicodedata.normalize("NFKC", name):
            meaning = "a function" if RESERVED[look] == "a function" else RESERVED[look]
            return (
                f"`{name}` looks like `{look}`, {meaning} here; call your variable something else"
            )
        return None
    if what == "Euler's number":
        return (
            f"`{name}` is Euler's number here; call your variable something else, or write E "
            "for the constant"
        )
    if what == "a function":
        return f"`{name}` is a function here; call your variable something else"
    return f"`{name}` is {what} here; call your variable something else"


_LOOKALIKES = dict(
    zip(
        # Greek and Cyrillic letters drawn like Latin ones (from Unicode's confusables;
        # the Greek small letters that mathematics uses beside Latin ones, alpha, nu, rho,
        # tau, upsilon and chi, are left out): a declared Greek capital Epsilon printed
        # "E > 3" as if Euler's number were above 3 (issue 41).
        "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧοϲϳϹЅІЈАВЕКМНОРСТУХаеорсухіјѕԁԛԝɡһӏ",
        "ABEZHIKMNOPTYXocjCSIJABEKMHOPCTYXaeopcyxijsdqwghl",
        strict=True,
    )
)


def skeleton(name: str) -> str:
    """``name`` NFKC-normalised with every Greek or Cyrillic lookalike of a Latin letter
    replaced by it: two names with one skeleton look the same in a report.

    >>> skeleton("\u0395"), skeleton("\u0445_1"), skeleton("eps")
    ('E', 'x_1', 'eps')
    """
    normal = unicodedata.normalize("NFKC", name)
    return "".join(_LOOKALIKES.get(c, c) for c in normal)


def declared_name(name: str, what: str = "variable") -> str:
    """``name`` as declared (NFKC-normalised), or :class:`ExpressionError` if it is reserved
    or drawn like a reserved name (:func:`reserved_message`).

    >>> declared_name("\uff58")
    'x'
    """
    if not isinstance(name, str) or not name:
        raise ExpressionError(f"a {what} name must be a non-empty string, got {name!r}")
    normal = unicodedata.normalize("NFKC", name)
    message = reserved_message(normal)
    if message is not None:
        raise ExpressionError(f"{what} {name!r}: {message}")
    return normal
