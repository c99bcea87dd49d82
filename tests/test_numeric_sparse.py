"""NumericSparse (Dwork & Roth 2014, Theorems 3.27 and 3.28): simulation against exact
probabilities, the catalog's verdicts, mutants of the alpha formulas, bad parameters."""

from __future__ import annotations

import dataclasses
import io
import json
import re

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from derivations.app.cli import main
from derivations.catalog import get
from derivations.numeric_sparse import (
    BETA,
    DELTA,
    EPS,
    KQ,
    C,
    alpha_corrected,
    alpha_laplace_part,
    alpha_seed,
)
from numeric_checks import CheckOptions, check_derivation
from numeric_checks.certify import certify_residual
from numeric_checks.dp.sparse import (
    SparseParams,
    answer_error_probability,
    assess,
    exact_failure,
    near_count,
    simulate,
    streams,
)
from numeric_checks.plan import make_plan
from numeric_checks.stages import Link, certify_step
from symbolic.derivation import Derivation
from symbolic.errors import InvalidInput
from symbolic.evidence import words
from symbolic.report import CertificateRecord, CertificateStatus
from symbolic.rules import fact_from_relation
from symbolic.verdicts import Verdict

FAST = CheckOptions(points=60, search_budget=150, oracle=False)
# A mutant alpha is refuted by sampling alone: the rules' failing search on the false step
# (7 of a mutant's 8 CPU seconds) and the certifier cannot change that verdict.
MUTANT_CHECK = dataclasses.replace(FAST, symbolic=False, certify=False)


# -- parameters ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("eps", "delta", "c", "k", "message"),
    [
        (0, 0, 1, 1, "eps must be > 0"),
        (-1, 0, 1, 1, "eps must be > 0"),
        (1, -0.1, 1, 1, "delta must be in [0, 1)"),
        (1, 1, 1, 1, "delta must be in [0, 1)"),
        (1, 0, 0, 1, "c must be a whole number >= 1"),
        (1, 0, 1.5, 2, "c must be a whole number >= 1"),
        (1, 0, 3, 2, "k must be a whole number >= c = 3"),
    ],
)
def test_bad_parameters_are_clear_errors(eps, delta, c, k, message) -> None:
    with pytest.raises(InvalidInput, match=re.escape(message)):
        SparseParams.make(eps, delta, c, k)


@pytest.mark.parametrize("beta", [0, 1, -0.5, 2])
def test_beta_outside_unit_interval_is_an_error(beta) -> None:
    p = SparseParams.make(1, 0, 1, 1)
    with pytest.raises(InvalidInput, match="beta must be in"):
        alpha_seed(p, beta)


def test_budget_split_matches_the_book() -> None:
    pure = SparseParams.make(9, 0, 3, 10)
    assert pure.eps1 == 8 and pure.eps2 == 2
    assert pure.threshold_scale == mpmath.mpf(6) / 8 and pure.answer_scale == 3
    approx = SparseParams.make(1, 0.5, 2, 10)
    r = mpmath.sqrt(512)
    assert approx.eps1 + approx.eps2 / 2 == pytest.approx(1)  # Sparse part + Laplace part
    assert approx.answer_scale == pytest.approx(mpmath.sqrt(64 * mpmath.log(4)) * (r + 1) / 2)


# -- exact probabilities and the simulation ------------------------------------------------


def test_one_far_query_fails_exactly_with_the_laplace_tail() -> None:
    # delta = 0, k = c = 1: alpha/sigma(eps2) = ln(4c k/beta), so the answer is off with
    # probability beta/4 exactly; the query is answered except with probability ~e^-30.
    p = SparseParams.make(1, 0, 1, 1)
    beta = mpmath.mpf("0.2")
    alpha = alpha_seed(p, beta)
    far = streams(p, float(alpha), "last")[0]
    assert far.name == "last-high"
    assert exact_failure(p, far.values, alpha) == pytest.approx(float(beta / 4), rel=1e-9)
    assert answer_error_probability(p, alpha, 1) == pytest.approx(float(beta / 4), rel=1e-12)


@pytest.mark.parametrize(
    ("eps", "delta", "c", "k", "beta"),
    [(1, 0, 1, 3, 0.3), (1, 0, 2, 3, 0.9), (2, 0.1, 1, 2, 0.05), (1, 0.1, 2, 4, 0.05)],
)
def test_simulation_agrees_with_the_exact_failure_probability(eps, delta, c, k, beta) -> None:
    p = SparseParams.make(eps, delta, c, k)
    alpha = alpha_seed(p, beta)
    for s in streams(p, float(alpha), "seed", seed=3):
        exact = exact_failure(p, s.values, alpha)
        r = simulate(p, s.values, float(alpha), 40000, seed=11, confidence=0.99999)
        assert r.lower <= exact <= r.upper, (s.name, exact, r)


@settings(max_examples=8, deadline=None)
@given(
    c=st.integers(1, 3),
    extra=st.integers(0, 2),
    beta=st.floats(0.01, 0.9),
    delta=st.sampled_from([0.0, 0.01, 0.5]),
    seed=st.integers(0, 10**6),
)
def test_simulation_agrees_with_exact_on_random_streams(c, extra, beta, delta, seed) -> None:
    p = SparseParams.make(1, delta, c, c + extra)
    alpha = alpha_corrected(p, beta)
    s = streams(p, float(alpha), "seed", seed=seed)[-1 if extra else 3]
    exact = exact_failure(p, s.values, alpha)
    r = simulate(p, s.values, float(alpha), 20000, seed=seed, confidence=0.99999)
    assert r.lower <= exact <= r.upper


@settings(max_examples=30, deadline=None)
@given(c=st.integers(1, 8), extra=st.integers(0, 30), seed=st.integers(0, 10**6))
def test_streams_satisfy_their_hypotheses(c, extra, seed) -> None:
    p = SparseParams.make(1, 0, c, c + extra)
    alpha = float(alpha_seed(p, 0.1))
    for s in streams(p, alpha, "last", seed=seed):
        assert len(s.values) == p.k
        assert near_count(s.values, alpha, before_last=True) <= c - 1, s.name
    for s in streams(p, alpha, "seed", seed=seed):
        assert near_count(s.values, alpha, before_last=False) <= c, s.name


def test_front_loaded_stream_halts_early() -> None:
    p = SparseParams.make(1, 0, 2, 5)
    alpha = alpha_seed(p, 0.05)
    front = streams(p, float(alpha), "seed")[-1]
    assert front.name == "front-loaded"
    r = simulate(p, front.values, float(alpha), 2000, seed=0)
    assert r.by_event["halted_early"] >= 1990


def test_seed_alpha_for_positive_delta_fails_often_and_corrected_holds() -> None:
    p = SparseParams.make(1, 0.1, 10, 10)
    seed_results = assess(p, alpha_seed(p, 0.05), 0.05, "seed", runs=5000)
    assert all(a.holds is False for a in seed_results if a.stream.name != "edge-below")
    last_high = seed_results[0].simulation
    assert last_high is not None and last_high.rate > 0.3
    assert last_high.by_event["answer_off"] == last_high.failures
    fixed = assess(p, alpha_corrected(p, 0.05), 0.05, "last", runs=5000)
    assert all(a.holds for a in fixed)
    assert alpha_laplace_part(p, 0.05) > alpha_seed(p, 0.05)


# -- the catalog -------------------------------------------------------------------------


def test_privacy_derivations() -> None:
    assert check_derivation(get("numeric-sparse-privacy-pure"), FAST).verdict is Verdict.PROVED
    seed = check_derivation(get("numeric-sparse-privacy-approx-seed"), FAST)
    assert seed.verdict is Verdict.REFUTED and seed.as_expected
    assert seed.steps[1].counterexample is not None
    fixed = check_derivation(get("numeric-sparse-privacy-approx"), FAST)
    # step 2 decided by z3 for every c >= 1 (was certified on a box while the relaxation of
    # the integer c lost c >= 1)
    assert fixed.verdict is Verdict.PROVED


def test_privacy_split_with_the_seeds_eps_over_sqrt512_is_refuted() -> None:
    # A mutant of the corrected chain: the Laplace part taken as eps/sqrt(512).
    d = get("numeric-sparse-privacy-approx")
    es = d.variables[0].symbol
    r512 = sp.sqrt(512)
    mutant = d.replace(
        claim=d.claim.__class__(r512 * es / (r512 + 1) + es / r512, d.claim.relation, d.claim.rhs),
        steps=d.steps[-1:],
    )
    assert check_derivation(mutant, FAST).verdict is Verdict.REFUTED


@pytest.mark.parametrize(
    ("derivation_id", "stream"),
    [
        ("numeric-sparse-accuracy-pure-seed", "front-loaded"),
        ("numeric-sparse-accuracy-approx-seed", None),
    ],
)
def test_seed_accuracy_statements_are_refuted_by_the_simulation(derivation_id, stream) -> None:
    r = check_derivation(get(derivation_id), CheckOptions(points=40, search_budget=100))
    assert r.verdict is Verdict.REFUTED and r.as_expected
    assert r.oracle is not None and r.oracle.agrees is False
    assert "runs fail" in r.oracle.detail or "exact failure" in r.oracle.detail
    if stream:
        assert f"stream {stream}" in r.oracle.detail


@pytest.mark.parametrize(
    "derivation_id", ["numeric-sparse-accuracy-pure", "numeric-sparse-accuracy-approx"]
)
def test_corrected_accuracy_agrees_with_the_simulation(derivation_id) -> None:
    r = check_derivation(get(derivation_id), CheckOptions(points=40, search_budget=100))
    # Every step proved or certified (issue 16): the approx max step on its certify_box.
    assert r.verdict.rank >= Verdict.CERTIFIED.rank, [s.evidence for s in r.steps]
    assert r.oracle is not None and r.oracle.agrees is True
    assert (r.oracle.closest and "interval" in r.oracle.closest) or "exact" in r.oracle.closest


# -- mutants of the alpha formulas -------------------------------------------------------

e, d, b, c, k = (v.symbol for v in (EPS, DELTA, BETA, C, KQ))
L, root = sp.log(2 / d), sp.sqrt(512) + 1
PURE_MUTANTS = {
    "9 -> 8": 8 * c * (sp.log(k) + sp.log(4 * c / b)) / e,
    "4c -> 2c": 9 * c * (sp.log(k) + sp.log(2 * c / b)) / e,
    "dropped ln k": 9 * c * sp.log(4 * c / b) / e,
    "dropped factor c": 9 * (sp.log(k) + sp.log(4 * c / b)) / e,
    "c -> sqrt(c)": 9 * sp.sqrt(c) * (sp.log(k) + sp.log(4 * c / b)) / e,
    "eps -> 2 eps": 9 * c * (sp.log(k) + sp.log(4 * c / b)) / (2 * e),
    "4c/beta -> 4c beta": 9 * c * (sp.log(k) + sp.log(4 * c * b)) / e,
}
APPROX_MUTANTS = {
    "the seed's sqrt(c ln(2/delta))": (sp.log(k) + sp.log(4 * c / b)) * sp.sqrt(c * L) * root / e,
    "sqrt(512)+1 -> sqrt(512)": (sp.log(k) + sp.log(4 * c / b))
    * sp.sqrt(8 * c * L)
    * (root - 1)
    / e,
    "ln(2/delta) -> ln(1/delta)": (sp.log(k) + sp.log(4 * c / b))
    * sp.sqrt(8 * c * sp.log(1 / d))
    * root
    / e,
    # (4c -> 2c is no mutant here: the factor 2 sqrt(2) leaves room for it.)
    "4c/beta -> 4c": (sp.log(k) + sp.log(4 * c)) * sp.sqrt(8 * c * L) * root / e,
    "dropped ln k": sp.log(4 * c / b) * sp.sqrt(8 * c * L) * root / e,
    "8c -> 4c": (sp.log(k) + sp.log(4 * c / b)) * sp.sqrt(4 * c * L) * root / e,
}


def _with_alpha(derivation_id: str, alpha: sp.Expr, suffix: str) -> Derivation:
    """The catalog derivation with another stated alpha (its definition replaced)."""
    d = get(derivation_id)
    (symbol, _), *rest = d.defs
    assert symbol.name == "alpha" and not rest, d.defs
    return d.replace(id=derivation_id + suffix, defs=((symbol, alpha),))


@pytest.mark.parametrize("name", sorted(PURE_MUTANTS))
def test_pure_alpha_mutant_is_refuted(name) -> None:
    mutant = _with_alpha("numeric-sparse-accuracy-pure", PURE_MUTANTS[name], "-mutant")
    r = check_derivation(mutant, MUTANT_CHECK)
    assert r.verdict is Verdict.REFUTED, name
    assert r.steps[-1].verdict is Verdict.REFUTED and r.steps[-1].counterexample is not None


@pytest.mark.parametrize("name", sorted(APPROX_MUTANTS))
def test_approx_alpha_mutant_is_refuted(name) -> None:
    mutant = _with_alpha("numeric-sparse-accuracy-approx", APPROX_MUTANTS[name], "-mutant")
    r = check_derivation(mutant, MUTANT_CHECK)
    assert r.verdict is Verdict.REFUTED, name
    assert r.steps[-1].verdict is Verdict.REFUTED and r.steps[-1].counterexample is not None


def test_a_larger_alpha_is_not_refuted() -> None:
    weaker = 10 * c * (sp.log(k) + sp.log(4 * c / b)) / e
    r = check_derivation(_with_alpha("numeric-sparse-accuracy-pure", weaker, "-weaker"), FAST)
    assert r.verdict is not Verdict.REFUTED


def test_a_smaller_alpha_is_refuted_by_the_simulation_alone() -> None:
    # alpha/4 for delta = 0 and k = c = 1: the answer is off with probability
    # (beta/4)^(1/4) > beta; the oracle sees it even with the chain left out.
    p = SparseParams.make(1, 0, 1, 1)
    results = assess(p, alpha_seed(p, 0.05) / 4, 0.05, "last")
    assert any(a.holds is False for a in results)


# -- the command line ----------------------------------------------------------------------


def _run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out), out.getvalue()


def test_cli_sparse_reports_runs_rate_and_interval() -> None:
    code, text = _run(
        "sparse",
        "--eps",
        "1",
        "--delta",
        "0.1",
        "--beta",
        "0.05",
        "--c",
        "4",
        "--k",
        "6",
        "--runs",
        "3000",
        "--json",
    )
    assert code == 1
    data = json.loads(text)
    assert data["k"] == 6 and data["hypothesis"] == "seed"
    first = data["streams"][0]
    assert first["runs"] == 3000 and first["holds"] is False
    assert 0 <= first["lower"] <= first["rate"] <= first["upper"] <= 1
    code, _ = _run(
        "sparse",
        "--eps",
        "1",
        "--delta",
        "0.1",
        "--beta",
        "0.05",
        "--c",
        "4",
        "--k",
        "6",
        "--alpha",
        "corrected",
        "--hypothesis",
        "last",
        "--runs",
        "3000",
    )
    assert code == 0


@pytest.mark.parametrize(
    "args",
    [
        ("--eps", "-1", "--beta", "0.1", "--c", "1", "--k", "1"),
        ("--eps", "1", "--beta", "1", "--c", "1", "--k", "1"),
        ("--eps", "1", "--beta", "0.1", "--c", "0", "--k", "1"),
        ("--eps", "1", "--beta", "0.1", "--c", "3", "--k", "2"),
        ("--eps", "1", "--delta", "1", "--beta", "0.1", "--c", "1", "--k", "1"),
        ("--eps", "1", "--delta", "x", "--beta", "0.1", "--c", "1", "--k", "1"),
    ],
)
def test_cli_sparse_bad_parameters_exit_2(args, capsys) -> None:
    code, _ = _run("sparse", *args)
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("dpderive: error:") and "Traceback" not in err


# -- the max step, certified (issue 16) ----------------------------------------------------


def _certificate(d: Derivation, index: int) -> CertificateRecord:
    """What the certifier says about link ``index`` of ``d`` on its plan's box."""
    plan = make_plan(d, CheckOptions(points=5))
    left, rel, right, why = d.links()[index - 1]
    return certify_step(plan, Link.of(plan, index, left, rel, right, str(why)))


def test_approx_max_step_is_certified_on_its_stated_box() -> None:
    cert = _certificate(get("numeric-sparse-accuracy-approx"), 2)
    assert cert.status is CertificateStatus.CERTIFIED, words(cert)
    assert cert.box["delta"] == (1e-100, 0.999999) and cert.box["k"] == (1.0, 1000.0)
    assert cert.box["eps"] == (1e-9, 1e9) and cert.certified_fraction == 1.0


@pytest.mark.parametrize("name", sorted(APPROX_MUTANTS))
def test_the_certifier_never_certifies_an_approx_mutant(name) -> None:
    # A false statement is never certified, whatever the budget: a small one keeps it fast.
    mutant = _with_alpha("numeric-sparse-accuracy-approx", APPROX_MUTANTS[name], "-mutant")
    plan = make_plan(mutant, CheckOptions(points=5))
    left, rel, right, why = mutant.links()[1]
    link = Link.of(plan, 2, left, rel, right, str(why))
    (step,) = fact_from_relation(rel.make(link.lhs, link.rhs), "step")
    cert = certify_residual(
        step.expr, step.strict, plan.symbols, plan.box, plan.hypotheses, budget=3000
    )
    assert cert.status is not CertificateStatus.CERTIFIED, (name, cert.describe())
