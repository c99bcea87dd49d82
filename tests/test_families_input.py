"""Indexed families as users write them: claim and proof files, the kit, the general mode.

Malformed families are refused with a message naming the fragment and what to write (exit 2
through the CLI); true claims over families are not refuted at any sampled length, false
ones are refuted with a confirmed counterexample naming the length and the family; and a
general link is never proved or certified from an instance.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import mpmath
import pytest
import sympy as sp

from numeric_checks import CheckOptions, check_claim, check_derivation
from numeric_checks.check import EngineInconsistency
from numeric_checks.general.combine import combine
from numeric_checks.general.instances import instance_lengths
from numeric_checks.stages import SymbolicProof
from symbolic import Variable, family, forall, index_symbol, parse_domain
from symbolic.derivation import Justification, Source
from symbolic.errors import IllFormedDerivation, InvalidInput
from symbolic.families import ForAll
from symbolic.instances import OutsideHypotheses, instantiate_derivation
from symbolic.kit import by, chain
from symbolic.readers.claim_files import parse_claim
from symbolic.readers.proof_files import parse_proof
from symbolic.relations import Relation
from symbolic.report import StepResult
from symbolic.verdicts import Verdict

ROOT = Path(__file__).resolve().parent.parent
FAST = CheckOptions(points=60, search_budget=60)

EPS_VAR = '[variables]\neps = "(0, oo)"\n'
FAMILY_VARS = '[variables]\nn = "Z>=1"\neps = "(0, oo)"\np = "(0, 1) for i in 1..n"\n'


def claim_text(lhs: str, rel: str, rhs: str, variables: str = FAMILY_VARS, hyps: str = "") -> str:
    head = f"hypotheses = [{hyps}]\n" if hyps else ""
    return f"{head}[claim]\nlhs = '{lhs}'\nrelation = '{rel}'\nrhs = '{rhs}'\n{variables}"


BAD = [
    ("p + 1", "<=", "2", FAMILY_VARS, "", "without an index"),
    ("p[0]", "<=", "1", FAMILY_VARS, "", "outside the family's range"),
    ("p[n + 1]", "<=", "1", FAMILY_VARS, "", "outside the family's range"),
    ("Sum(p[i], (i, 0, n))", "<=", "1", FAMILY_VARS, "", "outside the family's range"),
    ("Sum(Sum(p[i], (i, 1, n)), (i, 1, n))", "<=", "n", FAMILY_VARS, "", "bound twice"),
    ("Sum(p[i], (i, 1, n), (i, 1, n))", "<=", "n", FAMILY_VARS, "", "bound twice"),
    ("p[i] + 1", "<=", "2", FAMILY_VARS, "", "outside a Sum"),
    ("eps[1]", "<=", "1", FAMILY_VARS, "", "subscripts are allowed only on a family"),
    ("eps", "<=", "1", FAMILY_VARS, "'eps <= 2 for all eps'", "not the index of a family"),
    ("eps", "<=", "1", FAMILY_VARS, "'eps <= 2 for all k'", "not the index of a family"),
    (
        "Sum(p[i], (i, 1, n))",
        "<=",
        "n",
        FAMILY_VARS,
        "'Sum(p[i], (i, 1, n)) <= 1 for all i'",
        "bound twice",
    ),
    ("eps", "<=", "1", EPS_VAR + 'p = "(0, 1) for i in 1..eps"\n', "", "Z>=1"),
    ("eps", "<=", "1", EPS_VAR + 'p = "(0, 1) for i in 1..0"\n', "", "positive"),
    ("eps", "<=", "1", EPS_VAR + 'p = "(0, 1) for i in 1..m"\n', "", "length"),
    ("eps", "<=", "1", EPS_VAR + 'p = "(0, 1 for i in 1..3"\n', "", "domain"),
    (
        "eps",
        "<=",
        "1",
        '[variables]\neps = "(0, oo)"\np = "(0, 1) for i from 1 to 3"\n',
        "",
        "for i in 1..n",
    ),
    (
        "eps",
        "<=",
        "1",
        '[variables]\nn = "Z>=0"\np = "(0, 1) for i in 1..n"\neps = "R"\n',
        "",
        "Z>=1",
    ),
]


@pytest.mark.parametrize(("lhs", "rel", "rhs", "variables", "hyps", "fragment"), BAD)
def test_malformed_families_are_refused_by_name(
    lhs: str, rel: str, rhs: str, variables: str, hyps: str, fragment: str
) -> None:
    with pytest.raises(InvalidInput, match=None) as info:
        parse_claim(claim_text(lhs, rel, rhs, variables, hyps), "bad.toml")
    assert fragment in str(info.value), str(info.value)


def test_malformed_family_exits_2_through_the_cli(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(claim_text("p + 1", "<=", "2"))
    run = subprocess.run(
        [sys.executable, "-m", "derivations", "claim", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert run.returncode == 2, run.stderr
    assert "without an index" in run.stderr
    assert "Traceback" not in run.stderr


# -- claims over families: true, false, tight -------------------------------------------------

SIMPLEX = "'Sum(p[i], (i, 1, n)) = 1'"
PAIR_VARS = FAMILY_VARS + 'q = "(0, 1) for i in 1..n"\n'
PAIR = (
    "'Sum(p[i], (i, 1, n)) = 1', 'Sum(q[i], (i, 1, n)) == 1', "
    "'p[i] <= exp(eps)*q[i] for all i', 'q[i] <= exp(eps)*p[i] for all i in 1..n'"
)


def test_parsed_family_claim_has_forall_and_elements() -> None:
    d = parse_claim(claim_text("Sum(p[i]*q[i], (i, 1, n))", "<=", "1", PAIR_VARS, PAIR))
    (p,) = [v for v in d.variables if v.name == "p"]
    assert p.family is not None and str(p.family.upper) == "n"
    foralls = [h for h in d.hypotheses if isinstance(h, ForAll)]
    assert len(foralls) == 2 and all(str(h.upper) == "n" for h in foralls)
    inst = instantiate_derivation(d, {"n": 3})
    assert inst.id == "claim@n=3"
    assert {v.name for v in inst.variables} == {"eps", "p_1", "p_2", "p_3", "q_1", "q_2", "q_3"}
    assert len(inst.hypotheses) == 2 + 6


def test_true_family_claim_is_not_refuted_at_any_length() -> None:
    d = parse_claim(claim_text("Sum(p[i]**2, (i, 1, n))", "<=", "1", hyps=SIMPLEX))
    result = check_claim(d, FAST)
    # Proved by the sum rules (termwise p[i]**2 <= p[i], then the total), and checked on
    # the instances too.
    assert result.verdict is Verdict.PROVED, result.evidence
    # Proved: the smallest lengths, then one larger one (not the whole ladder).
    assert "n = 2..4, 8" in result.evidence
    assert "no point satisfies the hypotheses at n = 1" in result.evidence


def test_false_family_claim_is_refuted_with_length_and_family() -> None:
    d = parse_claim(claim_text("Sum(p[i]**2, (i, 1, n))", ">=", "1/2", hyps=SIMPLEX))
    result = check_claim(d, FAST)
    assert result.verdict is Verdict.REFUTED
    cex = result.counterexample
    assert cex is not None and int(cex.point["n"]) >= 3
    n = int(cex.point["n"])
    assert {f"p_{k}" for k in range(1, n + 1)} <= set(cex.point)
    assert "confirmed" in result.evidence
    assert "i | p_i" in result.evidence


def test_student_kl_bound_with_half_eps_ratio_is_refuted() -> None:
    # Bounding each term with e^{eps/2} instead of e^eps: false only near the tight ratios.
    d = parse_claim(
        claim_text(
            "Sum(p[i]*log(p[i]/q[i]), (i, 1, n))", "<=", "eps/2*(exp(eps/2) - 1)", PAIR_VARS, PAIR
        )
    )
    result = check_claim(d, FAST)
    assert result.verdict is Verdict.REFUTED, result.evidence
    assert result.counterexample is not None and "q_1" in result.counterexample.point


def test_kl_bound_for_every_n_is_not_refuted() -> None:
    d = parse_claim(
        claim_text(
            "Sum(p[i]*log(p[i]/q[i]), (i, 1, n))", "<=", "eps*(exp(eps) - 1)", PAIR_VARS, PAIR
        )
    )
    result = check_claim(d, FAST)
    assert result.verdict in (Verdict.CHECKED, Verdict.PROVED), result.evidence


def test_numeric_length_family_is_its_own_instance() -> None:
    variables = '[variables]\np = "(0, 1) for i in 1..3"\n'
    d = parse_claim(claim_text("Sum(p[i], (i, 1, 3))", "<=", "3", variables))
    assert check_claim(d, FAST).verdict is Verdict.PROVED
    d = parse_claim(claim_text("Sum(p[i], (i, 1, 3))", "<=", "2", variables))
    assert check_claim(d, FAST).verdict is Verdict.REFUTED


PROOF = """title = "termwise"
hypotheses = ["Sum(p[i], (i, 1, n)) = 1", "p[i] <= 2*q[i] for all i"]
[variables]
n = "Z>=1"
p = "(0, 1) for i in 1..n"
q = "(0, 1) for i in 1..n"
[[steps]]
lhs = "Sum(p[i], (i, 1, n))"
relation = "<="
rhs = "Sum(RHS, (i, 1, n))"
[[steps]]
relation = "="
rhs = "FACTOR*Sum(q[i], (i, 1, n))"
"""


def test_proof_file_over_families_general_mode() -> None:
    good = parse_proof(PROOF.replace("RHS", "2*q[i]").replace("FACTOR", "2"))
    report = check_derivation(good, FAST)
    assert report.verdict is not Verdict.REFUTED
    assert report.steps[1].verdict is Verdict.PROVED  # an identity for every n
    assert "for every length" in report.steps[1].evidence
    assert any("general mode" in note for note in report.notes)
    bad = parse_proof(PROOF.replace("RHS", "q[i]").replace("FACTOR", "1"))
    report = check_derivation(bad, FAST)
    assert report.steps[0].verdict is Verdict.REFUTED
    assert report.verdict is Verdict.REFUTED


CASES = """title = "a family of two, and x*y = 0"
hypotheses = ["x*y == 0"]
[variables]
x = "R"
y = "R"
p = "(0, 1) for i in 1..2"
[[steps]]
lhs = "x*y + p[1]"
relation = "="
rhs = "p[1]"
why = "x*y = 0"
[[steps]]
relation = "RELATION"
rhs = "p[1] + p[2]"
why = "p[2] > 0"
"""


@pytest.mark.parametrize(("relation", "verdict"), [("<=", Verdict.PROVED), (">=", Verdict.REFUTED)])
def test_families_of_numeric_length_split_by_cases(relation: str, verdict: Verdict) -> None:
    """Families of numeric length are written out into an ordinary derivation, checked by
    cases where an equality hypothesis holds by cases, as one without families is (a proof
    file stopped with "check each case as a claim of its own" while its claim was split)."""
    report = check_derivation(parse_proof(CASES.replace("RELATION", relation)), FAST)
    assert report.verdict is verdict
    assert report.conclusion is not None and "by cases on x*y == 0" in report.conclusion.evidence


# -- the verdict rules of general mode ----------------------------------------------------------


def _instance_result(verdict: Verdict) -> StepResult:
    return StepResult(1, "a", "<=", "b", "x", verdict, "evidence")


def test_no_certification_or_proof_from_an_instance() -> None:
    n = Variable("n", parse_domain("Z>=1"))
    p = family("p", "(0, 1)", length=n)
    d = (
        chain(sp.Sum(p.base[index_symbol("i")], (index_symbol("i"), 1, n.symbol)))
        .le(n.symbol, by.algebra())
        .derive(id="t", title="t", source=Source("test", "t"), variables=[n, p])
    )
    from numeric_checks.general.instances import Instance

    instances = [
        Instance({"n": k}, (_instance_result(Verdict.CERTIFIED),), _instance_result(v), 10)
        for k, v in ((1, Verdict.PROVED), (2, Verdict.CERTIFIED))
    ]
    why = Justification("x")
    left, right = d.claim.lhs, d.claim.rhs
    unproved = combine(
        1,
        left,
        Relation.LE,
        right,
        why,
        SymbolicProof(None),
        [(i, i.steps[0]) for i in instances],
        None,
    )
    assert unproved.verdict is Verdict.UNDECIDED  # certified instances: not a certificate
    checked = [(i, _instance_result(Verdict.CHECKED)) for i in instances]
    assert (
        combine(1, left, Relation.LE, right, why, SymbolicProof(None), checked, None).verdict
        is Verdict.CHECKED
    )
    proved = combine(1, left, Relation.LE, right, why, SymbolicProof("rule x"), checked, None)
    assert proved.verdict is Verdict.PROVED and "n = 1, 2" in proved.evidence
    refuted = [(instances[0], _instance_result(Verdict.REFUTED))]
    with pytest.raises(EngineInconsistency):
        combine(1, left, Relation.LE, right, why, SymbolicProof("rule x"), refuted, None)
    assert (
        combine(1, left, Relation.LE, right, why, SymbolicProof(None), refuted, None).verdict
        is Verdict.REFUTED
    )


def test_kit_family_and_forall() -> None:
    n = Variable("n", parse_domain("Z>=2"))
    eps = Variable("eps", parse_domain("(0, oo)"))
    p = family("p", "(0, 1)", length=n)
    q = family("q", "(0, 1)", length=n)
    i = index_symbol("i")
    h = forall(sp.LessThan(p.base[i], sp.exp(eps.symbol) * q.base[i]), p)
    assert str(h) == "p[i] <= exp(eps)*q[i] for all i in 1..n"
    d = (
        chain(sp.Sum(p.base[i], (i, 1, n.symbol)))
        .le(sp.exp(eps.symbol) * sp.Sum(q.base[i], (i, 1, n.symbol)), by.algebra())
        .derive(
            id="kit", title="t", source=Source("t", "t"), variables=[n, eps, p, q], hypotheses=[h]
        )
    )
    assert [x["n"] for x in instance_lengths(d)][:3] == [2, 3, 4]
    with pytest.raises(InvalidInput, match="positive integer"):
        family("w", "R", length=eps)
    with pytest.raises(InvalidInput, match="positive integer"):
        family("w", "R", length=0)
    with pytest.raises(IllFormedDerivation, match="without an index"):
        chain(p.symbol + 1).le(sp.Integer(2), by.algebra()).derive(
            id="bare", title="t", source=Source("t", "t"), variables=[n, p]
        )


def test_instance_outside_the_hypotheses_is_skipped() -> None:
    n = Variable("n", parse_domain("Z>=1"))
    p = family("p", "(0, 1)", length=n)
    i = index_symbol("i")
    d = (
        chain(sp.Sum(p.base[i], (i, 1, n.symbol)))
        .le(n.symbol, by.algebra())
        .derive(
            id="t",
            title="t",
            source=Source("t", "t"),
            variables=[n, p],
            hypotheses=[sp.GreaterThan(n.symbol, 3)],
        )
    )
    with pytest.raises(OutsideHypotheses):
        instantiate_derivation(d, {"n": 2})
    report = check_derivation(d, FAST)
    assert any("outside the hypotheses" in note for note in report.notes)


TWO_INDEX = '[variables]\nn = "Z>=1"\nm = "Z>=1"\nw = "(0, 1) for i in 1..n, j in 1..m"\n'


def test_two_index_family_true_and_false() -> None:
    lhs = "Sum(Sum(w[i, j], (j, 1, m)), (i, 1, n))"
    true = check_claim(parse_claim(claim_text(lhs, "<=", "n*m", TWO_INDEX)), FAST)
    assert true.verdict is Verdict.CHECKED, true.evidence
    false = check_claim(parse_claim(claim_text(lhs, "<=", "n*m/2", TWO_INDEX)), FAST)
    assert false.verdict is Verdict.REFUTED
    assert false.counterexample is not None and "w_1_1" in false.counterexample.point
    assert "i,j | w_ij" in false.evidence


PRODUCT_VARS = '[variables]\nn = "Z>=1"\neps = "(0, oo)"\np = "(0, oo) for k in 1..n"\n'


def test_product_over_a_family_with_a_capped_entry() -> None:
    hyps = "'p[k] <= exp(eps) for all k'"
    lhs = "Product(p[k], (k, 1, n))"
    true = check_claim(parse_claim(claim_text(lhs, "<=", "exp(n*eps)", PRODUCT_VARS, hyps)), FAST)
    assert true.verdict is Verdict.PROVED, true.evidence  # termwise product of the caps
    false = check_claim(parse_claim(claim_text(lhs, "<=", "exp(eps)", PRODUCT_VARS, hyps)), FAST)
    assert false.verdict is Verdict.REFUTED
    assert false.counterexample is not None and int(false.counterexample.point["n"]) >= 2


def test_derivation_instance_points_are_used_and_validated() -> None:
    n = Variable("n", parse_domain("Z>=1"))
    p = family("p", "(0, 1)", length=n)
    i = index_symbol("i")
    calls: list[dict[str, int]] = []

    def points(rng: object, dps: int, lengths: dict[str, int]) -> list[dict[str, object]]:
        calls.append(dict(lengths))
        k = lengths["n"]
        good = [{f"p_{m}": mpmath.mpf(u) / (42 * k) for m in range(1, k + 1)} for u in range(1, 21)]
        bad = {f"p_{m}": mpmath.mpf(2) for m in range(1, k + 1)}  # outside the domain
        return [*good, bad]

    d = (
        chain(sp.Sum(p.base[i], (i, 1, n.symbol)))
        .le(n.symbol, by.algebra())
        .derive(id="own", title="t", source=Source("t", "t"), variables=[n, p])
        .replace(instance_points=points)
    )
    from numeric_checks.general.instances import instance_plan

    plan = instance_plan(d, {"n": 3}, FAST)
    assert calls == [{"n": 3}] and len(plan.points) == 20
    assert check_derivation(d, FAST).verdict is Verdict.PROVED  # termwise p[i] <= 1
    # A generator covers, it does not vouch: the search from its points still finds a
    # violation of a false bound that every generated point satisfies.
    false = d.with_step(-1, expr=sp.Rational(1, 2))
    assert check_derivation(false, FAST).verdict is Verdict.REFUTED


@pytest.mark.parametrize(
    ("variables", "fragment"),
    [
        ('[variables]\np = "(0, 1) for i in 1..n"\nn = "Z in [1, 5]"\n', "does not exist at n = 1"),
        ('[variables]\np = "(0, 1) for i in 1..1000000"\n', "at most 256"),
    ],
)
def test_elements_missing_or_too_many_at_an_instance_are_bad_input(
    variables: str, fragment: str
) -> None:
    d = parse_claim(claim_text("Sum(p[i], (i, 1, 3))", "<=", "3", variables))
    with pytest.raises(InvalidInput, match=fragment):
        check_claim(d, FAST)
