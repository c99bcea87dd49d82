"""Counterexample search over small finite distributions, decided exactly.

Statements about divergences, (eps, delta)-indistinguishability, max-divergence,
statistical distance and their relations are tried on tuples of distributions over 2 to 6
outcomes with rational probabilities (zeros and point masses included), first on targeted
edge cases, then on Hypothesis draws.  A statement is a function of the distributions and
parameters returning True, False or None (undecided); it is evaluated on Arb balls built
exactly from the rationals, so ``False`` means certainly false.  A counterexample found is
shrunk by Hypothesis and re-verified at four times the precision before it is reported.

Conventions (Dwork & Roth 2014, section 3.5.1): a ratio with a zero denominator and a positive
numerator is +infinity; terms with a zero numerator contribute 0.

>>> from fractions import Fraction as F
>>> pinsker = FiniteStatement(
...     "Pinsker", 2, lambda d, p: leq(tv(d[0], d[1]), (kl(d[0], d[1]) / 2).sqrt()))
>>> search(pinsker, max_examples=200) is None
True
>>> wrong = FiniteStatement("TV <= KL", 2, lambda d, p: leq(tv(d[0], d[1]), kl(d[0], d[1])))
>>> search(wrong, max_examples=200) is not None
True
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from flint import arb, ctx
from hypothesis import HealthCheck, find, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample

__all__ = [
    "Coverage",
    "FiniteCounterexample",
    "FiniteStatement",
    "all_of",
    "hockey",
    "implies",
    "kl",
    "last_coverage",
    "leq",
    "lt",
    "max_div",
    "push",
    "renyi",
    "search",
    "tv",
]

Dist = tuple[Fraction, ...]
Holds = Callable[[Sequence[Sequence[Any]], Mapping[str, Any]], bool | None]
BITS = 128
MAX_WEIGHT = 12


def leq(a: Any, b: Any) -> bool | None:
    """``a <= b`` on balls: True if certainly, False if certainly not, None if they overlap.
    Infinities compare as expected (an infinite ``a`` is not <= a finite ``b``)."""
    d = arb(b) - arb(a)
    if d >= 0:
        return True
    if d < 0:
        return False
    return None


def lt(a: Any, b: Any) -> bool | None:
    d = arb(b) - arb(a)
    if d > 0:
        return True
    if d <= 0:
        return False
    return None


def all_of(*values: bool | None) -> bool | None:
    """Three-valued and: False if any is False, True if all are True, else None."""
    if any(v is False for v in values):
        return False
    return True if all(v is True for v in values) else None


def implies(premise: bool | None, conclusion: bool | None) -> bool | None:
    """Three-valued implication: certainly false only when the premise certainly holds and
    the conclusion certainly fails.  Noted for the search's coverage (:class:`Coverage`): a
    search in which no premise ever held has tested nothing."""
    _EXAMPLE["implication"] = True
    if premise is True:
        _EXAMPLE["premise"] = True
    if premise is False or conclusion is True:
        return True
    if premise is True and conclusion is False:
        return False
    return None


@dataclass
class Coverage:
    """What a search's examples tested: how many evaluated an implication, and in how many
    of those some premise certainly held.  A statement ``A
    implies B`` is vacuously true on every example where ``A`` fails: a search whose examples
    never met a premise has found nothing out (``vacuous``)."""

    implications: int = 0
    premises: int = 0

    @property
    def vacuous(self) -> bool:
        return self.implications > 0 and self.premises == 0

    def describe(self) -> str:
        if not self.implications:
            return ""
        return f"; a premise certainly held in {self.premises} of {self.implications} examples"


_EXAMPLE = {"implication": False, "premise": False}
_LAST = Coverage()


def last_coverage() -> Coverage:
    """The coverage of the last :func:`search` (its edge cases and draws)."""
    return Coverage(_LAST.implications, _LAST.premises)


def push(p: Sequence[Any], rows: Sequence[Sequence[Any]]) -> list[Any]:
    """The distribution of a channel's output: ``rows[i]`` is the law of the output given
    outcome ``i``."""
    return [sum((p[i] * rows[i][j] for i in range(len(p))), arb(0)) for j in range(len(rows[0]))]


def _inf() -> Any:
    return arb("inf")


def tv(p: Sequence[Any], q: Sequence[Any]) -> Any:
    """Statistical (total variation) distance, max over events of |P(S) - Q(S)|."""
    return sum((abs(a - b) for a, b in zip(p, q, strict=True)), arb(0)) / 2


def _on_support(
    p: Sequence[Any], q: Sequence[Any], term: Callable[[Any, Any], Any]
) -> list[Any] | None:
    """``term(p_i, q_i)`` for each outcome with ``p_i > 0``, or None where some ``q_i = 0 <
    p_i``: the divergences of Definitions 3.5 and 3.6 and Renyi's are then infinite."""
    out = []
    for a, b in zip(p, q, strict=True):
        if a == 0:
            continue
        if b == 0:
            return None
        out.append(term(a, b))
    return out


def kl(p: Sequence[Any], q: Sequence[Any]) -> Any:
    """D(P||Q) = sum p ln(p/q) (Definition 3.5); +infinity where q = 0 < p."""
    terms = _on_support(p, q, lambda a, b: a * (a / b).log())
    return _inf() if terms is None else sum(terms, arb(0))


def max_div(p: Sequence[Any], q: Sequence[Any]) -> Any:
    """D_inf(P||Q) = max over outcomes with p > 0 of ln(p/q) (Definition 3.6)."""
    terms = _on_support(p, q, lambda a, b: (a / b).log())
    if terms is None:
        return _inf()
    return functools.reduce(lambda best, v: best.max(v), terms) if terms else arb(0)


def hockey(p: Sequence[Any], q: Sequence[Any], eps: Any) -> Any:
    """sup over events S of P(S) - e^eps Q(S): the least delta with P (eps, delta)-close to Q
    in one direction."""
    factor = arb(eps).exp()
    return sum((_pos(a - factor * b) for a, b in zip(p, q, strict=True)), arb(0))


def renyi(p: Sequence[Any], q: Sequence[Any], alpha: Any) -> Any:
    """Renyi divergence of order alpha > 1: ln(sum p^alpha q^(1 - alpha)) / (alpha - 1)."""
    alpha = arb(alpha)
    terms = _on_support(p, q, lambda a, b: (alpha * a.log() + (1 - alpha) * b.log()).exp())
    return _inf() if terms is None else sum(terms, arb(0)).log() / (alpha - 1)


def _pos(x: Any) -> Any:
    """max(x, 0) for a ball (0 where the ball is certainly negative)."""
    if x <= 0:
        return arb(0)
    if x >= 0:
        return x
    return x.max(arb(0))


@dataclass(frozen=True)
class FiniteStatement:
    """``holds(dists, params)`` for every tuple of ``arity`` distributions on the same
    ``n`` outcomes (``outcomes`` = (min, max) of n) and every parameter in its range."""

    name: str
    arity: int
    holds: Holds
    params: Mapping[str, tuple[Fraction, Fraction]] = field(default_factory=dict)
    outcomes: tuple[int, int] = (2, 6)


@dataclass(frozen=True)
class FiniteCounterexample:
    statement: str
    dists: tuple[Dist, ...]
    params: Mapping[str, Fraction]
    examples: int

    def describe(self) -> str:
        shown = "; ".join(
            f"P{i + 1} = ({', '.join(str(x) for x in d)})" for i, d in enumerate(self.dists)
        )
        if self.params:
            shown += "; " + ", ".join(f"{k} = {v}" for k, v in self.params.items())
        return f"{self.statement} fails at {shown} (re-verified with Arb at {4 * BITS} bits)"


def _decide(
    s: FiniteStatement, dists: Sequence[Dist], params: Mapping[str, Fraction], bits: int
) -> bool | None:
    saved = ctx.prec
    ctx.prec = bits
    _EXAMPLE.update(implication=False, premise=False)
    try:
        balls = [[arb(x.numerator) / x.denominator for x in d] for d in dists]
        values = {k: arb(v.numerator) / v.denominator for k, v in params.items()}
        return s.holds(balls, values)
    except (ZeroDivisionError, ValueError, ArithmeticError):
        return None
    finally:
        ctx.prec = saved
        _LAST.implications += _EXAMPLE["implication"]
        _LAST.premises += _EXAMPLE["implication"] and _EXAMPLE["premise"]


def _normalise(weights: Sequence[int]) -> Dist:
    total = sum(weights)
    return tuple(Fraction(w, total) for w in weights)


def _edge_cases(s: FiniteStatement) -> list[tuple[tuple[Dist, ...], dict[str, Fraction]]]:
    """Point masses, disjoint supports, uniform against a point mass, randomized response."""
    n_min = s.outcomes[0]
    shapes = [(1, 0), (0, 1), (1, 1), (2, 1), (1, 2), (3, 1), (1, 3), (1, 0, 1), (1, 1, 1)]
    shapes = [w + (0,) * (n_min - len(w)) if len(w) < n_min else w for w in shapes]
    param_values = {
        k: sorted({lo, hi, (lo + hi) / 2, min(hi, max(lo, Fraction(1)))})
        for k, (lo, hi) in s.params.items()
    }
    out = []
    # The first two distributions range over the shapes; any further ones (a channel's rows,
    # a third mechanism) copy them in turn, which keeps the edge cases to 81 per parameter.
    pairs = itertools.product(shapes, repeat=min(2, s.arity))
    for pair in pairs:
        ws = tuple(pair[i % len(pair)] for i in range(s.arity))
        if len({len(w) for w in ws}) != 1:
            continue
        for combo in itertools.product(*param_values.values()):
            out.append(
                (tuple(_normalise(w) for w in ws), dict(zip(param_values, combo, strict=True)))
            )
    return out


def _denominator(lo: Fraction, hi: Fraction) -> int:
    """The largest denominator drawn in [lo, hi]: 8, or the ends' own when larger."""
    return max(8, Fraction(lo).denominator, Fraction(hi).denominator)


def _strategy(s: FiniteStatement) -> Any:
    @st.composite
    def examples(draw: Any) -> tuple[tuple[Dist, ...], dict[str, Fraction]]:
        n = draw(st.integers(*s.outcomes))
        weights = st.lists(st.integers(0, MAX_WEIGHT), min_size=n, max_size=n).filter(any)
        dists = tuple(_normalise(draw(weights)) for _ in range(s.arity))
        # Small denominators keep the witnesses short; a range whose ends need more (delta
        # in [0, 1/100], a realistic delta) is drawn with the denominators its ends have.
        params = {
            k: draw(st.fractions(lo, hi, max_denominator=_denominator(lo, hi)))
            for k, (lo, hi) in s.params.items()
        }
        return dists, params

    return examples()


def search(
    statement: FiniteStatement, *, max_examples: int = 1500, seed: int = 0
) -> FiniteCounterexample | None:
    """A counterexample to ``statement``, shrunk and re-verified, or None if none was found
    among the edge cases and ``max_examples`` draws (None is evidence, not proof)."""
    del seed  # draws are derandomized: the same statement always sees the same examples
    _LAST.implications = _LAST.premises = 0
    for dists, params in _edge_cases(statement):
        if _decide(statement, dists, params, BITS) is False:
            return _confirmed(statement, dists, params, 0)
    try:
        dists, params = find(
            _strategy(statement),
            lambda ex: _decide(statement, ex[0], ex[1], BITS) is False,
            settings=settings(
                max_examples=max_examples,
                derandomize=True,
                database=None,
                suppress_health_check=list(HealthCheck),
                deadline=None,
            ),
        )
    except NoSuchExample:
        return None
    return _confirmed(statement, dists, params, max_examples)


def _confirmed(
    s: FiniteStatement, dists: tuple[Dist, ...], params: Mapping[str, Fraction], examples: int
) -> FiniteCounterexample | None:
    """Re-decide at four times the precision: only a certain failure is reported."""
    if _decide(s, dists, params, 4 * BITS) is not False:
        return None
    return FiniteCounterexample(s.name, dists, dict(params), examples)
