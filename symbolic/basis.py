"""The basis of a verdict: what a proof rests on, transitively, computed from the chain.

A verdict says how strongly each link of a chain was shown; the basis says what the chain
leans on beyond the engine.  It is computed from the justifications of the derivation and of
every catalog lemma it uses, transitively (a step's ``by.lemma``, ``by.foundation`` and
``by.cite``, and the same in :attr:`Derivation.bridge`), combined with the verdicts of those
lemmas in the same run.  Never typed:

* ``outright``: every step proved or certified by the engine, and every lemma used,
  transitively, too, with no foundation or external result anywhere below;
* ``from foundations``: the same, except that something below rests on one of the named
  foundations (:mod:`symbolic.foundations`), and only on those;
* ``from cited results``: something below is an external result (``by.cite``, unchecked), or
  a lemma that is neither proved nor certified in this run, or one not checked in it.

A basis qualifies a proof.  A derivation whose own verdict is ``checked``, ``undecided`` or
``refuted`` was not proved, so its basis is ``none``; its ``rests_on`` still lists what the
chain leans on (for an erratum, that is what its refutation does *not* blame: the refuted
step is the author's).

``rests_on`` lists, in the order first met (depth first through the chain), each lemma of
the transitive closure with its verdict in this run ("not checked in this run" when it was
not checked), each foundation ("foundation") and each external result ("unchecked").

A cycle of lemma uses (a lemma resting, through others, on itself) proves nothing: it is bad
input, named (:class:`~symbolic.errors.InvalidInput`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from symbolic.derivation import Derivation, Justification, JustificationKind
from symbolic.errors import InvalidInput
from symbolic.notebook import render
from symbolic.report import EVIDENCE, DerivationReport, Reliance
from symbolic.verdicts import Verdict

__all__ = [
    "BASES",
    "BASIS_MEANING",
    "FROM_CITED",
    "FROM_FOUNDATIONS",
    "NONE",
    "NOT_CHECKED_HERE",
    "OUTRIGHT",
    "Basis",
    "Lookup",
    "Reliance",
    "basis_of",
    "basis_phrase",
    "claim_basis",
    "direct_uses",
    "lemma_closure",
    "used_by",
    "with_basis",
]

OUTRIGHT = "outright"
FROM_FOUNDATIONS = "from foundations"
FROM_CITED = "from cited results"
NONE = "none"
BASES = (OUTRIGHT, FROM_FOUNDATIONS, FROM_CITED, NONE)
"""Every value of a derivation's ``basis``, strongest first."""

BASIS_MEANING = {
    OUTRIGHT: "every step, and every catalog lemma below it, proved or certified by the engine",
    FROM_FOUNDATIONS: "proved down to the project's named foundations, and nothing else",
    FROM_CITED: "rests on a result outside the catalog, unchecked, or on a lemma not proved "
    "in this run",
    NONE: "not a proof, so nothing to rest",
}
"""What each basis means, in a few words (documents' glossaries, ``explain``)."""

NOT_CHECKED_HERE = "not checked in this run"
"""The verdict of a lemma in ``rests_on`` when the run did not check it."""

_PROOFS = (Verdict.PROVED, Verdict.CERTIFIED)

Lookup = Callable[[str], "Derivation | None"]
"""A catalog id -> its derivation (None when there is none)."""
LemmaVerdict = Callable[[str], "Verdict | None"]
"""A catalog id -> its verdict in this run (None when it was not checked)."""


@dataclass(frozen=True)
class Basis:
    basis: str
    rests_on: tuple[Reliance, ...] = ()

    @property
    def reasons(self) -> tuple[Reliance, ...]:
        """What makes the basis what it is: the external results and weak lemmas for
        ``from cited results``, the foundations for ``from foundations``, else nothing."""
        if self.basis == FROM_CITED:
            return tuple(r for r in self.rests_on if _weak(r))
        if self.basis == FROM_FOUNDATIONS:
            return tuple(r for r in self.rests_on if r.kind == "foundation")
        return ()


def _weak(r: Reliance) -> bool:
    return r.kind == "cite" or (r.kind == "lemma" and r.verdict not in (v.value for v in _PROOFS))


def direct_uses(d: Derivation) -> list[Justification]:
    """The justifications of ``d`` that reach beyond the engine: its steps' and its
    bridge's lemmas, foundations and citations, in order."""
    reach = (JustificationKind.LEMMA, JustificationKind.FOUNDATION, JustificationKind.CITE)
    whys = [s.justification for s in d.steps] + list(d.bridge)
    return [j for j in whys if j.kind in reach]


def lemma_closure(d: Derivation, lookup: Lookup) -> list[str]:
    """The ids of the catalog lemmas ``d`` rests on, transitively, depth first in the order
    met; a cycle raises :class:`InvalidInput` naming it (``a -> b -> a``).  A lemma that
    ``lookup`` does not know is listed but not followed."""
    done: set[str] = set()

    def visit(node: Derivation, path: list[str]) -> None:
        for why in direct_uses(node):
            ident = why.lemma
            if why.kind is not JustificationKind.LEMMA or not ident:
                continue
            if ident in path:
                cycle = [*path[path.index(ident) :], ident]
                raise InvalidInput("a cycle of lemma uses: " + " -> ".join(cycle))
            if ident in done:
                continue
            lemma = lookup(ident)
            if lemma is not None:
                visit(lemma, [*path, ident])
            done.add(ident)

    visit(d, [d.id])
    # The nearest first: breadth first from d's own uses.
    out: list[str] = []
    frontier: list[Derivation | None] = [d]
    while frontier:
        nxt: list[Derivation | None] = []
        for node in frontier:
            if node is None:
                continue
            for why in direct_uses(node):
                if why.lemma and why.kind is JustificationKind.LEMMA and why.lemma not in out:
                    out.append(why.lemma)
                    nxt.append(lookup(why.lemma))
        frontier = nxt
    return out


def basis_of(d: Derivation, verdict: Verdict, lookup: Lookup, lemma_verdict: LemmaVerdict) -> Basis:
    """The basis of ``verdict`` on ``d``, with the lemmas' verdicts of this run."""
    closure = lemma_closure(d, lookup)
    nodes = [d] + [x for x in (lookup(i) for i in closure) if x is not None]
    out: list[Reliance] = []
    for ident in closure:
        v = lemma_verdict(ident)
        out.append(Reliance("lemma", ident, v.value if v is not None else NOT_CHECKED_HERE))
    for node in nodes:
        for why in direct_uses(node):
            if why.kind is JustificationKind.FOUNDATION and why.foundation:
                out.append(Reliance("foundation", why.foundation, "foundation"))
            elif why.kind is JustificationKind.CITE:
                out.append(Reliance("cite", why.citation or why.text, "unchecked"))
    rests_on = tuple(dict.fromkeys(out))
    if verdict not in _PROOFS:
        return Basis(NONE, rests_on)
    if any(_weak(r) for r in rests_on):
        return Basis(FROM_CITED, rests_on)
    if any(r.kind == "foundation" for r in rests_on):
        return Basis(FROM_FOUNDATIONS, rests_on)
    return Basis(OUTRIGHT, rests_on)


def claim_basis(verdict: Verdict) -> Basis:
    """The basis of a claim checked on its own (``dpderive claim``): no chain, so nothing
    cited; a proof of it is outright."""
    return Basis(OUTRIGHT if verdict in _PROOFS else NONE)


def with_basis(
    d: Derivation, report: DerivationReport, lookup: Lookup, lemma_verdict: LemmaVerdict
) -> DerivationReport:
    """``report`` (of ``d``) with its ``basis`` and ``rests_on`` filled in."""
    b = basis_of(d, report.verdict, lookup, lemma_verdict)
    return dataclasses.replace(report, basis=b.basis, rests_on=b.rests_on)


def basis_phrase(basis: str, rests_on: Sequence[Reliance]) -> str:
    """The basis as a headline says it after the verdict: ``outright``, ``from foundations:
    union-bound``, ``from cited results: Azuma 1967 (unchecked)`` (empty for ``none``).

    >>> basis_phrase(FROM_CITED, [Reliance("lemma", "kl-bound", "proved"),
    ...                           Reliance("cite", "Azuma 1967", "unchecked")])
    'from cited results: Azuma 1967 (unchecked)'
    """
    if basis in ("", NONE):
        return ""
    reasons = Basis(basis, tuple(rests_on)).reasons
    if basis == FROM_FOUNDATIONS:
        return f"{basis}: " + ", ".join(r.ref for r in reasons)
    if basis == FROM_CITED:
        return f"{basis}: " + "; ".join(render(r, EVIDENCE) for r in reasons)
    return basis


def used_by(derivations: Iterable[Derivation], lookup: Lookup) -> dict[str, list[str]]:
    """Lemma id -> the ids of the derivations that rest on it, transitively (in the order
    of ``derivations``)."""
    out: dict[str, list[str]] = {}
    for d in derivations:
        for ident in lemma_closure(d, lookup):
            out.setdefault(ident, []).append(d.id)
    return out
