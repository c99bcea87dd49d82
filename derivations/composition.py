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
* ``basic-composition-k``: Corollary 3.15 for any number k of mechanisms.
* ``parallel-composition``: seed 003, Theorem 4: mechanisms on k disjoint parts of the data.
* ``naive-adaptive-composition``: seed 003, Theorem 1, k adaptive rounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sympy as sp

from derivations.composition_families import (
    A_I,
    B_I,
    EPS_I,
    EPS_MAX,
    MECHANISM,
    K,
    adaptive_vars,
    mechanism_points,
    part_points,
    round_points,
)
from derivations.display import frac, product
from derivations.sources import DWORK_ROTH, SEED_003_NOTES
from derivations.stated import stated
from derivations.symbols import EPS_EACH
from numeric_checks.validate import check_nonnegative, check_whole
from symbolic.derivation import Derivation
from symbolic.domains import Domain, Variable, parse_domain
from symbolic.families import ForAll
from symbolic.functions import DefinedFunction
from symbolic.kit import by, chain

PROB = Domain(lower=sp.S.Zero, upper=sp.S.One, upper_open=False)
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
    """Probability that independent mechanisms output the tuple: the product.  Given the
    probabilities one by one, ``Joint(a1, a2)``; given a family and the number of
    mechanisms, ``Joint(a, k)`` is ``Product(a[i], (i, 1, k))``, written out one by one at a
    numeric ``k`` (an instance)."""

    @classmethod
    def eval(cls, *args: sp.Expr) -> sp.Expr | None:
        if _over_family(args) and sp.sympify(args[1]).is_Integer:
            base, k = args
            return cls(*[base[i] for i in range(1, int(k) + 1)])
        return None

    @classmethod
    def definition(cls, *probs: sp.Expr) -> sp.Expr:
        if _over_family(probs):
            base, k = probs
            return sp.Product(base[MECHANISM], (MECHANISM, 1, k))
        return sp.Mul(*probs)

    def _db(self) -> str:
        first = self.args[0]
        name = first.label if isinstance(first, sp.IndexedBase) else first
        return "x" if str(name).startswith("a") else "y"

    def _count(self) -> tuple[str, str]:
        if _over_family(self.args):
            k = str(self.args[1])
            return k, k
        return str(len(self.args)), str(len(self.args))

    def _latex(self, printer: object) -> str:
        k, last = self._count()
        return rf"\Pr[\mathcal{{M}}_{{[{k}]}}({self._db()}) = (r_{{1}}, \dots, r_{{{last}}})]"

    def _sympystr(self, printer: object) -> str:
        return f"Pr[M({self._db()}) = (r_1..r_{self._count()[1]})]"


def _over_family(args: Sequence[sp.Basic]) -> bool:
    return len(args) == 2 and isinstance(args[0], sp.IndexedBase)


Symbols = list[sp.Symbol]


def _mechanisms(k: int) -> tuple[tuple[Variable, ...], Symbols, Symbols, Symbols]:
    """The variables of k mechanisms (eps_i, Pr[M_i(x) = r_i], Pr[M_i(y) = r_i]) and the
    symbols Pr[M_i(x) = r_i], Pr[M_i(y) = r_i] and eps_i."""
    epss = [_eps(i) for i in range(1, k + 1)]
    xs, ys = _outcome_vars(k)
    a, b, e = ([v.symbol for v in vs] for vs in (xs, ys, epss))
    return (*epss, *xs, *ys), a, b, e


def _theorem_3_14() -> dict[str, Any]:
    """What both chains of Theorem 3.14 prove, and from what."""
    variables, a, b, e = _mechanisms(2)
    return {
        "source": DWORK_ROTH.at("Theorem 3.14", seed="000"),
        "statement": (
            "For neighbours x, y (||x - y||_1 <= 1) and any (r_1, r_2), "
            "Pr[M_{1,2}(x) = (r_1, r_2)] <= e^(eps_1 + eps_2) Pr[M_{1,2}(y) = (r_1, r_2)]."
        ),
        "variables": variables,
        "hypotheses": _dp_hypotheses(a, b, e),
        "family": FAMILY,
    }


def basic_composition_seed() -> Derivation:
    """Theorem 3.14 with the chain exactly as seed 000 writes it: an erratum."""
    _, (a1, a2), (b1, b2), (eps1, eps2) = _mechanisms(2)
    proof = (
        chain(Joint(a1, a2) / Joint(b1, b2))
        .eq(
            frac(a1 * a2, b1 * a2),
            by.definition(
                "independence: the joint probability is the product"
                " (the seed writes Pr[M_2(x) = r_2] in the denominator)"
            ),
        )
        .eq(product(frac(a1, b1), frac(a2, a2)), by.algebra("regroup into one ratio per mechanism"))
        .le(
            sp.Mul(sp.exp(eps1), sp.exp(eps2), evaluate=False),
            by.hypothesis("M_1 is eps_1-DP and M_2 is eps_2-DP"),
        )
        .eq(sp.exp(eps1 + eps2), by.algebra("e^a e^b = e^(a+b)"))
    )
    return proof.derive(
        id="basic-composition-seed",
        title="Composition of two pure DP mechanisms (as the seed writes it)",
        erratum=(
            "the seed's first step divides by Pr[M_1(y) = r_1] Pr[M_2(x) = r_2] instead "
            "of Pr[M_1(y) = r_1] Pr[M_2(y) = r_2], so its second factor is 1 and the step "
            "is false; the theorem holds, see basic-composition"
        ),
        **_theorem_3_14(),
    )


def basic_composition() -> Derivation:
    """Theorem 3.14, corrected."""
    _, (a1, a2), (b1, b2), (eps1, eps2) = _mechanisms(2)
    proof = (
        chain(Joint(a1, a2) / Joint(b1, b2))
        .eq(
            frac(a1 * a2, b1 * b2),
            by.definition("independence: the joint probability is the product"),
        )
        .eq(product(frac(a1, b1), frac(a2, b2)), by.algebra("regroup into one ratio per mechanism"))
        .le(
            sp.Mul(sp.exp(eps1), sp.exp(eps2), evaluate=False),
            by.hypothesis("M_1 is eps_1-DP and M_2 is eps_2-DP"),
        )
        .eq(sp.exp(eps1 + eps2), by.algebra("e^a e^b = e^(a+b)"))
    )
    return proof.derive(
        id="basic-composition", title="Composition of two pure DP mechanisms", **_theorem_3_14()
    )


def basic_composition_k() -> Derivation:
    """Corollary 3.15 for any number k >= 1 of mechanisms: a product over the mechanisms."""
    i, k = MECHANISM, K.symbol
    a, b, e = A_I.base[i], B_I.base[i], EPS_I.base[i]
    proof = (
        chain(Joint(A_I.base, k) / Joint(B_I.base, k))
        .eq(
            sp.Product(a / b, (i, 1, k)),
            by.definition("independence, regrouped one ratio per mechanism"),
        )
        .le(
            sp.Product(sp.exp(e), (i, 1, k)),
            by.hypothesis(
                "each M_i is eps_i-DP: a product of nonnegative factors, compared factor by factor",
                "product bound",
            ),
        )
        .eq(sp.exp(sp.Sum(e, (i, 1, k))), by.algebra("product of exponentials"))
    )
    return proof.derive(
        id="basic-composition-k",
        title="Composition of k pure DP mechanisms",
        source=DWORK_ROTH.at("Corollary 3.15", seed="000"),
        statement=(
            "For neighbours x, y (||x - y||_1 <= 1) and any number k >= 1 of mechanisms, the "
            "tuple of k eps_i-DP mechanisms is (sum eps_i)-DP."
        ),
        variables=(K, EPS_I, A_I, B_I),
        hypotheses=(
            ForAll(sp.LessThan(a, sp.exp(e) * b), (i, 1, k)),
            ForAll(sp.LessThan(b, sp.exp(e) * a), (i, 1, k)),
        ),
        family=FAMILY,
        instance_points=mechanism_points,
    )


def parallel_composition() -> Derivation:
    """Seed 003, Theorem 4, for any number k >= 1 of parts: mechanisms on disjoint parts of
    the data.  The neighbours' differing record lies in one part, numbered 1 (the parts are
    numbered so); every other part sees the same input on x and y."""
    i, k = MECHANISM, K.symbol
    a, b, e = A_I.base[i], B_I.base[i], EPS_I.base[i]
    one = sp.Integer(1)
    top = EPS_MAX.symbol
    proof = (
        chain(Joint(A_I.base, k) / Joint(B_I.base, k))
        .eq(sp.Product(a / b, (i, 1, k)), by.definition("independence"))
        .eq(
            product(frac(A_I.base[one], B_I.base[one]), sp.Product(a / b, (i, 2, k))),
            by.algebra("the part D_1 holding the differing record apart from the others"),
        )
        .eq(
            frac(A_I.base[one], B_I.base[one]),
            by.hypothesis("M_2, ..., M_k see identical inputs on x and y: their ratios are 1"),
        )
        .le(sp.exp(EPS_I.base[one]), by.hypothesis("M_1 is eps_1-DP"))
        .le(
            sp.exp(top),
            by.hypothesis("eps_1 <= max_i eps_i, and exp is increasing"),
        )
    )
    return proof.derive(
        id="parallel-composition",
        title="Parallel composition on disjoint parts of the data",
        source=SEED_003_NOTES.at("Theorem 4 (parallel)", seed="003"),
        statement=(
            "M_i runs on X ∩ D_i for disjoint parts D_1, ..., D_k (any k >= 1).  Neighbours "
            "x, y differ in one record, which lies in one part (numbered D_1), so M_2, ..., "
            "M_k see the same input on x and y.  The tuple is max(eps_i)-DP: its ratio is at "
            "most e^(eps_max) for every eps_max >= eps_1, ..., eps_k."
        ),
        variables=(K, EPS_I, EPS_MAX, A_I, B_I),
        hypotheses=(
            ForAll(sp.LessThan(a, sp.exp(e) * b), (i, 1, k)),
            ForAll(sp.LessThan(b, sp.exp(e) * a), (i, 1, k)),
            ForAll(sp.Eq(a, b), (i, 2, k)),
            ForAll(sp.LessThan(e, top), (i, 1, k)),
        ),
        family=FAMILY,
        instance_points=part_points,
    )


def naive_adaptive() -> Derivation:
    """Seed 003, Theorem 1: naive composition of any number k >= 1 of adaptive rounds."""
    eps = Variable(
        "eps", parse_domain("(0, oo)"), "privacy parameter of every round", r"\varepsilon"
    )
    r0, r1, cs, ds = adaptive_vars()
    e, p0, p1 = eps.symbol, r0.symbol, r1.symbol
    i, k = MECHANISM, K.symbol
    c, d = cs.base[i], ds.base[i]
    rounds = sp.Product(frac(c, d), (i, 1, k))
    proof = (
        chain(product(frac(p0, p1), rounds))
        .eq(
            sp.Product(c / d, (i, 1, k)),
            by.hypothesis("the adversary's coins do not depend on the database (ratio 1)"),
        )
        .le(
            sp.exp(k * e),
            by.hypothesis(
                "each round is eps-DP given the earlier answers: k factors, each at most e^eps "
                "(factor by factor)",
                "product bound",
            ),
        )
    )
    return proof.derive(
        id="naive-adaptive-composition",
        title="Naive k-fold adaptive composition",
        source=SEED_003_NOTES.at("section 3.5.2, Theorem 1 (naive composition)", seed="003"),
        statement=(
            "The view v = (r, y_1, ..., y_k) of an adversary interacting with k >= 1 eps-DP "
            "mechanisms: Pr[V^0 = v]/Pr[V^1 = v] <= e^(k eps)."
        ),
        variables=(K, eps, r0, r1, cs, ds),
        hypotheses=(sp.Eq(p0, p1), ForAll(sp.LessThan(c, sp.exp(e) * d), (i, 1, k))),
        family=FAMILY,
        instance_points=round_points,
    )


K_MECHANISMS = Variable("k", parse_domain("Z in [1, 2000]"), "number of mechanisms", "k")


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


DERIVATIONS = (
    basic_composition_seed,
    basic_composition,
    basic_composition_k,
    parallel_composition,
    naive_adaptive,
)
