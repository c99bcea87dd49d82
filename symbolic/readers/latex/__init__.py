"""LaTeX input: users' proofs pasted from textbooks and papers, read into SymPy.

Never ``eval``: LaTeX is tokenized (:mod:`.tokens`) and read by a recursive-descent parser
(:mod:`.parser`, :mod:`.constructs`) that builds SymPy objects from a fixed vocabulary
(:mod:`.vocabulary`), resolving names to the declared symbols (:mod:`.names`).
:mod:`.chain` reads an ``align*`` chain of steps with their reasons.

SymPy's own LaTeX parser (its Lark backend) was tried and not used: it returns ambiguous
parse trees instead of expressions for ``\\tanh(x)`` or ``\\varepsilon(e^\\varepsilon - 1)``,
lacks ``\\Phi``, ``\\pi``, ``\\lvert``, ``\\left[``, ``\\{``, ``\\operatorname`` and chained
relations, reads ``0.5`` as a binary float, and its errors are grammar dumps that name
neither a line nor a remedy.
"""

from symbolic.errors import LatexError
from symbolic.readers.latex.chain import LatexChain, LatexStep, parse_latex_chain, split_tex_file
from symbolic.readers.latex.expressions import parse_latex_expr, parse_latex_relation

__all__ = [
    "LatexChain",
    "LatexError",
    "LatexStep",
    "parse_latex_chain",
    "parse_latex_expr",
    "parse_latex_relation",
    "split_tex_file",
]
