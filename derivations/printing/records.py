"""The stage records in words: the sample (:func:`numeric`, its margin and the point
nearest to failing), a counterexample, a certificate and the regions outside its box, a
referee's ruling, a reliance (issue 42: the engine records, the printing layer words).
:mod:`derivations.printing.evidence` composes them into a step's evidence."""

from __future__ import annotations

from derivations.printing.wording import nearest_to_failing
from symbolic.report import (
    CertificateRecord,
    CertificateStatus,
    Counterexample,
    NumericEvidence,
    RefereeKind,
    RefereeRecord,
    Reliance,
    TailProof,
)

__all__ = [
    "certificate",
    "certificate_head",
    "confirmation",
    "counterexample",
    "counterexample_head",
    "how",
    "nearest",
    "numeric",
    "numeric_head",
    "reliance",
    "tail",
    "worst_margin",
]


def counterexample_head(c: Counterexample) -> str:
    """The point and both sides' values, without the note."""
    where_ = ", ".join(f"{k} = {v}" for k, v in c.point.items())
    at = f"at {where_}" if where_ else "(the claim has no variables)"
    return f"{at}: lhs = {c.lhs}, rhs = {c.rhs} ({c.digits} digits)"


def counterexample(c: Counterexample) -> str:
    return counterexample_head(c) + (f"; {c.note}" if c.note else "")


def numeric_head(n: NumericEvidence) -> str:
    """Points and digits (and the points skipped), without what they showed."""
    text = f"{n.points} points at {n.digits} digits"
    if n.undefined:
        text += f" ({n.undefined} points where a side is undefined were skipped)"
    return text


def worst_margin(n: NumericEvidence) -> str:
    """The sample's largest signed relative gap ("relative gap -0.0858")."""
    return f"relative gap {n.margin}" if n.margin else ""


def nearest(n: NumericEvidence) -> str:
    """The same in words ("nearest to failing: lhs is 8.58% below rhs"; see
    :func:`~derivations.printing.wording.nearest_to_failing`)."""
    if n.worst_margin_value is None:
        return ""
    return nearest_to_failing(n.worst_margin_value, n.relation, n.digits)


def numeric(n: NumericEvidence) -> str:
    """What the spot check saw."""
    text = numeric_head(n)
    if n.nearest:
        text += f"; {n.nearest}"
    elif n.worst_margin:
        text += f"; closest approach {n.worst_margin}"
    if n.stopped:
        text += f"; {n.stopped}: {n.tried} point(s) tried"
        if n.untried:
            text += f", {n.untried} not reached"
        if n.cost:
            text += f", {n.cost}"
        text += f", {n.seconds:.1f} s"
        if n.nearest_point:
            where_ = ", ".join(f"{k} = {v}" for k, v in n.nearest_point.items())
            text += f"; the point nearest to failing: {where_}"
    return text


def tail(t: TailProof) -> str:
    return f"{t.region} proved by {t.proof}"


def _sliver(c: CertificateRecord) -> bool:
    # A share that rounds to 100.0% is not the whole box: a reader took "gave up ...
    # 100.0% certified" for a contradiction, so what is left is said as what it is.
    fraction = c.certified_fraction
    return c.status is CertificateStatus.GAVE_UP and fraction is not None and fraction > 0.999


def certificate_head(c: CertificateRecord) -> str:
    """The status and the box, in one clause."""
    if c.status is CertificateStatus.NOT_CERTIFIABLE:
        return f"not certifiable ({c.detail})"
    lead = {
        CertificateStatus.CERTIFIED: "certified on",
        CertificateStatus.REFUTED: "refuted by Arb on",
        CertificateStatus.GAVE_UP: "certification gave up on",
    }[c.status]
    if _sliver(c):
        lead = "certification stopped just short of"
    box = ", ".join(f"{n} in [{lo:.6g}, {hi:.6g}]" for n, (lo, hi) in c.box.items())
    if c.status is CertificateStatus.CERTIFIED and c.tails:
        return (
            f"certified on the whole domain: box {box} certified by Arb ({c.boxes} "
            f"boxes, {c.seconds:.2f} s, {c.bits} bits)"
        )
    return f"{lead} {box} ({c.boxes} boxes, {c.seconds:.2f} s, Arb at {c.bits} bits)"


def certificate(c: CertificateRecord) -> str:
    """What the certifier did, in full."""
    text = certificate_head(c)
    if c.status is CertificateStatus.NOT_CERTIFIABLE:
        return text
    fraction = c.certified_fraction
    sliver = _sliver(c)
    if c.status is CertificateStatus.CERTIFIED and c.tails:
        # Box and tails cover the domain: the step holds on all of it, and says by what.
        text += "; " + "; ".join(tail(t) for t in c.tails)
    if sliver and fraction is not None and 1 - fraction < 1e-12:
        # Boxes too thin to split (a tangency): no volume to speak of, but not shown.
        text += (
            "; all of the box certified except boxes too thin to split further (the "
            "step is not certified there)"
        )
    elif sliver and fraction is not None:
        text += (
            f"; all of the box's volume but {1 - fraction:.1e} certified (the step is "
            "not certified on the rest)"
        )
    elif c.status is CertificateStatus.GAVE_UP and fraction is not None:
        text += f"; {fraction:.1%} of the box's volume certified"
    return text + (f"; {c.detail}" if c.detail else "")


def how(r: RefereeRecord) -> str:
    """``exactly ...`` or ``by Arb at 128 bits``: how the ruling was reached."""
    return r.method if r.kind is RefereeKind.EXACT else f"by {r.method}"


def confirmation(r: RefereeRecord) -> str:
    """How a violation was confirmed, as the evidence says it."""
    return f"confirmed {how(r)}: {r.detail}"


def reliance(r: Reliance) -> str:
    """``Azuma 1967 (unchecked)``, ``kl-bound (proved)``."""
    return f"{r.ref} ({r.verdict})"
