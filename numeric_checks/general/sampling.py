"""Points of a derivation's instance at fixed lengths: families drawn to satisfy its hypotheses.

Rejection sampling almost never hits ``p_1 + ... + p_n = 1`` together with ``p_i <= e^eps
q_i`` for every i, so the families are built to satisfy the constraints this module
recognises in the *general* hypotheses:

* a total: ``Sum(p[i], (i, lo, hi)) = c`` (``c`` free of families) -- simplex draws;
* a ratio bound for every i: ``p[i] <= k q[i]`` (also ``p[i]/q[i] <= k`` and
  ``log(p[i]/q[i]) <= k'`` with ``k = e^k'``), ``k`` free of families.

A pair of families linked by ratio bounds is drawn as in
:func:`numeric_checks.dp.kl.random_pair` (Dwork & Roth 2014, Lemma 3.18's setting): the base
family at random, then every ratio in its allowed interval with the deviations balanced so
that both totals hold.  Edge families are drawn on purpose: point masses (as close to one as
the domain allows), equal families, every ratio exactly at its bound (and just inside), one
tiny entry.  Nothing here is trusted for validity: the checker validates every point against
every instantiated hypothesis (:meth:`numeric_checks.sampling.Sampler.generated_points`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import mpmath
import sympy as sp

from numeric_checks.dp.kl import EPS_EDGES, balanced
from numeric_checks.sampling import _closed_ends, _draw
from symbolic.derivation import Derivation
from symbolic.domains import Variable
from symbolic.errors import EvaluationError
from symbolic.families import ForAll
from symbolic.instances import family_variables, length_variables

__all__ = ["FamilyConstraints", "constraints_of", "family_generator"]

MODES = ("random", "random", "extreme", "inside", "equal", "tiny", "point")
"""The kinds of draw, in turn: two random draws for each edge kind."""


@dataclass
class FamilyConstraints:
    """What the sampler read from the general hypotheses."""

    totals: dict[str, sp.Expr] = field(default_factory=dict)
    """family name -> its total (an expression in the scalar variables)."""
    ratios: dict[tuple[str, str], sp.Expr] = field(default_factory=dict)
    """(a, b) -> k: ``a[i] <= k b[i]`` for every i."""
    caps: dict[str, sp.Expr] = field(default_factory=dict)
    """a -> c: ``a[i] <= c`` for every i (``c`` free of families)."""
    element_caps: dict[str, tuple[sp.Symbol, sp.Expr]] = field(default_factory=dict)
    """a -> (i, g): ``a[i] <= g`` for every i, ``g`` in other families' elements at the same
    index (``r[i] <= exp(a[i])``): entries above it are redrawn below it, element by element."""


def constraints_of(d: Derivation) -> FamilyConstraints:
    """The totals and ratio bounds among ``d``'s hypotheses (definitions expanded)."""
    families = {v.name: v for v in family_variables(d)}
    out = FamilyConstraints()
    for h in d.hypotheses:
        h = d.expand_defs(h)
        if isinstance(h, sp.Equality):
            _total(h, families, out)
        elif isinstance(h, ForAll) and isinstance(h.relation, sp.Rel):
            _ratio(h.relation, h.index, families, out)
    return out


def _total(h: sp.Equality, families: Mapping[str, Variable], out: FamilyConstraints) -> None:
    for side, other in ((h.lhs, h.rhs), (h.rhs, h.lhs)):
        if not isinstance(side, sp.Sum) or len(side.limits) != 1 or other.has(sp.Indexed):
            continue
        j, lo, hi = side.limits[0]
        body = side.function
        if not (isinstance(body, sp.Indexed) and body.indices == (j,)):
            continue
        var = families.get(body.base.label.name)
        if var is None or var.family is None or var.family.second is not None:
            continue
        if (lo, hi) == (var.family.lower, var.family.upper):
            out.totals[var.name] = other


def _ratio(
    rel: sp.Rel, index: sp.Symbol, families: Mapping[str, Variable], out: FamilyConstraints
) -> None:
    if isinstance(rel, sp.LessThan | sp.StrictLessThan):
        small, big = rel.lhs, rel.rhs
    elif isinstance(rel, sp.GreaterThan | sp.StrictGreaterThan):
        small, big = rel.rhs, rel.lhs
    else:
        return

    def element(x: sp.Basic) -> str | None:
        if isinstance(x, sp.Indexed) and x.indices == (index,) and x.base.label.name in families:
            return str(x.base.label.name)
        return None

    if isinstance(small, sp.log):
        small, big = small.args[0], sp.exp(big)
    num, den = small.as_numer_denom()
    if den != 1 and element(num) and element(den) and not big.has(sp.Indexed):
        out.ratios[(str(element(num)), str(element(den)))] = big
        return
    a = element(small)
    if a is None:
        return
    if not big.has(sp.Indexed) and not big.has(index):
        out.caps[a] = big
        return
    for factor in sp.Mul.make_args(big):
        b = element(factor)
        if b is not None:
            k = big / factor
            if not k.has(sp.Indexed) and not k.has(index):
                out.ratios[(a, b)] = k
            return
    others = {x for x in big.atoms(sp.Indexed) if x.base.label.name != a}
    if (
        others
        and all(element(x) for x in others)
        and not big.has(sp.Indexed(sp.IndexedBase(a), index))
    ):
        out.element_caps[a] = (index, big)


Generator = Callable[[random.Random, int], list[dict[str, Any]]]


def family_generator(d: Derivation, lengths: Mapping[str, int], count: int) -> Generator:
    """Points for ``d``'s instance at ``lengths`` (``d`` is the general derivation): ``count``
    draws cycling through :data:`MODES`, each assigning every scalar variable and every
    element ``p_1 .. p_n`` by name."""
    constraints = constraints_of(d)
    families = family_variables(d)
    lengths_syms = {v.symbol: sp.Integer(lengths[v.name]) for v in length_variables(d)}
    scalars = tuple(v for v in d.variables if v.family is None and v.symbol not in lengths_syms)
    sizes: dict[str, int] = {}
    for v in families:
        assert v.family is not None
        lo = sp.sympify(v.family.lower).xreplace(lengths_syms)
        hi = sp.sympify(v.family.upper).xreplace(lengths_syms)
        sizes[v.name] = int(hi) - int(lo) + 1
    starts = {
        v.name: int(sp.sympify(v.family.lower).xreplace(lengths_syms))  # type: ignore[union-attr]
        for v in families
    }
    seconds = {v.name for v in families if v.family is not None and v.family.second is not None}

    def generate(rng: random.Random, dps: int) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        with mpmath.workdps(dps):
            for k in range(count):
                point = _draw_scalars(scalars, rng, k)
                try:
                    mode = MODES[k % len(MODES)]
                    values = _draw_families(
                        families, sizes, constraints, point, lengths_syms, rng, mode
                    )
                except (EvaluationError, ArithmeticError, ValueError, TypeError):
                    continue
                for v in families:
                    if v.name in seconds:
                        _two_index(v, point, lengths_syms, rng)
                        continue
                    for m, x in enumerate(values[v.name]):
                        point[f"{v.name}_{starts[v.name] + m}"] = x
                out.append(point)
        return out

    return generate


def _draw_scalars(scalars: tuple[Variable, ...], rng: random.Random, k: int) -> dict[str, Any]:
    point: dict[str, Any] = {}
    for v in scalars:
        value = None
        if k % 3 == 1:
            # Moderate parameter values (eps = 0.5, 1, 2), where a wrong constant shows.
            edges = [mpmath.mpf(e) for e in EPS_EDGES if v.domain.contains(sp.Rational(e))]
            if edges:
                value = edges[rng.randrange(len(edges))]
        point[v.name] = _draw(v.domain, rng) if value is None else value
    return point


def _number(expr: sp.Expr, point: Mapping[str, Any], lengths: Mapping[sp.Symbol, sp.Expr]) -> Any:
    """``expr`` (scalars only) at the point, as an mpmath number."""
    subs = {s: sp.Float(point[s.name], mpmath.mp.dps) for s in expr.free_symbols if s.name in point}
    value = sp.sympify(expr).xreplace(lengths).xreplace(subs).evalf(mpmath.mp.dps)
    if not value.is_real or not value.is_finite:
        raise EvaluationError(f"cannot evaluate {expr} at the drawn parameters")
    return mpmath.mpf(sp.Float(value, mpmath.mp.dps))


def _simplex(n: int, rng: random.Random, mode: str) -> list[Any]:
    tiny = mpmath.mpf(10) ** -12
    if mode == "point" and n > 1:
        rest = [tiny * mpmath.mpf(rng.random() + 0.5) for _ in range(n - 1)]
        return [1 - mpmath.fsum(rest), *rest]
    if mode == "equal":
        return [mpmath.mpf(1) / n] * n
    weights = [mpmath.mpf(rng.expovariate(1.0)) + mpmath.mpf(10) ** -6 for _ in range(n)]
    if mode == "tiny" and n > 1:
        weights[rng.randrange(n)] = tiny * mpmath.fsum(weights)
    total = mpmath.fsum(weights)
    out = [w / total for w in weights]
    out[out.index(max(out))] += 1 - mpmath.fsum(out)
    return out


def _below(cap: Any, rng: random.Random) -> Any:
    if cap > 0 and rng.random() < 0.5:
        return cap * mpmath.mpf(10) ** -rng.uniform(0, 6)
    return cap * mpmath.mpf(rng.random())


def _free(v: Variable, n: int, rng: random.Random, mode: str) -> list[Any]:
    ends = _closed_ends(v.domain)
    if mode == "extreme" and ends:
        # Every element on a closed end of its domain, exactly (issue 38): a claim false only
        # where an element sits there (p[i]**2 < p[i] on (0, 1]) is never seen otherwise.
        return [ends[m % len(ends)] for m in range(n)]
    if mode == "equal":
        x = _draw(v.domain, rng)
        return [x] * n
    return [_draw(v.domain, rng) for _ in range(n)]


def _draw_families(
    families: tuple[Variable, ...],
    sizes: Mapping[str, int],
    c: FamilyConstraints,
    point: Mapping[str, Any],
    lengths: Mapping[sp.Symbol, sp.Expr],
    rng: random.Random,
    mode: str,
) -> dict[str, list[Any]]:
    by_name = {v.name: v for v in families}
    totals = {name: _number(t, point, lengths) for name, t in c.totals.items()}
    ks = {pair: _number(k, point, lengths) for pair, k in c.ratios.items()}
    values: dict[str, list[Any]] = {}
    # A linked pair: the base family b first, then a from ratios to b.
    for a, b in ks:
        if a in values or b in values or sizes[a] != sizes[b]:
            continue
        n = sizes[b]
        hi = ks[(a, b)]
        if a in totals and b not in totals:
            # Without a reverse bound, b's entries stay within a few times a's (b is not
            # normalised, so larger ratios would leave b's domain).
            lo = 1 / ks[(b, a)] if (b, a) in ks else min(hi, 1) / 4
            # a's total fixes it: draw it first, then b from the inverse ratios.
            first = [x * totals[a] for x in _simplex(n, rng, mode)]
            values[a] = first
            second = _linked(first, 1 / hi, 1 / lo, rng, mode, False)
            top = by_name[b].domain.upper
            if top.is_finite:
                # An entry past b's domain is redrawn between its least ratio and the end.
                end = mpmath.mpf(sp.Float(top, mpmath.mp.dps))
                second = [
                    y if y < end else x / hi + (end - x / hi) * mpmath.mpf(rng.random())
                    for x, y in zip(first, second, strict=True)
                ]
            values[b] = second
            continue
        lo = 1 / ks[(b, a)] if (b, a) in ks else mpmath.mpf(10) ** -6
        base = (
            [x * totals[b] for x in _simplex(n, rng, "tiny" if mode == "tiny" else "random")]
            if b in totals
            else _free(by_name[b], n, rng, "random")
        )
        balance = a in totals and b in totals and totals[a] == totals[b]
        values[b] = base
        values[a] = _linked(base, lo, hi, rng, mode, balance)
    for v in families:
        if v.name in values:
            continue
        n = sizes[v.name]
        if v.name in totals:
            values[v.name] = [x * totals[v.name] for x in _simplex(n, rng, mode)]
        else:
            values[v.name] = _free(v, n, rng, mode)
        if v.name in c.caps:
            # Entries above the cap are redrawn below it (uniformly or on a log scale).
            cap = _number(c.caps[v.name], point, lengths)
            values[v.name] = [x if x <= cap else _below(cap, rng) for x in values[v.name]]
    for name, (_index, bound) in c.element_caps.items():
        if name not in values:
            continue
        elements = list(bound.atoms(sp.Indexed))
        for m, x in enumerate(values[name]):
            at = {
                e: sp.Float(values[e.base.label.name][m], mpmath.mp.dps)
                for e in elements
                if e.base.label.name in values and m < len(values[e.base.label.name])
            }
            if len(at) != len(elements):
                break
            cap = _number(bound.xreplace(at), point, lengths)
            if x > cap:
                values[name][m] = _below(cap, rng)
    return values


def _linked(
    base: list[Any], lo: Any, hi: Any, rng: random.Random, mode: str, balance: bool
) -> list[Any]:
    """Entries ``base_i * r_i`` with every ratio ``r_i`` in ``[lo, hi]``; with ``balance``,
    the deviations ``r_i - 1`` are scaled so the entries keep the base's total (the
    construction of :func:`numeric_checks.dp.kl.random_pair`, for any two ratio bounds)."""
    n = len(base)
    if mode == "equal" or n == 0:
        return list(base)
    down, up = lo - 1, hi - 1
    if mode in ("extreme", "inside"):
        shrink = 1 if mode == "extreme" else 1 - mpmath.mpf(10) ** (-(mpmath.mp.dps // 2))
        d = [(up if rng.random() < 0.5 else down) * shrink for _ in range(n)]
        if balance and n > 1 and (all(x > 0 for x in d) or all(x < 0 for x in d)):
            d[0] = (down if d[0] > 0 else up) * shrink
    else:
        d = [down + (up - down) * mpmath.mpf(rng.random()) for _ in range(n)]
    if balance:
        d = balanced(base, d)
    out = [b * (1 + x) for b, x in zip(base, d, strict=True)]
    if balance:
        out[out.index(max(out))] += mpmath.fsum(base) - mpmath.fsum(out)
    return out


def _two_index(
    v: Variable,
    point: dict[str, Any],
    lengths: Mapping[sp.Symbol, sp.Expr],
    rng: random.Random,
) -> None:
    """A two-index family's elements ``w_k_m`` (drawn independently from its domain)."""
    assert v.family is not None and v.family.second is not None
    lo1 = int(sp.sympify(v.family.lower).xreplace(lengths))
    hi1 = int(sp.sympify(v.family.upper).xreplace(lengths))
    lo2 = int(sp.sympify(v.family.second[1]).xreplace(lengths))
    hi2 = int(sp.sympify(v.family.second[2]).xreplace(lengths))
    for k in range(lo1, hi1 + 1):
        for m in range(lo2, hi2 + 1):
            point[f"{v.name}_{k}_{m}"] = _draw(v.domain, rng)
