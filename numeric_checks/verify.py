"""Check a derivation: every link symbolically and numerically, the conclusion, the oracle.

A link is ``proved`` when the symbolic tactics or the checked rules reduce it, and it is also
spot-checked: a numeric counterexample to a "proved" step outranks the proof (and is reported
as an engine inconsistency).  Otherwise the link gets the numeric verdict: ``checked`` (with
points and digits), ``refuted`` (with the point) or ``undecided``.
"""

from __future__ import annotations

import dataclasses
import functools
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import mpmath
import sympy as sp

from numeric_checks.arb import Unsupported, residual_ball, show
from numeric_checks.bridge import compile_exprs, evaluate
from numeric_checks.certify import Box, certify, fails, leading_factor
from numeric_checks.sampling import Point, Sampler
from numeric_checks.spot import RelationCheck, SpotOutcome, confirm_with_evalf, fmt, spot_check
from symbolic.derivation import Derivation
from symbolic.errors import DpderiveError, EvaluationError
from symbolic.hypotheses import Space, build_space
from symbolic.relations import Relation
from symbolic.report import DerivationReport, OracleResult, StepResult
from symbolic.rules import Context, Fact, fact_from_relation, prove_relation
from symbolic.verdicts import Verdict, weakest


@dataclass(frozen=True)
class CheckOptions:
    """How hard to look: random points, digits, seed, search budget, what to run."""

    points: int = 200
    dps: int = 50
    seed: int = 0
    search_budget: int = 300
    symbolic: bool = True
    oracle: bool = True
    certify: bool = True

    def __post_init__(self) -> None:
        if self.points < 1:
            raise ValueError(f"points must be >= 1, got points={self.points}")
        if self.dps < 15:
            raise ValueError(f"dps must be >= 15, got dps={self.dps}")


class Checker:
    """The shared state of checking one derivation: its space, points and rule context."""

    def __init__(self, d: Derivation, options: CheckOptions):
        self.d = d
        self.options = options
        hyps = [d.expand_defs(h) for h in d.hypotheses]
        self.space: Space = build_space(d.variables, hyps)
        self.sampler = Sampler(self.space, seed=options.seed, dps=options.dps)
        if d.points is not None:
            # The derivation samples its own domain (edges and boundaries included);
            # generic draws would almost never satisfy its hypotheses.
            self.points: list[Point] = self.sampler.generated_points(d.points)
        else:
            self.points = (
                self.sampler.random_points(options.points)
                + self.sampler.edge_points()
                + self.sampler.boundary_points()
            )
        facts: list[Fact] = []
        for h in self.space.inequalities:
            facts += fact_from_relation(h, str(h))
        for v in self.space.free:
            for c in v.domain.constraints(v.symbol):
                facts += fact_from_relation(c, f"domain of {v.name}")
        # A fact the symbols' assumptions already give (eps > 0 for a positive eps) only
        # widens the rules' search.
        self.context = Context(
            [f for f in facts if not (f.expr.is_positive if f.strict else f.expr.is_nonnegative)]
        )
        # The definitions' values at a point (for oracles), compiled once, not per point.
        self._defs_fn = (
            compile_exprs(self.space.free_symbols, [self.prepare(v) for _, v in d.defs])
            if d.defs
            else None
        )
        self._display_fn = (
            compile_exprs(self.space.free_symbols, [e for _, e in self.space.solved])
            if self.space.solved
            else None
        )

    def prepare(self, expr: sp.Expr) -> sp.Expr:
        """An expression in the free variables only: defs, definitions, solved equalities."""
        return self.space.substitute(self.d.expand_defs(expr))

    def display(self, values: Sequence[Any]) -> dict[str, str]:
        shown = {v.name: fmt(x) for v, x in zip(self.space.free, values, strict=True)}
        if self._display_fn is not None:
            try:
                solved = evaluate(self._display_fn, values, self.options.dps)
                shown.update(
                    {v.name: fmt(x) for (v, _), x in zip(self.space.solved, solved, strict=True)}
                )
            except EvaluationError:
                pass
        return shown

    def check_link(
        self, index: int, left: sp.Expr, rel: Relation, right: sp.Expr, why: str
    ) -> StepResult:
        lhs, rhs = self.prepare(left), self.prepare(right)
        check = RelationCheck(lhs, rel, rhs, self.sampler)
        spot: SpotOutcome = spot_check(
            check,
            self.points,
            search_budget=min(self.options.search_budget, self.d.search_budget or 10**9),
            seed=self.options.seed + index,
            display=self.display,
        )
        trace = None
        if self.options.symbolic:
            # A step already refuted cannot be proved; the cheap rungs still run, so that an
            # unsound rule claiming a proof of it is caught and reported.
            refuted = spot.verdict is Verdict.REFUTED
            try:
                trace = prove_relation(lhs, rel, rhs, self.context, cheap=refuted)
            except (TypeError, ValueError, RecursionError, NotImplementedError, AttributeError):
                trace = None  # a crash in a rule proves nothing; numeric layers decide
        if trace == "tactic identical" and (left, right) != (lhs, rhs):
            trace = "identical once definitions are unfolded and substituted"
        numeric = spot.evidence.describe()
        counterexample = spot.counterexample
        dissolved = False
        if spot.verdict is Verdict.REFUTED and trace and spot.point is not None:
            # The rules proved it and the numerics disagree: let SymPy's adaptive-precision
            # evaluation, built for cancellation, decide which one to believe.
            dissolved = (
                confirm_with_evalf(lhs, rel, rhs, self.space.free_symbols, spot.point) is False
            )
        if dissolved:
            verdict = Verdict.PROVED
            evidence = (
                f"{trace}; spot-checked on {numeric}; a numeric violation at "
                f"{spot.counterexample.describe()} "  # type: ignore[union-attr]
                "dissolved under SymPy's adaptive-precision evalf"
            )
            counterexample = None
        elif spot.verdict is Verdict.REFUTED:
            verdict = Verdict.REFUTED
            evidence = f"counterexample {spot.counterexample.describe()}"  # type: ignore[union-attr]
            evidence += self._arb_referee(lhs, rel, rhs, spot.point)
            if trace:
                evidence += f" [engine inconsistency: rules claimed a proof: {trace}]"
        elif trace:
            verdict, evidence = Verdict.PROVED, f"{trace}; spot-checked on {numeric}"
        else:
            verdict = spot.verdict
            if verdict is Verdict.CHECKED:
                evidence = f"numeric only: {numeric}, no counterexample"
            else:
                evidence = f"no symbolic proof; numeric: {numeric}"
                if spot.ties:
                    evidence += f"; {spot.ties} point(s) tie and exactness was not shown"
        if verdict is Verdict.CHECKED and rel is not Relation.EQ and self.options.certify:
            verdict, evidence = self._certify(lhs, rel, rhs, verdict, evidence)
        return StepResult(
            index=index,
            lhs=str(left),
            relation=rel.value,
            rhs=str(right),
            justification=why,
            verdict=verdict,
            evidence=evidence,
            symbolic=trace,
            numeric=spot.evidence,
            counterexample=counterexample,
        )

    def _arb_referee(
        self, lhs: sp.Expr, rel: Relation, rhs: sp.Expr, point: Sequence[Any] | None
    ) -> str:
        """The counterexample re-decided by an Arb ball (rigorous): a note for the evidence."""
        if point is None or rel is Relation.EQ:
            return ""
        (step,) = fact_from_relation(rel.make(lhs, rhs), "step")
        try:
            g = residual_ball(step.expr, self.space.free_symbols, point, 4 * self.options.dps)
        except (Unsupported, TypeError, ValueError, ZeroDivisionError):
            return ""
        if fails(g, step.strict):
            return f"; confirmed by Arb: the residual's ball there is {show(g)}"
        return f"; Arb could not confirm it (residual ball {show(g)})"

    @functools.cached_property
    def certification_box(self) -> tuple[Box, bool]:
        """The box certification works on, and whether it covers the whole domain: the
        derivation's ``certify_box`` where given, else each domain's finite ends, with
        (0, ...] cut at 1e-6 and infinite ends at +-5."""
        names, lows, highs, whole = [], [], [], True
        given = dict(self.d.certify_box or {})
        for v in self.space.free:
            dom = v.domain
            if v.name in given:
                lo, hi = (float(x) for x in given[v.name])
            else:
                lo = float(dom.lower) if dom.lower.is_finite else -5.0
                hi = float(dom.upper) if dom.upper.is_finite else 5.0
                if dom.lower.is_finite and dom.lower_open:
                    lo = lo + 1e-6 * max(1.0, abs(lo))
                if dom.upper.is_finite and dom.upper_open:
                    hi = hi - 1e-6 * max(1.0, abs(hi))
            covers = (
                dom.lower.is_finite
                and dom.upper.is_finite
                and lo <= float(dom.lower)
                and hi >= float(dom.upper)
            )
            whole = whole and covers
            names.append(v.name)
            lows.append(lo)
            highs.append(hi)
        integer = tuple(v.domain.kind == "integer" for v in self.space.free)
        return Box(tuple(names), tuple(lows), tuple(highs), integer), whole

    def _certify(
        self, lhs: sp.Expr, rel: Relation, rhs: sp.Expr, verdict: Verdict, evidence: str
    ) -> tuple[Verdict, str]:
        """Try to upgrade a numerically checked inequality to ``certified`` on a box."""
        (step,) = fact_from_relation(rel.make(lhs, rhs), "step")
        residual, strict = step.expr, step.strict
        hyps = [
            (f.expr, f.strict)
            for h in self.space.inequalities
            for f in fact_from_relation(h, "hypothesis")
        ]
        box, whole = self.certification_box
        try:
            cert = certify(residual, strict, self.space.free_symbols, box, hyps)
            if cert.status == "gave up":
                # A checked rewrite: divide out eps^k > 0 (a residual touching zero at a
                # box's end cannot be separated from zero by enclosures otherwise).
                factor, rest = leading_factor(residual, self.space.free_symbols)
                if factor != 1:
                    again = certify(rest, strict, self.space.free_symbols, box, hyps)
                    if again.status != "gave up":
                        cert = dataclasses.replace(
                            again,
                            detail=(again.detail + "; " if again.detail else "")
                            + f"after dividing the residual by {factor} > 0 (checked rewrite)",
                        )
        except (Unsupported, TypeError, ValueError, ZeroDivisionError) as exc:
            return verdict, evidence + f"; not certifiable ({str(exc)[:80]})"
        if cert.status == "certified":
            beyond = "" if whole else "; beyond that box " + evidence
            return Verdict.CERTIFIED, cert.describe() + beyond
        if cert.status == "refuted":
            # Rigorous, but the numeric search saw nothing: say so rather than hide it.
            return Verdict.REFUTED, f"{cert.describe()} at {cert.point}; numeric: {evidence}"
        return verdict, evidence + "; " + cert.describe()

    def full_point(self, point: Point) -> dict[str, Any]:
        """All variables and definitions at a point, as mpmath numbers."""
        out: dict[str, Any] = dict(
            zip((v.name for v in self.space.free), point.values, strict=True)
        )
        if self.space.solved:
            values = evaluate(self._display_fn, point.values, self.options.dps)  # type: ignore[arg-type]
            out.update({v.name: x for (v, _), x in zip(self.space.solved, values, strict=True)})
        if self._defs_fn is not None:
            values = evaluate(self._defs_fn, point.values, self.options.dps)
            out.update({sym.name: x for (sym, _), x in zip(self.d.defs, values, strict=True)})
        return out

    def run_oracle(self) -> OracleResult | None:
        oracle = self.d.oracle
        if oracle is None or not self.options.oracle:
            return None
        # Half random points, half on hypothesis boundaries, where a wrong constant shows.
        random_pts = [p for p in self.points if p.origin == "random"]
        boundary = [p for p in self.points if p.origin == "boundary"]
        half = oracle.points // 2
        chosen = boundary[:half] + random_pts[: oracle.points - min(half, len(boundary))]
        agreed, undecided = 0, 0
        notes: list[str] = []
        closest: tuple[float, str] | None = None
        for p in chosen:
            try:
                values = self.full_point(p)
            except EvaluationError:
                undecided += 1
                continue
            try:
                with mpmath.workdps(self.options.dps):
                    outcome = oracle.check(values)
            except (DpderiveError, ArithmeticError, ValueError) as exc:
                # An oracle that cannot compute at a point decides nothing there.
                undecided += 1
                notes.append(f"{type(exc).__name__}: {exc}")
                continue
            if outcome.ok is False:
                shown = {k: fmt(v) for k, v in values.items()}
                return OracleResult(
                    oracle.name, oracle.description, False, agreed + 1, outcome.detail, shown
                )
            if outcome.ok:
                agreed += 1
                if outcome.closeness is not None and (
                    closest is None or outcome.closeness > closest[0]
                ):
                    at = ", ".join(
                        f"{v.name}={fmt(x)}" for v, x in zip(self.space.free, p.values, strict=True)
                    )
                    closest = (outcome.closeness, f"{outcome.detail} (at {at})")
            else:
                undecided += 1
        detail = f"agrees at {agreed} points"
        if undecided:
            detail += f"; could not decide at {undecided}"
            if notes:
                detail += f" (e.g. {notes[0][:120]})"
        return OracleResult(
            oracle.name,
            oracle.description,
            True if agreed else None,
            agreed + undecided,
            detail,
            closest=closest[1] if closest else None,
        )


def check_derivation(d: Derivation, options: CheckOptions | None = None) -> DerivationReport:
    """Check every link, the conclusion and the oracle of ``d``."""
    options = options or CheckOptions()
    started = time.perf_counter()
    checker = Checker(d, options)
    steps = tuple(
        checker.check_link(i + 1, left, rel, right, j.text)
        for i, (left, rel, right, j) in enumerate(d.links())
    )
    chain_verdict = weakest(s.verdict for s in steps)
    conclusion = checker.check_link(
        0,
        d.claim.lhs,
        d.claim.relation,
        d.claim.rhs,
        "the theorem's conclusion, checked on its own",
    )
    if conclusion.verdict is not Verdict.REFUTED and chain_verdict.rank > conclusion.verdict.rank:
        # The chain's relations compose to the claim (checked at construction), so the
        # conclusion is as strong as its weakest link.
        conclusion = StepResult(
            **{
                **conclusion.__dict__,
                "verdict": chain_verdict,
                "evidence": f"follows from the chain ({chain_verdict.value}); "
                f"conclusion also {conclusion.evidence}",
            }
        )
    oracle = checker.run_oracle()
    verdicts = [s.verdict for s in steps] + [conclusion.verdict]
    if oracle is not None and oracle.agrees is False:
        verdicts.append(Verdict.REFUTED)
    notes = [f"checked in {time.perf_counter() - started:.2f} s with seed {options.seed}"]
    if checker.space.solved:
        notes.append(
            "equality hypotheses solved for: "
            + ", ".join(f"{v.name} = {e}" for v, e in checker.space.solved)
        )
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
