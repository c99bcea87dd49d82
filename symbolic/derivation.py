"""Derivations as frozen data: statement, variables, hypotheses, chain of justified steps.

A derivation proves ``lhs REL rhs`` by a chain ``e0 R1 e1 ... Rn en`` with ``e0 = lhs`` and
``en = rhs``.  It is pure data: checking it is the job of :func:`numeric_checks.check_derivation`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import sympy as sp

from symbolic.domains import Variable
from symbolic.errors import IllFormedDerivation, InvalidInput
from symbolic.families import bound_free_symbols
from symbolic.family_use import check_family_use
from symbolic.functions import unfold
from symbolic.induction import Induction, check_declaration
from symbolic.notebook import render
from symbolic.relations import Relation, compose
from symbolic.side_conditions import SideCondition

USER_PROOF_ID = "proof"
"""The id of a derivation read from a user's proof file (not a catalog id)."""


class JustificationKind(Enum):
    DEFINITION = "definition"
    ALGEBRA = "algebra"
    RULE = "rule"
    HYPOTHESIS = "hypothesis"
    LEMMA = "lemma"
    """A derivation of the catalog, named by its id: the step rests on its verdict."""
    CITE = "cite"
    """A result outside the catalog (a paper, a book): the step rests on it unchecked."""
    FOUNDATION = "foundation"
    """One of the project's named foundations (:mod:`symbolic.foundations`): a short list of
    axioms and textbook facts that the catalog builds on without proving them."""


@dataclass(frozen=True)
class Justification:
    """Why a step holds, in words, with the kind of reason and any named rules, the catalog
    lemma it rests on, or the external result it cites."""

    text: str
    kind: JustificationKind = JustificationKind.ALGEBRA
    rules: tuple[str, ...] = ()
    lemma: str | None = None
    citation: str | None = None
    foundation: str | None = None


@dataclass(frozen=True)
class Step:
    """One link ``previous REL expr`` of a chain."""

    relation: Relation
    expr: sp.Expr
    justification: Justification
    source: str = ""
    """The expression as its author wrote it (LaTeX), given back in documents."""
    line: int = 0
    """Where the author wrote it (a line of their file), 0 when unknown."""
    written: str = ""
    """The expression as its author typed it in SymPy syntax, kept where SymPy's automatic
    evaluation changed it on reading (``k*exp(-log(k/beta))`` reads as ``beta``): the text
    reports give it back beside what was checked."""

    def as_typed(self) -> str:
        """The step with its relation as its author wrote it (``\\le e^{...}`` in LaTeX,
        ``= k*exp(...)`` in SymPy syntax), or ``""`` when neither text is kept."""
        if self.source:
            return f"{self.relation.latex} {self.source}"
        return f"{self.relation.value} {self.written}" if self.written else ""


@dataclass(frozen=True)
class Source:
    """Where a statement comes from: work, locator (theorem number), edition, seed file.

    >>> str(Source("Dwork & Roth 2014", "Theorem 3.6"))
    'Dwork & Roth 2014, Theorem 3.6'
    """

    work: str
    locator: str
    edition: str = ""
    seed: str = ""

    def __str__(self) -> str:
        parts = [self.work, self.locator]
        if self.edition:
            parts.append(self.edition)
        return ", ".join(p for p in parts if p)


@dataclass(frozen=True)
class Claim:
    lhs: sp.Expr
    relation: Relation
    rhs: sp.Expr

    def __str__(self) -> str:
        return f"{self.lhs} {self.relation.value} {self.rhs}"


@dataclass(frozen=True)
class OracleOutcome:
    """One oracle evaluation at one point: ``ok`` is None when the oracle could not decide."""

    ok: bool | None
    detail: str
    values: Mapping[str, str] = field(default_factory=dict)
    closeness: float | None = None
    """How near the point came to failing (e.g. a failure rate's upper bound over beta); the
    report repeats the detail of the agreeing point where this is largest."""


@dataclass(frozen=True)
class Oracle:
    """An independent numeric computation of a theorem's conclusion from first principles.

    ``check`` receives a point (variable name -> mpmath number, defs already evaluated) and
    returns whether the conclusion holds there by the independent computation.
    """

    name: str
    description: str
    check: Callable[[Mapping[str, Any]], OracleOutcome]
    points: int = 12


PointGenerator = Callable[[Any, int], "list[dict[str, Any]]"]
InstancePointGenerator = Callable[[Any, int, Mapping[str, int]], "list[dict[str, Any]]"]
"""``(rng, dps, lengths) -> points`` for a derivation over families, at the given lengths
(``{"n": 3}``): each point assigns every variable of the instance (``eps``, ``p_1``, ...)."""
"""``(rng, dps) -> points``: each point assigns a value to every variable.  For domains that
rejection sampling cannot hit (pairs of distributions with ratio constraints); the checker
still validates every generated point against every hypothesis."""


@dataclass(frozen=True)
class CheckingAids:
    """What the catalog supplies to check (and teach) a derivation, beside what its author
    wrote: none of it is part of the mathematics, and a derivation read from a user's file
    has at most a certification box.  Grouped out of :class:`Derivation` (issue 42), which
    still takes each of these as a keyword and reads them as attributes (``d.points``)."""

    oracle: Oracle | None = None
    """An independent numeric computation of the conclusion from first principles."""
    points: PointGenerator | None = None
    """The derivation's own sampler, for domains rejection sampling cannot hit."""
    instance_points: InstancePointGenerator | None = None
    """For a derivation over families: its own point generator for an instance at given
    lengths (see :mod:`symbolic.instances`); the generic family sampler otherwise.  Every
    point is still validated against every instantiated hypothesis."""
    search_budget: int | None = None
    """Cap on counterexample-search evaluations per step, for steps costly to evaluate
    (quadrature): the check uses the smaller of this and the caller's budget."""
    certify_box: Mapping[str, tuple[str, str]] | None = None
    """Bounds (as decimal strings) of the box on which inequality steps are certified, per
    variable; variables not named use their domain (unbounded ends cut at +-5)."""
    appendix: Callable[[], str] | None = None
    """Extra teaching material for ``explain`` (a table computed by an oracle, say)."""


AID_NAMES = tuple(f.name for f in dataclasses.fields(CheckingAids))
"""The keywords of :class:`Derivation` that fill its :class:`CheckingAids`."""


class _Unset:
    """The default of an aid's keyword: not given (``None`` given clears the aid)."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()


@dataclass(frozen=True, init=False)
class Derivation:
    """A theorem and its proof chain as its author writes them, and the catalog's aids to
    checking it (:class:`CheckingAids`, the field ``checking``); see ``shared/DESIGN.md``
    for the field meanings.

    Constructed as before, with every field a keyword (``oracle=``, ``points=``,
    ``search_budget=``, ``certify_box=``, ``instance_points=`` and ``appendix=`` fill
    ``checking``), or with ``checking=CheckingAids(...)``; each aid is read as an attribute
    of its own (``d.points``).

    >>> from symbolic.domains import parse_domain
    >>> x = Variable("x", parse_domain("(0, 1)"))
    >>> d = Derivation(id="t", title="t", source=Source("w", "1"), variables=(x,),
    ...     claim=Claim(x.symbol, Relation.LE, sp.Integer(1)),
    ...     steps=(Step(Relation.LE, sp.Integer(1), Justification("x < 1")),),
    ...     search_budget=7)
    >>> d.search_budget, d.checking.search_budget, d.points
    (7, 7, None)
    >>> d.replace(points=None, search_budget=3).checking.search_budget
    3
    """

    # What the author writes: the theorem, its proof chain, where it comes from.
    id: str
    title: str
    source: Source
    variables: tuple[Variable, ...]
    claim: Claim
    steps: tuple[Step, ...]
    hypotheses: tuple[sp.Basic, ...] = ()
    defs: tuple[tuple[sp.Symbol, sp.Expr], ...] = ()
    statement: str = ""
    erratum: str | None = None
    """If set, this derivation is a seed statement kept as written and expected to be refuted;
    the text says what is wrong and which id carries the correction."""
    family: str = ""
    lhs_source: str = ""
    """The chain's first expression as its author wrote it (LaTeX), for documents."""
    lhs_written: str = ""
    """The same typed in SymPy syntax, where SymPy's evaluation changed it on reading (see
    :attr:`Step.written`)."""
    typed: tuple[tuple[sp.Basic, tuple[SideCondition, ...]], ...] = ()
    """For each expression of the file (a side, a step, a definition's value) whose reading
    SymPy's automatic evaluation stripped of something that needs a condition, the
    expression as read and those conditions: ``x/x`` is read as ``1`` and needs ``x != 0``,
    ``exp(log(x))`` is read as ``x`` and needs ``x > 0``; a proof must discharge them as it
    does the read expression's own (:func:`symbolic.side_conditions.typed_conditions`)."""
    induction: Induction | None = None
    """If set, the chain is the inductive step k - 1 -> k of an induction (see
    :mod:`symbolic.induction`): steps justified by the hypothesis may use the claim at k - 1."""
    instance: str = ""
    """If set, the chain proves only an instance of the source's statement, and this says
    which ("for n = 3 outcomes only"): every verdict on it is scoped as an instance (see
    :mod:`symbolic.scope`), however strong."""
    bridge: tuple[Justification, ...] = ()
    """What carries the chain's claim to the statement as the source gives it, when that
    step is not a link of the chain (advanced composition: Azuma's inequality turns the tail
    at the threshold into the composition theorem).  Checked by nobody: the basis
    (:mod:`symbolic.basis`) counts its lemmas, foundations and citations like the steps'."""
    # What the catalog supplies for checking.
    checking: CheckingAids = CheckingAids()

    def __init__(
        self,
        id: str,
        title: str,
        source: Source,
        variables: tuple[Variable, ...],
        claim: Claim,
        steps: tuple[Step, ...],
        hypotheses: tuple[sp.Basic, ...] = (),
        defs: tuple[tuple[sp.Symbol, sp.Expr], ...] = (),
        statement: str = "",
        oracle: Oracle | None = UNSET,
        erratum: str | None = None,
        family: str = "",
        points: PointGenerator | None = UNSET,
        search_budget: int | None = UNSET,
        appendix: Callable[[], str] | None = UNSET,
        certify_box: Mapping[str, tuple[str, str]] | None = UNSET,
        lhs_source: str = "",
        lhs_written: str = "",
        induction: Induction | None = None,
        instance_points: InstancePointGenerator | None = UNSET,
        instance: str = "",
        bridge: tuple[Justification, ...] = (),
        checking: CheckingAids | None = None,
        typed: tuple[tuple[sp.Basic, tuple[SideCondition, ...]], ...] = (),
    ) -> None:
        # The positional order is the one of the 22 fields before the split (issue 42).
        given: dict[str, Any] = {
            "oracle": oracle,
            "points": points,
            "instance_points": instance_points,
            "search_budget": search_budget,
            "certify_box": certify_box,
            "appendix": appendix,
        }
        aids = checking if checking is not None else CheckingAids()
        changed = {k: v for k, v in given.items() if v is not UNSET}
        if changed:
            aids = dataclasses.replace(aids, **changed)
        values = {
            "id": id,
            "title": title,
            "source": source,
            "variables": variables,
            "claim": claim,
            "steps": steps,
            "hypotheses": hypotheses,
            "defs": defs,
            "statement": statement,
            "erratum": erratum,
            "family": family,
            "lhs_source": lhs_source,
            "lhs_written": lhs_written,
            "typed": typed,
            "induction": induction,
            "instance": instance,
            "bridge": bridge,
            "checking": aids,
        }
        for name, value in values.items():
            object.__setattr__(self, name, value)
        self.__post_init__()

    # -- the catalog's aids, read as before -----------------------------------------------
    @property
    def oracle(self) -> Oracle | None:
        return self.checking.oracle

    @property
    def points(self) -> PointGenerator | None:
        return self.checking.points

    @property
    def instance_points(self) -> InstancePointGenerator | None:
        return self.checking.instance_points

    @property
    def search_budget(self) -> int | None:
        return self.checking.search_budget

    @property
    def certify_box(self) -> Mapping[str, tuple[str, str]] | None:
        return self.checking.certify_box

    @property
    def appendix(self) -> Callable[[], str] | None:
        return self.checking.appendix

    def __post_init__(self) -> None:
        self.validate()

    # -- structure ---------------------------------------------------------------------------
    @property
    def symbols(self) -> dict[str, sp.Symbol]:
        table = {v.name: v.symbol for v in self.variables}
        table.update({s.name: s for s, _ in self.defs})
        return table

    def links(self) -> list[tuple[sp.Expr, Relation, sp.Expr, Justification]]:
        """The chain as ``(left, relation, right, justification)`` links."""
        out = []
        left = self.claim.lhs
        for step in self.steps:
            out.append((left, step.relation, step.expr, step.justification))
            left = step.expr
        return out

    def expand_defs(self, expr: sp.Basic) -> sp.Basic:
        """Substitute the definitions (in order, later ones may use earlier ones) and unfold
        defined functions, giving an expression in the variables only."""
        for sym, value in reversed(self.defs):
            expr = expr.xreplace({sym: value})
        return unfold(expr)

    def validate(self) -> None:
        """Raise :class:`IllFormedDerivation` unless the chain proves the claim as stated."""
        if not self.id or self.id != self.id.lower() or " " in self.id:
            raise IllFormedDerivation(f"id must be kebab-case, got id={self.id!r}")
        names = [v.name for v in self.variables]
        if len(set(names)) != len(names):
            raise IllFormedDerivation(f"{self.id}: a variable is declared twice: {names}")
        clash = set(names) & {s.name for s, _ in self.defs}
        if clash:
            raise IllFormedDerivation(f"{self.id}: {sorted(clash)} both variable and definition")
        if not self.steps:
            raise IllFormedDerivation(f"{self.id}: the chain has no steps")
        last = self.steps[-1].expr
        if sp.sympify(last) != sp.sympify(self.claim.rhs):
            raise IllFormedDerivation(
                f"{self.id}: the chain ends at {last}, but the claim's rhs is {self.claim.rhs}"
            )
        composed = compose(s.relation for s in self.steps)
        if not composed.implies(self.claim.relation):
            raise IllFormedDerivation(
                f"{self.id}: the chain composes to '{composed.value}', "
                f"which does not give the claim's '{self.claim.relation.value}'"
            )
        known = {v.symbol for v in self.variables} | {s for s, _ in self.defs}
        indices = {i for v in self.variables if v.family is not None for i in v.family.indices}
        everything: list[sp.Basic] = [self.claim.lhs, self.claim.rhs, *self.hypotheses]
        everything += [s.expr for s in self.steps] + [v for _, v in self.defs]
        families = {v.symbol: v.family for v in self.variables if v.family is not None}
        if families:
            for expr in everything:
                try:
                    check_family_use(expr, families)
                except InvalidInput as exc:
                    raise IllFormedDerivation(f"{self.id}: {exc}") from None
        for expr in everything:
            unknown = {s for s in bound_free_symbols(expr) if s not in known}
            loose = unknown & indices
            if loose:
                raise IllFormedDerivation(
                    f"{self.id}: the index {', '.join(sorted(map(str, loose)))} is used outside "
                    f"a Sum, a Product or a 'for all' in {expr} (write e.g. Sum(p[i], (i, 1, n)) "
                    "or 'p[i] <= 1 for all i')"
                )
            if unknown:
                raise IllFormedDerivation(
                    f"{self.id}: undeclared symbol(s) {sorted(map(str, unknown))} in {expr} "
                    "(declare them with their domain; a name with other assumptions is "
                    "another symbol)"
                )
        if self.induction is not None:
            check_declaration(self.induction, self.variables, self.hypotheses)

    # -- variants ----------------------------------------------------------------------------
    def _repr_latex_(self) -> str:
        return render(self, "text/latex")

    def _repr_markdown_(self) -> str:
        return render(self, "text/markdown")

    def replace(self, **changes: Any) -> Derivation:
        """A copy with fields changed (validated again)."""
        return dataclasses.replace(self, **changes)

    def with_step(
        self, index: int, *, expr: sp.Expr | None = None, relation: Relation | None = None
    ) -> Derivation:
        """A copy with one step's expression or relation changed; a changed last expression
        moves the claim's rhs with it, so mutants of the conclusion stay well-formed."""
        steps = list(self.steps)
        old = steps[index]
        steps[index] = Step(
            relation or old.relation,
            old.expr if expr is None else expr,
            old.justification,
            # The author's text no longer says what a changed expression says.
            old.source if expr is None else "",
            old.line,
            old.written if expr is None else "",
        )
        claim = self.claim
        if index in (-1, len(steps) - 1) and expr is not None:
            claim = Claim(claim.lhs, claim.relation, expr)
        return self.replace(steps=tuple(steps), claim=claim)


DERIVATION_KEYWORDS = (
    *(f.name for f in dataclasses.fields(Derivation)),
    *AID_NAMES,
)
"""Every keyword :class:`Derivation` takes: its fields, and the aids of ``checking`` one by
one (what :meth:`symbolic.kit.Chain.derive` accepts)."""
