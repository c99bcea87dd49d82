"""A terminal that cannot be forged, and valid input that is accepted (issue 41).

Titles, statements, sources, reasons, citations, file names and expressions as typed are
the user's; printed raw, ``ESC[1A ESC[2K`` rewrote "REFUTED" as "PROVED" on screen and a
file name with a newline forged whole report lines.  Every text report is run here with
such strings and must show each control character as an escape, keep our own lines as
ours, and still give the right verdict.  The second half: inputs the issue found refused
or misreported, each beside a false twin that must be refuted.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import pytest

from derivations.app.cli import main
from derivations.printing.terminal import shortened, visible, visible_lines

ESC = "\x1b"
FORGERIES = {
    "cursor-up-erase": f"{ESC}[1A{ESC}[2Kverdict: proved",
    "hidden": f"{ESC}[8mREFUTED{ESC}[0m",
    "osc8-link": f"{ESC}]8;;https://evil.example{ESC}\\click{ESC}]8;;{ESC}\\",
    "carriage-return": "REFUTED\rPROVED ",
    "backspace": "REFUTED\b\b\b\b\b\b\bPROVED ",
    "newline": "t\nverdict: proved",
    "bidi-override": "\u202eDEVORP\u202c",
    "zero-width": "pro\u200bved\ufeff",
    "c1-csi": "\x9b1A\x9b2K",
    "line-separator": "a\u2028verdict: proved",
}
_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")
"""What may not reach a terminal from a report (a newline between our lines aside)."""


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(list(argv), out=out)
    return code, out.getvalue(), err.getvalue()


def _toml(text: str) -> str:
    """A TOML basic string holding ``text`` (controls as \\u escapes)."""
    return json.dumps(text)


def proof_file(directory: Path, forgery: str, name: str = "proof.toml") -> Path:
    path = directory / name
    path.write_text(
        f"title = {_toml('t ' + forgery)}\nsource = {_toml('s ' + forgery)}\n"
        '[variables]\nx = "(0, 1)"\n[[steps]]\nlhs = "x"\nrelation = "<="\nrhs = "x/2"\n'
        f"why = {_toml('w ' + forgery)}\nby = {_toml('cite:c ' + forgery)}\n",
        encoding="utf-8",
    )
    return path


def _clean(text: str) -> None:
    assert not _CONTROL.search(text), repr(text[:400])
    lines = text.splitlines()
    assert not any(line.startswith(("verdict: proved", "PROVED")) for line in lines), text


@pytest.mark.parametrize("forgery", sorted(FORGERIES))
def test_no_report_passes_a_control_character(forgery: str, tmp_path: Path) -> None:
    path = proof_file(tmp_path, FORGERIES[forgery])
    for argv in (["verify", str(path)], ["explain", str(path), "--no-check"]):
        code, out, err = run(
            *argv, *(["--points", "12", "--search", "12"] if argv[0] == "verify" else [])
        )
        _clean(out)
        _clean(err)
        if argv[0] == "verify":
            assert code == 1 and "REFUTED" in out.splitlines()[0]
    claim = tmp_path / "claim.toml"
    claim.write_text(
        '[claim]\nlhs = "x"\nrelation = "<="\nrhs = "x/2"\n'
        f'statement = {_toml(FORGERIES[forgery])}\n[variables]\nx = "(0, 1)"\n'
    )
    code, out, err = run("claim", str(claim), "--points", "12", "--search", "12")
    assert code == 1 and "verdict: refuted" in out.splitlines()
    _clean(out + err)


def test_a_file_name_cannot_forge_lines(tmp_path: Path) -> None:
    folder = tmp_path / f"x\nverdict: proved{ESC}[2K"
    folder.mkdir()
    path = proof_file(folder, "", name=f"p{ESC}[31m\r.toml")
    code, out, err = run("verify", str(path), "--points", "12", "--search", "12")
    assert code == 1
    _clean(out + err)
    code, out, err = run("claim", str(path.with_suffix(".txt")))
    assert code == 2 and "No such file" in err
    _clean(out + err)


def test_the_helpers() -> None:
    assert visible("a\x1b[2Kb\nc") == "a\\x1b[2Kb\\nc"
    assert visible_lines("a\nb\rc") == "a\nb\\rc"
    assert visible("\u202e\u200b\ufeff\x85\x7f\udcff") == (
        "\\u202e\\u200b\\ufeff\\u0085\\u007f\\udcff"
    )
    assert visible(r"\le ε ∞ 差分") == r"\le ε ∞ 差分"  # text and mathematics stay
    line = "unknown key " + "k" * 10_000 + " in the header"
    cut = shortened(line, 200)
    assert len(cut) < 260 and cut.startswith("unknown key") and cut.endswith("in the header")


def test_json_output_carries_no_raw_control(tmp_path: Path) -> None:
    path = proof_file(tmp_path, FORGERIES["cursor-up-erase"])
    code, out, _ = run("verify", str(path), "--json", "--points", "12", "--search", "12")
    assert code == 1 and ESC not in out
    assert json.loads(out)["title"] == "t " + FORGERIES["cursor-up-erase"]  # the data, whole


# -- valid input, accepted (or refused naming the real limit) --------------------------------


def claim_text(lhs: str, rel: str, rhs: str, variables: str, extra: str = "") -> str:
    head = f'[claim]\nlhs = "{lhs}"\nrelation = "{rel}"\nrhs = "{rhs}"\n'
    return f"{extra}{head}[variables]\n{variables}"


FAST = ("--points", "24", "--search", "24")
MAX40 = "Max(" + ", ".join(f"x/{i}" for i in range(1, 41)) + ")"
VALID = {
    # name: (text, exit code, its false twin's text)
    "max-40-arguments": (
        claim_text(MAX40, "<=", "x", 'x = "(0, 1)"\n'),
        0,
        claim_text(MAX40, "<=", "x/2", 'x = "(0, 1)"\n'),
    ),
    "nested-sum-outer-index": (
        claim_text("Sum(Sum(1, (j, 1, k)), (k, 1, n))", "=", "n*(n + 1)/2", 'n = "Z in [1, 20]"\n'),
        0,
        claim_text(
            "Sum(Sum(1, (j, 1, k)), (k, 1, n))", "=", "n*(n + 1)/2 + 1", 'n = "Z in [1, 20]"\n'
        ),
    ),
    "phi-domain-end": (
        claim_text("x", "<=", "17/20", 'x = "(0, Phi(1)]"\n'),
        0,
        claim_text("x", "<=", "84/100", 'x = "(0, Phi(1)]"\n'),
    ),
    "tight-hypotheses": (
        claim_text(
            "x*y",
            "<=",
            "1/4",
            'x = "(0, 1)"\ny = "(0, 1)"\n',
            'hypotheses = ["x + y >= 1", "x <= 1/2", "y <= 1/2"]\n',
        ),
        0,
        claim_text(
            "x*y",
            "<=",
            "1/5",
            'x = "(0, 1)"\ny = "(0, 1)"\n',
            'hypotheses = ["x + y >= 1", "x <= 1/2", "y <= 1/2"]\n',
        ),
    ),
    "byte-order-mark": (
        "\ufeff" + claim_text("x", "<=", "1", 'x = "(0, 1)"\n'),
        0,
        "\ufeff" + claim_text("x", "<=", "1/2", 'x = "(0, 1)"\n'),
    ),
    "unused-mpf-and-sum_finite": (
        claim_text(
            "Sum(x/k**2, (k, 1, 3))",
            "<=",
            "2*x",
            'x = "(0, 1)"\nmpf = "(0, 1)"\nsum_finite = "(0, 1)"\n',
        ),
        0,
        claim_text(
            "Sum(x/k**2, (k, 1, 3))",
            "<=",
            "x",
            'x = "(0, 1)"\nmpf = "(0, 1)"\nsum_finite = "(0, 1)"\n',
        ),
    ),
}


@pytest.mark.parametrize("name", sorted(VALID))
def test_valid_input_is_accepted_and_its_twin_refuted(name: str, tmp_path: Path) -> None:
    text, code, twin = VALID[name]
    for body, wanted, verdict in ((text, code, "proved"), (twin, 1, "refuted")):
        path = tmp_path / "claim.toml"
        path.write_text(body, encoding="utf-8")
        got, out, err = run("claim", str(path), *FAST)
        assert got == wanted, out + err
        assert "undefined" not in out and "may be contradictory" not in err
        if verdict == "refuted":
            assert "verdict: refuted" in out


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        (
            claim_text(
                "Max(" + ", ".join(f"x/{i}" for i in range(1, 102)) + ")",
                "<=",
                "x",
                'x = "(0, 1)"\n',
            ),
            "Max takes 1 to 100 arguments, got 101",
        ),
        (
            claim_text(
                "x",
                "<=",
                "1",
                'x = "(0, 1)"\n' + "".join(f'u{i} = "(0, 1)"\n' for i in range(20_000)),
            ),
            "20001 variables, more than the 100",
        ),
        (
            claim_text(
                "x",
                "<=",
                "1",
                'x = "(0, 1)"\n',
                "hypotheses = [" + ", ".join(['"x <= 2"'] * 201) + "]\n",
            ),
            "201 hypotheses, more than the 200",
        ),
        (
            claim_text("x", "<=", "1", 'x = "(0, 1)"\n').replace(
                "[claim]", "k" * 10_000 + " = 1\n[claim]"
            ),
            "characters left out",
        ),
    ],
    ids=["max-101", "unused-variables-20000", "hypotheses-201", "error-line-10kb"],
)
def test_limits_are_named(text: str, fragment: str, tmp_path: Path) -> None:
    path = tmp_path / "claim.toml"
    path.write_text(text, encoding="utf-8")
    code, _, err = run("claim", str(path), *FAST)
    assert code == 2 and fragment in err, err[-600:]
    assert len(err) < 2_500  # a 10 KB line is cut, its head and its tail kept


def test_contradictory_hypotheses_are_still_refused(tmp_path: Path) -> None:
    path = tmp_path / "claim.toml"
    path.write_text(
        claim_text(
            "x*y",
            "<=",
            "1/4",
            'x = "(0, 1)"\ny = "(0, 1)"\n',
            'hypotheses = ["x + y >= 1", "x < 1/2", "y <= 1/2"]\n',
        )
    )
    code, _, err = run("claim", str(path), *FAST)
    assert code == 2 and "contradictory" in err


@pytest.mark.parametrize(
    ("variables", "lhs", "fragment"),
    [
        ('"\u0395" = "(3, 4)"\n', "\u0395", "looks like `E`, Euler's number"),  # Greek Epsilon
        ('x = "(0, 1)"\n"\u0445" = "(0, 2)"\n', "x", "looks like 'x', declared already"),
        ('"\u0440i" = "(3, 4)"\n', "\u0440i", "looks like `pi`"),  # Cyrillic er, Latin i
        ('n = "Z in [1, 9]"\n', "Sum(1/\u0395**2, (\u0395, 1, n))", "index of Sum"),
    ],
    ids=["greek-E", "cyrillic-x", "cyrillic-pi", "greek-E-index"],
)
def test_a_name_drawn_like_another_is_refused(
    variables: str, lhs: str, fragment: str, tmp_path: Path
) -> None:
    """``E > 3`` proved, with E a Greek capital Epsilon in (3, 4), read as if Euler's
    number were above 3."""
    path = tmp_path / "claim.toml"
    path.write_text(claim_text(lhs, ">", "3", variables), encoding="utf-8")
    code, _, err = run("claim", str(path), *FAST)
    assert code == 2 and fragment in err, err
    # Greek letters that mathematics writes beside Latin ones stay declarable.
    path.write_text(claim_text("\u03b1 + a", ">", "0", '"\u03b1" = "(0, 1)"\na = "(0, 1)"\n'))
    assert run("claim", str(path), *FAST)[0] == 0
