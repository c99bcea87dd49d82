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


class EmptyDomain(InvalidInput):
    """No point satisfies the declared domains and hypotheses.

    Refuse, don't weaken: an empty domain would make every claim vacuously true, so it is an
    error, never a pass.
    """


class IllFormedDerivation(DpderiveError, ValueError):
    """A derivation whose chain does not match its claim, or whose relations do not compose."""


class EvaluationError(DpderiveError, ArithmeticError):
    """An expression could not be evaluated at a point (complex value, overflow, budget)."""
