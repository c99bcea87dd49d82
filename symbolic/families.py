"""Indexed families of variables, quantified hypotheses, and instances at a fixed length.

The books state theorems for every number of outcomes, mechanisms or rounds: a distribution
``p_1, ..., p_n``, a product over ``k`` mechanisms.  A *family* is a variable with an index
range, ``p = "(0, 1) for i in 1..n"`` in a claim file: every element ``p[i]`` lies in the
domain and the length ``n`` is itself a variable (or a number).

Representation (SymPy's own objects, so that ``Sum``/``Product`` of symbolic length work):

* a family is an :class:`sympy.IndexedBase` whose label carries the elements' assumptions,
  so ``p[i].is_positive`` follows from the domain; its elements are ``p[i]`` (``Indexed``);
* an index is an integer :class:`sympy.Symbol` (:func:`index_symbol`), bound by a ``Sum``,
  a ``Product`` or a :class:`ForAll`;
* a hypothesis "for every i" is :class:`ForAll` ``(relation, (i, lower, upper))``.

:func:`instantiate` turns an expression about families into one about plain symbols at given
lengths (``n = 3``: ``Sum(p[i], (i, 1, n))`` becomes ``p_1 + p_2 + p_3``), which is how the
numeric layers check a general statement: at many sampled lengths, never as a proof of it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

import sympy as sp

from symbolic.errors import InvalidInput

MAX_INSTANCE_LENGTH = 256
"""Longest family written out element by element in an instance (a guard: an instance of
length 10^6 would build a million-term expression)."""


def index_symbol(name: str) -> sp.Symbol:
    """The symbol of an index named ``name``: one integer symbol per name, so that the
    ``i`` of a claim file, of a LaTeX sum and of the kit are the same object.

    >>> index_symbol("i") is index_symbol("i"), index_symbol("i").is_integer
    (True, True)
    """
    return sp.Symbol(name, integer=True)


@dataclass(frozen=True)
class Family:
    """The index range of a family: ``index`` runs over ``lower..upper`` (both included).

    ``upper`` is the length when ``lower`` is 1: a positive integer or an integer variable
    (declared ``Z>=1``, say).  ``second`` is an optional second index ``(name, lower,
    upper)`` for two-index families ``w[i, j]``."""

    index: str
    lower: sp.Expr
    upper: sp.Expr
    second: tuple[str, sp.Expr, sp.Expr] | None = None

    def __post_init__(self) -> None:
        for name in ("lower", "upper"):
            value = sp.sympify(getattr(self, name))
            if not (value.is_Integer or value.is_Symbol):
                raise InvalidInput(
                    f"a family's index range must have integer or variable ends, got "
                    f"{name}={value} (write e.g. 'for i in 1..n')"
                )
            if value.is_Integer and value < 0:
                raise InvalidInput(f"a family's index range cannot end below 0, got {value}")
            object.__setattr__(self, name, value)
        if self.lower.is_Integer and self.upper.is_Integer and self.upper < self.lower:
            raise InvalidInput(f"empty index range {self.lower}..{self.upper}")

    @property
    def index_symbol(self) -> sp.Symbol:
        return index_symbol(self.index)

    @property
    def indices(self) -> tuple[sp.Symbol, ...]:
        first = (self.index_symbol,)
        return first if self.second is None else (*first, index_symbol(self.second[0]))

    @property
    def lengths(self) -> tuple[sp.Symbol, ...]:
        """The variables the range depends on (``n``), which instances fix."""
        ends: list[sp.Expr] = [self.lower, self.upper]
        if self.second is not None:
            ends += [sp.sympify(self.second[1]), sp.sympify(self.second[2])]
        return tuple(e for e in ends if isinstance(e, sp.Symbol))

    def range_text(self) -> str:
        first = f"{self.index} in {self.lower}..{self.upper}"
        if self.second is None:
            return first
        name, lo, hi = self.second
        return f"{first}, {name} in {lo}..{hi}"


class ForAll(sp.Basic):
    """``relation`` holds for every integer ``index`` in ``lower..upper``: a hypothesis
    "p[i] <= exp(eps) q[i] for all i".  The index is bound: it is not a free symbol."""

    def __new__(cls, relation: sp.Basic, limits: tuple[sp.Basic, sp.Basic, sp.Basic]) -> ForAll:
        index, lower, upper = (sp.sympify(x) for x in limits)
        if not isinstance(index, sp.Symbol):
            raise InvalidInput(f"'for all' needs an index name, got {index}")
        return super().__new__(cls, relation, sp.Tuple(index, lower, upper))

    @property
    def relation(self) -> sp.Basic:
        return self.args[0]

    @property
    def index(self) -> sp.Symbol:
        return self.args[1][0]

    @property
    def lower(self) -> sp.Expr:
        return self.args[1][1]

    @property
    def upper(self) -> sp.Expr:
        return self.args[1][2]

    @property
    def free_symbols(self) -> set[sp.Basic]:
        inner = {s for s in self.relation.free_symbols if s != self.index}
        # An element p[i] of the bound index is not free either.
        inner = {s for s in inner if not (isinstance(s, sp.Indexed) and self.index in s.indices)}
        return inner | self.lower.free_symbols | self.upper.free_symbols

    def at(self, value: sp.Expr) -> sp.Basic:
        """The relation at one value of the index."""
        return self.relation.xreplace({self.index: sp.sympify(value)})

    def _sympystr(self, printer: object) -> str:
        return f"{self.relation} for all {self.index} in {self.lower}..{self.upper}"

    def _latex(self, printer: sp.printing.latex.LatexPrinter) -> str:
        rel = printer._print(self.relation)
        lo, hi = printer._print(self.lower), printer._print(self.upper)
        i = printer._print(self.index)
        return rf"{rel} \quad \text{{for all }} {i} \in \{{{lo}, \dots, {hi}\}}"


def family_base(name: str, assumptions: Mapping[str, bool]) -> sp.IndexedBase:
    """The IndexedBase of a family whose elements have ``assumptions`` (from the domain)."""
    return sp.IndexedBase(sp.Symbol(name, **assumptions))


def element_symbol(base: sp.IndexedBase, indices: Iterable[int]) -> sp.Symbol:
    """The plain symbol standing for one element in an instance: ``p[2]`` -> ``p_2``
    (``w[1, 3]`` -> ``w_1_3``), with the family's assumptions."""
    label = base.label
    name = "_".join([label.name, *(str(int(k)) for k in indices)])
    return sp.Symbol(name, **label.assumptions0)


def bound_free_symbols(expr: sp.Basic) -> set[sp.Basic]:
    """Free symbols of ``expr`` as a reader means them: an element ``p[i]`` whose index is
    bound by a Sum/Product/ForAll is not free (SymPy's ``Sum.free_symbols`` lists it), and
    a family's label counts as the family itself."""
    out: set[sp.Basic] = set()
    _collect(sp.sympify(expr), frozenset(), out)
    return out


def _collect(expr: sp.Basic, bound: frozenset[sp.Symbol], out: set[sp.Basic]) -> None:
    # An Integral binds its variable as a Sum binds its index (a claim's Integral(f, (t, a, x))
    # has no free t).
    if isinstance(expr, (sp.Sum, sp.Product, sp.Integral)):
        inner = set(bound)
        # Outermost first: SymPy keeps Sum(Sum(f, (j, 1, k)), (k, 1, n)) as one Sum with the
        # limits ((j, 1, k), (k, 1, n)), where k in the first range is bound by the second.
        for limit in reversed(expr.limits):
            var, *ends = limit
            for e in ends:
                _collect(e, frozenset(inner), out)
            inner.add(var)
        _collect(expr.function, frozenset(inner), out)
        return
    if isinstance(expr, ForAll):
        _collect(expr.lower, bound, out)
        _collect(expr.upper, bound, out)
        _collect(expr.relation, bound | {expr.index}, out)
        return
    if isinstance(expr, sp.Indexed):
        out.add(expr.base.label)
        for k in expr.indices:
            _collect(k, bound, out)
        return
    if isinstance(expr, sp.Symbol):
        if expr not in bound:
            out.add(expr)
        return
    for a in expr.args:
        if isinstance(a, sp.Basic):
            _collect(a, bound, out)


def instantiate(expr: sp.Basic, lengths: Mapping[sp.Symbol, int]) -> sp.Basic:
    """``expr`` at the given lengths: length symbols replaced by their values, every Sum,
    Product and ForAll whose range becomes numeric and whose body holds a family element
    written out, and each element ``p[k]`` (k a number) replaced by its plain symbol.

    Sums and products without family elements keep their form (the numeric layers sum them
    rigorously).  A ForAll becomes the ``And`` of its instances.  Raises InvalidInput for an
    element index outside its numeric range or a range longer than
    :data:`MAX_INSTANCE_LENGTH`."""
    at = {sym: sp.Integer(v) for sym, v in lengths.items()}
    out = _expand(sp.sympify(expr).xreplace(at))
    return _elements(out)


def instantiate_hypotheses(
    hypotheses: Iterable[sp.Basic], lengths: Mapping[sp.Symbol, int]
) -> list[sp.Basic]:
    """The hypotheses at the given lengths, a ForAll flattened into its instances (each a
    separate hypothesis: the sampler and the rules read relations, not conjunctions)."""
    out: list[sp.Basic] = []
    at = {sym: sp.Integer(v) for sym, v in lengths.items()}
    for h in hypotheses:
        h = sp.sympify(h).xreplace(at)
        if isinstance(h, ForAll):
            at_k = _substituter(h.relation, h.index)
            for k in _range(h.lower, h.upper, str(h)):
                out.append(_elements(_expand(at_k(k))))
        else:
            out.append(_elements(_expand(h)))
    return out


def _range(lower: sp.Expr, upper: sp.Expr, what: str) -> range:
    lo, hi = sp.sympify(lower), sp.sympify(upper)
    if not (lo.is_Integer and hi.is_Integer):
        raise InvalidInput(f"cannot write out {what}: its range {lo}..{hi} is not numeric")
    if int(hi) - int(lo) + 1 > MAX_INSTANCE_LENGTH:
        raise InvalidInput(
            f"cannot write out {what}: {int(hi) - int(lo) + 1} terms (at most "
            f"{MAX_INSTANCE_LENGTH} in an instance)"
        )
    return range(int(lo), int(hi) + 1)


def _expand(expr: sp.Basic) -> sp.Basic:
    if not isinstance(expr, sp.Basic) or not expr.args:
        return expr
    if isinstance(expr, (sp.Sum, sp.Product)) and expr.function.has(sp.Indexed):
        # Outside in: an inner range may end at the outer index (prod_{j < i} inside
        # sum_i), and is numeric only once the outer index is.
        body = expr.function
        for var, lo, hi in reversed(expr.limits):
            at_k = _substituter(body, var)
            terms = [at_k(k) for k in _range(lo, hi, str(expr))]
            body = sp.Add(*terms) if isinstance(expr, sp.Sum) else sp.Mul(*terms)
        return _expand(body)
    args = [_expand(a) if isinstance(a, sp.Basic) else a for a in expr.args]
    if isinstance(expr, ForAll):
        relation = args[0]
        index, lo, hi = expr.args[1]
        if lo.is_Integer and hi.is_Integer:
            at_k = _substituter(relation, index)
            return sp.And(*[at_k(k) for k in _range(lo, hi, str(expr))])
        return expr.func(*args)
    return expr.func(*args)


def _substituter(body: sp.Basic, var: sp.Symbol) -> Callable[[int], sp.Basic]:
    """``k -> body`` with ``var = k``, each element whose indices become numbers put
    directly as its plain symbol (building ``p[k]`` first, with its assumptions, then
    replacing it costs most of an instance's time)."""
    elements = [x for x in body.atoms(sp.Indexed) if var in x.free_symbols]

    def at(k: int) -> sp.Basic:
        value = sp.Integer(k)
        table: dict[sp.Basic, sp.Basic] = {var: value}
        for x in elements:
            indices = [sp.sympify(j).xreplace({var: value}) for j in x.indices]
            if all(j.is_Integer for j in indices):
                table[x] = element_symbol(x.base, [int(j) for j in indices])
        return body.xreplace(table)

    return at


def _elements(expr: sp.Basic) -> sp.Basic:
    table: dict[sp.Basic, sp.Basic] = {}
    for x in sp.sympify(expr).atoms(sp.Indexed):
        if all(k.is_Integer for k in x.indices):
            table[x] = element_symbol(x.base, [int(k) for k in x.indices])
    return expr.xreplace(table) if table else expr
