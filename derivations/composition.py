"""Basic composition theorems of pure and approximate DP.

Neighbouring relation: databases x, y with ||x - y||_1 <= 1 (Dwork & Roth 2014, Definition
2.4), i.e. differing in one record.  Outputs are discrete; probabilities of the observed
outcomes are positive symbols, and "M_i is eps_i-DP" is the hypothesis
``Pr[M_i(x) = r_i] <= e^eps_i Pr[M_i(y) = r_i]`` (and the same with x, y swapped) at those
outcomes.  Independence of the mechanisms' coins is the definition of the joint probability.

* ``basic-composition-seed``: Theorem 3.14 with the chain exactly as seed 000 writes it.  Its
  first step puts ``Pr[M_2(x) = r_2]`` in the denominator where ``Pr[M_2(y) = r_2]`` belongs:
  an erratum, kept as written and expected to be refuted.
* ``basic-composition``: Theorem 3.14, corrected.
* ``basic-composition-k``: Corollary 3.15 for k = 3 mechanisms.
* ``approx-basic-composition``: Theorem 3.16 for k homogeneous (eps, delta)-DP mechanisms,
  stated in the seed without proof (the book's Appendix B); checked against the optimal
  composition of Kairouz, Oh & Viswanath 2015.
* ``parallel-composition``: seed 003, Theorem 4: mechanisms on disjoint parts of the data.
* ``naive-adaptive-composition``: seed 003, Theorem 1, k = 3 adaptive rounds.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from derivations.display import frac, product, ratios
from derivations.stated import stated
from numeric_checks.dp.composition import optimal_delta
from numeric_checks.validate import check_nonnegative, check_whole
from symbolic.derivation import Claim, Derivation, Justification, JustificationKind, Source, Step
from symbolic.domains import Domain, Variable, parse_domain
from symbolic.functions import DefinedFunction, NumericFunction
from symbolic.relations import Relation

K = JustificationKind
PROB = Domain(lower=sp.S.Zero, upper=sp.S.One, upper_open=False)
DR = "Dwork & Roth 2014, The Algorithmic Foundations of Differential Privacy"
FAMILY = "Dwork & Roth, section 3.5: composition"


def _eps(i: int | str) -> Variable:
    return Variable(
        f"eps{i}", parse_domain("(0, oo)"), f"privacy parameter of M_{i}", rf"\varepsilon_{{{i}}}"
    )


def _prob(name: str, meaning: str, latex: str) -> Variable:
    return Variable(name, PROB, meaning, latex)


def _outcome_vars(k: int) -> tuple[list[Variable], list[Variable]]:
    xs = [
        _prob(f"a{i}", f"Pr[M_{i}(x) = r_{i}]", rf"\Pr[\mathcal{{M}}_{{{i}}}(x) = r_{{{i}}}]")
        for i in range(1, k + 1)
    ]
    ys = [
        _prob(f"b{i}", f"Pr[M_{i}(y) = r_{i}]", rf"\Pr[\mathcal{{M}}_{{{i}}}(y) = r_{{{i}}}]")
        for i in range(1, k + 1)
    ]
    return xs, ys


def _dp_hypotheses(
    xs: list[sp.Symbol], ys: list[sp.Symbol], eps: list[sp.Symbol]
) -> tuple[sp.Basic, ...]:
    out: list[sp.Basic] = []
    for a, b, e in zip(xs, ys, eps, strict=True):
        out += [sp.LessThan(a, sp.exp(e) * b), sp.LessThan(b, sp.exp(e) * a)]
    return tuple(out)


class Joint(DefinedFunction):
    """Probability that independent mechanisms output the tuple: the product."""

    @classmethod
    def definition(cls, *probs: sp.Expr) -> sp.Expr:
        return sp.Mul(*probs)

    def _latex(self, printer: object) -> str:
        names = [str(a) for a in self.args]
        db = "x" if names[0].startswith("a") else "y"
        k = len(names)
        rs = ", ".join(f"r_{{{i}}}" for i in range(1, k + 1))
        return rf"\Pr[\mathcal{{M}}_{{[{k}]}}({db}) = ({rs})]"

    def _sympystr(self, printer: object) -> str:
        db = "x" if str(self.args[0]).startswith("a") else "y"
        return f"Pr[M({db}) = (r_1..r_{len(self.args)})]"


def _two(seed_typo: bool) -> Derivation:
    (a1, a2), (b1, b2) = ([v.symbol for v in vs] for vs in _outcome_vars(2))
    xs, ys = _outcome_vars(2)
    e1, e2 = _eps(1), _eps(2)
    eps1, eps2 = e1.symbol, e2.symbol
    denominator_2 = a2 if seed_typo else b2
    steps = (
        Step(
            Relation.EQ,
            frac(a1 * a2, b1 * denominator_2),
            Justification(
                "independence: the joint probability is the product"
                + (" (the seed writes Pr[M_2(x) = r_2] in the denominator)" if seed_typo else ""),
                K.DEFINITION,
            ),
        ),
        Step(
            Relation.EQ,
            product(
                frac(a1, b1),
                frac(a2, denominator_2),
            ),
            Justification("regroup into one ratio per mechanism", K.ALGEBRA),
        ),
        Step(
            Relation.LE,
            sp.Mul(sp.exp(eps1), sp.exp(eps2), evaluate=False),
            Justification("M_1 is eps_1-DP and M_2 is eps_2-DP", K.HYPOTHESIS),
        ),
        Step(Relation.EQ, sp.exp(eps1 + eps2), Justification("e^a e^b = e^(a+b)", K.ALGEBRA)),
    )
    return Derivation(
        id="basic-composition-seed" if seed_typo else "basic-composition",
        title="Composition of two pure DP mechanisms"
        + (" (as the seed writes it)" if seed_typo else ""),
        source=Source(DR, "Theorem 3.14", seed="000"),
        statement=(
            "For neighbours x, y (||x - y||_1 <= 1) and any (r_1, r_2), "
            "Pr[M_{1,2}(x) = (r_1, r_2)] <= e^(eps_1 + eps_2) Pr[M_{1,2}(y) = (r_1, r_2)]."
        ),
        variables=(e1, e2, *xs, *ys),
        hypotheses=_dp_hypotheses([a1, a2], [b1, b2], [eps1, eps2]),
        claim=Claim(Joint(a1, a2) / Joint(b1, b2), Relation.LE, sp.exp(eps1 + eps2)),
        steps=steps,
        family=FAMILY,
        erratum=(
            "the seed's first step divides by Pr[M_1(y) = r_1] Pr[M_2(x) = r_2] instead "
            "of Pr[M_1(y) = r_1] Pr[M_2(y) = r_2], so its second factor is 1 and the step "
            "is false; the theorem holds, see basic-composition"
        )
        if seed_typo
        else None,
    )


def basic_composition_seed() -> Derivation:
    return _two(seed_typo=True)


def basic_composition() -> Derivation:
    return _two(seed_typo=False)


def basic_composition_k(k: int = 3) -> Derivation:
    xs, ys = _outcome_vars(k)
    epss = [_eps(i) for i in range(1, k + 1)]
    a, b, e = ([v.symbol for v in vs] for vs in (xs, ys, epss))
    return Derivation(
        id="basic-composition-k",
        title=f"Composition of k = {k} pure DP mechanisms",
        source=Source(DR, "Corollary 3.15", seed="000"),
        statement=(
            "For neighbours x, y (||x - y||_1 <= 1), the tuple of k eps_i-DP mechanisms "
            "is (sum eps_i)-DP."
        ),
        variables=(*epss, *xs, *ys),
        hypotheses=_dp_hypotheses(a, b, e),
        claim=Claim(Joint(*a) / Joint(*b), Relation.LE, sp.exp(sp.Add(*e))),
        steps=(
            Step(
                Relation.EQ,
                ratios(a, b),
                Justification("independence, regrouped one ratio per mechanism", K.DEFINITION),
            ),
            Step(
                Relation.LE,
                sp.Mul(*[sp.exp(x) for x in e], evaluate=False),
                Justification("each M_i is eps_i-DP", K.HYPOTHESIS),
            ),
            Step(
                Relation.EQ, sp.exp(sp.Add(*e)), Justification("product of exponentials", K.ALGEBRA)
            ),
        ),
        family=FAMILY,
    )


def parallel_composition() -> Derivation:
    xs, ys = _outcome_vars(3)
    epss = [_eps(i) for i in range(1, 4)]
    a, b, e = ([v.symbol for v in vs] for vs in (xs, ys, epss))
    return Derivation(
        id="parallel-composition",
        title="Parallel composition on disjoint parts of the data",
        source=Source("seed 003 (notes on Dwork & Roth 2014)", "Theorem 4 (parallel)", seed="003"),
        statement=(
            "M_i runs on X ∩ D_i for disjoint D_1, D_2, D_3.  Neighbours x, y differ in "
            "one record, which lies in one part (say D_1), so M_2 and M_3 see the same "
            "input on x and y.  The tuple is max(eps_i)-DP."
        ),
        variables=(*epss, *xs, *ys),
        hypotheses=(*_dp_hypotheses(a, b, e), sp.Eq(a[1], b[1]), sp.Eq(a[2], b[2])),
        claim=Claim(Joint(*a) / Joint(*b), Relation.LE, sp.exp(sp.Max(*e))),
        steps=(
            Step(
                Relation.EQ,
                ratios(a, b),
                Justification("independence", K.DEFINITION),
            ),
            Step(
                Relation.EQ,
                a[0] / b[0],
                Justification("M_2 and M_3 see identical inputs: their ratios are 1", K.HYPOTHESIS),
            ),
            Step(Relation.LE, sp.exp(e[0]), Justification("M_1 is eps_1-DP", K.HYPOTHESIS)),
            Step(
                Relation.LE,
                sp.exp(sp.Max(*e)),
                Justification("eps_1 <= max eps_i and exp is increasing", K.RULE),
            ),
        ),
        family=FAMILY,
    )


def naive_adaptive() -> Derivation:
    eps = Variable(
        "eps", parse_domain("(0, oo)"), "privacy parameter of every round", r"\varepsilon"
    )
    r0 = _prob("r0", "Pr[R^0 = r], the adversary's coins on x", r"\Pr[R^0 = r]")
    r1 = _prob("r1", "Pr[R^1 = r], the adversary's coins on y", r"\Pr[R^1 = r]")
    cs = [
        _prob(
            f"c{i}",
            f"Pr[Y_{i}^0 = y_{i} | earlier answers], on x",
            rf"\Pr[Y^0_{{{i}}} = y_{{{i}}} \mid \cdot]",
        )
        for i in (1, 2, 3)
    ]
    ds = [
        _prob(
            f"d{i}",
            f"Pr[Y_{i}^1 = y_{i} | earlier answers], on y",
            rf"\Pr[Y^1_{{{i}}} = y_{{{i}}} \mid \cdot]",
        )
        for i in (1, 2, 3)
    ]
    e, p0, p1 = eps.symbol, r0.symbol, r1.symbol
    c, d = [v.symbol for v in cs], [v.symbol for v in ds]
    lhs = product(
        frac(p0, p1),
        *[frac(x, y) for x, y in zip(c, d, strict=True)],
    )
    return Derivation(
        id="naive-adaptive-composition",
        title="Naive k-fold adaptive composition (k = 3)",
        source=Source(
            "seed 003 (notes on Dwork & Roth 2014, section 3.5.2)",
            "Theorem 1 (naive composition)",
            seed="003",
        ),
        statement=(
            "The view v = (r, y_1, y_2, y_3) of an adversary interacting with eps-DP "
            "mechanisms: Pr[V^0 = v]/Pr[V^1 = v] <= e^(3 eps)."
        ),
        variables=(eps, r0, r1, *cs, *ds),
        hypotheses=(
            sp.Eq(p0, p1),
            *[sp.LessThan(x, sp.exp(e) * y) for x, y in zip(c, d, strict=True)],
        ),
        claim=Claim(lhs, Relation.LE, sp.exp(3 * e)),
        steps=(
            Step(
                Relation.LE,
                sp.Mul(sp.exp(e), sp.exp(e), sp.exp(e), evaluate=False),
                Justification(
                    "the adversary's coins do not depend on the database (ratio 1) "
                    "and each round is eps-DP given the earlier answers",
                    K.HYPOTHESIS,
                ),
            ),
            Step(Relation.EQ, sp.exp(3 * e), Justification("product of exponentials", K.ALGEBRA)),
        ),
        family=FAMILY,
    )


class OptimalDelta(NumericFunction):
    """delta of the optimal k-fold composition of (eps, delta)-DP mechanisms at eps'."""

    nargs = 4
    impl = staticmethod(
        lambda k, eps, delta, eps_prime: optimal_delta(int(k), eps, delta, eps_prime)
    )
    latex_template = r"\delta^{{\mathrm{{opt}}}}_{{{0}}}\left({1}, {2}; {3}\right)"


K_MECHANISMS = Variable("k", parse_domain("Z in [1, 2000]"), "number of mechanisms", "k")
EPS_EACH = Variable("eps", parse_domain("(0, 2]"), "eps of each mechanism", r"\varepsilon")
DELTA_EACH = Variable(
    "delta",
    Domain(lower=sp.S.Zero, upper=sp.Rational(1, 10), scale="log"),
    "delta of each mechanism",
    r"\delta",
)


def _basic_eps(ks: sp.Expr, es: sp.Expr) -> sp.Expr:
    """eps' = k eps of Theorem 3.16 (and Corollary 3.15)."""
    return ks * es


_BASIC_EPS = stated(
    (K_MECHANISMS.symbol, EPS_EACH.symbol), _basic_eps(K_MECHANISMS.symbol, EPS_EACH.symbol)
)


def basic_eps(k: int, eps: Any) -> Any:
    """Dwork & Roth 2014, Theorem 3.16 (and Corollary 3.15): k eps, for k >= 1 mechanisms
    that are each eps-DP, eps >= 0."""
    return _BASIC_EPS(check_whole("k", k), check_nonnegative("eps", eps))


def approx_basic_composition() -> Derivation:
    k, eps, delta = K_MECHANISMS, EPS_EACH, DELTA_EACH
    ks, es, ds = k.symbol, eps.symbol, delta.symbol
    return Derivation(
        id="approx-basic-composition",
        title="Composition of k (eps, delta)-DP mechanisms",
        source=Source(DR, "Theorem 3.16 (homogeneous case)", seed="000"),
        statement=(
            "The k-fold composition of (eps, delta)-DP mechanisms is "
            "(k eps, k delta)-DP.  The seed states it without proof (the book's "
            "Appendix B); it is checked here against the exact optimal composition."
        ),
        variables=(k, eps, delta),
        claim=Claim(OptimalDelta(ks, es, ds, _basic_eps(ks, es)), Relation.LE, ks * ds),
        steps=(
            Step(
                Relation.LE,
                ks * ds,
                Justification(
                    "Dwork & Roth 2014, Theorem 3.16 (proof not in the seed); the left side is the "
                    "exact optimum of Kairouz, Oh & Viswanath 2015",
                    K.CITE,
                    citation="Kairouz-Oh-Viswanath 2015, Theorem 3.3",
                ),
            ),
        ),
        family=FAMILY,
    )


DERIVATIONS = (
    basic_composition_seed,
    basic_composition,
    basic_composition_k,
    approx_basic_composition,
    parallel_composition,
    naive_adaptive,
)
