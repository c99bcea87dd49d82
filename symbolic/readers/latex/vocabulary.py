"""What the LaTeX reader knows: Greek letters and the names they stand for, functions,
relations, and the commands it ignores.

A Greek letter stands for the first of its names that is declared: ``\\varepsilon`` is
``eps`` (or ``epsilon``), ``\\lambda`` is ``lam`` (``lambda`` is a Python keyword, so the
SymPy-syntax parser could never name it), ``\\varphi`` is ``phi``.
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from symbolic.functions import Phi, expm1, log1p
from symbolic.relations import Relation
from symbolic.vocabulary import MAX_ARGUMENTS


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_PLAIN_GREEK = _words(
    "alpha beta gamma delta zeta eta theta iota kappa mu nu xi rho sigma tau upsilon phi chi "
    "psi omega Gamma Delta Theta Xi Pi Sigma Upsilon Phi Psi Omega"
)

GREEK: dict[str, tuple[str, ...]] = {name: (name,) for name in sorted(_PLAIN_GREEK)}
GREEK.update(
    {
        "epsilon": ("eps", "epsilon"),
        "varepsilon": ("eps", "epsilon", "varepsilon"),
        "vartheta": ("theta", "vartheta"),
        "lambda": ("lam", "lamda"),
        "Lambda": ("Lam", "Lamda"),
        "pi": ("pi",),
        "varpi": ("pi", "varpi"),
        "varrho": ("rho", "varrho"),
        "varsigma": ("sigma", "varsigma"),
        "varphi": ("phi", "varphi"),
    }
)

Function = Callable[..., sp.Expr]


def _log(x: sp.Expr) -> sp.Expr:
    return sp.log(x)


# Control words applied to an argument: (function, arities).  \log takes an optional base.
FUNCTION_WORDS: dict[str, tuple[Function, tuple[int, ...]]] = {
    "exp": (sp.exp, (1,)),
    "ln": (_log, (1,)),
    "log": (_log, (1,)),
    "sinh": (sp.sinh, (1,)),
    "cosh": (sp.cosh, (1,)),
    "tanh": (sp.tanh, (1,)),
    "erf": (sp.erf, (1,)),
    "erfc": (sp.erfc, (1,)),
    "max": (sp.Max, tuple(range(1, MAX_ARGUMENTS + 1))),
    "min": (sp.Min, tuple(range(1, MAX_ARGUMENTS + 1))),
}
# Greek capitals that are functions unless declared as names.
FUNCTION_LETTERS: dict[str, tuple[Function, tuple[int, ...]]] = {
    "Phi": (Phi, (1,)),
    "Gamma": (sp.gamma, (1,)),
}
# Names written with \operatorname{...} (or \mathrm{...}).
OPERATOR_NAMES: dict[str, tuple[Function, tuple[int, ...]]] = {
    **FUNCTION_WORDS,
    **FUNCTION_LETTERS,
    "gamma": (sp.gamma, (1,)),
    "loggamma": (sp.loggamma, (1,)),
    "lgamma": (sp.loggamma, (1,)),
    "B": (sp.beta, (2,)),
    "Beta": (sp.beta, (2,)),
    "W": (sp.LambertW, (1,)),
    "lambertw": (sp.LambertW, (1,)),
    "expm1": (expm1, (1,)),
    "log1p": (log1p, (1,)),
}

RELATIONS: dict[str, Relation] = {
    "=": Relation.EQ,
    "<": Relation.LT,
    ">": Relation.GT,
    "\\le": Relation.LE,
    "\\leq": Relation.LE,
    "\\leqslant": Relation.LE,
    "\\lt": Relation.LT,
    "\\ge": Relation.GE,
    "\\geq": Relation.GE,
    "\\geqslant": Relation.GE,
    "\\gt": Relation.GT,
}
UNSUPPORTED_RELATIONS = _words(
    "\\ne \\neq \\approx \\sim \\simeq \\equiv \\propto \\ll \\gg \\coloneqq \\triangleq "
    "\\cong \\subset \\subseteq \\to \\mapsto \\implies \\iff \\Rightarrow \\Leftrightarrow "
    "\\prec \\succ \\preceq \\succeq"
)

# Dropped by the tokenizer: spacing, style and numbering commands, delimiter sizes.
IGNORED = _words(
    "\\, \\; \\: \\! \\> \\displaystyle \\textstyle \\scriptstyle \\nonumber \\notag "
    "\\limits \\nolimits \\big \\Big \\bigg \\Bigg \\bigl \\bigr \\Bigl \\Bigr \\biggl "
    "\\biggr \\Biggl \\Biggr \\bigm \\Bigm \\enspace \\thinspace \\medspace \\thickspace "
    "\\negthinspace \\allowbreak \\mathop \\hfill \\middle"
) | {"\\ ", "\\\n", "\\\t"}
# Commands with one brace argument that are dropped with it.
IGNORED_WITH_ARG = _words("\\label \\hspace \\hspace* \\vspace \\phantom \\hphantom")
# Text commands: their argument is words (a reason), never mathematics.
TEXT_COMMANDS = _words("\\text \\textrm \\textit \\textbf \\textnormal \\mbox \\textup")
# Commands naming a multi-letter symbol or operator: \mathrm{tot}, \operatorname{erf}.
NAME_COMMANDS = _words(
    "\\mathrm \\operatorname \\operatorname* \\mathit \\mathsf \\mathbf \\mathnormal "
    "\\mathcal \\boldsymbol"
)
# Commands whose argument is kept as text for a step's reason.
REFERENCE_COMMANDS = _words("\\tag \\tag* \\eqref \\ref \\cite \\Cref \\cref")
SPACING_WORDS = frozenset({"\\quad", "\\qquad"})

FRACTIONS = frozenset({"\\frac", "\\tfrac", "\\dfrac", "\\cfrac"})
BINOMIALS = frozenset({"\\binom", "\\tbinom", "\\dbinom"})
# Delimiter pairs: opening token text -> (closing token text, meaning).
DELIMITERS: dict[str, tuple[str, str]] = {
    "(": (")", "group"),
    "[": ("]", "group"),
    "\\{": ("\\}", "group"),
    "\\lbrace": ("\\rbrace", "group"),
    "\\lbrack": ("\\rbrack", "group"),
    "|": ("|", "abs"),
    "\\lvert": ("\\rvert", "abs"),
    "\\vert": ("\\vert", "abs"),
    "\\lfloor": ("\\rfloor", "floor"),
    "\\lceil": ("\\rceil", "ceiling"),
}
CLOSERS = frozenset(close for close, _ in DELIMITERS.values()) - {"|", "\\vert"}
CONDITION_WORDS = frozenset({"if", "for", "when", "where", "whenever", ","})
OTHERWISE_WORDS = frozenset({"otherwise", "else", "elsewhere", "else,", "otherwise,"})
