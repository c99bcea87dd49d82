"""Hostile and careless input through the real command line (issue 27).

Each row of :data:`CASES` is one input as a user or an attacker would give it, with the exit
codes it may end in and a fragment its message must contain.  Every row runs ``python -m
derivations`` in a subprocess under a memory cap and a wall-time limit of its budget plus a
few seconds, so a row that hangs or swaps fails instead of taking the machine with it.
Mutants sit beside the true claims: a true claim must not be refuted and its false twin must
be refuted, so a row cannot pass by the checker saying the same thing for everything.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
MEMORY_CAP = 3 * 1024**3
"""Address-space cap of each subprocess (the CLI sets its own, lower one; this is the net)."""
GRACE = 12.0
"""Seconds beyond a row's budget before the row counts as hung: start-up (~1.5 s), the
watchdog's own grace (3 s) and a loaded machine."""
FAST = ("--points", "24", "--search", "24")

pytestmark = pytest.mark.xdist_group("hostile")


def claim(
    lhs: str,
    relation: str,
    rhs: str,
    variables: dict[str, str] | None = None,
    hypotheses: list[str] | None = None,
    defs: dict[str, str] | None = None,
) -> str:
    """A claim file's text (TOML), with each string written as a literal string."""
    lines = []
    if hypotheses:
        lines.append("hypotheses = [" + ", ".join(_lit(h) for h in hypotheses) + "]")
    lines += ["[claim]", f"lhs = {_lit(lhs)}", f"relation = {_lit(relation)}", f"rhs = {_lit(rhs)}"]
    lines.append("[variables]")
    for name, domain in (variables or {}).items():
        lines.append(f"{_key(name)} = {_lit(domain)}")
    if defs:
        lines.append("[defs]")
        lines += [f"{_key(k)} = {_lit(v)}" for k, v in defs.items()]
    return "\n".join(lines) + "\n"


def _lit(text: str) -> str:
    return "'''" + text + "'''" if "'" not in text else '"' + text.replace('"', '\\"') + '"'


def _key(name: str) -> str:
    return name if name.isascii() else '"' + name + '"'


@dataclass(frozen=True)
class Case:
    """One hostile input: the arguments (``{file}`` is replaced by the path of ``text``
    written to a file named ``filename``), the exit codes it may end in and a fragment its
    output (stdout and stderr) must contain, case-insensitively."""

    name: str
    argv: tuple[str, ...]
    codes: frozenset[int]
    fragment: str = ""
    text: str | bytes | None = None
    filename: str = "claim.toml"
    budget: float = 10.0
    shell: str = ""
    """A shell pipeline to run instead of ``argv`` (``{cli}`` is the command)."""
    quiet: bool = False
    """Nothing may be printed on stderr."""
    absent: tuple[str, ...] = field(default=())
    """Fragments the output must not contain."""


def C(
    name: str,
    codes: int | set[int],
    fragment: str,
    text: str | bytes | None = None,
    *argv: str,
    verb: str = "claim",
    budget: float = 10.0,
    filename: str = "claim.toml",
    **kw: object,
) -> Case:
    if not argv:
        argv = (verb, "{file}", *FAST, "--budget", str(budget))
    wanted = frozenset({codes} if isinstance(codes, int) else codes)
    return Case(name, tuple(argv), wanted, fragment, text, filename, budget, **kw)  # type: ignore[arg-type]


R = {"x": "(0, 1)"}
EXPR_OK = {0}
VALID = {0, 1, 3}
"""A verdict, whatever it is (used where the mathematics is meaningful but hard)."""
REFUSED = 2
SUM_E = "Sum(E/k**2, (k, 1, n))"
SUM_2 = "Sum(2/k**2, (k, 1, n))"
N20 = {"n": "Z in [1, 20]"}
POLY149 = " + ".join(f"{i}*x**{i}" for i in range(149))
NEST_PW = "x"
for _ in range(60):
    NEST_PW = f"Piecewise(({NEST_PW}, x < 1), (Sum(binomial(k, 2), (k, 1, 3)), True))"
TOWER = "x"
for _ in range(150):
    TOWER = f"exp({TOWER})"

CASES: list[Any] = [
    # 1. one namespace: the names of constants are reserved, compared after NFKC.
    C("e-declared", 2, "Euler's number", claim(SUM_E, ">=", SUM_2, {"e": "(0, 1)", **N20})),
    C("E-declared", 2, "Euler's number", claim("E*x", "<=", "3*x", {"E": "(0, 1)", **R})),
    C(
        "pi-declared",
        2,
        "is pi",
        claim("Sum(pi/k**2, (k, 1, n))", ">=", "0", {"pi": "(0, 1)", **N20}),
    ),
    C("inf-declared", 2, "infinity", claim("inf", ">=", "0", {"inf": "(0, 1)"})),
    C("I-declared", 2, "imaginary", claim("I", ">=", "0", {"I": "(0, 1)"})),
    C("exp-declared", 2, "function", claim("exp", ">=", "0", {"exp": "(0, 1)"})),
    C("def-named-pi", 2, "is pi", claim("x", "<=", "1", R, defs={"pi": "x"})),
    C(
        "integral-e-declared",
        2,
        "Euler's number",
        claim("Integral(E, (t, 0, 1))", ">=", "2", {"e": "(0, 1)"}),
    ),
    C("nfkc-script-e", 2, "Euler's number", claim("x", "<=", "1", {"\u212f": "(0, 1)", **R})),
    C("nfkc-clash", 2, "NFKC", claim("x", "<=", "1", {"x": "(0, 1)", "\uff58": "(0, 1)"})),
    C("nfkc-clash-def", 2, "NFKC", claim("x", "<=", "1", R, defs={"\U0001d465": "2"})),
    C("sum-index-e", 2, "Euler's number", claim("Sum(1/e**2, (e, 1, n))", "<=", "2", N20)),
    C("integral-index-pi", 2, "is pi", claim("Integral(pi, (pi, 0, 1))", "<=", "2", {})),
    C(
        "latex-e-sum",
        EXPR_OK,
        "",
        claim(r"\sum_{k=1}^{n} \frac{e}{k^2}", ">=", r"\sum_{k=1}^{n} \frac{2}{k^2}", N20),
    ),
    C(
        "latex-e-sum-false",
        1,
        "refuted",
        claim(r"\sum_{k=1}^{n} \frac{e}{k^2}", "<=", r"\sum_{k=1}^{n} \frac{2}{k^2}", N20),
    ),
    C("latex-index-e", 2, "Euler's number", claim(r"\sum_{e=1}^{n} \frac{1}{e^2}", "<=", "2", N20)),
    C("latex-e-declared", 2, "Euler's number", claim(r"e^{x}", ">=", "1", {"e": "(0, 1)", **R})),
    C("E-sum-true", EXPR_OK, "", claim(SUM_E, ">=", SUM_2, N20)),
    C("E-sum-false", 1, "refuted", claim(SUM_E, "<=", SUM_2, N20)),
    C("E-integral-true", EXPR_OK, "", claim("Integral(E*x, (t, 0, 1))", ">=", "2*x", R)),
    C("E-integral-false", 1, "refuted", claim("Integral(E*x, (t, 0, 1))", "<=", "2*x", R)),
    # 2. no internal error from user input.
    C("div-zero", 2, "undefined", claim("1/0", "<=", "x", R)),
    C("log-zero", 2, "undefined", claim("log(0) + x", "<=", "x", R)),
    C("factorial-neg", 2, "undefined", claim("factorial(-1)", "<=", "x", R)),
    C("gamma-pole", 2, "undefined", claim("gamma(0) * x", "<=", "x", R)),
    C("binomial-odd", {0, 1, 2, 3}, "", claim("binomial(-1, -2)*x", "<=", "x", R)),
    C("binomial-half", {0, 1, 2, 3}, "", claim("binomial(1/2, -3/2)*x", "<=", "x", R)),
    C(
        "iterated-integral",
        2,
        "iterated",
        claim("Integral(exp(-x*t*s), (s, 0, 1), (t, 0, 1))", "<=", "1", R),
    ),
    C(
        "nested-integral",
        2,
        "iterated",
        claim("Integral(Integral(exp(-x*t*s), (s, 0, 1)), (t, 0, 1))", "<=", "1", R),
    ),
    C(
        "triple-integral",
        2,
        "iterated",
        claim("Integral(x*s*t*u, (s, 0, 1), (t, 0, 1), (u, 0, 1))", "<=", "x", R),
    ),
    C(
        "latex-iterated",
        2,
        "integral",
        claim(r"\int_0^1 \int_0^1 e^{-x t s} \, ds \, dt", "<=", "1", R),
    ),
    C(
        "budget-1e308",
        2,
        "--budget",
        claim("x", "<=", "1", R),
        "claim",
        "{file}",
        "--budget",
        "1e308",
    ),
    C("budget-nan", 2, "--budget", claim("x", "<=", "1", R), "claim", "{file}", "--budget", "nan"),
    C("digits-2", 2, "at least 15", claim("x", "<=", "1", R), "claim", "{file}", "--digits", "2"),
    C(
        "digits-huge",
        2,
        "at most",
        claim("x", "<=", "1", R),
        "claim",
        "{file}",
        "--digits",
        "100000",
    ),
    C(
        "points-huge",
        2,
        "at most",
        claim("x", "<=", "1", R),
        "claim",
        "{file}",
        "--points",
        "1000000000",
    ),
    C(
        "search-huge",
        2,
        "at most",
        claim("x", "<=", "1", R),
        "claim",
        "{file}",
        "--search",
        "1000000000",
    ),
    C("jobs-huge", 2, "at most", None, "check", "kl-bound", "--jobs", "100000"),
    C("domain-pi-half", EXPR_OK, "", claim("x", "<=", "2", {"x": "(0, pi/2)"})),
    C("domain-pi-half-false", 1, "refuted", claim("x", "<=", "1", {"x": "(0, pi/2)"})),
    C("domain-sqrt2", EXPR_OK, "", claim("x**2", "<=", "2", {"x": "(0, sqrt(2)]"})),
    C("domain-log2", EXPR_OK, "", claim("exp(x)", "<=", "2", {"x": "(0, log(2))"})),
    C("domain-erf", {0, 2}, "", claim("x", "<=", "1", {"x": "(0, erf(1)]"})),
    C("domain-factorial-pi", {0, 1, 2, 3}, "", claim("x", ">=", "1", {"x": "(E, factorial(pi))"})),
    C("domain-Z-Phi", {0, 2}, "", claim("n", ">=", "1", {"n": "Z>Phi(1)"})),
    C("domain-Z-exp-huge", {0, 1, 2, 3}, "", claim("n", ">=", "1", {"n": "Z<exp(10**6)"})),
    C("domain-expm1-huge", 2, "", claim("n", ">=", "1", {"n": "Z>expm1(2**10000)"})),
    C("literal-10-5000", EXPR_OK, "", claim("10**5000", ">", "10**4999*x", R)),
    C("factorial-10000", {0, 3}, "", claim("factorial(10000)", ">", "x", R)),
    C("poly-149", {0, 3}, "", claim(POLY149, ">=", "0", R), budget=3),
    C(
        "hyp-restates-domain",
        EXPR_OK,
        "",
        claim("Delta", ">", "0", {"Delta": "(0, oo)"}, ["Delta > 0"]),
    ),
    C("pi-lt-3", 1, "refuted", claim("pi", "<", "3", {})),
    C("pi-gt-3", EXPR_OK, "", claim("pi", ">", "3", {})),
    C("E-bound-true", EXPR_OK, "", claim("(1 + 1/k)**k", "<", "E", {"k": "Z>=1"})),
    C("E-bound-false", 1, "refuted", claim("(1 + 1/k)**k", "<", "E - 1/10", {"k": "Z>=1"})),
    # 3. resource limits: caps named in the message, before SymPy builds anything.
    C(
        "power-1e9",
        {2, 3},
        "",
        claim("x**(10**9)", "<=", "1", R),
        absent=("MemoryError", "internal error"),
    ),
    C(
        "power-tower",
        {2, 3},
        "",
        claim("(x**10**8)**10**8", "<=", "1", R),
        budget=5,
        absent=("internal error",),
    ),
    C("literal-1e99999999", 2, "literal", claim("1e99999999*x", ">=", "0", R), budget=5),
    C("literal-digits", 2, "digits", claim("1" * 6000 + "*x", ">=", "0", R)),
    C(
        "exp-tower-150",
        {2, 3},
        "",
        claim(TOWER, ">=", "0", R),
        budget=5,
        absent=("internal error",),
    ),
    C(
        "nest-piecewise",
        {2, 3},
        "",
        claim(NEST_PW, ">=", "0", R),
        budget=5,
        absent=("internal error",),
    ),
    C("deep-parens", 2, "nest", claim("(" * 500 + "x" + ")" * 500, ">=", "0", R)),
    C("dev-zero", 2, "", None, "claim", "/dev/zero", budget=5),
    C("dev-urandom", 2, "", None, "claim", "/dev/urandom", budget=5),
    C("binary-file", 2, "UTF-8", b"\x00\xff\xfe" * 100),
    C("large-file", 2, "1 MB", "# " + "a" * 1_100_000 + "\n"),
    C(
        "injection-import",
        2,
        "",
        claim("__import__('os').system('echo pwn\"\"ed')", "<=", "1", R),
        absent=("pwned",),
    ),
    C("injection-attr", 2, "attribute", claim("x.__class__", "<=", "1", R)),
    C("latex-input", 2, "", claim(r"\input{/etc/passwd} x", "<=", "1", R), absent=("root:",)),
    C(
        "latex-write18",
        2,
        "",
        claim(r"\immediate\write18{echo pwn{}ed} x", "<=", "1", R),
        absent=("pwned",),
    ),
    C("malformed-toml", 2, "malformed", "[claim\nlhs = 1"),
    # issue 29's command-line points.
    C("check-typo", 2, "did you mean kl-bound", None, "check", "kl-bund"),
    C("explain-typo", 2, "did you mean kl-bound", None, "explain", "kl-bund"),
    C("latex-typo", 2, "did you mean kl-bound", None, "latex", "kl-bund"),
    C("claim-tex", 2, "verify", r"\begin{align*} x &\le 1 \end{align*}", filename="proof.tex"),
    C("version", 0, "dpderive", None, "--version"),
    C(
        "closed-pipe",
        {0, 141},
        "",
        None,
        shell="{cli} list --json | head -c 400 >/dev/null",
        quiet=True,
    ),
]


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def run_case(case: Case, tmp: Path) -> tuple[int, str, str]:
    path = tmp / case.filename
    if isinstance(case.text, bytes):
        path.write_bytes(case.text)
    elif case.text is not None:
        path.write_text(case.text, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cli = [sys.executable, "-m", "derivations"]
    if case.shell:
        command = case.shell.format(cli=" ".join(cli))
        args: list[str] | str = ["bash", "-o", "pipefail", "-c", command]
    else:
        args = [*cli, *(a.replace("{file}", str(path)) for a in case.argv)]
    proc = subprocess.run(
        args,
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=case.budget + GRACE,
        preexec_fn=_limit_memory,
    )
    return proc.returncode, proc.stdout, proc.stderr


def _name(c: Any) -> str:
    return str(c.values[0].name if hasattr(c, "values") else c.name)


@pytest.mark.parametrize("case", CASES, ids=[_name(c) for c in CASES])
def test_hostile_input(case: Case, tmp_path: Path) -> None:
    code, out, err = run_case(case, tmp_path)
    text = out + err
    assert code in case.codes, f"exit {code}, wanted {sorted(case.codes)}:\n{text[-2000:]}"
    assert case.fragment.lower() in text.lower(), text[-2000:]
    assert "Traceback" not in text and "please report" not in text, text[-2000:]
    for bad in case.absent:
        assert bad not in text, text[-2000:]
    if case.quiet:
        assert err == "", err


def test_table_covers_the_issue() -> None:
    """The rows the issue names are all present (a renamed row must not drop one)."""
    names = {_name(c) for c in CASES}
    assert len(names) == len(CASES)
    for required in (
        "e-declared",
        "pi-declared",
        "inf-declared",
        "integral-e-declared",
        "nfkc-clash",
        "div-zero",
        "iterated-integral",
        "budget-1e308",
        "domain-pi-half",
        "literal-10-5000",
        "poly-149",
        "pi-lt-3",
        "power-1e9",
        "dev-zero",
        "dev-urandom",
        "closed-pipe",
    ):
        assert required in names
