"""The named facts about transcendental functions that :mod:`.abstraction` may state of its
atoms.  Each is true on its whole stated range: ``tests/test_rules_abstraction.py`` checks
every one at random arguments at 50 digits, and shows that the same check catches a false
fact (``exp(a) >= 1 + 2a``).

Sources: the tangent-line and Taylor bounds of ``exp`` and ``log`` and the bounds
``x/(1 + x) <= log(1 + x) <= x`` and ``log(1 + x) >= 2x/(2 + x)`` (the Padé bound) are in
Hardy, Littlewood & Pólya, *Inequalities* (2nd ed.), §§ 2.14, 4.2, and Topsøe, *Bounds for
entropy and divergence for distributions over a two-element set* (JIPAM 2001); ``cosh a >=
1 + a**2/2``, ``|tanh a| <= |a|`` and ``|sin a| <= |a|`` follow from the power series and the
mean value theorem; ``Phi(a) + Phi(-a) = 1`` from the symmetry of the normal density.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import mpmath
import sympy as sp

Pair = tuple[sp.Expr, sp.Expr]
"""An atom's variable ``t`` and its (abstracted, polynomial) argument ``A``."""

MAX_ATOMS_PER_HEAD = 8
"""Pair and triple lemmas grow with the square and cube of this."""


def _implies(cond: sp.Basic, then: sp.Basic) -> sp.Basic:
    return sp.Implies(cond, then)


@dataclass(frozen=True)
class Lemma:
    """A true fact about one, two or three atoms.  ``heads``: the functions of the atoms it
    relates, in order; ``build`` gets the atoms' ``(t, A)`` pairs and returns a SymPy
    boolean in them; ``relate``, for a lemma about related arguments, gives the last
    atom's argument from the others' (``exp(a) exp(b) = exp(a + b)``): the lemma is
    instantiated only where the arguments are so related (and sampled so in its test)."""

    name: str
    heads: tuple[str, ...]
    text: str
    build: Callable[..., sp.Basic]
    relate: Callable[..., sp.Expr] | None = None


def _monotone(strictly_up: bool) -> Callable[[Pair, Pair], sp.Basic]:
    def build(p: Pair, q: Pair) -> sp.Basic:
        (t1, a1), (t2, a2) = p, q
        if strictly_up:
            return _implies(a1 > a2, t1 > t2)
        return _implies(a1 > a2, t1 < t2)

    return build


def _sign_bound(lower: bool) -> Callable[[Pair], sp.Basic]:
    """``0 <= f(a) <= a`` for ``a >= 0`` and ``a <= f(a) <= 0`` for ``a <= 0`` (lower:
    the reverse, ``f(a) >= a >= 0``)."""

    def build(p: Pair) -> sp.Basic:
        t, a = p
        if lower:
            return sp.And(_implies(a >= 0, t >= a), _implies(a <= 0, t <= a))
        return sp.And(
            _implies(a >= 0, sp.And(t >= 0, t <= a)), _implies(a <= 0, sp.And(t <= 0, t >= a))
        )

    return build


def _neg(a: sp.Expr) -> sp.Expr:
    return -a


HALF_PI_UP = sp.Rational(8, 5)  # pi/2 = 1.5707... < 8/5


LEMMAS: tuple[Lemma, ...] = (
    # exp
    Lemma("exp positive", ("exp",), "exp(a) > 0", lambda p: p[0] > 0),
    Lemma("exp tangent", ("exp",), "exp(a) >= 1 + a", lambda p: p[0] >= 1 + p[1]),
    Lemma(
        "exp Taylor",
        ("exp",),
        "exp(a) >= 1 + a + a**2/2 + a**3/6 for a >= 0",
        lambda p: _implies(p[1] >= 0, p[0] >= 1 + p[1] + p[1] ** 2 / 2 + p[1] ** 3 / 6),
    ),
    Lemma(
        "exp Pade",
        ("exp",),
        "exp(a) (1 - a) <= 1 for a < 1",
        lambda p: _implies(p[1] < 1, p[0] * (1 - p[1]) <= 1),
    ),
    Lemma("exp monotone", ("exp", "exp"), "a > b => exp(a) > exp(b)", _monotone(True)),
    Lemma(
        "exp of a sum",
        ("exp", "exp", "exp"),
        "exp(a) exp(b) = exp(a + b)",
        lambda p, q, r: sp.Eq(p[0] * q[0], r[0]),
        relate=lambda a, b: a + b,
    ),
    Lemma(
        "exp of a double",
        ("exp", "exp"),
        "exp(a)**2 = exp(2 a)",
        lambda p, q: sp.Eq(p[0] ** 2, q[0]),
        relate=lambda a: 2 * a,
    ),
    Lemma(
        "exp of a negation",
        ("exp", "exp"),
        "exp(a) exp(-a) = 1",
        lambda p, q: sp.Eq(p[0] * q[0], 1),
        relate=_neg,
    ),
    # log (each under its domain a > 0)
    Lemma(
        "log tangent",
        ("log",),
        "log(a) <= a - 1 for a > 0",
        lambda p: _implies(p[1] > 0, p[0] <= p[1] - 1),
    ),
    Lemma(
        "log lower",
        ("log",),
        "a log(a) >= a - 1 for a > 0",
        lambda p: _implies(p[1] > 0, p[1] * p[0] >= p[1] - 1),
    ),
    Lemma(
        "log Pade",
        ("log",),
        "(a + 1) log(a) >= 2 (a - 1) for a >= 1",
        lambda p: _implies(p[1] >= 1, (p[1] + 1) * p[0] >= 2 * (p[1] - 1)),
    ),
    Lemma(
        "log Pade below one",
        ("log",),
        "(a + 1) log(a) <= 2 (a - 1) for 0 < a <= 1",
        lambda p: _implies(sp.And(p[1] > 0, p[1] <= 1), (p[1] + 1) * p[0] <= 2 * (p[1] - 1)),
    ),
    Lemma(
        "log monotone",
        ("log", "log"),
        "a > b > 0 => log(a) > log(b)",
        lambda p, q: _implies(sp.And(p[1] > q[1], q[1] > 0), p[0] > q[0]),
    ),
    Lemma(
        "log of a product",
        ("log", "log", "log"),
        "log(a) + log(b) = log(a b) for a, b > 0",
        lambda p, q, r: _implies(sp.And(p[1] > 0, q[1] > 0), sp.Eq(p[0] + q[0], r[0])),
        relate=lambda a, b: a * b,
    ),
    # tanh, sinh, cosh
    Lemma("tanh range", ("tanh",), "-1 < tanh(a) < 1", lambda p: sp.And(p[0] > -1, p[0] < 1)),
    Lemma("tanh below identity", ("tanh",), "|tanh(a)| <= |a|, same sign", _sign_bound(False)),
    Lemma("tanh monotone", ("tanh", "tanh"), "a > b => tanh(a) > tanh(b)", _monotone(True)),
    Lemma(
        "tanh odd",
        ("tanh", "tanh"),
        "tanh(-a) = -tanh(a)",
        lambda p, q: sp.Eq(p[0] + q[0], 0),
        relate=_neg,
    ),
    Lemma(
        "cosh lower",
        ("cosh",),
        "cosh(a) >= 1 + a**2/2",
        lambda p: p[0] >= 1 + p[1] ** 2 / 2,
    ),
    Lemma(
        "cosh monotone in |a|",
        ("cosh", "cosh"),
        "a**2 > b**2 => cosh(a) > cosh(b)",
        lambda p, q: _implies(p[1] ** 2 > q[1] ** 2, p[0] > q[0]),
    ),
    Lemma("sinh above identity", ("sinh",), "|sinh(a)| >= |a|, same sign", _sign_bound(True)),
    Lemma("sinh monotone", ("sinh", "sinh"), "a > b => sinh(a) > sinh(b)", _monotone(True)),
    Lemma(
        "cosh squared minus sinh squared",
        ("cosh", "sinh"),
        "cosh(a)**2 - sinh(a)**2 = 1",
        lambda p, q: sp.Eq(p[0] ** 2 - q[0] ** 2, 1),
        relate=lambda a: a,
    ),
    # the normal CDF and erf
    Lemma("Phi range", ("Phi",), "0 < Phi(a) < 1", lambda p: sp.And(p[0] > 0, p[0] < 1)),
    Lemma(
        "Phi against one half",
        ("Phi",),
        "Phi(a) >= 1/2 for a >= 0, <= 1/2 for a <= 0",
        lambda p: sp.And(
            _implies(p[1] >= 0, p[0] >= sp.S.Half), _implies(p[1] <= 0, p[0] <= sp.S.Half)
        ),
    ),
    Lemma("Phi monotone", ("Phi", "Phi"), "a > b => Phi(a) > Phi(b)", _monotone(True)),
    Lemma(
        "Phi symmetry",
        ("Phi", "Phi"),
        "Phi(a) + Phi(-a) = 1",
        lambda p, q: sp.Eq(p[0] + q[0], 1),
        relate=_neg,
    ),
    Lemma("erf range", ("erf",), "-1 < erf(a) < 1", lambda p: sp.And(p[0] > -1, p[0] < 1)),
    Lemma(
        "erf sign",
        ("erf",),
        "erf(a) has the sign of a",
        lambda p: sp.And(_implies(p[1] >= 0, p[0] >= 0), _implies(p[1] <= 0, p[0] <= 0)),
    ),
    Lemma("erf monotone", ("erf", "erf"), "a > b => erf(a) > erf(b)", _monotone(True)),
    Lemma("erfc range", ("erfc",), "0 < erfc(a) < 2", lambda p: sp.And(p[0] > 0, p[0] < 2)),
    Lemma("erfc monotone", ("erfc", "erfc"), "a > b => erfc(a) < erfc(b)", _monotone(False)),
    # atan, sin, cos
    Lemma(
        "atan range",
        ("atan",),
        "|atan(a)| < 8/5 (> pi/2)",
        lambda p: sp.And(p[0] > -HALF_PI_UP, p[0] < HALF_PI_UP),
    ),
    Lemma("atan below identity", ("atan",), "|atan(a)| <= |a|, same sign", _sign_bound(False)),
    Lemma("atan monotone", ("atan", "atan"), "a > b => atan(a) > atan(b)", _monotone(True)),
    Lemma("sin range", ("sin",), "-1 <= sin(a) <= 1", lambda p: sp.And(p[0] >= -1, p[0] <= 1)),
    Lemma(
        "sin below identity",
        ("sin",),
        "|sin(a)| <= |a|",
        lambda p: sp.And(p[0] <= abs(p[1]), p[0] >= -abs(p[1])),
    ),
    Lemma("cos range", ("cos",), "-1 <= cos(a) <= 1", lambda p: sp.And(p[0] >= -1, p[0] <= 1)),
    Lemma("cos lower", ("cos",), "cos(a) >= 1 - a**2/2", lambda p: p[0] >= 1 - p[1] ** 2 / 2),
    Lemma(
        "sin squared plus cos squared",
        ("sin", "cos"),
        "sin(a)**2 + cos(a)**2 = 1",
        lambda p, q: sp.Eq(p[0] ** 2 + q[0] ** 2, 1),
        relate=lambda a: a,
    ),
)
"""The facts the abstraction may use, by name (the evidence lists those instantiated)."""


def power_lemmas(r: sp.Rational) -> tuple[Lemma, ...]:
    """Facts about ``a**r`` for a rational non-integer ``r = p/q`` (principal root, real for
    ``a >= 0``): ``t >= 0`` and ``t**q = a**p`` (``t**q a**-p = 1`` when ``p < 0``, then
    for ``a > 0``); increasing in ``a`` for ``r > 0``, decreasing for ``r < 0``."""
    p, q = int(r.p), int(r.q)
    head = power_head(r)

    def definition(pair: Pair) -> sp.Basic:
        t, a = pair
        if p > 0:
            return sp.And(t >= 0, _implies(a >= 0, sp.Eq(t**q, a**p)))
        return sp.And(t >= 0, _implies(a > 0, sp.Eq(t**q * a ** (-p), 1)))

    def monotone(x: Pair, y: Pair) -> sp.Basic:
        (t1, a1), (t2, a2) = x, y
        if p > 0:
            return _implies(sp.And(a1 > a2, a2 >= 0), t1 > t2)
        return _implies(sp.And(a1 > a2, a2 > 0), t1 < t2)

    return (
        Lemma(f"power {r} definition", (head,), f"a**({r}) >= 0 and its {q}th power", definition),
        Lemma(f"power {r} monotone", (head, head), f"a**({r}) monotone for a >= 0", monotone),
    )


def power_head(r: sp.Rational) -> str:
    return f"pow {r}"


NUMERIC_HEADS: dict[str, Callable[[mpmath.mpf], mpmath.mpf]] = {
    "exp": mpmath.exp,
    "log": mpmath.log,
    "tanh": mpmath.tanh,
    "cosh": mpmath.cosh,
    "sinh": mpmath.sinh,
    "Phi": mpmath.ncdf,
    "erf": mpmath.erf,
    "erfc": mpmath.erfc,
    "atan": mpmath.atan,
    "sin": mpmath.sin,
    "cos": mpmath.cos,
}
"""Each lemma head's function, for the lemmas' numeric tests."""
