"""KL divergence of eps-indistinguishable distributions: the seed's bound and the tight one.

* ``kl-bound``: Dwork & Roth 2014, Lemma 3.18 (seed 002, section 3.5.1): if
  ``D_inf(Y||Z) <= eps`` and ``D_inf(Z||Y) <= eps`` then ``D(Y||Z) <= eps (e^eps - 1)``, with
  the chain of the seed including its supplementary derivation
  ``D(Y||Z) + D(Z||Y) = sum [p (ln p/q + ln q/p) + (q - p) ln q/p]``.
* ``kl-bound-tight``: ``D(Y||Z) <= eps tanh(eps/2) = eps (e^eps - 1)/(e^eps + 1)``, attained
  by randomized response.  The chain is dpderive's own (the seed has none): ``r ln r`` is
  convex, so on ``[e^-eps, e^eps]``, where every ratio ``r_i = p_i/q_i`` lies, it is below its
  chord; summing the chord against ``q`` uses only ``sum q = sum p = 1``.  Cf. the same bound
  in the literature on eps-DP implying (eps^2/2)-zCDP (Bun & Steinke 2016).
* ``kl-tight-below-seed``: ``eps tanh(eps/2) <= eps (e^eps - 1)``.

Distributions on ``n`` outcomes, for every ``n >= 1``, are the families ``p[i] = Pr[Y = y_i]``
and ``q[i] = Pr[Z = y_i]`` over ``i in 1..n`` (:mod:`symbolic.families`), positive: under the
two-sided hypothesis ``p_i = 0`` iff ``q_i = 0``, and such outcomes contribute nothing to any
quantity here.  Every step is a statement about sums of symbolic length, proved by the sum
rules (:mod:`symbolic.rules.sums`); the numeric layers check instances ``p_1..p_n``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

import mpmath
import sympy as sp

from derivations.sources import BUN_STEINKE, COVER_THOMAS, DPDERIVE, DWORK_ROTH
from derivations.stated import cancelling_digits, stated
from derivations.symbols import EPS
from numeric_checks.dp.divergences import kl, max_divergence
from numeric_checks.dp.kl import Sweep, pair_generator, sup_kl_two_point
from numeric_checks.dp.kl import kl_sweep as exact_sweep
from symbolic.derivation import Derivation, Oracle, OracleOutcome
from symbolic.domains import Domain, Variable, parse_domain
from symbolic.families import Family, ForAll, index_symbol
from symbolic.functions import DefinedFunction
from symbolic.kit import by, chain

UNIT = Domain(lower=sp.S.Zero, upper=sp.S.One, upper_open=False)
"""(0, 1]: a distribution on one outcome puts probability 1 on it."""
FAMILY = "Dwork & Roth, section 3.5.1: divergences"

N = Variable("n", parse_domain("Z>=1"), "number of outcomes y_1, ..., y_n", "n")
IX = index_symbol("i")
P = Variable("p", UNIT, "Pr[Y = y_i]", "p", family=Family("i", 1, N.symbol))
Q = Variable("q", UNIT, "Pr[Z = y_i]", "q", family=Family("i", 1, N.symbol))
VARIABLES = (N, EPS, P, Q)

SEED_BOUND = EPS.symbol * (sp.exp(EPS.symbol) - 1)
"""Lemma 3.18's bound eps (e^eps - 1)."""
TIGHT_BOUND = EPS.symbol * sp.tanh(EPS.symbol / 2)
"""The tight bound eps tanh(eps/2), the KL of randomized response."""

seed_bound = stated([EPS.symbol], SEED_BOUND, extra_digits=cancelling_digits)  # e^eps - 1
tight_bound = stated([EPS.symbol], TIGHT_BOUND)


class KL(DefinedFunction):
    """KL divergence ``D(Y||Z) = sum_i p_i ln(p_i/q_i)`` of two finite distributions: given
    as two families and a length, ``KL(p, q, n)``, or as two tuples of probabilities.  At a
    numeric length it writes itself out as the tuple form (an instance's elements)."""

    nargs = (2, 3)

    @classmethod
    def eval(cls, p: sp.Basic, q: sp.Basic, n: sp.Basic | None = None) -> sp.Expr | None:
        if n is not None and sp.sympify(n).is_Integer:
            count = int(n)
            return cls(
                sp.Tuple(*[p[k] for k in range(1, count + 1)]),
                sp.Tuple(*[q[k] for k in range(1, count + 1)]),
            )
        return None

    @classmethod
    def definition(cls, p: sp.Basic, q: sp.Basic, n: sp.Basic | None = None) -> sp.Expr:
        if n is not None:
            return sp.Sum(p[IX] * sp.log(p[IX] / q[IX]), (IX, 1, n))
        return sp.Add(*[a * sp.log(a / b) for a, b in zip(p, q, strict=True)])

    def _name(self, i: int) -> str:
        arg = self.args[i]
        first = arg.label if isinstance(arg, sp.IndexedBase) else arg[0]
        return "Y" if str(first).startswith("p") else "Z"

    def _sympystr(self, printer: Any) -> str:
        return f"D({self._name(0)}||{self._name(1)})"

    def _latex(self, printer: Any) -> str:
        return rf"D\left({self._name(0)} \,\middle\|\, {self._name(1)}\right)"


_ELEMENT = re.compile(r"^([pq])_?(\d+)$")


def _vectors(values: Mapping[str, Any]) -> tuple[list[Any], list[Any]]:
    """The point's two distributions, from its elements ``p_1..p_n``, ``q_1..q_n`` (an
    instance of the families; ``p1``, ``q1`` are read too)."""
    found: dict[str, dict[int, Any]] = {"p": {}, "q": {}}
    for key, value in values.items():
        m = _ELEMENT.match(key)
        if m:
            found[m.group(1)][int(m.group(2))] = value
    n = len(found["p"])
    return [found["p"][i] for i in range(1, n + 1)], [found["q"][i] for i in range(1, n + 1)]


def kl_bound_check(bound: Callable[[Any], Any]) -> Callable[[Mapping[str, Any]], OracleOutcome]:
    """An oracle check: exact KL of the point's pair against ``bound(eps)``, after verifying
    the hypothesis with the independent max-divergence code."""

    def check(values: Mapping[str, Any]) -> OracleOutcome:
        eps = values["eps"]
        p, q = _vectors(values)
        # At the point's own precision: its probabilities sum to 1 to that precision only.
        tol = mpmath.mpf(10) ** (-(mpmath.mp.dps - 10))
        d1, d2 = max_divergence(p, q), max_divergence(q, p)
        if max(d1, d2) > eps * (1 + tol):
            return OracleOutcome(None, "the pair does not satisfy D_inf <= eps")
        value, b = kl(p, q), bound(eps)
        ok = value <= b * (1 + tol)
        return OracleOutcome(
            ok,
            f"KL {mpmath.nstr(value, 10)} vs bound {mpmath.nstr(b, 10)}",
            {"kl": mpmath.nstr(value, 20), "bound": mpmath.nstr(b, 20)},
        )

    return check


def instance_points(rng: Any, dps: int, lengths: Mapping[str, int]) -> list[dict[str, Any]]:
    """Pairs on ``lengths["n"]`` outcomes with both max divergences <= eps (random, extreme,
    edge eps), named as an instance's elements ``p_1..p_n``, ``q_1..q_n``."""
    return pair_generator(int(lengths["n"]), count=40, sep="_")(rng, dps)


def _sum(f: sp.Expr) -> sp.Sum:
    return sp.Sum(f, (IX, 1, N.symbol))


def _hypotheses() -> tuple[sp.Basic, ...]:
    p, q, eps = P.base[IX], Q.base[IX], EPS.symbol
    return (
        sp.Eq(_sum(p), 1),
        sp.Eq(_sum(q), 1),
        ForAll(sp.LessThan(p, sp.exp(eps) * q), (IX, 1, N.symbol)),
        ForAll(sp.LessThan(q, sp.exp(eps) * p), (IX, 1, N.symbol)),
    )


def _plain(*terms: sp.Expr) -> sp.Expr:
    return sp.Add(*terms, evaluate=False)


STATEMENT = (
    "For distributions Y, Z on any number n >= 1 of outcomes with D_inf(Y||Z) <= eps and "
    "D_inf(Z||Y) <= eps, "
)


def kl_bound() -> Derivation:
    """Dwork & Roth 2014, Lemma 3.18, for distributions on any number of outcomes: the
    book's chain, one sum over the outcomes per line."""
    p, q, eps = P.base[IX], Q.base[IX], EPS.symbol
    dyz, dzy = KL(P.base, Q.base, N.symbol), KL(Q.base, P.base, N.symbol)
    regrouped = _plain(p * _plain(sp.log(p / q), sp.log(q / p)), (q - p) * sp.log(q / p))
    proof = (
        chain(dyz)
        .le(
            dyz + dzy,
            by.lemma(
                "gibbs-inequality",
                "D(Z||Y) >= 0 (Gibbs' inequality: q_i ln(q_i/p_i) >= q_i - p_i termwise, "
                "since ln x >= 1 - 1/x, and sum_i (q_i - p_i) = 1 - 1 = 0)",
            ),
        )
        .eq(
            _sum(p * sp.log(p / q) + q * sp.log(q / p)),
            by.definition("definition of the KL divergence; the two sums merged"),
        )
        .eq(
            _sum(p * sp.log(p / q) + sp.Mul(_plain(q, p, -p), sp.log(q / p), evaluate=False)),
            by.algebra("the seed's supplement: write q_i as q_i + p_i - p_i"),
        )
        .eq(_sum(regrouped), by.algebra("regroup the terms of each outcome"))
        .le(
            _sum(_plain(sp.S.Zero, sp.Abs(q - p) * eps)),
            by.hypothesis(
                "termwise: ln(p/q) + ln(q/p) = 0, and (q - p) ln(q/p) = |q - p| |ln(q/p)| "
                "<= |q - p| eps since both max divergences are at most eps",
                "sign case split",
            ),
        )
        .eq(eps * _sum(sp.Max(p, q) - sp.Min(p, q)), by.algebra("|a - b| = max(a, b) - min(a, b)"))
        .le(
            eps * _sum((sp.exp(eps) - 1) * sp.Min(p, q)),
            by.hypothesis(
                "termwise: max(p_i, q_i) <= e^eps min(p_i, q_i) by the two max-divergence "
                "hypotheses"
            ),
        )
        .le(
            SEED_BOUND,
            by.rule(
                "sum hypothesis",
                "termwise",
                why="sum_i min(p_i, q_i) <= sum_i p_i = 1, since min(p_i, q_i) <= p_i termwise",
            ),
        )
    )
    return proof.derive(
        id="kl-bound",
        title="KL divergence bound of Lemma 3.18",
        source=DWORK_ROTH.at("Lemma 3.18", seed="002"),
        statement=STATEMENT + "D(Y||Z) <= eps (e^eps - 1).",
        variables=VARIABLES,
        hypotheses=_hypotheses(),
        oracle=Oracle(
            "kl-exact",
            "exact KL of the point's pair (independent code) against "
            "eps (e^eps - 1), after checking both max divergences",
            kl_bound_check(seed_bound),
            points=40,
        ),
        family=FAMILY,
        appendix=kl_appendix,
        instance_points=instance_points,
    )


def kl_bound_tight() -> Derivation:
    """The tight bound eps tanh(eps/2) for distributions on any number of outcomes, by the
    chord of the convex function r ln r, applied to every outcome's ratio."""
    p, q, eps = P.base[IX], Q.base[IX], EPS.symbol
    a, b = sp.exp(-eps), sp.exp(eps)
    phi_a, phi_b = a * sp.log(a), b * sp.log(b)
    slope = (phi_b - phi_a) / (b - a)
    as_ratio = _sum(sp.Mul(q, p / q, sp.log(p / q), evaluate=False))
    chord = _sum(q * (phi_a + slope * (p / q - a)))
    collected = phi_a * _sum(q) + slope * (_sum(p) - a * _sum(q))
    proof = (
        chain(KL(P.base, Q.base, N.symbol))
        .eq(
            as_ratio,
            by.definition("definition of KL, written with r_i = p_i/q_i as sum q_i r_i ln r_i"),
        )
        .le(
            chord,
            by.rule(
                "convexity",
                why="r ln r is convex, so on [e^-eps, e^eps] (where every r_i lies, by the two "
                "max-divergence hypotheses) it is below its chord: termwise",
            ),
        )
        .eq(collected, by.algebra("collect the sums (linearity)"))
        .eq(phi_a + slope * (1 - a), by.hypothesis("sum q_i = sum p_i = 1"))
        .eq(
            eps * (sp.exp(eps) - 1) / (sp.exp(eps) + 1),
            by.algebra(
                "with x = e^eps: -eps/x + eps (x^2 + 1)/(x^2 - 1) (1 - 1/x) = eps (x - 1)/(x + 1)"
            ),
        )
        .eq(TIGHT_BOUND, by.algebra("tanh(eps/2) = (e^eps - 1)/(e^eps + 1)"))
    )
    return proof.derive(
        id="kl-bound-tight",
        title="Tight KL bound of pure DP: eps tanh(eps/2)",
        source=DPDERIVE.at(
            "tight form of Lemma 3.18 of Dwork & Roth 2014, by a chord argument (for the "
            f"bound, cf. {BUN_STEINKE.name}, {BUN_STEINKE.edition})",
            seed="002",
        ),
        statement=STATEMENT + "D(Y||Z) <= eps tanh(eps/2); randomized response attains it.",
        variables=VARIABLES,
        hypotheses=_hypotheses(),
        oracle=Oracle(
            "kl-exact-tight",
            "exact KL of the point's pair against eps tanh(eps/2)",
            kl_bound_check(tight_bound),
            points=40,
        ),
        family=FAMILY,
        appendix=kl_appendix,
        instance_points=instance_points,
    )


def tight_below_seed() -> Derivation:
    """eps tanh(eps/2) <= eps (e^eps - 1): the tight bound improves on Lemma 3.18."""
    eps = EPS.symbol
    proof = (
        chain(TIGHT_BOUND)
        .eq(
            eps * (sp.exp(eps) - 1) / (sp.exp(eps) + 1),
            by.algebra("tanh(eps/2) = (e^eps - 1)/(e^eps + 1)"),
        )
        .le(SEED_BOUND, by.algebra("eps (e^eps - 1) > 0 and 1/(e^eps + 1) <= 1"))
    )
    return proof.derive(
        id="kl-tight-below-seed",
        title="The tight KL bound is below the bound of Lemma 3.18",
        source=DPDERIVE.at("comparison of the two KL bounds", seed="002"),
        statement="For eps > 0, eps tanh(eps/2) <= eps (e^eps - 1).",
        variables=(EPS,),
        family=FAMILY,
    )


def gibbs_inequality() -> Derivation:
    """Gibbs' inequality D(Y||Z) >= 0 for distributions on any number of outcomes, by the
    tangent bound of the logarithm at every outcome."""
    p, q = P.base[IX], Q.base[IX]
    proof = (
        chain(KL(P.base, Q.base, N.symbol))
        .eq(_sum(p * sp.log(p / q)), by.definition("definition of the KL divergence"))
        .ge(
            _sum(p - q),
            by.rule(
                "log tangent bound",
                why="termwise: p_i ln(p_i/q_i) >= p_i (1 - q_i/p_i) = p_i - q_i, since "
                "ln x >= 1 - 1/x for x > 0",
            ),
        )
        .eq(sp.S.Zero, by.hypothesis("sum_i p_i = sum_i q_i = 1"))
    )
    return proof.derive(
        id="gibbs-inequality",
        title="Gibbs' inequality: the KL divergence is nonnegative",
        source=COVER_THOMAS.at("Theorem 2.6.3 (information inequality)"),
        statement=(
            "For distributions Y, Z on any number n >= 1 of outcomes with Z(y) > 0 wherever "
            "Y(y) > 0, D(Y||Z) >= 0."
        ),
        variables=(N, P, Q),
        hypotheses=(sp.Eq(_sum(p), 1), sp.Eq(_sum(q), 1)),
        family=FAMILY,
    )


# -- the bounds against exact KL: the appendix of both derivations -------------------------


def kl_sweep(n: int, pairs: int = 1000, seed: int = 0, dps: int = 50) -> Sweep:
    """Exact KL of random and extreme pairs on n outcomes against both bounds."""
    return exact_sweep(n, {"seed": seed_bound, "tight": tight_bound}, pairs, seed, dps)


def tightness_rows(
    eps_values: tuple[str, ...] = ("0.01", "0.1", "0.5", "1", "2", "5"),
) -> list[dict[str, Any]]:
    """eps -> (sup KL by maximisation, eps tanh(eps/2), eps (e^eps - 1)), for tables and plots."""
    rows = []
    with mpmath.workdps(40):
        for text in eps_values:
            eps = mpmath.mpf(text)
            rows.append(
                {
                    "eps": eps,
                    "sup_kl": sup_kl_two_point(eps),
                    "tight": tight_bound(eps),
                    "seed": seed_bound(eps),
                }
            )
    return rows


def tightness_table() -> str:
    lines = [
        "How tight is it?  Exact sup of KL over eps-indistinguishable pairs (maximised over",
        "two-point pairs), the tight bound and the seed's bound:",
        f"  {'eps':>6}  {'sup KL (maximised)':>20}  {'eps*tanh(eps/2)':>18}  "
        f"{'eps*(e^eps - 1)':>18}  {'seed/tight':>10}",
    ]
    for r in tightness_rows():
        lines.append(
            f"  {mpmath.nstr(r['eps'], 3):>6}  {mpmath.nstr(r['sup_kl'], 12):>20}  "
            f"{mpmath.nstr(r['tight'], 12):>18}  {mpmath.nstr(r['seed'], 12):>18}  "
            f"{mpmath.nstr(r['seed'] / r['tight'], 5):>10}"
        )
    lines.append("The seed's bound is loose by a factor e^eps + 1 (about 2 for small eps).")
    return "\n".join(lines)


def sweep_table(ns: tuple[int, ...] = (2, 3, 4, 5, 6, 7, 8), pairs: int = 1000) -> str:
    lines = [
        f"Oracle sweep: {pairs} random and extreme pairs per n, exact KL at 50 digits:",
        f"  {'n':>2}  {'violations (seed, tight)':>25}  {'worst KL/seed bound':>20}  "
        f"{'worst KL/tight bound':>21}",
    ]
    for n in ns:
        s = kl_sweep(n, pairs)
        bad = f"{s.violations['seed']}, {s.violations['tight']}"
        lines.append(
            f"  {n:>2}  {bad:>25}  {mpmath.nstr(s.worst_ratio['seed'], 8):>20}  "
            f"{mpmath.nstr(s.worst_ratio['tight'], 12):>21}"
        )
    lines.append("A worst KL/tight ratio of 1 is randomized response, which attains the bound.")
    return "\n".join(lines)


def kl_appendix() -> str:
    return tightness_table() + "\n\n" + sweep_table()


DERIVATIONS = (kl_bound, kl_bound_tight, tight_below_seed, gibbs_inequality)
