"""General mode: checking a derivation over indexed families, for every length at once.

A derivation over ``p[1], ..., p[n]`` states its claim for every ``n`` of the length
variable's domain.  Each link is

* **proved** on the *general* link only: the tactics and rules
  (:func:`numeric_checks.stages.prove`) run on the link as written, with sums of symbolic
  length, under a light plan whose facts are the index ranges ``lo <= i <= n``, the element
  domains, the hypotheses free of "for all", and each "for all" hypothesis's relation at
  the family's own index (true of every ``i`` in the range);
* **checked numerically** on *instances*: lengths from the length variable's domain, small
  ones first (1..8), then a few larger (12, 20, 40), each instance an ordinary derivation
  over ``p_1 .. p_n`` (:func:`symbolic.instances.instantiate_derivation`) sampled by
  :mod:`numeric_checks.family_sampling` and put through the usual stages (spot check,
  confirmation by Arb; a violation refutes only once confirmed).

Verdicts: a confirmed violation at any length refutes (the counterexample names the length
and the family); a general proof with no confirmed violation proves; otherwise the link is
at most ``checked`` -- never proved or certified from an instance, since a proof or a
certificate at ``n = 3`` is not the theorem.  A general proof contradicted by a confirmed
violation is an :class:`~numeric_checks.check.EngineInconsistency`.

A derivation whose families all have numeric lengths (``p = "(0, 1) for i in 1..3"``) has
one instance, which *is* the statement: it is checked as an ordinary derivation.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import sympy as sp

from numeric_checks.check import (
    EngineInconsistency,
    LemmaVerdicts,
    _bounded_prove,
    basis,
    check_link,
    run_oracle,
)
from numeric_checks.family_sampling import family_generator
from numeric_checks.plan import CheckOptions, CheckPlan, certification_box, make_plan, rules_context
from numeric_checks.sampling import Sampler
from numeric_checks.stages import Link, SymbolicProof
from symbolic.derivation import Derivation, Justification
from symbolic.errors import EmptyDomain
from symbolic.families import MAX_INSTANCE_LENGTH, ForAll
from symbolic.hypotheses import build_space
from symbolic.instances import (
    OutsideHypotheses,
    family_variables,
    instantiate_derivation,
    length_variables,
)
from symbolic.relations import Relation
from symbolic.report import DerivationReport, OracleResult, StepResult
from symbolic.verdicts import Verdict, weakest

__all__ = [
    "INSTANCE_LENGTHS",
    "check_general_claim",
    "check_general_derivation",
    "general_plan",
    "has_families",
    "instance_lengths",
]

INSTANCE_LENGTHS = (1, 2, 3, 4, 5, 6, 7, 8, 12, 20, 40)
"""Lengths tried, as offsets from the smallest length of the domain (1 for ``Z>=1``)."""

ORACLE_INSTANCES = 4
"""The oracle runs on the first few instances only (its computation grows with n)."""

MIN_INSTANCE_POINTS = 12


def has_families(d: Derivation) -> bool:
    return any(v.family is not None for v in d.variables)


def instance_lengths(d: Derivation) -> list[dict[str, int]]:
    """The lengths at which ``d`` is checked numerically: for each length variable, its
    domain's smallest value ``s`` and ``s + 1 .. s + 7``, then ``s + 11, s + 19, s + 39``
    (inside the domain, at most :data:`MAX_INSTANCE_LENGTH`); several length variables move
    together, plus a few unequal pairs."""
    variables = length_variables(d)
    if not variables:
        return [{}]
    per: list[list[int]] = []
    for v in variables:
        start = int(v.domain.lower) if v.domain.lower.is_finite else 1
        start = max(start, 0)
        values = [start + k - 1 for k in INSTANCE_LENGTHS]
        values = [
            k for k in values if k <= MAX_INSTANCE_LENGTH and v.domain.contains(sp.Integer(k))
        ]
        per.append(values)
    longest = max(len(p) for p in per)
    out = [
        {v.name: p[min(k, len(p) - 1)] for v, p in zip(variables, per, strict=True)}
        for k in range(longest)
        if all(p for p in per)
    ]
    if len(variables) > 1 and all(len(p) > 3 for p in per):
        pairs = list(enumerate(zip(variables, per, strict=True)))
        out += [{v.name: p[(1 + 2 * m) % 4] for m, (v, p) in pairs}]
        out += [{v.name: p[(3 - 2 * m) % 4] for m, (v, p) in pairs}]
    unique: list[dict[str, int]] = []
    for lengths in out:
        if lengths not in unique:
            unique.append(lengths)
    return unique


# -- the general plan: facts for the rules, no points -----------------------------------------


def general_plan(d: Derivation, options: CheckOptions) -> CheckPlan:
    """A plan for proving ``d``'s general links: its derivation is ``d`` itself (so a rule
    reads the hypotheses, "for all" included, from ``plan.derivation``), its space the
    scalar variables under the scalar hypotheses, its facts those plus the index ranges,
    the element domains and the family hypotheses (see the module docstring).  It has no
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
        ranges = [(family.index_symbol, family.lower, family.upper)]
        if family.second is not None:
            _, lo, hi = family.second
            ranges.append((family.indices[1], sp.sympify(lo), sp.sympify(hi)))
        for i, lo, hi in ranges:
            extra += [sp.GreaterThan(i, lo), sp.LessThan(i, hi)]
        element = v.base[family.indices]
        extra += v.domain.constraints(element)
    for h in expanded:
        if isinstance(h, ForAll):
            extra += [h.relation, sp.GreaterThan(h.index, h.lower), sp.LessThan(h.index, h.upper)]
        elif _about_families(h) and isinstance(h, sp.Rel):
            extra.append(h)
    relations = [e for e in extra if isinstance(e, sp.Rel)]
    context = rules_context([*space.inequalities, *relations], space.free)
    box, whole = certification_box(d, space)
    return CheckPlan(
        derivation=d,
        options=options,
        space=space,
        sampler=Sampler(space, seed=options.seed, dps=options.dps),
        points=(),
        context=context,
        box=box,
        box_is_whole_domain=whole,
        hypotheses=(),
        defs_fn=None,
        solved_fn=None,
    )


def _about_families(h: sp.Basic) -> bool:
    return isinstance(h, ForAll) or h.has(sp.Indexed) or h.has(sp.IndexedBase)


def prove_general(
    plan: CheckPlan, index: int, left: sp.Expr, rel: Relation, right: sp.Expr, why: Justification
) -> SymbolicProof:
    """The tactics and rules on the general link (sums of symbolic length kept)."""
    link = Link.of(plan, index, left, rel, right, why.text, why.rules)
    return _bounded_prove(plan, link, cheap=False)


# -- instances ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Instance:
    lengths: Mapping[str, int]
    steps: tuple[StepResult, ...]
    conclusion: StepResult
    points: int
    oracle: OracleResult | None = None


def instance_options(options: CheckOptions, count: int) -> CheckOptions:
    """Fewer points and a shorter search per instance (the points are split across the
    lengths); no symbolic proof and no certificate of an instance: neither would be a proof
    of the statement."""
    return dataclasses.replace(
        options,
        points=max(MIN_INSTANCE_POINTS, options.points // max(count, 1)),
        search_budget=max(30, options.search_budget // max(count, 1)),
        symbolic=False,
        certify=False,
    )


def instance_plan(d: Derivation, lengths: Mapping[str, int], options: CheckOptions) -> CheckPlan:
    """The plan of ``d``'s instance at ``lengths``, its points drawn by the family sampler
    (or ``d.instance_points``); generic rejection sampling when the sampler's points all
    fail the hypotheses.  Raises OutsideHypotheses / EmptyDomain when the instance is empty."""
    instance = instantiate_derivation(d, lengths)
    if instance.points is None:
        generated = instance.replace(points=family_generator(d, lengths, options.points))
        try:
            return make_plan(generated, options)
        except EmptyDomain:
            pass
    return make_plan(instance, options)


def _check_instance(
    d: Derivation,
    lengths: Mapping[str, int],
    options: CheckOptions,
    lemmas: LemmaVerdicts | None,
    claim_only: bool,
    oracle: bool,
) -> Instance:
    plan = instance_plan(d, lengths, options)
    inst = plan.derivation
    steps: tuple[StepResult, ...] = ()
    if not claim_only:
        steps = tuple(
            check_link(plan, i + 1, left, rel, right, j, lemmas)
            for i, (left, rel, right, j) in enumerate(inst.links())
        )
    why = "the claim as typed" if claim_only else "the theorem's conclusion, checked on its own"
    conclusion = check_link(
        plan, 1 if claim_only else 0, inst.claim.lhs, inst.claim.relation, inst.claim.rhs, why
    )
    ran = run_oracle(plan) if oracle else None
    return Instance(lengths, steps, conclusion, len(plan.points), ran)


def _instances(
    d: Derivation, options: CheckOptions, lemmas: LemmaVerdicts | None, claim_only: bool
) -> tuple[list[Instance], list[str]]:
    """Every instance checked, and notes on the lengths skipped."""
    all_lengths = instance_lengths(d)
    per = instance_options(options, len(all_lengths))
    done: list[Instance] = []
    outside: list[str] = []
    empty: list[str] = []
    for lengths in all_lengths:
        try:
            done.append(
                _check_instance(
                    d,
                    lengths,
                    per,
                    lemmas,
                    claim_only,
                    oracle=options.oracle and len(done) < ORACLE_INSTANCES,
                )
            )
        except OutsideHypotheses:
            outside.append(_where(lengths))
        except EmptyDomain:
            empty.append(_where(lengths))
    notes = []
    if outside:
        notes.append(f"lengths outside the hypotheses, skipped: {'; '.join(outside)}")
    if empty:
        notes.append(f"no point satisfies the hypotheses at {'; '.join(empty)} (skipped)")
    if not done:
        raise EmptyDomain(
            f"{d.id}: no instance of the families could be sampled (tried "
            + "; ".join(_where(x) for x in all_lengths)
            + "): the hypotheses may be contradictory"
        )
    return done, notes


def _where(lengths: Mapping[str, object]) -> str:
    return ", ".join(f"{k} = {v}" for k, v in lengths.items()) or "the given lengths"


def covered(instances: Sequence[Instance]) -> str:
    """The lengths checked, compactly: ``n = 1..8, 12, 20, 40``."""
    if not instances:
        return "no length"
    names = list(instances[0].lengths)
    if len(names) != 1:
        return "; ".join(f"({_where(i.lengths)})" for i in instances)
    values = [i.lengths[names[0]] for i in instances]
    parts: list[str] = []
    run: list[int] = []
    for v in values:
        if run and v == run[-1] + 1:
            run.append(v)
            continue
        if run:
            parts.append(_run(run))
        run = [v]
    parts.append(_run(run))
    return f"{names[0]} = {', '.join(parts)}"


def _run(run: list[int]) -> str:
    if len(run) >= 3:
        return f"{run[0]}..{run[-1]}"
    return ", ".join(map(str, run))


# -- combining ----------------------------------------------------------------------------------


def _combine(
    index: int,
    left: sp.Expr,
    rel: Relation,
    right: sp.Expr,
    why: Justification,
    proof: SymbolicProof,
    results: Sequence[tuple[Instance, StepResult]],
    lemmas: LemmaVerdicts | None,
) -> StepResult:
    trace = proof.describe()
    refuted = next(((i, r) for i, r in results if r.verdict is Verdict.REFUTED), None)
    lengths = covered([i for i, _ in results])
    per = min((i.points for i, _ in results), default=0)
    if refuted is not None:
        inst, r = refuted
        if proof.proved:
            raise EngineInconsistency(
                f"step {index} ({left} {rel.value} {right}): proved for every length by "
                f"{trace}, but refuted at {_where(inst.lengths)}: {r.evidence}"
            )
        cex = r.counterexample
        counterexample = None
        table = ""
        if cex is not None:
            point = {k: str(v) for k, v in inst.lengths.items()}
            point.update(cex.point)
            counterexample = dataclasses.replace(cex, point=point)
            table = family_table(inst.lengths, cex.point)
        evidence = f"refuted at {_where(inst.lengths)}: {r.evidence}"
        if table:
            evidence += "\n" + table
        verdict = Verdict.REFUTED
        numeric = r.numeric
        referees = r.referees
    else:
        numeric = results[0][1].numeric if results else None
        referees = ()
        suspects = [
            (i, r) for i, r in results if r.verdict is Verdict.CHECKED and "suspect" in r.evidence
        ]
        undecided = [i for i, r in results if r.verdict is Verdict.UNDECIDED]
        counterexample = None
        numerics = f"numeric checks at {lengths} ({per} points or more each) found no violation"
        if suspects:
            i, r = suspects[0]
            numerics += f"; a suspect point at {_where(i.lengths)}: {r.evidence}"
        if undecided:
            numerics += f"; undecided at {'; '.join(_where(i.lengths) for i in undecided)}"
        if proof.proved:
            verdict = Verdict.PROVED
            evidence = f"proved for every length by {trace}; {numerics}"
        elif any(r.verdict is Verdict.CHECKED for _, r in results):
            verdict = Verdict.CHECKED
            evidence = (
                f"checked at {lengths} ({per} points or more each); why not proved: no rule "
                "proved the general link (an instance's proof or certificate is not the "
                "statement for every length)"
            )
            if suspects or undecided:
                evidence += "; " + numerics
        else:
            verdict = Verdict.UNDECIDED
            evidence = f"not proved for every length, and no instance decided it ({numerics})"
    return StepResult(
        index=index,
        lhs=str(left),
        relation=rel.value,
        rhs=str(right),
        justification=why.text,
        verdict=verdict,
        evidence=evidence,
        symbolic=trace,
        numeric=numeric,
        counterexample=counterexample,
        referees=referees,
        basis=basis(why, trace, lemmas),
    )


def family_table(lengths: Mapping[str, int], point: Mapping[str, str]) -> str:
    """The families of a counterexample as a table, one row per index:
    ``i | p_i | q_i``."""
    names: dict[str, dict[str, str]] = {}
    for key, value in point.items():
        head, sep, tail = key.rpartition("_")
        if sep and head and tail.isdigit():
            names.setdefault(head, {})[tail] = value
    if not names:
        return ""
    columns = sorted(names)
    rows = sorted({k for c in columns for k in names[c]}, key=int)
    scalars = {
        k: v for k, v in point.items() if k.rpartition("_")[0] not in names and k not in lengths
    }
    width = max(len(v) for c in columns for v in names[c].values())
    head = f"  {'i':>3} | " + " | ".join(f"{c + '_i':<{width}}" for c in columns)
    lines = [f"the families at {_where(lengths)}" + (f" ({_where(scalars)})" if scalars else "")]
    lines.append(head)
    for k in rows:
        cells = " | ".join(f"{names[c].get(k, ''):<{width}}" for c in columns)
        lines.append(f"  {k:>3} | {cells}")
    return "\n".join(lines)


# -- entry points ------------------------------------------------------------------------------


def check_general_derivation(
    d: Derivation, options: CheckOptions, lemmas: LemmaVerdicts | None
) -> DerivationReport:
    """General mode for a derivation over families (see the module docstring)."""
    started = time.perf_counter()
    if not length_variables(d):
        from numeric_checks.check import _check_derivation

        report = _check_derivation(instantiate_derivation(d, {}), options, lemmas)
        return dataclasses.replace(report, id=d.id)
    plan = general_plan(d, options)
    links = d.links()
    proofs = [
        prove_general(plan, i + 1, left, rel, right, why)
        for i, (left, rel, right, why) in enumerate(links)
    ]
    chain_proved = all(p.proved for p in proofs)
    claim_why = Justification("the theorem's conclusion, checked on its own")
    if chain_proved or not options.symbolic:
        conclusion_proof = SymbolicProof(None, ran=options.symbolic)
    else:
        conclusion_proof = prove_general(
            plan, 0, d.claim.lhs, d.claim.relation, d.claim.rhs, claim_why
        )
    instances, notes = _instances(d, options, lemmas, claim_only=False)
    steps = tuple(
        _combine(
            i + 1,
            left,
            rel,
            right,
            why,
            proofs[i],
            [(inst, inst.steps[i]) for inst in instances],
            lemmas,
        )
        for i, (left, rel, right, why) in enumerate(links)
    )
    conclusion = _combine(
        0,
        d.claim.lhs,
        d.claim.relation,
        d.claim.rhs,
        claim_why,
        conclusion_proof,
        [(inst, inst.conclusion) for inst in instances],
        lemmas,
    )
    chain_verdict = weakest(s.verdict for s in steps)
    if conclusion.verdict is not Verdict.REFUTED and chain_verdict.rank > conclusion.verdict.rank:
        conclusion = dataclasses.replace(
            conclusion,
            verdict=chain_verdict,
            evidence=f"follows from the chain ({chain_verdict.value}); conclusion also "
            + conclusion.evidence,
        )
    oracle = _oracle(instances)
    verdicts = [s.verdict for s in steps] + [conclusion.verdict]
    if oracle is not None and oracle.agrees is False:
        verdicts.append(Verdict.REFUTED)
    notes = [
        f"checked in {time.perf_counter() - started:.2f} s with seed {options.seed}",
        f"general mode: proofs are of the links for every length; numeric checks at "
        f"{covered(instances)}",
        *notes,
    ]
    return DerivationReport(
        id=d.id,
        title=d.title,
        source=str(d.source),
        verdict=weakest(verdicts),
        steps=steps,
        conclusion=conclusion,
        oracle=oracle,
        erratum=d.erratum,
        notes=tuple(notes),
    )


def _oracle(instances: Sequence[Instance]) -> OracleResult | None:
    ran = [(i, i.oracle) for i in instances if i.oracle is not None]
    if not ran:
        return None
    for inst, o in ran:
        if o.agrees is False:
            return dataclasses.replace(o, detail=f"at {_where(inst.lengths)}: {o.detail}")
    first = ran[0][1]
    agreed = sum(o.points for _, o in ran)
    detail = "; ".join(f"{_where(i.lengths)}: {o.detail}" for i, o in ran)
    agrees = True if any(o.agrees for _, o in ran) else None
    return OracleResult(first.name, first.description, agrees, agreed, detail)


def check_general_claim(d: Derivation, options: CheckOptions) -> StepResult:
    """General mode for a claim over families (the ``claim`` verb)."""
    if not length_variables(d):
        from numeric_checks.check import check_claim

        return check_claim(instantiate_derivation(d, {}), options)
    plan = general_plan(d, options)
    why = Justification("the claim as typed")
    proof = prove_general(plan, 1, d.claim.lhs, d.claim.relation, d.claim.rhs, why)
    instances, notes = _instances(d, options, None, claim_only=True)
    result = _combine(
        1,
        d.claim.lhs,
        d.claim.relation,
        d.claim.rhs,
        why,
        proof,
        [(inst, inst.conclusion) for inst in instances],
        None,
    )
    if notes:
        # The notes go before the family table, which ends the evidence.
        head, newline, table = result.evidence.partition("\n")
        evidence = head + "; " + "; ".join(notes) + newline + table
        result = dataclasses.replace(result, evidence=evidence)
    return result
