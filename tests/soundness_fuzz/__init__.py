"""A soundness fuzzer for ``dpderive claim`` (issue 38, item 3).

Claims are built whose truth is known *by construction* (identities rewritten by valid rules,
inequalities with a slack that is nonnegative by its shape, known inequalities, monotone
maps of them; false ones made from true ones by a perturbation that fails at a known witness
inside every domain and hypothesis), checked independently at the witness with mpmath at
several times the tool's digits (and SymPy exactly where a tie must be shown), and given to
the tool as a user gives them: a TOML claim file, read by ``load_claim`` and checked by
``check_claim``, the code path of ``dpderive claim``.

The property: no false claim is ``proved``, ``certified`` or ``checked`` (``checked`` is only
held against a false claim whose counterexample the documented sampling must see: a closed or
expression end, a hypothesis boundary or branch, an integer end, a violation everywhere or on
a large share of the domain, or a violation the tool itself reports as seen), and no true
claim is ``refuted``.  ``undecided`` is always allowed.

Modules: :mod:`.expr` (a small expression tree, its text and an evaluator independent of
dpderive), :mod:`.latex` (the same trees written in LaTeX), :mod:`.claims` (a generated
claim, its TOML, its truth check), :mod:`.generators` (numbers, domains, random expressions,
witnesses), :mod:`.recipes_algebra`, :mod:`.recipes_domains`, :mod:`.recipes_discrete` (the
recipes), :mod:`.strategies` (definitions and LaTeX wrappers, the union), :mod:`.harness`
(running the tool as ``dpderive claim`` does and judging the verdict).
"""
