"""Limits on user expressions, checked before SymPy builds or evaluates anything (issue 27):
depth, literals, powers, the magnitude of constants, and the time to build one expression.
Each message names its limit."""

from __future__ import annotations

import ast
import math
import re
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

import sympy as sp

from symbolic.errors import ExpressionError


def _short(text: str, limit: int = 80) -> str:
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


MAX_DEPTH = 60
"""Nesting depth of an expression (a chain of ``+`` or ``*`` counts once): an exp tower of
depth 150 is refused here instead of overflowing SymPy's recursion."""
MAX_LITERAL_DIGITS = 5_000
"""Digits of a number as written (``1e99999999`` has an exponent of 99999999 digits' worth)."""
MAX_RESULT_DIGITS = 100_000
"""Digits of an integer power or factorial SymPy would compute exactly (``10**5000`` is
fine; ``10**10**6`` is not)."""
MAX_SYMBOLIC_EXPONENT = 10_000
"""Largest integer exponent of a symbolic base: ``x**(10**9)`` is refused (expanding or
certifying it takes gigabytes); write ``exp(n*log(x))`` with a variable ``n``."""


MAX_MAGNITUDE = 100_000
"""A constant SymPy would compare or evaluate must be below ``10**MAX_MAGNITUDE`` in
magnitude (by a cheap structural bound, :func:`log10_bound`): ``binomial(exp(10**5000), 2)``
and ``factorial(exp(1e999))`` hung SymPy's evaluation for minutes."""
_LN10 = math.log(10)


def log10_bound(value: sp.Expr) -> float:
    """An upper bound on ``log10 |value|`` for a constant expression, computed from its
    structure without evaluating it (``math.inf`` when too large to bound)."""
    if value.is_Rational:
        return max(abs(value.p).bit_length() - value.q.bit_length() + 1, 0) * math.log10(2)
    if value in (sp.pi, sp.E) or isinstance(value, sp.NumberSymbol):
        return 1.0
    if value.is_Atom:
        return math.inf if value.is_infinite else 1.0
    args = [log10_bound(a) for a in value.args if isinstance(a, sp.Expr)]
    top = max(args, default=0.0)
    if math.isinf(top):
        return math.inf
    if isinstance(value, sp.Add):
        return top + math.log10(len(args))
    if isinstance(value, sp.Mul):
        return sum(max(a, 0.0) for a in args)
    if isinstance(value, sp.Pow):
        base, exponent = args
        if exponent > 300:
            return math.inf
        return max(base, 1.0) * 10**exponent
    if isinstance(value, sp.exp | sp.sinh | sp.cosh):
        return math.inf if top > 300 else 10**top / _LN10 + 1
    if isinstance(value, sp.factorial | sp.gamma | sp.binomial | sp.loggamma):
        if top > 300:
            return math.inf
        size = 10**top
        return size * max(math.log10(size), 1.0) + 1
    if isinstance(value, sp.log):
        return math.log10(max(top * _LN10, 1.0)) + 1
    if isinstance(value, sp.Sum | sp.Integral | sp.Product):
        return sum(args) + 1  # body times the length of the range, roughly
    return top + 1


def _log10_size(value: sp.Expr) -> float | None:
    """``log10 |value|`` of a number, without computing it exactly (None if unknown)."""
    if value.is_Rational:
        p, q = abs(int(value.p)), int(value.q)
        return (p.bit_length() - q.bit_length()) * math.log10(2)
    if log10_bound(value) > MAX_MAGNITUDE:
        return None
    try:
        size = sp.log(sp.Abs(value)).evalf(15, strict=False)
        return float(size) / math.log(10) if size.is_finite else None
    except (TypeError, ValueError, ArithmeticError):
        return None


def check_magnitude(value: sp.Expr, text: str) -> sp.Expr:
    """``value`` unless it is a constant too large to evaluate (:data:`MAX_MAGNITUDE`)."""
    if value.is_number and not value.is_Rational and log10_bound(value) > MAX_MAGNITUDE:
        raise ExpressionError(
            f"the constant {str(value)[:60]} in {_short(text)} may exceed 10**{MAX_MAGNITUDE} "
            "(the limit on constants SymPy evaluates); write it with a variable"
        )
    return value


def checked_pow(base: sp.Expr, exponent: sp.Expr) -> sp.Expr:
    """``base**exponent``, refusing powers too large to build: SymPy evaluates a literal
    power exactly (``10**10**10`` would hang the process), and expands or certifies a symbolic
    one term by term (``x**(10**9)`` took 8 GB)."""
    for part in (base, exponent):
        if part.is_number and not part.is_Rational and log10_bound(part) > MAX_MAGNITUDE:
            raise ExpressionError(
                f"the constant {str(part)[:60]} may exceed 10**{MAX_MAGNITUDE} (the limit on "
                "constants SymPy evaluates); write it with a variable"
            )
    if (
        exponent.is_Rational
        and base.is_number
        and base not in (sp.S.Zero, sp.S.One, sp.S.NegativeOne)
    ):
        scale = abs(exponent.p) / exponent.q
        size = _log10_size(base) if scale > 1 else 0.0
        if size is None:  # a base SymPy cannot evaluate (Phi(2)) stays unevaluated
            size = 0.0 if scale <= MAX_SYMBOLIC_EXPONENT else math.inf
        if abs(size) * scale > MAX_RESULT_DIGITS:
            raise ExpressionError(
                f"literal power too large: {base}**{exponent} would have more than "
                f"{MAX_RESULT_DIGITS} digits; write such numbers with a variable or with exp/log"
            )
    elif (
        exponent.is_Rational
        and max(abs(exponent.p), exponent.q) > MAX_SYMBOLIC_EXPONENT
        and not base.is_number
    ):
        raise ExpressionError(
            f"exponent {exponent} of {base} exceeds {MAX_SYMBOLIC_EXPONENT} (the limit on "
            "symbolic powers); write exp(n*log(x)) with a variable n instead"
        )
    return sp.Pow(base, exponent)


_CHAINS = ((ast.Add, ast.Sub), (ast.Mult, ast.Div))


def _chain_class(node: ast.AST) -> int:
    if isinstance(node, ast.BinOp):
        for k, ops in enumerate(_CHAINS):
            if isinstance(node.op, ops):
                return k
    return -1


def nesting_depth(tree: ast.AST) -> int:
    """Depth of ``tree`` where a chain of ``+``/``-`` (or of ``*``/``/``) counts once, so a
    149-term polynomial is shallow and an exp tower is deep."""
    best = 0
    stack: list[tuple[ast.AST, int, int]] = [(tree, 0, -1)]
    while stack:
        node, depth, parent_chain = stack.pop()
        chain = _chain_class(node)
        here = depth if chain >= 0 and chain == parent_chain else depth + 1
        best = max(best, here)
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr_context | ast.operator | ast.unaryop | ast.cmpop):
                continue
            stack.append((child, here, chain))
    return best


_LITERAL = re.compile(r"(?<![A-Za-z_])(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?[\d_]+)?")


def check_literals(text: str) -> None:
    """Refuse a number written with more than :data:`MAX_LITERAL_DIGITS` digits or a larger
    decimal exponent, before Python or SymPy turns it into an integer."""
    for m in _LITERAL.finditer(text):
        literal = m.group(0)
        mantissa, _, exp = literal.lower().partition("e")
        digits = sum(c.isdigit() for c in mantissa)
        exp_digits = exp.lstrip("+-").replace("_", "")
        too_big = digits > MAX_LITERAL_DIGITS or (
            exp_digits and (len(exp_digits) > 7 or int(exp_digits) > MAX_LITERAL_DIGITS)
        )
        if too_big:
            raise ExpressionError(
                f"literal {_short(literal, 40)} is too large: at most {MAX_LITERAL_DIGITS} "
                "digits and a decimal exponent of at most "
                f"{MAX_LITERAL_DIGITS}; write such numbers with exp/log or 10**k"
            )


MAX_BUILD_SECONDS = 5.0
"""Wall time SymPy may take to build one expression: its automatic evaluation can run for
minutes on constants the structural limits let through (a Piecewise folded into a Sum of
nested factorials, found by the fuzz test)."""


class _BuildTimeout(BaseException):
    """A BaseException: SymPy's evaluation catches ``Exception`` in places and would carry on."""


@contextmanager
def build_time_limit(text: str, seconds: float | None = None) -> Iterator[None]:
    """Raise :class:`ExpressionError` if the block runs longer than ``seconds``.  Uses
    ``SIGALRM``: only in the main thread, and never over a timer already running (the
    checker's own budget); elsewhere the block runs unbounded (the structural limits and the
    command line's watchdog still apply)."""
    seconds = MAX_BUILD_SECONDS if seconds is None else seconds
    usable = (
        hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
        and signal.getitimer(signal.ITIMER_REAL)[0] == 0
    )
    if not usable:
        yield
        return

    def _raise(signum: int, frame: FrameType | None) -> None:
        raise _BuildTimeout

    previous = signal.signal(signal.SIGALRM, _raise)
    signal.setitimer(signal.ITIMER_REAL, seconds, 0.5)  # again every 0.5 s if swallowed
    try:
        yield
    except _BuildTimeout:
        raise ExpressionError(
            f"building {_short(text)} took more than {seconds:g} s (the limit on one "
            "expression); simplify it or write large constants with a variable"
        ) from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


MAX_NUMBER_DIGITS = 100
"""A constant given as an expression (a domain's end such as ``pi/2``) must be a real of
magnitude below ``10**MAX_NUMBER_DIGITS``: ``exp(10**6)`` as a domain's end is refused."""


def evaluable(value: sp.Expr) -> sp.Expr:
    """``value`` with ``Phi`` and ``PhiInv`` written with ``erfc`` and ``erfinv``, which
    SymPy evaluates (``Phi(1)`` as a domain's end was refused as "cannot evaluate")."""
    from symbolic.functions import Phi, PhiInv  # the functions module imports no limits

    if not value.has(Phi, PhiInv):
        return value
    return value.rewrite(sp.erfc).rewrite(sp.erfinv)


def approximate(value: sp.Expr, digits: int = 30) -> float | None:
    """A float of the constant expression ``value``, or None when it is not real, not finite
    or not below ``10**MAX_NUMBER_DIGITS`` in magnitude.  SymPy's ``evalf`` raises mpmath's
    global precision as it goes (to 3,000 digits for ``expm1(2**10000)``) and does not always
    restore it on failure, so the precision is restored here whatever happens; its magnitude
    is checked first, on a cheap low-precision estimate."""
    import mpmath  # SymPy's own numeric layer; imported here to keep the parser's imports small

    from symbolic.exact_numbers import evaluable  # Phi(1) as erfc, which evalf knows

    saved = mpmath.mp.prec
    try:
        value = evaluable(value)
        size = _log10_size(value)
        if size is None or size > MAX_NUMBER_DIGITS:
            return None
        number = value.evalf(digits, strict=False)
        if not (number.is_real and number.is_finite and number.is_Number):
            return None
        result = float(number)
        return result if math.isfinite(result) else None
    except (TypeError, ValueError, ArithmeticError, RecursionError):
        return None
    finally:
        mpmath.mp.prec = saved
