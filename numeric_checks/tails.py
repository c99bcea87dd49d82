"""Whole domains, not boxes: a step certified on a bounded box is shown on the rest of its
domain by proofs of the regions outside the box.

The certifier (:mod:`numeric_checks.certify`) works on a bounded box; a variable on
``[0, oo)`` gets the side ``[0, 5]`` and an open end ``(0, ...`` is cut at ``1e-6``.  What the
box leaves out is a finite union of regions, one per uncovered end of a side: ``x >= X`` for
an infinite upper end (``x <= -X`` for a lower one), ``x <= 1e-6`` for a cut open end, each
with every other variable ranging over its whole domain.  The domain (with its hypotheses)
is the box's part plus these regions, so the step holds on all of it when the box is
certified and the step is *proved* on each region by the rules (derivative rule, decision
procedure and the rest, :func:`symbolic.rules.prove_relation`) under the declared facts plus
the region's bound as one more hypothesis.  Nothing here is numeric: a region no rule proves
leaves the step ``certified`` on its box only (``checked`` beyond it), as before.

The end ``X`` of an infinite side is chosen on a ladder (the box's own end, then 10, 100,
1000): the first rung whose tail is proved.  A rung beyond the box's end widens the box, which
is certified again; if that fails the step keeps its first certificate.  The search is capped
by a count of rule searches (:data:`MAX_ATTEMPTS`, with a wall-clock guard): it runs only for
small steps no rule proved on the whole domain, and each failing attempt is a failing rule
search.

One more region where the certifier itself is stuck: a one-variable residual that vanishes
at an end of the box (``sqrt(x) - log(1 + x)`` at 0) is a tangency Arb cannot split down to;
the edge ``x <= w`` (``w`` a share of the side, :data:`EDGE_SHARES`) is proved by the rules
instead and the box cut back to ``[w, ...]``, certified again.

The verdict stays ``certified``, not ``proved``: part of the domain rests on interval
arithmetic, which is what ``certified`` names (``shared/DESIGN.md``).  The certificate now
covers the whole domain (``whole_domain``), so the step is not ``checked`` anywhere.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

import sympy as sp

from numeric_checks.certify import Box, Certificate, certify_residual
from symbolic.binary_rationals import exact_rational
from symbolic.domains import Variable
from symbolic.exact_numbers import compare
from symbolic.relations import Relation
from symbolic.report import CertificateRecord, CertificateStatus, TailProof
from symbolic.rules import Context, Fact, prove_relation
from symbolic.side_conditions import defined_on, undischarged

__all__ = [
    "LADDER",
    "MAX_ATTEMPTS",
    "MAX_OPS",
    "MAX_VARIABLES",
    "SECONDS",
    "Region",
    "prove_tails",
    "regions",
]

LADDER = (10.0, 100.0, 1000.0)
"""Ends of an infinite side tried after the box's own end."""
MAX_VARIABLES = 2
MAX_OPS = 40
"""The steps whose tails are tried: a user's one-line inequality (the 42 claims of the test
suite have at most 14 operations in 2 variables).  The catalog's certified steps have 3 or
4 variables and 20 to 60 operations, where a failing rule search costs seconds per rung."""
MAX_ATTEMPTS = 8
"""Rule searches per step (over all regions and rungs): the cost cap, counted so that the
outcome does not depend on the machine's load."""
SECONDS = 60.0
"""A last-resort guard of the tail search of one step, in CPU seconds (so that it does not
depend on the machine's load): a rung not started by then is not tried (it can only leave
the step on its box, never make it stronger)."""


@dataclass(frozen=True)
class Region:
    """One end of side ``index`` left out of the box: ``upper`` says which end; ``ends`` are
    the candidate box ends (the region is ``x >= end`` or ``x <= end``)."""

    index: int
    name: str
    upper: bool
    ends: tuple[float, ...]
    inner: bool = False
    """An edge of the box itself (where the certifier is stuck at a tangency): the box is
    cut back to the region's end instead of widened to it."""

    def fact(self, symbol: sp.Symbol, end: float) -> Fact:
        expr = symbol - self.bound(end) if self.upper else self.bound(end) - symbol
        return Fact(expr, False, self.text(end))

    def bound(self, end: float) -> sp.Rational:
        """The region's bound as a rational: the decimal a reader wrote (``1/1000000`` for
        the float ``1e-06``) where it still reaches the box (no gap between them), else the
        float's exact value."""
        exact = exact_rational(end)
        nice = sp.Rational(repr(end))
        return nice if (nice <= exact if self.upper else nice >= exact) else exact

    def text(self, end: float) -> str:
        return f"{self.name} {'>=' if self.upper else '<='} {end:.6g}"


def regions(variables: Sequence[Variable], box: Box) -> list[Region] | None:
    """The regions of the domain outside ``box`` (empty if it covers the domain); None
    where the box does not start at a domain's finite end (a box the derivation chose,
    inside its domain: its gaps are not tails)."""
    out: list[Region] = []
    for i, v in enumerate(variables):
        dom, lo, hi = v.domain, box.lows[i], box.highs[i]
        if dom.upper.is_infinite:
            out.append(Region(i, v.name, True, (hi, *(x for x in LADDER if x > hi))))
        elif compare(sp.Rational(hi), dom.upper) in (-1, None):  # the box stops short
            if not dom.upper_open:
                return None
            out.append(Region(i, v.name, True, (hi,)))
        if dom.lower.is_infinite:
            out.append(Region(i, v.name, False, (lo, *(-x for x in LADDER if -x < lo))))
        elif compare(sp.Rational(lo), dom.lower) in (1, None):
            if not dom.lower_open:
                return None
            out.append(Region(i, v.name, False, (lo,)))
    return out


EDGE_SHARES = (1 / 64, 1 / 8, 1 / 2)
"""Widths of an edge region, as shares of the box's side."""


def touching_edge(residual: sp.Expr, symbols: Sequence[sp.Symbol], box: Box) -> Region | None:
    """Where a one-variable residual vanishes at an end of the box (``sqrt(x) - log(1 + x)``
    at ``x = 0``), the certifier cannot split down to the tangency: the region between that
    end and a point inside (``x <= 5/64``) is proved instead, and the box cut back to it."""
    if len(symbols) != 1 or residual.has(sp.Sum, sp.Integral, sp.Product):
        # A residual with sums or integrals: simplify at the end would integrate them
        # numerically (minutes for a discrete Gaussian at sigma = 10^6), to decide nothing.
        return None
    (x,), lo, hi = symbols, box.lows[0], box.highs[0]
    for upper, end in ((False, lo), (True, hi)):
        try:
            value = sp.simplify(residual.subs(x, exact_rational(end)))
        except (TypeError, ValueError, ZeroDivisionError):
            continue
        if value == 0:
            ends = tuple(hi - w * (hi - lo) if upper else lo + w * (hi - lo) for w in EDGE_SHARES)
            return Region(0, x.name, upper, ends, inner=True)
    return None


def prove_tails(
    lhs: sp.Expr,
    relation: Relation,
    rhs: sp.Expr,
    *,
    variables: Sequence[Variable],
    symbols: Sequence[sp.Symbol],
    context: Context,
    box: Box,
    cert: Certificate,
    residual: sp.Expr,
    strict: bool,
    hypotheses: Sequence[tuple[sp.Expr, bool]],
    seconds: float = SECONDS,
) -> CertificateRecord | None:
    """A whole-domain certificate from ``cert`` (certified on ``box``) and a proof of every
    region outside the box, or None where some region is not proved (or the widened box
    is not certified)."""
    if cert.status is CertificateStatus.REFUTED or len(variables) != len(symbols):
        return None
    if len(symbols) > MAX_VARIABLES or sp.count_ops(residual) > MAX_OPS:
        return None
    found = regions(variables, box)
    if found is None:
        return None
    if cert.status is not CertificateStatus.CERTIFIED:
        edge = touching_edge(residual, symbols, box)
        if edge is None:
            return None
        # The edge region reaches the domain's end: the sliver beyond the box is in it.
        found = [r for r in found if (r.index, r.upper) != (edge.index, edge.upper)] + [edge]
    if not found:
        return None
    started = time.process_time()
    lows, highs = list(box.lows), list(box.highs)
    tails: list[TailProof] = []
    attempts = 0
    for region in found:
        proof = None
        for end in region.ends:
            attempts += 1
            if attempts > MAX_ATTEMPTS or time.process_time() - started > seconds:
                return None
            fact = region.fact(symbols[region.index], end)
            try:
                facts = [*context.facts, fact]
                proof = prove_relation(lhs, relation, rhs, Context(facts))
                if proof is not None and undischarged(defined_on(facts, lhs, rhs)):
                    proof = None  # shown only where the sides are defined on the region
            except (TypeError, ValueError, RecursionError, NotImplementedError, AttributeError):
                proof = None  # a crash in a rule proves nothing
            if proof is not None:
                tails.append(TailProof(region.text(end), proof))
                i = region.index
                if region.inner:
                    highs[i], lows[i] = (end, lows[i]) if region.upper else (highs[i], end)
                elif region.upper:
                    highs[i] = max(highs[i], end)
                else:
                    lows[i] = min(lows[i], end)
                break
        if proof is None:
            return None
    core = replace(box, lows=tuple(lows), highs=tuple(highs))
    if core != box:
        cert = certify_residual(residual, strict, symbols, core, hypotheses)
        if cert.status is not CertificateStatus.CERTIFIED:
            return None
    return replace(cert.record(whole_domain=True), tails=tuple(tails))
