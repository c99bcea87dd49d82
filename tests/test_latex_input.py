"""LaTeX input: snippets as they appear in DP texts, what each must build, and what must be
refused (with a message that names the fragment, the line and the remedy)."""

from __future__ import annotations

import pytest
import sympy as sp

from symbolic.errors import ExpressionError, LatexError
from symbolic.functions import Phi, PhiInv, expm1, log1p
from symbolic.readers.latex import (
    parse_latex_chain,
    parse_latex_expr,
    parse_latex_relation,
    split_tex_file,
)
from symbolic.relations import Relation

POS = "eps delta deltaprime Delta mu sigma alpha lam tau rho b p1 p2 p3 q1 q2 q3 eps0 eps_tot"
S: dict[str, sp.Expr] = {n: sp.Symbol(n, positive=True) for n in POS.split()}
S.update({n: sp.Symbol(n, real=True) for n in ("x", "y", "z", "fx", "fy")})
S.update({n: sp.Symbol(n, integer=True, positive=True) for n in ("k", "n", "l")})
G = sp.Symbol  # bound variables are built fresh by the parser
eps, delta, Delta, mu, sigma, alpha = (
    S[n] for n in ("eps", "delta", "Delta", "mu", "sigma", "alpha")
)
x, y, z, fx, fy, b, k, n, ell = (S[n] for n in ("x", "y", "z", "fx", "fy", "b", "k", "n", "l"))
p1, p2, p3, q1, q2, q3 = (S[n] for n in ("p1", "p2", "p3", "q1", "q2", "q3"))
F = {"f(x)": "fx", "f(y)": "fy", "\\Delta f": "Delta"}
i_ = sp.Symbol("i", integer=True)
j_ = sp.Symbol("j", integer=True)

SNIPPETS: list[tuple[str, sp.Expr]] = [
    # Dwork & Roth, Theorem 3.6: the Laplace density ratio, with the names map.
    (
        r"\frac{e^{-|z-f(x)|/b}}{e^{-|z-f(y)|/b}}",
        sp.exp(-abs(z - fx) / b) / sp.exp(-abs(z - fy) / b),
    ),
    (r"\varepsilon(e^{\varepsilon}-1)", eps * (sp.exp(eps) - 1)),
    # Advanced composition (Dwork, Rothblum & Vadhan).
    (
        r"\sqrt{2k\ln(1/\delta')}\varepsilon + k\varepsilon(e^\varepsilon-1)",
        sp.sqrt(2 * k * sp.log(1 / S["deltaprime"])) * eps + k * eps * (sp.exp(eps) - 1),
    ),
    # The privacy profile of mu-GDP (Dong, Roth & Su).
    (
        r"\Phi\left(-\frac{\varepsilon}{\mu}+\frac{\mu}{2}\right)"
        r" - e^{\varepsilon}\Phi\left(-\frac{\varepsilon}{\mu}-\frac{\mu}{2}\right)",
        Phi(-eps / mu + mu / 2) - sp.exp(eps) * Phi(-eps / mu - mu / 2),
    ),
    (
        r"\sum_{i=1}^{3} p_i \ln\frac{p_i}{q_i}",
        p1 * sp.log(p1 / q1) + p2 * sp.log(p2 / q2) + p3 * sp.log(p3 / q3),
    ),
    (r"\frac{\Delta f}{\varepsilon}", Delta / eps),
    (r"\tanh(\varepsilon/2)", sp.tanh(eps / 2)),
    (r"\binom{k}{l}", sp.binomial(k, ell)),
    (
        r"\int_{-\infty}^{\infty} \frac{1}{\sqrt{2\pi}} e^{-x^2/2} \, dx",
        sp.Integral(
            sp.exp(-(G("x", real=True) ** 2) / 2) / sp.sqrt(2 * sp.pi),
            (G("x", real=True), -sp.oo, sp.oo),
        ),
    ),
    (r"\max\{0, 1 - \alpha\}", sp.Max(0, 1 - alpha)),
    (r"\min\left(1, e^{\varepsilon}\right)", sp.Min(1, sp.exp(eps))),
    (r"\Phi^{-1}(1-\alpha) - \mu", PhiInv(1 - alpha) - mu),
    (r"\sqrt[3]{x}", sp.root(x, 3)),
    (r"\tfrac{1}{2}\dfrac{\varepsilon}{2}", eps / 4),
    (r"\log_2 k + \log_{10}(n)", sp.log(k, 2) + sp.log(n, 10)),
    (r"\ln\left(\frac{1}{\delta}\right)", sp.log(1 / delta)),
    (r"\lvert x - y \rvert", sp.Abs(x - y)),
    (r"\left| x \right|^2", sp.Abs(x) ** 2),
    (r"k\mu^2", k * mu**2),
    (r"2\varepsilon", 2 * eps),
    (r"\frac{n!}{k!\,(n-k)!}", sp.factorial(n) / (sp.factorial(k) * sp.factorial(n - k))),
    (r"\operatorname{erf}(x) + \operatorname{erfc}(x)", sp.erf(x) + sp.erfc(x)),
    (r"x \cdot y \times z", x * y * z),
    (r"\left[ 1 + \varepsilon \right]^{2}", (1 + eps) ** 2),
    (r"10^{-5}", sp.Rational(1, 100000)),
    (r"0.5\varepsilon", eps / 2),
    (r"\exp\left(-\frac{\varepsilon^2}{2}\right)", sp.exp(-(eps**2) / 2)),
    (r"\sinh x + \cosh x", sp.sinh(x) + sp.cosh(x)),
    (r"\Gamma(k + 1)", sp.gamma(k + 1)),
    (r"p_{1} + p_2", p1 + p2),
    (r"f_x - f_y", fx - fy),
    (r"\pi \sigma^2", sp.pi * sigma**2),
    (r"\sum_{i=1}^{\infty} \frac{1}{i^2}", sp.Sum(1 / i_**2, (i_, 1, sp.oo))),
    (
        r"\begin{cases} e^{\varepsilon} & x < 0 \\ 1 & \text{otherwise} \end{cases}",
        sp.Piecewise((sp.exp(eps), x < 0), (1, True)),
    ),
    (r"\operatorname{W}(x)", sp.LambertW(x)),
    (r"\operatorname{B}(\alpha, 2)", sp.beta(alpha, 2)),
    (r"{k \choose 2}", sp.binomial(k, 2)),
    (r"\frac{1}{1 + e^{-\varepsilon}}", 1 / (1 + sp.exp(-eps))),
    (r"\lfloor x \rfloor + \lceil y \rceil", sp.floor(x) + sp.ceiling(y)),
    (
        r"\int_0^{x} e^{-t}\,\mathrm{d}t",
        sp.Integral(sp.exp(-G("t", real=True)), (G("t", real=True), 0, x)),
    ),
    (r"\varepsilon_0 + \varepsilon_{\mathrm{tot}}", S["eps0"] + S["eps_tot"]),
    (r"\displaystyle \frac{\mu^2}{2}\, \mathrm{e}", mu**2 * sp.E / 2),
    (r"\lambda \tau", S["lam"] * S["tau"]),
    (
        r"\operatorname{expm1}(\varepsilon) + \operatorname{log1p}(\delta)",
        expm1(eps) + log1p(delta),
    ),
    (r"$\sigma\sqrt{2\ln(1.25/\delta)}$", sigma * sp.sqrt(2 * sp.log(sp.Rational(5, 4) / delta))),
    (r"\frac{\Delta}{\varepsilon}\ln\frac{1}{\delta}", Delta / eps * sp.log(1 / delta)),
    (
        r"\sum_{j=0}^{n} \binom{n}{j} \alpha^j",
        sp.Sum(sp.binomial(n, j_) * alpha**j_, (j_, 0, n)),
    ),
    (r"\frac{e^{\varepsilon}-1}{e^{\varepsilon}+1}", sp.tanh(eps / 2)),
    (r"-\ln(1-\alpha)", -sp.log(1 - alpha)),
    (
        r"\rho k + 2\sqrt{\rho k \ln(1/\delta)}",
        S["rho"] * k + 2 * sp.sqrt(S["rho"] * k * sp.log(1 / delta)),
    ),
    (
        r"\sqrt{\frac{2\ln(1.25/\delta)}{\varepsilon^2}}\Delta",
        sp.sqrt(2 * sp.log(sp.Rational(5, 4) / delta)) / eps * Delta,
    ),
    (r"(1-\delta)^k", (1 - delta) ** k),
    (r"\Phi(x)^2", Phi(x) ** 2),
    (r"\ln\Gamma(x) - \operatorname{loggamma}(x)", sp.log(sp.gamma(x)) - sp.loggamma(x)),
    (r"\left\{ x + 1 \right\} \bigl( y \bigr)", (x + 1) * y),
    (r"e^{x} - \exp x", sp.S.Zero),
    (r"\frac12 + \frac1n", sp.S.Half + 1 / n),
    (r"\varepsilon \cdot -1", -eps),
    (r"\mathrm{e}^{\varepsilon} + E", sp.exp(eps) + sp.E),
    (r"\sqrt{x^2 + y^2}.", sp.sqrt(x**2 + y**2)),
]


def _same(a: sp.Expr, b: sp.Expr) -> bool:
    return a == b or sp.simplify((a - b).rewrite(sp.exp)) == 0


@pytest.mark.parametrize(("latex", "expected"), SNIPPETS, ids=[s for s, _ in SNIPPETS])
def test_snippet(latex: str, expected: sp.Expr) -> None:
    got = parse_latex_expr(latex, S, F)
    assert _same(got, expected), f"{latex} -> {got}, expected {expected}"
    assert got.free_symbols <= set(S.values())


def test_the_table_is_large_enough() -> None:
    assert len(SNIPPETS) >= 40


def test_integrals_and_sums_bind_their_variables() -> None:
    e = parse_latex_expr(r"\int_0^1 x t \, dt + x", {"x": x})  # t need not be declared
    assert e.free_symbols == {x}
    (t,) = [s for s in e.atoms(sp.Symbol) if s.name == "t"]
    assert t.is_real
    s = parse_latex_expr(r"\sum_{i=1}^{n} \frac{1}{i}", {"n": n})
    (i,) = s.variables
    assert i.is_integer and s.free_symbols == {n}


def test_a_declared_name_wins_over_a_constant_or_function() -> None:
    table = {"e": sp.Symbol("e"), "pi": sp.Symbol("pi"), "Phi": sp.Symbol("Phi"), "x": x}
    assert parse_latex_expr(r"e + \pi + \Phi x", table) == (
        table["e"] + table["pi"] + table["Phi"] * x
    )
    assert parse_latex_expr(r"e + \pi", {}) == sp.E + sp.pi


def test_a_declared_run_of_letters_is_one_name_otherwise_letters_multiply() -> None:
    table = {"eps": eps, "fx": fx, "k": k, "x": x}
    assert parse_latex_expr("eps + fx + kx", table) == eps + fx + k * x


def test_names_map_is_applied_longest_first_and_tolerates_spacing() -> None:
    names = {"f": "k", "f(x)": "fx"}
    assert parse_latex_expr("f( x ) + f", S, names) == fx + k
    assert parse_latex_expr(r"\Delta  f / \Delta", S, {"\\Delta f": "k"}) == k / Delta


def test_hypotheses() -> None:
    assert parse_latex_relation(r"0 < \delta < 1", S) == [
        sp.StrictLessThan(0, delta, evaluate=False),
        sp.StrictLessThan(delta, 1, evaluate=False),
    ]
    (r,) = parse_latex_relation(r"|f(x)-f(y)| \le \Delta", S, F)
    assert r == sp.LessThan(sp.Abs(fx - fy), Delta, evaluate=False)
    rels = parse_latex_relation(r"\varepsilon \geqslant 0, \; b = \Delta/\varepsilon", S)
    assert rels[0].rel_op == ">=" and isinstance(rels[1], sp.Equality)
    assert parse_latex_relation(r"\delta \in (0, 1]", S) == [
        sp.StrictLessThan(0, delta, evaluate=False),
        sp.LessThan(delta, 1, evaluate=False),
    ]
    assert len(parse_latex_relation(r"x \in [0, \infty)", S)) == 1


MALFORMED: list[tuple[str, tuple[str, ...]]] = [
    (r"\frac{1}{", ("unclosed '{'", "line 1")),
    (
        r"\foo{x}",
        ("unknown control sequence \\foo", "'\\foo{x}'", '"\\\\foo" = "name"', "SymPy syntax"),
    ),
    (r"w + 1", ("undeclared name 'w'", "[variables]")),
    (r"\left( x", ("\\left( without \\right", "\\right)")),
    ("", ("empty",)),
    ("   ", ("empty",)),
    (r"\sqrt[]{x}", ("empty index in \\sqrt[]", "\\sqrt[n]{x}")),
    (r"1e-5", ("'1e-5' is not LaTeX", "10^{-5}")),
    (r"2.5e3 + x", ("is not LaTeX", "2.5 \\cdot 10^{3}")),
    (r"1/2\varepsilon", ("ambiguous division", "\\frac")),
    (r"x^-1", ("needs braces", "^{-1}")),
    (r"\tanh^{-1}(x)", ("ambiguous", "by name")),
    (r"(x, y)", ("is not a value",)),
    (r"\sum_i p_i", ("\\sum_{i=1}^{n}",)),
    (r"\int x\,dx", ("indefinite integrals are not supported",)),
    (r"\int_0^1 x", ("no differential", "dt")),
    (r"x \ne y", ("relation \\ne is not supported",)),
    (r"|x", ("unclosed '|'",)),
    (r"\text{hello}", ("text inside an expression",)),
    (r"\max x", ("in brackets", "\\max\\{a, b\\}")),
    (r"g(x)", ("undeclared name 'g'", '"g(x)" = "gx"')),
    (r"\sum_{i=1}^{n} p_i", ("needs numeric bounds", "p1, p2")),
    (r"\sum_{i=1}^{4} p_i", ("undeclared name 'p4'",)),
    (r"\left( x \right]", ("mismatched delimiters",)),
    (r"\operatorname{foo}(x)", ("unknown operator \\operatorname{foo}", "erf")),
    (r"exp(x)", ("without a backslash", "\\exp")),
    (r"\sqrt{x", ("unclosed '{'",)),
    (r"x^{2}^{3}", ("double superscript",)),
    (r"\begin{matrix} 1 \end{matrix}", ("environment 'matrix'",)),
    (r"\pm x", ("not supported",)),
    (r"x = y", ("a relation is not an expression",)),
    (r"x & y", ("unexpected '&'",)),
    (r"\epsilon_3", ("undeclared name 'eps3'", "also tried")),
    (r"x +", ("nothing after '+'",)),
    (r"\frac{x}{}", ("empty group",)),
    (r"x_{a+1}", ("is not a name",)),
    (r"\lim_{x} x", ("\\lim is not supported",)),
    (r"\text{unclosed", ("needs a {...} argument",)),
]


@pytest.mark.parametrize(
    ("latex", "fragments"), MALFORMED, ids=[s or "empty" for s, _ in MALFORMED]
)
def test_malformed_is_refused_with_a_remedy(latex: str, fragments: tuple[str, ...]) -> None:
    with pytest.raises(LatexError) as info:
        parse_latex_expr(latex, S)
    for fragment in fragments:
        assert fragment in str(info.value), f"{fragment!r} not in {info.value}"
    assert isinstance(info.value, ExpressionError) and isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("latex", "fragment"),
    [
        (r"\delta \le", "nothing after '\\le'"),
        (r"\delta", "must be a relation"),
        (r"x <= 1", "write \\le"),
        (r"x \in 3", "needs an interval"),
    ],
)
def test_malformed_hypotheses(latex: str, fragment: str) -> None:
    with pytest.raises(LatexError, match=None) as info:
        parse_latex_relation(latex, S)
    assert fragment in str(info.value)


def test_an_error_names_its_line_and_fragment() -> None:
    with pytest.raises(LatexError) as info:
        parse_latex_expr("x +\n  y +\n  \\foo{x}", S)
    assert info.value.line == 3 and info.value.fragment == "\\foo"
    assert "(line 3)" in str(info.value)


def test_nothing_is_executed() -> None:
    for text in ("__import__('os')", r"\operatorname{__class__}(x)", "x.__class__"):
        with pytest.raises(LatexError):
            parse_latex_expr(text, S)


# -- chains -----------------------------------------------------------------------------------
LAPLACE = r"""Proof.  By the triangle inequality,
\begin{align*}
e^{(|z-f_y| - |z-f_x|)/b} &\le e^{|f_x - f_y|/b} && \text{triangle inequality} \\
  &\le e^{\Delta/b} \\
  &= e^{\varepsilon}
\end{align*}
"""


def test_the_laplace_chain_of_the_issue() -> None:
    table = {n: S[n] for n in ("fx", "fy", "z", "b", "Delta", "eps")}
    chain = parse_latex_chain(LAPLACE, table)
    assert chain.lhs == sp.exp((abs(z - fy) - abs(z - fx)) / b)
    assert chain.lhs_source == "e^{(|z-f_y| - |z-f_x|)/b}"
    assert chain.first_line == 3
    rels = [s.relation for s in chain.steps]
    assert rels == [Relation.LE, Relation.LE, Relation.EQ]
    assert [s.expr for s in chain.steps] == [
        sp.exp(abs(fx - fy) / b),
        sp.exp(Delta / b),
        sp.exp(eps),
    ]
    assert [s.why for s in chain.steps] == ["triangle inequality", "", ""]
    assert [s.line for s in chain.steps] == [3, 4, 5]
    assert [s.source for s in chain.steps] == [
        "e^{|f_x - f_y|/b}",
        "e^{\\Delta/b}",
        "e^{\\varepsilon}",
    ]


def test_the_laplace_chain_as_a_user_pastes_it() -> None:
    text = r"""
% from the lecture notes
\begin{align}
\frac{p_x(z)}{p_y(z)} &= \frac{e^{-|z-f(x)|/b}}{e^{-|z-f(y)|/b}} \nonumber \\
  &= \exp\left(\frac{|z-f(y)| - |z-f(x)|}{b}\right) && \text{algebra} \label{eq:ratio} \\
  &\leq \exp\left(\frac{|f(x)-f(y)|}{b}\right) && \text{(triangle inequality)} \\
  &\leq \exp\left(\frac{\Delta f}{b}\right) \qquad \text{by definition of $\Delta f$} \\
  &= e^{\varepsilon}. \notag
\end{align}
"""
    names = {**F, "p_x(z)": "px", "p_y(z)": "py"}
    table = {**S, "px": sp.Symbol("px", positive=True), "py": sp.Symbol("py", positive=True)}
    chain = parse_latex_chain(text, table, names, line_offset=100)
    assert chain.lhs == table["px"] / table["py"]
    assert chain.first_line == 104
    assert [s.line for s in chain.steps] == [104, 105, 106, 107, 108]
    assert [s.why for s in chain.steps] == [
        "",
        "algebra",
        "triangle inequality",
        "by definition of $\\Delta f$",
        "",
    ]
    assert chain.steps[-1].source == "e^{\\varepsilon}"
    assert _same(chain.steps[1].expr, sp.exp((abs(z - fy) - abs(z - fx)) / b))
    assert chain.steps[3].expr == sp.exp(Delta / b)


def test_eqnarray_tags_several_relations_and_continuations() -> None:
    text = r"""\begin{eqnarray*}
x^2 &\le& x^2 + 1 \\
    &=& \frac{2x^2+2}{2} \quad \text{(algebra)} \\
    &<& x^2 + 2 = 2 + x^2 \tag{by hypothesis} \\
    &\le& x^2 + 2 \\
    && \qquad + \delta
\end{eqnarray*}"""
    chain = parse_latex_chain(text, S)
    assert [s.relation for s in chain.steps] == [
        Relation.LE,
        Relation.EQ,
        Relation.LT,
        Relation.EQ,
        Relation.LE,
    ]
    assert [s.line for s in chain.steps] == [2, 3, 4, 4, 5]
    assert [s.why for s in chain.steps] == ["", "algebra", "", "by hypothesis", ""]
    assert chain.steps[-1].expr == x**2 + 2 + delta
    assert chain.steps[-1].source == "x^2 + 2 + \\delta"


@pytest.mark.parametrize(
    "text",
    [
        r"\begin{align*} x \le& x + 1 \\ &= 1 + x \end{align*}",
        r"\begin{equation*}\begin{aligned} x &\le x + 1 \\ &= 1 + x \end{aligned}\end{equation*}",
        r"x &\le x + 1 \\ &= 1 + x",
        "\\[ x \\le x + 1 = 1 + x \\]",
        r"\begin{align*} x \\ &\le x + 1 \\ &= 1 + x \end{align*}",
    ],
)
def test_chain_layouts(text: str) -> None:
    chain = parse_latex_chain(text, S)
    assert chain.lhs == x
    assert [(s.relation, s.expr) for s in chain.steps] == [
        (Relation.LE, x + 1),
        (Relation.EQ, x + 1),
    ]


def test_only_the_first_environment_is_read_and_comments_are_ignored() -> None:
    text = (
        "% \\begin{align*} y &= 1 \\end{align*}\n"
        + r"""
\begin{equation}
x \le x + 1 % a comment \le 3
\end{equation}
\begin{align*} w &= 1 \end{align*}"""
    )
    chain = parse_latex_chain(text, S)
    assert chain.lhs == x and len(chain.steps) == 1 and chain.first_line == 4


@pytest.mark.parametrize(
    ("text", "fragments", "line"),
    [
        (
            "\\begin{align*}\nx &\\le 1 \\\\\n  &\\le \\foo \n\\end{align*}",
            ("\\foo", "(line 13)"),
            13,
        ),
        (
            "\\begin{align*}\nx &\\le 1 \\\\\ny &\\le 2\n\\end{align*}",
            ("starts with an expression",),
            13,
        ),
        ("\\begin{align*}\n&\\le 1\n\\end{align*}", ("no left-hand side",), 12),
        ("\\begin{align*}\nx &\\le 1", ("has no \\end{align*}",), 11),
        ("\\begin{align*}\nx &\\ne 1\n\\end{align*}", ("\\ne is not supported",), 12),
        ("\\begin{align*}\nx + 1\n\\end{align*}", ("has no relation",), 12),
        ("\\begin{align*}\nx &\\le\n\\end{align*}", ("nothing after '\\le'",), 12),
        ("\\begin{align*}\nx &&& y\n\\end{align*}", ("too many '&'",), 12),
        ("\\begin{align*}\nx &\\le w\n\\end{align*}", ("undeclared name 'w'", "(line 12)"), 12),
        ("\\begin{align*}\n\\end{align*}", ("no chain found",), 11),
    ],
)
def test_malformed_chains(text: str, fragments: tuple[str, ...], line: int) -> None:
    with pytest.raises(LatexError) as info:
        parse_latex_chain(text, S, line_offset=10)
    for fragment in fragments:
        assert fragment in str(info.value)
    assert info.value.line == line


# -- .tex files -------------------------------------------------------------------------------
TEX = r"""%! id = "laplace-mine"
%! [variables]
%! eps = "positive"
\documentclass{article}
\begin{document}
\begin{align*}
x &\le x + 1 && \text{trivially}
\end{align*}
\end{document}
"""


def test_split_tex_file() -> None:
    header, body, math_line = split_tex_file(TEX)
    assert header == 'id = "laplace-mine"\n[variables]\neps = "positive"\n'
    assert body.splitlines()[:4] == ["", "", "", "\\documentclass{article}"]
    assert len(body.splitlines()) == len(TEX.splitlines())
    assert math_line == 6
    chain = parse_latex_chain(body, S)
    assert chain.first_line == 7 and chain.steps[0].why == "trivially"


def test_split_tex_file_without_header_or_math() -> None:
    assert split_tex_file("just words\n") == ("", "just words\n", 0)
    assert split_tex_file("% \\begin{align*}\n$$x = 1$$\n")[2] == 2
