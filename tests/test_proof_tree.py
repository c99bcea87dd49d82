"""Typed proof trees (issue 42): the rule search's proof as nodes of rule ids, goals,
subgoals, side conditions and named facts, built on the frames that credit rules
(:mod:`symbolic.rules.registry`).  A rule tried and abandoned leaves no node, a memoised
subgoal reuses its subtree, and the tree's ids are exactly the step's ``rules``."""

from __future__ import annotations

import json
from typing import Any

import pytest
import sympy as sp

from derivations import get
from derivations.printing.json import claim_json, report_json, step_json
from numeric_checks import CheckOptions, check_derivation
from symbolic.proof_tree import ProofNode, ProofTree, printed
from symbolic.readers.proof_files import parse_proof
from symbolic.relations import Relation
from symbolic.rules import fact_from_relation, prover
from symbolic.rules.facts import Context
from symbolic.rules.prover import prove_traced
from symbolic.rules.registry import attempt, close, credit, frame, side_condition
from symbolic.verdicts import Verdict

OPTIONS = CheckOptions(points=30, search_budget=30)


def _rules(tree: ProofTree) -> list[str]:
    return [n.rule for n in tree.walk()]


def test_an_abandoned_attempt_leaves_no_node_and_a_kept_one_holds_its_subgoals() -> None:
    def leaf() -> str:
        credit("hypothesis")
        return "h"

    def abandoned() -> None:
        attempt("assumptions", leaf)  # proved, then its rule gives up
        return None

    def kept() -> str | None:
        side_condition(attempt, "power of a positive base", leaf)
        return attempt(None, leaf)

    with frame() as used:
        assert attempt("termwise", abandoned) is None
        assert attempt("triangle inequality", kept) == "h"
    (node,) = close(used).nodes
    assert node.rule == "triangle inequality"
    assert [c.rule for c in node.subgoals] == ["hypothesis"]
    assert [c.rule for c in node.side_conditions] == ["power of a positive base"]
    assert used.ids() == {"triangle inequality", "hypothesis", "power of a positive base"}
    assert "termwise" not in used.ids() and "assumptions" not in used.ids()


def test_a_failed_side_condition_leaves_nothing() -> None:
    def no() -> bool:
        credit("hypothesis")
        return False

    with frame() as used:
        assert side_condition(no) is False
    assert used.ids() == set() and not used.side


def _exp_goal() -> tuple[sp.Expr, sp.Expr, Context]:
    eps = sp.Symbol("eps", positive=True)
    x, y = sp.symbols("x y", positive=True)
    ctx = Context(fact_from_relation(sp.Le(x, y), "h"))
    return x + sp.exp(eps) * x, y + sp.exp(eps) * y, ctx


def test_the_tree_of_a_search_names_its_rules_goals_and_leaves() -> None:
    small, big, ctx = _exp_goal()
    found = prove_traced(small, Relation.LE, big, ctx)
    assert found is not None
    tree = ProofTree("", printed(found.tree))
    (top,) = tree.proof
    assert top.rule == "pairwise"
    assert top.goal == "-x*exp(eps) - x + y*exp(eps) + y >= 0"
    assert [(n.rule, n.goal) for n in top.subgoals] == [
        ("hypothesis", "-x + y >= 0"),
        ("positive factor", "-x*exp(eps) + y*exp(eps) >= 0"),
    ]
    # The subgoal -x + y >= 0 is proved once and its memoised subtree used again.
    assert [(n.rule, n.goal) for n in tree.leaves()] == [("hypothesis", "-x + y >= 0")] * 2
    assert tree.rule_ids() == found.rules == {"pairwise", "positive factor", "hypothesis"}


def test_a_rule_that_proved_subgoals_and_gave_up_is_not_in_the_tree(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A decoy rule tried first proves a subgoal by the triangle inequality, then fails:
    neither it nor its subgoal's rule may appear in the proof found afterwards."""
    a, b = sp.symbols("a b", real=True)
    tried: list[str] = []

    def decoy(p: prover.Prover, g: sp.Expr, strict: bool, depth: int) -> None:
        tried.append(str(g))
        p.nonneg(sp.Abs(a) + sp.Abs(b) - sp.Abs(a + b), False, depth + 1)
        return None

    monkeypatch.setattr(prover, "ROOT_RULES", (decoy, *prover.ROOT_RULES))
    rule_ids: dict[Any, str | None] = dict(prover.RULE_IDS)
    rule_ids[decoy] = "extremum cases"
    monkeypatch.setattr(prover, "RULE_IDS", rule_ids)
    small, big, ctx = _exp_goal()
    found = prove_traced(small, Relation.LE, big, ctx)
    assert found is not None and tried
    ids = ProofTree("", printed(found.tree)).rule_ids()
    with frame() as alone:  # what the decoy's subgoal is proved by
        prover.Prover(Context([])).nonneg(sp.Abs(a) + sp.Abs(b) - sp.Abs(a + b), False, 0)
    assert "triangle inequality" in alone.ids()
    assert ids == found.rules == {"pairwise", "positive factor", "hypothesis"}
    assert "triangle inequality" not in ids and "extremum cases" not in ids


def test_a_memoised_subgoal_reuses_its_subtree() -> None:
    x = sp.Symbol("x", positive=True)
    p = prover.Prover(Context(fact_from_relation(sp.Ge(x, 1), "h")))
    with frame() as first:
        assert p.nonneg(x - 1, False, 0) is not None
    with frame() as again:
        assert p.nonneg(x - 1, False, 0) is not None
    assert first.nodes and again.nodes[0] is first.nodes[0]


def test_a_catalog_step_s_tree_is_its_rules_and_in_the_json() -> None:
    report = check_derivation(get("laplace-ratio"), OPTIONS)
    step = report.steps[3]  # |fy - z| - |fx - z| <= |fx - fy| under exp: the triangle
    assert step.verdict is Verdict.PROVED and step.proof_tree is not None
    assert _rules(step.proof_tree) == [
        "monotonicity of exp",
        "positive factor",
        "triangle inequality",
    ]
    assert [n.rule for n in step.proof_tree.leaves()] == ["triangle inequality"]
    for s in (*report.steps, report.conclusion):
        if s.proof_tree is None:
            assert not s.rules
        else:
            assert s.proof_tree.rule_ids() == set(s.rules)
    out = step_json(step)
    assert out["rules"] == list(step.rules)
    assert out["proof_tree"]["proof"][0]["rule"] == "monotonicity of exp"
    json.dumps(report_json(report))  # plain JSON data throughout


def test_a_cited_rule_s_node_is_in_the_tree_and_an_abandoned_one_is_not() -> None:
    d = parse_proof(
        '[variables]\nx = "(0, oo)"\n[[steps]]\nlhs = "x*log(x) - x + 1"\n'
        'relation = ">="\nrhs = "0"\nby = "rule:convexity"\n'
    )
    s = check_derivation(d, OPTIONS).steps[0]
    assert s.verdict is Verdict.PROVED and s.proof_tree is not None
    assert "log tangent bound" in _rules(s.proof_tree)
    assert "convexity" not in s.proof_tree.rule_ids()  # tried first, abandoned
    assert s.proof_tree.rule_ids() == set(s.rules)


def test_an_unproved_step_has_no_tree_and_a_claim_s_json_has_the_field() -> None:
    d = parse_proof('[variables]\nx = "(0, 1)"\n[[steps]]\nlhs = "x"\nrelation = ">="\nrhs = "1"\n')
    s = check_derivation(d, OPTIONS).steps[0]
    assert s.verdict is Verdict.REFUTED and s.proof_tree is None and not s.rules
    assert claim_json("x >= 1", s)["proof_tree"] is None


def test_printed_goals_are_strings_and_shared_subtrees_are_printed_once() -> None:
    x = sp.Symbol("x")
    from symbolic.proof_tree import Goal

    shared = ProofNode("hypothesis", Goal(x, False))
    top = ProofNode("pairwise", Goal(2 * x, True), (shared, shared))
    (out,) = printed((top,))
    assert out.goal == "2*x > 0" and out.subgoals[0].goal == "x >= 0"
    assert out.subgoals[0] is out.subgoals[1]
