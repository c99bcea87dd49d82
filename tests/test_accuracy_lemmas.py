"""The Laplace tail (Dwork & Roth 2014, Fact 3.7) and the accuracy lemmas of section 3.6
(Theorems 3.24, 3.26 and the parts of 3.28): proved, resting only on each other and on the
union bound; a mutated constant is refuted, a weaker statement is not; the tail's symbolic
and numeric forms agree with quadrature of the density."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable

import mpmath
import pytest
import sympy as sp

from derivations.catalog import catalog, get
from derivations.laplace_tail import LaplaceTail, tail_integral
from numeric_checks import CheckOptions, check_derivation
from numeric_checks.dp.above_threshold import simulate_above_threshold
from symbolic.derivation import Claim, Derivation, JustificationKind, Step
from symbolic.kit import by
from symbolic.relations import Relation
from symbolic.verdicts import Verdict

from .conftest import sym

FAST = CheckOptions(points=60, search_budget=60)
# A weaker statement in one step is not proved by the rules; certifying it (which cannot
# make it refuted) would take most of its check.
UNCERTIFIED = dataclasses.replace(FAST, certify=False)

LEMMAS = (
    "laplace-tail",
    "above-threshold-accuracy",
    "sparse-accuracy-pure",
    "sparse-accuracy-approx",
    "numeric-sparse-accuracy-bound-pure",
    "numeric-sparse-accuracy-bound-approx",
)


def _rests_on(did: str) -> set[tuple[str, str]]:
    """Every (kind, ref) that ``did``'s steps rest on, through lemmas transitively."""
    seen: set[str] = set()
    out: set[tuple[str, str]] = set()
    todo = [did]
    while todo:
        d = get(todo.pop())
        for step in d.steps:
            why = step.justification
            if why.kind is JustificationKind.LEMMA and why.lemma:
                out.add(("lemma", why.lemma))
                if why.lemma not in seen:
                    seen.add(why.lemma)
                    todo.append(why.lemma)
            elif why.kind is JustificationKind.FOUNDATION and why.foundation:
                out.add(("foundation", why.foundation))
            elif why.kind is JustificationKind.CITE:
                out.add(("cite", why.citation or why.text))
    return out


@pytest.mark.parametrize("did", LEMMAS)
def test_each_lemma_is_proved_in_general(did: str) -> None:
    r = check_derivation(get(did), CheckOptions(seed=0))
    assert r.verdict is Verdict.PROVED, [(s.index, s.verdict.value, s.evidence) for s in r.steps]
    assert r.scope == "general", r.scope_note


@pytest.mark.parametrize("did", ["numeric-sparse-accuracy-pure", "numeric-sparse-accuracy-approx"])
def test_numeric_sparse_accuracy_rests_on_the_lemmas_and_the_union_bound_only(did: str) -> None:
    first = get(did).steps[0].justification
    assert first.kind is JustificationKind.LEMMA
    assert first.lemma == did.replace("accuracy", "accuracy-bound")
    rests = _rests_on(did)
    assert not [r for r in rests if r[0] == "cite"], rests
    assert {r for r in rests if r[0] == "foundation"} == {("foundation", "union-bound")}
    case = did.rsplit("-", 1)[1]
    assert {("lemma", "laplace-tail"), ("lemma", f"sparse-accuracy-{case}")} <= rests
    assert ("lemma", "above-threshold-accuracy") in rests


def test_the_seed_errata_rest_on_the_same_lemmas() -> None:
    for case in ("pure", "approx"):
        why = get(f"numeric-sparse-accuracy-{case}-seed").steps[0].justification
        assert why.lemma == f"numeric-sparse-accuracy-bound-{case}"


def test_the_laplace_tail_rests_on_nothing() -> None:
    assert _rests_on("laplace-tail") == set()
    kinds = {s.justification.kind for s in get("laplace-tail").steps}
    assert kinds <= {JustificationKind.ALGEBRA}


def test_the_new_ids_are_in_the_catalog() -> None:
    assert set(LEMMAS) <= set(catalog())


# -- the tail as a function ----------------------------------------------------------------


@pytest.mark.parametrize(("s", "b"), [("0", "1"), ("0.3", "2"), ("5", "0.25"), ("40", "3")])
def test_laplace_tail_numbers_agree_with_quadrature_of_the_density(s: str, b: str) -> None:
    with mpmath.workdps(30):
        sv, bv = mpmath.mpf(s), mpmath.mpf(b)
        density = lambda x: mpmath.exp(-abs(x) / bv) / (2 * bv)  # noqa: E731
        quad = mpmath.quad(density, [-mpmath.inf, -sv]) + mpmath.quad(density, [sv, mpmath.inf])
        tail = LaplaceTail.impl(sv, bv)
        assert abs(tail - quad) <= mpmath.mpf(10) ** -25 * max(quad, mpmath.mpf(10) ** -300)


def test_laplace_tail_doit_is_the_closed_form_and_a_bad_scale_is_an_error() -> None:
    s, b = sp.symbols("s b", positive=True)
    assert sp.simplify(LaplaceTail(s, b).doit() - sp.exp(-s / b)) == 0
    assert sp.simplify(2 * tail_integral(s, b).doit() - sp.exp(-s / b)) == 0
    with pytest.raises(ValueError, match="scale b > 0"):
        LaplaceTail.impl(mpmath.mpf(1), mpmath.mpf(-1))


# -- mutants and weaker statements ---------------------------------------------------------


def _with_alpha(did: str, alpha: Callable[[Derivation], sp.Expr]) -> Derivation:
    d = get(did)
    (a, _), *rest = d.defs
    return d.replace(defs=((a, alpha(d)), *rest))


def _one_step(did: str, rhs: sp.Expr | None = None) -> Derivation:
    """The claim lhs <= rhs (default: the claim's own rhs) in one step, justified as the
    chain's last step is."""
    d = get(did)
    target = d.claim.rhs if rhs is None else rhs
    last = d.steps[-1].justification
    return d.replace(
        claim=Claim(d.claim.lhs, Relation.LE, target),
        steps=(Step(Relation.LE, target, last),),
    )


def _eps_beta_k(did: str) -> tuple[sp.Symbol, sp.Symbol, sp.Symbol]:
    return sym(did, "eps"), sym(did, "beta"), sym(did, "k")


def _at_alpha(factor: int) -> Callable[[Derivation], sp.Expr]:
    def alpha(d: Derivation) -> sp.Expr:
        e, b, k = _eps_beta_k(d.id)
        return factor * (sp.log(k) + sp.log(2 / b)) / e

    return alpha


def _sparse_pure_alpha(factor: int) -> Callable[[Derivation], sp.Expr]:
    def alpha(d: Derivation) -> sp.Expr:
        e, b, k = _eps_beta_k(d.id)
        c = sym(d.id, "c")
        return factor * c * (sp.log(k) + sp.log(2 * c / b)) / e

    return alpha


def _sparse_approx_alpha(inside: int) -> Callable[[Derivation], sp.Expr]:
    def alpha(d: Derivation) -> sp.Expr:
        e, b, k = _eps_beta_k(d.id)
        c, delta = sym(d.id, "c"), sym(d.id, "delta")
        return (sp.log(k) + sp.log(2 * c / b)) * sp.sqrt(inside * c * sp.log(1 / delta)) / e

    return alpha


def _tail_rhs(did: str, rhs: sp.Expr) -> Derivation:
    d = get(did)
    return d.with_step(len(d.steps) - 1, expr=rhs)


def _bound_mutant(case: str) -> Derivation:
    """alpha_L with ln(c/beta) for ln(2c/beta): the c answers then fail with probability
    beta, and with the Sparse part the total exceeds beta."""
    did = f"numeric-sparse-accuracy-bound-{case}"
    d = get(did)
    b, c = sym(did, "beta"), sym(did, "c")
    return d.replace(
        claim=Claim(d.claim.lhs.xreplace({2 * c / b: c / b}), d.claim.relation, b),
        steps=tuple(
            Step(s.relation, s.expr.xreplace({2 * c / b: c / b}), s.justification) for s in d.steps
        ),
    )


MUTANTS: dict[str, Callable[[], Derivation]] = {
    "laplace-tail: e^(-t/2)": lambda: _tail_rhs(
        "laplace-tail", sp.exp(-sym("laplace-tail", "t") / 2)
    ),
    "above-threshold-accuracy: 4 for 8 in alpha": lambda: _with_alpha(
        "above-threshold-accuracy", _at_alpha(4)
    ),
    "above-threshold-accuracy: 4 for 8, the claim alone": lambda: _with_alpha(
        "above-threshold-accuracy", _at_alpha(4)
    ).replace(steps=_one_step("above-threshold-accuracy").steps),
    "sparse-accuracy-pure: 4c for 8c in alpha": lambda: _with_alpha(
        "sparse-accuracy-pure", _sparse_pure_alpha(4)
    ),
    "sparse-accuracy-approx: sqrt(128 c ...) for sqrt(512 c ...)": lambda: _with_alpha(
        "sparse-accuracy-approx", _sparse_approx_alpha(128)
    ),
    "numeric-sparse-accuracy-bound-pure: ln(c/beta) in alpha_L": lambda: _bound_mutant("pure"),
    "numeric-sparse-accuracy-bound-approx: ln(c/beta) in alpha_L": lambda: _bound_mutant("approx"),
}


def _then_at_most(did: str, rhs: sp.Expr) -> Derivation:
    """The chain as it is, then one more step: at most ``rhs``."""
    d = get(did)
    steps = (*d.steps, Step(Relation.LE, rhs, by.algebra()))
    return d.replace(claim=Claim(d.claim.lhs, Relation.LE, rhs), steps=steps)


def _twice_beta(did: str) -> Derivation:
    """The chain as it is, but ending at failure probability 2 beta (weaker)."""
    d = get(did)
    return d.with_step(len(d.steps) - 1, expr=2 * sym(did, "beta"), relation=Relation.LE)


WEAKER: dict[str, Callable[[], Derivation]] = {
    "laplace-tail: <= e^(-t/2)": lambda: _then_at_most(
        "laplace-tail", sp.exp(-sym("laplace-tail", "t") / 2)
    ),
    **{f"{did}: failure 2 beta": functools.partial(_twice_beta, did) for did in LEMMAS[1:]},
}


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_mutant_is_refuted(name: str) -> None:
    r = check_derivation(MUTANTS[name](), FAST)
    assert r.verdict is Verdict.REFUTED, [(s.index, s.verdict.value, s.evidence) for s in r.steps]
    refuted = [s for s in (*r.steps, r.conclusion) if s.verdict is Verdict.REFUTED]
    assert refuted[0].counterexample is not None


@pytest.mark.parametrize("name", sorted(WEAKER))
def test_true_but_weaker_is_not_refuted(name: str) -> None:
    r = check_derivation(WEAKER[name](), UNCERTIFIED)
    assert r.verdict is not Verdict.REFUTED, [(s.index, s.verdict.value) for s in r.steps]


# -- the AboveThreshold simulation (the oracle of Theorem 3.24) ----------------------------


def test_above_threshold_simulation_at_alpha_zero_fails_half_the_time() -> None:
    # k = 1 and the query at T: bottom (a failure) iff nu_1 < nu_T, probability 1/2.
    r = simulate_above_threshold(1.0, (1e-300,), 0.0, runs=20000, seed=1)
    assert r.lower <= 0.5 <= r.upper


def test_above_threshold_oracle_agrees_at_the_stated_alpha_and_refutes_a_small_one() -> None:
    d = get("above-threshold-accuracy")
    assert d.oracle is not None
    e, b, k = mpmath.mpf(1), mpmath.mpf("0.5"), 5
    stated = float(8 * (mpmath.log(k) + mpmath.log(2 / b)) / e)
    assert d.oracle.check({"eps": e, "beta": b, "k": k, "alpha": stated}).ok is True
    small = d.oracle.check({"eps": e, "beta": mpmath.mpf("0.05"), "k": 50, "alpha": 1.0})
    assert small.ok is False, small.detail
