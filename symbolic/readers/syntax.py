"""Parse user-written expressions into SymPy without ``eval``.

The text is parsed by Python's own parser into an AST, and only a whitelist of node types is
turned into SymPy objects: numbers, declared names, the arithmetic operators, comparisons
(for hypotheses) and calls of the functions in :data:`FUNCTIONS`.  Anything else (attribute
access, lambda, subscripts, strings, keyword arguments) is rejected with a message naming it,
and nothing of the user's text is ever executed.

One namespace rule (issue 27): the names of constants and functions are reserved
(:data:`RESERVED`).  ``E``, ``e``, ``pi``, ``I``, ``oo``, ``inf``, ``nan`` and the function
names (``exp``, ``Phi``, ``Sum``, ...) cannot be declared as variables, definitions or the
index of a ``Sum``/``Integral``, in SymPy syntax or in LaTeX, so a constant means the same thing
in every path (SymPy, the mpmath and Arb bridges, sums, integrals).  Names are compared after
Unicode NFKC normalisation (the form Python's own parser gives identifiers), so ``ℯ`` is
``e`` and a fullwidth ``ｘ`` is ``x``.  Two Greek names, ``beta`` and ``gamma``, stay free for
variables (they are a DP author's failure probability and a constant): where one is declared,
its function is not available in that file, in either syntax (:func:`vet`).

Names resolve in this order: the caller's symbol table (declared variables and definitions),
bound variables of ``Integral`` and ``Sum``, then the constants ``pi``, ``E``, ``oo``.

Limits are checked on the syntax tree before SymPy builds anything: characters, parts,
nesting depth, digits of a literal, exponents (:data:`MAX_CHARS` and below); each message
names its limit.

``Piecewise((x, x < 0), (0, True))`` takes comparisons (or ``True``) as conditions.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping

import mpmath
import sympy as sp

from symbolic.errors import EmptyDomain, ExpressionError
from symbolic.family_use import family_element, family_message
from symbolic.input_limits import (
    MAX_DEPTH,
    MAX_NUMBER_DIGITS,
    _chain_class,
    approximate,
    build_time_limit,
    check_literals,
    check_magnitude,
    checked_pow,
    log10_bound,
    nesting_depth,
)
from symbolic.vetting import ITERATED_INTEGRAL, vet
from symbolic.vetting import shortened as _short
from symbolic.vocabulary import (
    CONSTANTS,
    FUNCTIONS,
    SPECIAL_FUNCTIONS,
    check_arity,
    reserved_message,
)

MAX_CHARS = 10_000
MAX_NODES = 5_000
MAX_LITERAL_FACTORIAL = 10_000


_BINOPS: dict[type, Callable[[sp.Expr, sp.Expr], sp.Expr]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.Pow: lambda a, b: checked_pow(a, b),
}
_CMPOPS: dict[type, Callable[[sp.Expr, sp.Expr], sp.Basic]] = {
    ast.Lt: sp.StrictLessThan,
    ast.LtE: sp.LessThan,
    ast.Gt: sp.StrictGreaterThan,
    ast.GtE: sp.GreaterThan,
    ast.Eq: lambda a, b: sp.Eq(a, b, evaluate=False),
}
_NODE_NAMES = {
    ast.Attribute: "attribute access",
    ast.Lambda: "lambda",
    ast.ListComp: "comprehensions",
    ast.GeneratorExp: "comprehensions",
    ast.IfExp: "conditional expressions",
    ast.BoolOp: "and/or",
    ast.NamedExpr: "assignment expressions",
    ast.JoinedStr: "f-strings",
    ast.Starred: "star arguments",
    ast.Dict: "dicts",
    ast.List: "lists",
    ast.Set: "sets",
}


class _Builder:
    def __init__(self, symbols: Mapping[str, sp.Expr], text: str, allow_relations: bool):
        self.symbols = dict(symbols)
        self.text = text
        self.allow_relations = allow_relations
        self.bound: frozenset[str] = frozenset()  # indices of enclosing Sums and Products

    def build(self, node: ast.AST) -> sp.Basic:
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:
            what = _NODE_NAMES.get(type(node), type(node).__name__)
            raise ExpressionError(f"{what} not allowed in expression {_short(self.text)}")
        return method(node)

    def _Expression(self, node: ast.Expression) -> sp.Basic:
        return self.build(node.body)

    def _Constant(self, node: ast.Constant) -> sp.Expr:
        value = node.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ExpressionError(f"literal {value!r} is not a real number in {_short(self.text)}")
        if isinstance(value, int):
            return sp.Integer(value)
        # Keep the decimal the user wrote exactly: 1.25 is 5/4, not a binary float.
        literal = ast.get_source_segment(self.text, node) or repr(value)
        return sp.Rational(literal.replace("_", ""))

    def _Name(self, node: ast.Name) -> sp.Expr:
        name = node.id
        if name in self.symbols:
            if isinstance(self.symbols[name], sp.IndexedBase):
                raise ExpressionError(family_message("bare", name, _short(self.text)))
            return self.symbols[name]
        if name in CONSTANTS:
            return CONSTANTS[name]
        if name in FUNCTIONS or name in SPECIAL_FUNCTIONS:
            raise ExpressionError(f"function {name} used without arguments in {_short(self.text)}")
        raise ExpressionError(
            f"unknown name {name!r} in {_short(self.text)}: declare it under [variables] or [defs]"
        )

    def _Subscript(self, node: ast.Subscript) -> sp.Expr:
        """An element ``p[i]`` (``w[i, j]``) of a family (:mod:`symbolic.families`)."""
        base = self.symbols.get(node.value.id) if isinstance(node.value, ast.Name) else None
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        return family_element(base, [self._expr(p) for p in parts], _short(self.text))

    def _BinOp(self, node: ast.BinOp) -> sp.Expr:
        # A long chain a + b + c + ... is a left-deep tree: walk its spine in a loop, so a
        # 1000-term sum does not use 1000 levels of Python recursion.
        spine: list[ast.BinOp] = []
        current: ast.AST = node
        chain = _chain_class(node)
        while isinstance(current, ast.BinOp) and (not spine or _chain_class(current) == chain >= 0):
            spine.append(current)
            current = current.left
        value = self._expr(current)
        for link in reversed(spine):
            op = _BINOPS.get(type(link.op))
            if op is None:
                hint = " (use ** for powers)" if isinstance(link.op, ast.BitXor) else ""
                raise ExpressionError(
                    f"operator {type(link.op).__name__} not allowed in {_short(self.text)}{hint}"
                )
            value = op(value, self._expr(link.right))
        return value

    def _UnaryOp(self, node: ast.UnaryOp) -> sp.Expr:
        operand = self._expr(node.operand)
        if isinstance(node.op, ast.USub):
            return -operand
        if isinstance(node.op, ast.UAdd):
            return operand
        op = type(node.op).__name__
        raise ExpressionError(f"operator {op} not allowed in {_short(self.text)}")

    def _Compare(self, node: ast.Compare) -> sp.Basic:
        if not self.allow_relations:
            raise ExpressionError(f"a comparison is not an expression: {_short(self.text)}")
        terms = [check_magnitude(self._expr(n), self.text) for n in (node.left, *node.comparators)]
        rels = []
        for op, a, b in zip(node.ops, terms, terms[1:], strict=False):
            make = _CMPOPS.get(type(op))
            if make is None:
                raise ExpressionError(
                    f"comparison {type(op).__name__} not allowed in {_short(self.text)}"
                )
            rels.append(make(a, b))
        return rels[0] if len(rels) == 1 else sp.And(*rels, evaluate=False)

    def _Call(self, node: ast.Call) -> sp.Basic:
        if not isinstance(node.func, ast.Name):
            raise ExpressionError(f"only plain function names may be called in {_short(self.text)}")
        if node.keywords:
            raise ExpressionError(f"keyword arguments not allowed in {_short(self.text)}")
        name = node.func.id
        if name in self.symbols:
            raise ExpressionError(f"{name!r} is a declared variable, not a function")
        if name in ("Integral", "Sum", "Product"):
            return self._bound_operator(name, node)
        if name == "Piecewise":
            return self._piecewise(node)
        if name == "Eq":
            if not self.allow_relations or len(node.args) != 2:
                raise ExpressionError(
                    f"Eq(a, b) is allowed only as a hypothesis: {_short(self.text)}"
                )
            a, b = (self._expr(a) for a in node.args)
            return sp.Eq(a, b, evaluate=False)
        if name not in FUNCTIONS:
            raise ExpressionError(
                f"unknown function {name!r} in {_short(self.text)}; allowed: "
                + ", ".join(sorted([*FUNCTIONS, *SPECIAL_FUNCTIONS]))
            )
        func, arities = FUNCTIONS[name]
        check_arity(name, arities, len(node.args), f" in {_short(self.text)}")
        args = [check_magnitude(self._expr(a), self.text) for a in node.args]
        if name in ("factorial", "binomial", "gamma", "loggamma", "beta"):
            for a in args:
                if a.is_number and a.is_finite and abs(a) > MAX_LITERAL_FACTORIAL:
                    raise ExpressionError(f"{name} of literal {a} is too large to evaluate")
        return func(*args)

    def _bound_operator(self, name: str, node: ast.Call) -> sp.Expr:
        if len(node.args) < 2:
            raise ExpressionError(f"{name}(f, (x, a, b)) needs limits in {_short(self.text)}")
        limits: list[tuple[sp.Symbol, sp.Expr, sp.Expr]] = []
        inner = dict(self.symbols)
        for lim in node.args[1:]:
            if not (
                isinstance(lim, ast.Tuple)
                and len(lim.elts) == 3
                and isinstance(lim.elts[0], ast.Name)
            ):
                raise ExpressionError(f"{name} limits must be (x, a, b) in {_short(self.text)}")
            var_name = lim.elts[0].id
            message = reserved_message(var_name)
            if message is not None:
                raise ExpressionError(f"the index of {name}: {message}")
            if var_name in self.bound or any(str(v) == var_name for v, _, _ in limits):
                raise ExpressionError(family_message("twice", var_name, _short(self.text)))
            kind = "real" if name == "Integral" else "integer"
            var = sp.Symbol(var_name, **{kind: True})
            lo, hi = (self._expr(e) for e in lim.elts[1:])
            limits.append((var, lo, hi))
            inner[var_name] = var
        if name == "Integral" and len(limits) > 1:
            raise ExpressionError(ITERATED_INTEGRAL + f": {_short(self.text)}")
        builder = _Builder(inner, self.text, False)
        builder.bound = self.bound | {str(v) for v, _, _ in limits}
        body = builder._expr_node(node.args[0])
        make = {"Integral": sp.Integral, "Sum": sp.Sum, "Product": sp.Product}[name]
        return make(body, *limits)  # type: ignore[no-any-return]

    def _piecewise(self, node: ast.Call) -> sp.Expr:
        """``Piecewise((expr, cond), ..., (expr, True))``: conditions are comparisons (a
        chain ``0 < x < 1`` is their conjunction; one the domains decide is False) or ``True``."""
        pieces = []
        for arg in node.args:
            if not (isinstance(arg, ast.Tuple) and len(arg.elts) == 2):
                raise ExpressionError(
                    f"Piecewise takes (expr, condition) pairs in {_short(self.text)}"
                )
            value, cond = arg.elts
            if isinstance(cond, ast.Constant) and cond.value is True:
                condition: sp.Basic = sp.true
            else:
                condition = _Builder(self.symbols, self.text, True).build(cond)
                decided = isinstance(cond, ast.Compare) and condition in (sp.true, sp.false)
                if not (decided or isinstance(condition, sp.Rel | sp.And)):
                    raise ExpressionError(
                        "a Piecewise condition must be a comparison or True in " + _short(self.text)
                    )
            pieces.append((self._expr(value), condition))
        if not pieces:
            raise ExpressionError(f"Piecewise needs at least one piece in {_short(self.text)}")
        return sp.Piecewise(*pieces)

    def _expr(self, node: ast.AST) -> sp.Expr:
        value = self.build(node)
        if not isinstance(value, sp.Expr):
            raise ExpressionError(f"a relation cannot be used as a value in {_short(self.text)}")
        return value

    _expr_node = _expr


def _parse(text: str, symbols: Mapping[str, sp.Expr], allow_relations: bool) -> sp.Basic:
    if not isinstance(text, str):
        raise ExpressionError(f"an expression must be a string, got {type(text).__name__}")
    if len(text) > MAX_CHARS:
        raise ExpressionError(f"expression longer than {MAX_CHARS} characters")
    if not text.strip():
        raise ExpressionError("empty expression")
    check_literals(text)
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise ExpressionError(f"syntax error in {_short(text)}: {exc.msg}") from None
    except (RecursionError, MemoryError, ValueError):
        raise ExpressionError(f"expression nests too deeply: {_short(text)}") from None
    if sum(1 for _ in ast.walk(tree)) > MAX_NODES:
        raise ExpressionError(f"expression has more than {MAX_NODES} parts")
    if nesting_depth(tree) > MAX_DEPTH:
        raise ExpressionError(
            f"expression nests deeper than {MAX_DEPTH} levels (the limit on nesting): "
            f"{_short(text)}"
        )
    saved_prec = mpmath.mp.prec
    try:
        with build_time_limit(text):
            return vet(_Builder(symbols, text.strip(), allow_relations).build(tree), text)
    except RecursionError:
        raise ExpressionError(f"expression nests too deeply: {_short(text)}") from None
    except (TypeError, ValueError, ArithmeticError, KeyError) as exc:
        if isinstance(exc, ExpressionError):
            raise
        raise ExpressionError(f"cannot build {_short(text)}: {exc}") from None
    finally:
        mpmath.mp.prec = saved_prec  # SymPy's evalf raises it and may not restore it


def parse_expr(text: str, symbols: Mapping[str, sp.Expr] | None = None) -> sp.Expr:
    """Parse an expression (no comparisons).

    >>> x = sp.Symbol("x", positive=True)
    >>> parse_expr("exp(x)/2 + 1.25", {"x": x})
    exp(x)/2 + 5/4
    """
    result = _parse(text, symbols or {}, allow_relations=False)
    assert isinstance(result, sp.Expr)  # guaranteed by _Builder with allow_relations=False
    return result


def parse_relations(text: str, symbols: Mapping[str, sp.Expr] | None = None) -> list[sp.Rel]:
    """Parse a hypothesis: a comparison, a chain ``0 < d < 1``, ``a == b`` or ``Eq(a, b)``.

    >>> d = sp.Symbol("d", real=True)
    >>> parse_relations("0 < d < 1", {"d": d})
    [0 < d, d < 1]
    """
    result = _parse(text, symbols or {}, allow_relations=True)
    parts = list(result.args) if isinstance(result, sp.And) else [result]
    rels: list[sp.Rel] = []
    for r in parts:
        # A hypothesis that restates the domains (Delta > 0 for a positive Delta) evaluates
        # to True: it holds, and adds nothing.  One that contradicts them is an error.
        if r is sp.true:
            continue
        if r is sp.false:
            raise EmptyDomain(f"the hypothesis {_short(text)} contradicts the variables' domains")
        if not isinstance(r, sp.Rel):
            raise ExpressionError(f"a hypothesis must be a comparison, got {_short(text)}")
        rels.append(r)
    return rels


def parse_number(text: str) -> sp.Expr:
    """Parse a real constant such as ``1e-6``, ``-oo`` or ``pi/2``.

    >>> parse_number("1e-6")
    1/1000000
    """
    value = parse_expr(text)
    if value.free_symbols:
        raise ExpressionError(f"expected a real number or oo, got {_short(text)}")
    if value.is_Rational or value in (sp.oo, -sp.oo):
        return value
    if log10_bound(value) > MAX_NUMBER_DIGITS:
        raise ExpressionError(
            f"{_short(text)} may exceed 10**{MAX_NUMBER_DIGITS} (the limit on a number such as a "
            "domain's end); write a rational number or oo"
        )
    try:
        infinite = value.is_infinite
    except (TypeError, ValueError, ArithmeticError, RecursionError):
        infinite = None
    if infinite or value.is_Rational:
        if value.is_infinite and value not in (sp.oo, -sp.oo):
            raise ExpressionError(f"expected a real number or oo, got {_short(text)}")
        return value
    approx = approximate(value)
    if approx is None:
        raise ExpressionError(
            f"cannot evaluate {_short(text)} to a real number of at most {MAX_NUMBER_DIGITS} "
            "digits; write a rational number or oo"
        )
    return value
