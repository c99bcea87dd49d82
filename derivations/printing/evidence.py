"""Every evidence sentence, from the records (issue 42: the engine decides and records, this
module words).

A step's evidence is its decision record (:mod:`symbolic.evidence`) worded here, with the
records it rests on: the sample (:func:`numeric`), a counterexample (:func:`counterexample`),
a referee's ruling (:func:`confirmation`), a certificate (:func:`certificate`).  Each record
has a sentence (:func:`sentence`, the ``evidence``) and a few words (:func:`head`, the first
clause of the evidence, for the short line of a report); both are registered with
:mod:`symbolic.notebook` under the private formats :data:`~symbolic.evidence.EVIDENCE` and
:data:`~symbolic.evidence.HEAD`, which is how a step's record asks for its words without
importing the printers.
"""

from __future__ import annotations

import functools

from derivations.printing.records import (
    certificate,
    certificate_head,
    confirmation,
    counterexample,
    counterexample_head,
    how,
    nearest,
    numeric,
    numeric_head,
    reliance,
    tail,
    worst_margin,
)
from numeric_checks.general.instances import where
from symbolic.evidence import (
    EVIDENCE,
    HEAD,
    ArbRefuted,
    AtLengths,
    BoxHoldsSuspect,
    BoxOnly,
    Certified,
    Chain,
    Confirmed,
    Conflict,
    EveryLength,
    Family,
    FewPoints,
    Grounds,
    GroundsKind,
    Headline,
    Identity,
    InCases,
    InstanceRefuted,
    NoProof,
    Obstacle,
    ObstacleKind,
    ProvedSpot,
    Said,
    Sampled,
    Split,
    Spotted,
    Step,
    Suspected,
    Unconfirmed,
    WithCertificate,
)
from symbolic.notebook import register
from symbolic.report import (
    CertificateRecord,
    Counterexample,
    NumericEvidence,
    RefereeRecord,
    Reliance,
    TailProof,
)
from symbolic.verdicts import Verdict

__all__ = ["head", "lens", "sentence"]


# The decisions: a sentence and a head per kind.


@functools.singledispatch
def sentence(record: object) -> str:
    """The evidence sentence of ``record``."""
    raise TypeError(f"no evidence sentence for {type(record).__name__}")


@functools.singledispatch
def head(record: object) -> str:
    """The decision of ``record`` in a few words (the first clause of its sentence)."""
    return ""


@sentence.register
def _(record: str) -> str:
    return record  # a sentence given as is (a record built by hand)


sentence.register(Counterexample, counterexample)
sentence.register(NumericEvidence, numeric)
sentence.register(CertificateRecord, certificate)
sentence.register(RefereeRecord, confirmation)
sentence.register(Reliance, reliance)
sentence.register(TailProof, tail)
head.register(Counterexample, counterexample_head)
head.register(NumericEvidence, numeric_head)
head.register(CertificateRecord, certificate_head)


def _unconfirmed(u: Unconfirmed) -> str:
    at = sentence(u.at)
    ruling = u.ruling
    if ruling is not None and u.dismissed:
        return (
            f"evaluator failure: a sampled violation {at} is not one (the relation "
            f"holds there, shown {how(ruling)}: {ruling.detail})"
        )
    if ruling is not None and ruling.confirmed is False:
        why = (
            f"its re-evaluation {how(ruling)} finds the relation holds there "
            f"({ruling.detail}), which is no proved bound either"
        )
    elif ruling is not None and ruling.detail:
        why = ruling.detail
    else:
        why = "no rigorous referee ran"
    lead = "sampled violation" if u.seen else "suspect point"
    text = f"{lead} {at}: could not be confirmed because {why}"
    if u.evalf is not None and u.evalf.confirmed is False:
        text += "; the violation dissolved under SymPy's adaptive-precision evalf"
    return text


sentence.register(Unconfirmed, _unconfirmed)


@sentence.register
def _(s: Spotted) -> str:
    text = sentence(s.at)
    return text + (f"; {confirmation(s.confirmed_by)}" if s.confirmed_by else "")


@sentence.register
def _(c: Conflict) -> str:
    ref = c.referee
    said = "fails" if ref.confirmed else "holds"
    return (
        f"engine inconsistency: two routes disagree at {counterexample(c.at)}: "
        f"{how(ref)} the relation {said} there ({ref.detail}), but {ref.conflict}"
    )


@head.register
def _(c: Conflict) -> str:
    return f"engine inconsistency: two routes disagree at {counterexample_head(c.at)}"


@sentence.register
def _(c: Confirmed) -> str:
    text = f"counterexample {counterexample(c.at)}; {confirmation(c.ruling)}"
    if c.claimed:
        text += f" [engine inconsistency: rules claimed a proof: {c.claimed}]"
    return text


@head.register
def _(c: Confirmed) -> str:
    return f"counterexample {counterexample_head(c.at)}"


@sentence.register
def _(p: ProvedSpot) -> str:
    text = f"{p.trace}; spot-checked on {numeric(p.numeric)}"
    return text + (f"; {sentence(p.note)}" if p.note is not None else "")


@head.register
def _(p: ProvedSpot) -> str:
    return p.trace


@sentence.register
def _(f: FewPoints) -> str:
    return (
        f"only {f.points} distinct defined point(s) were evaluated, fewer than the "
        f"{f.minimum} a checked verdict needs"
    )


@sentence.register
def _(s: Sampled) -> str:
    if s.note is not None:
        text = f"numeric only: {numeric(s.numeric)}; {sentence(s.note)}"
    else:
        text = f"numeric only, no counterexample: {numeric(s.numeric)}"
    return text + (f"; {sentence(s.few)}" if s.few is not None else "")


@head.register
def _(s: Sampled) -> str:
    lead = "numeric only" if s.note is not None else "numeric only, no counterexample"
    return f"{lead}: {numeric_head(s.numeric)}"


@sentence.register
def _(s: Suspected) -> str:
    return (
        f"a violation was seen and not confirmed: {sentence(s.note)}; numeric: {numeric(s.numeric)}"
    )


@head.register
def _(s: Suspected) -> str:
    return f"a violation was seen and not confirmed: suspect point {counterexample_head(s.at)}"


@sentence.register
def _(n: NoProof) -> str:
    if n.budget_spent:
        text = f"budget spent: no symbolic proof; numeric so far: {numeric(n.numeric)}"
    else:
        text = f"no symbolic proof; numeric: {numeric(n.numeric)}"
    if n.ties:
        text += f"; {n.ties} point(s) tie and exactness was not shown"
    return text


@head.register
def _(n: NoProof) -> str:
    return "budget spent: no symbolic proof" if n.budget_spent else "no symbolic proof"


@sentence.register
def _(b: BoxHoldsSuspect) -> str:
    return (
        f"numeric only: {numeric(b.numeric)}; evaluator failure: the certificate's box holds "
        f"the {sentence(b.note)}, so the relation holds there"
    )


@head.register
def _(b: BoxHoldsSuspect) -> str:
    return f"numeric only: {numeric_head(b.numeric)}"


@sentence.register
def _(c: Certified) -> str:
    return certificate(c.certificate)


@head.register
def _(c: Certified) -> str:
    return certificate_head(c.certificate)


@sentence.register
def _(b: BoxOnly) -> str:
    return (
        f"{sentence(b.before)}; {certificate(b.certificate)}, which is not the whole domain: "
        "beyond that box only the sampling speaks, so the step is checked"
    )


@sentence.register
def _(a: ArbRefuted) -> str:
    cert = a.certificate
    point = dict(cert.point) if cert.point is not None else None
    return (
        f"{certificate(cert)} at {point} (confirmed by Arb: the residual's ball and every "
        f"hypothesis are decided rigorously on the box there); numeric: {sentence(a.before)}"
    )


@head.register
def _(a: ArbRefuted) -> str:
    cert = a.certificate
    point = dict(cert.point) if cert.point is not None else None
    return f"{certificate_head(cert)} at {point}"


@sentence.register
def _(w: WithCertificate) -> str:
    return f"{sentence(w.before)}; {certificate(w.certificate)}"


@head.register(BoxOnly)
@head.register(WithCertificate)
def _(w: BoxOnly | WithCertificate) -> str:
    return head(w.before)


# What a step rests on beyond its own check.


@sentence.register
def _(g: Grounds) -> str:
    if g.kind is GroundsKind.LEMMA:
        state = g.verdict.value if g.verdict else "not checked here"
        return f"rests on {g.ref} ({state})"
    if g.kind is GroundsKind.CITE:
        return f"rests on an external result, unchecked: {g.ref}"
    if g.kind is GroundsKind.FOUNDATION:
        return f"rests on the named foundation {g.ref}"
    cited = ", ".join(g.rules)
    if g.kind is GroundsKind.NOT_PROVED:
        return f"the cited rule(s) ({cited}) did not prove it symbolically"
    if g.kind is GroundsKind.CITED_RULES:
        return f"proved by the cited rule(s): {cited}"
    return f"proved another way than the cited rule(s) {cited}"


# What stands between a step and a proof.

_OBSTACLES = {
    ObstacleKind.EQUALITY: "no tactic reduced it, and certification encloses inequalities only",
    ObstacleKind.NOT_CERTIFIED: "no rule proved it and it was not certified",
    ObstacleKind.CERTIFICATE_SHORT: (
        "no rule proved it and the certificate does not cover the domain"
    ),
    ObstacleKind.GENERAL: (
        "no rule proved the general link (an instance's proof or certificate is not the "
        "statement for every length)"
    ),
}


@head.register
def _(o: Obstacle) -> str:
    if o.kind is ObstacleKind.CONDITIONAL:
        (where_,) = o.names
        return (
            f"proved only where {where_} ({o.conditional}), which is not shown on the whole domain"
        )
    if o.kind is ObstacleKind.OPAQUE:
        verb = "is" if len(o.names) == 1 else "are"
        return f"{', '.join(o.names)} {verb} computed numerically"
    return _OBSTACLES[o.kind]


@sentence.register
def _(o: Obstacle) -> str:
    if o.kind is ObstacleKind.OPAQUE:
        return f"{head(o)}, with no symbolic form the tactics reduce and no Arb enclosure"
    return head(o)


# A step, and the decisions composed from other steps'.


@sentence.register
def _(i: Identity) -> str:
    return f"the hypothesis {i.hypothesis} holds identically once the definitions are substituted"


@sentence.register
def _(s: Step) -> str:
    text = sentence(s.decision)
    if s.obstacle is not None:
        text += f"; why not proved: {sentence(s.obstacle)}"
    notes = [sentence(i) for i in s.identities] + list(s.notes)
    if notes:
        text += "; " + "; ".join(notes)
    return text + (f"\n{s.table}" if s.table else "")


@head.register
def _(s: Step) -> str:
    return head(s.decision)


@sentence.register
def _(h: Headline) -> str:
    return head(h.of)


@head.register
def _(h: Headline) -> str:
    return head(h.of)


@sentence.register
def _(s: Split) -> str:
    text = f"by cases on {s.equality} ({s.variable} is given {s.how})"
    return text + (f"; impossible: {', '.join(s.empty)}" if s.empty else "")


@sentence.register
def _(c: InCases) -> str:
    parts = [f"case {label}: {o.verdict.value}: {sentence(o.said)}" for label, o in c.cases]
    return f"{sentence(c.split)}: " + "; ".join(parts)


@head.register
def _(c: InCases) -> str:
    return head(c.cases[c.base][1].said)


_HOW = {
    Verdict.PROVED: "every step is proved",
    Verdict.CERTIFIED: "every step is proved or certified",
}


def _chain_how(c: Chain) -> str:
    return _HOW.get(c.chain, f"its weakest step is {c.chain.value}")


def _on_its_own(own: Said | str) -> str:
    """What the conclusion's own check found, in the words of its decision: sampling's
    decision reads "sampled on its own", general mode's "checked on its own at"."""
    text = sentence(own)
    first = own
    while isinstance(first, (Step, BoxOnly, WithCertificate, Headline)):
        first = {
            Step: lambda r: r.decision,
            Headline: lambda r: r.of,
        }.get(type(first), lambda r: r.before)(first)
    if isinstance(first, (Sampled, BoxHoldsSuspect)):
        return "sampled on its own" + text.removeprefix("numeric only")
    if isinstance(first, EveryLength) and first.kind is Family.CHECKED:
        return "checked on its own at " + text.removeprefix("checked at ")
    return "on its own: " + text


@sentence.register
def _(c: Chain) -> str:
    return f"follows from the chain: {_chain_how(c)}; also {_on_its_own(c.own)}"


@head.register
def _(c: Chain) -> str:
    return f"follows from the chain: {_chain_how(c)}"


@sentence.register
def _(r: InstanceRefuted) -> str:
    return f"refuted at {where(r.lengths)}: {sentence(r.instance)}"


@head.register
def _(r: InstanceRefuted) -> str:
    return f"refuted at {where(r.lengths)}: {head(r.instance)}"


def _instances(e: EveryLength) -> str:
    return f"numeric checks at {e.covered} ({e.per} points or more each) found no violation"


def _numerics(e: EveryLength) -> str:
    text = _instances(e)
    if e.suspect is not None:
        text += f"; a suspect point {sentence(e.suspect)}"
    if e.undecided:
        text += f"; undecided at {'; '.join(where(x) for x in e.undecided)}"
    return text


def _every_length_lead(e: EveryLength) -> str:
    if e.kind is Family.PROVED:
        return f"proved for every length by {e.trace}"
    if e.kind is Family.SUSPECT:
        return "a violation was seen and not confirmed"
    if e.kind is Family.FEW:
        return (
            f"only {e.checked_points} defined point(s) over every length, fewer than the "
            f"{e.minimum} a checked verdict needs"
        )
    if e.kind is Family.CHECKED:
        return f"checked at {e.covered} ({e.per} points or more each)"
    return "not proved for every length, and no instance decided it"


@sentence.register
def _(e: EveryLength) -> str:
    lead = _every_length_lead(e)
    if e.kind is Family.PROVED:
        return f"{lead}; {_numerics(e)}"
    if e.kind is Family.CHECKED:
        text = f"{lead}; why not proved: {sentence(Obstacle(ObstacleKind.GENERAL))}"
        return text + (f"; {_numerics(e)}" if e.undecided else "")
    return f"{lead} ({_numerics(e)})"


@head.register
def _(e: EveryLength) -> str:
    lead = _every_length_lead(e)
    if e.kind in (Family.PROVED, Family.CHECKED):
        return lead
    return f"{lead} ({_instances(e)})"


@sentence.register
def _(a: AtLengths) -> str:
    return f"at {where(a.lengths)}: {sentence(a.inner)}"


# The fields of a step's record that read its evidence record: each follows the record a
# step's fields came from (a case split's weakest case, a conclusion's own check).


def lens(said: Said | str, field: str) -> str:
    """``case_split``, ``chain`` or ``instances`` of a step whose evidence is ``said``."""
    if isinstance(said, Step):
        return lens(said.decision, field)
    if isinstance(said, InCases):
        if field == "case_split":
            return f"by cases on {said.split.equality}"
        return lens(said.cases[said.base][1].said, field)
    if isinstance(said, Chain):
        return _chain_how(said) if field == "chain" else lens(said.was, field)
    if isinstance(said, EveryLength) and field == "instances":
        return _instances(said)
    return ""


register(NumericEvidence, "text/x-worst-margin", worst_margin)
register(NumericEvidence, "text/x-nearest", nearest)
register(Said, EVIDENCE, sentence)
register(Said, HEAD, head)
for _cls in (
    Counterexample,
    NumericEvidence,
    CertificateRecord,
    RefereeRecord,
    Reliance,
    TailProof,
):
    register(_cls, EVIDENCE, sentence)
register(Said, "text/x-case-split", lambda s: lens(s, "case_split"))
register(Said, "text/x-chain", lambda s: lens(s, "chain"))
register(Said, "text/x-instances", lambda s: lens(s, "instances"))
