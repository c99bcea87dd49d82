"""Hypothesis strategies for claims whose truth is known by construction.

Every recipe builds a true claim from mathematics that holds by its shape (an identity
rewritten by a valid rule, a slack that is a square, a known inequality, a monotone map of
one, a hypothesis whose every branch satisfies the claim) and, about half the time, turns it
false by a change that fails at a witness inside every domain and hypothesis: a shift of one
side, the negation of the relation, a strict relation at a tie, a closed end where an open
one was needed, a branch of an equality hypothesis, a constant rounded the wrong way.  The
witness is part of the construction; :func:`.claims.verify` checks it independently.

``claims()`` is the union of the recipes; each recipe is also a strategy of its own.  Lists
are ordered simplest first, so that Hypothesis shrinks towards small claims.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from hypothesis import strategies as st

from .claims import FuzzClaim, Var
from .expr import (
    X,
    var,
)
from .generators import Draw, n_
from .latex import Style, latex
from .recipes_algebra import (
    IDENTITIES,
    KNOWN,
    identity_claims,
    known_claims,
    slack_claims,
)
from .recipes_discrete import (
    ANALYSIS,
    FAMILY_CASES,
    INT_CASES,
    INT_FALSE,
    JUMPS,
    analysis_claims,
    family_claims,
    integer_claims,
    integer_false_claims,
    jump_claims,
)
from .recipes_domains import (
    CONSTANTS,
    END_MAPS,
    EQ_CASES,
    boundary_claims,
    constant_claims,
    end_claims,
    eq_claims,
    sign_claims,
)


def table_trees() -> list[X]:
    """Every recipe table's trees, built with plain variables for their arguments: what the
    recipes can write (the coverage test reads it)."""
    a, b, c = var("a"), var("b"), var("c")
    out: list[X] = []
    for _, build in IDENTITIES:
        f, arity = build.rule  # type: ignore[attr-defined]
        out += f(*[a, b, c][:arity])
    for _, known, _ in KNOWN:
        left, _, right = known(a, b, c)
        out += [left, right]
    for _, _, f_end, value in END_MAPS:
        out += [f_end(a), value]
    out += [c_ for _, c_ in CONSTANTS]
    for case in EQ_CASES:
        out += case.hyp(a, b)
        for _, body in case.true:
            out += [body(a, b)[0], body(a, b)[2]]
        for _, body, _ in case.false:
            out += [body(a, b)[0], body(a, b)[2]]
    for _, _, build_n, *_ in INT_CASES + INT_FALSE:  # type: ignore[operator]
        left, _, right = build_n(n_)
        out += [left, right]
    for _, build_a, _ in ANALYSIS:
        left, _, right = build_a()
        out += [left, right]
    for _, _, build_j, _ in JUMPS:
        left, _, right = build_j()
        out += [left, right]
    for _, _, build_f, _, _ in FAMILY_CASES:
        left, _, right = build_f()
        out += [left, right]
    return out


def alias_pairs() -> list[tuple[str, X, Sequence[Var]]]:
    """Every alias of the tables (shown, closed form) with where it is claimed to hold."""
    out: list[tuple[str, X, Sequence[Var]]] = []

    def walk(name: str, x: X, where: Sequence[Var]) -> None:
        if x.op == "alias":
            out.append((name, x, where))
        for arg in x.args:
            if isinstance(arg, X):
                walk(name, arg, where)

    for name, c in CONSTANTS:
        walk(name, c, ())
    for name, build, variables in ANALYSIS:
        left, _, right = build()
        walk(name, left, variables)
        walk(name, right, variables)
    return out


# -- definitions ------------------------------------------------------------------------
def _subtrees(x: X, out: list[X]) -> None:
    if x.op in ("sum", "prod", "integral", "piecewise", "index", "alias"):
        return  # bound variables inside: not a definition's body
    if x.size() >= 2 and x.op not in ("num", "const"):
        out.append(x)
    for a in x.args:
        if isinstance(a, X):
            _subtrees(a, out)


def _replace_tree(x: X, target: X, by: X) -> X:
    if x == target:
        return by
    if x.op in ("sum", "prod", "integral", "piecewise", "index", "alias"):
        return x
    return X(
        x.op,
        tuple(_replace_tree(a, target, by) if isinstance(a, X) else a for a in x.args),
        x.name,
        x.num,
    )


@st.composite
def with_definitions(draw: Draw, base: st.SearchStrategy[FuzzClaim]) -> FuzzClaim:
    """A claim with one or two subexpressions moved into ``[defs]`` (the truth does not
    change: the tool substitutes them back)."""
    claim = draw(base)
    if any(v.family for v in claim.variables):
        return claim
    for k in range(draw(st.integers(1, 2))):
        found: list[X] = []
        _subtrees(claim.lhs, found)
        _subtrees(claim.rhs, found)
        if not found:
            break
        target = draw(st.sampled_from(found))
        name = f"d{k + 1}"
        claim = replace(
            claim,
            lhs=_replace_tree(claim.lhs, target, var(name)),
            rhs=_replace_tree(claim.rhs, target, var(name)),
            defs=(*claim.defs, (name, target)),
            recipe=claim.recipe + ("/defs" if k == 0 else ""),
        )
    return claim


@st.composite
def in_latex(draw: Draw, base: st.SearchStrategy[FuzzClaim]) -> FuzzClaim:
    """A claim with its sides and hypotheses written in LaTeX (spelling drawn: ``e^{a}`` or
    ``\\exp``, ``\\frac`` or ``/``, ``\\cdot``, ``\\times`` or juxtaposition, ...); its
    truth is the tree's, so a different verdict is a misreading."""
    claim = draw(base)
    style = Style(
        exp=draw(st.sampled_from(["e^", "\\exp\\left(", "\\exp("])),
        paren=draw(st.sampled_from(["left", "plain"])),
        times=draw(st.sampled_from(["\\cdot", "\\times", " "])),
        frac=draw(st.sampled_from(["\\frac", "\\tfrac", "/"])),
        abs=draw(st.sampled_from(["left", "bars", "lvert"])),
        log=draw(st.sampled_from(["\\ln", "\\log"])),
        le=draw(st.sampled_from(["\\le", "\\leq"])),
    )
    try:
        for part in (claim.lhs, claim.rhs, *claim.hypotheses):
            latex(part, style)
    except ValueError:
        return claim  # a function LaTeX has no name for (lambertw): stays in SymPy syntax
    return replace(claim, style=style, recipe=claim.recipe + "/latex")


RECIPES: dict[str, st.SearchStrategy[FuzzClaim]] = {
    "identity": identity_claims(),
    "slack": slack_claims(),
    "known": known_claims(),
    "end": end_claims(),
    "constant": constant_claims(),
    "sign": sign_claims(),
    "equality": eq_claims(),
    "integer": integer_claims(),
    "integer-false": integer_false_claims(),
    "analysis": analysis_claims(),
    "jump": jump_claims(),
    "boundary": boundary_claims(),
    "family": family_claims(),
}


def claims(recipes: Sequence[str] | None = None) -> st.SearchStrategy[FuzzClaim]:
    """Claims from the named recipes (all by default): a fifth with definitions, a fifth in
    LaTeX."""
    chosen = [RECIPES[r] for r in (recipes or list(RECIPES))]
    base = st.one_of(*chosen)
    return st.one_of(base, base, base, with_definitions(base), in_latex(base))
