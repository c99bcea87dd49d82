"""Certified verdicts: Arb enclosures and branch-and-bound on boxes."""

from __future__ import annotations

import math

import pytest
import sympy as sp
from flint import arb
from hypothesis import given, settings
from hypothesis import strategies as st

from derivations.catalog import get
from numeric_checks import CheckOptions, check_derivation
from numeric_checks.arb import compile_arb
from numeric_checks.certify import Box, certify, certify_residual
from numeric_checks.certify.split import choose_side, conjuncts, halves, log_sides, measure
from symbolic.errors import Unsupported
from symbolic.evidence import words
from symbolic.functions import Phi
from symbolic.report import CertificateStatus
from symbolic.verdicts import Verdict

x = sp.Symbol("x", positive=True)
e = sp.Symbol("eps", positive=True)
n = sp.Symbol("n", integer=True, positive=True)


def box(lo: float, hi: float, name: str = "x", integer: bool = False) -> Box:
    return Box((name,), (lo,), (hi,), (integer,))


def test_sympy_ground_types_are_set_explicitly() -> None:
    from sympy.external.gmpy import GROUND_TYPES

    assert GROUND_TYPES == "python"


def test_enclosures_contain_the_true_values() -> None:
    f = compile_arb([x], [sp.exp(x) * sp.erfc(x), Phi(-x), sp.sqrt(x) + sp.Rational(1, 3)])
    a, b, c = f(arb(2))
    assert a.overlaps(arb(math.exp(2) * math.erfc(2)))
    assert b.overlaps(arb(0.5 * math.erfc(2 / math.sqrt(2))))
    assert c.overlaps(arb(math.sqrt(2) + 1 / 3))
    # Phi in the far lower tail keeps relative accuracy (no 1 - erf cancellation).
    tail = compile_arb([x], [Phi(-x)])(arb(40))[0]
    assert tail > 0 and tail.rel_accuracy_bits() >= 35


def test_opaque_functions_are_unsupported() -> None:
    k = sp.Symbol("k", integer=True)
    with pytest.raises(Unsupported):
        compile_arb([x], [sp.Sum(x / k**2, (k, 1, 10))])


@pytest.mark.parametrize(
    ("residual", "the_box"),
    [
        (e * (sp.exp(e) - 1) - e * sp.tanh(e / 2), box(1e-6, 5, "eps")),
        (sp.exp(x) - 1 - x - x**2 / 2, box(1e-3, 3)),
        (sp.log(1 + x) - x / (1 + x), box(1e-3, 100)),
        ((n - sp.Rational(3, 2)) ** 2 - sp.Rational(1, 5), box(1, 3, "n", integer=True)),
    ],
)
def test_true_inequalities_are_certified(residual, the_box) -> None:
    symbol = next(iter(residual.free_symbols))
    cert = certify(residual, False, [symbol], the_box)
    assert cert.status is CertificateStatus.CERTIFIED, cert.describe()
    assert the_box.describe() in cert.describe()


@pytest.mark.parametrize(
    ("residual", "the_box"),
    [
        (e * sp.tanh(e / 2) - e * (sp.exp(e) - 1), box(1e-6, 5, "eps")),  # flipped
        (e * sp.tanh(e / 2) - e**2 / 3, box(0.1, 5, "eps")),  # wrong constant
        (sp.exp(x) - 1 - x - x**2 / 2 - x**3 / 5, box(1e-3, 3)),  # wrong term
        ((n - sp.Rational(3, 2)) ** 2 - sp.Rational(1, 3), box(1, 300, "n", integer=True)),
        ((x - sp.Rational(3, 2)) ** 2 - sp.Rational(1, 5), box(1, 3)),  # false on reals only
    ],
)
def test_false_inequalities_are_never_certified(residual, the_box) -> None:
    symbol = next(iter(residual.free_symbols))
    cert = certify(residual, False, [symbol], the_box)
    assert cert.status is CertificateStatus.REFUTED, cert.describe()
    assert cert.point is not None
    (value,) = cert.point.values()
    assert residual.subs(symbol, sp.Rational(value)).evalf(50) < 0  # a real witness


@settings(max_examples=60, deadline=None)
@given(
    a=st.floats(-2, 6),
    lo=st.floats(0.01, 2),
    width=st.floats(0.01, 3),
)
def test_certify_agrees_with_the_exact_minimum(a, lo, width) -> None:
    # x^2 - a >= 0 on [lo, hi] holds iff lo^2 >= a: never certified when false.
    hi = lo + width
    cert = certify(x**2 - a, False, [x], box(lo, hi))
    if cert.status is CertificateStatus.CERTIFIED:
        assert lo * lo >= a
    if lo * lo < a:
        assert cert.status in (CertificateStatus.REFUTED, CertificateStatus.GAVE_UP)


def test_tangency_gives_up_within_budget_and_names_the_box() -> None:
    # eps^2/2 >= eps tanh(eps/2) touches at eps -> 0: enclosures cannot separate it there.
    cert = certify(e**2 / 2 - e * sp.tanh(e / 2), False, [e], box(1e-6, 5, "eps"), max_boxes=500)
    assert cert.status is CertificateStatus.GAVE_UP and "stopped at eps in" in cert.detail
    assert cert.boxes <= 500


def test_hypotheses_restrict_the_box() -> None:
    y = sp.Symbol("y", positive=True)
    two = Box(("x", "y"), (0.1, 0.1), (1.0, 1.0))
    # x - y >= 0 is false on the square but true where y <= x/2.
    assert certify(x - y, False, [x, y], two).status is CertificateStatus.REFUTED
    cert = certify(x - y, False, [x, y], two, [(x / 2 - y, False)])
    assert cert.status is CertificateStatus.CERTIFIED, cert.describe()


def test_a_catalog_step_is_certified_on_a_stated_box() -> None:
    # The classical Gaussian mechanism's tail step: no rule proves it, Arb encloses it on
    # the derivation's box; Delta's domain is unbounded and delta's open, so the box is not
    # the step, which is only checked (issue 38).
    r = check_derivation(get("classical-gaussian-mechanism"), CheckOptions(points=30))
    step = r.steps[3]
    assert step.certificate is not None
    assert step.certificate.status is CertificateStatus.CERTIFIED
    assert step.verdict is Verdict.CHECKED
    assert "certified on eps in [1e-09, 1]" in step.evidence
    assert "which is not the whole domain: beyond that box only the sampling" in step.evidence
    assert r.verdict is Verdict.CHECKED


def test_certification_can_be_switched_off() -> None:
    r = check_derivation(
        get("classical-gaussian-mechanism"), CheckOptions(points=30, certify=False)
    )
    assert r.steps[3].verdict is Verdict.CHECKED


def test_tangency_is_certified_after_the_checked_rewrite() -> None:
    from numeric_checks.certify import leading_factor

    residual = e**2 / 2 - e * sp.tanh(e / 2)
    factor, rest = leading_factor(residual, [e])
    assert factor == e and sp.simplify(factor * rest - residual) == 0
    cert = certify(rest, False, [e], box(1e-6, 5, "eps"))
    assert cert.status is CertificateStatus.CERTIFIED, cert.describe()
    # the same rewrite never rescues a false statement
    _, wrong = leading_factor(e**2 / 3 - e * sp.tanh(e / 2), [e])
    assert certify(wrong, False, [e], box(1e-6, 5, "eps")).status is CertificateStatus.REFUTED


def test_monotone_sides_are_evaluated_at_their_ends() -> None:
    # x - tanh(x) >= 0 touches 0 at x = 0; it is increasing, so each box's minimum is its
    # left end, which stays positive down to 1e-6.
    assert certify(x - sp.tanh(x), False, [x], box(1e-6, 5)).status is CertificateStatus.CERTIFIED
    assert certify(sp.tanh(x) - x, True, [x], box(1e-6, 5)).status is CertificateStatus.REFUTED


def test_numeric_counterexamples_are_confirmed_by_arb() -> None:
    r = check_derivation(
        get("numeric-sparse-privacy-approx-seed"), CheckOptions(points=20, search_budget=20)
    )
    assert r.steps[1].verdict is Verdict.REFUTED
    assert "confirmed by Arb at 128 bits: residual -0.0018704615 +- " in r.steps[1].evidence


def test_exact_balls_of_mpmath_numbers() -> None:
    import mpmath

    from numeric_checks.arb import exact_ball, precision

    with mpmath.workdps(50), precision(200):
        v = mpmath.mpf(1) / 3
        b = exact_ball(v)
        assert b.is_exact() and abs(b - arb(1) / 3) < arb(10) ** -49
        assert exact_ball(-mpmath.mpf("0.375")).is_exact()


# -- issue 16: a deterministic budget, smear-rule splits, monotone collapse, rewrites -------

y = sp.Symbol("y", positive=True)


def test_the_budget_is_a_count_of_boxes_so_the_result_repeats() -> None:
    # A tangency the plain search cannot separate: it gives up after exactly max_boxes,
    # twice the same way, and says how much of the box it had shown.
    runs = [
        certify(e**2 / 2 - e * sp.tanh(e / 2), False, [e], box(1e-6, 5, "eps"), max_boxes=300)
        for _ in range(2)
    ]
    assert all(c.status is CertificateStatus.GAVE_UP and c.boxes == 300 for c in runs)
    assert runs[0].detail == runs[1].detail and runs[0].fraction == runs[1].fraction
    assert 0 < runs[0].fraction < 1  # log measure: the decades near eps = 0 stay open
    assert "of the box's volume certified" in runs[0].describe()


def test_a_certificate_covers_the_whole_volume() -> None:
    cert = certify(sp.exp(x) - 1 - x, False, [x], box(1e-3, 3))
    assert cert.status is CertificateStatus.CERTIFIED and cert.fraction == 1.0
    assert cert.record().certified_fraction == 1.0


def test_monotone_collapse_both_ways() -> None:
    # decreasing: the minimum is at the right end (1/4 - 1/4 = 0 there, exactly in binary)
    assert certify(1 / x - sp.Rational(1, 4), False, [x], box(0.5, 4)).status is (
        CertificateStatus.CERTIFIED
    )
    assert certify(1 / x - 0.26, False, [x], box(0.5, 4)).status is CertificateStatus.REFUTED
    # increasing: the minimum is at the left end (x - 1/2 = 0 there: >= holds, > does not)
    assert certify(x - 0.5, False, [x], box(0.5, 3)).status is CertificateStatus.CERTIFIED
    cert = certify(x - 0.5, True, [x], box(0.5, 3))
    assert cert.status is CertificateStatus.REFUTED and cert.point == {"x": 0.5}


def test_a_side_a_hypothesis_constrains_never_collapses() -> None:
    # y - 1 is increasing in y, but collapsing y to 0 would land where y >= x fails for
    # every x in [0.5, 2] and drop the whole box; the statement is false at y = 0.75.
    two = Box(("x", "y"), (0.5, 0.0), (2.0, 2.0))
    cert = certify(y - 1, False, [x, y], two, [(y - x, False)])
    assert cert.status is CertificateStatus.REFUTED, cert.describe()
    assert cert.point is not None and cert.point["y"] >= cert.point["x"]


def test_max_terms_split_into_conjuncts() -> None:
    a, b, r = sp.symbols("a b r")
    assert conjuncts(r - sp.Max(a, b)) == [r - a, r - b]
    assert conjuncts(2 * sp.Min(a, b) - r) == [2 * a - r, 2 * b - r]
    assert conjuncts(r + sp.Max(a, b)) == [r + sp.Max(a, b)]  # no split: a max that adds


def test_factors_of_a_tangency_are_certified_and_never_rescue_a_false_one() -> None:
    true = e * (sp.exp(e) - 1) - e * sp.tanh(e / 2)
    cert = certify_residual(true, False, [e], box(1e-9, 5, "eps"))
    assert cert.status is CertificateStatus.CERTIFIED, cert.describe()
    for false in (e * sp.tanh(e / 2) - e**2 / 3, e * sp.tanh(e / 2) - e * (sp.exp(e) - 1)):
        assert certify_residual(false, False, [e], box(1e-9, 5, "eps")).status is not (
            CertificateStatus.CERTIFIED
        )


def test_a_changed_constant_is_never_certified() -> None:
    # delta - Phi(-c + eps/(2c)), c = sqrt(2 ln(1.25/delta)): Theorem A.1's tail step; with
    # 1.25 -> 0.5 it is false near delta = 0.4.
    d = sp.Symbol("delta", positive=True)
    two = Box(("eps", "delta"), (1e-9, 1e-30), (1.0, 0.999999))

    def tail(k: sp.Expr) -> sp.Expr:
        c = sp.sqrt(2 * sp.log(k / d))
        return d - Phi(-c + e / (2 * c))

    assert certify_residual(tail(sp.Rational(5, 4)), False, [e, d], two).status is (
        CertificateStatus.CERTIFIED
    )
    assert certify_residual(tail(sp.Rational(1, 2)), False, [e, d], two).status is not (
        CertificateStatus.CERTIFIED
    )


sides = st.tuples(st.floats(1e-12, 10), st.floats(1.5, 1e6))


@settings(max_examples=80, deadline=None)
@given(
    box_sides=st.lists(sides, min_size=1, max_size=4),
    slopes=st.lists(st.floats(-1e3, 1e3), min_size=4, max_size=4),
)
def test_splits_cover_the_box_and_keep_its_volume(box_sides, slopes) -> None:
    lows = tuple(lo for lo, _ in box_sides)
    highs = tuple(lo * f for lo, f in box_sides)
    integer = (False,) * len(lows)
    logs = log_sides(lows, highs)
    balls = [arb(s) for s in slopes[: len(lows)]]
    i = choose_side(lows, highs, integer, logs, balls)
    assert i is not None
    smear = [abs(s) * (hi - lo) for s, lo, hi in zip(slopes, lows, highs, strict=False)]
    assert smear[i] >= max(smear) * (1 - 1e-9)  # the side that smears the enclosure most
    parts = halves(lows, highs, i, False, logs[i])
    if parts is None:
        return
    (l_lo, l_hi), (r_lo, r_hi) = parts
    assert l_lo == lows and r_hi == highs and l_hi[i] == r_lo[i]
    assert lows[i] < l_hi[i] < highs[i]
    if logs[i] and highs[i] / lows[i] > 4:  # decades: split at the geometric mean
        assert math.isclose(l_hi[i], math.sqrt(lows[i] * highs[i]), rel_tol=1e-12)
    whole = measure(lows, highs, integer, logs)
    left, right = measure(l_lo, l_hi, integer, logs), measure(r_lo, r_hi, integer, logs)
    assert math.isclose(left + right, whole, rel_tol=1e-9)


@settings(max_examples=40, deadline=None)
@given(lo=st.integers(-20, 20), width=st.integers(1, 50))
def test_integer_sides_split_between_integers(lo, width) -> None:
    lows, highs = (float(lo),), (float(lo + width),)
    parts = halves(lows, highs, 0, True, False)
    assert parts is not None
    (_, l_hi), (r_lo, _) = parts
    assert l_hi[0] + 1 == r_lo[0] and lows[0] <= l_hi[0] < highs[0]
    counts = [measure(*p, (True,), (False,)) for p in parts]
    assert sum(counts) == measure(lows, highs, (True,), (False,))


def test_a_give_up_that_rounds_to_the_whole_box_says_what_is_left() -> None:
    """Issue 26: "gave up ... 100.0% certified" read as a contradiction; a share that rounds
    to the whole box says how much is left, and never that the step is certified."""
    from symbolic.report import CertificateRecord, CertificateStatus

    near = CertificateRecord(
        CertificateStatus.GAVE_UP, box={"x": (0.0, 1.0)}, certified_fraction=0.99997
    )
    text = words(near)
    assert "100.0%" not in text and "gave up" not in text
    assert "but 3.0e-05 certified" in text and "not certified on the rest" in text
    half = CertificateRecord(
        CertificateStatus.GAVE_UP, box={"x": (0.0, 1.0)}, certified_fraction=0.5
    )
    assert "gave up" in words(half) and "50.0% of the box's volume certified" in words(half)
