"""A step's evidence in one short line; the full evidence stays in ``--verbose``, the JSON
(``evidence``) and the site's details panel.

The short line is built from the step's record, not cut from the long text at a character
count: how it was proved (the rule or tactic names of the trace, without the expressions
they were applied to), where it was certified, the counterexample that refutes it, or what
sampling saw and why no proof was found.

>>> from symbolic.evidence import ProvedSpot, Step
>>> from symbolic.report import NumericEvidence, StepResult
>>> from symbolic.verdicts import Verdict
>>> trace = "monotonicity of exp -> positive factor 1/b -> hypothesis Abs(x) <= D"
>>> step = StepResult(1, "a", "<=", "b", "", Verdict.PROVED,
...     Step(ProvedSpot(trace, NumericEvidence(9, 50))), symbolic=trace,
...     numeric=NumericEvidence(9, 50))
>>> step_summary(step)
'by monotonicity of exp -> positive factor -> hypothesis; spot-checked on 9 points'
"""

from __future__ import annotations

import re

from symbolic.report import CertificateStatus, Route, StepResult
from symbolic.verdicts import Verdict

__all__ = ["short_how", "step_summary"]

MAX_SUMMARY = 160
"""Characters a summary may reach before it is cut (with an ellipsis)."""

_WORD = re.compile(r"^[a-z][a-z'-]*,?$")
_NAMES = {"Phi", "PhiInv", "Arb", "Jensen", "Hoeffding", "Lagrange", "Taylor", "Gibbs"}
"""Capitalised words that name things in traces; any other capitalised word is a symbol."""
_DANGLING = {"over", "of", "on", "in", "the", "a", "an", "plus", "at", "by", "to", "for"}
"""Words a name does not end on: what followed them was an expression."""
_MAX_LINKS = 4
_DERIVATIVE_HEAD = re.compile(r"^((?:second-order )?derivative rule in \w+ on [^:]{1,40}):")
"""The head of a derivative rule's trace: the rule, the variable and the interval."""
_LINKS = re.compile(r"\s*->\s*")


def _depth_split(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` outside brackets."""
    parts: list[str] = []
    depth, start = 0, 0
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(depth - 1, 0)
        elif depth == 0 and text.startswith(sep, i):
            parts.append(text[start:i])
            start = i + len(sep)
            i += len(sep)
            continue
        i += 1
    parts.append(text[start:])
    return parts


def _words(piece: str) -> str:
    """The leading words of a trace piece, up to its first expression or bracket."""
    kept: list[str] = []
    for word in piece.split():
        bare = word.rstrip(",")
        if not (_WORD.match(word) or bare in _NAMES) or (len(bare) == 1 and kept):
            break
        kept.append(word)
    while kept and kept[-1].rstrip(",") in _DANGLING:
        kept.pop()
    text = " ".join(kept).rstrip(",")
    return text + " assumptions" if text.endswith("variables'") else text


def short_how(trace: str) -> str:
    """The names in a proof trace without the expressions they were applied to.

    >>> short_how("sum rules: linearity, sum hypothesis Sum p[i] = 1, termwise (x >= 0: y)")
    'sum rules: linearity, sum hypothesis, termwise'
    >>> short_how("tactic doit+rewrite(erf)+expand")
    'tactic doit+rewrite(erf)+expand'
    >>> short_how("decided by nonlinear real arithmetic (z3 nlsat): _exp2 >= 0; from x")
    'decided by nonlinear real arithmetic'
    >>> short_how("derivative rule in x on (0, oo): as x -> oo, the limit 0 >= 0 (0 >= 0)")
    'derivative rule in x on (0, oo)'
    """
    trace = trace.split("; ")[0].split(" in the defined symbols")[0].strip()
    if trace.startswith("tactic ") or trace.startswith("identical"):
        return trace
    derivative = _DERIVATIVE_HEAD.match(trace)
    if derivative:
        # "as x -> oo" in its subgoals is no link of a chain: the rule, its variable and
        # interval say how it was proved.
        return derivative.group(1)
    links: list[str] = []
    for link in _LINKS.split(trace):
        head, _, rest = link.partition(": ")
        name = _words(head)
        if not name:
            continue
        items = [w for w in (_words(x) for x in _depth_split(rest, ", ")) if w] if rest else []
        link_text = f"{name}: {', '.join(items)}" if items else name
        if not links or links[-1] != link_text:
            links.append(link_text)
    if len(links) > _MAX_LINKS:
        links = [*links[:_MAX_LINKS], "…"]
    return " -> ".join(links) or trace[:60]


def _cut(text: str) -> str:
    return text if len(text) <= MAX_SUMMARY else text[: MAX_SUMMARY - 1].rstrip() + "…"


def _numbers(s: StepResult) -> str:
    if s.numeric is None:
        return ""
    return f"{s.numeric.points} points"


def _cases_summary(s: StepResult) -> str:
    """A step checked by cases (:mod:`numeric_checks.cases`): the split and each case's
    verdict, then the refuting counterexample if there is one."""
    verdicts = ", ".join(f"{c.label} {c.verdict.value}" for c in s.cases)
    line = f"{s.case_split}: {verdicts}"
    cex = s.counterexample
    if s.verdict is Verdict.REFUTED and cex is not None:
        where = ", ".join(f"{k} = {v}" for k, v in cex.point.items())
        line += f"; counterexample at {where}"
    return line


def step_summary(s: StepResult) -> str:
    """One short line of what decided ``s`` (see the module's doc), from its record's
    fields: the route, the decision's head, why it is not proved, a family's table."""
    if s.route is Route.CASES:
        return _cut(_cases_summary(s))
    if s.route is Route.CHAIN:
        return _cut(s.head)
    if s.verdict is Verdict.REFUTED:
        # A counterexample family's table is kept whole: it is what a reader needs to see
        # the failure.
        cex = s.counterexample
        if cex is not None:
            where = ", ".join(f"{k} = {v}" for k, v in cex.point.items())
            at = f"at {where}" if where else "(the claim has no variables)"
            line = f"counterexample {at}: lhs = {cex.lhs}, rhs = {cex.rhs}"
        else:
            line = s.head
        return _cut(line) + (f"\n{s.table}" if s.table else "")
    if s.verdict is Verdict.PROVED:
        general = "for every length " if s.route is Route.EVERY_LENGTH else ""
        how = short_how(s.symbolic) if s.symbolic else s.head
        checked = _numbers(s)
        tail = f"; spot-checked on {checked}" if checked else ""
        if general:
            # One instance's count would misstate it: the lengths checked are what counts.
            tail = f"; {s.instances}" if s.instances else ""
        by = "" if how.startswith(("identical", "decided", "proved")) else "by "
        return _cut(f"{general}{by}{how}{tail}")
    if s.verdict is Verdict.CERTIFIED:
        cert = s.certificate
        if cert is not None and cert.status is CertificateStatus.CERTIFIED:
            if cert.whole_domain:
                return "by Arb on the whole domain (a box, and its outside proved)"
            box = ", ".join(f"{n} in [{lo:.3g}, {hi:.3g}]" for n, (lo, hi) in cert.box.items())
            return _cut(f"by Arb on {box}; sampled beyond that box")
        return _cut(s.head)
    if s.verdict is Verdict.CHECKED:
        nearest = s.numeric.nearest if s.numeric is not None else ""
        why = s.why_short
        parts = [s.head] + ([nearest] if nearest else []) + ([f"not proved: {why}"] if why else [])
        return _cut("; ".join(parts))
    return _cut(s.head)
