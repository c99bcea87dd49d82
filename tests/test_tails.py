"""Whole domains, not boxes (:mod:`numeric_checks.tails`): a step certified on a core box
and proved on every region outside it is certified on its whole domain; a region no rule
proves leaves it certified on its box only; a false tail is never certified."""

from __future__ import annotations

import sympy as sp
from hypothesis import example, given, settings
from hypothesis import strategies as st

from numeric_checks import CheckOptions, check_claim
from numeric_checks.certify import Box, certify_residual
from numeric_checks.plan import make_plan
from numeric_checks.tails import prove_tails, regions, touching_edge
from symbolic.domains import Variable, parse_domain
from symbolic.evidence import words
from symbolic.readers.claim_files import parse_claim
from symbolic.relations import Relation
from symbolic.report import CertificateStatus

from .conftest import CLAIMS

OPTIONS = CheckOptions(points=60, search_budget=60, budget=120.0)


def claim(lhs: str, rel: str, rhs: str, **variables: str) -> str:
    head = f'[claim]\nlhs = "{lhs}"\nrelation = "{rel}"\nrhs = "{rhs}"\n[variables]\n'
    return head + "".join(f'{k} = "{v}"\n' for k, v in variables.items())


def test_regions_left_out_by_the_box() -> None:
    x, s, p = (
        Variable(n, parse_domain(d)) for n, d in (("x", "(0, oo)"), ("s", "R"), ("p", "[0, 1]"))
    )
    box = Box(("x", "s", "p"), (1e-6, -5.0, 0.0), (5.0, 5.0, 1.0))
    found = {(r.name, r.upper): r.ends for r in regions([x, s, p], box) or []}
    assert found == {
        ("x", True): (5.0, 10.0, 100.0, 1000.0),
        ("x", False): (1e-6,),  # the sliver the open end cuts off
        ("s", True): (5.0, 10.0, 100.0, 1000.0),
        ("s", False): (-5.0, -10.0, -100.0, -1000.0),
    }
    # A box inside a closed finite domain is one the derivation chose: no tails.
    assert regions([p], Box(("p",), (0.2,), (1.0,))) is None
    assert regions([p], Box(("p",), (0.0,), (1.0,))) == []


def test_region_bound_reaches_the_box() -> None:
    x = sp.Symbol("x", positive=True)
    var = Variable("x", parse_domain("(0, oo)"))
    (low,) = [r for r in regions([var], Box(("x",), (1e-6,), (5.0,))) or [] if not r.upper]
    # The region x <= b must reach the box's float end: b >= float(1e-6) exactly.
    assert low.bound(1e-6) >= sp.Rational(1e-6)
    assert low.fact(x, 1e-6).expr == low.bound(1e-6) - x


def check(text: str, name: str):  # type: ignore[no-untyped-def]
    return check_claim(parse_claim(text, name=name), OPTIONS)


def test_one_variable_claims_are_certified_on_the_whole_domain() -> None:
    for name in ("bounded_log_decay", "entropy_term_lower"):
        result = check((CLAIMS / "user" / f"{name}.toml").read_text(), name)
        cert = result.certificate
        assert result.verdict.value == "certified", result.evidence
        assert cert is not None and cert.whole_domain and cert.tails, result.evidence
        assert "certified on the whole domain" in result.evidence
        assert "beyond that box" not in result.evidence and "gave up" not in result.evidence
    # The open end is a region too: x <= 1e-06 proved, not left to sampling.
    assert any(t.region == "x <= 1e-06" for t in cert.tails)


def test_two_sided_and_two_variable_claims_are_certified_on_the_whole_domain() -> None:
    for name, wanted in (
        ("log_gauss_bump", {"x >= 5", "x <= -5"}),
        ("bounded_log_decay_rate", {"x >= 5"}),
    ):
        result = check((CLAIMS / "user" / f"{name}.toml").read_text(), name)
        cert = result.certificate
        assert result.verdict.value == "certified", result.evidence
        assert cert is not None and cert.whole_domain
        assert {t.region for t in cert.tails} == wanted, result.evidence


def test_core_box_is_widened_where_the_tail_is_proved_late() -> None:
    name = "log_slow_decay"
    result = check((CLAIMS / "user" / f"{name}.toml").read_text(), name)
    cert = result.certificate
    assert result.verdict.value == "certified", result.evidence
    assert cert is not None and cert.whole_domain
    # The slope changes sign near x = 8: the rungs 5 and 10 fail, 100 is proved, and the
    # box is certified again on [0, 100].
    assert [t.region for t in cert.tails] == ["x >= 100"]
    assert cert.box["x"] == (0.0, 100.0)


def test_edge_where_the_sides_touch_is_proved_and_the_box_cut_back() -> None:
    # log(1 + x) = sqrt(x) at x = 0: the certifier alone stops short of the tangency.
    name = "log1p_below_sqrt"
    result = check((CLAIMS / "user" / f"{name}.toml").read_text(), name)
    cert = result.certificate
    assert result.verdict.value == "certified", result.evidence
    assert cert is not None and cert.whole_domain
    assert {t.region for t in cert.tails} == {"x <= 0.078125", "x >= 5"}
    assert cert.box["x"] == (0.078125, 5.0)


def test_touching_edge_only_where_the_residual_vanishes() -> None:
    x = sp.Symbol("x", nonnegative=True)
    box = Box(("x",), (0.0,), (5.0,))
    edge = touching_edge(sp.sqrt(x) - sp.log(1 + x), [x], box)
    assert edge is not None and not edge.upper and edge.inner
    assert edge.ends == (5 / 64, 5 / 8, 2.5)
    assert touching_edge(1 + sp.sqrt(x) - sp.log(1 + x), [x], box) is None


def test_mutants_are_refuted() -> None:
    for text in (
        claim("log(1 + x)*exp(-x/2)", "<=", "2/5", x="[0, oo)"),
        claim("x*log(x)", ">=", "-1/3", x="(0, oo)"),
        claim("log(1 + x**2)*exp(-x**2/4)", "<=", "6/10", x="R"),
        claim("log(1 + x)*exp(-a*x)", "<=", "2/5", x="[0, oo)", a="[1/2, 2]"),
        claim("log(1 + x)*exp(-x/20)", "<=", "7/5", x="[0, oo)"),
        claim("log(1 + x)", "<=", "3*sqrt(x)/4", x="[0, oo)"),
    ):
        result = check(text, "mutant")
        assert result.verdict.value == "refuted", result.evidence


def test_false_tail_is_never_certified() -> None:
    # True on the certifier's box [0, 5], false for x > 1000.005: refuted by sampling ...
    text = claim("x**2", "<=", "1000*x + 5", x="[0, oo)")
    result = check(text, "false tail")
    assert result.verdict.value == "refuted", result.evidence
    # ... and, given the core's certificate, the tail proof itself fails.
    plan = make_plan(parse_claim(text), OPTIONS)
    (x,) = plan.symbols
    residual, box = 1000 * x + 5 - x**2, Box(("x",), (0.0,), (5.0,))
    cert = certify_residual(residual, False, [x], box)
    assert cert.status is CertificateStatus.CERTIFIED
    whole = prove_tails(
        x**2,
        Relation.LE,
        1000 * x + 5,
        variables=plan.space.free,
        symbols=[x],
        context=plan.context,
        box=box,
        cert=cert,
        residual=residual,
        strict=False,
        hypotheses=(),
    )
    assert whole is None


def test_a_tail_not_proved_leaves_the_step_certified_on_its_box_only() -> None:
    text = claim("log(1 + x)*exp(-x/2)", "<=", "1/2", x="[0, oo)")
    plan = make_plan(parse_claim(text), OPTIONS)
    (x,) = plan.symbols
    residual = sp.Rational(1, 2) - sp.log(1 + x) * sp.exp(-x / 2)
    cert = certify_residual(residual, False, [x], plan.box)
    assert cert.status is CertificateStatus.CERTIFIED
    kw = dict(
        variables=plan.space.free,
        symbols=plan.symbols,
        context=plan.context,
        box=plan.box,
        cert=cert,
        residual=residual,
        strict=False,
        hypotheses=(),
    )
    lhs, rhs = sp.log(1 + x) * sp.exp(-x / 2), sp.Rational(1, 2)
    assert prove_tails(lhs, Relation.LE, rhs, **kw, seconds=0.0) is None  # type: ignore[arg-type]
    whole = prove_tails(lhs, Relation.LE, rhs, **kw)  # type: ignore[arg-type]
    assert whole is not None and whole.whole_domain


def test_tail_not_proved_in_a_claim_stays_on_the_box() -> None:
    # x y e^{-x y} <= 0.38 (t e^{-t} <= 1/e) is certified on [0, 5]^2, but a tail x >= X
    # still holds every product x y, the hump included: no rule proves it for every y >= 0,
    # and the step keeps its box certificate, which is not the claim: it is only checked
    # (issue 38: certified on a box of an unbounded domain is checked for the claim).
    result = check(claim("x*y*exp(-x*y)", "<=", "38/100", x="[0, oo)", y="[0, oo)"), "xy")
    cert = result.certificate
    assert result.verdict.value == "checked"
    assert cert is not None and cert.status is CertificateStatus.CERTIFIED
    assert not cert.whole_domain and not cert.tails
    assert "which is not the whole domain: beyond that box only the sampling" in result.evidence


def test_tails_proved_in_two_variables_cover_the_whole_domain() -> None:
    # x y e^{-x-y} <= 0.15 (max e^{-2} at x = y = 1): each tail decays, and the decision
    # procedure proves it with exp's Taylor and Pade facts; the certificate covers the domain.
    result = check(claim("x*y*exp(-x - y)", "<=", "15/100", x="[0, oo)", y="[0, oo)"), "xy")
    cert = result.certificate
    assert result.verdict.value in ("certified", "proved"), result.evidence
    if result.verdict.value == "certified":
        assert cert is not None and cert.whole_domain and cert.tails, result.evidence


def test_records_say_what_covered_which_region() -> None:
    from symbolic.report import CertificateRecord, TailProof
    from symbolic.scope import tails_note

    whole = CertificateRecord(
        CertificateStatus.CERTIFIED,
        box={"x": (0.0, 5.0)},
        boxes=13,
        bits=64,
        whole_domain=True,
        tails=(TailProof("x >= 5", "derivative rule in x on [5, oo)"),),
    )
    assert words(whole).startswith("certified on the whole domain: box x in [0, 5]")
    assert "x >= 5 proved by derivative rule in x on [5, oo)" in words(whole)
    assert tails_note(whole) == (
        "on the whole domain: box x in [0, 5] certified by Arb, x >= 5 proved by the rules"
    )
    # A search that showed all the volume but stopped at boxes too thin to split never
    # reads "gave up" nor "all but 0.0e+00".
    stuck = CertificateRecord(
        CertificateStatus.GAVE_UP, box={"x": (0.0, 5.0)}, certified_fraction=1.0
    )
    text = words(stuck)
    assert "gave up" not in text and "0.0e+00" not in text and "too thin" in text


@settings(max_examples=15)
@example(a=-1, b=10, c=5)  # certified on [0, 5], false for x > 10.5: a false tail
@example(a=0, b=-1, c=60)  # false for x > 60
@example(a=1, b=-4, c=5)  # true: whole domain
@given(
    a=st.integers(-3, 3),
    b=st.integers(-40, 40),
    c=st.integers(-5, 60),
)
def test_whole_domain_certificate_of_a_quadratic_only_when_it_is_true(
    a: int, b: int, c: int
) -> None:
    """p(x) = a x^2 + b x + c >= 0 on [0, oo): certified on the whole domain only if true
    there (exactly: p(0) >= 0, no sign change at a positive real root, a >= 0 or constant)."""
    text = claim("0", "<=", f"{a}*x**2 + {b}*x + {c}", x="[0, oo)")
    plan = make_plan(parse_claim(text), OPTIONS)
    (x,) = plan.symbols
    p = a * x**2 + b * x + c
    cert = certify_residual(p, False, [x], plan.box)
    if cert.status is not CertificateStatus.CERTIFIED:
        return
    whole = prove_tails(
        sp.S.Zero,
        Relation.LE,
        p,
        variables=plan.space.free,
        symbols=[x],
        context=plan.context,
        box=plan.box,
        cert=cert,
        residual=p,
        strict=False,
        hypotheses=(),
    )
    if whole is None:
        return
    # True on [0, oo) iff the minimum over 0, the vertex (if inside) and infinity is >= 0.
    candidates = [sp.Integer(c)]
    if a > 0 and sp.Rational(-b, 2 * a) > 0:
        candidates.append(p.subs(x, sp.Rational(-b, 2 * a)))
    true = all(v >= 0 for v in candidates) and (a > 0 or (a == 0 and b >= 0))
    assert true, (a, b, c, [words(t) for t in whole.tails])
