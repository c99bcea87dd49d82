"""Issue 38, class 2: a domain's ends are exact and keep their openness, everywhere.

``[0, log(3)]`` became ``(0, 807268/734807)``: the closed 0 opened beside an expression end,
so ``eps`` was declared positive and ``exp(eps) > 1`` proved.  Now the ends stay as written
(``log(3)``, not a rational near it), each open or closed as written; points are inside only
when that is certain, certification boxes contain the domain (outward rounding, the exact
end handed to the certifier as a hypothesis).
"""

from __future__ import annotations

import math

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from numeric_checks.domain_ends import compare_exact
from numeric_checks.plan import certification_box
from numeric_checks.sampling import Sampler
from symbolic.domains import Variable, parse_domain
from symbolic.errors import InvalidInput
from symbolic.hypotheses import build_space
from symbolic.readers.claim_files import parse_claim


@pytest.mark.parametrize(
    ("text", "lower", "upper", "opens", "assumption"),
    [
        ("[0, log(3)]", 0, sp.log(3), (False, False), "nonnegative"),
        ("(0, log(3)]", 0, sp.log(3), (True, False), "positive"),
        ("[-1, pi]", -1, sp.pi, (False, False), None),
        ("[sqrt(2), 2]", sp.sqrt(2), 2, (False, False), "positive"),
        ("(-pi/2, 0]", -sp.pi / 2, 0, (True, False), "nonpositive"),
        ("[Phi(1), 2)", None, 2, (False, True), "positive"),
    ],
)
def test_ends_are_exact_and_keep_their_openness(
    text: str, lower: object, upper: object, opens: tuple[bool, bool], assumption: str | None
) -> None:
    d = parse_domain(text)
    if lower is not None:
        assert d.lower == lower
    assert d.upper == upper
    assert (d.lower_open, d.upper_open) == opens
    declared = Variable("x", d).domain.assumptions()
    for name in ("positive", "nonnegative", "negative", "nonpositive"):
        assert declared.get(name, False) is (name == assumption), (name, declared)


def test_a_claim_keeps_its_domain_as_written() -> None:
    d = parse_claim(
        '[claim]\nlhs = "exp(eps)"\nrelation = ">"\nrhs = "1"\n[variables]\neps = "[0, log(3)]"\n'
    )
    (eps,) = d.variables
    assert str(eps.domain) == "[0, log(3)]"
    assert d.hypotheses == ()  # no end moved into a hypothesis
    assert eps.symbol.is_positive is None and eps.symbol.is_nonnegative


@pytest.mark.parametrize("text", ["[pi, 3]", "(log(3), log(3)]", "[sqrt(2), 1.4]"])
def test_an_empty_domain_with_exact_ends_is_refused(text: str) -> None:
    with pytest.raises(InvalidInput):
        parse_domain(text)


def test_a_one_point_domain_at_an_exact_end() -> None:
    d = parse_domain("[log(3), log(3)]")
    assert d.contains(sp.log(3)) and not d.contains(sp.Rational(11, 10))


def _sampler(text: str) -> Sampler:
    return Sampler(build_space([Variable("x", parse_domain(text))], []), seed=0)


@pytest.mark.parametrize("text", ["[0, log(3)]", "[sqrt(2), 2]", "[-1, pi]", "[1/3, 2/3]"])
def test_edge_points_lie_inside_and_reach_the_closed_ends(text: str) -> None:
    d = parse_domain(text)
    points = [p.values[0] for p in _sampler(text).edge_points()]
    with mpmath.workdps(60):
        for v in points:
            # A coordinate that stands for the closed end itself (an ExactMpf, issue 38's
            # numeric side) is inside by its exact number; any other by its binary value.
            exact = getattr(v, "exact", None)
            assert d.contains(exact if exact is not None else sp.Rational(*_ratio(v)))
        nearest_low = min(points, key=lambda v: abs(v - mpmath.mpf(sp.N(d.lower, 60))))
        nearest_high = min(points, key=lambda v: abs(v - mpmath.mpf(sp.N(d.upper, 60))))
        assert abs(nearest_low - mpmath.mpf(sp.N(d.lower, 60))) < mpmath.mpf(10) ** -45
        assert abs(nearest_high - mpmath.mpf(sp.N(d.upper, 60))) < mpmath.mpf(10) ** -45


def _ratio(v: mpmath.mpf) -> tuple[int, int]:
    sign, man, exp, _ = v._mpf_
    n = -int(man) if sign else int(man)
    return (n << exp, 1) if exp >= 0 else (n, 1 << -exp)


def test_membership_near_an_exact_end_is_certain_or_refused() -> None:
    s = _sampler("[0, log(3)]")
    with mpmath.workdps(80):
        end = mpmath.log(3)
        assert not s.satisfies((end + mpmath.mpf(10) ** -70,))
        assert s.satisfies((end - mpmath.mpf(10) ** -40,))
        assert s.satisfies((mpmath.mpf(0),))  # the closed rational end itself
        assert not s.satisfies((-(mpmath.mpf(10) ** -70),))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    st.integers(-(10**20), 10**20),
    st.integers(-400, 400),
    st.integers(-(10**12), 10**12),
    st.integers(1, 10**12),
)
def test_compare_exact_against_fractions(man: int, exp: int, p: int, q: int) -> None:
    """The sign of ``v - p/q`` for a binary number ``v``, against Python's fractions."""
    from fractions import Fraction

    v = mpmath.mpf((man, exp)) if man else mpmath.mpf(0)
    exact = Fraction(*_ratio(v))
    want = (exact > Fraction(p, q)) - (exact < Fraction(p, q))
    assert compare_exact(v, sp.Rational(p, q)) == want
    assert compare_exact(v, sp.Rational(*_ratio(v))) == 0


def test_compare_exact_at_extreme_exponents() -> None:
    tiny = mpmath.mpf("1e-1000000000")
    assert compare_exact(tiny, sp.Rational(1, 3)) == -1
    assert compare_exact(-tiny, sp.Integer(0)) == -1
    assert compare_exact(mpmath.mpf("1e1000000000"), sp.Integer(10) ** 100) == 1
    assert compare_exact(mpmath.inf, sp.Integer(5)) == 1
    assert compare_exact(mpmath.nan, sp.Integer(5)) is None
    assert compare_exact(10**30 + 1, sp.Integer(10**30)) == 1


@pytest.mark.parametrize(
    ("text", "whole"),
    [("[0, log(3)]", True), ("[sqrt(2), 2]", True), ("[1/3, 1]", True), ("(0, pi)", False)],
)
def test_certification_boxes_contain_the_domain(text: str, whole: bool) -> None:
    v = Variable("x", parse_domain(text))
    d = parse_claim(f'[claim]\nlhs = "x"\nrelation = "<="\nrhs = "5"\n[variables]\nx = "{text}"\n')
    box, covers, ends = certification_box(d, build_space([v], []))
    assert covers is whole
    lo, hi = sp.Rational(box.lows[0]), sp.Rational(box.highs[0])
    dom = v.domain
    if whole:
        assert bool(lo <= dom.lower) and bool(hi >= dom.upper)
        # Past an inexact end, the end itself is the certifier's hypothesis.
        x = v.symbol
        if lo < dom.lower:
            assert (x - dom.lower, dom.lower_open) in ends
        if hi > dom.upper:
            assert (dom.upper - x, dom.upper_open) in ends
        assert ends or (lo == dom.lower and hi == dom.upper)
    else:
        assert bool(lo > dom.lower) and bool(hi < dom.upper)
    assert all(math.isfinite(b) for b in (*box.lows, *box.highs))


@pytest.mark.parametrize(
    ("lhs", "rel", "rhs", "domain", "at"),
    [
        ("x", "<", "pi", "[-1, pi]", "pi"),
        ("x**2", ">", "2", "[sqrt(2), 2]", "sqrt(2)"),
        ("x", ">", "1/3", "[1/3, 1]", "1/3"),
        ("exp(x)", "<", "3", "[0, log(3)]", "log(3)"),
        ("3*x", "!=", "1", "[1/3, 1]", None),  # no such relation: a refused claim
    ],
)
def test_a_claim_false_only_at_an_inexact_end_is_refuted_there(
    lhs: str, rel: str, rhs: str, domain: str, at: str | None
) -> None:
    from numeric_checks import CheckOptions, check_claim
    from symbolic.verdicts import Verdict

    text = (
        f'[claim]\nlhs = "{lhs}"\nrelation = "{rel}"\nrhs = "{rhs}"\n[variables]\nx = "{domain}"\n'
    )
    if at is None:
        with pytest.raises(InvalidInput):
            parse_claim(text)
        return
    result = check_claim(parse_claim(text), CheckOptions(points=30))
    assert result.verdict is Verdict.REFUTED, result.evidence
    assert result.counterexample is not None
    assert result.counterexample.point == {"x": at}
    assert "confirmed exactly" in result.evidence


@pytest.mark.parametrize(
    ("lhs", "rel", "rhs", "domain"),
    [
        ("x", "<=", "pi", "[-1, pi]"),
        ("x**2", ">=", "2", "[sqrt(2), 2]"),
        ("x", ">=", "1/3", "[1/3, 1]"),
    ],
)
def test_a_claim_true_at_an_inexact_end_is_not_refuted(
    lhs: str, rel: str, rhs: str, domain: str
) -> None:
    from numeric_checks import CheckOptions, check_claim
    from symbolic.verdicts import Verdict

    text = (
        f'[claim]\nlhs = "{lhs}"\nrelation = "{rel}"\nrhs = "{rhs}"\n[variables]\nx = "{domain}"\n'
    )
    assert check_claim(parse_claim(text), CheckOptions(points=30)).verdict is Verdict.PROVED
