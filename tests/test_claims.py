"""Claim files typed from a book: true ones are not refuted, false ones are, bad ones exit 2."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest

from derivations.app.cli import main
from numeric_checks import CheckOptions, check_claim
from symbolic.errors import InvalidInput
from symbolic.readers.claim_files import load_claim, parse_claim

from .conftest import BAD_CLAIMS, CLAIMS


def run(*argv: str) -> tuple[int, str]:
    out = StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


# Quadrature at 50 digits costs ~30 ms a point: integral claims get a smaller budget.
BUDGET = {"integral_true": ("--points", "20", "--search", "40")}


def claim_json(path: Path) -> tuple[int, dict]:  # type: ignore[type-arg]
    extra = BUDGET.get(path.stem, ("--points", "120"))
    code, text = run("claim", str(path), "--json", *extra)
    return code, json.loads(text)


@pytest.mark.parametrize(
    ("name", "verdict"),
    [
        ("laplace_true", "proved"),
        ("equality_hypothesis", "proved"),
        ("names_shadow", "proved"),
        ("hair_true", "proved"),
        ("integral_true", "proved"),
        ("sum_true", "checked"),
        ("phi_true", "proved"),  # Mills ratio: slope <= 0 and limit 0 at oo (derivative rule)
    ],
)
def test_true_claims_are_not_refuted(name: str, verdict: str) -> None:
    code, data = claim_json(CLAIMS / f"{name}.toml")
    assert (code, data["verdict"]) == (0, verdict)
    assert data["counterexample"] is None
    # Links with integrals or long sums are decided at 30 digits (budget.EXPENSIVE_DPS) on
    # fewer points (12 random, 12 edge, 4 corner, up to 12 boundary, 15 search steps).
    expensive = name.startswith(("integral", "sum"))
    assert data["points"] >= (25 if expensive else 50)
    assert data["digits"] == (30 if expensive else 50)


@pytest.mark.parametrize(
    ("name", "check"),
    [
        (
            "laplace_wrong_scale",
            lambda p: abs(float(p["fx"]) - float(p["fy"])) > float(p["Delta"]) / 2,
        ),
        ("tiny_eps", lambda p: float(p["eps"]) < 2.5e-15),
        ("huge_k", lambda p: int(p["k"]) > 1.3e8),
        ("integral_false", lambda p: float(p["x"]) > 0),
        ("sum_false", lambda p: int(p["n"]) >= 23),
        ("phi_false", lambda p: float(p["x"]) > 0),
        ("integer_false", lambda p: int(p["n"]) in (2, 3)),
        ("hair_false", lambda p: -5 <= float(p["x"]) <= 5),
    ],
)
def test_false_claims_are_refuted_with_a_real_counterexample(name: str, check) -> None:  # type: ignore[no-untyped-def]
    code, data = claim_json(CLAIMS / f"{name}.toml")
    assert (code, data["verdict"]) == (1, "refuted")
    point = data["counterexample"]
    assert point is not None and check(point), point
    assert data["lhs_value"] != data["rhs_value"]


@pytest.mark.parametrize(
    ("name", "fragment"),
    [
        ("malformed", "malformed TOML"),
        ("unknown_function", "unknown function 'zeta'"),
        ("missing_variable", "unknown name 'y'"),
        ("empty_domain", "empty domain"),
        ("contradictory", "no point"),
        ("injection_import", "only plain function names"),
        ("injection_attribute", "attribute access"),
        ("injection_lambda", "only plain function names"),
        ("bad_relation", "relation must be one of"),
        ("missing_claim", "missing [claim]"),
        ("bad_domain", "cannot read domain"),
        ("huge_power", "literal power too large"),
    ],
)
def test_bad_claim_files_exit_2_naming_the_problem(
    name: str, fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run("claim", str(BAD_CLAIMS / f"{name}.toml"))
    err = capsys.readouterr().err
    assert code == 2 and out == ""
    assert fragment in err and "Traceback" not in err


def test_injection_runs_nothing() -> None:
    marker = Path("/tmp/dpderive_pwned")
    marker.unlink(missing_ok=True)
    run("claim", str(BAD_CLAIMS / "injection_import.toml"))
    assert not marker.exists()


def test_missing_file_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run("claim", "/nonexistent/claim.toml")
    assert code == 2 and "cannot read claim file" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('[claim]\nlhs = 1\nrelation = "<="\nrhs = "1"\n', "must be a string"),
        (
            '[claim]\nlhs = "x"\nrelation = "<="\nrhs = "1"\n[variables]\n"x y" = "R"\n',
            "not a plain identifier",
        ),
        (
            '[claim]\nlhs = "x"\nrelation = "<="\nrhs = "1"\nextra = 1\n[variables]\nx = "R"\n',
            "unknown key",
        ),
        (
            'hypotheses = "x > 0"\n[claim]\nlhs = "x"\nrelation = "<="\nrhs = "1"\n'
            '[variables]\nx = "R"\n',
            "list of strings",
        ),
        (
            '[claim]\nlhs = "x"\nrelation = "<="\nrhs = "b"\n[variables]\nx = "R"\n'
            '[defs]\nx = "1"\n',
            "defined twice",
        ),
        (
            '[claim]\nlhs = "x"\nrelation = "<="\nrhs = "1"\n[variables]\nx = 5\n',
            "must be a string",
        ),
        (
            'title = 3\n[claim]\nlhs = "x"\nrelation = "<="\nrhs = "1"\n[variables]\nx = "R"\n',
            "title and source must be strings",
        ),
    ],
)
def test_parse_claim_errors(text: str, fragment: str) -> None:
    with pytest.raises(InvalidInput, match=None) as info:
        parse_claim(text)
    assert fragment in str(info.value)


def test_title_and_source_are_given_back(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "cosh.toml"
    path.write_text(
        'title = "cosh bound"\nsource = "Hoeffding 1963, Lemma 1"\n'
        '[claim]\nlhs = "cosh(x)"\nrelation = "<="\nrhs = "exp(x**2/2)"\n[variables]\nx = "R"\n'
    )
    assert main(["claim", str(path)]) == 0
    out = capsys.readouterr().out
    assert "title: cosh bound\n" in out and "source: Hoeffding 1963, Lemma 1\n" in out


def test_defs_are_substituted_in_file_order() -> None:
    d = parse_claim(
        '[claim]\nlhs = "c"\nrelation = "="\nrhs = "4*x"\n[variables]\nx = "R"\n'
        '[defs]\nb = "2*x"\nc = "2*b"\n'
    )
    assert d.expand_defs(d.claim.lhs) == 4 * d.symbols["x"]


def test_load_claim_reads_the_documented_example() -> None:
    d = load_claim(CLAIMS / "laplace_true.toml")
    assert d.statement == "Laplace density ratio bound"
    assert [v.name for v in d.variables] == ["eps", "Delta", "z", "fx", "fy"]


def test_proof_beats_cancellation_noise_through_the_referee() -> None:
    # 1 - erf(35) is exactly 0 at 50, 110 and 220 digits (the true value is 1e-534), so the
    # numeric check alone "refutes" this identity; the rules prove it, and the rigorous
    # referee shows the relation holds there (its Arb ball straddles 0 at every precision
    # and SymPy shows the residual is exactly 0): an evaluator failure, reported.
    d = parse_claim(
        '[claim]\nlhs = "1 - erf(x)"\nrelation = "="\nrhs = "erfc(x)"\n'
        '[variables]\nx = "[30, 40]"\n'
    )
    result = check_claim(d, CheckOptions(points=20, search_budget=10))
    assert result.verdict.value == "proved"
    assert "evaluator failure" in result.evidence
    assert "shown exactly: residual exactly 0 (SymPy)" in result.evidence
    assert result.counterexample is None and not result.suspect
