"""Variable domains: intervals of reals or integers, and how they read and sample.

A domain is written as in claim files: ``R`` (all reals), ``(0, oo)``, ``[a, b]``, ``(a, b]``,
``Z`` (all integers), ``Z>=1``, ``Z in [1, 100]``.  The SymPy symbol made for a variable carries
every assumption the domain implies (real, integer, positive, nonnegative) so that the
symbolic layer may use them; bounds SymPy cannot express as assumptions (``eps <= 5``) are
exposed as :meth:`Domain.constraints` for the rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

import sympy as sp

from symbolic.errors import InvalidInput
from symbolic.exact_numbers import NotEnclosable, compare, rational_enclosure
from symbolic.families import Family, family_base

Kind = Literal["real", "integer"]
Scale = Literal["auto", "linear", "log"]


@dataclass(frozen=True)
class Domain:
    """An interval of the reals or of the integers, with open or closed ends."""

    kind: Kind = "real"
    lower: sp.Expr = sp.S.NegativeInfinity
    upper: sp.Expr = sp.S.Infinity
    lower_open: bool = True
    upper_open: bool = True
    scale: Scale = "auto"

    def __post_init__(self) -> None:
        for name in ("lower", "upper"):
            value = _exact_end(sp.sympify(getattr(self, name)), name)
            object.__setattr__(self, name, value)
        if self.lower.is_infinite:
            object.__setattr__(self, "lower_open", True)
        if self.upper.is_infinite:
            object.__setattr__(self, "upper_open", True)
        if self.kind == "integer":
            # An integer interval is normalised to closed integer ends: (0, 5) -> [1, 4].
            lo, hi = self.lower, self.upper
            if lo.is_finite:
                lo = lo + 1 if (self.lower_open and lo.is_Integer) else -_floor(-lo)
            if hi.is_finite:
                hi = hi - 1 if (self.upper_open and hi.is_Integer) else _floor(hi)
            object.__setattr__(self, "lower", lo)
            object.__setattr__(self, "upper", hi)
            object.__setattr__(self, "lower_open", not lo.is_finite)
            object.__setattr__(self, "upper_open", not hi.is_finite)
        if self.is_empty():
            raise InvalidInput(f"empty domain: {self}")

    def is_empty(self) -> bool:
        order = _compare(self.lower, self.upper)
        if order > 0:
            return True
        if order == 0:
            return bool(self.lower_open or self.upper_open)
        return False

    def assumptions(self) -> dict[str, bool]:
        """SymPy assumptions implied by the domain: ``positive`` only when every point is
        (a closed end at 0 gives ``nonnegative``, an end below 0 nothing), since SymPy's
        simplifications trust them (issue 38: ``[0, log(3)]`` read as positive proved
        ``exp(eps) > 1``)."""
        out: dict[str, bool] = {"integer": True} if self.kind == "integer" else {"real": True}
        lower, upper = _compare(self.lower, 0), _compare(self.upper, 0)
        if lower > 0 or (lower == 0 and self.lower_open):
            out["positive"] = True
        elif lower == 0:
            out["nonnegative"] = True
        if upper < 0 or (upper == 0 and self.upper_open):
            out["negative"] = True
        elif upper == 0:
            out["nonpositive"] = True
        return out

    def constraints(self, x: sp.Symbol) -> list[sp.Rel]:
        """Bounds of the domain as relations on ``x`` (only the finite ends).

        Unevaluated on purpose: ``x > 0`` on a symbol declared positive would evaluate to
        True and vanish, and then substituting ``x = 1 - a - b`` (an eliminated variable)
        would lose the constraint ``1 - a - b > 0``."""
        out: list[sp.Rel] = []
        lo, hi = self.lower, self.upper
        if lo.is_finite:
            cls = sp.StrictGreaterThan if self.lower_open else sp.GreaterThan
            out.append(cls(x, lo, evaluate=False))
        if hi.is_finite:
            cls = sp.StrictLessThan if self.upper_open else sp.LessThan
            out.append(cls(x, hi, evaluate=False))
        return out

    def contains(self, value: object) -> bool:
        """Whether the number ``value`` is in the domain, decided exactly (a value too close
        to an end to decide is not in it)."""
        v = sp.sympify(value)
        if self.kind == "integer" and not v.is_integer:
            return False
        above, below = compare(v, self.lower), compare(v, self.upper)
        if above is None or below is None:
            return False
        lo_ok = above > 0 or (above == 0 and not self.lower_open)
        hi_ok = below < 0 or (below == 0 and not self.upper_open)
        return lo_ok and hi_ok

    def __str__(self) -> str:
        if self.kind == "integer":
            if self.lower.is_infinite and self.upper.is_infinite:
                return "Z"
            if self.upper.is_infinite:
                return f"Z>={self.lower}"
            return f"Z in [{_fmt(self.lower)}, {_fmt(self.upper)}]"
        if self.lower.is_infinite and self.upper.is_infinite:
            return "R"
        left = "(" if self.lower_open else "["
        right = ")" if self.upper_open else "]"
        return f"{left}{_fmt(self.lower)}, {_fmt(self.upper)}{right}"

    def latex(self) -> str:
        """The domain as a LaTeX set."""
        if self.kind == "integer":
            if self.lower.is_infinite and self.upper.is_infinite:
                return r"\mathbb{Z}"
            if self.upper.is_infinite:
                return r"\mathbb{Z}_{\ge %s}" % sp.latex(self.lower)
            return r"\{%s, \dots, %s\}" % (sp.latex(self.lower), sp.latex(self.upper))
        if self.lower.is_infinite and self.upper.is_infinite:
            return r"\mathbb{R}"
        left = "(" if self.lower_open else "["
        right = ")" if self.upper_open else "]"
        return rf"{left}{sp.latex(self.lower)}, {sp.latex(self.upper)}{right}"


def _floor(x: sp.Expr) -> sp.Integer:
    """``floor(x)`` of an end, decided by its checked enclosure (an integer end is itself)."""
    if x.is_Integer:
        return x  # type: ignore[return-value]
    lo, hi = rational_enclosure(x)
    if sp.floor(lo) != sp.floor(hi):
        raise InvalidInput(f"cannot decide the integer part of the domain's end {x}")
    return sp.floor(lo)  # type: ignore[no-any-return]


def _compare(a: sp.Expr, b: sp.Expr | int) -> int:
    """The sign of ``a - b`` for two ends; an order no enclosure decides is refused."""
    order = compare(a, b)
    if order is None:
        raise InvalidInput(f"cannot decide whether {a} - {b} is positive, zero or negative")
    return order


def _exact_end(value: sp.Basic, name: str) -> sp.Expr:
    """A domain's end as an exact number: +-oo, a rational (a float is replaced by the
    rational it is), or a real constant such as ``log(3)`` or ``pi/2`` kept as written, once
    a checked rational enclosure of it exists (what the solvers will be given, see
    :mod:`symbolic.exact_numbers`).  Never a rational approximation: the end is where the
    domain stops, open or closed as written (issue 38)."""
    if value in (sp.S.Infinity, sp.S.NegativeInfinity) or isinstance(value, sp.Rational):
        return value  # type: ignore[return-value]
    if isinstance(value, sp.Float) and value.is_finite:
        return sp.Rational(value)
    if not (value.is_number and value.is_extended_real):
        raise InvalidInput(f"domain bound must be a real number or oo, got {name}={value}")
    try:
        rational_enclosure(value)
    except NotEnclosable as exc:
        raise InvalidInput(
            f"domain bound {name}={value} is not a usable real constant: {exc}"
        ) from None
    return value  # type: ignore[return-value]


def _fmt(x: sp.Expr) -> str:
    return "oo" if x is sp.S.Infinity else "-oo" if x is sp.S.NegativeInfinity else str(x)


REAL = Domain()
POSITIVE = Domain(lower=sp.S.Zero)
UNIT_OPEN = Domain(lower=sp.S.Zero, upper=sp.S.One, scale="log")


@dataclass(frozen=True)
class Variable:
    """A free variable of a derivation: its name, domain and what it stands for.  Its
    ``symbol`` carries the domain's assumptions, for SymPy and the rules.

    >>> eps = Variable("eps", parse_domain("(0, oo)"), "the privacy parameter")
    >>> eps.symbol, eps.symbol.is_positive, str(eps.domain)
    (eps, True, '(0, oo)')
    """

    name: str
    domain: Domain = field(default_factory=Domain)
    meaning: str = ""
    latex_name: str = ""
    family: Family | None = None
    """If set, the variable is a family ``p[i]`` over this index range, each element in
    ``domain`` (see :mod:`symbolic.families`)."""

    def __post_init__(self) -> None:
        # One namespace (symbolic.readers.syntax): a variable never takes the name of a constant
        # or a function, compared after NFKC normalisation.
        from symbolic.vocabulary import declared_name

        object.__setattr__(self, "name", declared_name(self.name))

    @property
    def symbol(self) -> sp.Symbol:
        """The variable's symbol; for a family, the label of :attr:`base`."""
        return sp.Symbol(self.name, **self.domain.assumptions())

    @property
    def base(self) -> sp.IndexedBase:
        """A family's IndexedBase (its elements are ``base[i]``)."""
        if self.family is None:
            raise InvalidInput(f"{self.name} is not a family: it has no elements {self.name}[i]")
        return family_base(self.name, self.domain.assumptions())


_INTERVAL = re.compile(r"^\s*([\[(])\s*([^,]+?)\s*,\s*([^,]+?)\s*([\])])\s*$")
_INT_CMP = re.compile(r"^\s*Z\s*(>=|>|<=|<)\s*(.+?)\s*$")
_INT_IN = re.compile(r"^\s*Z\s+in\s+(.+)$")


def parse_domain(text: str, scale: Scale = "auto") -> Domain:
    """Read a domain as written in a claim file.

    >>> print(parse_domain("(0, oo)"), parse_domain("Z>=1"), parse_domain("Z in [1, 100]"))
    (0, oo) Z>=1 Z in [1, 100]
    """
    import mpmath

    saved = mpmath.mp.prec
    try:
        return _parse_domain(text, scale)
    except (TypeError, ArithmeticError, RecursionError) as exc:
        # SymPy could not compare the ends (an end it cannot evaluate exactly).
        raise InvalidInput(f"cannot read domain {text!r}: {exc}") from None
    finally:
        mpmath.mp.prec = saved  # SymPy's evalf may leave it raised


def _parse_domain(text: str, scale: Scale) -> Domain:
    from symbolic.readers.syntax import parse_number  # local: parsing imports this module's users

    if not isinstance(text, str):
        raise InvalidInput(f'a domain must be a string like "(0, oo)", got {text!r}')
    s = text.strip()
    if s in ("R", "Reals"):
        return Domain(scale=scale)
    if s in ("Z", "Integers"):
        return Domain(kind="integer", scale=scale)
    m = _INT_CMP.match(s)
    if m:
        op, bound = m.group(1), parse_number(m.group(2))
        if op in (">=", ">"):
            return Domain("integer", lower=bound, lower_open=op == ">", scale=scale)
        return Domain("integer", upper=bound, upper_open=op == "<", scale=scale)
    kind: Kind = "real"
    m = _INT_IN.match(s)
    if m:
        kind, s = "integer", m.group(1)
    m = _INTERVAL.match(s)
    if not m:
        raise InvalidInput(
            f"cannot read domain {text!r}: use R, Z, an interval like (0, oo) or [a, b], "
            "Z>=1, or Z in [1, 100]"
        )
    lower, upper = parse_number(m.group(2)), parse_number(m.group(3))
    return Domain(kind, lower, upper, m.group(1) == "(", m.group(4) == ")", scale)
