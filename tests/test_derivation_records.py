"""``Derivation`` split into what its author writes and what the catalog supplies to check
it (``checking``, a :class:`CheckingAids`), issue 42.  Every way a derivation was built
before keeps working: each aid as a keyword, read back as an attribute, changed by
``replace``; the readers' files and the kit fill the same record."""

from __future__ import annotations

import dataclasses
import pickle
from typing import Any

import pytest
import sympy as sp

from derivations.catalog import catalog
from symbolic import CheckingAids, Derivation, Source, Variable, parse_domain
from symbolic.derivation import AID_NAMES, DERIVATION_KEYWORDS, Claim, Justification, Oracle, Step
from symbolic.errors import InvalidInput
from symbolic.instances import instantiate_derivation, length_variables
from symbolic.kit import by, chain
from symbolic.readers.proof_files import parse_proof
from symbolic.relations import Relation

X = Variable("x", parse_domain("(0, 1)"))
AUTHOR: dict[str, Any] = dict(
    id="t",
    title="t",
    source=Source("w", "1"),
    variables=(X,),
    claim=Claim(X.symbol, Relation.LE, sp.Integer(1)),
    steps=(Step(Relation.LE, sp.Integer(1), Justification("x < 1")),),
)
OLD_FIELDS = (
    "id",
    "title",
    "source",
    "variables",
    "claim",
    "steps",
    "hypotheses",
    "defs",
    "statement",
    "oracle",
    "erratum",
    "family",
    "points",
    "search_budget",
    "appendix",
    "certify_box",
    "lhs_source",
    "lhs_written",
    "induction",
    "instance_points",
    "instance",
    "bridge",
)
"""The 22 fields of Derivation before the split, in their order."""
NEW_FIELDS = ("typed",)
"""Fields added since, as keywords after the old ones (``typed``: the conditions an
expression as typed needs that SymPy's evaluation dropped on reading it)."""


def _points(rng: object, dps: int) -> list[dict[str, object]]:
    return [{"x": sp.Rational(1, 2)}]


def test_the_fields_are_the_author_s_and_the_aids_are_one_record() -> None:
    own = [f.name for f in dataclasses.fields(Derivation)]
    assert not set(own) & set(AID_NAMES)
    assert own[-1] == "checking"
    assert len(own) == len(OLD_FIELDS) + len(NEW_FIELDS) - len(AID_NAMES) + 1
    assert set(DERIVATION_KEYWORDS) == {*OLD_FIELDS, *NEW_FIELDS, "checking"}
    d = Derivation(**AUTHOR)
    assert set(vars(d)) == set(own)  # every field set by the constructor, none left behind


def test_each_aid_is_a_keyword_and_an_attribute() -> None:
    oracle = Oracle("o", "an oracle", lambda p: None)  # type: ignore[arg-type,return-value]
    d = Derivation(
        **AUTHOR,
        oracle=oracle,
        points=_points,
        search_budget=7,
        certify_box={"x": ("0.1", "0.9")},
        appendix=lambda: "a table",
    )
    assert d.checking.oracle is d.oracle is oracle
    assert d.points is d.checking.points is _points
    assert d.search_budget == d.checking.search_budget == 7
    assert d.certify_box == {"x": ("0.1", "0.9")} and d.instance_points is None
    assert d.appendix is not None and d.appendix() == "a table"


def test_the_positional_order_is_the_old_one() -> None:
    values = {**AUTHOR, "hypotheses": (), "defs": (), "statement": "s", "oracle": None}
    values |= {"erratum": None, "family": "f", "points": _points, "search_budget": 3}
    args: list[Any] = [values.get(name) for name in OLD_FIELDS[: len(values)]]
    d = Derivation(*args)
    assert (d.statement, d.family, d.points, d.search_budget) == ("s", "f", _points, 3)


def test_a_record_and_keywords_combine_and_replace_changes_either() -> None:
    d = Derivation(**AUTHOR, checking=CheckingAids(search_budget=5, points=_points))
    assert d.search_budget == 5 and d.points is _points
    both = Derivation(**AUTHOR, checking=CheckingAids(search_budget=5), search_budget=9)
    assert both.search_budget == 9  # the keyword wins over the record it is given with
    cleared = d.replace(points=None)
    assert cleared.points is None and cleared.search_budget == 5  # None clears, others stay
    # dataclasses.replace passes an aid's keyword through as before (mypy knows fields only)
    changed = dataclasses.replace(d, search_budget=2)  # type: ignore[call-arg]
    assert changed.checking == CheckingAids(points=_points, search_budget=2)
    swapped = d.replace(checking=CheckingAids(certify_box={"x": ("0", "1")}))
    assert swapped.points is None and swapped.certify_box == {"x": ("0", "1")}
    assert d.replace(title="u").checking is d.checking
    assert d == Derivation(**AUTHOR, search_budget=5, points=_points)
    assert d != d.replace(search_budget=6)


def test_a_derivation_pickles_with_its_aids() -> None:
    d = Derivation(**AUTHOR, search_budget=4, certify_box={"x": ("0.1", "0.2")})
    again = pickle.loads(pickle.dumps(d))
    assert again == d and again.checking.certify_box == {"x": ("0.1", "0.2")}


def test_a_bad_derivation_is_still_refused() -> None:
    from symbolic.errors import IllFormedDerivation

    with pytest.raises(IllFormedDerivation):
        Derivation(**{**AUTHOR, "id": "Not Kebab"}, search_budget=3)


def test_the_kit_takes_the_aids_and_refuses_unknown_keywords() -> None:
    x = X.symbol
    c = chain(x).le(sp.Integer(1), by.hypothesis("x < 1"))
    d = c.derive(id="k", title="k", variables=[X], source="w", search_budget=3, points=_points)
    assert d.checking.search_budget == 3 and d.points is _points
    with pytest.raises(InvalidInput, match="does not know"):
        c.derive(id="k", title="k", variables=[X], source="w", budget=3)


def test_a_proof_file_s_certify_table_fills_the_aids() -> None:
    d = parse_proof(
        '[variables]\nx = "(0, 1)"\n[certify]\nx = ["0.25", "0.75"]\n'
        '[[steps]]\nlhs = "x"\nrelation = "<="\nrhs = "1"\n'
    )
    box = d.checking.certify_box
    assert box is d.certify_box and box is not None
    assert [sp.Rational(v) for v in box["x"]] == [sp.Rational(1, 4), sp.Rational(3, 4)]


def test_an_instance_keeps_its_box_and_its_generator_moves_to_points() -> None:
    kl = catalog()["kl-bound"]
    assert kl.checking.instance_points is not None and kl.points is None
    lengths = {v.name: 2 for v in length_variables(kl)}
    one = instantiate_derivation(kl, lengths)
    assert one.checking.instance_points is None and one.points is not None
    assert one.oracle is kl.oracle and one.appendix is kl.appendix
