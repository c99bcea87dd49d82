"""All exceptions of dpderive, under one root.

User mistakes (a malformed claim file, a bad parameter) also subclass the built-in
``ValueError`` so that callers who do not know our hierarchy still catch them.
"""

from __future__ import annotations


class DpderiveError(Exception):
    """Root of every error raised on purpose by dpderive."""


class InvalidInput(DpderiveError, ValueError):
    """Input from a user (file, command line, API argument) is malformed or out of range."""


class ExpressionError(InvalidInput):
    """An expression string uses syntax or names outside the accepted whitelist."""


class LatexError(ExpressionError):
    """A LaTeX expression or proof could not be read.

    ``line`` is the 1-based line of the offending text (0 when unknown) and ``fragment`` the
    LaTeX that could not be read; the message names both and says what to write instead.
    """

    def __init__(self, message: str, line: int = 0, fragment: str = "") -> None:
        super().__init__(message)
        self.line = line
        self.fragment = fragment


class EmptyDomain(InvalidInput):
    """No point satisfies the declared domains and hypotheses.

    Refuse, don't weaken: an empty domain would make every claim vacuously true, so it is an
    error, never a pass.
    """


class IllFormedDerivation(DpderiveError, ValueError):
    """A derivation whose chain does not match its claim, or whose relations do not compose."""


class EvaluationError(DpderiveError, ArithmeticError):
    """An expression could not be evaluated at a point (complex value, overflow, budget)."""


class Unsupported(DpderiveError):
    """A method does not handle this expression (e.g. Arb has no rigorous enclosure for an
    opaque numeric function, a sum or an integral).  It says nothing about the claim: the
    check falls back to a weaker method and the report says which."""


class ToolMissing(DpderiveError):
    """An external program dpderive needs (pdflatex, pdftoppm) is not installed; the message
    names the package to install."""


class LatexFailed(DpderiveError):
    """pdflatex reported an error; the message quotes its first error lines."""


class NoRenderer(DpderiveError, LookupError):
    """No renderer is registered for an object and a display format (importing
    :mod:`symbolic` registers the notebook renderers)."""


# What a SymPy transformation may raise when it cannot handle an expression: a tactic or
# rule that raises one of these proves nothing and the next is tried.  StopIteration and
# RuntimeError come from SymPy internals (``sum_simplify`` calls ``next`` on an empty
# generator for some sums of Sums; inside a generator that surfaces as RuntimeError).
SYMPY_FAILURES: tuple[type[Exception], ...] = (
    TypeError,
    ValueError,
    AttributeError,
    NotImplementedError,
    StopIteration,
    RuntimeError,  # includes RecursionError
)
