"""The calculus corpus (issue 39, ``tests/calculus``): false claims in the forms DP papers use
(integrals over R with Abs, Max or Phi inside, two-sided sums over Z with Abs, series whose
terms peak far out, Gaussian tails at small delta) refuted with a confirmation by Arb, true
ones in the same forms never refuted.

The whole corpus takes minutes (every file is a quadrature or a long sum at every point), so
the suite runs a fixed subset: the issue's own four examples and one of each other form,
false and true; ``python3 bench/calculus.py`` runs all of it, each file in a fresh process,
and prints the counts, times and memory."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest

from derivations.app.cli import main

CORPUS = Path(__file__).parent / "calculus"
FALSE = sorted((CORPUS / "false").glob("*.toml"))
TRUE = sorted((CORPUS / "true").glob("*.toml"))

ISSUE_EXAMPLES = (
    "discrete_laplace_one_tail",  # one tail instead of two
    "laplace_profile_abs",  # the Laplace privacy profile as an integral with Abs
    "laplace_renyi_constant",  # the Renyi divergence of Laplace with a wrong constant
    "geometric_variance_sum",  # the geometric mechanism's variance as an infinite sum
)
FALSE_SUBSET = (
    *ISSUE_EXAMPLES,
    "discrete_gaussian_normaliser_plus_one",  # off by 4e-7 relative at sigma = 10^6
    "poisson_far_mean",  # terms peaking a thousand terms out
    "zcdp_loss_tail_sharp",  # a Gaussian tail at small delta, false by a hair
    "phi_average",  # Phi inside an integral over R
)
TRUE_SUBSET = (
    "discrete_gaussian_normaliser_upper",  # certified through sums over Z
    "classical_gaussian",  # Gaussian tails at small delta, certified
    "discrete_laplace_normaliser",  # the issue's normaliser, right
)


def run(*argv: str) -> tuple[int, dict[str, object]]:
    out = StringIO()
    code = main([*argv, "--json", "--seed", "0"], out=out)
    return code, json.loads(out.getvalue())


def test_the_corpus_has_thirty_false_and_thirty_true_claims() -> None:
    assert len(FALSE) >= 30 and len(TRUE) >= 30
    names = {p.stem for p in FALSE}
    assert set(ISSUE_EXAMPLES) <= names
    assert set(FALSE_SUBSET) <= names and set(TRUE_SUBSET) <= {p.stem for p in TRUE}


@pytest.mark.parametrize("name", FALSE_SUBSET)
def test_a_false_claim_is_refuted_and_confirmed_by_arb(name: str) -> None:
    code, data = run("claim", str(CORPUS / "false" / f"{name}.toml"))
    assert (code, data["verdict"]) == (1, "refuted"), data["evidence"]
    evidence = str(data["evidence"])
    if "at the exact end" in evidence:
        # A violation at a closed end no binary number reaches (delta = 1/1000) is decided
        # there exactly, and shown at the end as written (issue 38): stronger than Arb.
        assert "confirmed exactly" in evidence
    else:
        assert "confirmed by Arb" in evidence
        # The values shown are enclosures, every digit certain, and they differ.
        assert "Arb enclosures" in evidence
    assert data["lhs_value"] != data["rhs_value"]


@pytest.mark.parametrize("name", TRUE_SUBSET)
def test_a_true_claim_is_never_refuted(name: str) -> None:
    code, data = run("claim", str(CORPUS / "true" / f"{name}.toml"))
    assert data["verdict"] != "refuted" and code != 1, data["evidence"]
    if name != "discrete_laplace_normaliser":
        assert data["verdict"] == "certified", data["evidence"]


def test_the_zcdp_claim_is_certified_on_the_box_its_file_sets() -> None:
    # The reviewer's rho-zCDP -> (eps, delta) check on the Gaussian mechanism, with
    # delta in [1e-12, 1e-3] set by the file's [certify] table (log-scale splitting): stated
    # on that range, the box is the whole domain and the claim is certified.
    box = "certified on rho in [0.001, 10], delta in [1e-12, 0.001]"
    path = CORPUS / "true" / "zcdp_gaussian_profile_papers_range.toml"
    code, data = run("claim", str(path))
    assert (code, data["verdict"]) == (0, "certified"), data["evidence"]
    assert box in str(data["evidence"])
    # Stated for every delta in (0, 1), the same box is not the claim (issue 38): the box is
    # certified and said so, the step is checked.
    code, data = run("claim", str(CORPUS / "true" / "zcdp_gaussian_profile.toml"))
    assert (code, data["verdict"]) == (0, "checked"), data["evidence"]
    assert box in str(data["evidence"]) and "not the whole domain" in str(data["evidence"])
    # The same claim with the factor 2 lost is refuted, confirmed rigorously: exactly at
    # the closed end delta = 1/1000 (no binary number reaches it; issue 38), its values shown
    # as enclosures.
    code, data = run("claim", str(CORPUS / "false" / "zcdp_missing_two.toml"))
    assert (code, data["verdict"]) == (1, "refuted")
    evidence = str(data["evidence"])
    assert "confirmed by Arb" in evidence or "confirmed exactly" in evidence
    assert "Phi" not in str(data["lhs_value"]) and float(str(data["lhs_value"])) > 0.001


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ('delta = ["1e-3", "1e-12"]', "need lo < hi"),
        ('delta = ["0", "1e-3"]', "leaves its domain"),
        ('theta = ["1e-12", "1e-3"]', "not a declared variable"),
        ('delta = "1e-12"', "two numbers"),
        ('delta = ["small", "1e-3"]', "is not a number"),
    ],
)
def test_a_bad_certify_table_is_refused_with_exit_2(
    table: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "claim.toml"
    path.write_text(
        '[claim]\nlhs = "delta"\nrelation = "<="\nrhs = "1"\n'
        f'[variables]\ndelta = "(0, 1)"\n[certify]\n{table}\n'
    )
    code = main(["claim", str(path)], out=StringIO())
    assert code == 2
    assert message in capsys.readouterr().err


def test_a_summand_with_no_proved_tail_says_which_part_and_why(tmp_path: Path) -> None:
    # 1/(k^2 + sqrt(k)) decays like 1/k^2: no ratio test, no geometric envelope, no closed
    # form; the violation seen cannot be confirmed, and the evidence names the tail.
    path = tmp_path / "slow.toml"
    path.write_text(
        '[claim]\nlhs = "Sum(1/(k**2 + sqrt(k)), (k, 1, oo))"\nrelation = "<="\nrhs = "x"\n'
        '[variables]\nx = "[1/2, 1]"\n'
    )
    code, data = run("claim", str(path), "--points", "10")
    assert (code, data["verdict"]) == (3, "undecided"), data["evidence"]
    assert "no proved bound on the upper tail of the Sum" in str(data["evidence"])
    # The values shown are mpmath's, and said to be unverified.
    assert "unverified" in str(data["evidence"])
