"""Domains, relations and the well-formedness of derivations."""

from __future__ import annotations

import pytest
import sympy as sp

from symbolic.derivation import Claim, Derivation, Justification, Source, Step
from symbolic.domains import POSITIVE, REAL, Domain, Variable, parse_domain
from symbolic.errors import IllFormedDerivation, InvalidInput
from symbolic.relations import Relation, compose
from symbolic.verdicts import Verdict, weakest


@pytest.mark.parametrize(
    ("text", "assumptions", "shown"),
    [
        ("R", {"real": True}, "R"),
        ("(0, oo)", {"real": True, "positive": True}, "(0, oo)"),
        ("[0, 1]", {"real": True, "nonnegative": True}, "[0, 1]"),
        ("(-oo, 0)", {"real": True, "negative": True}, "(-oo, 0)"),
        ("Z>=1", {"integer": True, "positive": True}, "Z>=1"),
        ("Z in [1, 100]", {"integer": True, "positive": True}, "Z in [1, 100]"),
        ("Z in (0, 5)", {"integer": True, "positive": True}, "Z in [1, 4]"),
        ("(1e-6, 5]", {"real": True, "positive": True}, "(1/1000000, 5]"),
    ],
)
def test_parse_domain(text: str, assumptions: dict[str, bool], shown: str) -> None:
    d = parse_domain(text)
    assert d.assumptions() == assumptions
    assert str(d) == shown


@pytest.mark.parametrize("text", ["(1, 0)", "[1, 1)", "Z in (0, 1)", "positive", "(0, x)", ""])
def test_bad_or_empty_domains_are_errors(text: str) -> None:
    with pytest.raises(InvalidInput):
        parse_domain(text)


def test_domain_contains_and_constraints() -> None:
    d = Domain(lower=sp.S(0), upper=sp.S(1), lower_open=True, upper_open=False)
    assert d.contains(1) and not d.contains(0) and d.contains(sp.Rational(1, 2))
    x = sp.Symbol("x")
    assert d.constraints(x) == [sp.StrictGreaterThan(x, 0), sp.LessThan(x, 1)]


def test_compose_relations() -> None:
    R = Relation
    assert compose([R.EQ, R.EQ]) is R.EQ
    assert compose([R.EQ, R.LE, R.EQ]) is R.LE
    assert compose([R.LE, R.LT]) is R.LT
    assert compose([R.GE, R.EQ, R.GT]) is R.GT
    with pytest.raises(IllFormedDerivation):
        compose([R.LE, R.GE])
    assert R.LT.implies(R.LE) and R.EQ.implies(R.GE) and not R.LE.implies(R.LT)


def test_relation_parse() -> None:
    assert Relation.parse("==") is Relation.EQ
    with pytest.raises(InvalidInput, match="relation must be one of"):
        Relation.parse("=>")


def test_weakest_verdict() -> None:
    assert weakest([Verdict.PROVED, Verdict.REFUTED, Verdict.CHECKED]) is Verdict.REFUTED
    assert weakest([Verdict.PROVED, Verdict.CERTIFIED]) is Verdict.CERTIFIED
    assert weakest([]) is Verdict.UNDECIDED


X = Variable("x", POSITIVE)
Y = Variable("y", REAL)
x, y = X.symbol, Y.symbol
J = Justification("algebra")


def _make(
    steps: tuple[Step, ...], claim: Claim, variables: tuple[Variable, ...] = (X,), **kw: object
) -> Derivation:
    return Derivation(
        id="t",
        title="t",
        source=Source("test", "0"),
        variables=variables,
        claim=claim,
        steps=steps,
        **kw,
    )  # type: ignore[arg-type]


def test_well_formed_derivation() -> None:
    d = _make(
        (Step(Relation.EQ, 2 * x, J), Step(Relation.LE, 3 * x, J)), Claim(x + x, Relation.LE, 3 * x)
    )
    assert [link[1] for link in d.links()] == [Relation.EQ, Relation.LE]


@pytest.mark.parametrize(
    ("steps", "claim", "fragment"),
    [
        ((), Claim(x, Relation.LE, x), "no steps"),
        ((Step(Relation.LE, 2 * x, J),), Claim(x, Relation.LE, 3 * x), "ends at"),
        ((Step(Relation.LE, 2 * x, J),), Claim(x, Relation.EQ, 2 * x), "does not give"),
        ((Step(Relation.LE, 2 * x, J),), Claim(x, Relation.LT, 2 * x), "does not give"),
        ((Step(Relation.LE, 2 * x, J), Step(Relation.GE, x, J)), Claim(x, Relation.LE, x), "mixes"),
        ((Step(Relation.LE, x + y, J),), Claim(x, Relation.LE, x + y), "undeclared"),
    ],
)
def test_ill_formed_derivations_are_errors(
    steps: tuple[Step, ...], claim: Claim, fragment: str
) -> None:
    with pytest.raises(IllFormedDerivation, match=fragment):
        _make(steps, claim)


def test_symbol_with_other_assumptions_is_another_symbol() -> None:
    plain = sp.Symbol("x")
    with pytest.raises(IllFormedDerivation, match="undeclared"):
        _make((Step(Relation.LE, plain + 1, J),), Claim(x, Relation.LE, plain + 1))


def test_bad_id_and_duplicates() -> None:
    with pytest.raises(IllFormedDerivation, match="kebab-case"):
        Derivation(
            id="Bad Id",
            title="t",
            source=Source("t", "0"),
            variables=(X,),
            claim=Claim(x, Relation.EQ, x),
            steps=(Step(Relation.EQ, x, J),),
        )
    with pytest.raises(IllFormedDerivation, match="twice"):
        _make((Step(Relation.EQ, x, J),), Claim(x, Relation.EQ, x), variables=(X, X))
