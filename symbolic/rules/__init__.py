"""Inequalities by named, checked rules.

SymPy's assumption system rarely decides an inequality of a DP proof (for positive ``e``,
``(exp(e) - 1).is_positive`` is None).  Here a goal ``g >= 0`` (or ``> 0``) is reduced by rules
that are sound by construction, each recorded in the proof trace:

* **assumptions**: SymPy decides the sign of ``g`` from the symbols' assumptions;
* **hypothesis**: ``g`` exceeds a hypothesis ``h >= 0`` by something of known sign
  (:mod:`.hypotheses`);
* **positive factor** and **monotonicity** of ``exp``, ``log``, ``sqrt``, ``Phi``, ``erf``,
  ``tanh``, ``sinh``, ``atan`` and of positive powers (:mod:`.monotone`);
* **log tangent bounds** and **min/max bounds**, applied to every term of a sum at once
  (:mod:`.bounds`);
* **triangle inequality**, **termwise**, **pairwise** and **product** splits (:mod:`.splits`);
* **sign case split** on the differences inside Abs/Max/Min, **signed factors** (a product
  of two factors of the same sign) and **sums of hypotheses** (:mod:`.signs`);
* **concavity**: a function with ``H'' <= 0`` on an interval is above its chord there, read
  off perspective sums ``sum y H(x/y)`` (:mod:`.convexity`).

A hypothesis ``h - c|a| >= 0`` also gives ``h - c a >= 0`` and ``h + c a >= 0``
(:func:`.facts.abs_consequences`).

:mod:`.prover` is the engine that tries them in order; :mod:`.facts` holds what they may use.
A goal no rule reduces is not proved; it is never called false here.
"""

from symbolic.rules.facts import Context, Fact, fact_from_relation
from symbolic.rules.prover import prove_relation

__all__ = ["Context", "Fact", "fact_from_relation", "prove_relation"]
