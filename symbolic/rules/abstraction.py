"""Transcendental subterms replaced by fresh real variables, with true facts about them.

A goal such as ``exp(eps) - 1 - eps >= 0`` is not polynomial, but it follows from the
polynomial system ``t >= 1 + eps`` (the tangent line of ``exp``) once ``t`` stands for
``exp(eps)``.  :func:`abstract` walks an expression bottom-up and replaces every subterm
that is not polynomial (``exp``, ``log``, ``sqrt`` and other rational powers, powers with a
symbolic exponent, ``tanh``, ``cosh``, ``sinh``, ``Phi``, ``erf``, ``erfc``, ``atan``,
``sin``, ``cos``, reciprocals, ``Abs``/``Max``/``Min``, irrational constants, and anything
else as an opaque atom) by a fresh variable; :meth:`Abstraction.lemmas` instantiates the
named :data:`LEMMAS` on the atoms that occur.  Every lemma is a true statement about the real
function on the whole stated range (each is tested numerically at 50 digits, with a false
mutant that the same test catches: ``tests/test_rules_abstraction.py``), so a polynomial
contradiction with them is a proof about the original expression.

A power with a symbolic exponent ``b**e`` is ``exp(e log b)`` (for ``b > 0``, which the
``log`` atom's domain makes a proof obligation).  Reciprocals ``1/d`` become an atom ``r``
with ``d r = 1`` where ``d`` is known nonzero (it occurs in a fact), else with ``d != 0 ->
d r = 1`` and ``d != 0`` an obligation of the goal (:meth:`Abstraction.reciprocal_facts`): a
proof only where the denominators are nonzero would say nothing where the goal has no value
(issue 38).  ``log`` and fractional powers have domain obligations
(``a > 0``, ``a >= 0``) that the caller must prove, not assume.

Sources of the bounds: the tangent-line and Taylor bounds of ``exp`` and ``log`` and the
bounds ``x/(1 + x) <= log(1 + x) <= x``, ``log(1 + x) >= 2x/(2 + x)`` are in Hardy,
Littlewood & Pólya, *Inequalities* (2nd ed.), §§ 2.14, 4.2; ``cosh a >= 1 + a**2/2`` and
``|tanh a| <= |a|``, ``|sin a| <= |a|`` from the alternating and monotone series;
``Phi(a) + Phi(-a) = 1`` from the symmetry of the normal density.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import permutations

import sympy as sp

from symbolic.exact_numbers import NotEnclosable, rational_enclosure
from symbolic.functions import Phi, expm1, log1p
from symbolic.rules.lemmas import LEMMAS, MAX_ATOMS_PER_HEAD, Lemma, Pair, power_head, power_lemmas

HEADS: dict[type, str] = {
    sp.exp: "exp",
    sp.log: "log",
    sp.tanh: "tanh",
    sp.cosh: "cosh",
    sp.sinh: "sinh",
    Phi: "Phi",
    sp.erf: "erf",
    sp.erfc: "erfc",
    sp.atan: "atan",
    sp.sin: "sin",
    sp.cos: "cos",
}
DOMAIN_OBLIGATIONS: dict[str, Callable[[sp.Expr], sp.Basic]] = {"log": lambda a: a > 0}


class NotAbstractable(ValueError):
    """The expression has a part that cannot be made real polynomial (a non-real symbol)."""


@dataclass
class Atom:
    head: str
    var: sp.Symbol
    args: tuple[sp.Expr, ...]
    shown: str


@dataclass
class Abstraction:
    """The atom table shared by a goal and its facts, and what it needs to be sound."""

    atoms: dict[tuple[object, ...], Atom] = field(default_factory=dict)
    exact: list[sp.Basic] = field(default_factory=list)
    """Defining facts of exact atoms (reciprocals, Abs, Max, Min, constants)."""
    obligations: list[sp.Basic] = field(default_factory=list)
    """Domain conditions (log argument positive, root argument nonnegative) to prove."""
    denominators: list[sp.Expr] = field(default_factory=list)
    """The abstracted denominators in the order met (each reciprocal's ``d``); see
    :meth:`reciprocal_facts`."""
    reciprocals: dict[sp.Expr, sp.Symbol] = field(default_factory=dict)
    """Each denominator ``d`` and the atom ``r`` standing for ``1/d``."""
    symbols: set[sp.Symbol] = field(default_factory=set)
    used: list[str] = field(default_factory=list)

    def _atom(self, head: str, args: tuple[sp.Expr, ...], shown: str) -> sp.Symbol:
        key = (head, *args)
        if key not in self.atoms:
            var = sp.Dummy(f"{head.replace(' ', '').replace('/', '_')}{len(self.atoms)}", real=True)
            self.atoms[key] = Atom(head, var, args, shown)
        return self.atoms[key].var

    def __call__(self, e: sp.Expr) -> sp.Expr:
        return self.walk(sp.sympify(e))

    def walk(self, e: sp.Expr) -> sp.Expr:
        if isinstance(e, sp.Symbol):
            if e.is_real is not True:
                raise NotAbstractable(f"{e} is not known to be real")
            self.symbols.add(e)
            return e
        if isinstance(e, sp.Rational):
            return e
        if isinstance(e, sp.Float):
            return sp.Rational(e)
        if isinstance(e, sp.Add | sp.Mul):
            return e.func(*(self.walk(a) for a in e.args))
        if isinstance(e, sp.Pow):
            return self._power(e)
        if isinstance(e, expm1):
            return self._function("exp", self.walk(e.args[0]), e) - 1
        if isinstance(e, log1p):
            return self._function("log", 1 + self.walk(e.args[0]), e)
        if type(e) in HEADS:
            return self._function(HEADS[type(e)], self.walk(e.args[0]), e)
        if isinstance(e, sp.Abs):
            a = self.walk(e.args[0])
            t = self._atom("abs", (a,), str(e))
            self.exact.append(sp.And(t >= a, t >= -a, sp.Or(sp.Eq(t, a), sp.Eq(t, -a))))
            return t
        if isinstance(e, sp.Max | sp.Min):
            args = tuple(self.walk(a) for a in e.args)
            big = isinstance(e, sp.Max)
            t = self._atom("max" if big else "min", args, str(e))
            bounds = [t >= a if big else t <= a for a in args]
            self.exact.append(sp.And(*bounds, sp.Or(*(sp.Eq(t, a) for a in args))))
            return t
        if e.is_number:
            # after the structural cases: sqrt(2)/sqrt(pi) is a product of exact powers,
            # whose relations z3 sees, not one enclosure
            return self._constant(e)
        if not e.free_symbols or not all(s.is_real for s in e.free_symbols):
            raise NotAbstractable(f"cannot abstract {e}")
        if e.is_real is not True:
            raise NotAbstractable(f"{e} is not known to be real")
        return self._atom("opaque", (e,), str(e))

    def _constant(self, e: sp.Expr) -> sp.Expr:
        """An irrational constant (pi, log 2, sqrt 2): an atom strictly between two
        rationals that enclose it, checked by exact comparison
        (:func:`~symbolic.exact_numbers.rational_enclosure`); a constant that cannot be
        enclosed so is not abstracted."""
        if e.is_real is not True or e.is_finite is not True:
            raise NotAbstractable(f"{e} is not known to be a real number")
        try:
            lo, hi = rational_enclosure(e)
        except NotEnclosable as exc:
            raise NotAbstractable(str(exc)) from None
        if lo == hi:
            return lo  # a rational written another way: z3 takes it as it is
        t = self._atom("constant", (e,), str(e))
        self.exact.append(sp.And(t > lo, t < hi))
        return t

    def _power(self, e: sp.Pow) -> sp.Expr:
        base, exp = e.args
        if exp.is_Integer:
            b = self.walk(base)
            if exp >= 0:
                return b**exp
            r = self._atom("recip", (b,), f"1/({base})")
            self.reciprocals[b] = r
            self.denominators.append(b)
            return r ** (-exp)
        if isinstance(exp, sp.Rational):
            b = self.walk(base)
            head = power_head(exp)
            self.obligations.append(b > 0 if exp < 0 else b >= 0)
            return self._enclosed(self._atom(head, (b,), str(e)), e)
        # b**e = exp(e log b), for b > 0 (the log atom's domain obligation)
        log_b = self._function("log", self.walk(base), sp.log(base))
        return self._function("exp", self.walk(exp) * log_b, e)

    def _function(self, head: str, a: sp.Expr, shown: sp.Expr) -> sp.Expr:
        if head in DOMAIN_OBLIGATIONS:
            self.obligations.append(DOMAIN_OBLIGATIONS[head](a))
        return self._enclosed(self._atom(head, (sp.expand(a),), str(shown)), shown)

    def _enclosed(self, t: sp.Symbol, value: sp.Expr) -> sp.Symbol:
        """The atom ``t`` of a function of a constant (``log(3)``, a domain's end) with the
        checked enclosure of its value as well as the lemmas: these alone would know only
        ``2/3 <= log(3) <= 2``."""
        if not value.free_symbols and value.is_real is True:
            try:
                lo, hi = rational_enclosure(value)
            except NotEnclosable:
                return t  # the lemmas still hold; nothing more is claimed
            if lo == hi:
                self.exact.append(sp.Eq(t, lo))
            else:
                self.exact.append(sp.And(t > lo, t < hi))
        return t

    def reciprocal_facts(self, defined: set[sp.Expr]) -> list[sp.Basic]:
        """The definitions of the reciprocal atoms: ``d r = 1`` for a denominator ``d`` known
        nonzero (``defined``: it occurs in a fact, which holds only where it has a value),
        else only ``d != 0 -> d r = 1``, so that nothing is assumed where ``d`` vanishes."""
        out: list[sp.Basic] = []
        for d, r in self.reciprocals.items():
            equation = sp.Eq(d * r, 1)
            out.append(equation if d in defined else sp.Implies(sp.Ne(d, 0), equation))
        return out

    # -- the lemmas on the atoms that occur ---------------------------------------------
    def lemmas(self) -> list[sp.Basic]:
        by_head: dict[str, list[Pair]] = {}
        for atom in self.atoms.values():
            if len(atom.args) == 1:
                by_head.setdefault(atom.head, []).append((atom.var, atom.args[0]))
        out: list[sp.Basic] = []
        lemmas = list(LEMMAS)
        for head in by_head:
            if head.startswith("pow "):
                lemmas += power_lemmas(sp.Rational(head.split(" ", 1)[1]))
        for lemma in lemmas:
            pools = [by_head.get(h, [])[:MAX_ATOMS_PER_HEAD] for h in lemma.heads]
            if not all(pools):
                continue
            count = 0
            for combo in _combinations(pools, lemma):
                fact = lemma.build(*combo)
                if fact is sp.true:
                    continue
                out.append(fact)
                count += 1
            if count:
                self.used.append(lemma.name)
        return out

    def describe(self) -> str:
        shown = [f"{a.var} = {a.shown}" for a in self.atoms.values()]
        return ", ".join(shown)


def _combinations(pools: Sequence[list[Pair]], lemma: Lemma) -> list[tuple[Pair, ...]]:
    """The tuples of atoms a lemma applies to: distinct atoms for a lemma over one head
    (ordered: monotonicity is stated one way), related arguments where it says so."""
    if len(pools) == 1:
        return [(p,) for p in pools[0]]
    out: list[tuple[Pair, ...]] = []
    if len(set(lemma.heads)) == 1:
        candidates: list[tuple[Pair, ...]] = list(permutations(pools[0], len(pools)))
    else:
        candidates = [()]
        for pool in pools:
            candidates = [(*c, p) for c in candidates for p in pool]
    for combo in candidates:
        if lemma.relate is not None:
            wanted = lemma.relate(*(a for _, a in combo[:-1]))
            if sp.expand(combo[-1][1] - wanted) != 0:
                continue
        out.append(combo)
    return out
