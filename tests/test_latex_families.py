"""LaTeX input of indexed families (issue 24, item 1): ``p_i``, ``p_{i}``, ``p_{i+1}`` under
``\\sum_{i=1}^{n}`` / ``\\prod_{i=1}^{n}`` / ``\\sum_{i}``, and hypotheses quantified
``\\forall i`` or ``\\text{for all } i``; bad input refused with the fragment and a remedy."""

from __future__ import annotations

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.derivation import Claim, Derivation, Justification, Source, Step
from symbolic.domains import Variable, parse_domain
from symbolic.errors import LatexError
from symbolic.families import Family, ForAll, index_symbol
from symbolic.readers.claim_files import Header
from symbolic.readers.latex import parse_latex_chain, parse_latex_expr, parse_latex_relation
from symbolic.relations import Relation

N = Variable("n", parse_domain("Z>=1"))
M = Variable("m", parse_domain("Z>=1"))
EPS = Variable("eps", parse_domain("(0, oo)"))
RANGE = Family("i", sp.Integer(1), N.symbol)
P = Variable("p", parse_domain("(0, 1)"), family=RANGE)
Q = Variable("q", parse_domain("(0, 1)"), family=RANGE)
W = Variable("w", parse_domain("R"), family=Family("i", 1, N.symbol, ("j", 1, M.symbol)))
VARIABLES = (N, M, EPS, P, Q, W)
SYMBOLS = {v.name: v.symbol for v in VARIABLES}
FAMILIES = {v.name: v.family for v in VARIABLES if v.family is not None}
i, j = index_symbol("i"), index_symbol("j")
n, eps = N.symbol, EPS.symbol
p, q, w = P.base, Q.base, W.base


def expr(text: str) -> sp.Expr:
    return parse_latex_expr(text, SYMBOLS, families=FAMILIES)


def relations(text: str) -> list[sp.Basic]:
    return parse_latex_relation(text, SYMBOLS, families=FAMILIES)


@pytest.mark.parametrize(
    ("latex", "expected"),
    [
        (r"\sum_{i=1}^{n} p_i", sp.Sum(p[i], (i, 1, n))),
        (r"\sum_{i=1}^{n} p_{i}", sp.Sum(p[i], (i, 1, n))),
        (r"\sum_{i} p_i q_i", sp.Sum(p[i] * q[i], (i, 1, n))),
        (r"\sum_{i=1}^{n-1} p_{i+1}", sp.Sum(p[i + 1], (i, 1, n - 1))),
        (r"\sum_{i=2}^{n} p_{i-1}", sp.Sum(p[i - 1], (i, 2, n))),
        (
            r"\sum_{i=1}^{n} p_i \ln\frac{p_i}{q_i}",
            sp.Sum(p[i] * sp.log(p[i] / q[i]), (i, 1, n)),
        ),
        (r"\prod_{i=1}^{n} e^{\varepsilon}", sp.Product(sp.exp(eps), (i, 1, n))),
        (r"\prod_{i=1}^{n} p_i", sp.Product(p[i], (i, 1, n))),
        (r"p_1 + p_n", p[1] + p[n]),
        (
            r"\sum_{i=1}^{n} \sum_{j=1}^{m} w_{i,j}",
            sp.Sum(sp.Sum(w[i, j], (j, 1, M.symbol)), (i, 1, n)),
        ),
        (r"\sum_{i=1}^{n} \sum_{j=1}^{m} w_{ij}", sp.Sum(w[i, j], (j, 1, M.symbol), (i, 1, n))),
        (r"\sum_{i=1}^{n} \frac{\varepsilon i}{n^2}", sp.Sum(eps * i / n**2, (i, 1, n))),
    ],
)
def test_family_elements_in_sums_and_products(latex: str, expected: sp.Expr) -> None:
    got = expr(latex)
    assert got == expected or sp.simplify(got - expected) == 0, (got, expected)


def test_elements_are_the_declared_family() -> None:
    (element,) = expr(r"\sum_{i=1}^{n} p_i").atoms(sp.Indexed)
    assert element.base == P.base and element.base.label.is_positive


@pytest.mark.parametrize(
    ("latex", "relation", "low", "high"),
    [
        (r"p_i \le e^{\varepsilon} q_i \quad \forall i", sp.LessThan, 1, n),
        (r"p_{i} \le e^{\varepsilon} q_{i} \text{ for all } i", sp.LessThan, 1, n),
        (r"p_{i} \le e^{\varepsilon} q_{i}, \text{for every } i", sp.LessThan, 1, n),
        (r"\forall i\colon q_i \le e^{\varepsilon} p_i", sp.LessThan, 1, n),
        (r"\forall i, q_i \ge e^{-\varepsilon} p_i", sp.GreaterThan, 1, n),
        # Where p_{i+1} exists: the 'for all' runs over 1..n - 1.
        (r"p_{i+1} \le p_i \quad \forall i", sp.LessThan, 1, n - 1),
        # Ranges as books write them.
        (r"p_i \le 1 \quad \forall i \in \{1, \dots, n\}", sp.LessThan, 1, n),
        (r"\forall i \in [n]: p_i \le 1", sp.LessThan, 1, n),
        (r"p_i \le 1 \text{ for } i = 1, \ldots, n", sp.LessThan, 1, n),
        (r"\forall i \in \{2, \dots, n\}, p_{i-1} \le p_i", sp.LessThan, 2, n),
    ],
)
def test_for_all_hypotheses(latex: str, relation: type, low: object, high: object) -> None:
    (h,) = relations(latex)
    assert isinstance(h, ForAll) and isinstance(h.relation, relation)
    assert (h.index, h.lower, h.upper) == (i, low, high)
    assert h.free_symbols >= {eps} or "varepsilon" not in latex
    assert i not in h.free_symbols


def test_a_for_all_applies_to_each_relation_and_sums_stay_unquantified() -> None:
    both = relations(r"0 < p_i < 1, \forall i")
    assert [type(h.relation) for h in both] == [sp.StrictLessThan, sp.StrictLessThan]
    assert all(isinstance(h, ForAll) for h in both)
    (total,) = relations(r"\sum_{i=1}^{n} p_i = 1")
    assert total == sp.Eq(sp.Sum(p[i], (i, 1, n)), 1, evaluate=False)


@pytest.mark.parametrize(
    ("latex", "fragments"),
    [
        (r"p + 1", ("family 'p' is used without an index", "p_i")),
        (r"p_i", ("index i of 'p_i' is not bound", "\\forall i")),
        (r"\sum_{i=1}^{n} p_{i+1}", ("p[i + 1] leaves the family's range 1..n",)),
        (r"\sum_{i=0}^{n} p_i", ("p[i] leaves the family's range",)),
        (r"p_0", ("index 0 of 'p_0' is outside the family's range 1..n",)),
        (r"p_{n+1}", ("outside the family's range",)),
        (r"\sum_{i=1}^{n} \sum_{i=1}^{n} p_i", ("index i is bound twice",)),
        (r"\sum_{i=1}^{n} p_{i,i}", ("has 2 index(es)", "the family p has 1")),
        (r"\sum_{j} \varepsilon", ("no family element", "\\sum_{j=1}^{n}")),
        (r"\sum_{i}^{n} p_i", ("upper limit but no start",)),
    ],
)
def test_bad_family_expressions(latex: str, fragments: tuple[str, ...]) -> None:
    with pytest.raises(LatexError) as info:
        expr(latex)
    for fragment in fragments:
        assert fragment in str(info.value), str(info.value)


@pytest.mark.parametrize(
    ("latex", "fragments"),
    [
        (r"\varepsilon \le 1 \quad \forall i", ("no family element is indexed by i",)),
        (r"\sum_{i=1}^{n} p_i \le 1 \quad \forall i", ("index i is bound twice",)),
        (r"p_i \le 1 \quad \forall \varepsilon", ("eps is a declared variable, not an index",)),
        (r"p_{2i} \le 1 \quad \forall i", ("is not i plus a constant",)),
        (r"\forall 1: p_1 \le 1", ("'for all' needs an index",)),
        (
            r"p_{i+1} \le p_i \quad \forall i \in \{1, \dots, n\}",
            ("p[i + 1] leaves the family's range 1..n for i in 1..n",),
        ),
        (r"p_i \le 1 \text{ for } i", ("'for i' needs its range",)),
        (r"p_i \le 1 \quad \forall i \in \{1, n\}", ("must read lo, \\dots, hi",)),
        (r"\forall i \in \{1, \dots, n\}", ("nothing to quantify",)),
        (r"\varepsilon \le 1 \quad \forall i \in [n]", ("no family element is indexed by i",)),
    ],
)
def test_bad_for_all(latex: str, fragments: tuple[str, ...]) -> None:
    with pytest.raises(LatexError) as info:
        relations(latex)
    for fragment in fragments:
        assert fragment in str(info.value), str(info.value)


@settings(max_examples=30, deadline=None)
@given(shift=st.integers(-3, 3), start=st.integers(0, 3))
def test_a_sums_range_check_is_exact(shift: int, start: int) -> None:
    """sum_{i=start}^{n} p_{i+shift} stays in 1..n iff start + shift >= 1 and shift <= 0."""
    latex = rf"\sum_{{i={start}}}^{{n}} p_{{i + ({shift})}}"
    fits = start + shift >= 1 and shift <= 0
    if fits:
        assert expr(latex) == sp.Sum(p[i + shift], (i, start, n))
    else:
        with pytest.raises(LatexError, match="leaves the family's range"):
            expr(latex)


def test_products_of_declared_symbols_are_written_out() -> None:
    # Without families, p_i under a numeric product names the declared p1..p3, as sums did.
    ps = {f"p{k}": sp.Symbol(f"p{k}", positive=True) for k in (1, 2, 3)}
    assert parse_latex_expr(r"\prod_{i=1}^{3} p_i", ps) == ps["p1"] * ps["p2"] * ps["p3"]


def test_the_issues_two_step_proof_reads_as_sums() -> None:
    chain = parse_latex_chain(
        r"\sum_{i=1}^{n} \frac{\varepsilon i}{n^2} &\le \sum_{i=1}^{n} \frac{\varepsilon}{n}"
        r" && \text{termwise, since } i \le n \\ &= \varepsilon",
        SYMBOLS,
        families=FAMILIES,
    )
    assert chain.lhs == sp.Sum(eps * i / n**2, (i, 1, n))
    assert [s.expr for s in chain.steps] == [sp.Sum(eps / n, (i, 1, n)), eps]


def test_parsed_families_make_a_well_formed_derivation() -> None:
    """Lemma 3.18's hypotheses and claim, typed in LaTeX, give a derivation whose only free
    symbols are the declared ones (the bound indices and elements are not free)."""
    hypotheses = [
        *relations(r"\sum_{i=1}^{n} p_i = 1"),
        *relations(r"\sum_{i=1}^{n} q_i = 1"),
        *relations(r"p_i \le e^{\varepsilon} q_i \quad \forall i"),
        *relations(r"q_i \le e^{\varepsilon} p_i \quad \forall i"),
    ]
    lhs = expr(r"\sum_{i=1}^{n} p_i \ln\frac{p_i}{q_i}")
    rhs = expr(r"\varepsilon (e^{\varepsilon} - 1)")
    d = Derivation(
        id="kl-latex",
        title="Lemma 3.18 in LaTeX",
        source=Source("Dwork & Roth 2014", "Lemma 3.18"),
        variables=(N, EPS, P, Q),
        claim=Claim(lhs, Relation.LE, rhs),
        steps=(Step(Relation.LE, rhs, Justification("the lemma")),),
        hypotheses=tuple(hypotheses),
    )
    assert sum(isinstance(h, ForAll) for h in d.hypotheses) == 2


def test_claim_and_proof_files_pass_their_families_to_latex() -> None:
    header = Header("toy.toml", (N, EPS, P, Q), {**SYMBOLS}, (), (), {})
    assert set(header.families) == {"p", "q"}
    (h,) = header.relations(r"p_i \le e^{\varepsilon} q_i \quad \forall i", "hypothesis")
    assert isinstance(h, ForAll) and h.upper == n
    assert header.expr(r"\sum_{i} p_i", "lhs") == sp.Sum(p[i], (i, 1, n))
