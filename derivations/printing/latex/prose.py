r"""Prose with ASCII mathematics (``sigma(eps2) = 2c/eps2``) typeset as LaTeX: the runs of
mathematics are found word by word and set in ``$...$``, the words in between stay text.

The catalog's statements and justifications are written as a book's prose with its formulas
in ASCII (``D_inf(Y||Z) <= eps (e^eps - 1)``).  Rather than asking every author to mark their
mathematics, the runs are recognised here: a word is mathematics when it names a symbol
(a Greek letter, a single letter, a known function), contains an operator or a sub/superscript,
or applies a function (``f(x)``, ``Pr[M(x) = r]``); numbers and lone operators join a run
but never start one.  What cannot be converted safely stays text, so a document never breaks.

>>> prose_latex("sigma(e) = 2c/e, eps2 = 2 eps/9, by Theorem 3.6")
'$\\sigma(e) = 2c/e$, $\\varepsilon_{2} = 2 \\varepsilon/9$, by Theorem 3.6'
>>> prose_latex("Pr[Z in S] <= e^eps Pr[Y in S] + delta")
'$\\Pr[Z \\in S] \\le e^{\\varepsilon} \\Pr[Y \\in S] + \\delta$'
>>> prose_latex("D_inf(Y||Z) <= eps (e^eps - 1), a bound")
'$D_{\\infty}(Y\\|Z) \\le \\varepsilon (e^{\\varepsilon} - 1)$, a bound'
>>> prose_latex("each M_i is eps_i-DP (the Laplace part)")
'each $M_{i}$ is $\\varepsilon_{i}$-DP (the Laplace part)'
"""

from __future__ import annotations

import re
from collections.abc import Callable

from derivations.printing.latex.text import latex_text
from derivations.printing.latex.text import latex_text as _latex_text

__all__ = ["latex_text", "math_latex", "prose_latex"]

GREEK = {
    "eps": r"\varepsilon",
    "epsilon": r"\varepsilon",
    "delta": r"\delta",
    "Delta": r"\Delta",
    "sigma": r"\sigma",
    "mu": r"\mu",
    "alpha": r"\alpha",
    "beta": r"\beta",
    "gamma": r"\gamma",
    "theta": r"\theta",
    "kappa": r"\kappa",
    "lambda": r"\lambda",
    "tau": r"\tau",
    "rho": r"\rho",
    "xi": r"\xi",
    "pi": r"\pi",
    "phi": r"\phi",
    "Phi": r"\Phi",
    "omega": r"\omega",
}
FUNCTIONS = {
    "ln": r"\ln",
    "log": r"\log",
    "exp": r"\exp",
    "tanh": r"\tanh",
    "sinh": r"\sinh",
    "cosh": r"\cosh",
    "max": r"\max",
    "min": r"\min",
    "sup": r"\sup",
    "Pr": r"\Pr",
    "sum": r"\sum",
    "int": r"\int",
}
_OPERATORS = {
    "+-": r"\pm",
    "<=": r"\le",
    ">=": r"\ge",
    "!=": r"\ne",
    "->": r"\to",
    "||": r"\|",
    "~": r"\sim",
}
_MATH_UNICODE = {
    "∩": r"\cap",
    "∪": r"\cup",
    "≤": r"\le",
    "≥": r"\ge",
    "⊆": r"\subseteq",
    "∈": r"\in",
    "∞": r"\infty",
    "ε": r"\varepsilon",
    "δ": r"\delta",
    "α": r"\alpha",
    "β": r"\beta",
    "μ": r"\mu",
    "σ": r"\sigma",
    "κ": r"\kappa",
    "Σ": r"\Sigma",
    "⊥": r"\bot",
    "·": r"\cdot ",
    "…": r"\dots ",
    "−": "-",
}
_SYMBOL = re.compile(r"^([A-Za-z]+)(\d*)('*)$")
_FILE = re.compile(r"[A-Za-z0-9_./-]+\.(?:toml|tex|json|py|txt)")
"""A file's name, as the audit's evidence cites its claim and proof files."""
_NUMBER = re.compile(r"^\d+(\.\d+)?(e-?\d+)?$")
_CALL = re.compile(r"[A-Za-z0-9]\s*[(\[]")
_OPERATOR_CHARS = set("_^=<>/+*|~")
_PUNCT = ",.;:"
_RELATION = re.compile(r"<=|>=|!=|[=<>≤≥]")
_SUFFIX = re.compile(r"^(.+?)(-(?:[a-z]?DP|GDP|zCDP|accurate|approximate|close|fold))(\W*)$")
_TOKEN = re.compile(
    r"\+-(?=[\s\d.])|\.\.\.?|<=|>=|!=|->|\|\||[A-Za-z]+\d*|\d+(?:\.\d+)?(?:e-?\d+)?|\s+|."
)


def _top_level_relation(run: str) -> bool:
    """Whether ``run`` states a relation and closes every bracket it opens."""
    depth = sum(run.count(c) for c in "([{") - sum(run.count(c) for c in ")]}")
    return depth == 0 and _RELATION.search(run) is not None


def _open_brackets(run: str) -> bool:
    # braces count: f_{0, 1 - delta} is one formula, not two split at its comma
    return sum(run.count(c) for c in "([{") > sum(run.count(c) for c in ")]}")


def _aside_follows(words: list[tuple[str, str]], i: int) -> bool:
    """Whether ``words[i]`` opens a parenthesis that is an aside, not a factor: it states a
    relation at its own level (``beta (delta = 0)``, a condition) or holds prose
    (``delta > 0 (alpha and hypothesis corrected)``)."""
    if not words[i][0].startswith("("):
        return False
    depth, inside = 0, []
    for w, kind in words[i:]:
        inside.append((w, kind))
        depth += w.count("(") - w.count(")")
        if depth <= 0:
            break
    group = " ".join(w for w, _ in inside)
    prose = any(kind == "prose" for _, kind in inside)
    return prose or _RELATION.search(group[1 : group.rfind(")")]) is not None


def _core(word: str) -> str:
    return word.strip("()[]{}|" + _PUNCT)


def _kind(word: str) -> str:
    """``math``, ``neutral`` (joins a run, never starts one) or ``prose``."""
    core = _core(word)
    if _FILE.fullmatch(core):
        return "file"  # seed_003/comp_line_1.toml: a file's name, not subscripts
    if not core or _NUMBER.match(core) or word in ("-", "(", ")"):
        return "neutral"
    if core.lstrip("+-") == "oo":
        return "math"  # -oo, +oo: infinity as SymPy spells it
    if any(ord(c) > 127 and c not in _MATH_UNICODE for c in word):
        return "prose"
    if all(c in _MATH_UNICODE for c in core):
        return "math"  # ε, ∞: a symbol written in Unicode
    m = _SYMBOL.match(core)
    if m:
        name, _, primes = m.groups()
        # "a" and "I" are English words unless bracketed (|a - b|)
        single = len(name) == 1 and (name not in "aAI" or word.rstrip(_PUNCT) != core)
        if name in GREEK or single or name == "oo":
            return "math"
        if name in ("bar", "inf"):  # "bar kappa_3", "D_inf = inf": only beside a formula
            return "neutral"
        if name in FUNCTIONS:  # "ln k" is math, "the max divergence" is not
            return "neutral"
        # a word with a prime is a symbol (delta'); ``seed's`` is prose, caught above
        return "math" if primes and len(name) <= 2 else "prose"
    if _OPERATOR_CHARS & set(word) or _CALL.search(word):
        return "math"
    return "prose"


def _group(tokens: list[str], i: int) -> tuple[str, int]:
    """The atom at ``tokens[i]`` (a bracketed group without its brackets, a signed or plain
    identifier with any subscript), converted, and the index after it."""
    closing = {"(": ")", "{": "}", "[": "]"}
    if i >= len(tokens):
        return "", i
    t = tokens[i]
    if t in closing:
        depth, j = 0, i
        while j < len(tokens):
            depth += tokens[j] == t
            depth -= tokens[j] == closing[t]
            if depth == 0:
                break
            j += 1
        return _convert(tokens[i + 1 : j]), j + 1
    if t == "-":
        inner, j = _group(tokens, i + 1)
        return "-" + inner, j
    head, j = _convert([t]), i + 1
    if j < len(tokens) and tokens[j] == "_":
        sub, j = _script(tokens, j + 1)
        head += "_{" + sub + "}"
    return head, j


def _script(tokens: list[str], i: int) -> tuple[str, int]:
    if i < len(tokens) and tokens[i] == "inf":
        return r"\infty", i + 1
    return _group(tokens, i)


def _identifier(t: str) -> str:
    m = _SYMBOL.match(t)
    assert m is not None
    name, digits, _ = m.groups()
    if name in GREEK:
        out = GREEK[name]
    elif name in ("oo", "inf"):
        return r"\infty"  # SymPy's spelling, as in the domains "(0, oo)"; D_inf's
    elif name in FUNCTIONS and not digits:
        return FUNCTIONS[name]
    elif name == "in":
        return r"\in"
    elif name == "o":
        return r"\circ"  # (1 - f)^{o k}: the k-fold composition
    elif len(name) > 1:
        out = rf"\mathrm{{{name}}}"
    else:
        out = name
    return out + (f"_{{{digits}}}" if digits else "")


def _convert(tokens: list[str]) -> str:
    out: list[str] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t in ("^", "_"):
            arg, i = _script(tokens, i + 1)
            out.append(f"{t}{{{arg}}}")
            continue
        if t == "bar" and i + 2 < len(tokens) and tokens[i + 1].isspace():
            # bar kappa_3: the bar over the symbol, its subscript outside (Dong, Roth & Su)
            arg, i = _convert([tokens[i + 2]]), i + 3
            out.append(rf"\bar{{{arg}}}")
            continue
        if t == "sqrt" and i + 1 < len(tokens) and tokens[i + 1] == "(":
            arg, i = _group(tokens, i + 1)
            out.append(rf"\sqrt{{{arg}}}")
            continue
        i += 1
        if t[0].isalpha() and _SYMBOL.match(t):
            out.append(_identifier(t))
        elif t in _OPERATORS:
            out.append(_OPERATORS[t])
        elif _NUMBER.match(t) and "e" in t:
            mantissa, power = t.split("e")  # 1e-5 as a book writes it
            scale = rf"10^{{{int(power)}}}"
            out.append(scale if mantissa == "1" else rf"{mantissa} \cdot {scale}")
        elif t in _MATH_UNICODE:
            macro = _MATH_UNICODE[t]
            follows = tokens[i] if i < len(tokens) else ""
            glued = macro[-1:].isalpha() and follows[:1].isalnum()
            out.append(macro + " " if glued else macro)  # \in S, not \inS
        elif t in ("..", "..."):
            out.append(r"\dots ")
        elif t in "{}":
            out.append("\\" + t)  # a set's braces (a script's are taken by _script)
        elif t == "*":
            prev = out[-1] if out else ""
            follows = tokens[i] if i < len(tokens) else " "
            starred = prev and prev[-1].isalnum() and not follows.isalnum()  # x* = ...
            out.append("^{*}" if starred else r"\cdot ")
        elif t in "%&#$":
            out.append("\\" + t)
        elif t == "\\":
            out.append(r"\backslash ")
        else:
            out.append(t)
    return "".join(out)


def math_latex(text: str) -> str | None:
    r"""ASCII mathematics as LaTeX math (without the dollars), or None when it cannot be
    converted safely.

    >>> math_latex("sqrt(2 k ln(1/delta')) eps")
    "\\sqrt{2 k \\ln(1/\\delta')} \\varepsilon"
    >>> math_latex("1 - (1 - G_mu)^{o k} = G_{(k - 1) mu}")
    '1 - (1 - G_{\\mu})^{\\circ k} = G_{(k - 1) \\mu}'
    """
    text = re.sub(r"(?<=\s)\(x\)(?=\s)", "\x00", text)  # " (x) " is the tensor product
    tokens = _TOKEN.findall(text)
    if any(ord(c) > 127 and c not in _MATH_UNICODE for c in text):
        return None
    out = _convert(["\x00" if t == "\x00" else t for t in tokens]).replace("\x00", r"\otimes")
    depth = 0
    for c in re.sub(r"\\[{}]", "", out):
        depth += (c == "{") - (c == "}")
        if depth < 0:
            return None
    return out if depth == 0 else None


def _balance(run: str) -> tuple[str, str, str]:
    """Split ``run`` into (lead, math, trail): trailing punctuation and brackets that do not
    match inside the run stay text."""
    pairs = {")": "(", "]": "["}
    lead, trail = "", run[len(run.rstrip()) :]
    run = run.rstrip()
    while run:
        last, first = run[-1], run[0]
        if last in _PUNCT or (last in pairs and run.count(last) > run.count(pairs[last])):
            run, trail = run[:-1], last + trail
        elif first in "([" and run.count(first) > run.count({"(": ")", "[": "]"}[first]):
            lead, run = lead + first, run[1:]
        else:
            break
    return lead, run, trail


def _file_latex(word: str) -> str:
    """A file's name as ``\\path`` (set in type, breakable at its slashes), with what the
    word has around it (brackets, a full stop) as text."""
    m = _FILE.search(word)
    assert m is not None
    # \protect: a proof's title "proof from FILE" is a heading, a moving argument, where a
    # bare \path stopped pdflatex ("\url used in a moving argument").
    path = rf"\protect\path{{{m.group(0)}}}"
    return latex_text(word[: m.start()]) + path + latex_text(word[m.end() :])


def _dollars(math: str) -> str:
    return f"${math}$"


def prose_latex(
    text: str,
    *,
    plain: Callable[[str], str] = latex_text,
    math: Callable[[str], str] = _dollars,
    path: Callable[[str], str] = _file_latex,
) -> str:
    r"""``text`` for LaTeX text mode with its runs of ASCII mathematics set as math.

    The site finds the same runs (``plain``, ``math`` and ``path`` say how each kind is
    written out: here LaTeX text, ``$...$`` and ``\path``; there escaped HTML and MathML),
    so that a statement reads the same in the book and on the page (issue 43)."""
    latex_text = plain  # the text between the runs, in the output's own escaping
    _file_latex = path
    words: list[tuple[str, str]] = []
    for w in text.split(" "):
        m = _SUFFIX.match(w)
        if m and _kind(m.group(1)) == "math":  # eps_i-DP: the symbol, then the word
            words += [(m.group(1), "math"), (m.group(2) + m.group(3), "prose-glued")]
        else:
            words.append((w, _kind(w)))
    out: list[str] = []
    run: list[str] = []

    def flush() -> None:
        if not run:
            return
        joined = " ".join(run)
        lead, body, trail = _balance(joined)
        converted = math_latex(body) if any(_kind(w) == "math" for w in body.split(" ")) else None
        if converted is None or not body.strip():
            out.append(latex_text(joined))
        else:
            out.append(latex_text(lead) + math(converted) + latex_text(trail))
        run.clear()

    pending: list[str] = []  # numbers and operators: math only next to a math word
    for i, (w, kind) in enumerate(words):
        if w == "in" and run and _open_brackets(" ".join(run)):
            kind = "math"  # Pr[Y in S]: membership inside a formula
        if run and not _open_brackets(" ".join(run)) and _aside_follows(words, i):
            flush()  # "delta > 0 (alpha and ...)", "beta (delta = 0)": two formulas
        if kind == "prose-glued":
            flush()
            out[-1] += latex_text(w)
        elif kind == "math":
            if run and run[-1][-1:] in _PUNCT and _top_level_relation(" ".join(run)):
                flush()  # "b > 0, exp increasing": two formulas, not one
                out.extend(latex_text(p) for p in pending)
                pending.clear()
            run.extend(pending)
            pending.clear()
            run.append(w)
        elif kind == "neutral" and not run and w[-1:] in _PUNCT:
            out.extend(latex_text(p) for p in [*pending, w])  # "Theorem 3.20," stays text
            pending.clear()
        elif kind == "neutral":
            if run and run[-1][-1:] in _PUNCT and _top_level_relation(" ".join(run)):
                flush()  # "b > 0, exp increasing": the formula ended at the comma
            (run if run else pending).append(w)
        else:  # prose, or a file's name
            flush()
            out.extend(latex_text(p) for p in pending)
            pending.clear()
            out.append(_file_latex(w) if kind == "file" else latex_text(w))
    flush()
    out.extend(latex_text(p) for p in pending)
    joined = " ".join(out)
    if plain is _latex_text:
        # `dpderive claim`: a command in type, not between two opening quotes (issue 43)
        joined = re.sub(r"`([^`$]+)`", r"\\texttt{\1}", joined)
    return joined
