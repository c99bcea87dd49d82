"""``dpderive account``: the file format's checks (exit 2 with a message, never a
traceback), the exit codes and JSON fields, the accountants' graceful absence, the plot, the
consistency guard (a mutated bound is caught), a Hypothesis property and the catalog standing
the verb records (checked against a fresh check of the catalog)."""

from __future__ import annotations

import builtins
import io
import json
from pathlib import Path
from typing import Any

import pytest
from flint import arb, ctx
from hypothesis import given, settings
from hypothesis import strategies as st

from derivations.accounting import accountants, standing
from derivations.accounting import assess as assess_module
from derivations.accounting.assess import Claim, Inconsistent, assess
from derivations.app.cli import main
from numeric_checks.accounting.mechanisms import Composition, Mechanism, Round
from symbolic.evidence import words
from tests.conftest import on_the_catalog_worker

GAUSS = """
[mechanism]
kind = "gaussian"
sigma = 4.0
sensitivity = 1.0
[composition]
steps = 16
[claim]
epsilon = 1.0
delta = {delta}
"""
# 16 rounds at sigma = 4 are exactly 1-GDP: delta(1) = 0.126936737507...


def run(tmp_path: Path, text: str, *extra: str) -> tuple[int, str]:
    f = tmp_path / "a.toml"
    f.write_text(text, encoding="utf-8")
    out = io.StringIO()
    code = main(["account", str(f), "--no-accountants", *extra], out=out)
    return code, out.getvalue()


def test_exit_codes_holds_refuted_inconclusive(tmp_path: Path) -> None:
    assert run(tmp_path, GAUSS.format(delta="0.13"))[0] == 0
    assert run(tmp_path, GAUSS.format(delta="0.12"))[0] == 1
    sub = GAUSS.replace("sigma = 4.0", "sigma = 1.1\nsampling_rate = 0.01").replace(
        "steps = 16", "steps = 1000"
    )
    # q = 0.01, sigma = 1.1, 1000 steps: delta(1) is about 7.7e-4 (the reference of
    # tests/account_reference.py); the lower bound is 7.5e-4, Renyi DP gives 2.7e-3.
    code, text = run(tmp_path, sub.format(delta="0.001"))
    assert code == 3, text
    assert "INCONCLUSIVE" in text


def test_json_fields(tmp_path: Path) -> None:
    code, text = run(tmp_path, GAUSS.format(delta="0.127"), "--json")
    data = json.loads(text)
    assert code == 0 and data["verdict"] == "holds"
    for key in ("delta_upper", "delta_lower", "eps_upper", "eps_lower", "theorems", "basis"):
        assert key in data, key
    assert data["delta_lower"] <= 0.12693673750665
    assert data["delta_upper"] >= 0.12693673750664
    assert data["eps_lower"] <= data["eps_upper"]
    ids = {t["id"]: t for t in data["theorems"] if "id" in t}
    assert set(ids) == {"gdp-gaussian-mechanism", "gdp-composition", "gdp-to-dp"}
    assert ids["gdp-gaussian-mechanism"]["basis"] == "from cited results"
    assert data["basis"] == "from cited results"
    assert data["accountants"]["available"] is False


def test_text_report_says_what_it_rests_on(tmp_path: Path) -> None:
    code, text = run(tmp_path, GAUSS.format(delta="0.2"))
    assert code == 0
    assert "verdict: HOLDS (from cited results)" in text
    assert "gdp-to-dp: proved, outright" in text


BAD = [
    (
        "negative sigma",
        GAUSS.format(delta="0.1").replace("sigma = 4.0", "sigma = -1.0"),
        "sigma must be positive",
    ),
    (
        "zero sigma",
        GAUSS.format(delta="0.1").replace("sigma = 4.0", "sigma = 0"),
        "sigma must be positive",
    ),
    (
        "sigma as text",
        GAUSS.format(delta="0.1").replace("sigma = 4.0", 'sigma = "4"'),
        "sigma must be a number",
    ),
    (
        "sigma inf",
        GAUSS.format(delta="0.1").replace("sigma = 4.0", "sigma = inf"),
        "must be finite",
    ),
    ("delta zero", GAUSS.format(delta="0.0"), "delta must be in (0, 1)"),
    ("delta one", GAUSS.format(delta="1"), "delta must be in (0, 1)"),
    ("delta above", GAUSS.format(delta="1.5"), "delta must be in (0, 1)"),
    ("delta negative", GAUSS.format(delta="-1e-5"), "delta must be in (0, 1)"),
    (
        "epsilon negative",
        GAUSS.format(delta="0.1").replace("epsilon = 1.0", "epsilon = -1"),
        "epsilon must be in [0, 500]",
    ),
    ("missing claim", GAUSS.format(delta="0.1").split("[claim]")[0], "missing [claim] table"),
    (
        "missing mechanism",
        GAUSS.format(delta="0.1").replace("[mechanism]", "[other]"),
        "unknown key",
    ),
    (
        "no mechanism",
        "[composition]\nsteps = 3\n[claim]\nepsilon = 1\ndelta = 0.1\n",
        "missing [mechanism] table",
    ),
    (
        "missing composition",
        "[mechanism]\nkind = 'laplace'\nscale = 1\n[claim]\nmu = 1\n",
        "missing [composition] table",
    ),
    (
        "unknown kind",
        GAUSS.format(delta="0.1").replace('"gaussian"', '"exponential"'),
        "unknown kind 'exponential'",
    ),
    ("no kind", GAUSS.format(delta="0.1").replace('kind = "gaussian"', ""), "needs kind"),
    (
        "laplace without scale",
        GAUSS.format(delta="0.1").replace('"gaussian"', '"laplace"'),
        "unknown key(s) for kind 'laplace'",
    ),
    (
        "steps zero",
        GAUSS.format(delta="0.1").replace("steps = 16", "steps = 0"),
        "steps must be from 1",
    ),
    (
        "steps float",
        GAUSS.format(delta="0.1").replace("steps = 16", "steps = 1.5"),
        "steps must be a whole number",
    ),
    (
        "steps bool",
        GAUSS.format(delta="0.1").replace("steps = 16", "steps = true"),
        "steps must be a whole number",
    ),
    (
        "steps huge",
        GAUSS.format(delta="0.1").replace("steps = 16", "steps = 1000001"),
        "steps must be from 1",
    ),
    (
        "rate above one",
        GAUSS.format(delta="0.1").replace("sensitivity = 1.0", "sampling_rate = 1.5"),
        "sampling_rate must be in (0, 1]",
    ),
    (
        "rho",
        GAUSS.format(delta="0.1").replace("delta = 0.1", "rho = 0.5").replace("epsilon = 1.0", ""),
        "rho (zCDP) is not supported",
    ),
    ("epsilon only", GAUSS.format(delta="0.1").replace("delta = 0.1", ""), "needs delta"),
    ("mu and delta", GAUSS.format(delta="0.1") + "mu = 1\n", "claim one form"),
    ("unknown claim key", GAUSS.format(delta="0.1") + "eps = 1\n", "unknown key(s) in [claim]"),
    ("malformed", "[mechanism\nkind=", "malformed TOML"),
    (
        "rounds and mechanism",
        GAUSS.format(delta="0.1").replace(
            "steps = 16", "rounds = [{kind = 'gaussian', sigma = 1.0, steps = 2}]"
        ),
        "not both",
    ),
    (
        "round without steps",
        "[composition]\nrounds = [{kind = 'gaussian', sigma = 1.0}]\n[claim]\nmu = 1\n",
        "round 1 needs steps",
    ),
    (
        "tiny mu",
        GAUSS.format(delta="0.1").replace("sigma = 4.0", "sigma = 1e9"),
        "outside [1e-06, 1000]",
    ),
]


@pytest.mark.parametrize(("what", "text", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_exit_2_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], what: str, text: str, message: str
) -> None:
    code, out = run(tmp_path, text)
    err = capsys.readouterr().err
    assert code == 2, (what, out, err)
    assert message in err, err
    assert "Traceback" not in err + out


def test_bad_input_with_json_is_a_json_error(tmp_path: Path) -> None:
    code, out = run(tmp_path, GAUSS.format(delta="2"), "--json")
    assert code == 2
    data = json.loads(out)
    assert data["exit"] == 2 and "delta must be in (0, 1)" in data["error"]


def test_missing_file_and_bad_plot_name(tmp_path: Path) -> None:
    assert main(["account", str(tmp_path / "none.toml")], out=io.StringIO()) == 2
    assert run(tmp_path, GAUSS.format(delta="0.2"), "--plot", "x.txt")[0] == 2


def test_plot_is_written(tmp_path: Path) -> None:
    target = tmp_path / "d.png"
    code, text = run(tmp_path, GAUSS.format(delta="0.2"), "--plot", str(target))
    assert code == 0 and target.stat().st_size > 1000, text


def test_accountants_absent_degrade_to_a_message(monkeypatch: pytest.MonkeyPatch) -> None:
    real = builtins.__import__

    def refuse(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("dp_accounting"):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", refuse)
    comp = Composition((Round(Mechanism("gaussian", sigma="4"), 16),))
    found = accountants.run(comp, 1.0, 1e-5)
    assert found == {"available": False, "message": accountants.MISSING}


def test_disagreement_is_flagged_only_below_the_lower_bound() -> None:
    found = {"pld": {"eps": 0.5, "delta": 0.0}, "rdp": {"eps": 20.0, "delta": 0.8}}
    flags = accountants.disagreements(found, delta_lower=0.4, eps_lower=18.9)
    assert len(flags) == 2 and all(f.startswith("PLD") for f in flags)
    assert accountants.disagreements(found, delta_lower=0.0, eps_lower=0.1) == []


def test_accountants_when_installed_bracket_a_gaussian() -> None:
    pytest.importorskip("dp_accounting")
    comp = Composition((Round(Mechanism("gaussian", sigma="4"), 16),))
    found = accountants.run(comp, 1.0, 1e-5)
    assert found["available"] is True
    # 1-GDP: delta(1) = 0.12693...; the PLD accountant is a pessimistic estimate of it.
    assert 0.1269 <= found["pld"]["delta"] <= 0.13


def test_a_mutated_upper_bound_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Halving the GDP bound puts it below the exact lower bound: an internal error, never
    a verdict."""
    real = assess_module.gdp_bounds

    def halved(*args: Any) -> Any:
        return [
            type(u)(u.name, u.delta / 2, u.eps, u.catalog, u.cited, u.note) for u in real(*args)
        ]

    monkeypatch.setattr(assess_module, "gdp_bounds", halved)
    old = ctx.prec
    ctx.prec = 128
    try:
        comp = Composition((Round(Mechanism("gaussian", sigma="4"), 16),))
        with pytest.raises(Inconsistent):
            assess(comp, Claim("eps_delta", eps=arb(1), delta=arb("0.1")))
    finally:
        ctx.prec = old


def test_a_mutated_lower_bound_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real = assess_module.gaussian_event_delta

    def doubled(mu: Any, eps: Any) -> Any:
        value, t = real(mu, eps)
        return value * 2, t

    monkeypatch.setattr(assess_module, "gaussian_event_delta", doubled)
    comp = Composition((Round(Mechanism("gaussian", sigma="4"), 16),))
    with pytest.raises(Inconsistent):
        assess(comp, Claim("eps_delta", eps=arb(1), delta=arb("0.2")))


def _eps_delta(eps: str, delta: str) -> Claim:
    return Claim("eps_delta", eps=arb(eps), delta=arb(delta))


def test_laplace_near_the_largest_loss() -> None:
    """10 Laplace steps with eps0 = 1: at eps = 10 - 1e-5 delta is at least
    2^-10 (1 - e^-1e-5) (every step in its half-line beyond the shift), about 9.7656e-9; the
    lattice once scored the cells next to the half-lines like them and lost that event."""
    import math

    old = ctx.prec
    ctx.prec = 128
    try:
        comp = Composition((Round(Mechanism("laplace", scale="1"), 10),))
        exact = 2.0**-10 * -math.expm1(-1e-5)
        a = assess(comp, _eps_delta("9.99999", repr(exact * 0.999)))
        assert a.verdict == "refuted", a.reason
        assert assess(comp, _eps_delta("10", "1e-300")).verdict == "holds"  # basic composition
        assert assess(comp, _eps_delta("10", "1e-300")).basis == "outright"
    finally:
        ctx.prec = old


def test_gaussian_beyond_the_catalogs_eps() -> None:
    """eps = 500 is beyond gdp-to-dp's eps <= 50, but delta(500) <= delta(50): still the
    catalog's bound; at mu = 10, eps = 60 the value at 50 is too weak and the corollary at
    60 itself shows the claim, by a cited theorem."""
    old = ctx.prec
    ctx.prec = 128
    try:
        one = Composition((Round(Mechanism("gaussian", sigma="4"), 16),))
        a = assess(one, _eps_delta("500", "1e-300"))
        assert (a.verdict, a.basis) == ("holds", "from cited results")
        ten = Composition((Round(Mechanism("gaussian", sigma="1"), 100),))
        b = assess(ten, _eps_delta("60", "0.2"))
        assert (b.verdict, b.basis) == ("holds", "by a cited theorem")
    finally:
        ctx.prec = old


MECHANISMS = st.one_of(
    st.builds(
        lambda s, q: Mechanism("gaussian", sigma=s, q=q),
        st.sampled_from(["0.8", "1", "2.5", "5"]),
        st.sampled_from(["1", "1", "0.05", "0.2"]),
    ),
    st.builds(lambda b: Mechanism("laplace", scale=b), st.sampled_from(["0.5", "2", "10"])),
    st.builds(
        lambda e: Mechanism("randomized_response", eps0=e), st.sampled_from(["0.1", "0.7", "2"])
    ),
)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(
    rounds=st.lists(st.tuples(MECHANISMS, st.integers(1, 40)), min_size=1, max_size=2),
    eps=st.sampled_from([0.0, 0.3, 1.0, 2.5, 6.0]),
    delta=st.sampled_from([1e-9, 1e-5, 1e-2, 0.3]),
)
def test_lower_never_exceeds_upper(
    rounds: list[tuple[Mechanism, int]], eps: float, delta: float
) -> None:
    old = ctx.prec
    ctx.prec = 128
    try:
        comp = Composition(tuple(Round(m, k) for m, k in rounds))
        a = assess(comp, Claim("eps_delta", eps=arb(repr(eps)), delta=arb(repr(delta))))
        best = a.best_upper
        if best is not None:
            assert a.lower.delta.lower() <= best.delta.upper()  # type: ignore[union-attr]
        up = a.best_eps_upper
        if up is not None and a.lower.eps is not None:
            assert a.lower.eps.lower() <= up.eps.upper()  # type: ignore[union-attr]
        assert a.verdict in ("holds", "refuted", "inconclusive")
    finally:
        ctx.prec = old


@on_the_catalog_worker
def test_recorded_standing_matches_the_catalog(catalog_reports: dict[str, Any]) -> None:
    for ident, s in standing.RECORDED.items():
        r = catalog_reports[ident]
        assert (r.verdict.value, r.basis) == (s.verdict, s.basis), ident
        rests = tuple(words(x) for x in r.rests_on if x.kind != "lemma")
        assert rests == s.rests_on, (ident, rests)


@pytest.mark.parametrize(("k", "eps0", "eps"), [(10, "1", "4"), (50, "0.5", "6"), (7, "2", "0")])
def test_optimal_composition_agrees_with_the_catalogs_oracle(k: int, eps0: str, eps: str) -> None:
    """The recurrence of ``pure.kov_delta`` against the direct sum that the catalog's oracle
    of approx-basic-composition-optimal uses (numeric_checks.dp.arb_functions), and against
    the exact randomized-response profile (the reference of the configuration tests)."""
    from numeric_checks.accounting import pure
    from numeric_checks.dp.arb_functions import optimal_delta
    from tests.account_reference import rr_delta

    old = ctx.prec
    ctx.prec = 128
    try:
        mine = pure.kov_delta(k, arb(eps0), arb(eps))
        theirs = optimal_delta(arb(k), arb(eps0), arb(0), arb(eps))
        assert mine.overlaps(theirs)
        assert abs(float(mine.mid()) - rr_delta(float(eps0), k, float(eps))) < 1e-12
        assert abs(pure.kov_delta_float(k, float(eps0), float(eps)) - float(mine.mid())) < 1e-9
    finally:
        ctx.prec = old
