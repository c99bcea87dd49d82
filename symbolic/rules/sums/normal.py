"""The normal form of an expression with sums of symbolic length, for :mod:`symbolic.rules.sums`.

An expression is read as a linear combination of sums plus a sum-free remainder::

    c_1 Sum(a_1(i), R_1) + ... + c_m Sum(a_m(i), R_m) + c

where each coefficient ``c_k`` and the remainder ``c`` do not depend on any index.  Reading
it so uses only identities of finite sums, each sound for every length:

* **index shift**: ``Sum(f(i), (i, a, b)) = Sum(f(i + a - 1), (i, 1, b - a + 1))`` for an
  integer ``a``, so that sums over the same range written with different offsets meet;
* **linearity and constant factors**: ``Sum(u f + v g) = u Sum(f) + v Sum(g)`` for ``u, v``
  free of the index;
* **constant summands**: ``Sum(c, (i, 1, L)) = L c`` (SymPy's summation convention makes it
  hold for every integer ``L``, an empty range included);
* **products of exponentials** and **logs of products**, rewritten before the reading:
  ``Product(exp(e_i)) = exp(Sum(e_i))``, and ``log(Product(a_i)) = Sum(log(a_i))`` when every
  ``a_i > 0`` (the caller proves that, :func:`rewrite_products`' ``positive``).

Every bound index is renamed to one canonical integer symbol (positive when the range starts
at 1), so that ``Sum(p[j], (j, 1, n))`` and ``Sum(p[i], (i, 1, n))`` are the same sum.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import sympy as sp

INDEX = sp.Dummy("i", integer=True, positive=True)
"""The canonical index of a range that starts at 1 (every integer start is shifted there)."""
INDEX_ANY = sp.Dummy("i", integer=True)
"""The canonical index of a range with a symbolic start."""


@dataclass(frozen=True)
class Range:
    """An index range ``lower..upper`` (both included) and its canonical index."""

    lower: sp.Expr
    upper: sp.Expr

    @property
    def index(self) -> sp.Symbol:
        return INDEX if self.lower == 1 else INDEX_ANY

    @property
    def length(self) -> sp.Expr:
        return self.upper - self.lower + 1

    def __str__(self) -> str:
        return f"{self.lower}..{self.upper}"


@dataclass
class Linear:
    """``sum over (range, atom) of coef * Sum(atom, range) + const``; ``raw`` keeps each
    sum's summand as written (times its coefficient), for rules that read its shape."""

    terms: dict[tuple[Range, sp.Expr], sp.Expr] = field(default_factory=dict)
    raw: list[tuple[Range, sp.Expr]] = field(default_factory=list)
    const: sp.Expr = sp.S.Zero
    outside: sp.Expr = sp.S.Zero
    """The part of ``const`` outside every sum (``const`` adds the constant summands)."""
    used: set[str] = field(default_factory=set)
    """Names of the identities the reading used (for the trace)."""
    constant_summands: bool = False
    """Whether ``const`` holds a constant summand's ``L c`` (the atom reading uses it)."""

    def add(self, other: Linear, scale: sp.Expr = sp.S.One) -> None:
        for key, c in other.terms.items():
            self.terms[key] = self.terms.get(key, sp.S.Zero) + scale * c
        self.raw += [(r, scale * f) for r, f in other.raw]
        self.const += scale * other.const
        self.outside += scale * other.outside
        self.used |= other.used
        self.constant_summands |= other.constant_summands

    @property
    def ranges(self) -> list[Range]:
        """The ranges of the sums with an atom left (constant summands are in ``const``)."""
        return list(dict.fromkeys(r for r, _ in self.terms))

    @property
    def raw_ranges(self) -> list[Range]:
        return list(dict.fromkeys(r for r, _ in self.raw))

    def summand(self, r: Range) -> sp.Expr:
        """The merged summand over ``r``: each atom with its coefficient collected."""
        return sp.Add(
            *[
                _factor(c) * a
                for (rr, a), c in self.terms.items()
                if rr == r and not (c == 0 or sp.expand(c) == 0)
            ]
        )

    def raw_summand(self, r: Range) -> sp.Expr:
        return sp.Add(*[f for rr, f in self.raw if rr == r])


def _factor(c: sp.Expr) -> sp.Expr:
    """A coefficient in factored form (``eps e^eps - eps`` as ``eps (e^eps - 1)``), which the
    rules' positive-factor reading needs; unchanged when factoring fails."""
    try:
        return sp.factor(c) if isinstance(c, sp.Add) and sp.count_ops(c) <= 40 else c
    except (sp.PolynomialError, TypeError, ValueError, RecursionError):
        return c


def canonical(s: sp.Sum | sp.Product) -> tuple[Range, sp.Expr, bool] | None:
    """The range and summand (factor) of a one-index sum (product) over the canonical
    index, shifted to start at 1 when its start is an integer; whether it was shifted."""
    if len(s.limits) != 1:
        return None
    var, lo, hi = s.limits[0]
    if not (finite_integer(lo) and finite_integer(hi)):
        # A series: splitting it is sound only where the parts converge, which these rules
        # do not show; an end that is not an integer has no finite range of terms.
        return None
    body = s.function
    shifted = False
    if lo.is_Integer and lo != 1:
        body = body.xreplace({var: var + lo - 1})
        hi, lo, shifted = hi - lo + 1, sp.S.One, True
    r = Range(sp.sympify(lo), sp.sympify(hi))
    return r, body.xreplace({var: r.index}), shifted


def finite_integer(e: sp.Expr) -> bool:
    """``e`` is an integer (by its assumptions) and finite: a range end these rules read."""
    return bool(e.is_integer) and not e.has(sp.oo, -sp.oo, sp.zoo)


def linear(e: sp.Expr) -> Linear | None:
    """``e`` read as a linear combination of sums (see the module docstring), or None when
    a sum occurs other than linearly (a product of sums, a sum inside a function, a nested
    or multi-index sum)."""
    e = sp.sympify(e)
    out = Linear()
    if not e.has(sp.Sum):
        out.const = out.outside = e
        return out
    if isinstance(e, sp.Add):
        for a in e.args:
            part = linear(a)
            if part is None:
                return None
            out.add(part)
        return out
    if isinstance(e, sp.Mul):
        with_sums = [f for f in e.args if f.has(sp.Sum)]
        if len(with_sums) != 1:
            return None
        rest = sp.Mul(*[f for f in e.args if not f.has(sp.Sum)])
        part = linear(with_sums[0])
        if part is None:
            return None
        out.add(part, rest)
        return out
    if isinstance(e, sp.Sum):
        read = canonical(e)
        if read is None or read[1].has(sp.Sum, sp.Product):
            return None
        r, body, shifted = read
        if shifted:
            out.used.add("index shift")
        out.raw.append((r, body))
        for t in sp.Add.make_args(sp.expand_mul(body)):
            coef, atom = t.as_independent(r.index, as_Add=False)
            if atom == 1:
                out.const += coef * r.length
                out.constant_summands = True
            else:
                out.terms[(r, atom)] = out.terms.get((r, atom), sp.S.Zero) + coef
        return out
    return None


def rewrite_products(
    e: sp.Expr, positive: Callable[[sp.Expr, Range], bool], used: set[str]
) -> sp.Expr:
    """Products rewritten as sums where an identity allows: ``Product(exp(e_i))`` as
    ``exp(Sum(e_i))``, ``Product(c)`` (``c`` free of the index) as ``c**L``, and
    ``log(Product(a_i))`` as ``Sum(log(a_i))`` when ``positive(a_i, range)`` proves every
    factor positive.  ``used`` collects the names of the identities applied."""

    def product(p: sp.Product) -> sp.Expr | None:
        read = canonical(p)
        if read is None:
            return None
        r, body, _ = read
        if not body.has(r.index):
            used.add("product of a constant")
            return body**r.length
        if isinstance(body, sp.exp):
            used.add("product of exponentials")
            return sp.exp(sp.Sum(body.args[0], (r.index, r.lower, r.upper)))
        return None

    def walk(x: sp.Basic) -> sp.Basic:
        if not isinstance(x, sp.Basic) or not x.args or not x.has(sp.Product):
            return x
        if isinstance(x, sp.log) and isinstance(x.args[0], sp.Product):
            read = canonical(x.args[0])
            if read is not None and positive(read[1], read[0]):
                r, body, _ = read
                used.add("log of a product")
                return sp.Sum(walk(sp.log(body)), (r.index, r.lower, r.upper))
        if isinstance(x, sp.Product):
            new = product(x)
            if new is not None:
                return new
        return x.func(*[walk(a) for a in x.args])

    return walk(e)


def merge_quotient(
    e: sp.Expr, positive: Callable[[sp.Expr, Range], bool], used: set[str]
) -> sp.Expr:
    """``Product(a_i) / Product(b_i)`` over one range as ``Product(a_i / b_i)`` when every
    ``b_i > 0`` (``positive`` proves it): a product of quotients is the quotient of the
    products of finitely many nonzero factors.  Anything else is returned unchanged."""
    if not isinstance(e, sp.Mul):
        return e
    num = [f for f in e.args if isinstance(f, sp.Product)]
    den = [
        f.base
        for f in e.args
        if isinstance(f, sp.Pow) and f.exp == -1 and isinstance(f.base, sp.Product)
    ]
    if len(num) != 1 or len(den) != 1 or len(e.args) != 2:
        return e
    a, b = canonical(num[0]), canonical(den[0])
    if a is None or b is None or a[0] != b[0] or not positive(b[1], b[0]):
        return e
    r = a[0]
    used.add("quotient of products")
    return sp.Product(a[1] / b[1], (r.index, r.lower, r.upper))


def elements_at(g: sp.Expr, index: sp.Symbol) -> set[sp.Expr]:
    """The index expressions (``i``, ``i + 1``) at which ``g`` reads a family element."""
    return {x.indices[0] for x in g.atoms(sp.Indexed) if len(x.indices) == 1 and x.has(index)}
