"""The plan of a derivation over families for proving its general links (no points).

Its facts are what holds of every element in range (never ``lo <= i <= n`` on a bare index),
each element's domain, the hypotheses free of families, the relations about families that
are not "for all" (``Sum(p[i], (i, 1, n)) = 1``); the "for all" hypotheses are read by the
sum rules from the derivation it carries, the general one, so
a rule may read the hypotheses, "for all" included, from ``plan.derivation``.
"""

from __future__ import annotations

import sympy as sp

from numeric_checks.plan import CheckOptions, CheckPlan, certification_box, rules_context
from numeric_checks.sampling import Sampler
from symbolic.derivation import Derivation
from symbolic.families import ForAll
from symbolic.hypotheses import build_space
from symbolic.instances import family_variables

__all__ = ["general_plan"]


def general_plan(d: Derivation, options: CheckOptions) -> CheckPlan:
    """A plan for proving ``d``'s general links: its derivation is ``d`` itself (so a rule
    reads the hypotheses, "for all" included, from ``plan.derivation``), its space the
    scalar variables under the scalar hypotheses, its facts those plus the element domains
    and the relations about families other than 'for all' (see the module docstring).  It has no
    points: the numbers come from the instances."""
    families = family_variables(d)
    scalars = tuple(v for v in d.variables if v.family is None)
    expanded = [d.expand_defs(h) for h in d.hypotheses]
    scalar_hyps = [h for h in expanded if not _about_families(h)]
    space = build_space(scalars, scalar_hyps)
    extra: list[sp.Basic] = []
    for v in families:
        family = v.family
        assert family is not None
        # No facts lo <= i <= n on the index itself: a sum may run the same index over
        # another range (Sum(1/i, (i, 1, 2*n))), and a rule inside it would misuse them.
        # Facts about an element p[i] are sound: an element exists only inside its range.
        element = v.base[family.indices]
        extra += v.domain.constraints(element)
    # A 'for all' hypothesis is not made a fact about p[i]: the generic rules do not know
    # that such a fact holds term by term only; the sum rules read it from the derivation.
    extra += [h for h in expanded if _about_families(h) and isinstance(h, sp.Rel)]
    relations = [e for e in extra if isinstance(e, sp.Rel)]
    context = rules_context([*space.inequalities, *relations], space.free)
    box, whole, ends = certification_box(d, space)
    return CheckPlan(
        derivation=d,
        options=options,
        space=space,
        sampler=Sampler(space, seed=options.seed, dps=options.dps),
        points=(),
        context=context,
        box=box,
        box_is_whole_domain=whole,
        hypotheses=ends,
        defs_fn=None,
        solved_fn=None,
    )


def _about_families(h: sp.Basic) -> bool:
    return isinstance(h, ForAll) or h.has(sp.Indexed) or h.has(sp.IndexedBase)
