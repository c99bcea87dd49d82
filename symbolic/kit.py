"""The authoring kit: a chain that reads like a textbook proof, for users and for the catalog.

Modelled on Lean's ``calc`` and Isar's ``also ... finally``: one line per step, a relation,
an expression and the reason, transitivity implicit.

>>> import sympy as sp
>>> x = sp.Symbol("x", positive=True)
>>> c = (chain(sp.exp(x) * sp.exp(x))
...      .eq(sp.exp(2 * x), by.algebra("exp(a) exp(b) = exp(a + b)"))
...      .ge(1 + 2 * x, by.rule("exp tangent")))
>>> c.relation.value, c.rhs
('>=', 2*x + 1)
>>> c.conclusion
Claim(lhs=exp(2*x), relation=<Relation.GE: '>='>, rhs=2*x + 1)

A justification is built by ``by``: :meth:`By.definition`, :meth:`By.algebra`,
:meth:`By.hypothesis`, :meth:`By.rule` (names the prover knows, listed in
:mod:`symbolic.rule_names`; another name is refused), :meth:`By.lemma` (a catalog id: the step
rests on that derivation's verdict) and :meth:`By.cite` (a result outside the catalog, reported
as unchecked).  Proof files write the same as ``by = "rule:NAME"``, parsed by
:func:`justification_from_spec`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sympy as sp

from symbolic.derivation import (
    DERIVATION_KEYWORDS,
    Claim,
    Derivation,
    Justification,
    JustificationKind,
    Source,
    Step,
)
from symbolic.domains import Domain, Variable, parse_domain
from symbolic.errors import InvalidInput
from symbolic.families import Family, ForAll, index_symbol
from symbolic.foundations import FOUNDATIONS, foundation
from symbolic.notebook import render
from symbolic.relations import Relation, compose
from symbolic.rule_names import check_rule_names

__all__ = ["By", "Chain", "by", "chain", "family", "forall", "justification_from_spec"]

K = JustificationKind
_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


class By:
    """Builders of :class:`~symbolic.derivation.Justification`; use the instance ``by``.

    >>> by.rule("triangle inequality").rules, by.lemma("kl-bound").lemma
    (('triangle inequality',), 'kl-bound')
    >>> by.hypothesis("sensitivity", "monotonicity of exp").kind.value
    'hypothesis'
    >>> by.rule("trinagle inequality")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    symbolic.errors.InvalidInput: 'trinagle inequality' is not a rule the prover knows; ...
    """

    def definition(self, why: str = "by definition") -> Justification:
        return Justification(why, K.DEFINITION)

    def algebra(self, why: str = "algebra") -> Justification:
        return Justification(why, K.ALGEBRA)

    def hypothesis(self, why: str = "a hypothesis", *rules: str) -> Justification:
        """A hypothesis of the theorem, possibly through named rules (monotonicity ...)."""
        return Justification(why, K.HYPOTHESIS, tuple(rules))

    def rule(self, *names: str, why: str = "") -> Justification:
        """Named rules of the prover ("triangle inequality", "monotonicity of exp")."""
        if not names:
            raise InvalidInput("by.rule needs the name of at least one rule")
        check_rule_names(names)
        return Justification(why or ", ".join(names), K.RULE, tuple(names))

    def lemma(self, derivation_id: str, why: str = "") -> Justification:
        """Another derivation of the catalog, by its id; the step rests on its verdict."""
        if not _ID.match(derivation_id):
            raise InvalidInput(
                f"a lemma is named by a catalog id (kebab-case), got {derivation_id!r}; "
                "cite a result outside the catalog with by.cite(...)"
            )
        return Justification(why or f"by {derivation_id}", K.LEMMA, lemma=derivation_id)

    def foundation(self, name: str, why: str = "") -> Justification:
        """One of the named foundations (:data:`symbolic.foundations.FOUNDATIONS`)."""
        found = foundation(name)
        if found is None:
            raise InvalidInput(
                f"{name!r} is not a named foundation; the foundations are: "
                + ", ".join(FOUNDATIONS)
            )
        return Justification(why or f"by {found.name}", K.FOUNDATION, foundation=found.name)

    def cite(self, citation: str, why: str = "") -> Justification:
        """A result outside the catalog (reported as resting on it unchecked)."""
        if not citation.strip():
            raise InvalidInput("by.cite needs the result it cites")
        return Justification(why or citation, K.CITE, citation=citation.strip())


by = By()


def justification_from_spec(spec: str, why: str = "") -> Justification:
    """A proof file's ``by`` field: ``definition``, ``algebra``, ``hypothesis``,
    ``induction`` (the induction hypothesis of a proof by induction), ``rule:NAME`` (several
    separated by ``;``), ``lemma:CATALOG-ID``, ``foundation:NAME`` or ``cite:TEXT``.

    >>> justification_from_spec("rule:triangle inequality; monotonicity of exp").rules
    ('triangle inequality', 'monotonicity of exp')
    """
    head, _, rest = spec.partition(":")
    head, rest = head.strip().lower(), rest.strip()
    if head in ("definition", "algebra", "hypothesis") and not rest:
        return getattr(by, head)(why) if why else getattr(by, head)()
    if head == "induction" and not rest:
        # The induction hypothesis is a hypothesis of the step (symbolic.induction).
        return by.hypothesis(why or "induction hypothesis (the claim one length shorter)")
    if head == "rule" and rest:
        return by.rule(*(n.strip() for n in rest.split(";") if n.strip()), why=why)
    if head == "lemma" and rest:
        return by.lemma(rest, why)
    if head == "cite" and rest:
        return by.cite(rest, why)
    if head == "foundation" and rest:
        return by.foundation(rest, why)
    raise InvalidInput(
        f"by = {spec!r} is not a justification; write definition, algebra, hypothesis, "
        "induction, rule:NAME, lemma:CATALOG-ID, foundation:NAME or cite:TEXT"
    )


def _reason(value: Justification | str) -> Justification:
    if isinstance(value, Justification):
        return value
    if isinstance(value, str):
        return by.algebra(value)
    raise InvalidInput(
        f"a step's reason is a string or a by.*(...) justification, got {type(value).__name__}"
    )


def _expression(value: Any, where: str) -> sp.Expr:
    """``value`` as a SymPy expression; text is refused (sympify would evaluate it)."""
    if isinstance(value, str):
        raise InvalidInput(
            f"{where}: give a SymPy expression, not the text {value!r} (text is never "
            "evaluated; parse it with symbolic.parse_expr(text, symbols))"
        )
    if isinstance(value, bool) or not isinstance(value, (sp.Basic, int, float)):
        raise InvalidInput(f"{where}: expected a SymPy expression, got {type(value).__name__}")
    expr = sp.sympify(value)
    if not isinstance(expr, sp.Expr):
        raise InvalidInput(f"{where}: expected an expression, got the {type(expr).__name__} {expr}")
    return expr


def _variable(value: Any) -> Variable:
    if isinstance(value, Variable):
        return value
    name = value.name if isinstance(value, sp.Symbol) else repr(value)
    raise InvalidInput(
        f"variables are Variable(name, domain), got {name} ({type(value).__name__}); write "
        f'Variable("{name}", parse_domain("(0, oo)")) with the domain it ranges over'
    )


def _source(value: Any) -> Source:
    if isinstance(value, Source):
        return value
    if isinstance(value, str) and value.strip():
        return Source(value.strip(), "")
    raise InvalidInput(
        f'source is a Source("work", "theorem") or a string, got {type(value).__name__}'
    )


_DERIVE_FIELDS = frozenset(DERIVATION_KEYWORDS) - {
    "id",
    "title",
    "variables",
    "claim",
    "steps",
}


@dataclass(frozen=True)
class Chain:
    """``lhs R1 e1 R2 e2 ...``: immutable; every method returns a longer chain.

    >>> x = sp.Symbol("x", positive=True)
    >>> c = chain(x**2).eq(x * x, "a square").le(x * x + 1, by.rule("positive factor"))
    >>> [s.relation.value for s in c.steps], c.relation.value
    (['=', '<='], '<=')
    """

    lhs: sp.Expr
    steps: tuple[Step, ...] = ()

    def step(self, relation: Relation | str, expr: Any, reason: Justification | str) -> Chain:
        """The chain with one more step ``relation expr``, for ``reason``.

        >>> chain(sp.Integer(1)).step("<", 2, "one is less than two").relation.value
        '<'
        >>> chain(sp.Integer(1)).le("2", "text")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        symbolic.errors.InvalidInput: step 1: give a SymPy expression, not the text '2' ...
        """
        rel = relation if isinstance(relation, Relation) else Relation.parse(relation)
        where = f"step {len(self.steps) + 1}"
        return Chain(self.lhs, (*self.steps, Step(rel, _expression(expr, where), _reason(reason))))

    def eq(self, expr: Any, reason: Justification | str = "algebra") -> Chain:
        return self.step(Relation.EQ, expr, reason)

    def le(self, expr: Any, reason: Justification | str) -> Chain:
        return self.step(Relation.LE, expr, reason)

    def lt(self, expr: Any, reason: Justification | str) -> Chain:
        return self.step(Relation.LT, expr, reason)

    def ge(self, expr: Any, reason: Justification | str) -> Chain:
        return self.step(Relation.GE, expr, reason)

    def gt(self, expr: Any, reason: Justification | str) -> Chain:
        return self.step(Relation.GT, expr, reason)

    @property
    def rhs(self) -> sp.Expr:
        if not self.steps:
            raise InvalidInput("the chain has no steps yet")
        return self.steps[-1].expr

    @property
    def relation(self) -> Relation:
        """What the chain's relations compose to."""
        return compose(s.relation for s in self.steps)

    @property
    def conclusion(self) -> Claim:
        """First lhs, composed relation, last rhs."""
        return Claim(self.lhs, self.relation, self.rhs)

    def _repr_latex_(self) -> str:
        """A notebook shows the chain as display math while it is being written."""
        return render(self, "text/latex")

    def derive(
        self,
        *,
        id: str,
        title: str,
        variables: Sequence[Any],
        claim: Claim | None = None,
        source: Source | str = "your own proof",
        **fields: Any,
    ) -> Derivation:
        """The derivation proving ``claim`` (default: the chain's own conclusion) by this
        chain; ``source`` is a :class:`~symbolic.derivation.Source` or a string; ``fields``
        are the other :class:`~symbolic.derivation.Derivation` fields (``hypotheses``,
        ``defs``, ``statement``, ``oracle``, ...).  Anything else is refused by name.

        >>> x = Variable("x", parse_domain("(0, oo)"))
        >>> d = chain(sp.exp(x.symbol)).ge(1 + x.symbol, by.rule("exp tangent")).derive(
        ...     id="exp-tangent", title="exp(x) >= 1 + x", variables=[x])
        >>> d.claim, str(d.source)
        (Claim(lhs=exp(x), relation=<Relation.GE: '>='>, rhs=x + 1), 'your own proof')
        >>> chain(sp.exp(x.symbol)).ge(1 + x.symbol, "tangent").derive(
        ...     id="t", title="t", variables=[sp.Symbol("x")])  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        symbolic.errors.InvalidInput: variables are Variable(name, domain), got x (Symbol); ...
        """
        if not self.steps:
            raise InvalidInput("the chain has no steps: add .eq(...), .le(...) before derive")
        unknown = sorted(set(fields) - _DERIVE_FIELDS)
        if unknown:
            raise InvalidInput(
                f"derive() does not know {', '.join(unknown)}; it takes id, title, variables, "
                f"claim, source and {', '.join(sorted(_DERIVE_FIELDS - {'source'}))}"
            )
        if isinstance(variables, (str, Variable)) or not isinstance(variables, Sequence):
            raise InvalidInput("variables is a list of Variable(name, domain)")
        fields.setdefault("hypotheses", ())
        fields.setdefault("defs", ())
        return Derivation(
            id=id,
            title=title,
            source=_source(source),
            variables=tuple(_variable(v) for v in variables),
            claim=claim or self.conclusion,
            steps=self.steps,
            hypotheses=tuple(fields.pop("hypotheses")),
            defs=tuple(fields.pop("defs")),
            **fields,
        )


def chain(lhs: Any) -> Chain:
    """Start a chain at ``lhs`` (the claim's left-hand side), a SymPy expression.

    >>> chain(sp.Symbol("x")).lhs
    x
    """
    return Chain(_expression(lhs, "the chain's start"))


# -- families --------------------------------------------------------------------------------


def family(
    name: str,
    domain: str | Domain,
    *,
    length: Variable | sp.Symbol | int,
    index: str = "i",
    lower: int = 1,
    meaning: str = "",
    latex_name: str = "",
) -> Variable:
    """A family ``name[lower], ..., name[length]``, each element in ``domain``: the Python
    form of ``p = "(0, 1) for i in 1..n"`` in a claim file.  ``length`` is a positive
    integer or an integer variable declared ``Z>=1`` (declare it among the variables too).
    Its elements are ``v.base[i]``, with ``i = index_symbol("i")``.

    >>> n = Variable("n", parse_domain("Z>=1"))
    >>> p = family("p", "(0, 1)", length=n)
    >>> i = index_symbol("i")
    >>> sp.Sum(p.base[i], (i, 1, n.symbol)), p.base[i].is_positive
    (Sum(p[i], (i, 1, n)), True)
    >>> print(forall(p.base[i] <= 1, p))
    p[i] <= 1 for all i in 1..n
    """
    dom = parse_domain(domain) if isinstance(domain, str) else domain
    if isinstance(length, Variable):
        d = length.domain
        if (
            length.family is not None
            or d.kind != "integer"
            or not (d.lower.is_finite and d.lower >= 1)
        ):
            raise InvalidInput(
                f"the length of the family {name} must be a positive integer variable; "
                f"{length.name} is declared {d} (declare it Z>=1)"
            )
        upper: sp.Expr = length.symbol
    elif isinstance(length, sp.Symbol):
        if length.is_integer is not True or length.is_positive is not True:
            raise InvalidInput(
                f"the length of the family {name} must be a positive integer symbol, got "
                f"{length} (use the symbol of a variable declared Z>=1)"
            )
        upper = length
    elif isinstance(length, int) and not isinstance(length, bool) and length >= 1:
        upper = sp.Integer(length)
    else:
        raise InvalidInput(
            f"the length of the family {name} must be a positive integer or a variable "
            f"declared Z>=1, got {length!r}"
        )
    return Variable(name, dom, meaning, latex_name, family=Family(index, sp.Integer(lower), upper))


def forall(
    relation: sp.Basic,
    over: Variable | str | sp.Symbol,
    lower: sp.Expr | int | None = None,
    upper: sp.Expr | int | None = None,
) -> ForAll:
    """The hypothesis "``relation`` for every index": ``over`` is a family (its index and
    range) or an index name with its ``lower`` and ``upper`` ends.

    >>> i, n = index_symbol("i"), sp.Symbol("n", integer=True, positive=True)
    >>> q = sp.IndexedBase("q")
    >>> print(forall(q[i] <= 1, "i", 1, n))
    q[i] <= 1 for all i in 1..n
    >>> forall(q[i] <= 1, "i")
    Traceback (most recent call last):
    ...
    symbolic.errors.InvalidInput: forall over an index name needs its lower and upper ends
    """
    if isinstance(over, Variable):
        if over.family is None:
            raise InvalidInput(f"forall over {over.name}: it is not a family")
        f = over.family
        lo = f.lower if lower is None else sp.sympify(lower)
        hi = f.upper if upper is None else sp.sympify(upper)
        return ForAll(relation, (f.index_symbol, lo, hi))
    if lower is None or upper is None:
        raise InvalidInput("forall over an index name needs its lower and upper ends")
    i = index_symbol(over) if isinstance(over, str) else over
    return ForAll(relation, (i, sp.sympify(lower), sp.sympify(upper)))
