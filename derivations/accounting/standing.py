"""Where the catalog stands on each theorem ``dpderive account`` uses: its verdict and basis
as ``dpderive check --all --seed 0`` reports them (recorded here, so that an account does not
re-check the catalog each time; ``tests/test_account_catalog.py`` checks the record against
a fresh check of the catalog, and ``account --recheck`` checks the ids live instead).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Standing:
    """A catalog theorem's verdict and basis, and what it rests on beyond the catalog's
    lemmas (foundations and cited results, as ``Reliance.describe`` words them)."""

    id: str
    verdict: str
    basis: str
    rests_on: tuple[str, ...] = ()
    source: str = "recorded"

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "verdict": self.verdict,
            "basis": self.basis,
            "rests_on": list(self.rests_on),
            "standing": self.source,
        }

    def describe(self) -> str:
        rest = f": {', '.join(self.rests_on)}" if self.rests_on else ""
        return f"{self.id} ({self.verdict}, {self.basis}{rest})"


RECORDED: dict[str, Standing] = {
    s.id: s
    for s in (
        Standing(
            "gdp-gaussian-mechanism",
            "proved",
            "from cited results",
            ("trade-off functions are invariant under bijections (unchecked)",),
        ),
        Standing(
            "gdp-composition",
            "proved",
            "from foundations",
            ("neyman-pearson (foundation)", "normal-rotation-invariance (foundation)"),
        ),
        Standing("gdp-to-dp", "proved", "outright"),
        Standing("basic-composition-k", "proved", "outright"),
        Standing("laplace-ratio", "proved", "outright"),
        Standing(
            "advanced-composition",
            "proved",
            "from foundations",
            (
                "approx-max-divergence-definition (foundation)",
                "markov-inequality (foundation)",
                "tower-property (foundation)",
                "total-probability (foundation)",
                "union-bound (foundation)",
                "linearity-of-expectation (foundation)",
            ),
        ),
    )
}
"""The standing of every theorem an account may use, from ``check --all --seed 0``."""


def live(ids: Iterable[str], budget: float = 60.0) -> dict[str, Standing]:
    """The standing of ``ids`` from a check in this run (``account --recheck``)."""
    from derivations.catalog import get
    from derivations.lemma_verdicts import LemmaVerdicts, check_one
    from numeric_checks import CheckOptions
    from symbolic.evidence import words

    out = {}
    for ident in ids:
        report = check_one(get(ident), LemmaVerdicts(CheckOptions(budget=budget)))
        rests = tuple(words(r) for r in report.rests_on if r.kind != "lemma")
        out[ident] = Standing(
            ident, report.verdict.value, report.basis or "none", rests, source="checked now"
        )
    return out


PROOFS = ("proved", "certified")
BASIS_ORDER = ("outright", "from foundations", "from cited results", "none")


def weakest_basis(standings: Iterable[Standing]) -> str:
    """The weakest basis among theorems that are proved or certified; ``none`` if any is
    not (checked, undecided: then the catalog does not prove the bound)."""
    worst = 0
    for s in standings:
        if s.verdict not in PROOFS:
            return "none"
        worst = max(worst, BASIS_ORDER.index(s.basis) if s.basis in BASIS_ORDER else 3)
    return BASIS_ORDER[worst]
